// The MikkTSpace reference's vector arithmetic, operation for operation, for mikktspace.cpp: the
// results must agree with the reference's to the last bits, and Eigen may reorder sums. Internal to
// the converter.
#pragma once

#include <Eigen/Core>

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <span>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace assbin::converter::detail::mikktspace_arithmetic {

// The reference's vector arithmetic, operation for operation (Eigen may reorder sums).
struct Vec3 {
    float x, y, z;
};
inline Vec3 vec(const Eigen::Vector3f& v) {
    return {v.x(), v.y(), v.z()};
}
inline Vec3 sub(Vec3 a, Vec3 b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline Vec3 add(Vec3 a, Vec3 b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline Vec3 scale(float s, Vec3 v) {
    return {s * v.x, s * v.y, s * v.z};
}
inline float dot(Vec3 a, Vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline float length(Vec3 v) {
    return std::sqrt(dot(v, v));
}
inline bool not_zero(float x) {
    return std::fabs(x) > FLT_MIN;
}
inline bool not_zero(Vec3 v) {
    return not_zero(v.x) || not_zero(v.y) || not_zero(v.z);
}
inline Vec3 normalized_if_not_zero(Vec3 v) {
    return not_zero(v) ? scale(1 / length(v), v) : v;
}
// v without its component along the unit normal n, then normalised (the reference's "project").
inline Vec3 projected(Vec3 v, Vec3 n) {
    return normalized_if_not_zero(sub(v, scale(dot(n, v), n)));
}

// `projected` applied to each of `v`, in place. Four at a time where the target has SSE2, with the
// scalar function's operations in its order: SSE's multiply, add, square root and division round
// exactly as the scalar instructions do, and no multiply-add is fused (x86-64's baseline has no FMA,
// and GCC's ISO mode does not contract), so each result is the scalar one bit for bit. Why: these
// normalisations, a square root and a division each, four per group member, were about a third of
// the 977k-triangle grid's conversion, and the part that slowed most when the VM's host was busy.
inline void project_all(std::span<Vec3> v, Vec3 n) {
    size_t k = 0;
#if defined(__SSE2__)
    const __m128 nx = _mm_set1_ps(n.x), ny = _mm_set1_ps(n.y), nz = _mm_set1_ps(n.z);
    const __m128 sign = _mm_set1_ps(-0.0f), smallest = _mm_set1_ps(FLT_MIN), one = _mm_set1_ps(1.0f);
    const auto above_smallest = [&](__m128 a) { return _mm_cmpgt_ps(_mm_andnot_ps(sign, a), smallest); };
    for (; k + 4 <= v.size(); k += 4) {
        Vec3* const four = v.data() + k;
        __m128 x = _mm_setr_ps(four[0].x, four[1].x, four[2].x, four[3].x);
        __m128 y = _mm_setr_ps(four[0].y, four[1].y, four[2].y, four[3].y);
        __m128 z = _mm_setr_ps(four[0].z, four[1].z, four[2].z, four[3].z);
        const __m128 along = _mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, x), _mm_mul_ps(ny, y)), _mm_mul_ps(nz, z));
        x = _mm_sub_ps(x, _mm_mul_ps(along, nx));
        y = _mm_sub_ps(y, _mm_mul_ps(along, ny));
        z = _mm_sub_ps(z, _mm_mul_ps(along, nz));
        const __m128 nonzero = _mm_or_ps(_mm_or_ps(above_smallest(x), above_smallest(y)), above_smallest(z));
        const __m128 length =
            _mm_sqrt_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z)));
        const __m128 inverse = _mm_div_ps(one, length);
        const auto kept_or_scaled = [&](__m128 a) {
            return _mm_or_ps(_mm_and_ps(nonzero, _mm_mul_ps(inverse, a)), _mm_andnot_ps(nonzero, a));
        };
        alignas(16) float xs[4], ys[4], zs[4];
        _mm_store_ps(xs, kept_or_scaled(x));
        _mm_store_ps(ys, kept_or_scaled(y));
        _mm_store_ps(zs, kept_or_scaled(z));
        for (int i = 0; i < 4; ++i)
            four[i] = {xs[i], ys[i], zs[i]};
    }
#endif
    for (; k < v.size(); ++k)
        v[k] = projected(v[k], n);
}

inline bool same(Vec3 a, Vec3 b) {
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

} // namespace assbin::converter::detail::mikktspace_arithmetic
