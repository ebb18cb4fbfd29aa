// Rule 6: faces become triangles. Triangles pass through, polygons are ear-clipped in their
// best-fit plane, points, lines and broken faces are dropped and counted; then the vertices the
// triangles use are gathered (in source order) with the attributes AEM keeps.
#include "stages.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace assbin::converter {

namespace {

// Twice the signed area of the 2-D triangle (a, b, c): positive when counter-clockwise.
double cross2(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c) {
    return (b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x());
}

// The corners in the polygon's plane, in a basis whose orientation makes the polygon's Newell
// normal point towards the viewer: the polygon comes out counter-clockwise.
std::vector<Eigen::Vector2d> project_to_plane(std::span<const Eigen::Vector3f> corners) {
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();
    for (size_t i = 0; i < corners.size(); ++i) {
        const Eigen::Vector3d a = corners[i].cast<double>();
        const Eigen::Vector3d b = corners[(i + 1) % corners.size()].cast<double>();
        normal += Eigen::Vector3d((a.y() - b.y()) * (a.z() + b.z()), (a.z() - b.z()) * (a.x() + b.x()),
                                  (a.x() - b.x()) * (a.y() + b.y()));
    }
    if (normal.squaredNorm() == 0) normal = Eigen::Vector3d::UnitZ();
    normal.normalize();
    const Eigen::Vector3d u = any_perpendicular(normal.cast<float>()).cast<double>();
    const Eigen::Vector3d v = normal.cross(u);
    std::vector<Eigen::Vector2d> flat(corners.size());
    for (size_t i = 0; i < corners.size(); ++i) {
        const Eigen::Vector3d p = corners[i].cast<double>();
        flat[i] = Eigen::Vector2d(p.dot(u), p.dot(v));
    }
    return flat;
}

// Whether p lies inside or on triangle (a, b, c), which is counter-clockwise.
bool inside_or_on(const Eigen::Vector2d& p, const Eigen::Vector2d& a, const Eigen::Vector2d& b,
                  const Eigen::Vector2d& c) {
    return cross2(a, b, p) >= 0 && cross2(b, c, p) >= 0 && cross2(c, a, p) >= 0;
}

class EarClipper {
  public:
    EarClipper(std::vector<Eigen::Vector2d> flat, uint64_t* work_budget)
        : flat_(std::move(flat)), budget_(work_budget) {
        for (uint32_t i = 0; i < flat_.size(); ++i)
            ring_.push_back(i);
    }

    std::vector<std::array<uint32_t, 3>> run() {
        std::vector<std::array<uint32_t, 3>> triangles;
        size_t start = 0;
        while (ring_.size() > 3) {
            const std::optional<size_t> ear = find_ear(start);
            if (!ear || !spend(ring_.size())) {
                fan_rest(triangles);
                return triangles;
            }
            const size_t n = ring_.size();
            triangles.push_back({ring_[(*ear + n - 1) % n], ring_[*ear], ring_[(*ear + 1) % n]});
            ring_.erase(ring_.begin() + static_cast<std::ptrdiff_t>(*ear));
            start = *ear == 0 ? 0 : *ear - 1; // ears appear next to the last one clipped
        }
        if (area_of(0, 1, 2) != 0 || triangles.empty()) triangles.push_back({ring_[0], ring_[1], ring_[2]});
        return triangles;
    }

    bool fanned() const { return fanned_; }

  private:
    // Takes `units` from the budget; false once it is spent (and from then on).
    bool spend(uint64_t units) {
        if (!budget_) return true;
        if (*budget_ < units) {
            *budget_ = 0;
            return false;
        }
        *budget_ -= units;
        return true;
    }

    void fan_rest(std::vector<std::array<uint32_t, 3>>& triangles) {
        fanned_ = true;
        for (size_t i = 1; i + 1 < ring_.size(); ++i)
            triangles.push_back({ring_[0], ring_[i], ring_[i + 1]});
    }

    double area_of(size_t prev, size_t at, size_t next) const {
        return cross2(flat_[ring_[prev]], flat_[ring_[at]], flat_[ring_[next]]);
    }

    // nullopt when the budget ran out during the test.
    std::optional<bool> is_ear(size_t at) {
        const size_t n = ring_.size();
        const size_t prev = (at + n - 1) % n, next = (at + 1) % n;
        if (area_of(prev, at, next) <= 0) return false; // reflex or collinear: never a tip
        const Eigen::Vector2d& a = flat_[ring_[prev]];
        const Eigen::Vector2d& b = flat_[ring_[at]];
        const Eigen::Vector2d& c = flat_[ring_[next]];
        if (!spend(n)) return std::nullopt;
        for (size_t k = 0; k < n; ++k) {
            if (k == prev || k == at || k == next) continue;
            const Eigen::Vector2d& p = flat_[ring_[k]];
            if (p == a || p == b || p == c) continue; // a repeated corner does not block
            if (inside_or_on(p, a, b, c)) return false;
        }
        return true;
    }

