// Pose evaluation exactly as AEM-FORMAT.md states it ("Evaluation"): each channel is clamped
// outside its keys and interpolated between them (lerp for position and scale, slerp for
// rotation); local = T·R·S; global = parent global · local; skinning = global · inverse bind.
#pragma once

#include <aem/model.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cstdint>
#include <optional>
#include <vector>

namespace aem {

// The rest of this header's preconditions, stated once: the model passes validate() (in
// particular parents precede children and every channel of the animation has a key in range).
// Functions throw std::out_of_range for an animation, bone or vertex index that does not exist
// or a reference that leaves its section, std::invalid_argument for a NaN time, an empty channel
// or a parent that does not precede its child; they never read out of bounds.

// One bone's sampled channels.
struct BoneTransform {
    Eigen::Vector3f translation = Eigen::Vector3f::Zero();
    Eigen::Quaternionf rotation = Eigen::Quaternionf::Identity();
    Eigen::Vector3f scale = Eigen::Vector3f::Ones();
};

// All bones at one time. `animation` empty means "no animation".
struct Pose {
    std::vector<Eigen::Matrix4f> global;   // bone space -> model space
    std::vector<Eigen::Matrix4f> skinning; // global · inverse bind; identity with no animation
};

// Samples bone `bone`'s three channels of animation `animation` at `time` seconds.
BoneTransform sample_bone(const Model& model, uint32_t animation, uint32_t bone, float time);

// T · R · S as one matrix.
Eigen::Matrix4f local_matrix(const BoneTransform& transform);

// Every bone's global and skinning matrix in `animation` at `time` seconds. With no animation,
// skinning matrices are exactly identity and globals are the bind pose (inverse of the inverse
// bind matrix; meaningless where that matrix is singular).
Pose evaluate_pose(const Model& model, std::optional<uint32_t> animation, float time);

// The matrix that carries vertex `vertex` from the bind pose into `pose`: skin · extra (see below).
// Throws std::out_of_range for a vertex that does not exist.
Eigen::Matrix4f vertex_matrix(const Model& model, const Pose& pose, uint32_t vertex);

// Where vertex `vertex` lands in `pose`: skin · extra · position, where extra is the skinning
// matrix of the vertex's extra bone (identity when -1) and skin is the weighted sum of its used
// bone slots' skinning matrices (identity for a vertex with no bone). `pose` must come from
// evaluate_pose on the same model.
Eigen::Vector3f skinned_position(const Model& model, const Pose& pose, uint32_t vertex);

// As above, evaluating the pose first: convenient for one vertex, wasteful for many.
Eigen::Vector3f skinned_position(const Model& model, uint32_t vertex, std::optional<uint32_t> animation,
                                 float time);

} // namespace aem
