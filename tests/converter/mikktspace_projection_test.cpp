// MikkTSpace's projection of face directions onto a group's normal plane (project_onto_plane), which
// the converter computes four at a time: it must equal, bit for bit, the reference's scalar float
// arithmetic (mikktspace.c's EvalTspace: v - (n.v) n, normalised by 1 / sqrt(length squared) where
// some component passes FLT_MIN), whatever the lane a direction lands in, for ordinary directions,
// directions along the normal, zeros, values near FLT_MIN, subnormals and overflowing lengths.
#include "geometry/mikktspace.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Direction = std::array<float, 3>;
using assbin::converter::detail::project_onto_plane;

// The oracle: mikktspace.c's vdot, vscale, vsub, VNotZero and Normalize, operation for operation.
Direction reference_projection(const Direction& v, const Direction& n) {
    const float along = n[0] * v[0] + n[1] * v[1] + n[2] * v[2];
    const Direction w{v[0] - along * n[0], v[1] - along * n[1], v[2] - along * n[2]};
    const auto not_zero = [](float x) { return std::fabs(x) > FLT_MIN; };
    if (!(not_zero(w[0]) || not_zero(w[1]) || not_zero(w[2]))) return w;
    const float length = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    const float inverse = 1 / length;
    return {inverse * w[0], inverse * w[1], inverse * w[2]};
}

bool same_value(float a, float b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b); // payloads may differ
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// Projects `directions` both ways; returns a description of the first disagreement, or "".
std::string first_disagreement(const std::vector<Direction>& directions, const Direction& normal) {
    std::vector<Direction> projected = directions;
    project_onto_plane(projected, normal);
    for (size_t k = 0; k < directions.size(); ++k) {
        const Direction expected = reference_projection(directions[k], normal);
        for (int i = 0; i < 3; ++i) {
            if (same_value(projected[k][i], expected[i])) continue;
            std::ostringstream out;
            out.precision(9);
            out << "direction " << k << " of " << directions.size() << " (" << directions[k][0] << ", "
                << directions[k][1] << ", " << directions[k][2] << "), component " << i << ": "
                << projected[k][i] << " instead of " << expected[i];
            return out.str();
        }
    }
    return "";
}

Direction unit(Direction v) {
    const float length = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    return {v[0] / length, v[1] / length, v[2] / length};
}

} // namespace

BOOST_AUTO_TEST_SUITE(mikktspace_projection)

// Batches of every length from 0 to 13 (whole groups of four and every remainder), with directions
// from 1e-30 to 1e30 in size, each batch at its own normal.
BOOST_AUTO_TEST_CASE(random_directions_equal_the_reference_bit_for_bit) {
    std::mt19937 random(20261126);
    std::uniform_real_distribution<float> component(-1.0f, 1.0f);
    std::uniform_int_distribution<int> exponent(-30, 30);
    size_t compared = 0;
    for (int round = 0; round < 400; ++round) {
        const Direction normal = unit({component(random), component(random), component(random)});
        std::vector<Direction> directions(static_cast<size_t>(round % 14));
        for (Direction& d : directions) {
            const float size = std::pow(10.0f, static_cast<float>(exponent(random)));
            d = {size * component(random), size * component(random), size * component(random)};
        }
        const std::string disagreement = first_disagreement(directions, normal);
        BOOST_TEST_REQUIRE(disagreement.empty(), "round " << round << ": " << disagreement);
        compared += directions.size();
    }
    BOOST_TEST(compared > 2000u);
}

// Lanes that take the other branch (kept as they are) beside lanes that are normalised, values at
// and around FLT_MIN, subnormals, signed zeros, directions along the normal (whose remainder is
// rounding noise), and lengths whose square overflows to infinity.
BOOST_AUTO_TEST_CASE(edge_values_equal_the_reference_in_every_lane) {
    const float tiny = FLT_MIN, subnormal = std::numeric_limits<float>::denorm_min() * 1000.0f;
    const std::vector<Direction> cases = {
        {0.0f, 0.0f, 0.0f},
        {-0.0f, 0.0f, -0.0f},
        {tiny, 0.0f, 0.0f},
        {-tiny, tiny, tiny},
        {2 * tiny, 0.0f, 0.0f},
        {0.0f, 0.0f, 3 * tiny},
        {subnormal, -subnormal, subnormal},
        {1e-19f, 1e-19f, 1e-19f}, // the squared length is subnormal
        {1e20f, -1e20f, 1e20f},   // the squared length overflows: the result is 0 or NaN alike
        {3.0e38f, 0.0f, 0.0f},
        {1.0f, 0.0f, 0.0f},
        {0.0f, 1.0f, 0.0f},
        {0.0f, 0.0f, 1.0f},
        {0.6f, 0.8f, 0.0f},
        {std::numeric_limits<float>::infinity(), 0.0f, 0.0f},
        {std::numeric_limits<float>::quiet_NaN(), 1.0f, 0.0f},
    };
    const std::vector<Direction> normals = {
        {0.0f, 0.0f, 1.0f}, {1.0f, 0.0f, 0.0f}, unit({1.0f, 1.0f, 1.0f}), unit({0.6f, -0.8f, 1e-7f})};
    for (const Direction& normal : normals) {
        std::vector<Direction> directions = cases;
        directions.push_back(normal); // along the normal: nothing, or noise, is left
        directions.push_back({-normal[0], -normal[1], -normal[2]});
        // Every case in every lane: the list rotated by one, four times.
        for (int shift = 0; shift < 4; ++shift) {
            const std::string disagreement = first_disagreement(directions, normal);
            BOOST_TEST_REQUIRE(disagreement.empty(), "shift " << shift << ": " << disagreement);
            std::rotate(directions.begin(), directions.begin() + 1, directions.end());
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
