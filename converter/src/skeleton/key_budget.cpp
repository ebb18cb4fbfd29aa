// The key budget of one animation for one writer (--key-error): its channels' tracks reduced with
// key_tolerances' shares scaled up as far as the error measured on the written tracks allows
// (key_error_measure.cpp), and for glTF its rotations as 16-bit components where that error allows.
// The shares hold by analysis at scale 1; the measure is what decides, so that a scale is taken
// only when the measured error is within the bound (a scale below 1, or every key kept, if ever the
// measure finds the analysis's tracks over it). Each try reduces every track and plays the
// animation once: a search of a few tries, each linear in the keys (key_error_measure.cpp).
#include "pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace assbin::converter::detail {

namespace {

// A rotation written as normalized 16-bit components: each component is off by at most half a step
// (0.5 / 32767), so the quaternion by at most 1 / 32767 and the rotation by twice the angle that
// makes, 6.1e-5 radians; kept with a margin. Where a track's tolerance is at least twice this, the
// rest of it is left to the reduction.
constexpr double kShortRotationError = 7e-5;

// Tries after the first: enough to find a scale within a fifth of the largest the measure allows.
constexpr int kScaleTries = 6;
constexpr double kLargestScale = 4096;
constexpr double kFloatPlayerShare = 0.1;
// The most node poses a measure may play: twice the animation's keys, and any animation this small.
constexpr size_t kPosesPerKey = 2;
constexpr size_t kPosesAlways = 1 << 16;

// The bytes a writer spends on the keys (a time per key, as AEM stores it; for glTF an estimate
// that ranks one try against another).
size_t key_bytes(const AnimationKeys& keys) {
    size_t bytes = 0;
    for (const ChannelKeys& channel : keys.of_channel)
        bytes += channel.tracks[0].size() * 16 +
                 channel.tracks[1].size() * (channel.short_rotation ? 12 : 20) +
                 channel.tracks[2].size() * 16;
    return bytes;
}

} // namespace

Eigen::Vector4f unit_rotation(const Eigen::Vector4d& q) {
    const double length = q.norm();
    const Eigen::Vector4d unit =
        std::isfinite(length) && length > 0 ? Eigen::Vector4d(q / length) : Eigen::Vector4d(0, 0, 0, 1);
    return unit.cast<float>().normalized();
}

std::array<int16_t, 4> rotation_as_shorts(const Eigen::Vector4f& q) {
    std::array<int16_t, 4> shorts{};
    for (int c = 0; c < 4; ++c)
        shorts[static_cast<size_t>(c)] =
            static_cast<int16_t>(std::lround(std::clamp(q[c], -1.0f, 1.0f) * 32767.0f));
    return shorts;
}

Eigen::Vector4f rotation_from_shorts(const std::array<int16_t, 4>& shorts) {
    Eigen::Vector4f q;
    for (int c = 0; c < 4; ++c)
        q[c] = std::max(float(shorts[static_cast<size_t>(c)]) / 32767.0f, -1.0f);
    return q;
}

