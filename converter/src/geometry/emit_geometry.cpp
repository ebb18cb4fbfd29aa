// The vertex and index sections: every (node, mesh) reference baked (flatten.cpp), skinned
// (skeleton.cpp) and checked, block by block so that each block is still in cache for the next
// step, and over several threads for large scenes. Work is planned first and reported in reference
// order afterwards, so the model and the warnings do not depend on the thread count.
#include "pipeline.hpp"
#include "prefault.hpp"
#include "run_tasks.hpp"

#include <aem/validate.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

namespace assbin::converter::detail {

namespace {

constexpr size_t kVertexBlock = 2048;                 // 184 KiB of aem::Vertex
constexpr size_t kWaveBlocks = 16;                    // blocks constructed, then converted in parallel
constexpr size_t kParallelVertices = size_t{1} << 16; // below this, threads cost more than they save

// aem::validate's rules for one vertex, in one tight pass (its per-vertex checks, which build a
// location string per field, cost as much as reading the whole dump). 0 · x is NaN exactly when x
// is NaN or infinite, so one sum tells whether every float is finite — summed in double, where
// large finite floats cannot overflow (in float, two of 3e38 made a valid vertex look broken:
// fuzz_convert's third finding).
unsigned vertex_is_valid(const aem::Vertex& v, size_t bones) {
    const double zero_unless_broken =
        0.0 *
        (v.position.cast<double>().sum() + v.normal.cast<double>().sum() + v.tangent.cast<double>().sum() +
         v.bitangent.cast<double>().sum() + v.uv.cast<double>().sum() + double(v.bone_weights[0]) +
         double(v.bone_weights[1]) + double(v.bone_weights[2]) + double(v.bone_weights[3]));
    unsigned valid = zero_unless_broken == 0.0;
    double sum = 0;
    unsigned skinned = 0;
    for (size_t s = 0; s < 4; ++s) {
        const int32_t bone = v.bone_indices[s];
        const float weight = v.bone_weights[s];
        const unsigned used = bone != aem::kNone;
        skinned |= used;
        sum += weight;
        valid &= used ? (static_cast<uint32_t>(bone) < bones) & (weight > 0) : weight == 0;
    }
    valid &= !skinned | (std::abs(sum - 1.0) <= aem::kWeightSumTolerance);
    return valid & ((v.extra_bone == aem::kNone) | (static_cast<uint32_t>(v.extra_bone) < bones));
}

// One reference's place in the output.
struct Placement {
    size_t reference = 0;
    VertexView view;
    uint32_t first_vertex = 0;
    uint32_t first_index = 0;
    uint32_t index_count = 0;
};

// A block of one reference's vertices: which, and what baking and skinning found in it.
struct Block {
    size_t placement = 0;
    size_t first = 0; // within the reference
    size_t count = 0;
    size_t repaired = 0;
    SkinTally skin;
    unsigned valid = 1;
    size_t overflowed = 0; // finite source positions that the node's transform took past float's range
};

class GeometryEmitter {
  public:
    GeometryEmitter(const assbin::Scene& scene, const PreparedScene& prepared,
                    const std::vector<PreparedMesh>& meshes, const Skeleton& skeleton,
                    const ConvertOptions& options, ConvertResult& result, Report& report)
        : scene_(scene), graph_(prepared.graph), weights_(prepared.weights), meshes_(meshes),
          skeleton_(skeleton), options_(options), result_(result), report_(report) {}

    EmitResult run() {
        plan();
        aem::Model& model = result_.model;
        const unsigned threads = thread_count();
        model.indices.reserve(index_total_);
        assbin_common::prefault_for_writing(model.indices.data(), index_total_ * sizeof(uint32_t), threads);
        model.indices.resize(index_total_);
        assbin_common::run_tasks(placements_.size(), threads, [&](size_t p) { place(placements_[p]); });
        // Wave by wave: the vertices are constructed (resize) just before they are baked, so they
        // are still in cache; constructing them all first would send them to memory and back.
        model.vertices.reserve(vertex_total_);
        assbin_common::prefault_for_writing(model.vertices.data(), vertex_total_ * sizeof(aem::Vertex),
                                            threads);
        for (size_t wave = 0; wave < blocks_.size(); wave += kWaveBlocks) {
            const size_t end = std::min(blocks_.size(), wave + kWaveBlocks);
            const Block& last = blocks_[end - 1];
            model.vertices.resize(placements_[last.placement].first_vertex + last.first + last.count);
            assbin_common::run_tasks(end - wave, threads, [&](size_t b) { emit_block(blocks_[wave + b]); });
        }
        return finish();
    }

