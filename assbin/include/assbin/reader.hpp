// Reading ASSBIN dumps: full, compressed and shortened, from every Assimp writer since 3.0.
#pragma once

#include <assbin/error.hpp>
#include <assbin/types.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace assbin {

// Bounds that keep hostile input from costing unbounded memory or time. Exceeding one throws
// ParseError with ErrorCode::LimitExceeded and a message naming the limit. With the defaults, a
// read allocates at most about
//     compressed:  inflated body (<= min(max_inflated_bytes, max_inflate_ratio x stream bytes))
//                  + scene (<= max_allocation_ratio x inflated body + max_allocation_allowance)
//     plain:       scene (<= max_allocation_ratio x body bytes + max_allocation_allowance)
// on top of the caller's copy of the file. Raise a limit for a file that needs it; the CLI's
// reading verbs take --max-inflated-mb, --max-inflate-ratio, --max-node-depth and
// --max-allocation-ratio.
struct ReadLimits {
    // Absolute cap on the inflated body of a compressed dump.
    uint64_t max_inflated_bytes = uint64_t{2} << 30;
    // Cap on the inflated body relative to the compressed stream size. Real dumps inflate at most
    // 256:1 (3,364 files from every writer; zero-filled arrays do that); deflate itself stops near
    // 1032:1, so this halves what a zlib bomb can cost.
    uint64_t max_inflate_ratio = 512;
    // Deepest node nesting accepted (the root is depth 1).
    uint32_t max_node_depth = 1024;
    // Cap on the memory the Scene's arrays, strings and records (and the chunk trace, when asked
    // for) may take, as a multiple of the body bytes read plus a fixed allowance. The reader counts
    // each array's elements, each record and each heap string before allocating it. Real dumps
    // take at most 3.9x (3,364 files; 2.1x above 100 KB); crafted ones reach about 13x through
    // the scene alone (empty metadata entries: 6 bytes in the file, about 80 in memory), so the
    // default refuses mainly what the chunk trace or the skipped-chunk list would amplify (each
    // record keeps its chunk path, which grows with the nesting depth).
    uint64_t max_allocation_ratio = 16;
    uint64_t max_allocation_allowance = uint64_t{16} << 20;
};

// One chunk as the reader met it, for `assbin tree` and other inspection tools.
struct ChunkRecord {
    uint32_t id = 0;
    uint64_t offset = 0;          // of the chunk head, in the (inflated) file image
    uint32_t declared_length = 0; // the length field
    uint64_t actual_length = 0;   // payload bytes the reader consumed (differs for old MESH/SCENE)
    unsigned depth = 0;           // 0 for SCENE
    bool skipped = false;         // an unknown chunk stepped over
    bool complete = false;        // false when reading stopped inside this chunk
    std::string path;             // "scene/mesh[3]/bone[12]"
    std::vector<std::pair<std::string, std::string>> fields; // identifying fields: name, counts, key
};

// How a read went about its work, beyond the scene it returns (ReadOptions::report): for tests and
// tools that must see which path ran; the scene is the same either way.
struct ReadReport {
    uint32_t meshes_read_in_parallel = 0; // meshes decoded on threads and kept (0: one-thread read)
    bool parallel_read_gave_way = false;  // a parallel read met damage or the cap: one thread decided
};

struct ReadOptions {
    ReadLimits limits;
    // When set, every chunk is appended here in file order as it is entered; on a ParseError the
    // records up to the damage stay, the last ones marked incomplete.
    std::vector<ChunkRecord>* chunk_trace = nullptr;
    // Bytes after the end of the SCENE chunk are read past by default, as Assimp's loader does, and
    // reported in Scene::trailing_bytes; when set they are refused (ParseError, BadLength).
    bool refuse_trailing_bytes = false;
    // For tools that need the chunks, counts and names but not the data (`assbin tree`): vertex
    // streams, faces and bone weights are checked exactly as usual (every length and count, every
    // face's size) and stepped over instead of copied, so the streams are present but empty and
    // faces and weights are empty. Such a scene is for inspection only (validate would fault it).
    bool structure_only = false;
    // For tools that look at the data without keeping it (`assbin info`): vertex streams, faces and
    // bone weights are checked as usual and left in the data read instead of copied (FileRecords,
    // FaceList::file_records; `values`, faces and `weights` stay empty), so they are valid only while
    // that data lives. Records that differ from the in-memory ones (the 5.2.5+ double layout's
    // vectors and colours) are copied as usual. Readers of such a scene go through records(),
    // weight_records() and FaceList::for_each (validate and compare do); the writer and the converter
    // copy such a scene's arrays first (copy_file_records).
    bool array_views = false;
    // Threads that decode meshes; 0 means one per core. Meshes are decoded in parallel when they
    // take `parallel_mesh_bytes` or more together, their chunk lengths are exact (every writer since
    // 5.1) and no chunk trace is asked for. The scene, and any error, are exactly those of a
    // one-thread read: a parallel read that meets damage or a limit gives way to the one-thread
    // read, which reports it.
    unsigned threads = 1;
    // Below this, starting threads costs more than decoding in one (about 1 MB of meshes take 0.1 ms).
    uint64_t parallel_mesh_bytes = uint64_t{1} << 20;
    // When set, filled with how the read went (see ReadReport); reset at the start of each read.
    ReadReport* report = nullptr;
};

// Reads the 512-byte header (and the compressed prefix when the compressed flag is set).
// Throws ParseError (NotAssbin, Truncated) when the data is not an ASSBIN header.
Header read_header(std::span<const std::byte> data);

// Reads a whole dump held in memory. Throws ParseError on anything it cannot read; the scene's
// layout records which writer variant the file came from.
Scene read_scene(std::span<const std::byte> data, const ReadOptions& options = {});

// Reads a file as read_scene does, without copying it first: an uncompressed dump is read straight
// from a read-only memory mapping of the file (a compressed one is inflated from it, and the mapping
// given back before the body is read); where mapping fails the file is read into memory. Throws
// ParseError (code Io) when it cannot be read. A file that another program truncates while it is
// mapped raises SIGBUS, as for any mapped file: programs reading files others may cut handle that
// signal or use load_file_bytes + read_scene.
Scene read_file(const std::filesystem::path& path, const ReadOptions& options = {});

// The whole file's bytes. Throws ParseError (code Io) on failure.
std::vector<std::byte> load_file_bytes(const std::filesystem::path& path);

} // namespace assbin
