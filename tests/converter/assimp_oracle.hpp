// An independent evaluator of an assbin::Scene with Assimp's semantics, the oracle the pose tests
// hold the converter's AEM output against. It shares no code with the converter: it walks the node
// hierarchy at a time, interpolates channel keys the way aiQuaternion::Interpolate and the Assimp
// viewer's AnimEvaluator do (in ticks, clamped at the ends), and skins with bone offsets.
#pragma once

#include <assbin/types.hpp>

#include <Eigen/Core>

#include <optional>
#include <vector>

namespace assbin_test::oracle {

class SceneEvaluator {
  public:
    // `default_ticks_per_second` plays animations whose ticks per second is 0.
    explicit SceneEvaluator(const assbin::Scene& scene, double default_ticks_per_second = 25.0);

    struct Pose {
        std::vector<Eigen::Matrix4d> globals; // per node
        bool animated = false;                // false: the static bind pose, where skins do not act
    };

    // Every node's global transform in `animation` at `seconds`; nullopt gives the bind pose, where
    // every node keeps its own transform and meshes are shown as their nodes place them (AEM's
    // "no animation": the vertex section itself).
    Pose pose(std::optional<size_t> animation, double seconds) const;

    // Where vertex `vertex` of mesh `mesh`, held by node `node`, lands in `pose`:
    //   skinned mesh in an animation: Σ w · global(bone's node) · offset · v over its weights (bones
    //     matched to the one node of their name; at most the four largest, renormalised, as
    //     LimitBoneWeights does); a vertex left without weight stays at global_bind(node) · v;
    //   any other mesh, and every mesh in the bind pose: global(node) · v.
    Eigen::Vector3d vertex_position(const Pose& pose, uint32_t node, uint32_t mesh, uint32_t vertex) const;

  private:
    Eigen::Matrix4d local_at(size_t node, size_t animation, double ticks) const;

    const assbin::Scene& scene_;
    double default_ticks_per_second_;
    std::vector<Eigen::Matrix4d> bind_globals_;
    // Per mesh, per vertex: (node of the bone, offset, weight) after limiting.
    struct Weight {
        uint32_t node;
        Eigen::Matrix4d offset;
        double weight;
    };
    std::vector<std::vector<std::vector<Weight>>> weights_;
    std::vector<bool> skinned_; // per mesh: some bone names exactly one node
};

} // namespace assbin_test::oracle
