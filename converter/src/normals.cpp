// Rule 7: missing normals are generated per source mesh, in mesh space, before baking: area-weighted
// face normals summed around each position, split where faces meet at a crease.
#include "stages.hpp"
#include "vertex_groups.hpp"

#include <meshoptimizer.h>

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

// Vertices numbered by position: equal positions (-0.0 taken as +0.0) share a number, numbers given
// in order of first appearance (meshoptimizer's remap over the positions alone).
std::vector<uint32_t> group_by_position(const std::vector<Eigen::Vector3f>& positions) {
    std::vector<Eigen::Vector3f> canonical(positions);
    for (Eigen::Vector3f& p : canonical)
        p += Eigen::Vector3f::Zero();
    std::vector<uint32_t> group(canonical.size());
    meshopt_generateVertexRemap(group.data(), static_cast<const uint32_t*>(nullptr), canonical.size(),
                                canonical.data(), canonical.size(), sizeof(Eigen::Vector3f));
    return group;
}

} // namespace

Eigen::Vector3f any_perpendicular(const Eigen::Vector3f& normal) {
    const Eigen::Vector3f n = normalized_or_zero(normal);
    if (n.isZero()) return Eigen::Vector3f::UnitX();
    // Duff et al., "Building an Orthonormal Basis, Revisited" (2017).
    const float sign = std::copysign(1.0f, n.z());
    const float a = -1.0f / (sign + n.z());
    const float b = n.x() * n.y() * a;
    return Eigen::Vector3f(1.0f + sign * n.x() * n.x() * a, sign * b, -sign * n.x()).normalized();
}

void generate_normals(TriangleMesh& mesh, float crease_degrees) {
    const size_t triangle_count = mesh.triangles.size() / 3;
    std::vector<Eigen::Vector3f> area(triangle_count), unit(triangle_count);
    for (size_t t = 0; t < triangle_count; ++t) {
        const Eigen::Vector3f& p0 = mesh.positions[mesh.triangles[3 * t]];
        const Eigen::Vector3f& p1 = mesh.positions[mesh.triangles[3 * t + 1]];
        const Eigen::Vector3f& p2 = mesh.positions[mesh.triangles[3 * t + 2]];
        area[t] = (p1 - p0).cross(p2 - p0); // twice the area, along the face normal
        if (!area[t].allFinite()) area[t].setZero();
        unit[t] = normalized_or_zero(area[t]);
    }
    const std::vector<uint32_t> group = group_by_position(mesh.positions);
    const GroupTriangles around = triangles_by_group(mesh, group);
    const float cos_crease = std::cos(crease_degrees * std::numbers::pi_v<float> / 180.0f);

    // Per position group, its triangles' face directions with equal ones merged (areas summed): a
    // corner then weighs its group's directions, not every triangle around it, which would cost
    // the square of the valence (a 65,535-triangle fan: 4e9 steps). A group with more than
    // kMaxDirections distinct directions, which only hostile or pathological meshes have, is
    // smoothed without crease splitting, so the cost stays linear in the mesh size.
    constexpr uint32_t kMaxDirections = 64;
    struct Direction {
        Eigen::Vector3f unit, area;
    };
    const size_t groups = around.first.size() - 1;
    std::vector<uint32_t> first_direction(groups + 1, 0);
    std::vector<Direction> directions;
    std::vector<Eigen::Vector3f> group_area(groups, Eigen::Vector3f::Zero());
    std::vector<uint8_t> smooth_only(groups, 0);
    for (size_t g = 0; g < groups; ++g) {
        first_direction[g] = static_cast<uint32_t>(directions.size());
        for (uint32_t k = around.first[g]; k < around.first[g + 1]; ++k) {
            const uint32_t t = around.list[k];
            group_area[g] += area[t];
            if (smooth_only[g]) continue;
            const auto begin = directions.begin() + first_direction[g];
            const auto same =
                std::find_if(begin, directions.end(), [&](const Direction& d) { return d.unit == unit[t]; });
            if (same != directions.end()) {
                same->area += area[t];
            } else if (directions.end() - begin < kMaxDirections) {
                directions.push_back({unit[t], area[t]});
            } else {
                smooth_only[g] = 1;
                directions.resize(first_direction[g]);
            }
        }
    }
    first_direction[groups] = static_cast<uint32_t>(directions.size());

    std::vector<Eigen::Vector3f> corner_normals(mesh.triangles.size());
    for (size_t c = 0; c < mesh.triangles.size(); ++c) {
        const size_t t = c / 3;
        const uint32_t g = group[mesh.triangles[c]];
        const Eigen::Vector3f& all = group_area[g];
        Eigen::Vector3f sum = smooth_only[g] ? all : Eigen::Vector3f::Zero();
        for (uint32_t d = first_direction[g]; d < first_direction[g + 1]; ++d) {
            if (unit[t].dot(directions[d].unit) >= cos_crease) sum += directions[d].area;
        }
        Eigen::Vector3f normal = normalized_or_zero(sum);
        if (normal.isZero()) normal = normalized_or_zero(all); // a degenerate face takes its neighbours'
        corner_normals[c] = normal.isZero() ? Eigen::Vector3f::UnitZ() : normal;
    }
    mesh.normals = assign_corner_values<Eigen::Vector3f>(mesh, corner_normals, Eigen::Vector3f::UnitZ());
}

namespace detail {

void complete_normals_tangents(PreparedMesh& prepared, const ConvertOptions& options, ConvertStats& stats) {
    if (prepared.in_place || !prepared.has_triangles()) return; // in place: nothing is missing
    TriangleMesh& mesh = prepared.mesh;
    if (mesh.normals.empty()) {
        generate_normals(mesh, options.crease_angle_degrees);
        ++stats.meshes_normals_generated;
    }
    if (mesh.tangents.empty()) {
        generate_tangents(mesh);
        ++stats.meshes_tangents_generated;
    }
}

} // namespace detail

} // namespace assbin::converter
