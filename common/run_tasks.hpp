// Independent tasks spread over threads: the one way the libraries and tools run work in parallel
// (the reader's meshes, the converter's geometry and textures, `info`'s facts).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace assbin_common {

// Runs task(0) .. task(count - 1), each once, on up to `threads` threads (the caller's included),
// handing out the lowest index not yet taken. After a task throws, no further task starts; the
// first exception is rethrown once all have stopped. Where the system gives fewer threads than
// asked, the ones it gives (at least the caller's) share the tasks.
template <class Task>
void run_tasks(size_t count, unsigned threads, Task&& task) {
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
    {
        std::vector<std::jthread> helpers; // joined when this scope ends, whatever happens
        try {
            for (size_t t = 1; t < std::min<size_t>(threads, count); ++t)
                helpers.emplace_back(work);
        } catch (const std::system_error&) {
            // No more threads to be had: the ones started share the tasks.
        }
        work();
    }
    if (failure) std::rethrow_exception(failure);
}

} // namespace assbin_common
