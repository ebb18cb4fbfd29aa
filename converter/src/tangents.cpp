// Rule 7: missing tangents and bitangents (MikkTSpace's construction), per source mesh, in mesh
// space, before baking; normals are there by then (normals.cpp).
#include "stages.hpp"
#include "vertex_groups.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace assbin::converter {

using namespace detail;

namespace {

// MikkTSpace's per-triangle data (InitTriInfo): unit tangent and bitangent directions signed by
// the UV orientation, and whether the UV mapping is usable at all.
struct TriangleFrame {
    Eigen::Vector3f os = Eigen::Vector3f::Zero();
    Eigen::Vector3f ot = Eigen::Vector3f::Zero();
    bool preserving = false;
    bool usable = false;
};

TriangleFrame triangle_frame(const TriangleMesh& mesh, size_t t) {
    const uint32_t i0 = mesh.triangles[3 * t], i1 = mesh.triangles[3 * t + 1], i2 = mesh.triangles[3 * t + 2];
    const Eigen::Vector3f d1 = mesh.positions[i1] - mesh.positions[i0];
    const Eigen::Vector3f d2 = mesh.positions[i2] - mesh.positions[i0];
    const Eigen::Vector2f t21 = mesh.uvs[i1] - mesh.uvs[i0];
    const Eigen::Vector2f t31 = mesh.uvs[i2] - mesh.uvs[i0];
    const float signed_area = t21.x() * t31.y() - t21.y() * t31.x();
    const Eigen::Vector3f os = t31.y() * d1 - t21.y() * d2;
    const Eigen::Vector3f ot = -t31.x() * d1 + t21.x() * d2;
    TriangleFrame frame;
    frame.preserving = signed_area > 0;
    if (std::fabs(signed_area) > std::numeric_limits<float>::min()) {
        const float sign = frame.preserving ? 1.0f : -1.0f;
        frame.os = sign * normalized_or_zero(os);
        frame.ot = sign * normalized_or_zero(ot);
        frame.usable = !frame.os.isZero() && !frame.ot.isZero();
    }
    return frame;
}

Eigen::Vector3f project_to_plane(const Eigen::Vector3f& v, const Eigen::Vector3f& normal) {
    return normalized_or_zero(v - normal.dot(v) * normal);
}

// The angle at corner `corner` of triangle `t`, measured in the plane of `normal` (EvalTspace).
float corner_angle(const TriangleMesh& mesh, size_t t, size_t corner, const Eigen::Vector3f& normal) {
    const Eigen::Vector3f& p = mesh.positions[mesh.triangles[3 * t + corner]];
    const Eigen::Vector3f& prev = mesh.positions[mesh.triangles[3 * t + (corner + 2) % 3]];
    const Eigen::Vector3f& next = mesh.positions[mesh.triangles[3 * t + (corner + 1) % 3]];
    const Eigen::Vector3f a = project_to_plane(prev - p, normal);
    const Eigen::Vector3f b = project_to_plane(next - p, normal);
    return std::acos(std::clamp(a.dot(b), -1.0f, 1.0f));
}

void frames_without_uvs(TriangleMesh& mesh) {
    mesh.tangents.resize(mesh.vertex_count());
    mesh.bitangents.resize(mesh.vertex_count());
    for (size_t v = 0; v < mesh.vertex_count(); ++v) {
        const Eigen::Vector3f n = normalized_or_zero(mesh.normals[v]);
        mesh.tangents[v] = any_perpendicular(n);
        mesh.bitangents[v] =
            n.isZero() ? Eigen::Vector3f::UnitY() : Eigen::Vector3f(n.cross(mesh.tangents[v]));
    }
}

} // namespace

void generate_tangents(TriangleMesh& mesh) {
    if (mesh.normals.size() != mesh.vertex_count())
        throw std::invalid_argument("generate_tangents needs normals");
    if (mesh.uvs.size() != mesh.vertex_count()) return frames_without_uvs(mesh);

    const size_t triangle_count = mesh.triangles.size() / 3;
    std::vector<TriangleFrame> frames(triangle_count);
    for (size_t t = 0; t < triangle_count; ++t)
        frames[t] = triangle_frame(mesh, t);
    // MikkTSpace identifies vertices by value (position, normal, UV), not by index.
    const std::vector<uint32_t> group = group_equal<8>(mesh.vertex_count(), [&](uint32_t v) {
        const Eigen::Vector3f& p = mesh.positions[v];
        const Eigen::Vector3f& n = mesh.normals[v];
        const Eigen::Vector2f& uv = mesh.uvs[v];
        return Bits<8>{float_bits(p.x()), float_bits(p.y()), float_bits(p.z()),  float_bits(n.x()),
                       float_bits(n.y()), float_bits(n.z()), float_bits(uv.x()), float_bits(uv.y())};
    });
    const size_t groups = group.empty() ? 0 : *std::max_element(group.begin(), group.end()) + 1;

    // Angle-weighted sums per (group, orientation): slot 2g + 1 preserving, 2g mirrored.
    std::vector<Eigen::Vector3f> sum(2 * groups, Eigen::Vector3f::Zero());
    for (size_t c = 0; c < mesh.triangles.size(); ++c) {
        const TriangleFrame& frame = frames[c / 3];
        if (!frame.usable) continue;
        const uint32_t v = mesh.triangles[c];
        const Eigen::Vector3f n = normalized_or_zero(mesh.normals[v]);
        const float angle = corner_angle(mesh, c / 3, c % 3, n);
        sum[2 * group[v] + (frame.preserving ? 1 : 0)] += angle * project_to_plane(frame.os, n);
    }
    // A triangle without usable UVs joins whichever orientation its corner's vertex has (MikkTSpace's
    // GROUP_WITH_ANY), preserving first.
    std::vector<uint32_t> corner_slot(mesh.triangles.size());
    for (size_t c = 0; c < mesh.triangles.size(); ++c) {
        const TriangleFrame& frame = frames[c / 3];
        const uint32_t g = group[mesh.triangles[c]];
        const bool preserving =
            frame.usable ? frame.preserving : !sum[2 * g + 1].isZero() || sum[2 * g].isZero();
        corner_slot[c] = 2 * g + (preserving ? 1 : 0);
    }
    const std::vector<uint32_t> slot = assign_corner_values<uint32_t>(mesh, corner_slot, UINT32_MAX);

    mesh.tangents.resize(mesh.vertex_count());
    mesh.bitangents.resize(mesh.vertex_count());
    for (size_t v = 0; v < mesh.vertex_count(); ++v) {
        const Eigen::Vector3f n = normalized_or_zero(mesh.normals[v]);
        Eigen::Vector3f tangent =
            normalized_or_zero(slot[v] < sum.size() ? sum[slot[v]] : Eigen::Vector3f::Zero());
        if (tangent.isZero()) tangent = any_perpendicular(n);
        const float sign = slot[v] % 2 == 1 ? 1.0f : -1.0f;
        mesh.tangents[v] = tangent;
        mesh.bitangents[v] = n.isZero() ? Eigen::Vector3f(any_perpendicular(tangent))
                                        : Eigen::Vector3f(sign * n.cross(tangent));
    }
}

} // namespace assbin::converter
