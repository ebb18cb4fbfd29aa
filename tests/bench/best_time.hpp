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

} // namespace assbin_test::bench
