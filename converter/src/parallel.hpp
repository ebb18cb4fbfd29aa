// Work spread over threads: the converter's one way of running independent tasks in parallel.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace assbin::converter::detail {

// Runs task(0) .. task(count - 1) on up to `threads` threads (the caller's included); rethrows the
// first exception a task threw once all have stopped.
template <class Task>
void run_tasks(size_t count, unsigned threads, Task task) {
    std::atomic<size_t> next{0};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    const auto work = [&] {
        for (size_t i = next++; i < count; i = next++) {
            try {
                task(i);
            } catch (...) {
                const std::lock_guard lock(failure_mutex);
                if (!failure) failure = std::current_exception();
                next = count;
            }
        }
    };
    std::vector<std::thread> helpers;
    for (unsigned t = 1; t < std::min<size_t>(threads, count); ++t)
        helpers.emplace_back(work);
    work();
    for (std::thread& helper : helpers)
        helper.join();
    if (failure) std::rethrow_exception(failure);
}

} // namespace assbin::converter::detail
