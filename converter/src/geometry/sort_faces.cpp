// Every writer's first look at a mesh's faces: sorted by kind over the source vertices. Triangles pass
// through, quads are split by split_quad, larger polygons ear-clipped (ear_clipping.cpp), lines and
// points kept apart; empty faces and faces over an index past the vertices or a non-finite corner
// are dropped and counted. AEM keeps the triangles, glTF all three kinds: both get the same
// triangles, so the two files of one dump draw the same surface.
// Cost: linear in the indices (ear clipping on the mesh's linear work budget).
#include "pipeline.hpp"

#include <algorithm>
#include <cmath>

namespace assbin::converter::detail {

namespace {

bool finite(const Eigen::Vector3f& v) {
    return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

// The common case, checked in bulk: every face a triangle over in-range, finite corners. Sets
// `all_used` when the triangles use every vertex.
bool plain_triangles(const assbin::Mesh& mesh, std::span<const Eigen::Vector3f> positions, bool& all_used) {
    const std::vector<uint32_t>& offsets = mesh.faces.offsets;
    if (mesh.faces.indices.size() != 3 * mesh.faces.size()) return false;
    for (size_t f = 0; f < offsets.size(); ++f) {
        if (offsets[f] != 3 * f) return false;
    }
    const size_t vertex_count = positions.size();
    std::vector<uint8_t> used(vertex_count, 0);
    for (const uint32_t i : mesh.faces.indices) {
        if (i >= vertex_count) return false;
        used[i] = 1;
    }
    for (const Eigen::Vector3f& p : positions) {
        if (!finite(p)) return false; // the careful path drops only the faces that use it
    }
    all_used = std::find(used.begin(), used.end(), uint8_t{0}) == used.end();
    return true;
}

// The careful path: face by face.
void sort_each_face(const assbin::Mesh& mesh, std::span<const Eigen::Vector3f> positions, MeshFaces& out) {
    FaceTally& tally = out.tally;
    out.triangles.reserve(mesh.faces.indices.size());
    std::vector<Eigen::Vector3f> corners;
    const size_t vertex_count = positions.size();
    // Ear clipping is quadratic in a polygon's corners: the mesh's budget is linear in its size.
    uint64_t work_budget = (uint64_t{1} << 24) + 64 * uint64_t{mesh.faces.indices.size()};
    for (size_t f = 0; f < mesh.faces.size(); ++f) {
        const std::span<const uint32_t> face = mesh.faces.face(f);
        if (face.empty()) {
            ++tally.empty;
            continue;
        }
        const bool small = face.size() < 3;
        if (small) (face.size() == 1 ? tally.points : tally.lines) += 1;
        if (std::any_of(face.begin(), face.end(), [&](uint32_t i) { return i >= vertex_count; })) {
            ++(small ? tally.small_out_of_range : tally.out_of_range);
            continue;
        }
        if (std::any_of(face.begin(), face.end(), [&](uint32_t i) { return !finite(positions[i]); })) {
            ++(small ? tally.small_non_finite : tally.non_finite);
            continue;
        }
        std::vector<uint32_t>& kind = face.size() == 1   ? out.points
                                      : face.size() == 2 ? out.lines
                                                         : out.triangles;
        if (face.size() <= 3) {
            kind.insert(kind.end(), face.begin(), face.end());
            continue;
        }
        ++tally.polygons;
        corners.clear();
        for (const uint32_t i : face)
            corners.push_back(positions[i]);
        if (face.size() == 4) {
            const auto [a, b] = split_quad(corners);
            for (const uint32_t corner : a)
                out.triangles.push_back(face[corner]);
            for (const uint32_t corner : b)
                out.triangles.push_back(face[corner]);
            continue;
        }
        bool fanned = false;
        for (const auto& triangle : triangulate_polygon(corners, &work_budget, &fanned)) {
            for (const uint32_t corner : triangle)
                out.triangles.push_back(face[corner]);
        }
        if (fanned) ++tally.fanned;
    }
}

} // namespace

MeshFaces sort_faces(const assbin::Mesh& mesh) {
    MeshFaces out;
    if (!mesh.positions || mesh.positions->values.empty()) return out;
    const std::vector<Eigen::Vector3f>& positions = mesh.positions->values;
    out.faceless = mesh.faces.size() == 0;
    bool all_used = false;
    if (plain_triangles(mesh, positions, all_used)) {
        out.lent_triangles = &mesh.faces.indices;
        out.uses_every_vertex = all_used;
        return out;
    }
    sort_each_face(mesh, positions, out);
    return out;
}

} // namespace assbin::converter::detail
