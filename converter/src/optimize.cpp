// Game-ready geometry (issue "welded, cache-optimised, one mesh per material"): after baking and
// skinning, each output mesh is welded (identical 92-byte vertex records become one vertex), its
// triangles are put in vertex-cache order and then overdraw order, and its vertices in first-use
// order, all with meshoptimizer, the library behind gltfpack. Nothing is dropped: every triangle
// keeps its corners and winding, only the order of triangles and the numbering of vertices change.
#include "stages.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

namespace assbin::converter::detail {

// The weld compares whole records as bytes: the record must be exactly the file's 92 bytes, with
// no padding whose contents would differ between equal vertices.
static_assert(sizeof(aem::Vertex) == 92, "aem::Vertex must have no padding");
static_assert(offsetof(aem::Vertex, position) == 0);

namespace {

constexpr unsigned kCacheSize = 16;         // the FIFO size the reported ACMR is measured with
constexpr float kOverdrawThreshold = 1.05f; // overdraw order may cost up to 5% of cache efficiency
constexpr unsigned kNone32 = ~0u;

// An output mesh: a run of neighbouring input meshes (one material, when merging) whose vertices
// and indices are contiguous, as emit_geometry placed them.
struct MeshGroup {
    uint32_t material = 0;
    uint32_t first_vertex = 0;
    uint32_t vertex_count = 0;
    uint32_t first_index = 0;
    uint32_t index_count = 0;
};

std::vector<MeshGroup> group_meshes(const aem::Model& model, const std::vector<VertexRange>& ranges,
                                    bool merge) {
    std::vector<MeshGroup> groups;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const aem::Mesh& mesh = model.meshes[m];
        if (merge && !groups.empty() && groups.back().material == mesh.material) {
            groups.back().vertex_count += ranges[m].count;
            groups.back().index_count += mesh.index_count;
            continue;
        }
        groups.push_back(
            {mesh.material, ranges[m].first, ranges[m].count, mesh.first_index, mesh.index_count});
    }
    return groups;
}

size_t vertices_transformed(std::span<const uint32_t> indices, size_t vertex_count) {
    if (indices.empty()) return 0;
    return meshopt_analyzeVertexCache(indices.data(), indices.size(), vertex_count, kCacheSize, 0, 0)
        .vertices_transformed;
}

size_t degenerate_triangles(std::span<const uint32_t> indices) {
    size_t count = 0;
    for (size_t t = 0; t + 2 < indices.size(); t += 3) {
        const uint32_t a = indices[t], b = indices[t + 1], c = indices[t + 2];
        count += (a == b) | (b == c) | (a == c);
    }
    return count;
}

// Welds, reorders and compacts the groups one after the other: a group's output never reaches past
// its own input (welding only shrinks), so the vertex section is rewritten in place.
class GeometryOptimizer {
  public:
    GeometryOptimizer(const ConvertOptions& options, ConvertResult& result)
        : options_(options), result_(result) {}

    void run(const std::vector<MeshGroup>& groups) {
        aem::Model& model = result_.model;
        std::vector<aem::Mesh> meshes;
        meshes.reserve(groups.size());
        for (const MeshGroup& group : groups) {
            optimize_group(group);
            meshes.push_back({group.first_index, group.index_count, group.material});
        }
        model.meshes = std::move(meshes);
        model.vertices.resize(written_);
        if (options_.record_vertex_origins) result_.vertex_origins.resize(written_);
    }

  private:
    void optimize_group(const MeshGroup& group) {
        aem::Model& model = result_.model;
        const std::span<const aem::Vertex> source(model.vertices.data() + group.first_vertex,
                                                  group.vertex_count);
        const std::span<uint32_t> indices(model.indices.data() + group.first_index, group.index_count);
        local_.resize(group.index_count);
        for (size_t i = 0; i < indices.size(); ++i)
            local_[i] = indices[i] - group.first_vertex;
        result_.stats.source_vertices_transformed += vertices_transformed(local_, source.size());

        const size_t unique = weld(source, group.first_vertex);
        order_triangles(unique);
        order_vertices(unique);
        for (size_t i = 0; i < indices.size(); ++i)
            indices[i] = local_[i] + static_cast<uint32_t>(written_);
        result_.stats.vertices_transformed += vertices_transformed(local_, unique);
        result_.stats.degenerate_triangles += degenerate_triangles(local_);
        written_ += unique;
    }

