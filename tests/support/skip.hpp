// A check that cannot run on this machine (no root, no Chromium, no Node, ...) says so where CTest
// shows it: the test case is labelled may_skip (kMaySkip), registered as a CTest test of its own
// (assbin_add_skippable_cases in tests/CMakeLists.txt) with SKIP_RETURN_CODE 77, and calls
// skip_check with its reason, which prints "SKIPPED: reason" and ends the program with 77 — "Not
// Run (Skipped)" in CTest's summary, and listed with its reason by scripts/test.sh. Under CI=true the
// machine is set up to run every check, so a skip there is a failure. A case that already failed an
// assertion before it skips reports the failure, never a skip.
#pragma once

#include <boost/test/results_collector.hpp>
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <iostream>
#include <string>

namespace assbin_test {

inline constexpr int kSkipExitCode = 77;

// The label of the test cases that may skip (registered apart, run apart).
inline auto may_skip() {
    return boost::unit_test::label("may_skip");
}

[[noreturn]] inline void skip_check(const std::string& reason) {
    namespace utf = boost::unit_test;
    const bool failed_so_far =
        !utf::results_collector.results(utf::framework::current_test_case().p_id).passed();
    const char* ci = std::getenv("CI");
    if (failed_so_far) {
        std::cout << "FAILED before it could skip (" << reason << ")" << std::endl;
        std::exit(1);
    }
    if (ci && std::string(ci) == "true") {
        std::cout << "FAILED: a check CI must run was skipped: " << reason << std::endl;
        std::exit(1);
    }
    std::cout << "SKIPPED: " << reason << std::endl;
    std::exit(kSkipExitCode);
}

} // namespace assbin_test
