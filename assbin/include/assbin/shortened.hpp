// What a shortened dump (.assbin.regress) stores in place of arrays (ASSBIN-FORMAT.md §5): face
// hashes (Paul Hsieh's SuperFastHash as Assimp's Hash.h has it) and per-component bounds, computed
// exactly as Assimp's writer does, so that a full scene can be turned into its shortened twin.
#pragma once

#include <assbin/types.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace assbin {

// Faces per hash word in a shortened dump; the last block may be shorter.
inline constexpr uint32_t kFacesPerHash = 512;

// SuperFastHash of `data` in Assimp's incremental form: the seed is the previous hash, not the
// length. An empty span hashes as zero bytes (Assimp would take strlen of a null-terminated
// string instead; no caller of the format passes an empty block). Never fails.
uint32_t super_fast_hash(std::span<const std::byte> data, uint32_t seed = 0);

// SuperFastHash of one u32 given as 4 little-endian bytes: the only input the face hash uses.
// super_fast_hash_u32(3, 0) == 0x95f4fd58.
uint32_t super_fast_hash_u32(uint32_t value, uint32_t seed);

// How many hash words a shortened mesh with `face_count` faces stores: ceil(face_count / 512).
inline uint32_t face_hash_count(uint32_t face_count) {
    return face_count / kFacesPerHash + (face_count % kFacesPerHash != 0 ? 1 : 0);
}

// One hash per block of 512 faces (§5): per block h = 0; per face h = SFH(u32 size, h), then
// h = SFH(u32 index, h) for each index, whatever width the file would store the index in.
// Precondition: `faces` is well-formed (offsets empty, or ascending and ending within `indices`);
// throws std::invalid_argument naming the first bad face otherwise.
std::vector<uint32_t> face_hashes(const FaceList& faces);

// Per-component bounds with Assimp's ArrayBounds rules (§5): accumulators start at min = +1e10,
// max = -1e10 for every float or double component (what an empty array gives), and at
// min = 0x80000000, max = 0 for a weight's vertex id; then per element, in order,
// min = (min < e) ? min : e and max = (e < max) ? max : e. So a NaN element replaces the
// accumulator and a later element replaces the NaN; -0.0 after 0.0 is kept. Key bounds treat the
// f64 time as one more component; quaternions are handled as (w, x, y, z). Never fail.
Bounds<Vec3> compute_bounds(std::span<const Vec3> values);
Bounds<Color4> compute_bounds(std::span<const Color4> values);
Bounds<VertexWeight> compute_bounds(std::span<const VertexWeight> weights);
Bounds<VectorKey> compute_bounds(std::span<const VectorKey> keys);
Bounds<QuaternionKey> compute_bounds(std::span<const QuaternionKey> keys);

// The shortened form of a full scene, as Assimp's writer would store it: every vertex stream,
// bone weight list and key track replaced by its bounds (key bounds only for tracks whose count
// is not 0, as the writer does for null key arrays), faces by their hashes, texture data dropped,
// header.shortened set. Counts, names, matrices, materials, lights and cameras are copied; the big
// arrays are not, so this costs little memory. A scene that is already shortened is returned as a
// copy. Throws std::invalid_argument when a mesh's faces are malformed (see face_hashes).
Scene make_shortened(const Scene& full);

} // namespace assbin