AnimationKeys budget_animation_keys(const assbin::Scene& scene, const PreparedScene& prepared,
                                    size_t animation, const KeyWriting& writing) {
    const KeyTolerances& tolerances = prepared.key_tolerances;
    const size_t channel_count = scene.animations[animation].channels.size();
    std::set<size_t> used; // the channels that drive a node
    for (const auto& [node, c] : prepared.channels.channel_of_node[animation])
        used.insert(static_cast<size_t>(c));
    std::vector<std::array<std::vector<TimedKey>, 3>> full(channel_count);
    for (const size_t c : used) {
        KeyTally ignored; // counted by the writer's tries
        for (size_t t = 0; t < 3; ++t)
            full[c][t] = track_keys(scene, prepared, animation, c, static_cast<KeyTrack>(t), ignored);
    }
    // The measure plays in double precision; a player in float (AEM's runtime, most engines) rounds
    // each slerp and product, which along a deep chain adds up: 11% of the error measured on a chain of
    // 64 animated nodes in the corpus. So a tenth of the bound is left to it.
    const double bound = tolerances.key_error * tolerances.model_size * (1.0 - kFloatPlayerShare);

    // Playing costs the animation's distinct key times x its driven nodes, which is about its keys
    // when its tracks share their times (as sampled and captured animation does). Tracks keyed at
    // scattered times would make it quadratic: those animations keep the shares that hold by
    // analysis, unmeasured, and say so.
    size_t key_count = 0;
    std::vector<float> times;
    for (const size_t c : used)
        for (const std::vector<TimedKey>& track : full[c]) {
            key_count += track.size();
            for (const TimedKey& key : track)
                times.push_back(key.time);
        }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    const size_t poses = times.size() * prepared.channels.channel_of_node[animation].size();
    if (poses > kPosesPerKey * key_count + kPosesAlways) {
        AnimationKeys out;
        out.of_channel.resize(channel_count);
        for (const size_t c : used)
            out.of_channel[c].tracks = channel_keys(
                scene, prepared, animation, c, out.of_channel[c].tally, {0, 0, 0},
                writing.shares_times ? std::array<size_t, 3>{12, 16, 12} : std::array<size_t, 3>{0, 0, 0});
        out.error = tolerances.key_error * tolerances.model_size;
        out.unmeasured_poses = poses;
        out.distinct_times = times.size();
        return out;
    }

    const std::shared_ptr<const KeyErrorPlay> play =
        prepared.key_probe ? make_key_error_play(*prepared.key_probe, scene, prepared, animation) : nullptr;
    const auto attempt = [&](double scale, bool shorts_everywhere) {
        AnimationKeys out;
        out.scale = scale;
        out.of_channel.resize(channel_count);
        std::vector<std::array<std::vector<TimedKey>, 3>> written(channel_count);
        for (const size_t c : used) {
            ChannelKeys& keys = out.of_channel[c];
            const double rotation_tolerance =
                track_tolerance(prepared, animation, c, KeyTrack::Rotation) * scale;
            keys.short_rotation = writing.short_rotations && scale > 0 &&
                                  (shorts_everywhere || rotation_tolerance >= 2 * kShortRotationError);
            const size_t rotation_bytes = keys.short_rotation ? 8 : 16;
            keys.tracks = channel_keys(scene, prepared, animation, c, keys.tally,
                                       {0.0, keys.short_rotation ? kShortRotationError : 0.0, 0.0},
                                       writing.shares_times ? std::array<size_t, 3>{12, rotation_bytes, 12}
                                                            : std::array<size_t, 3>{0, 0, 0},
                                       scale);
            written[c] = keys.tracks;
            if (keys.short_rotation)
                for (TimedKey& key : written[c][1])
                    key.value =
                        rotation_from_shorts(rotation_as_shorts(unit_rotation(key.value.cast<double>())));
        }
        out.error = play ? measure_key_error(*prepared.key_probe, *play, full, written, times)
                         : std::numeric_limits<double>::infinity();
        return out;
    };
    const auto within = [&](const AnimationKeys& keys) { return keys.error <= bound; };

    // Scale 1, with every rotation as 16-bit where the writer can (else where the shares leave room).
    bool shorts = writing.short_rotations;
    AnimationKeys best = attempt(1.0, shorts);
    if (shorts && !within(best)) {
        shorts = false;
        best = attempt(1.0, false);
    }
    if (!within(best)) {
        for (const double scale : {0.5, 0.25, 0.0}) {
            best = attempt(scale, false);
            if (within(best) || scale == 0) return best;
        }
    }
    // Then up, guessing from how far under the bound the last fitting try was, and halving the gap
    // once a try goes over.
    double low = 1.0, high = std::numeric_limits<double>::infinity();
    double ratio = bound > 0 ? best.error / bound : 0.0;
    for (int attempt_count = 0; attempt_count < kScaleTries && low < kLargestScale; ++attempt_count) {
        if (high / low < 1.2) break;
        const double scale =
            std::min(std::isinf(high) ? low * std::clamp(0.9 / std::max(ratio, 1e-9), 1.5, 16.0)
                                      : std::sqrt(low * high),
                     kLargestScale);
        AnimationKeys tried = attempt(scale, shorts);
        if (!within(tried)) {
            high = scale;
            continue;
        }
        low = scale;
        ratio = bound > 0 ? tried.error / bound : 0.0;
        if (key_bytes(tried) <= key_bytes(best)) best = std::move(tried);
    }
    return best;
}

std::string unmeasured_keys_warning(const assbin::Scene& scene, size_t animation, const AnimationKeys& keys) {
    if (keys.unmeasured_poses == 0) return {};
    return animation_label(scene, animation) + ": its keys fall at " +
           assbin_common::with_thousands(keys.distinct_times) +
           " different times, too many to measure the key error on (" +
           assbin_common::with_thousands(keys.unmeasured_poses) +
           " node poses); its keys are removed within the shares of --key-error that hold by analysis, "
           "and the error reported is that bound";
}

} // namespace assbin::converter::detail
