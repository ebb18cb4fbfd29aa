// Error-bounded key reduction (converter/src/skeleton/key_reduction.cpp): after reduce_keys, what the
// kept keys interpolate (lerp; shortest-path slerp, as glTF and AEM play them) is within the
// tolerance of every source key at its time; a track holding one value becomes one key; straight
// runs and steady turns lose almost every key; a million-key track is reduced in one pass.
#include "pipeline.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <functional>
#include <random>
#include <vector>

namespace {

using assbin::converter::detail::reduce_keys;
using assbin::converter::detail::TimedKey;

Eigen::Quaterniond quaternion_of(const Eigen::Vector4f& v) {
    return Eigen::Quaterniond(v[3], v[0], v[1], v[2]).normalized();
}

// The largest deviation, over the source keys, of what `kept` interpolates at their times.
double largest_error(const std::vector<TimedKey>& source, const std::vector<TimedKey>& kept, bool rotation) {
    double largest = 0;
    size_t segment = 0;
    for (const TimedKey& key : source) {
        while (segment + 1 < kept.size() && kept[segment + 1].time <= key.time)
            ++segment;
        double error = 0;
        if (kept.size() == 1 || segment + 1 == kept.size()) {
            const TimedKey& held = kept[segment];
            error = rotation ? 2 * std::acos(std::min(1.0, std::abs(quaternion_of(held.value).dot(quaternion_of(key.value)))))
                             : (held.value - key.value).head<3>().cast<double>().norm();
        } else {
            const TimedKey &a = kept[segment], &b = kept[segment + 1];
            const double u = (double(key.time) - a.time) / (double(b.time) - a.time);
            if (rotation) {
                const Eigen::Quaterniond q = quaternion_of(a.value).slerp(u, quaternion_of(b.value));
                error = 2 * std::acos(std::min(1.0, std::abs(q.dot(quaternion_of(key.value)))));
            } else {
                const Eigen::Vector3d at =
                    a.value.head<3>().cast<double>() + (b.value - a.value).head<3>().cast<double>() * u;
                error = (at - key.value.head<3>().cast<double>()).norm();
            }
        }
        largest = std::max(largest, error);
    }
    return largest;
}

std::vector<TimedKey> track(size_t count, double rate, const std::function<Eigen::Vector4f(double)>& at) {
    std::vector<TimedKey> keys(count);
    for (size_t k = 0; k < count; ++k)
        keys[k] = {static_cast<float>(double(k) / rate), at(double(k) / rate)};
    return keys;
}

Eigen::Vector4f rotation_about(const Eigen::Vector3d& axis, double angle) {
    const Eigen::Quaterniond q(Eigen::AngleAxisd(angle, axis.normalized()));
    return Eigen::Vector4f(float(q.x()), float(q.y()), float(q.z()), float(q.w()));
}

} // namespace

BOOST_AUTO_TEST_SUITE(key_reduction)

BOOST_AUTO_TEST_CASE(a_track_of_one_value_becomes_one_key_even_a_million_long) {
    std::vector<TimedKey> keys = track(1'000'000, 100, [](double) { return Eigen::Vector4f(1, 2, 3, 0); });
    BOOST_TEST(reduce_keys(keys, 1e-6, false) == 999'999u);
    BOOST_TEST(keys.size() == 1u);
    BOOST_TEST(keys[0].time == 0.0f);
    std::vector<TimedKey> turned = track(1000, 30, [](double) { return rotation_about({0, 1, 0}, 0.5); });
    BOOST_TEST(reduce_keys(turned, 1e-6, true) == 999u);
}

BOOST_AUTO_TEST_CASE(a_straight_run_and_a_steady_turn_keep_one_key_in_32) {
    const std::vector<TimedKey> line =
        track(1'000'000, 100, [](double t) { return Eigen::Vector4f(float(2 * t), float(-t), 0.5f, 0); });
    std::vector<TimedKey> kept = line;
    reduce_keys(kept, 1e-4, false);
    BOOST_TEST(kept.size() <= 1'000'000u / 31 + 2);
    BOOST_TEST(largest_error(line, kept, false) <= 1e-4);
    BOOST_TEST(kept.front().time == line.front().time);
    BOOST_TEST(kept.back().time == line.back().time);
    const std::vector<TimedKey> turn = track(3000, 100, [](double t) { return rotation_about({1, 1, 0}, 0.7 * t); });
    std::vector<TimedKey> turned = turn;
    reduce_keys(turned, 1e-4, true);
    BOOST_TEST(turned.size() <= 3000u / 31 + 2);
    BOOST_TEST(largest_error(turn, turned, true) <= 1e-4);
}

// Motion capture's kind of track: smooth motion with noise. The bound holds at every source key for
// every tolerance, and a looser one keeps fewer keys.
BOOST_AUTO_TEST_CASE(every_source_key_stays_within_the_tolerance) {
    std::mt19937 random(66);
    std::normal_distribution<double> noise(0, 1e-4);
    const std::vector<TimedKey> moves = track(3000, 100, [&](double t) {
        return Eigen::Vector4f(float(std::sin(t) + noise(random)), float(std::cos(2 * t) + noise(random)),
                               float(0.1 * t + noise(random)), 0);
    });
    const std::vector<TimedKey> turns = track(3000, 100, [&](double t) {
        return rotation_about({std::sin(t), 1, std::cos(t)}, std::sin(0.5 * t) + noise(random));
    });
    size_t previous_moves = moves.size() + 1, previous_turns = turns.size() + 1;
    for (const double tolerance : {1e-5, 1e-4, 1e-3, 1e-2}) {
        std::vector<TimedKey> kept_moves = moves, kept_turns = turns;
        reduce_keys(kept_moves, tolerance, false);
        reduce_keys(kept_turns, tolerance, true);
        BOOST_TEST(largest_error(moves, kept_moves, false) <= tolerance, tolerance);
        BOOST_TEST(largest_error(turns, kept_turns, true) <= tolerance, tolerance);
        BOOST_TEST(kept_moves.size() <= previous_moves, tolerance);
        BOOST_TEST(kept_turns.size() <= previous_turns, tolerance);
        previous_moves = kept_moves.size();
        previous_turns = kept_turns.size();
        BOOST_TEST_MESSAGE("tolerance " << tolerance << ": " << kept_moves.size() << " of 3000 translation keys, "
                                        << kept_turns.size() << " of 3000 rotation keys");
    }
    BOOST_TEST(previous_moves < 300u); // at 1e-2 a smooth track needs few keys
}

// A quaternion track may flip sign between keys (q and -q are one rotation): the shortest path is
// what plays, and what is measured.
BOOST_AUTO_TEST_CASE(sign_flips_are_the_same_rotation) {
    std::vector<TimedKey> flips = track(200, 30, [](double t) {
        const Eigen::Vector4f q = rotation_about({0, 0, 1}, 0.3 * t);
        return int(t * 30) % 2 ? Eigen::Vector4f(-q) : q;
    });
    const std::vector<TimedKey> source = flips;
    reduce_keys(flips, 1e-4, true);
    BOOST_TEST(flips.size() < 20u);
    BOOST_TEST(largest_error(source, flips, true) <= 1e-4);
}

BOOST_AUTO_TEST_SUITE_END()
