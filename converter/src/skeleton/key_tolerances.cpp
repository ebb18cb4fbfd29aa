// How far each key track may stray (--key-error): the tolerance reduce_keys gets for a channel's
// translation, rotation and scale tracks, chosen so that no vertex moves more than key_error x the
// model's size (the diagonal of its bounding box at rest) at any source key time.
//
// The bound, for a vertex carried by a chain of animated nodes: a node's translation error moves it
// by at most |Δt| x the largest singular value of the parent's world linear part; a rotation error
// of angle δ moves it by at most δ x its distance from the node's origin x the parent's anisotropy
// (largest / smallest singular value); a scale error |Δs| by at most |Δs| x that distance x the
// anisotropy / the node's smallest rest scale. Errors along a chain add up (the transforms below a
// node are rigid or scaled by what the bound counts), so each animated node gets an equal share of
// the budget: key_error x size / (the most animated nodes on one root-to-leaf chain), a third each
// for its three tracks. The distance is bounded over every pose: a node's reach is its own vertices'
// farthest distance at rest, or a child's distance plus how far the child's translation keys move
// it from rest plus the child's reach, grown by how much the node's scale keys grow it; rotations
// below a node keep each link's length.
// A node that carries no vertex keeps its keys (a camera or a light may hang below it).
// Cost: linear in vertices, bone weights, nodes and keys.
#include "pipeline.hpp"
#include "skeleton/vertex_box.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>

