// Shared by normal and tangent generation: grouping vertices by equal values, and giving each
// triangle corner its own value through its vertex (splitting vertices where corners disagree).
#pragma once

#include "algorithms.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace assbin::converter::detail {

template <size_t N>
using Bits = std::array<uint32_t, N>;

inline uint32_t float_bits(float value) {
    if (value == 0.0f) return 0; // -0 and +0 are one position
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    return bits;
}

template <size_t N>
uint64_t hash_bits(const Bits<N>& bits) {
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (const uint32_t b : bits) {
        h ^= b;
        h *= 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
    }
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return h;
}

// Numbers the distinct keys: vertices with bit-identical keys get the same group, numbered in
// order of first appearance. Open addressing over a power-of-two table whose entries keep the high
// half of their key's hash beside the vertex: a probe that meets another key is told apart by that
// tag, without reading the other vertex (a random access into arrays that outgrow the cache on big
// meshes). Hashes are made a few vertices ahead and their slots prefetched, for the same reason.
template <size_t N, class KeyOf>
std::vector<uint32_t> group_equal(size_t count, KeyOf key_of) {
    size_t capacity = 16;
    while (capacity < count * 2)
        capacity *= 2;
    const size_t mask = capacity - 1;
    std::vector<uint64_t> table(capacity, 0); // tag << 32 | (vertex + 1) of the group's first; 0 = empty
    std::vector<uint32_t> group(count);
    constexpr size_t kAhead = 8;
    std::array<uint64_t, kAhead> ahead{};
    const auto look_ahead = [&](size_t v) {
        const uint64_t hash = hash_bits(key_of(static_cast<uint32_t>(v)));
        ahead[v % kAhead] = hash;
        __builtin_prefetch(&table[hash & mask]);
    };
    for (size_t v = 0; v < std::min(count, kAhead); ++v)
        look_ahead(v);
    uint32_t groups = 0;
    for (uint32_t v = 0; v < count; ++v) {
        const uint64_t hash = ahead[v % kAhead];
        if (v + kAhead < count) look_ahead(v + kAhead);
        const uint64_t tag = hash >> 32 << 32;
        size_t slot = hash & mask;
        while (true) {
            const uint64_t entry = table[slot];
            if (entry == 0) {
                table[slot] = tag | (v + 1);
                group[v] = groups++;
                break;
            }
            if ((entry & ~uint64_t{0xFFFFFFFF}) == tag) {
                const uint32_t first = static_cast<uint32_t>(entry) - 1;
                if (key_of(first) == key_of(v)) {
                    group[v] = group[first];
                    break;
                }
            }
            slot = (slot + 1) & mask;
        }
    }
    return group;
}

// meshopt_generateVertexRemap's numbering, made faster on big meshes (weld.cpp): vertices whose
// `stride`-byte records are identical get one number, numbers given in order of first use by
// `indices`. remap[v] is vertex v's number, kNoVertex where no index uses it; `remap` holds at least
// `count` entries. Returns how many numbers were given.
constexpr uint32_t kNoVertex = ~0u;
size_t weld_records(std::span<uint32_t> remap, std::span<const uint32_t> indices, const void* records,
                    size_t count, size_t stride);

// Appends a copy of vertex v (every attribute the mesh has so far) and returns its index.
inline uint32_t duplicate_vertex(TriangleMesh& mesh, uint32_t v) {
    const auto copy = [v](auto& values) {
        if (v < values.size()) values.push_back(values[v]);
    };
    copy(mesh.positions);
    copy(mesh.normals);
    copy(mesh.tangents);
    copy(mesh.bitangents);
    copy(mesh.uvs);
    copy(mesh.source_vertex);
    return static_cast<uint32_t>(mesh.positions.size() - 1);
}

// Gives every corner its value through its vertex. The first corner to reach a vertex sets it; a
// corner whose value matches none of the vertex's copies gets a new copy of the vertex. Returns
// the value per vertex (copies included); vertices no corner uses hold `unused`. value_of(c) is
// corner c's value, asked once per corner in order, before the corner is pointed at a copy (so
// mesh.triangles[c] is still its own vertex): values are made as they are given, never all held.
template <class Value, class ValueOf>
std::vector<Value> assign_corner_values(TriangleMesh& mesh, ValueOf value_of, const Value& unused) {
    std::vector<Value> values(mesh.vertex_count(), unused);
    std::vector<uint8_t> assigned(mesh.vertex_count(), 0);
    std::vector<int32_t> next_copy(mesh.vertex_count(), -1);
    for (size_t c = 0; c < mesh.triangles.size(); ++c) {
        const uint32_t v = mesh.triangles[c];
        const Value value = value_of(c);
        if (!assigned[v]) {
            values[v] = value;
            assigned[v] = 1;
            continue;
        }
        uint32_t at = v;
        while (!(values[at] == value) && next_copy[at] >= 0)
            at = static_cast<uint32_t>(next_copy[at]);
        if (!(values[at] == value)) {
            const uint32_t copy = duplicate_vertex(mesh, v);
            values.push_back(value);
            assigned.push_back(1);
            next_copy.push_back(-1);
            next_copy[at] = static_cast<int32_t>(copy);
            at = copy;
        }
        mesh.triangles[c] = at;
    }
    return values;
}

// Triangles of each group, grouped (offsets into `list`).
struct GroupTriangles {
    std::vector<uint32_t> first;
    std::vector<uint32_t> list;
};

inline GroupTriangles triangles_by_group(const TriangleMesh& mesh, const std::vector<uint32_t>& group) {
    const uint32_t groups = group.empty() ? 0 : *std::max_element(group.begin(), group.end()) + 1;
    GroupTriangles out;
    out.first.assign(groups + 1, 0);
    for (const uint32_t v : mesh.triangles)
        ++out.first[group[v] + 1];
    for (uint32_t g = 0; g < groups; ++g)
        out.first[g + 1] += out.first[g];
    out.list.resize(mesh.triangles.size());
    std::vector<uint32_t> fill(out.first.begin(), out.first.end() - 1);
    for (size_t c = 0; c < mesh.triangles.size(); ++c)
        out.list[fill[group[mesh.triangles[c]]]++] = static_cast<uint32_t>(c / 3);
    return out;
}

inline Eigen::Vector3f normalized_or_zero(const Eigen::Vector3f& v) {
    const float length = v.norm();
    return length > 0 && std::isfinite(length) ? Eigen::Vector3f(v / length) : Eigen::Vector3f::Zero();
}

} // namespace assbin::converter::detail
