// Rule 7 for one mesh (algorithms.hpp generate_tangents): MikkTSpace's frames per corner
// (mikktspace.cpp), given to the vertices, which are split where their corners disagree. The
// converter itself runs MikkTSpace on the baked output meshes (output_tangents.cpp).
#include "geometry/mikktspace.hpp"
#include "geometry/vertex_groups.hpp"
#include "pipeline.hpp"

#include <cstring>
#include <optional>
#include <stdexcept>

namespace assbin::converter {

using namespace detail;

namespace detail {

TangentPair tangent_pair(const CornerFrame& frame, const Eigen::Vector3f& normal) {
    if (frame.from_group && frame.tangent.allFinite() && !frame.tangent.isZero()) { // NaN: see mikktspace.hpp
        const float sign = frame.orientation_preserving ? 1.0f : -1.0f;
        const Eigen::Vector3f across = normal.cross(frame.tangent);
        // A zero normal (a repaired NaN) leaves no cross product; the bitangent still carries the sign.
        return {frame.tangent, sign * (across.isZero() ? any_perpendicular(frame.tangent) : across)};
    }
    const Eigen::Vector3f n = normalized_or_zero(normal);
    const Eigen::Vector3f tangent = any_perpendicular(n);
    return {tangent, n.isZero() ? any_perpendicular(tangent) : Eigen::Vector3f(n.cross(tangent))};
}

} // namespace detail

void generate_tangents(TriangleMesh& mesh) {
    if (mesh.normals.size() != mesh.vertex_count())
        throw std::invalid_argument("generate_tangents needs normals");
    const bool has_uvs = mesh.uvs.size() == mesh.vertex_count();
    const TangentPair unused = tangent_pair(CornerFrame{}, Eigen::Vector3f::UnitZ());
    if (!has_uvs) {
        // Without UVs every corner of a vertex gets the frame around the vertex's own normal: one
        // per vertex, no vertex splits (what giving each corner its value would find, at a third of
        // the work). Vertices in a row often have one normal (a flat face's corners): its frame, three
        // square roots and ten divisions, is made once for the run (same bits in, same pair out).
        std::vector<uint8_t> used(mesh.vertex_count(), 0);
        for (const uint32_t v : mesh.triangles)
            used[v] = 1;
        mesh.tangents.resize(mesh.vertex_count());
        mesh.bitangents.resize(mesh.vertex_count());
        std::optional<Eigen::Vector3f> last_normal;
        TangentPair last_pair = unused;
        for (size_t v = 0; v < mesh.vertex_count(); ++v) {
            const Eigen::Vector3f& normal = mesh.normals[v];
            if (used[v] && !(last_normal &&
                             std::memcmp(last_normal->data(), normal.data(), sizeof(Eigen::Vector3f)) == 0)) {
                last_pair = tangent_pair(CornerFrame{}, normal);
                last_normal = normal;
            }
            const TangentPair& value = used[v] ? last_pair : unused;
            mesh.tangents[v] = value.tangent;
            mesh.bitangents[v] = value.bitangent;
        }
        return;
    }
    std::vector<SurfacePoint> points(mesh.vertex_count());
    for (size_t v = 0; v < points.size(); ++v)
        points[v] = {mesh.positions[v], mesh.normals[v], mesh.uvs[v]};
    const MeshFrames frames = mikktspace_frames(points, mesh.triangles);
    const std::vector<TangentPair> values = assign_corner_values<TangentPair>(
        mesh, [&](size_t c) { return tangent_pair(frames.of(c), mesh.normals[mesh.triangles[c]]); }, unused);
    mesh.tangents.resize(mesh.vertex_count());
    mesh.bitangents.resize(mesh.vertex_count());
    for (size_t v = 0; v < mesh.vertex_count(); ++v) {
        mesh.tangents[v] = values[v].tangent;
        mesh.bitangents[v] = values[v].bitangent;
    }
}

} // namespace assbin::converter