namespace assbin::converter::detail {

namespace {

// Largest and smallest singular values of a 3 x 3 linear part (square roots of the eigenvalues of
// its Gram matrix, which come sorted in increasing order).
std::pair<double, double> singular_range(const Eigen::Matrix3d& linear) {
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> gram;
    gram.computeDirect(linear.transpose() * linear, Eigen::EigenvaluesOnly);
    const Eigen::Vector3d values = gram.eigenvalues().cwiseMax(0.0);
    return {std::sqrt(values[2]), std::sqrt(values[0])};
}

} // namespace

KeyTolerances key_tolerances(const assbin::Scene& scene, const PreparedScene& prepared, double key_error) {
    KeyTolerances out;
    const size_t n = scene.nodes.size();
    if (!(key_error > 0) || n == 0) return out;
    const std::vector<Eigen::Matrix4d>& global = prepared.graph.global;

    // Every vertex where the nodes that place it put it at rest: its mesh's node, and each bone
    // that weighs it (its own box per node).
    std::vector<VertexBox> own(n);
    VertexBox model;
    for (const MeshReference& reference : prepared.graph.references) {
        const assbin::Mesh& mesh = scene.meshes[reference.mesh];
        if (!mesh.positions) continue;
        const std::vector<Eigen::Vector3f>& positions = mesh.positions->values;
        const Eigen::Matrix4d& place = global[reference.node];
        const auto world = [&](uint32_t v) {
            return Eigen::Vector3d(place.topLeftCorner<3, 3>() * positions[v].cast<double>() +
                                   place.col(3).head<3>());
        };
        for (uint32_t v = 0; v < positions.size(); ++v) {
            const Eigen::Vector3d p = world(v);
            if (!p.allFinite()) continue;
            own[reference.node].add(p);
            model.add(p);
        }
        const std::vector<BoneTarget>& targets = prepared.bone_targets[reference.mesh];
        for (size_t slot = 0; slot < mesh.bones.size() && slot < targets.size(); ++slot) {
            if (targets[slot].node < 0) continue;
            VertexBox& bone = own[static_cast<size_t>(targets[slot].node)];
            for (const assbin::VertexWeight& w : mesh.bones[slot].weights) {
                if (w.vertex >= positions.size() || !(w.weight > 0)) continue;
                const Eigen::Vector3d p = world(w.vertex);
                if (p.allFinite()) bone.add(p);
            }
        }
    }
    if (model.empty()) return out;
    out.model_size = (model.high - model.low).norm();
    if (!(out.model_size > 0) || !std::isfinite(out.model_size)) return out;

    // Per node: how far its translation keys move it from rest (in world units), and how much its
    // scale keys grow what hangs below it, over every animation.
    std::vector<double> moved(n, 0.0), grown(n, 1.0);
    std::vector<Eigen::Vector3d> rest_scale(n, Eigen::Vector3d::Ones());
    std::vector<double> parent_largest(n, 1.0), parent_anisotropy(n, 1.0);
    for (size_t i = 0; i < n; ++i) {
        const int32_t parent = scene.nodes[i].parent;
        if (parent >= 0) {
            const auto [largest, smallest] =
                singular_range(global[static_cast<size_t>(parent)].topLeftCorner<3, 3>());
            parent_largest[i] = largest;
            parent_anisotropy[i] =
                smallest > 0 ? largest / smallest : std::numeric_limits<double>::infinity();
        }
        const Eigen::Matrix3d local = scene.nodes[i].transform.topLeftCorner<3, 3>().cast<double>();
        rest_scale[i] = Eigen::Vector3d(local.col(0).norm(), local.col(1).norm(), local.col(2).norm());
    }
    for (size_t a = 0; a < scene.animations.size(); ++a) {
        for (const auto& [node, c] : prepared.channels.channel_of_node[a]) {
            const assbin::NodeChannel& channel = scene.animations[a].channels[static_cast<size_t>(c)];
            const Eigen::Vector3d rest = scene.nodes[node].transform.topRightCorner<3, 1>().cast<double>();
            for (const assbin::VectorKey& key : channel.positions.keys) {
                const double away = (key.value.cast<double>() - rest).norm() * parent_largest[node];
                if (std::isfinite(away)) moved[node] = std::max(moved[node], away);
            }
            const double smallest_rest = rest_scale[node].minCoeff();
            for (const assbin::VectorKey& key : channel.scalings.keys) {
                const double growth = key.value.cast<double>().cwiseAbs().maxCoeff() / smallest_rest;
                grown[node] = std::max(
                    grown[node], std::isfinite(growth) ? growth : std::numeric_limits<double>::infinity());
            }
        }
    }
    // Reach, children before parents (a parent precedes its children in the node array).
    std::vector<double> reach(n, 0.0);
    for (size_t i = 0; i < n; ++i)
        reach[i] = own[i].reach_from(global[i].col(3).head<3>());
    for (size_t i = n; i-- > 0;) {
        reach[i] *= grown[i];
        const int32_t parent = scene.nodes[i].parent;
        if (parent < 0 || reach[i] == 0) continue;
        const size_t p = static_cast<size_t>(parent);
        const double link = (global[i].col(3).head<3>() - global[p].col(3).head<3>()).norm();
        reach[p] = std::max(reach[p], link + moved[i] + reach[i]);
    }
    // The most animated nodes on one chain from a root down to a node that carries vertices, and
    // how much the scale keys above each node may grow the world (its translation and its reach).
    std::vector<size_t> animated_above(n, 0);
    std::vector<double> grown_above(n, 1.0);
    size_t chain = 0;
    for (size_t i = 0; i < n; ++i) {
        const int32_t parent = scene.nodes[i].parent;
        const size_t p = static_cast<size_t>(parent);
        animated_above[i] = (parent >= 0 ? animated_above[p] : 0) + (prepared.channels.animated[i] ? 1 : 0);
        grown_above[i] = parent >= 0 ? grown_above[p] * grown[p] : 1.0;
        if (reach[i] > 0) chain = std::max(chain, animated_above[i]);
    }
    out.chain = std::max<size_t>(chain, 1);
    out.key_error = key_error;
    const double share = key_error * out.model_size / double(out.chain) / 3.0;

    out.of_channel.resize(scene.animations.size());
    constexpr double kUnset = std::numeric_limits<double>::infinity();
    for (size_t a = 0; a < scene.animations.size(); ++a) {
        std::vector<std::array<double, 3>>& of_channel = out.of_channel[a];
        of_channel.assign(scene.animations[a].channels.size(), {kUnset, kUnset, kUnset});
        for (const auto& [node, c] : prepared.channels.channel_of_node[a]) {
            std::array<double, 3> tolerance{0, 0, 0}; // nothing carried, or a bound that is not finite: kept
            const double largest = parent_largest[node] * grown_above[node];
            const double lever = reach[node] * grown_above[node] * parent_anisotropy[node];
            if (reach[node] > 0 && std::isfinite(lever) && std::isfinite(largest) && largest > 0) {
                tolerance[0] = share / largest;
                tolerance[1] = std::min(share / lever, kLargestRotationTolerance);
                tolerance[2] = share * rest_scale[node].minCoeff() / lever;
            }
            std::array<double, 3>& of =
                of_channel[static_cast<size_t>(c)]; // a channel driving several nodes: the least
            for (size_t k = 0; k < 3; ++k)
                of[k] = std::min(of[k], std::isfinite(tolerance[k]) ? tolerance[k] : 0.0);
        }
        for (std::array<double, 3>& of : of_channel) // channels that drive no node
            for (double& tolerance : of)
                tolerance = tolerance == kUnset ? 0.0 : tolerance;
    }
    return out;
}

} // namespace assbin::converter::detail
