// Rule 5's keys, for every writer: each channel that drives a node gets its three tracks in seconds
// (the animation's ticks per second, or the option's where it says 0), sorted where out of order,
// keys with a non-finite time or value and zero quaternions dropped, rotations made unit. Several
// keys at one time follow the Assimp viewer's evaluator (AnimEvaluator: the segment search stops at
// the first key later than the time asked): approaching the time, values head for the run's first
// key; at the time and after, the run's last key holds; keys between them are never seen. AEM and
// glTF both need strictly increasing times, so the first key is written one float step before the
// time and the last at the time (docs/FORMAT-NOTES.md, "Keys at equal times").
// Made track by track as a writer lays them out (never all at once). Cost: one pass per track, a sort
// (k log k) only where a track is out of order.
#include "pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace assbin::converter::detail {

namespace {

struct TimedValue {
    double ticks = 0;
    Eigen::Vector4f value = Eigen::Vector4f::Zero();
};

std::vector<TimedKey> timeline(std::vector<TimedValue>& keys, double ticks_per_second, KeyTally& tally) {
    const auto earlier = [](const TimedValue& a, const TimedValue& b) { return a.ticks < b.ticks; };
    if (!std::is_sorted(keys.begin(), keys.end(), earlier)) {
        std::stable_sort(keys.begin(), keys.end(), earlier);
        ++tally.reordered;
    }
    std::vector<TimedKey> out;
    out.reserve(keys.size());
    for (size_t k = 0; k < keys.size();) {
        const float time = seconds_from_ticks(keys[k].ticks, ticks_per_second);
        size_t end = k + 1; // the run of keys at this time (in seconds)
        while (end < keys.size() && seconds_from_ticks(keys[end].ticks, ticks_per_second) == time)
            ++end;
        if (!std::isfinite(time)) {
            tally.dropped += end - k;
        } else {
            const float before = std::nextafter(time, -std::numeric_limits<float>::infinity());
            const bool room = out.empty() || out.back().time < before;
            if (end - k > 1) {
                ++tally.equal_time_runs;
                if (room) out.push_back({before, keys[k].value});
            }
            out.push_back({time, keys[end - 1].value});
        }
        k = end;
    }
    return out;
}

std::vector<TimedValue> vector_keys(const assbin::KeyTrack<assbin::Vec3>& track, KeyTally& tally) {
    std::vector<TimedValue> keys;
    keys.reserve(track.keys.size());
    for (const assbin::VectorKey& key : track.keys) {
        if (!std::isfinite(key.time) || !key.value.allFinite()) {
            ++tally.dropped;
            continue;
        }
        keys.push_back({key.time, Eigen::Vector4f(key.value.x(), key.value.y(), key.value.z(), 0.0f)});
    }
    return keys;
}

std::vector<TimedValue> rotation_keys(const assbin::KeyTrack<assbin::Quaternion>& track, KeyTally& tally) {
    std::vector<TimedValue> keys;
    keys.reserve(track.keys.size());
    for (const assbin::QuaternionKey& key : track.keys) {
        // assbin::Quaternion is Eigen's: x(), y(), z(), w() by meaning, whatever the file order was.
        const Eigen::Vector4d q(key.value.x(), key.value.y(), key.value.z(), key.value.w());
        const double length = q.norm();
        if (!std::isfinite(key.time) || !std::isfinite(length) || length < 1e-12) {
            ++tally.dropped;
            continue;
        }
        keys.push_back({key.time, (q / length).cast<float>()});
    }
    return keys;
}

} // namespace

std::string animation_label(const assbin::Scene& scene, size_t animation) {
    return "animation " + std::to_string(animation) + " " + quote_name(scene.animations[animation].name);
}

std::vector<TimedKey> track_keys(const assbin::Scene& scene, const PreparedScene& prepared, size_t animation,
                                 size_t channel, KeyTrack track, KeyTally& tally) {
    const assbin::NodeChannel& source = scene.animations[animation].channels[channel];
    std::vector<TimedValue> keys = track == KeyTrack::Rotation      ? rotation_keys(source.rotations, tally)
                                   : track == KeyTrack::Translation ? vector_keys(source.positions, tally)
                                                                    : vector_keys(source.scalings, tally);
    std::vector<TimedKey> timed = timeline(keys, prepared.ticks_per_second[animation], tally);
    // --key-error: the keys this track's share of the budget lets go.
    const KeyTolerances& tolerances = prepared.key_tolerances;
    if (!tolerances.of_channel.empty() && !timed.empty()) {
        const double tolerance = tolerances.of_channel[animation][channel][static_cast<size_t>(track)];
        if (tolerance > 0) tally.removed += reduce_keys(timed, tolerance, track == KeyTrack::Rotation);
    }
    tally.kept += timed.size();
    return timed;
}

} // namespace assbin::converter::detail