    // The first ear from `start` on; when the polygon is not simple and has none, the corner with
    // the largest convex area (or any corner) so that clipping always ends. nullopt when the work
    // budget ran out.
    std::optional<size_t> find_ear(size_t start) {
        const size_t n = ring_.size();
        for (size_t k = 0; k < n; ++k) {
            const std::optional<bool> ear = is_ear((start + k) % n);
            if (!ear) return std::nullopt;
            if (*ear) return (start + k) % n;
        }
        size_t best = 0;
        double best_area = -std::numeric_limits<double>::infinity();
        for (size_t k = 0; k < n; ++k) {
            const double area = area_of((k + n - 1) % n, k, (k + 1) % n);
            if (area > best_area) {
                best_area = area;
                best = k;
            }
        }
        return best;
    }

    std::vector<Eigen::Vector2d> flat_;
    std::vector<uint32_t> ring_;
    uint64_t* budget_ = nullptr;
    bool fanned_ = false;
};

// A quad without allocating: the fan from corner 0 when every corner is convex, else the fan from
// the first reflex or collinear corner, which is the one diagonal that stays inside (Assimp's choice).
std::pair<std::array<uint32_t, 3>, std::array<uint32_t, 3>> split_quad(std::span<const Eigen::Vector3f> q) {
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();
    double turn[4];
    for (uint32_t i = 0; i < 4; ++i) {
        const Eigen::Vector3d a = q[(i + 3) % 4].cast<double>(), b = q[i].cast<double>(),
                              c = q[(i + 1) % 4].cast<double>();
        normal += (b - a).cross(c - b);
    }
    uint32_t r = 0;
    for (uint32_t i = 0; i < 4; ++i) {
        const Eigen::Vector3d a = q[(i + 3) % 4].cast<double>(), b = q[i].cast<double>(),
                              c = q[(i + 1) % 4].cast<double>();
        turn[i] = (b - a).cross(c - b).dot(normal);
    }
    for (uint32_t i = 0; i < 4; ++i) {
        if (turn[i] <= 0) {
            r = i;
            break;
        }
    }
    return {{r, (r + 1) % 4, (r + 2) % 4}, {r, (r + 2) % 4, (r + 3) % 4}};
}

} // namespace

std::vector<std::array<uint32_t, 3>> triangulate_polygon(std::span<const Eigen::Vector3f> corners,
                                                         uint64_t* work_budget, bool* fanned) {
    if (corners.size() < 3) return {};
    if (corners.size() == 3) return {{0, 1, 2}};
    if (corners.size() == 4) {
        const auto [a, b] = split_quad(corners);
        return {a, b};
    }
    EarClipper clipper(project_to_plane(corners), work_budget);
    std::vector<std::array<uint32_t, 3>> triangles = clipper.run();
    if (fanned) *fanned = clipper.fanned();
    return triangles;
}

