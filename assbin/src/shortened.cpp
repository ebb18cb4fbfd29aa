// SuperFastHash and the per-block face hashes of shortened dumps (ASSBIN-FORMAT.md §5).
#include <assbin/shortened.hpp>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace assbin {

namespace {

uint32_t get16(const std::byte* data) {
    return static_cast<uint32_t>(data[0]) | (static_cast<uint32_t>(data[1]) << 8);
}

// Hash.h reads single bytes through `const char*`, which is signed on every platform Assimp's
// dumps came from; the tail cases depend on that sign.
int32_t signed_byte(std::byte b) {
    return static_cast<int8_t>(static_cast<uint8_t>(b));
}

uint32_t avalanche(uint32_t hash) {
    hash ^= hash << 3;
    hash += hash >> 5;
    hash ^= hash << 4;
    hash += hash >> 17;
    hash ^= hash << 25;
    hash += hash >> 6;
    return hash;
}

} // namespace

uint32_t super_fast_hash(std::span<const std::byte> data, uint32_t seed) {
    uint32_t hash = seed;
    const std::byte* at = data.data();
    for (size_t blocks = data.size() >> 2; blocks > 0; --blocks, at += 4) {
        hash += get16(at);
        const uint32_t tmp = (get16(at + 2) << 11) ^ hash;
        hash = (hash << 16) ^ tmp;
        hash += hash >> 11;
    }
    switch (data.size() & 3) {
    case 3:
        hash += get16(at);
        hash ^= hash << 16;
        hash ^= static_cast<uint32_t>(std::abs(signed_byte(at[2]))) << 18;
        hash += hash >> 11;
        break;
    case 2:
        hash += get16(at);
        hash ^= hash << 11;
        hash += hash >> 17;
        break;
    case 1:
        hash += static_cast<uint32_t>(signed_byte(at[0]));
        hash ^= hash << 10;
        hash += hash >> 1;
        break;
    default:
        break;
    }
    return avalanche(hash);
}

uint32_t super_fast_hash_u32(uint32_t value, uint32_t seed) {
    // The 4-byte case of super_fast_hash, unrolled: one main-loop step, then the avalanche.
    uint32_t hash = seed + (value & 0xFFFFu);
    const uint32_t tmp = ((value >> 16) << 11) ^ hash;
    hash = (hash << 16) ^ tmp;
    hash += hash >> 11;
    return avalanche(hash);
}

std::vector<uint32_t> face_hashes(const FaceList& faces) {
    const size_t face_count = faces.size();
    std::vector<uint32_t> hashes;
    if (face_count == 0) return hashes;
    if (faces.offsets.back() > faces.indices.size()) {
        throw std::invalid_argument("the face offsets end at " + std::to_string(faces.offsets.back()) +
                                    ", past the " + std::to_string(faces.indices.size()) + " indices");
    }
    hashes.reserve((face_count + kFacesPerHash - 1) / kFacesPerHash);
    for (size_t block = 0; block < face_count; block += kFacesPerHash) {
        const size_t end = std::min(face_count, block + kFacesPerHash);
        uint32_t hash = 0;
        for (size_t face = block; face < end; ++face) {
            const uint32_t first = faces.offsets[face];
            const uint32_t last = faces.offsets[face + 1];
            if (last < first) {
                throw std::invalid_argument("face " + std::to_string(face) +
                                            " ends before it starts (offsets " + std::to_string(first) +
                                            ", " + std::to_string(last) + ")");
            }
            hash = super_fast_hash_u32(last - first, hash);
            for (uint32_t i = first; i < last; ++i)
                hash = super_fast_hash_u32(faces.indices[i], hash);
        }
        hashes.push_back(hash);
    }
    return hashes;
}

} // namespace assbin
