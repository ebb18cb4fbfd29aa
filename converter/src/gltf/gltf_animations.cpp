// Dump animations as glTF animations: per channel that drives a node, one LINEAR sampler per key
// track it holds (translation, rotation, scale; ASSBIN stores no interpolation, so STEP never
// arises), from the keys every writer shares (key_tracks.cpp: seconds by the same ticks-per-second
// rules as AEM, sorted, strictly increasing, a run of keys at one time as the Assimp viewer shows
// it). glTF's times start at 0: keys before 0 give way to one key at 0 holding the value there.
// Keys between two equal neighbours are left out and tracks with the same times share their input:
// no pose changes.
// Cost: linear in the keys.
#include "gltf/gltf_convert.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace assbin::converter::gltf {

namespace {

struct Tally {
    detail::KeyTally keys;
    size_t negative = 0;
};

std::vector<int16_t> as_shorts(const std::vector<float>& values) {
    std::vector<int16_t> shorts(values.size());
    for (size_t i = 0; i + 4 <= values.size(); i += 4) {
        const std::array<int16_t, 4> q = detail::rotation_as_shorts(
            Eigen::Vector4f(values[i], values[i + 1], values[i + 2], values[i + 3]));
        std::copy(q.begin(), q.end(), shorts.begin() + static_cast<std::ptrdiff_t>(i));
    }
    return shorts;
}

Eigen::Vector4d mix(const Eigen::Vector4d& a, const Eigen::Vector4d& b, double t, bool rotation) {
    if (!rotation) return a + (b - a) * t;
    const Eigen::Quaterniond qa(a[3], a[0], a[1], a[2]), qb(b[3], b[0], b[1], b[2]);
    const Eigen::Quaterniond q = qa.slerp(t, qb);
    return {q.x(), q.y(), q.z(), q.w()};
}

// Times (seconds) and values as glTF wants them; empty when no key is usable.
void timeline(const std::vector<detail::TimedKey>& keys, bool rotation, std::vector<float>& times,
              std::vector<float>& values, Tally& tally) {
    std::vector<std::pair<float, Eigen::Vector4d>> out;
    out.reserve(keys.size());
    for (const detail::TimedKey& key : keys)
        out.emplace_back(key.time, key.value.cast<double>());
    // glTF times start at 0: the value at 0 replaces the keys before it.
    size_t first = 0;
    while (first < out.size() && out[first].first < 0)
        ++first;
    if (first > 0) {
        ++tally.negative;
        Eigen::Vector4d at_zero = out[first - 1].second;
        if (first < out.size() && out[first].first > 0) {
            const double t0 = out[first - 1].first, t1 = out[first].first;
            at_zero = mix(out[first - 1].second, out[first].second, (0 - t0) / (t1 - t0), rotation);
        }
        if (first < out.size() && out[first].first == 0) {
            out.erase(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(first));
        } else {
            out.erase(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(first - 1));
            out.front() = {0.0f, at_zero};
        }
    }
    for (const auto& [time, value] : out) {
        times.push_back(time);
        if (rotation) {
            const Eigen::Vector4f f = detail::unit_rotation(value);
            values.insert(values.end(), f.data(), f.data() + 4);
        } else {
            for (int c = 0; c < 3; ++c)
                values.push_back(static_cast<float>(value[c]));
        }
    }
}

// Keys that change nothing: one whose value equals both neighbours' (LINEAR interpolation between
// equal values is that value, so the pose is the same at every time), kept at the ends. Linear in
// the keys.
void drop_flat_keys(std::vector<float>& times, std::vector<float>& values, size_t width) {
    const auto same = [&](size_t a, size_t b) {
        return std::equal(values.begin() + static_cast<std::ptrdiff_t>(a * width),
                          values.begin() + static_cast<std::ptrdiff_t>((a + 1) * width),
                          values.begin() + static_cast<std::ptrdiff_t>(b * width));
    };
    size_t kept = 0;
    for (size_t k = 0; k < times.size(); ++k) {
        const bool flat = k > 0 && k + 1 < times.size() && same(kept - 1, k) && same(k, k + 1);
        if (flat) continue;
        times[kept] = times[k];
        std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(k * width), width,
                    values.begin() + static_cast<std::ptrdiff_t>(kept * width));
        ++kept;
    }
    times.resize(kept);
    values.resize(kept * width);
}

} // namespace

