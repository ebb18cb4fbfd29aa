// Rules 3 and 4: bones from the node hierarchy (skeletal, mesh and hierarchy bones, parents first,
// split where one node needs two inverse bind matrices) and per-vertex weights limited to four.
#include "stages.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

namespace assbin::converter {

namespace {

// Heavier first; equal weights: lower bone index first. (A function object, so sorts inline it.)
constexpr auto ranks_before = [](const Influence& a, const Influence& b) {
    return a.weight != b.weight ? a.weight > b.weight : a.bone < b.bone;
};

// Sorts a handful of influences in place (insertion sort: the usual vertex has one to four).
template <class Less>
void sort_small(std::span<Influence> values, Less less) {
    if (values.size() > 16) {
        std::sort(values.begin(), values.end(), less);
        return;
    }
    for (size_t i = 1; i < values.size(); ++i) {
        const Influence value = values[i];
        size_t j = i;
        for (; j > 0 && less(value, values[j - 1]); --j)
            values[j] = values[j - 1];
        values[j] = value;
    }
}

} // namespace

namespace {

// The usual vertex: at most four distinct bones, every weight positive and finite. All of them are
// kept (so their order does not matter) and renormalised; nullopt for anything else.
std::optional<LimitedWeights> limit_few(std::span<const Influence> influences) {
    const size_t count = influences.size();
    if (count > 4) return std::nullopt;
    double total = 0;
    for (size_t i = 0; i < count; ++i) {
        const Influence& a = influences[i];
        if (a.bone < 0 || !(a.weight > 0) || !std::isfinite(a.weight)) return std::nullopt;
        for (size_t j = 0; j < i; ++j) {
            if (influences[j].bone == a.bone) return std::nullopt;
        }
        total += a.weight;
    }
    const double scale = 1.0 / total;
    LimitedWeights out;
    for (size_t i = 0; i < count; ++i) {
        out.bones[i] = influences[i].bone;
        out.weights[i] = static_cast<float>(influences[i].weight * scale);
        if (!(out.weights[i] > 0)) return std::nullopt; // underflow: the careful path drops it
    }
    return out;
}

} // namespace

LimitedWeights limit_influences(std::span<Influence> influences) {
    if (const std::optional<LimitedWeights> few = limit_few(influences)) return *few;
    size_t count = 0;
    for (const Influence& influence : influences) {
        if (influence.bone >= 0 && std::isfinite(influence.weight) && influence.weight > 0)
            influences[count++] = influence;
    }
    // Repeated bones add up (two aiBones of one mesh naming one node).
    sort_small(influences.first(count),
               [](const Influence& a, const Influence& b) { return a.bone < b.bone; });
    size_t merged = 0;
    for (size_t i = 0; i < count; ++i) {
        if (merged > 0 && influences[merged - 1].bone == influences[i].bone) {
            influences[merged - 1].weight += influences[i].weight;
        } else {
            influences[merged++] = influences[i];
        }
    }
    sort_small(influences.first(merged), ranks_before);
    LimitedWeights out;
    out.lost_influences = merged > 4;
    size_t kept = std::min<size_t>(merged, 4);
    double total = 0;
    for (size_t i = 0; i < kept; ++i)
        total += influences[i].weight;
    // A weight too small to survive the division would leave a used slot at 0: drop it first.
    while (kept > 0 && static_cast<float>(influences[kept - 1].weight / total) <= 0.0f) {
        total -= influences[--kept].weight;
    }
    for (size_t i = 0; i < kept; ++i) {
        out.bones[i] = influences[i].bone;
        out.weights[i] = static_cast<float>(influences[i].weight / total);
    }
    return out;
}

namespace detail {

namespace {

// Two inverse bind matrices are one when they agree to float precision (meshes bound to one
// skeleton compute offset · G⁻¹ through different products).
bool same_matrix(const Eigen::Matrix4d& a, const Eigen::Matrix4d& b) {
    const double scale = std::max({1.0, a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff()});
    return (a - b).cwiseAbs().maxCoeff() <= 1e-5 * scale;
}

struct Claim {
    int32_t node = -1;
    uint32_t index = 0; // which of the node's inverse bind matrices
};

// Everything the bone list is built from.
class SkeletonBuilder {
  public:
    SkeletonBuilder(const assbin::Scene& scene, const NodeGraph& graph, Report& report)
        : scene_(scene), graph_(graph), report_(report), claims_(scene.nodes.size()) {}