  private:
    // The references in output order: as they come, or grouped by material (stable, materials in
    // order of first use) when optimize_geometry will merge each material's meshes into one.
    std::vector<size_t> reference_order() const {
        std::vector<size_t> order(graph_.references.size());
        for (size_t r = 0; r < order.size(); ++r)
            order[r] = r;
        if (!options_.optimize || options_.keep_meshes) return order;
        std::unordered_map<uint32_t, size_t> rank; // material -> order of first use
        for (const MeshReference& reference : graph_.references)
            rank.emplace(scene_.meshes[reference.mesh].material_index, rank.size());
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return rank.at(scene_.meshes[graph_.references[a].mesh].material_index) <
                   rank.at(scene_.meshes[graph_.references[b].mesh].material_index);
        });
        return order;
    }

    // Where every reference's vertices and indices go; references without triangles are omitted.
    void plan() {
        for (const size_t r : reference_order()) {
            const auto [n, m] = graph_.references[r];
            const PreparedMesh& mesh = meshes_[m];
            if (!mesh.has_triangles()) {
                ++result_.stats.meshes_omitted;
                report_.warn(mesh_label(m) + " at " + node_label(scene_, n) +
                             " keeps no triangle; it is omitted");
                continue;
            }
            if (!graph_.global[n].allFinite()) {
                throw ConvertError(Refusal::NonFinite, node_label(scene_, n) + " holds " + mesh_label(m) +
                                                           ", but its global transform is not finite");
            }
            Placement placement{r, view_of(mesh, scene_.meshes[m], options_),
                                static_cast<uint32_t>(vertex_total_), static_cast<uint32_t>(index_total_),
                                static_cast<uint32_t>(mesh.triangles().size())};
            for (size_t first = 0; first < placement.view.count; first += kVertexBlock) {
                Block block;
                block.placement = placements_.size();
                block.first = first;
                block.count = std::min(kVertexBlock, placement.view.count - first);
                blocks_.push_back(block);
            }
            vertex_total_ += placement.view.count;
            index_total_ += placement.index_count;
            placements_.push_back(placement);
        }
    }

    unsigned thread_count() const {
        if (options_.threads == 1 || vertex_total_ < kParallelVertices) return 1;
        return detail::thread_count(options_.threads);
    }

    void emit_block(Block& block) {
        const Placement& placement = placements_[block.placement];
        const auto [n, m] = graph_.references[placement.reference];
        const VertexView part = placement.view.slice(block.first, block.count);
        const std::span<aem::Vertex> out(result_.model.vertices.data() + placement.first_vertex + block.first,
                                         block.count);
        block.repaired = bake_vertices(part, graph_.global[n], out);
        block.skin = skin_vertices(weights_[m] ? *weights_[m] : no_weights_, part,
                                   skeleton_.bone_map[placement.reference],
                                   skeleton_.extra_bone[placement.reference], out);
        for (aem::Vertex& vertex : out) { // while they are in cache: the safety net's vertex part,
            block.valid &= vertex_is_valid(vertex, skeleton_.bones.size());
            block.overflowed += !vertex.position.allFinite();
            if (options_.optimize) positive_zeros(vertex); // and one bit pattern per value for the weld
        }
    }

    void place(const Placement& placement) const {
        const auto [n, m] = graph_.references[placement.reference];
        place_triangles(
            meshes_[m].triangles(), graph_.global[n], placement.first_vertex,
            std::span(result_.model.indices).subspan(placement.first_index, placement.index_count));
    }

