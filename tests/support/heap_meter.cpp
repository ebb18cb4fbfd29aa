// Counting replacements of the global (unaligned) operator new and delete: each block carries its
// size in a 16-byte prefix, so delete can subtract it. Over-aligned allocations keep the library's
// own operators (they pair with their own deletes) and are not counted; nothing the reader or the
// converter allocates is over-aligned.
#include "heap_meter.hpp"

#include "replace_global_new.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {

constexpr size_t kPrefix = 16; // keeps the block 16-byte aligned, as malloc's
std::atomic<size_t> live{0};
std::atomic<size_t> peak{0};
std::atomic<size_t> baseline{0};

void* allocate(size_t size) noexcept {
    auto* block = static_cast<unsigned char*>(std::malloc(size + kPrefix));
    if (!block) return nullptr;
    *reinterpret_cast<size_t*>(block) = size;
    const size_t now = live.fetch_add(size) + size;
    size_t seen = peak.load();
    while (now > seen && !peak.compare_exchange_weak(seen, now)) {
    }
    return block + kPrefix;
}

void release(void* pointer) noexcept {
    if (!pointer) return;
    unsigned char* block = static_cast<unsigned char*>(pointer) - kPrefix;
    live.fetch_sub(*reinterpret_cast<size_t*>(block));
    std::free(block);
}

void* allocate_or_throw(size_t size) {
    void* pointer = allocate(size);
    if (!pointer) throw std::bad_alloc();
    return pointer;
}

} // namespace

namespace assbin_test {

void heap_meter_start() {
    baseline = live.load();
    peak = live.load();
}

size_t heap_meter_peak() {
    return peak.load() - baseline.load();
}

} // namespace assbin_test

ASSBIN_REPLACE_GLOBAL_NEW(allocate_or_throw, allocate, release)
