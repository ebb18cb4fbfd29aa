// Rule 5 for AEM: channels matched to nodes (for every writer), then each animation as one sequence
// per bone of the channel keys key_tracks.cpp makes (quaternions stored as (x, y, z, w)), and a
// rest-pose key for every bone an animation leaves alone.
// Cost: channels matched to nodes by the node graph's table of names and kept per animation for the
// nodes they name only (linear in channels and nodes); keys copied once (a million keys in well
// under a second, scripts/bench-shapes.sh: keys). The AEM layout itself holds a sequence per bone
// for each animation, so the output, and this stage, grow with animations x bones.
#include "pipeline.hpp"
#include <counting.hpp>

#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>

namespace assbin::converter {

double effective_ticks_per_second(double file_ticks_per_second, double fallback) {
    return std::isfinite(file_ticks_per_second) && file_ticks_per_second > 0 ? file_ticks_per_second
                                                                             : fallback;
}

float seconds_from_ticks(double ticks, double ticks_per_second) {
    return static_cast<float>(ticks / ticks_per_second);
}

RestPose decompose(const Eigen::Matrix4d& local) {
    const Eigen::Matrix3d linear = local.topLeftCorner<3, 3>();
    Eigen::Vector3d scale(linear.col(0).norm(), linear.col(1).norm(), linear.col(2).norm());
    if (linear.determinant() < 0) scale = -scale;
    Eigen::Matrix3d rotation = linear;
    for (int c = 0; c < 3; ++c) {
        if (scale[c] != 0) rotation.col(c) /= scale[c];
    }
    // The nearest rotation (polar decomposition): exact for T·R·S matrices, a best fit under shear.
    const Eigen::JacobiSVD<Eigen::Matrix3d> svd(rotation, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Eigen::Matrix3d u = svd.matrixU();
    if ((u * svd.matrixV().transpose()).determinant() < 0) u.col(2) = -u.col(2);
    rotation = u * svd.matrixV().transpose();

    RestPose pose;
    pose.translation = local.topRightCorner<3, 1>().cast<float>();
    pose.rotation = Eigen::Quaterniond(rotation).normalized().cast<float>();
    pose.scale = scale.cast<float>();
    const Eigen::Matrix3d rebuilt = rotation * scale.asDiagonal();
    const double size = std::max(1.0, linear.cwiseAbs().maxCoeff());
    pose.exact = (rebuilt - linear).cwiseAbs().maxCoeff() <= 1e-4 * size;
    return pose;
}

namespace detail {

ChannelTargets match_channels(const assbin::Scene& scene, const NodeGraph& graph, Report& report) {
    ChannelTargets targets;
    targets.animated.assign(scene.nodes.size(), false);
    for (size_t a = 0; a < scene.animations.size(); ++a) {
        // Only the nodes its channels name: an array over every node per animation would cost
        // animations x nodes (100,000 of each in a dump of a few MB: 10^10).
        std::unordered_map<uint32_t, int32_t>& channel_of = targets.channel_of_node.emplace_back();
        const std::vector<assbin::NodeChannel>& channels = scene.animations[a].channels;
        for (size_t c = 0; c < channels.size(); ++c) {
            const std::vector<uint32_t>& nodes = graph.nodes_named(channels[c].node_name);
            if (nodes.empty()) {
                report.warn(animation_label(scene, a) + ": channel " + std::to_string(c) + " drives node " +
                            quote_name(channels[c].node_name) +
                            ", which the scene does not have; it is skipped");
            } else if (nodes.size() > 1) {
                report.warn(animation_label(scene, a) + ": channel " + std::to_string(c) + " names " +
                            assbin_common::counted(nodes.size(), "node") + " " +
                            quote_name(channels[c].node_name) +
                            "; it drives all of them, as in the Assimp viewer");
            }
            for (const uint32_t n : nodes) {
                if (const auto first = channel_of.find(n); first != channel_of.end()) {
                    report.warn(animation_label(scene, a) + ": channels " + std::to_string(first->second) +
                                " and " + std::to_string(c) + " both drive " + node_label(scene, n) +
                                "; the first one is used");
                    continue;
                }
                channel_of.emplace(n, static_cast<int32_t>(c));
                targets.animated[n] = true;
            }
        }
    }
    return targets;
}

namespace {

aem::Keyframe rest_key(const Eigen::Vector3f& v) {
    return {0.0f, Eigen::Vector4f(v.x(), v.y(), v.z(), 0.0f)};
}

// One key per channel holding a bone's rest pose, shared by every animation that needs it.
class RestKeys {
  public:
    explicit RestKeys(const Skeleton& skeleton)
        : skeleton_(skeleton), ranges_(skeleton.bones.size()), first_bone_(skeleton.bones.size()) {
        std::unordered_map<uint32_t, uint32_t> first_of_node; // bones split from one node share it
        for (uint32_t b = 0; b < first_bone_.size(); ++b)
            first_bone_[b] = first_of_node.emplace(skeleton.bone_node[b], b).first->second;
    }

    // The first bone of bone b's node (b itself unless b was split from an earlier bone's node).
    uint32_t first_bone_of_node(size_t b) const { return first_bone_[b]; }

    aem::Sequence of(size_t bone, aem::Model& model) {
        if (!ranges_[bone]) {
            const RestPose& rest = skeleton_.rest[bone];
            const uint32_t first = static_cast<uint32_t>(model.keyframes.size());
            const Eigen::Quaternionf& q = rest.rotation;
            model.keyframes.push_back(rest_key(rest.translation));
            model.keyframes.push_back({0.0f, Eigen::Vector4f(q.x(), q.y(), q.z(), q.w())});
            model.keyframes.push_back(rest_key(rest.scale));
            ranges_[bone] = aem::Sequence{{first, 1}, {first + 1, 1}, {first + 2, 1}};
        }
        return *ranges_[bone];
    }

  private:
    const Skeleton& skeleton_;
    std::vector<std::optional<aem::Sequence>> ranges_;
    std::vector<uint32_t> first_bone_;
};

// The name as C code sees it (up to the first NUL), which must fit the 128-byte field: the 2024
// layout refuses a longer one (names are never cut there), the 2025 one cuts it with a warning.
std::string animation_name(const assbin::Scene& scene, size_t a, const ConvertOptions& options,
                           Report& report) {
    std::string name = scene.animations[a].name;
    name.resize(std::min(name.size(), name.find('\0')));
    if (name.size() > aem::kMaxNameLength && options.layout == aem::Layout::Edition2025) {
        report.warn(animation_label(scene, a) + ": the name is " + std::to_string(name.size()) +
                    " bytes; it is cut to the 127 the 2025 layout's field holds");
        return cut_name(name);
    }
    if (name.size() > aem::kMaxNameLength) {
        throw ConvertError(Refusal::NameTooLong,
                           animation_label(scene, a) + ": the name is " + std::to_string(name.size()) +
                               " bytes; the AEM field holds 127 bytes and names are never cut");
    }
    return name;
}

} // namespace

namespace {

// Channel `c`'s three tracks as one sequence; a track without usable keys holds the rest pose.
// With --key-error, the budget's tracks; else every key.
aem::Sequence channel_sequence(const assbin::Scene& scene, const PreparedScene& prepared, size_t a, size_t c,
                               const std::optional<AnimationKeys>& budget, RestKeys& rest, size_t bone,
                               aem::Model& model, KeyTally& tally) {
    std::array<std::vector<TimedKey>, 3> every_key;
    if (budget)
        add_tally(tally, budget->of_channel[c].tally);
    else
        every_key = channel_keys(scene, prepared, a, c, tally);
    const std::array<std::vector<TimedKey>, 3>& tracks = budget ? budget->of_channel[c].tracks : every_key;
    const auto track = [&](KeyTrack which) -> std::optional<aem::KeyRange> {
        const std::vector<TimedKey>& timed = tracks[static_cast<size_t>(which)];
        if (timed.empty()) return std::nullopt;
        const aem::KeyRange range{static_cast<uint32_t>(model.keyframes.size()),
                                  static_cast<uint32_t>(timed.size())};
        for (const TimedKey& key : timed)
            model.keyframes.push_back({key.time, key.value});
        return range;
    };
    const std::optional<aem::KeyRange> position = track(KeyTrack::Translation);
    const std::optional<aem::KeyRange> rotation = track(KeyTrack::Rotation);
    const std::optional<aem::KeyRange> scale = track(KeyTrack::Scale);
    aem::Sequence rest_keys;
    if (!position || !rotation || !scale) rest_keys = rest.of(bone, model);
    return {position.value_or(rest_keys.position), rotation.value_or(rest_keys.rotation),
            scale.value_or(rest_keys.scale)};
}

void report_tally(const assbin::Scene& scene, size_t a, const KeyTally& tally, Report& report) {
    if (tally.dropped > 0) {
        report.warn(animation_label(scene, a) + ": " + std::to_string(tally.dropped) +
                    " keys with a non-finite time or value (or a zero quaternion) dropped");
    }
    if (tally.reordered > 0) {
        report.warn(animation_label(scene, a) + ": " + std::to_string(tally.reordered) +
                    " key tracks were out of time order and were sorted");
    }
    if (tally.equal_time_runs > 0) {
        report.warn(animation_label(scene, a) + ": " + std::to_string(tally.equal_time_runs) +
                    " times carry several keys of one track; as in the Assimp viewer, values approach the "
                    "first and hold the last from that time on (keys between them are never shown)");
    }
}

// Animation `a`: its record, then one sequence per bone in bone order.
void convert_animation(const assbin::Scene& scene, size_t a, const Skeleton& skeleton,
                       const PreparedScene& prepared, const ConvertOptions& options, RestKeys& rest,
                       aem::Model& model, Report& report, KeyTally& keys) {
    const assbin::Animation& source = scene.animations[a];
    const ChannelTargets& channels = prepared.channels;
    const double tps = prepared.ticks_per_second[a];
    if (source.ticks_per_second != 0 && tps != source.ticks_per_second) {
        report.warn(animation_label(scene, a) + " says " + std::to_string(source.ticks_per_second) +
                    " ticks per second; played at " + std::to_string(tps));
    }
    const float duration = seconds_from_ticks(source.duration, tps);
    model.animations.push_back({animation_name(scene, a, options, report),
                                std::isfinite(duration) ? duration : 0.0f,
                                static_cast<uint32_t>(model.sequences.size())});

    KeyTally tally;
    std::optional<AnimationKeys> budget;
    if (!prepared.key_tolerances.of_channel.empty()) {
        budget = budget_animation_keys(scene, prepared, a, {false, false});
        if (budget->unmeasured_poses > 0) report.warn(unmeasured_keys_warning(scene, a, *budget));
        keys.measured_error =
            std::max(keys.measured_error, budget->error / prepared.key_tolerances.model_size);
    }
    const size_t first_sequence = model.sequences.size(); // one per bone, in bone order
    for (size_t b = 0; b < skeleton.bones.size(); ++b) {
        const uint32_t node = skeleton.bone_node[b];
        if (const uint32_t twin = rest.first_bone_of_node(b); twin != b) { // split bones share their node's
            model.sequences.push_back(model.sequences[first_sequence + twin]);
            continue;
        }
        const auto found = channels.channel_of_node[a].find(node);
        const int32_t c = found == channels.channel_of_node[a].end() ? -1 : found->second;
        if (c < 0) {
            model.sequences.push_back(rest.of(b, model));
            continue;
        }
        model.sequences.push_back(
            channel_sequence(scene, prepared, a, static_cast<size_t>(c), budget, rest, b, model, tally));
    }
    report_tally(scene, a, tally, report);
    keys.kept += tally.kept;
    keys.removed += tally.removed;
}

} // namespace

KeyTally convert_animations(const assbin::Scene& scene, const Skeleton& skeleton,
                            const PreparedScene& prepared, const ConvertOptions& options, aem::Model& model,
                            Report& report) {
    RestKeys rest(skeleton);
    KeyTally keys;
    for (size_t a = 0; a < scene.animations.size(); ++a)
        convert_animation(scene, a, skeleton, prepared, options, rest, model, report, keys);
    return keys;
}

} // namespace detail

} // namespace assbin::converter
