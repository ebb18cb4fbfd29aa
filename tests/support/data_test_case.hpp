// Data-driven test cases (BOOST_DATA_TEST_CASE): one case per fixture, so one broken fixture is one
// failing case that can be run alone (--run_test=suite/case/_3).
#pragma once

// GCC 12 warns of overlapping copies inside Boost's data-driven case-name building (a known false
// positive of -Wrestrict in libstdc++'s string insert, in optimised builds); nothing in the tests
// copies strings so.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>

#include <string>
#include <vector>

namespace assbin_test {

// Fixture names as a Boost.Test data set.
inline auto fixtures(std::vector<std::string> names) {
    return boost::unit_test::data::make(std::move(names));
}

} // namespace assbin_test