    // Per mesh bone slot: the node it names, or -1 (reported) when it names none or several.
    std::vector<int32_t> match_mesh_bones(uint32_t m) {
        std::vector<int32_t> nodes;
        for (const assbin::Bone& bone : scene_.meshes[m].bones) {
            const std::vector<uint32_t>& named = graph_.nodes_named(bone.name);
            if (named.size() == 1 && bone.offset.allFinite()) {
                nodes.push_back(static_cast<int32_t>(named[0]));
                continue;
            }
            nodes.push_back(-1);
            const std::string why = !bone.offset.allFinite() ? "has a non-finite offset matrix"
                                    : named.empty()          ? "names no node"
                                                    : "names " + std::to_string(named.size()) + " nodes";
            report_.warn(mesh_label(m) + ": bone " + quote_name(bone.name) + " " + why +
                         "; its weights go to the vertices' other bones");
        }
        return nodes;
    }

    Claim claim(uint32_t node, const Eigen::Matrix4d& inverse_bind) {
        std::vector<Eigen::Matrix4d>& list = claims_[node];
        for (uint32_t i = 0; i < list.size(); ++i) {
            if (same_matrix(list[i], inverse_bind)) return {static_cast<int32_t>(node), i};
        }
        list.push_back(inverse_bind);
        return {static_cast<int32_t>(node), static_cast<uint32_t>(list.size() - 1)};
    }

    // Bones for every needed node in node order (parents precede children in the pre-order node
    // array), each node's first matrix on its main bone and any further ones on split bones.
    void emit(const std::vector<bool>& needed, Skeleton& skeleton) {
        first_bone_.assign(scene_.nodes.size(), -1);
        for (uint32_t n = 0; n < scene_.nodes.size(); ++n) {
            if (!needed[n]) continue;
            const assbin::Node& node = scene_.nodes[n];
            if (!node.transform.allFinite()) {
                throw ConvertError(Refusal::NonFinite,
                                   node_label(scene_, n) + " has a non-finite transform and would be a bone");
            }
            const RestPose rest = decompose(node.transform.cast<double>());
            if (!rest.exact && !scene_.animations.empty()) {
                report_.warn(node_label(scene_, n) +
                             "'s transform has shear, which translation · rotation · scale cannot hold; "
                             "its rest pose is approximated");
            }
            const int32_t parent =
                node.parent < 0 ? aem::kNone : first_bone_[static_cast<size_t>(node.parent)];
            first_bone_[n] = static_cast<int32_t>(skeleton.bones.size());
            const size_t count = std::max<size_t>(1, claims_[n].size());
            if (count > 1) {
                report_.warn(node_label(scene_, n) + " is bound with " + std::to_string(count) +
                             " different inverse bind matrices; it becomes " + std::to_string(count) +
                             " bones");
            }
            for (size_t i = 0; i < count; ++i) {
                aem::Bone bone;
                if (i < claims_[n].size()) bone.inverse_bind = claims_[n][i].cast<float>();
                bone.parent = parent;
                skeleton.bones.push_back(bone);
                skeleton.bone_node.push_back(n);
                skeleton.rest.push_back(rest);
            }
        }
    }

    int32_t bone_of(const Claim& claim) const {
        if (claim.node < 0) return aem::kNone;
        return first_bone_[static_cast<size_t>(claim.node)] + static_cast<int32_t>(claim.index);
    }

    bool claimed(uint32_t node) const { return !claims_[node].empty(); }

