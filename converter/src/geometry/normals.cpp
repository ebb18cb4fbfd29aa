// Rule 7: missing normals are generated per source mesh, in mesh space, before baking: area-weighted
// face normals summed around each position, split where faces meet at a crease.
// Cost: linear in the corners (see group_directions below: a vertex of huge valence weighs its
// groups' directions, not every triangle around it); zero-area faces add nothing and are counted once.
#include "geometry/vertex_groups.hpp"
#include "pipeline.hpp"

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
// in order of first appearance.
std::vector<uint32_t> group_by_position(const std::vector<Eigen::Vector3f>& positions) {
    return group_equal<3>(positions.size(), [&](uint32_t v) {
        const Eigen::Vector3f& p = positions[v];
        return Bits<3>{float_bits(p.x()), float_bits(p.y()), float_bits(p.z())};
    });
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

namespace {

// Per triangle: twice its area along its normal (zero when not finite), and that direction as a unit.
struct FaceDirections {
    std::vector<Eigen::Vector3f> area, unit;
};

FaceDirections face_directions(const TriangleMesh& mesh) {
    const size_t triangle_count = mesh.triangles.size() / 3;
    FaceDirections faces{std::vector<Eigen::Vector3f>(triangle_count),
                         std::vector<Eigen::Vector3f>(triangle_count)};
    for (size_t t = 0; t < triangle_count; ++t) {
        const Eigen::Vector3f& p0 = mesh.positions[mesh.triangles[3 * t]];
        const Eigen::Vector3f& p1 = mesh.positions[mesh.triangles[3 * t + 1]];
        const Eigen::Vector3f& p2 = mesh.positions[mesh.triangles[3 * t + 2]];
        Eigen::Vector3f& area = faces.area[t];
        area = (p1 - p0).cross(p2 - p0);
        if (!area.allFinite()) area.setZero();
        faces.unit[t] = normalized_or_zero(area);
    }
    return faces;
}

// Per position group, its triangles' face directions with equal ones merged (areas summed): a
// corner then weighs its group's directions, not every triangle around it, which would cost the
// square of the valence (a 65,535-triangle fan: 4e9 steps). A group with more than kMaxDirections
// distinct directions, which only hostile or pathological meshes have, is smoothed without crease
// splitting, so the cost stays linear in the mesh size.
struct GroupDirections {
    struct Direction {
        Eigen::Vector3f unit, area;
    };
    std::vector<uint32_t> first; // per group, into `directions`; one more at the end
    std::vector<Direction> directions;
    std::vector<Eigen::Vector3f> total_area; // per group, over all its triangles
    std::vector<uint8_t> smooth_only;        // per group: too many directions to split at creases
};

GroupDirections group_directions(const GroupTriangles& around, const FaceDirections& faces) {
    constexpr uint32_t kMaxDirections = 64;
    constexpr size_t kReservedDirections = size_t{1} << 20; // 24 MiB
    const size_t groups = around.first.size() - 1;
    GroupDirections out;
    out.first.assign(groups + 1, 0);
    out.total_area.assign(groups, Eigen::Vector3f::Zero());
    out.smooth_only.assign(groups, 0);
    // At most one direction per (group, triangle): reserved up front where that is modest, so that
    // the array does not grow by copies into fresh pages (the 70k-triangle sphere of the corpus:
    // 11 -> 6 ms). A big mesh, whose groups mostly hold a direction or two, grows as it needs.
    if (around.list.size() <= kReservedDirections) out.directions.reserve(around.list.size());
    for (size_t g = 0; g < groups; ++g) {
        out.first[g] = static_cast<uint32_t>(out.directions.size());
        for (uint32_t k = around.first[g]; k < around.first[g + 1]; ++k) {
            const uint32_t t = around.list[k];
            out.total_area[g] += faces.area[t];
            if (out.smooth_only[g]) continue;
            const auto begin = out.directions.begin() + out.first[g];
            const auto same =
                std::find_if(begin, out.directions.end(),
                             [&](const GroupDirections::Direction& d) { return d.unit == faces.unit[t]; });
            if (same != out.directions.end()) {
                same->area += faces.area[t];
            } else if (out.directions.end() - begin < kMaxDirections) {
                out.directions.push_back({faces.unit[t], faces.area[t]});
            } else {
                out.smooth_only[g] = 1;
                out.directions.resize(out.first[g]);
            }
        }
    }
    out.first[groups] = static_cast<uint32_t>(out.directions.size());
    return out;
}

} // namespace

void generate_normals(TriangleMesh& mesh, float crease_degrees) {
    const FaceDirections faces = face_directions(mesh);
    const std::vector<uint32_t> group = group_by_position(mesh.positions);
    const GroupDirections around = group_directions(triangles_by_group(mesh, group), faces);
    const float cos_crease = std::cos(crease_degrees * std::numbers::pi_v<float> / 180.0f);
    const auto corner_normal = [&](size_t c) -> Eigen::Vector3f {
        const size_t t = c / 3;
        const uint32_t g = group[mesh.triangles[c]];
        const Eigen::Vector3f& all = around.total_area[g];
        Eigen::Vector3f sum = around.smooth_only[g] ? all : Eigen::Vector3f::Zero();
        for (uint32_t d = around.first[g]; d < around.first[g + 1]; ++d) {
            if (faces.unit[t].dot(around.directions[d].unit) >= cos_crease) sum += around.directions[d].area;
        }
        Eigen::Vector3f normal = normalized_or_zero(sum);
        if (normal.isZero()) normal = normalized_or_zero(all); // a degenerate face takes its neighbours'
        return normal.isZero() ? Eigen::Vector3f::UnitZ() : normal;
    };
    mesh.normals = assign_corner_values<Eigen::Vector3f>(mesh, corner_normal, Eigen::Vector3f::UnitZ());
}

namespace detail {

void complete_normals_tangents(PreparedMesh& prepared, const ConvertOptions& options, ConvertStats& stats) {
    if (!prepared.has_triangles()) return;
    if (prepared.in_place) { // nothing is missing, or only the tangents, made after baking
        stats.meshes_tangents_generated += prepared.tangents_after_baking ? 1 : 0;
        return;
    }
    TriangleMesh& mesh = prepared.mesh;
    if (mesh.normals.empty()) {
        generate_normals(mesh, options.crease_angle_degrees);
        ++stats.meshes_normals_generated;
    }
    if (mesh.tangents.empty()) {
        if (mesh.uvs.empty()) {
            generate_tangents(mesh); // a frame around each normal: no baking can change what it means
        } else {
            prepared.tangents_after_baking = true;
        }
        ++stats.meshes_tangents_generated;
    }
}

} // namespace detail

} // namespace assbin::converter
