#include "large_block_pool.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>

namespace assbin::cli {

namespace {

constexpr size_t kGranule = size_t{1} << 16;  // lengths rounded up to 64 KiB: fewer odd leftovers
constexpr size_t kHugePage = size_t{2} << 20; // x86-64's and arm64's (4 KiB pages) transparent huge page

size_t rounded(size_t bytes) {
    return (bytes + kGranule - 1) / kGranule * kGranule;
}

} // namespace

LargeBlockPool::LargeBlockPool(size_t reserve, size_t headroom, Resident resident, bool huge_pages)
    : headroom_(headroom), resident_(resident) {
    reserve = reserve / kGranule * kGranule;
    // One huge page more than the range, so that the range can start on a huge page's boundary.
    void* mapping = ::mmap(nullptr, reserve + kHugePage, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping == MAP_FAILED) return;
    mapping_ = static_cast<char*>(mapping);
    mapped_ = reserve + kHugePage;
    const auto address = reinterpret_cast<uintptr_t>(mapping_);
    base_ = mapping_ + ((address + kHugePage - 1) / kHugePage * kHugePage - address);
    reserved_ = reserve;
    // Huge pages where the system gives them on request (transparent_hugepage "madvise", the
    // default of many distributions; "always" gives them anyway, "never" ignores this). The big
    // arrays are read in scattered order (vertices through indices, triangles through neighbours),
    // and with 4 KiB pages most of those reads also miss the TLB; each 2 MiB page is also one fault
    // instead of 512. Measured in alternating runs of `assbin convert` (five series of 6-8 rounds):
    // the 977k-triangle grid on two threads 11-26% faster (1.13 -> 0.93 s; system time halved), on
    // one thread -12% to +6% (within this VM's noise); the corpus set 6-8% faster on one thread;
    // peaks 1-8 MB higher (pages are filled 2 MiB at a time).
    if (huge_pages) ::madvise(base_, reserved_, MADV_HUGEPAGE); // refused (no THP): small pages
}

LargeBlockPool::~LargeBlockPool() {
    if (mapping_) ::munmap(mapping_, mapped_);
}

void LargeBlockPool::insert_merged(Ranges& ranges, char* start, size_t length) {
    auto next = ranges.lower_bound(start);
    if (next != ranges.end() && start + length == next->first) { // joins the range after it
        length += next->second;
        next = ranges.erase(next);
    }
    if (next != ranges.begin()) {
        const auto previous = std::prev(next);
        if (previous->first + previous->second == start) { // joins the range before it
            previous->second += length;
            return;
        }
    }
    ranges.emplace_hint(next, start, length);
}

// The smallest range of at least `length` (the fewest bytes left over), or end().
LargeBlockPool::Ranges::iterator LargeBlockPool::best_fit(Ranges& ranges, size_t length) {
    auto best = ranges.end();
    for (auto range = ranges.begin(); range != ranges.end(); ++range) {
        if (range->second >= length && (best == ranges.end() || range->second < best->second)) best = range;
    }
    return best;
}

// The first `length` bytes of `range`; the rest stays in `ranges`.
char* LargeBlockPool::take(Ranges& ranges, Ranges::iterator range, size_t length) {
    char* const start = range->first;
    const size_t left = range->second - length;
    ranges.erase(range);
    if (left > 0) ranges.emplace(start + length, left);
    return start;
}

void* LargeBlockPool::allocate(size_t bytes) {
    if (!base_ || bytes == 0 || bytes > reserved_) return nullptr;
    const size_t length = rounded(bytes);
    const std::lock_guard lock(mutex_);
    char* block = nullptr;
    if (const auto kept = best_fit(kept_, length); kept != kept_.end()) {
        block = take(kept_, kept, length);
        stats_.kept -= length;
        stats_.reused += length;
    } else {
        if (const auto back = best_fit(given_back_, length); back != given_back_.end()) {
            block = take(given_back_, back, length);
        } else if (reserved_ - carved_ >= length) {
            block = base_ + carved_;
            carved_ += length;
        } else {
            return nullptr;
        }
        stats_.fresh += length;
    }
    in_use_.emplace(block, length);
    stats_.in_use += length;
    keep_within_bound();
    return block;
}

void LargeBlockPool::release(void* pointer) {
    const std::lock_guard lock(mutex_);
    const auto block = in_use_.find(static_cast<char*>(pointer));
    if (block == in_use_.end()) return; // not a block of this pool's: nothing to free
    const size_t length = block->second;
    in_use_.erase(block);
    stats_.in_use -= length;
    stats_.kept += length;
    insert_merged(kept_, static_cast<char*>(pointer), length);
    keep_within_bound();
}

// What the process holds without the kept bytes; the most so far is updated.
size_t LargeBlockPool::note_held() {
    // Kept bytes may count pages never touched (not resident): the estimate errs towards giving back.
    const size_t resident = resident_ ? std::max(resident_(), stats_.kept) : stats_.in_use + stats_.kept;
    const size_t held = resident - stats_.kept;
    stats_.most_held = std::max(stats_.most_held, held);
    return held;
}

// Gives kept memory back, largest range first, until everything held is within the bound.
void LargeBlockPool::keep_within_bound() {
    const size_t held = note_held();
    const size_t bound = stats_.most_held > headroom_ ? stats_.most_held - headroom_ : 0;
    while (held + stats_.kept > bound && !kept_.empty()) {
        const auto largest = std::max_element(
            kept_.begin(), kept_.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        const size_t excess = held + stats_.kept - bound;
        // Only what is over the bound goes (whole granules).
        give_back(largest, std::min(largest->second, rounded(excess)));
    }
}

// Gives the last `length` bytes of a kept range back to the kernel; its addresses stay for reuse.
void LargeBlockPool::give_back(Ranges::iterator range, size_t length) {
    char* const start = range->first + range->second - length;
    ::madvise(start, length, MADV_DONTNEED);
    if (length == range->second) {
        kept_.erase(range);
    } else {
        range->second -= length;
    }
    stats_.kept -= length;
    insert_merged(given_back_, start, length);
}

void LargeBlockPool::give_back_kept() {
    const std::lock_guard lock(mutex_);
    while (!kept_.empty())
        give_back(kept_.begin(), kept_.begin()->second);
}

LargeBlockPool::Stats LargeBlockPool::stats() const {
    const std::lock_guard lock(mutex_);
    return stats_;
}

} // namespace assbin::cli
