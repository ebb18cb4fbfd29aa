// measure_meshes: meshoptimizer's cache, overdraw and fetch analyzers over each mesh's own part of
// the whole-file index and vertex sections, plus a lossless-weld count.
#include <assbin/converter/mesh_metrics.hpp>

#include "pipeline.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

namespace assbin::converter {

namespace detail {

namespace {

// The positions of `count` vertices, the i-th being vertex(i), in their unit cube.
template <typename VertexAt>
std::vector<float> positions_in_unit_cube(size_t count, VertexAt vertex) {
    std::array<double, 3> low{}, high{};
    low.fill(std::numeric_limits<double>::infinity());
    high.fill(-std::numeric_limits<double>::infinity());
    for (size_t i = 0; i < count; ++i) {
        const aem::Vertex& v = vertex(i);
        for (int a = 0; a < 3; ++a) {
            if (!std::isfinite(v.position[a])) continue;
            low[a] = std::min(low[a], double{v.position[a]});
            high[a] = std::max(high[a], double{v.position[a]});
        }
    }
    double extent = 0;
    for (int a = 0; a < 3; ++a)
        extent = std::max(extent, high[a] - low[a]);
    const double scale = extent > 0 && std::isfinite(extent) ? 1.0 / extent : 0.0;
    std::vector<float> out(count * 3);
    for (size_t i = 0; i < count; ++i) {
        const aem::Vertex& v = vertex(i);
        for (int a = 0; a < 3; ++a) {
            const double unit = (double{v.position[a]} - low[a]) * scale;
            out[3 * i + a] = std::isfinite(unit) ? static_cast<float>(unit) : 0.0f;
        }
    }
    return out;
}

} // namespace

std::vector<float> unit_cube_positions(std::span<const aem::Vertex> vertices) {
    return positions_in_unit_cube(vertices.size(),
                                  [&](size_t i) -> const aem::Vertex& { return vertices[i]; });
}

std::vector<float> unit_cube_positions(std::span<const aem::Vertex> vertices,
                                       std::span<const uint32_t> which) {
    return positions_in_unit_cube(which.size(),
                                  [&](size_t i) -> const aem::Vertex& { return vertices[which[i]]; });
}

size_t distinct_records(std::span<const aem::Vertex> vertices, std::span<const uint32_t> indices) {
    std::vector<aem::Vertex> canonical(vertices.begin(), vertices.end());
    for (aem::Vertex& v : canonical)
        positive_zeros(v);
    std::vector<uint32_t> remap(canonical.size());
    return meshopt_generateVertexRemap(remap.data(), indices.data(), indices.size(), canonical.data(),
                                       canonical.size(), sizeof(aem::Vertex));
}

} // namespace detail

namespace {

// The mesh's indices made relative to its lowest one, and the span of vertices they cover; empty
// when the mesh's range or indices are broken.
struct LocalMesh {
    std::vector<uint32_t> indices;
    uint32_t first_vertex = 0;
    size_t vertex_count = 0;
};

std::optional<LocalMesh> local_mesh(const aem::Model& model, const aem::Mesh& mesh) {
    if (uint64_t{mesh.first_index} + mesh.index_count > model.indices.size() || mesh.index_count % 3 != 0)
        return std::nullopt;
    const auto range = std::span(model.indices).subspan(mesh.first_index, mesh.index_count);
    LocalMesh local;
    if (range.empty()) return local;
    const auto [low, high] = std::minmax_element(range.begin(), range.end());
    if (*high >= model.vertices.size()) return std::nullopt;
    local.first_vertex = *low;
    local.vertex_count = size_t{*high} - *low + 1;
    local.indices.reserve(range.size());
    for (const uint32_t index : range)
        local.indices.push_back(index - *low);
    return local;
}

// Each overdraw measurement clears and rasterises three 256 x 256 views (about a millisecond), so a
// model with very many meshes (a hostile file can hold tens of thousands of one-triangle meshes)
// gets the whole model's overdraw only, not each mesh's.
constexpr size_t kMeshesWithOwnOverdraw = 1024;

MeshMetrics measure_mesh(const aem::Model& model, const aem::Mesh& mesh, bool with_overdraw) {
    MeshMetrics metrics;
    const std::optional<LocalMesh> local = local_mesh(model, mesh);
    if (!local) return metrics;
    metrics.measured = true;
    metrics.triangles = local->indices.size() / 3;
    if (local->indices.empty()) return metrics;
    const uint32_t* indices = local->indices.data();
    const size_t count = local->indices.size();
    const std::span<const aem::Vertex> vertices(model.vertices.data() + local->first_vertex,
                                                local->vertex_count);
    std::vector<uint32_t> remap(vertices.size());
    metrics.vertices = meshopt_optimizeVertexFetchRemap(remap.data(), indices, count, vertices.size());
    metrics.vertices_transformed =
        meshopt_analyzeVertexCache(indices, count, vertices.size(), kMetricsCacheSize, 0, 0)
            .vertices_transformed;
    if (with_overdraw) {
        const std::vector<float> positions = detail::unit_cube_positions(vertices);
        const meshopt_OverdrawStatistics overdraw =
            meshopt_analyzeOverdraw(indices, count, positions.data(), vertices.size(), 3 * sizeof(float));
        metrics.pixels_covered = overdraw.pixels_covered;
        metrics.pixels_shaded = overdraw.pixels_shaded;
    }
    metrics.bytes_fetched =
        meshopt_analyzeVertexFetch(indices, count, vertices.size(), sizeof(aem::Vertex)).bytes_fetched;
    metrics.weldable = metrics.vertices - detail::distinct_records(vertices, local->indices);
    return metrics;
}

// Overdraw of the whole model, every measured mesh drawn in order into one picture, as a game
// draws it (meshes measured alone would not see each other's pixels).
meshopt_OverdrawStatistics whole_model_overdraw(const aem::Model& model,
                                                const std::vector<MeshMetrics>& meshes) {
    std::vector<uint32_t> indices;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        if (!meshes[m].measured) continue;
        const auto begin = model.indices.begin() + model.meshes[m].first_index;
        indices.insert(indices.end(), begin, begin + model.meshes[m].index_count);
    }
    if (indices.empty()) return {};
    const std::vector<float> positions = detail::unit_cube_positions(model.vertices);
    return meshopt_analyzeOverdraw(indices.data(), indices.size(), positions.data(), model.vertices.size(),
                                   3 * sizeof(float));
}

} // namespace

ModelMetrics measure_meshes(const aem::Model& model) {
    ModelMetrics out;
    MeshMetrics& t = out.total;
    for (const aem::Mesh& mesh : model.meshes) {
        const MeshMetrics m = measure_mesh(model, mesh, model.meshes.size() <= kMeshesWithOwnOverdraw);
        out.meshes.push_back(m);
        if (!m.measured) continue;
        t.measured = true;
        t.vertices += m.vertices;
        t.triangles += m.triangles;
        t.vertices_transformed += m.vertices_transformed;
        t.bytes_fetched += m.bytes_fetched;
        t.weldable += m.weldable;
    }
    const meshopt_OverdrawStatistics overdraw = whole_model_overdraw(model, out.meshes);
    t.pixels_covered = overdraw.pixels_covered;
    t.pixels_shaded = overdraw.pixels_shaded;
    return out;
}

} // namespace assbin::converter
