// Rule 3: bones from the node hierarchy (skeletal, mesh and hierarchy bones, parents first, split
// where one node needs two inverse bind matrices). Weights are in weights.cpp.
#include "pipeline.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

namespace assbin::converter {

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
    SkeletonBuilder(const assbin::Scene& scene, Report& report)
        : scene_(scene), report_(report), claims_(scene.nodes.size()) {}

    // Per mesh bone slot: the node it binds (the prepared scene's match), or -1, reported.
    std::vector<int32_t> mesh_bone_nodes(uint32_t m, const std::vector<BoneTarget>& targets) {
        std::vector<int32_t> nodes;
        for (size_t b = 0; b < targets.size(); ++b) {
            nodes.push_back(targets[b].node);
            if (targets[b].node >= 0) continue;
            report_.warn(mesh_label(m) + ": bone " + quote_name(scene_.meshes[m].bones[b].name) + " " +
                         bone_miss_phrase(targets[b]) + "; its weights go to the vertices' other bones");
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
                if (!bone.inverse_bind.allFinite()) { // finite in double, past float's range
                    throw ConvertError(Refusal::NonFinite,
                                       node_label(scene_, n) +
                                           "'s inverse bind matrix (its bone offset · the "
                                           "mesh node's inverse) is beyond the range of a float");
                }
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

std::vector<BoneTarget> match_bones(const assbin::Mesh& mesh, const NodeGraph& graph) {
    std::vector<BoneTarget> targets(mesh.bones.size());
    for (size_t b = 0; b < mesh.bones.size(); ++b) {
        const std::vector<uint32_t>& named = graph.nodes_named(mesh.bones[b].name);
        BoneTarget& target = targets[b];
        target.nodes_named = named.size();
        if (!mesh.bones[b].offset.allFinite())
            target.miss = BoneTarget::Miss::NonFiniteOffset;
        else if (named.empty())
            target.miss = BoneTarget::Miss::NoNode;
        else if (named.size() > 1)
            target.miss = BoneTarget::Miss::SeveralNodes;
        else
            target.node = static_cast<int32_t>(named.front());
    }
    return targets;
}

std::string bone_miss_phrase(const BoneTarget& target) {
    switch (target.miss) {
    case BoneTarget::Miss::NonFiniteOffset:
        return "has a non-finite offset matrix";
    case BoneTarget::Miss::NoNode:
        return "names no node";
    case BoneTarget::Miss::SeveralNodes:
        return "names " + std::to_string(target.nodes_named) + " nodes";
    case BoneTarget::Miss::None:
        break;
    }
    return "binds a node";
}

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
                        const std::vector<std::vector<BoneTarget>>& bone_targets,
                        const std::vector<PreparedMesh>& meshes, Report& report) {
    SkeletonBuilder builder(scene, report);
    std::vector<std::vector<int32_t>> bone_nodes(scene.meshes.size());
    for (uint32_t m = 0; m < scene.meshes.size(); ++m) {
        if (meshes[m].has_triangles()) bone_nodes[m] = builder.mesh_bone_nodes(m, bone_targets[m]);
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

} // namespace detail

} // namespace assbin::converter