  private:
    const assbin::Scene& scene_;
    const NodeGraph& graph_;
    Report& report_;
    std::vector<std::vector<Eigen::Matrix4d>> claims_;
    std::vector<int32_t> first_bone_;
};

// Nodes that move in some animation: driven themselves or below a driven node.
std::vector<bool> moving_nodes(const assbin::Scene& scene, const ChannelTargets& channels) {
    std::vector<bool> moving(scene.nodes.size(), false);
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        const int32_t parent = scene.nodes[n].parent;
        moving[n] = channels.animated[n] || (parent >= 0 && moving[static_cast<size_t>(parent)]);
    }
    return moving;
}

} // namespace

namespace {

// What one reference asks of the skeleton: per mesh bone slot (skinned mesh), or one mesh bone.
struct ReferenceClaims {
    std::vector<Claim> skin;
    Claim mesh;
};

ReferenceClaims claim_reference(const assbin::Scene& scene, const NodeGraph& graph, MeshReference reference,
                                const std::vector<int32_t>& bone_nodes, bool moving, SkeletonBuilder& builder,
                                Report& report) {
    const auto [n, m] = reference;
    ReferenceClaims claims;
    Eigen::Matrix4d inverse_global;
    bool invertible = false;
    graph.global[n].computeInverseWithCheck(inverse_global, invertible);
    const std::string where = mesh_label(m) + " at " + node_label(scene, n);
    if (std::any_of(bone_nodes.begin(), bone_nodes.end(), [](int32_t k) { return k >= 0; })) {
        for (size_t slot = 0; slot < bone_nodes.size(); ++slot) {
            if (bone_nodes[slot] < 0) {
                claims.skin.push_back({});
                continue;
            }
            // Vertices are baked by G, so the bone must first undo G: offset · G⁻¹.
            const Eigen::Matrix4d offset = scene.meshes[m].bones[slot].offset.cast<double>();
            claims.skin.push_back(
                builder.claim(static_cast<uint32_t>(bone_nodes[slot]),
                              invertible ? Eigen::Matrix4d(offset * inverse_global) : offset));
        }
        if (!invertible)
            report.warn(where + ": the node's bind transform is singular, so its skin cannot be un-baked");
    } else if (moving && invertible) {
        claims.mesh = builder.claim(n, inverse_global);
    } else if (moving) {
        report.warn(where + ": the node's bind transform is singular; the mesh stays in its bind pose");
    }
    return claims;
}

// Claimed and animated nodes and every ancestor of one (parents precede children in node order).
std::vector<bool> needed_nodes(const assbin::Scene& scene, const ChannelTargets& channels,
                               const SkeletonBuilder& builder) {
    std::vector<bool> needed(scene.nodes.size(), false);
    for (size_t n = scene.nodes.size(); n-- > 0;) {
        needed[n] = needed[n] || builder.claimed(static_cast<uint32_t>(n)) || channels.animated[n];
        const int32_t parent = scene.nodes[n].parent;
        if (needed[n] && parent >= 0) needed[static_cast<size_t>(parent)] = true;
    }
    return needed;
}

} // namespace

Skeleton build_skeleton(const assbin::Scene& scene, const NodeGraph& graph, const ChannelTargets& channels,
                        const std::vector<PreparedMesh>& meshes, Report& report) {
    SkeletonBuilder builder(scene, graph, report);
    std::vector<std::vector<int32_t>> bone_nodes(scene.meshes.size());
    for (uint32_t m = 0; m < scene.meshes.size(); ++m) {
        if (meshes[m].has_triangles()) bone_nodes[m] = builder.match_mesh_bones(m);
    }
    const std::vector<bool> moving = moving_nodes(scene, channels);
    std::vector<ReferenceClaims> claims(graph.references.size());
    for (size_t r = 0; r < graph.references.size(); ++r) {
        const MeshReference reference = graph.references[r];
        if (meshes[reference.mesh].has_triangles()) {
            claims[r] = claim_reference(scene, graph, reference, bone_nodes[reference.mesh],
                                        moving[reference.node], builder, report);
        }
    }
    Skeleton skeleton;
    builder.emit(needed_nodes(scene, channels, builder), skeleton);
    skeleton.bone_map.resize(graph.references.size());
    skeleton.extra_bone.assign(graph.references.size(), aem::kNone);
    for (size_t r = 0; r < graph.references.size(); ++r) {
        for (const Claim& claim : claims[r].skin)
            skeleton.bone_map[r].push_back(builder.bone_of(claim));
        skeleton.extra_bone[r] = builder.bone_of(claims[r].mesh);
    }
    return skeleton;
}

VertexWeights group_weights(const assbin::Mesh& mesh, uint32_t mesh_index, Report& report) {
    VertexWeights out;
    const size_t vertex_count = mesh.positions ? mesh.positions->values.size() : 0;
    out.inline_entries.reset(new std::array<VertexWeights::Entry, 4>[vertex_count]);
    out.count.assign(vertex_count, 0);
    size_t outside = 0;
    for (uint32_t slot = 0; slot < mesh.bones.size(); ++slot) {
        for (const assbin::VertexWeight& w : mesh.bones[slot].weights) {
            if (w.vertex >= vertex_count) {
                ++outside;
                continue;
            }
            const uint32_t n = out.count[w.vertex]++;
            if (n < 4) {
                out.inline_entries[w.vertex][n] = {slot, w.weight};
                continue;
            }
            std::vector<VertexWeights::Entry>& all = out.overflow[w.vertex];
            if (n == 4) all.assign(out.inline_entries[w.vertex].begin(), out.inline_entries[w.vertex].end());
            all.push_back({slot, w.weight});
        }
    }
    if (outside > 0) {
        report.warn(mesh_label(mesh_index) + ": " + std::to_string(outside) +
                    " bone weights name a vertex past the vertex count and are dropped");
    }
    return out;
}

namespace {

// limit_influences' fast path written straight into the vertex: at most four distinct mapped
// bones with positive finite weights, all kept and renormalised. False (vertex untouched) otherwise.
bool skin_few(const VertexWeights& weights, uint32_t source, std::span<const int32_t> bone_map,
              aem::Vertex& vertex) {
    const uint32_t count = weights.count[source];
    if (count == 0 || count > 4) return false;
    const std::array<VertexWeights::Entry, 4>& entries = weights.inline_entries[source];
    std::array<int32_t, 4> bones = {aem::kNone, aem::kNone, aem::kNone, aem::kNone};
    std::array<float, 4> values = {0, 0, 0, 0};
    unsigned ok = 1;
    double total = 0;
    for (uint32_t i = 0; i < count; ++i) {
        bones[i] = bone_map[entries[i].slot];
        values[i] = entries[i].weight;
        // Branch-free on purpose (this runs per vertex): bools widened to unsigned, then and-ed.
        ok &= unsigned{bones[i] >= 0} & unsigned{values[i] > 0} &
              unsigned{values[i] < std::numeric_limits<float>::infinity()};
        for (uint32_t j = 0; j < i; ++j)
            ok &= bones[j] != bones[i];
        total += values[i];
    }
    if (!ok) return false;
    const double scale = 1.0 / total;
    for (uint32_t i = 0; i < count; ++i) {
        values[i] = static_cast<float>(values[i] * scale);
        if (!(values[i] > 0)) return false; // underflow: the careful path drops it
    }
    vertex.bone_indices = bones;
    vertex.bone_weights = values;
    return true;
}

} // namespace

SkinTally skin_vertices(const VertexWeights& weights, const VertexView& view,
                        std::span<const int32_t> bone_map, int32_t extra_bone, std::span<aem::Vertex> out) {
    SkinTally tally;
    std::array<Influence, 16> small;
    std::vector<Influence> large;
    for (size_t v = 0; v < view.count; ++v) {
        aem::Vertex& vertex = out[v];
        vertex.extra_bone = extra_bone;
        if (bone_map.empty()) continue;
        const uint32_t source = view.source_of(v);
        if (skin_few(weights, source, bone_map, vertex)) continue;
        const std::span<const VertexWeights::Entry> entries = weights.of(source);
        std::span<Influence> influences(small.data(), entries.size());
        if (entries.size() > small.size()) {
            large.resize(entries.size());
            influences = large;
        }
        for (size_t e = 0; e < entries.size(); ++e)
            influences[e] = {bone_map[entries[e].slot], entries[e].weight};
        const LimitedWeights limited = limit_influences(influences);
        vertex.bone_indices = limited.bones;
        vertex.bone_weights = limited.weights;
        tally.lost_influences += limited.lost_influences ? 1 : 0;
        tally.unweighted += limited.bones[0] == aem::kNone ? 1 : 0;
    }
    return tally;
}

} // namespace detail

} // namespace assbin::converter