    // Identical records become one vertex (numbered in order of first use); the welded vertices go
    // to `welded_`, their origins to `welded_origins_`.
    size_t weld(std::span<const aem::Vertex> source, uint32_t first_vertex) {
        remap_.resize(source.size());
        const size_t unique = meshopt_generateVertexRemap(remap_.data(), local_.data(), local_.size(),
                                                          source.data(), source.size(), sizeof(aem::Vertex));
        meshopt_remapIndexBuffer(local_.data(), local_.data(), local_.size(), remap_.data());
        welded_.resize(unique);
        meshopt_remapVertexBuffer(welded_.data(), source.data(), source.size(), sizeof(aem::Vertex),
                                  remap_.data());
        if (options_.record_vertex_origins) {
            // A welded vertex keeps the origin of its first source vertex (all of them pose alike:
            // their records, bones and weights included, are the same).
            welded_origins_.assign(unique, VertexOrigin{});
            for (size_t v = source.size(); v-- > 0;) {
                if (remap_[v] != kNone32)
                    welded_origins_[remap_[v]] = result_.vertex_origins[first_vertex + v];
            }
        }
        return unique;
    }

    void order_triangles(size_t vertex_count) {
        if (local_.empty()) return;
        scratch_.resize(local_.size());
        meshopt_optimizeVertexCache(scratch_.data(), local_.data(), local_.size(), vertex_count);
        const std::vector<float> positions = unit_cube_positions(std::span(welded_.data(), vertex_count));
        meshopt_optimizeOverdraw(local_.data(), scratch_.data(), scratch_.size(), positions.data(),
                                 vertex_count, 3 * sizeof(float), kOverdrawThreshold);
    }

    // Vertices in first-use order, written to their final place in the vertex section.
    void order_vertices(size_t vertex_count) {
        remap_.resize(vertex_count);
        meshopt_optimizeVertexFetchRemap(remap_.data(), local_.data(), local_.size(), vertex_count);
        meshopt_remapIndexBuffer(local_.data(), local_.data(), local_.size(), remap_.data());
        aem::Vertex* out = result_.model.vertices.data() + written_;
        meshopt_remapVertexBuffer(out, welded_.data(), vertex_count, sizeof(aem::Vertex), remap_.data());
        if (options_.record_vertex_origins) {
            for (size_t v = 0; v < vertex_count; ++v) {
                if (remap_[v] != kNone32) result_.vertex_origins[written_ + remap_[v]] = welded_origins_[v];
            }
        }
    }

    const ConvertOptions& options_;
    ConvertResult& result_;
    size_t written_ = 0; // vertices of the optimised groups so far
    std::vector<uint32_t> local_, scratch_, remap_;
    std::vector<aem::Vertex> welded_;
    std::vector<VertexOrigin> welded_origins_;
};

} // namespace

void optimize_geometry(const std::vector<VertexRange>& mesh_vertices, const ConvertOptions& options,
                       ConvertResult& result, Report& report) {
    ConvertStats& stats = result.stats;
    stats.source_vertices = result.model.vertices.size();
    stats.source_meshes = result.model.meshes.size();
    if (!options.optimize) {
        std::vector<uint32_t> local;
        for (size_t m = 0; m < result.model.meshes.size(); ++m) {
            const aem::Mesh& mesh = result.model.meshes[m];
            local.assign(result.model.indices.begin() + mesh.first_index,
                         result.model.indices.begin() + mesh.first_index + mesh.index_count);
            for (uint32_t& index : local)
                index -= mesh_vertices[m].first;
            stats.source_vertices_transformed += vertices_transformed(local, mesh_vertices[m].count);
        }
        stats.vertices_transformed = stats.source_vertices_transformed;
        return;
    }
    GeometryOptimizer(options, result).run(group_meshes(result.model, mesh_vertices, !options.keep_meshes));
    if (stats.degenerate_triangles > 0) {
        report.warn(std::to_string(stats.degenerate_triangles) +
                    " triangles have two corners on one vertex (zero area); they are kept as they are");
    }
}

} // namespace assbin::converter::detail
