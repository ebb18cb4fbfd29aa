// The test-side writer's shortened-dump arithmetic (ASSBIN-FORMAT.md §5): SuperFastHash, face
// hashes per 512 faces, bounds of vertex streams, weights and keys, and the §3 short-length
// deficit of old full dumps. Part of the dump builder (dump_builder.hpp); nothing here comes from
// the reader.
#include "support/dump_builder.hpp"

#include <algorithm>
#include <cstring>

namespace assbin_test {

uint32_t super_fast_hash(std::span<const std::byte> data, uint32_t hash) {
    auto byte_at = [&](size_t i) { return static_cast<uint32_t>(data[i]); };
    auto get16 = [&](size_t i) { return byte_at(i) | (byte_at(i + 1) << 8); };
    size_t len = data.size();
    size_t rem = len & 3;
    size_t pos = 0;
    for (size_t blocks = len >> 2; blocks > 0; --blocks, pos += 4) {
        hash += get16(pos);
        uint32_t tmp = (get16(pos + 2) << 11) ^ hash;
        hash = (hash << 16) ^ tmp;
        hash += hash >> 11;
    }
    switch (rem) {
    case 3:
        hash += get16(pos);
        hash ^= hash << 16;
        // Hash.h: abs() of the third byte read as a signed char
        hash ^= static_cast<uint32_t>(std::abs(static_cast<int>(static_cast<int8_t>(byte_at(pos + 2)))))
                << 18;
        hash += hash >> 11;
        break;
    case 2:
        hash += get16(pos);
        hash ^= hash << 11;
        hash += hash >> 17;
        break;
    case 1:
        hash += static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(byte_at(pos))));
        hash ^= hash << 10;
        hash += hash >> 1;
        break;
    default:
        break;
    }
    hash ^= hash << 3;
    hash += hash >> 5;
    hash ^= hash << 4;
    hash += hash >> 17;
    hash ^= hash << 25;
    hash += hash >> 6;
    return hash;
}

uint32_t sfh_u32(uint32_t value, uint32_t hash) {
    std::array<std::byte, 4> le{};
    for (int i = 0; i < 4; ++i)
        le[i] = std::byte{static_cast<uint8_t>(value >> (8 * i))};
    return super_fast_hash(le, hash);
}

std::vector<uint32_t> face_hashes(const std::vector<std::vector<uint32_t>>& faces) {
    std::vector<uint32_t> out;
    for (size_t block = 0; block < faces.size(); block += 512) {
        uint32_t h = 0;
        size_t end = std::min(faces.size(), block + 512);
        for (size_t f = block; f < end; ++f) {
            h = sfh_u32(static_cast<uint32_t>(faces[f].size()), h);
            for (uint32_t index : faces[f])
                h = sfh_u32(index, h);
        }
        out.push_back(h);
    }
    return out;
}

namespace {

// ArrayBounds' update rule, per component (§5): a NaN element replaces the accumulator.
template <class T>
void take_min(T& acc, T e) {
    acc = (acc < e) ? acc : e;
}
template <class T>
void take_max(T& acc, T e) {
    acc = (e < acc) ? acc : e;
}

template <size_t N>
FloatBounds<N> float_bounds(std::span<const std::array<float, N>> values) {
    FloatBounds<N> b;
    b.min.fill(1e10f);
    b.max.fill(-1e10f);
    for (const auto& e : values) {
        for (size_t i = 0; i < N; ++i) {
            take_min(b.min[i], e[i]);
            take_max(b.max[i], e[i]);
        }
    }
    return b;
}

template <class Key, class Out>
Out key_bounds(std::span<const Key> keys) {
    Out b;
    b.min.time = 1e10;
    b.max.time = -1e10;
    b.min.value.fill(1e10f);
    b.max.value.fill(-1e10f);
    for (const Key& k : keys) {
        take_min(b.min.time, k.time);
        take_max(b.max.time, k.time);
        for (size_t i = 0; i < k.value.size(); ++i) {
            take_min(b.min.value[i], k.value[i]);
            take_max(b.max.value[i], k.value[i]);
        }
    }
    return b;
}

} // namespace

FloatBounds<3> bounds_of(std::span<const F3> values) {
    return float_bounds<3>(values);
}
FloatBounds<4> bounds_of(std::span<const F4> values) {
    return float_bounds<4>(values);
}

WeightBounds bounds_of(std::span<const WeightSpec> weights) {
    WeightBounds b{{0x80000000u, 1e10f}, {0u, -1e10f}};
    for (const WeightSpec& w : weights) {
        take_min(b.min.vertex, w.vertex);
        take_max(b.max.vertex, w.vertex);
        take_min(b.min.weight, w.weight);
        take_max(b.max.weight, w.weight);
    }
    return b;
}

VKeyBounds bounds_of(std::span<const VKeySpec> keys) {
    return key_bounds<VKeySpec, VKeyBounds>(keys);
}
QKeyBounds bounds_of(std::span<const QKeySpec> keys) {
    return key_bounds<QKeySpec, QKeyBounds>(keys);
}

uint64_t short_length_deficit(const MeshSpec& mesh) {
    // Each color set and UV array was one fwrite item, so it counted 1 (0 when nv = 0).
    uint64_t nv = mesh.nv();
    uint64_t per_set = nv > 0 ? 1 : 0;
    return mesh.colors.size() * (16 * nv - per_set) + mesh.uvs.size() * (12 * nv - per_set);
}

} // namespace assbin_test
