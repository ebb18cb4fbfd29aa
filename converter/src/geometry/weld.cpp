// Welding: vertices whose records are byte for byte the same become one, numbered in order of first
// use by the triangles — the numbering meshopt_generateVertexRemap gives, so the optimised output
// does not depend on which of the two made it. Made here because on big meshes meshoptimizer's weld
// spent most of its time in cache misses: comparing a record against whatever record its hash slot
// held (a random read into an array of 92-byte records) and reaching the slot itself. Here each slot
// keeps the high half of its record's hash beside the vertex number, so records are compared only
// when their hashes agree, and the slots of the vertices a few corners ahead are prefetched.
// Cost: one hash and, expected, one probe per corner, linear whatever the data: identical records
// (one triangle repeated a million times) all land in one slot and are merged there, and the table
// stays at most half full (scripts/bench-shapes.sh: repeated, zero_area).
#define XXH_INLINE_ALL // header-only: nothing to link
#include <xxhash.h>

#include "geometry/vertex_groups.hpp"

#include <cstring>

namespace assbin::converter::detail {

size_t weld_records(std::span<uint32_t> remap, std::span<const uint32_t> indices, const void* records,
                    size_t count, size_t stride) {
    const auto* bytes = static_cast<const unsigned char*>(records);
    const auto record = [&](uint32_t v) { return bytes + v * stride; };
    std::vector<uint64_t> hash(count);
    for (size_t v = 0; v < count; ++v) // in memory order: the records stream through the cache once
        hash[v] = XXH3_64bits(record(static_cast<uint32_t>(v)), stride);

    size_t capacity = 16;
    while (capacity < count * 2)
        capacity *= 2;
    const size_t mask = capacity - 1;
    constexpr uint64_t kVertexBits = 0xFFFFFFFF;
    std::vector<uint64_t> table(capacity, 0); // tag << 32 | (vertex + 1); 0 = empty
    std::fill(remap.begin(), remap.begin() + static_cast<std::ptrdiff_t>(count), kNoVertex);
    constexpr size_t kAhead = 16;
    uint32_t next = 0;
    for (size_t i = 0; i < indices.size(); ++i) {
        if (i + kAhead < indices.size()) __builtin_prefetch(&table[hash[indices[i + kAhead]] & mask]);
        const uint32_t v = indices[i];
        if (remap[v] != kNoVertex) continue;
        const uint64_t tag = hash[v] & ~kVertexBits;
        size_t slot = hash[v] & mask;
        while (true) {
            const uint64_t entry = table[slot];
            if (entry == 0) {
                table[slot] = tag | (v + 1);
                remap[v] = next++;
                break;
            }
            const uint32_t first = static_cast<uint32_t>(entry & kVertexBits) - 1;
            if ((entry & ~kVertexBits) == tag && std::memcmp(record(first), record(v), stride) == 0) {
                remap[v] = remap[first];
                break;
            }
            slot = (slot + 1) & mask;
        }
    }
    return next;
}

} // namespace assbin::converter::detail