void write_animations(Build& build) {
    Tally tally;
    std::map<std::vector<float>, uint32_t> inputs; // key times -> their accessor
    size_t empty = 0, behaviours = 0;
    for (size_t a = 0; a < build.scene.animations.size(); ++a) {
        const assbin::Animation& animation = build.scene.animations[a];
        std::string samplers, channels;
        size_t sampler_count = 0;
        // The nodes in order, so that the file is the same from run to run.
        std::vector<std::pair<uint32_t, int32_t>> driven(build.channels.channel_of_node[a].begin(),
                                                         build.channels.channel_of_node[a].end());
        std::sort(driven.begin(), driven.end());
        std::optional<detail::AnimationKeys> budget;
        if (!build.prepared.key_tolerances.of_channel.empty()) {
            budget = detail::budget_animation_keys(build.scene, build.prepared, a, {true, true});
            if (budget->unmeasured_poses > 0)
                build.report.warn(detail::unmeasured_keys_warning(build.scene, a, *budget));
            tally.keys.measured_error =
                std::max(tally.keys.measured_error, budget->error / build.prepared.key_tolerances.model_size);
        }
        for (const auto& entry : driven) {
            const uint32_t node = entry.first; // named, not bound: lambdas below capture it
            const int32_t c = entry.second;
            const assbin::NodeChannel& channel = animation.channels[static_cast<size_t>(c)];
            behaviours += (channel.pre_state == 2 || channel.pre_state == 3 || channel.post_state == 2 ||
                           channel.post_state == 3);
            // With --key-error, the budget's tracks (rotations as 16-bit components where it says so);
            // else every key.
            std::array<std::vector<detail::TimedKey>, 3> every_key;
            bool shorts = false;
            if (budget) {
                const detail::ChannelKeys& keys = budget->of_channel[static_cast<size_t>(c)];
                detail::add_tally(tally.keys, keys.tally);
                shorts = keys.short_rotation;
            } else {
                every_key =
                    detail::channel_keys(build.scene, build.prepared, a, static_cast<size_t>(c), tally.keys);
            }
            const std::array<std::vector<detail::TimedKey>, 3>& tracks =
                budget ? budget->of_channel[static_cast<size_t>(c)].tracks : every_key;
            const auto add = [&](detail::KeyTrack track, const char* path, bool rotation) {
                const std::vector<detail::TimedKey>& timed = tracks[static_cast<size_t>(track)];
                std::vector<float> times, values;
                timeline(timed, rotation, times, values, tally);
                if (times.empty()) return;
                drop_flat_keys(times, values, rotation ? 4 : 3);
                // Tracks keyed at the same times (translation, rotation and scale of one channel,
                // often every channel of an animation) share one input accessor.
                auto [shared, fresh] = inputs.emplace(times, 0);
                if (fresh)
                    shared->second = build.doc.add_accessor(std::span<const float>(times), kFloat, "SCALAR",
                                                            1, kNoTarget, true);
                const uint32_t input = shared->second;
                const uint32_t output =
                    rotation && shorts
                        ? build.doc.add_accessor(std::span<const int16_t>(as_shorts(values)), kShort, "VEC4",
                                                 4, kNoTarget, false, true)
                        : build.doc.add_accessor(std::span<const float>(values), kFloat,
                                                 rotation ? "VEC4" : "VEC3", rotation ? 4 : 3, kNoTarget);
                samplers += std::string(sampler_count ? "," : "") + "{\"input\":" + std::to_string(input) +
                            ",\"output\":" + std::to_string(output) + "}";
                channels += std::string(sampler_count ? "," : "") +
                            "{\"sampler\":" + std::to_string(sampler_count) +
                            ",\"target\":{\"node\":" + std::to_string(build.node_of[node]) + ",\"path\":\"" +
                            path + "\"}}";
                ++sampler_count;
            };
            add(detail::KeyTrack::Translation, "translation", false);
            add(detail::KeyTrack::Rotation, "rotation", true);
            add(detail::KeyTrack::Scale, "scale", false);
        }
        if (sampler_count == 0) {
            ++empty;
            continue;
        }
        std::string object = "\"channels\":[" + channels + "],\"samplers\":[" + samplers + "]";
        if (!animation.name.empty()) object = "\"name\":" + json_string(animation.name) + "," + object;
        build.doc.add(build.doc.animations, object);
        build.animation_sources.push_back(static_cast<uint32_t>(a));
    }
    const auto say = [&](size_t count, const std::string& text) {
        if (count > 0) build.report.warn(text);
    };
    build.stats.keys = tally.keys.kept;
    build.stats.keys_removed = tally.keys.removed;
    build.stats.key_error_measured = tally.keys.measured_error;
    say(empty, detail::count_of(empty, "animation drives", "animations drive") +
                   " no node with a usable key and is left out (a glTF animation needs a channel)");
    say(tally.keys.dropped, detail::count_of(tally.keys.dropped, "key", "keys") +
                                " with a time or value not finite (or a zero quaternion) dropped");
    say(tally.keys.reordered,
        detail::count_of(tally.keys.reordered, "key track", "key tracks") + " out of time order sorted");
    say(tally.negative,
        detail::count_of(tally.negative, "key track starts", "key tracks start") +
            " before 0 s: its keys before 0 are replaced by its value at 0 (glTF times start at 0)");
    say(behaviours,
        detail::count_of(behaviours, "channel repeats or extrapolates", "channels repeat or extrapolate") +
            " before or after its keys (pre/post state), which glTF cannot say: it holds the end keys");
}

} // namespace assbin::converter::gltf
