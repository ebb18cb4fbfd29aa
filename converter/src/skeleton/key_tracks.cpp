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

double track_tolerance(const PreparedScene& prepared, size_t animation, size_t channel, KeyTrack track) {
    const KeyTolerances& tolerances = prepared.key_tolerances;
    return tolerances.of_channel.empty()
               ? 0.0
               : tolerances.of_channel[animation][channel][static_cast<size_t>(track)];
}

std::vector<TimedKey> track_keys(const assbin::Scene& scene, const PreparedScene& prepared, size_t animation,
                                 size_t channel, KeyTrack track, KeyTally& tally) {
    const assbin::NodeChannel& source = scene.animations[animation].channels[channel];
    std::vector<TimedValue> keys = track == KeyTrack::Rotation      ? rotation_keys(source.rotations, tally)
                                   : track == KeyTrack::Translation ? vector_keys(source.positions, tally)
                                                                    : vector_keys(source.scalings, tally);
    return timeline(keys, prepared.ticks_per_second[animation], tally);
}

std::array<std::vector<TimedKey>, 3> channel_keys(const assbin::Scene& scene, const PreparedScene& prepared,
                                                  size_t animation, size_t channel, KeyTally& tally,
                                                  const std::array<double, 3>& reserve,
                                                  const std::array<size_t, 3>& value_bytes, double scale) {
    std::array<std::vector<TimedKey>, 3> tracks;
    std::array<double, 3> tolerance{};
    std::array<bool, 3> rotation{false, true, false};
    bool reduce = false;
    size_t made = 0;
    for (size_t t = 0; t < 3; ++t) {
        const KeyTrack track = static_cast<KeyTrack>(t);
        tracks[t] = track_keys(scene, prepared, animation, channel, track, tally);
        made += tracks[t].size();
        double given = track_tolerance(prepared, animation, channel, track) * scale;
        if (rotation[t]) given = std::min(given, kLargestRotationTolerance);
        tolerance[t] = given > 0 ? std::max(given - reserve[t], 0.0) : 0.0;
        reduce = reduce || tolerance[t] > 0;
    }
    if (reduce) {
        // Together: the tracks with keys, when they share every time and the writer shares a time
        // array between such tracks (a key goes only when each of them lets it go).
        std::vector<size_t> keyed;
        for (size_t t = 0; t < 3; ++t)
            if (!tracks[t].empty()) keyed.push_back(t);
        const auto same_times = [](const std::vector<TimedKey>& a, const std::vector<TimedKey>& b) {
            return a.size() == b.size() &&
                   std::equal(a.begin(), a.end(), b.begin(),
                              [](const TimedKey& x, const TimedKey& y) { return x.time == y.time; });
        };
        const bool try_together = keyed.size() > 1 && value_bytes != std::array<size_t, 3>{0, 0, 0} &&
                                  std::all_of(keyed.begin(), keyed.end(), [&](size_t t) {
                                      return same_times(tracks[t], tracks[keyed[0]]);
                                  });
        std::array<std::vector<TimedKey>, 3> together;
        const std::array<std::vector<TimedKey>, 3> unreduced =
            value_bytes != std::array<size_t, 3>{0, 0, 0} ? tracks : std::array<std::vector<TimedKey>, 3>{};
        if (try_together) {
            together = tracks;
            std::vector<std::vector<TimedKey>*> joint;
            std::vector<double> tolerances;
            bool kinds[3] = {false, false, false};
            for (const size_t t : keyed) {
                kinds[joint.size()] = rotation[t];
                joint.push_back(&together[t]);
                tolerances.push_back(tolerance[t]);
            }
            reduce_keys_together(joint, tolerances, std::span<const bool>(kinds, joint.size()));
        }
        // Each on its own.
        for (const size_t t : keyed)
            if (tolerance[t] > 0) reduce_keys(tracks[t], tolerance[t], rotation[t]);
        if (value_bytes != std::array<size_t, 3>{0, 0, 0}) {
            // Bytes written, counting a time array for each new set of times: one per track apart,
            // one for the three together, none for the keys as they were (whose times other channels
            // of the animation mostly share already: a reduction that removes little would cost more
            // than it saves).
            size_t apart = 0, joined = try_together ? together[keyed[0]].size() * 4 : 0, as_they_were = 0;
            for (const size_t t : keyed) {
                apart += tracks[t].size() * (4 + value_bytes[t]);
                joined += together[t].size() * value_bytes[t];
                as_they_were += unreduced[t].size() * value_bytes[t];
            }
            if (try_together && joined < apart && joined < as_they_were)
                tracks = std::move(together);
            else if (as_they_were <= apart)
                tracks = unreduced;
        }
    }
    size_t kept = 0;
    for (const std::vector<TimedKey>& keys : tracks)
        kept += keys.size();
    tally.kept += kept;
    tally.removed += made - kept;
    return tracks;
}

} // namespace assbin::converter::detail