namespace detail {

namespace {

struct FaceTally {
    size_t empty = 0, points = 0, lines = 0, out_of_range = 0, non_finite = 0, polygons = 0, fanned = 0;
};

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

// Triangles over source vertex indices.
std::vector<uint32_t> triangles_of(const assbin::Mesh& mesh, std::span<const Eigen::Vector3f> positions,
                                   FaceTally& tally) {
    std::vector<uint32_t> triangles;
    triangles.reserve(mesh.faces.indices.size());
    std::vector<Eigen::Vector3f> corners;
    const size_t vertex_count = positions.size();
    // Ear clipping is quadratic in a polygon's corners: the mesh's budget is linear in its size.
    uint64_t work_budget = (uint64_t{1} << 24) + 64 * uint64_t{mesh.faces.indices.size()};
    for (size_t f = 0; f < mesh.faces.size(); ++f) {
        const std::span<const uint32_t> face = mesh.faces.face(f);
        if (face.size() < 3) {
            (face.empty() ? tally.empty : face.size() == 1 ? tally.points : tally.lines) += 1;
            continue;
        }
        if (std::any_of(face.begin(), face.end(), [&](uint32_t i) { return i >= vertex_count; })) {
            ++tally.out_of_range;
            continue;
        }
        if (std::any_of(face.begin(), face.end(), [&](uint32_t i) { return !finite(positions[i]); })) {
            ++tally.non_finite;
            continue;
        }
        if (face.size() == 3) {
            triangles.insert(triangles.end(), face.begin(), face.end());
            continue;
        }
        ++tally.polygons;
        corners.clear();
        for (const uint32_t i : face)
            corners.push_back(positions[i]);
        if (face.size() == 4) {
            const auto [a, b] = split_quad(corners);
            for (const uint32_t corner : a)
                triangles.push_back(face[corner]);
            for (const uint32_t corner : b)
                triangles.push_back(face[corner]);
            continue;
        }
        bool fanned = false;
        for (const auto& triangle : triangulate_polygon(corners, &work_budget, &fanned)) {
            for (const uint32_t corner : triangle)
                triangles.push_back(face[corner]);
        }
        if (fanned) ++tally.fanned;
    }
    return triangles;
}

void report_tally(const FaceTally& tally, uint32_t mesh_index, Report& report, ConvertStats& stats) {
    stats.points_dropped += tally.points;
    stats.lines_dropped += tally.lines;
    stats.faces_out_of_range += tally.out_of_range;
    stats.empty_faces += tally.empty;
    stats.faces_non_finite += tally.non_finite;
    stats.polygons_triangulated += tally.polygons;
    const auto say = [&](size_t count, const char* one, const char* many, const char* why) {
        if (count > 0) {
            report.warn(mesh_label(mesh_index) + ": " + std::to_string(count) + " " +
                        (count == 1 ? one : many) + " dropped" + why);
        }
    };
    say(tally.points, "point", "points", " (AEM draws triangles only)");
    say(tally.lines, "line", "lines", " (AEM draws triangles only)");
    say(tally.empty, "face", "faces", ": no indices");
    say(tally.out_of_range, "face", "faces", ": an index is not below the vertex count");
    say(tally.non_finite, "face", "faces", ": a corner's position is not a finite number");
    if (tally.fanned > 0) {
        report.warn(mesh_label(mesh_index) + ": " + std::to_string(tally.fanned) +
                    (tally.fanned == 1 ? " polygon" : " polygons") +
                    " too large to ear-clip within the mesh's work budget fanned from a corner");
    }
}

// The used vertices' values; `used` empty means every vertex, in order.
template <class T>
void gather(const std::vector<T>& from, const std::vector<uint32_t>& used, std::vector<T>& to) {
    if (used.empty()) {
        to = from;
        return;
    }
    to.resize(used.size());
    for (size_t v = 0; v < used.size(); ++v)
        to[v] = from[used[v]];
}

// Replaces NaN and infinite components by zero; returns how many vectors it touched.
template <class V>
size_t zero_non_finite(std::vector<V>& values) {
    size_t touched = 0;
    for (V& value : values) {
        if (!value.allFinite()) {
            value = V::Zero();
            ++touched;
        }
    }
    return touched;
}

bool has_values(const std::optional<assbin::VertexStream<assbin::Vec3>>& stream, size_t count) {
    return stream && stream->values.size() == count;
}

// The chosen UV channel when it has one UV per vertex, else nullptr.
const assbin::UvChannel* uv_channel(const assbin::Mesh& mesh, const ConvertOptions& options) {
    if (options.uv_channel >= mesh.uv_channels.size()) return nullptr;
    const assbin::UvChannel& channel = mesh.uv_channels[options.uv_channel];
    return mesh.positions && channel.values.size() == mesh.positions->values.size() ? &channel : nullptr;
}

void gather_uvs(const assbin::UvChannel& channel, const std::vector<uint32_t>& used, TriangleMesh& out) {
    const size_t count = used.empty() ? channel.values.size() : used.size();
    out.uvs.resize(count);
    const bool one_component = channel.component_count == 1;
    for (size_t v = 0; v < count; ++v) {
        const Eigen::Vector3f& uv = channel.values[used.empty() ? v : used[v]];
        out.uvs[v] = Eigen::Vector2f(uv.x(), one_component ? 0.0f : uv.y());
    }
}

// Whether the dump's own arrays can be baked as they are: every attribute AEM needs is present
// (UVs only if the chosen channel exists). Baking zeroes NaN and infinity on the way.
bool readable_in_place(const assbin::Mesh& mesh, const ConvertOptions& options) {
    const size_t count = mesh.positions->values.size();
    if (!has_values(mesh.normals, count) || !has_values(mesh.tangents, count) ||
        !has_values(mesh.bitangents, count))
        return false;
    return options.uv_channel >= mesh.uv_channels.size() || uv_channel(mesh, options);
}

// Renumbers `triangles` to the vertices they use, in source order; returns those vertices, or an
// empty list when they are all of them (the usual case: nothing is renumbered).
std::vector<uint32_t> used_vertices(size_t vertex_count, std::vector<uint32_t>& triangles) {
    std::vector<uint32_t> remap(vertex_count, 0);
    for (const uint32_t i : triangles)
        remap[i] = 1;
    std::vector<uint32_t> used;
    if (std::find(remap.begin(), remap.end(), 0u) == remap.end()) return used;
    for (uint32_t v = 0; v < vertex_count; ++v) {
        if (remap[v]) {
            remap[v] = static_cast<uint32_t>(used.size());
            used.push_back(v);
        }
    }
    for (uint32_t& i : triangles)
        i = remap[i];
    return used;
}

// Copies the used vertices' attributes (NaN and infinity zeroed, and reported).
void copy_vertices(const assbin::Mesh& mesh, uint32_t mesh_index, const ConvertOptions& options,
                   const std::vector<uint32_t>& used, TriangleMesh& out, Report& report) {
    const std::vector<Eigen::Vector3f>& positions = mesh.positions->values;
    if (used.empty()) {
        out.source_vertex.resize(positions.size());
        for (uint32_t v = 0; v < positions.size(); ++v)
            out.source_vertex[v] = v;
    } else {
        out.source_vertex = used;
    }
    gather(positions, used, out.positions);
    size_t repaired = 0;
    if (has_values(mesh.normals, positions.size())) {
        gather(mesh.normals->values, used, out.normals);
        repaired += zero_non_finite(out.normals);
    }
    if (has_values(mesh.tangents, positions.size()) && has_values(mesh.bitangents, positions.size())) {
        gather(mesh.tangents->values, used, out.tangents);
        gather(mesh.bitangents->values, used, out.bitangents);
        repaired += zero_non_finite(out.tangents) + zero_non_finite(out.bitangents);
    }
    if (const assbin::UvChannel* uvs = uv_channel(mesh, options)) {
        gather_uvs(*uvs, used, out);
    } else if (options.uv_channel < mesh.uv_channels.size()) {
        report.warn(mesh_label(mesh_index) + ": UV channel " + std::to_string(options.uv_channel) +
                    " does not hold one UV per vertex; it is not used");
    }
    repaired += zero_non_finite(out.uvs);
    if (repaired > 0) {
        report.warn(mesh_label(mesh_index) + ": " + std::to_string(repaired) +
                    " normals, tangents or UVs held NaN or infinity and were set to zero");
    }
}

} // namespace

PreparedMesh triangulate_mesh(const assbin::Mesh& mesh, uint32_t mesh_index, const ConvertOptions& options,
                              Report& report, ConvertStats& stats) {
    PreparedMesh out;
    if (!mesh.positions || mesh.positions->values.empty()) {
        if (mesh.faces.size() > 0) report.warn(mesh_label(mesh_index) + " has faces but no vertex positions");
        return out;
    }
    const std::vector<Eigen::Vector3f>& positions = mesh.positions->values;
    bool all_used = false;
    if (plain_triangles(mesh, positions, all_used) && all_used && readable_in_place(mesh, options)) {
        out.in_place = true; // nothing to renumber, drop or generate: read the dump's arrays
        out.source_triangles = &mesh.faces.indices;
        return out;
    }
    FaceTally tally;
    std::vector<uint32_t> triangles = triangles_of(mesh, positions, tally);
    report_tally(tally, mesh_index, report, stats);
    if (triangles.empty()) return out;

    const std::vector<uint32_t> used = used_vertices(positions.size(), triangles);
    out.mesh.triangles = std::move(triangles);
    out.in_place = used.empty() && readable_in_place(mesh, options);
    if (!out.in_place) copy_vertices(mesh, mesh_index, options, used, out.mesh, report);
    return out;
}

VertexView view_of(const PreparedMesh& prepared, const assbin::Mesh& source, const ConvertOptions& options) {
    VertexView view;
    if (prepared.in_place) {
        view.count = source.positions->values.size();
        view.positions = source.positions->values.data();
        view.normals = source.normals->values.data();
        view.tangents = source.tangents->values.data();
        view.bitangents = source.bitangents->values.data();
        if (const assbin::UvChannel* uvs = uv_channel(source, options)) {
            view.source_uvs = uvs->values.data();
            view.one_component_uvs = uvs->component_count == 1;
        }
        return view;
    }
    const TriangleMesh& mesh = prepared.mesh;
    view.count = mesh.vertex_count();
    view.positions = mesh.positions.data();
    view.normals = mesh.normals.data();
    view.tangents = mesh.tangents.data();
    view.bitangents = mesh.bitangents.data();
    view.uvs = mesh.uvs.empty() ? nullptr : mesh.uvs.data();
    view.source_vertex = mesh.source_vertex.data();
    return view;
}

} // namespace detail

} // namespace assbin::converter
