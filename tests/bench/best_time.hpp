// The one timing rule every benchmark uses: run the work `runs` times and keep the fastest, the
// run least disturbed by the rest of a noisy machine.
#pragma once

#include <algorithm>
#include <chrono>

namespace assbin_test::bench {

template <class Work>
double best_seconds(int runs, Work&& work) {
    double best = 1e300;
    for (int run = 0; run < runs; ++run) {
        const auto start = std::chrono::steady_clock::now();
        work();
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        best = std::min(best, took.count());
    }
    return best;
}

// The best of at least `runs` runs that goes on until `budget_seconds` have passed (at most 1,000
// runs), so that work of a few milliseconds gets enough runs for its best to settle; `prepare` runs
// before each run, untimed (setting up the state the work starts from).
template <class Prepare, class Work>
double best_seconds_within(int runs, double budget_seconds, Prepare&& prepare, Work&& work) {
    double best = 1e300, spent = 0;
    for (int run = 0; run < 1000 && (run < runs || spent < budget_seconds); ++run) {
        prepare();
        const auto start = std::chrono::steady_clock::now();
        work();
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        best = std::min(best, took.count());
        spent += took.count();
    }
    return best;
}

} // namespace assbin_test::bench
