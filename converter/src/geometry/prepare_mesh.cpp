// Rule 6 per mesh, for the AEM writer: of the sorted faces (sort_faces.cpp) the triangles are kept,
// points, lines and broken faces are said and counted; then the vertices the triangles use are
// gathered (in source order) with the attributes AEM keeps.
#include "pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace assbin::converter {

namespace detail {

namespace {

void report_tally(const FaceTally& tally, uint32_t mesh_index, Report& report, ConvertStats& stats) {
    stats.points_dropped += tally.points;
    stats.lines_dropped += tally.lines;
    stats.faces_out_of_range += tally.out_of_range;
    stats.empty_faces += tally.empty;
    stats.faces_non_finite += tally.non_finite;
    stats.polygons_triangulated += tally.polygons;
    const auto say = [&](size_t count, const char* one, const char* many, const char* why) {
        if (count > 0) {
            report.warn(mesh_label(mesh_index) + ": " + count_of(count, one, many) + " dropped" + why);
        }
    };
    say(tally.points, "point", "points", " (AEM draws triangles only)");
    say(tally.lines, "line", "lines", " (AEM draws triangles only)");
    say(tally.empty, "face", "faces", ": no indices");
    say(tally.out_of_range, "face", "faces", ": an index is not below the vertex count");
    say(tally.non_finite, "face", "faces", ": a corner's position is not a finite number");
    if (tally.fanned > 0) {
        report.warn(mesh_label(mesh_index) + ": " + count_of(tally.fanned, "polygon", "polygons") +
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

template <class V>
bool all_finite(const std::vector<V>& values) {
    return std::all_of(values.begin(), values.end(), [](const V& value) { return value.allFinite(); });
}

// Whether the dump's arrays can be baked as they are but for the tangents, which MikkTSpace makes
// after baking (the usual dump: Assimp writes tangents only when asked to compute them): normals
// and the chosen UVs present, and finite (copying would zero and report a NaN; baking reads the
// dump's values as they are, so a mesh holding one is copied). Copying the attributes of the grid's
// 490k vertices cost 20 ms, on one thread, before anything else could start.
bool readable_in_place_but_tangents(const assbin::Mesh& mesh, const ConvertOptions& options) {
    const size_t count = mesh.positions->values.size();
    const assbin::UvChannel* uvs = uv_channel(mesh, options);
    if (!has_values(mesh.normals, count) || !uvs) return false;
    if (uvs->component_count == 1) { // v is never read
        const bool u_finite = std::all_of(uvs->values.begin(), uvs->values.end(),
                                          [](const Eigen::Vector3f& uv) { return std::isfinite(uv.x()); });
        if (!u_finite) return false;
    } else if (!std::all_of(uvs->values.begin(), uvs->values.end(), [](const Eigen::Vector3f& uv) {
                   return std::isfinite(uv.x()) && std::isfinite(uv.y());
               })) {
        return false;
    }
    return all_finite(mesh.normals->values);
}

// Marks `out` as read in place when the dump's arrays allow it (see PreparedMesh).
void read_in_place_if_possible(const assbin::Mesh& mesh, const ConvertOptions& options, PreparedMesh& out) {
    if (readable_in_place(mesh, options)) {
        out.in_place = true;
    } else if (readable_in_place_but_tangents(mesh, options)) {
        out.in_place = true;
        out.tangents_after_baking = true;
    }
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
        report.warn(mesh_label(mesh_index) + ": " +
                    count_of(repaired, "normal, tangent or UV", "normals, tangents or UVs") +
                    " held NaN or infinity and " + (repaired == 1 ? "was" : "were") + " set to zero");
    }
}

} // namespace

PreparedMesh triangulate_mesh(const assbin::Mesh& mesh, MeshFaces& faces, uint32_t mesh_index,
                              const ConvertOptions& options, Report& report, ConvertStats& stats) {
    PreparedMesh out;
    if (!mesh.positions || mesh.positions->values.empty()) {
        if (mesh.faces.size() > 0) report.warn(mesh_label(mesh_index) + " has faces but no vertex positions");
        return out;
    }
    const std::vector<Eigen::Vector3f>& positions = mesh.positions->values;
    if (faces.lent_triangles && faces.uses_every_vertex) {
        read_in_place_if_possible(mesh, options, out);
        if (out.in_place) { // nothing to renumber, drop or generate: read the dump's arrays
            out.source_triangles = faces.lent_triangles;
            return out;
        }
    }
    report_tally(faces.tally, mesh_index, report, stats);
    std::vector<uint32_t> triangles = faces.take_triangles();
    if (triangles.empty()) return out;

    const std::vector<uint32_t> used = used_vertices(positions.size(), triangles);
    out.mesh.triangles = std::move(triangles);
    if (used.empty()) read_in_place_if_possible(mesh, options, out);
    if (!out.in_place) copy_vertices(mesh, mesh_index, options, used, out.mesh, report);
    return out;
}

VertexView view_of(const PreparedMesh& prepared, const assbin::Mesh& source, const ConvertOptions& options) {
    VertexView view;
    if (prepared.in_place) {
        view.count = source.positions->values.size();
        view.positions = source.positions->values.data();
        view.normals = source.normals->values.data();
        if (!prepared.tangents_after_baking) {
            view.tangents = source.tangents->values.data();
            view.bitangents = source.bitangents->values.data();
        }
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
    view.tangents = prepared.tangents_after_baking ? nullptr : mesh.tangents.data();
    view.bitangents = prepared.tangents_after_baking ? nullptr : mesh.bitangents.data();
    view.uvs = mesh.uvs.empty() ? nullptr : mesh.uvs.data();
    view.source_vertex = mesh.source_vertex.data();
    return view;
}

} // namespace detail

} // namespace assbin::converter
