// Error-bounded key reduction (issue 66's first part): keys are removed from a track while every
// removed key's value stays within a tolerance of what the kept keys interpolate at its time, with
// the interpolation glTF and AEM play (lerp for translation and scale, shortest-path slerp for
// rotation). The error is exact at every source key time, the times the pose tests compare at.
// Greedy from the first key: a span between two kept keys grows while every key inside it stays
// within the tolerance, up to kMaxSpan source keys (so each key is checked at most kMaxSpan times:
// linear in the keys whatever the track, a million-key line included).
#include "pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <span>

namespace assbin::converter::detail {

namespace {

// A span covers at most this many source keys: the bound on the work per key (each extension
// re-checks the keys inside) and on how few keys a long straight run keeps (1 in 32).
constexpr size_t kMaxSpan = 32;

Eigen::Vector4d value_of(const TimedKey& key) {
    return key.value.cast<double>();
}

// How far `value` is from what keys a and b interpolate at `time`: a distance, or for rotations
// the angle (radians) between the two unit quaternions.
double deviation(const TimedKey& a, const TimedKey& b, float time, const Eigen::Vector4d& value,
                 bool rotation) {
    const double span = double(b.time) - double(a.time);
    const double u = span > 0 ? (double(time) - double(a.time)) / span : 0.0;
    if (!rotation) return (value_of(a) + (value_of(b) - value_of(a)) * u - value).head<3>().norm();
    const Eigen::Vector4d va = value_of(a), vb = value_of(b);
    const Eigen::Quaterniond qa(va[3], va[0], va[1], va[2]), qb(vb[3], vb[0], vb[1], vb[2]);
    const Eigen::Quaterniond q = qa.slerp(u, qb); // Eigen's slerp takes the shortest path, as glTF and AEM do
    const Eigen::Quaterniond source(value[3], value[0], value[1], value[2]);
    const double cosine = std::min(1.0, std::abs(q.normalized().dot(source.normalized())));
    return 2.0 * std::acos(cosine);
}

double distance(const TimedKey& a, const TimedKey& b, bool rotation) {
    if (!rotation) return (value_of(a) - value_of(b)).head<3>().norm();
    const double cosine = std::min(1.0, std::abs(value_of(a).normalized().dot(value_of(b).normalized())));
    return 2.0 * std::acos(cosine);
}

} // namespace

size_t reduce_keys_together(std::span<std::vector<TimedKey>* const> tracks,
                            std::span<const double> tolerances, std::span<const bool> rotations) {
    if (tracks.empty() || tracks[0]->empty()) return 0;
    const size_t count = tracks[0]->size();
    const auto within = [&](size_t t, double error) { return error <= std::max(tolerances[t], 0.0); };
    // Tracks that each hold one value (within their tolerance of their first key) are that key alone.
    bool constant = true;
    for (size_t t = 0; constant && t < tracks.size(); ++t) {
        const std::vector<TimedKey>& keys = *tracks[t];
        constant = std::all_of(keys.begin(), keys.end(), [&](const TimedKey& key) {
            return within(t, distance(key, keys.front(), rotations[t]));
        });
    }
    std::vector<size_t> kept{0};
    if (!constant) {
        size_t start = 0; // the last kept key
        size_t end = 2;   // the span (start, end) is tried with the keys between them removed
        while (end < count) {
            bool fits = end - start <= kMaxSpan;
            for (size_t t = 0; fits && t < tracks.size(); ++t) {
                const std::vector<TimedKey>& keys = *tracks[t];
                for (size_t k = start + 1; fits && k < end; ++k)
                    fits = within(
                        t, deviation(keys[start], keys[end], keys[k].time, value_of(keys[k]), rotations[t]));
            }
            if (fits) {
                ++end;
                continue;
            }
            kept.push_back(end - 1); // the longest span that fitted ends here
            start = end - 1;
            end = start + 2;
        }
        if (count > 1) kept.push_back(count - 1);
    }
    size_t removed = 0;
    for (std::vector<TimedKey>* track : tracks) {
        std::vector<TimedKey> out;
        out.reserve(kept.size());
        for (const size_t k : kept)
            out.push_back((*track)[k]);
        removed += track->size() - out.size();
        *track = std::move(out);
    }
    return removed;
}

size_t reduce_keys(std::vector<TimedKey>& keys, double tolerance, bool rotation) {
    if (!(tolerance >= 0)) return 0;
    std::vector<TimedKey>* const tracks[] = {&keys};
    const double tolerances[] = {tolerance};
    const bool rotations[] = {rotation};
    return reduce_keys_together(tracks, tolerances, rotations);
}

} // namespace assbin::converter::detail
