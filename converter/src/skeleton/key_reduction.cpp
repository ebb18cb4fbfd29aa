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

namespace assbin::converter::detail {

namespace {

// A span covers at most this many source keys: the bound on the work per key (each extension
// re-checks the keys inside) and on how few keys a long straight run keeps (1 in 32).
constexpr size_t kMaxSpan = 32;

Eigen::Vector4d value_of(const TimedKey& key) { return key.value.cast<double>(); }

// How far `value` is from what keys a and b interpolate at `time`: a distance, or for rotations
// the angle (radians) between the two unit quaternions.
double deviation(const TimedKey& a, const TimedKey& b, float time, const Eigen::Vector4d& value, bool rotation) {
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

size_t reduce_keys(std::vector<TimedKey>& keys, double tolerance, bool rotation) {
    const size_t before = keys.size();
    if (keys.empty() || !(tolerance >= 0)) return 0;
    // A track that holds one value (within the tolerance of its first key) is that key alone.
    if (std::all_of(keys.begin(), keys.end(),
                    [&](const TimedKey& key) { return distance(key, keys.front(), rotation) <= tolerance; })) {
        keys.resize(1);
        return before - 1;
    }
    std::vector<TimedKey> kept{keys.front()};
    size_t start = 0; // the last kept key
    size_t end = 2;   // the span (start, end) is tried with the keys between them removed
    while (end < keys.size()) {
        bool fits = end - start <= kMaxSpan;
        for (size_t k = start + 1; fits && k < end; ++k)
            fits = deviation(keys[start], keys[end], keys[k].time, value_of(keys[k]), rotation) <= tolerance;
        if (fits) {
            ++end;
            continue;
        }
        kept.push_back(keys[end - 1]); // the longest span that fitted ends here
        start = end - 1;
        end = start + 2;
    }
    kept.push_back(keys.back());
    keys = std::move(kept);
    return before - keys.size();
}

} // namespace assbin::converter::detail