    // Mesh records, tallies and warnings, in reference order.
    EmitResult finish() {
        EmitResult emitted;
        size_t block = 0; // blocks are in placement order
        for (size_t p = 0; p < placements_.size(); ++p) {
            const Placement& placement = placements_[p];
            const auto [n, m] = graph_.references[placement.reference];
            size_t repaired = 0, overflowed = 0;
            SkinTally skin;
            for (; block < blocks_.size() && blocks_[block].placement == p; ++block) {
                repaired += blocks_[block].repaired;
                overflowed += blocks_[block].overflowed;
                skin.lost_influences += blocks_[block].skin.lost_influences;
                skin.unweighted += blocks_[block].skin.unweighted;
                emitted.vertices_valid = emitted.vertices_valid && blocks_[block].valid;
            }
            if (overflowed > 0) {
                // Source positions with NaN or infinity never reach here (their faces are dropped):
                // these were finite, and the placement made them too large for a float.
                throw ConvertError(Refusal::NonFinite,
                                   node_label(scene_, n) + " places " + std::to_string(overflowed) + " of " +
                                       mesh_label(m) +
                                       "'s vertex positions beyond the range of a float "
                                       "(its global transform scales or moves them past 3.4e38)");
            }
            report_reference(placement, repaired, skin);
            // refuse_broken_references checked the material index.
            result_.model.meshes.push_back(
                {placement.first_index, placement.index_count, scene_.meshes[m].material_index});
            emitted.mesh_vertices.push_back(
                {placement.first_vertex, static_cast<uint32_t>(placement.view.count)});
            emitted.tangents_missing.push_back(meshes_[m].tangents_after_baking);
            if (options_.record_vertex_origins) {
                for (size_t v = 0; v < placement.view.count; ++v)
                    result_.vertex_origins.push_back({n, m, placement.view.source_of(v)});
            }
        }
        if (result_.stats.vertices_lost_influences > 0) {
            report_.warn(count_of(result_.stats.vertices_lost_influences, "vertex", "vertices") +
                         " had more than four bone weights; the four largest were kept and renormalised");
        }
        return emitted;
    }

    void report_reference(const Placement& placement, size_t repaired, const SkinTally& skin) {
        const auto [n, m] = graph_.references[placement.reference];
        const std::string where = mesh_label(m) + " at " + node_label(scene_, n);
        if (repaired > 0) {
            report_.warn(
                where + ": " + count_of(repaired, "normal, tangent or UV", "normals, tangents or UVs") +
                " held NaN or infinity and " + (repaired == 1 ? "was" : "were") + " written as zero");
        }
        result_.stats.vertices_lost_influences += skin.lost_influences;
        if (skin.unweighted > 0) {
            report_.warn(where + ": " + count_of(skin.unweighted, "skinned vertex", "skinned vertices") +
                         (skin.unweighted == 1 ? " has no bone weight left; it stays in the bind pose"
                                               : " have no bone weight left; they stay in the bind pose"));
        }
    }

    const assbin::Scene& scene_;
    const NodeGraph& graph_;
    const std::vector<std::optional<VertexWeights>>& weights_; // per dump mesh with bones (prepare_scene)
    const std::vector<PreparedMesh>& meshes_;
    const Skeleton& skeleton_;
    const ConvertOptions& options_;
    ConvertResult& result_;
    Report& report_;
    std::vector<Placement> placements_;
    std::vector<Block> blocks_;
    size_t vertex_total_ = 0;
    size_t index_total_ = 0;
    const VertexWeights no_weights_; // for meshes without skin (never read: their bone map is empty)
};

} // namespace

EmitResult emit_geometry(const assbin::Scene& scene, const PreparedScene& prepared,
                         const std::vector<PreparedMesh>& meshes, const Skeleton& skeleton,
                         const ConvertOptions& options, ConvertResult& result, Report& report) {
    return GeometryEmitter(scene, prepared, meshes, skeleton, options, result, report).run();
}

} // namespace assbin::converter::detail
