// Pose evaluation: sample, compose parents first, skin. The semantics are AEM-FORMAT.md's
// "Evaluation" paragraph, word for word; the tests recompute them by hand.
#include <aem/pose.hpp>

#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>
#include <string>

namespace aem {

namespace {

std::span<const Keyframe> channel_keys(const Model& model, const KeyRange& range, const char* channel) {
    if (uint64_t{range.first} + range.count > model.keyframes.size()) {
        throw std::out_of_range(std::string(channel) + " keyframes [" + std::to_string(range.first) + ", +" +
                                std::to_string(range.count) + ") leave the keyframe section");
    }
    if (range.count == 0) throw std::invalid_argument(std::string(channel) + " channel has no keyframe");
    return std::span<const Keyframe>(model.keyframes).subspan(range.first, range.count);
}

// The two keys around `time` and how far between them it lies; both keys are the same one
// (factor 0) before the first key and after the last: the channel is clamped there.
struct Bracket {
    const Keyframe* from;
    const Keyframe* to;
    float factor;
};

Bracket bracket(std::span<const Keyframe> keys, float time) {
    if (time <= keys.front().time) return {&keys.front(), &keys.front(), 0};
    if (time >= keys.back().time) return {&keys.back(), &keys.back(), 0};
    const auto later = std::upper_bound(keys.begin(), keys.end(), time,
                                        [](float t, const Keyframe& key) { return t < key.time; });
    // Keys sorted by time put `later` in [1, size-1]; the clamp only guards unsorted input.
    const size_t next = std::clamp<size_t>(static_cast<size_t>(later - keys.begin()), 1, keys.size() - 1);
    const Keyframe& from = keys[next - 1];
    const Keyframe& to = keys[next];
    const float gap = to.time - from.time;
    return {&from, &to, gap > 0 ? (time - from.time) / gap : 0.0f};
}

Eigen::Vector3f sample_vector(std::span<const Keyframe> keys, float time) {
    const Bracket b = bracket(keys, time);
    const Eigen::Vector3f from = vector_of(*b.from);
    return from + (vector_of(*b.to) - from) * b.factor;
}

Eigen::Quaternionf sample_rotation(std::span<const Keyframe> keys, float time) {
    const Bracket b = bracket(keys, time);
    return rotation_of(*b.from).slerp(b.factor, rotation_of(*b.to));
}

void check_parent(const Model& model, size_t bone) {
    const int32_t parent = model.bones[bone].parent;
    if (parent != kNone && (parent < 0 || static_cast<size_t>(parent) >= bone)) {
        throw std::invalid_argument("bone " + std::to_string(bone) + "'s parent " + std::to_string(parent) +
                                    " does not precede it");
    }
}

Pose bind_pose(const Model& model) {
    Pose pose;
    pose.global.reserve(model.bones.size());
    for (const Bone& bone : model.bones)
        pose.global.push_back(bone.inverse_bind.inverse());
    pose.skinning.assign(model.bones.size(), Eigen::Matrix4f::Identity());
    return pose;
}

const Eigen::Matrix4f& skinning_of(const Pose& pose, int32_t bone, uint32_t vertex) {
    if (bone < 0 || static_cast<size_t>(bone) >= pose.skinning.size()) {
        throw std::out_of_range("vertex " + std::to_string(vertex) + " refers to bone " +
                                std::to_string(bone) + ", which the pose does not have");
    }
    return pose.skinning[static_cast<size_t>(bone)];
}

} // namespace

BoneTransform sample_bone(const Model& model, uint32_t animation, uint32_t bone, float time) {
    if (std::isnan(time)) throw std::invalid_argument("the time to sample is NaN");
    if (animation >= model.animations.size()) {
        throw std::out_of_range("animation " + std::to_string(animation) + " does not exist (the model has " +
                                std::to_string(model.animations.size()) + ")");
    }
    if (bone >= model.bones.size())
        throw std::out_of_range("bone " + std::to_string(bone) + " does not exist");
    const uint64_t s = uint64_t{model.animations[animation].first_sequence} + bone;
    if (s >= model.sequences.size()) {
        throw std::out_of_range("animation " + std::to_string(animation) + "'s sequence for bone " +
                                std::to_string(bone) + " is past the sequence section");
    }
    const Sequence& sequence = model.sequences[s];
    BoneTransform transform;
    transform.translation = sample_vector(channel_keys(model, sequence.position, "position"), time);
    transform.rotation = sample_rotation(channel_keys(model, sequence.rotation, "rotation"), time);
    transform.scale = sample_vector(channel_keys(model, sequence.scale, "scale"), time);
    return transform;
}

Eigen::Matrix4f local_matrix(const BoneTransform& transform) {
    Eigen::Matrix4f matrix = Eigen::Matrix4f::Identity();
    matrix.topLeftCorner<3, 3>() = transform.rotation.toRotationMatrix() * transform.scale.asDiagonal();
    matrix.topRightCorner<3, 1>() = transform.translation;
    return matrix;
}

Pose evaluate_pose(const Model& model, std::optional<uint32_t> animation, float time) {
    if (!animation) return bind_pose(model);
    Pose pose;
    pose.global.resize(model.bones.size());
    pose.skinning.resize(model.bones.size());
    for (size_t b = 0; b < model.bones.size(); ++b) {
        check_parent(model, b);
        const Eigen::Matrix4f local =
            local_matrix(sample_bone(model, *animation, static_cast<uint32_t>(b), time));
        const int32_t parent = model.bones[b].parent;
        pose.global[b] =
            parent == kNone ? local : Eigen::Matrix4f(pose.global[static_cast<size_t>(parent)] * local);
        pose.skinning[b] = pose.global[b] * model.bones[b].inverse_bind;
    }
    return pose;
}

Eigen::Matrix4f vertex_matrix(const Model& model, const Pose& pose, uint32_t vertex) {
    if (vertex >= model.vertices.size()) {
        throw std::out_of_range("vertex " + std::to_string(vertex) + " does not exist (the model has " +
                                std::to_string(model.vertices.size()) + ")");
    }
    const Vertex& v = model.vertices[vertex];
    Eigen::Matrix4f skin = Eigen::Matrix4f::Zero();
    bool has_bone = false;
    for (size_t s = 0; s < 4; ++s) {
        if (v.bone_indices[s] == kNone) continue;
        skin += v.bone_weights[s] * skinning_of(pose, v.bone_indices[s], vertex);
        has_bone = true;
    }
    if (!has_bone) skin = Eigen::Matrix4f::Identity();
    return v.extra_bone == kNone ? skin : Eigen::Matrix4f(skin * skinning_of(pose, v.extra_bone, vertex));
}

Eigen::Vector3f skinned_position(const Model& model, const Pose& pose, uint32_t vertex) {
    const Eigen::Vector3f& p = model.vertices.at(vertex).position;
    return (vertex_matrix(model, pose, vertex) * Eigen::Vector4f(p.x(), p.y(), p.z(), 1.0f)).head<3>();
}

Eigen::Vector3f skinned_position(const Model& model, uint32_t vertex, std::optional<uint32_t> animation,
                                 float time) {
    return skinned_position(model, evaluate_pose(model, animation, time), vertex);
}

} // namespace aem
