// Large blocks (4 MiB and more) handed out again once freed, instead of mapped fresh each time.
//
// A conversion allocates its big arrays stage after stage (per vertex, per corner, per triangle) and
// frees them as the next stage begins. Given back to the kernel, every new array is faulted in and
// zeroed page by page: the 977k-triangle grid touched 380 MiB of fresh pages for a 151 MiB peak, the
// 3M-triangle disc 2.5 GiB for 772 MiB, a third of its time. Kept instead, they would raise the peak
// (a general allocator that keeps freed memory: +20-50%). This pool keeps freed blocks only while the
// memory the program holds (its blocks in use, the pool's kept ones and malloc's) stays a little
// under the most it ever had in use at once: the peak is unchanged, and the next stage's arrays land
// in the previous stage's pages.
//
// Blocks are carved from one reserved address range (nothing is committed until touched), split
// where a kept block is larger than asked and merged with free neighbours when freed, so memory
// kept for one size serves another. Kept memory beyond the bound is given back (madvise
// MADV_DONTNEED), largest block first; its address range stays for reuse. The range starts on a
// 2 MiB boundary and asks for transparent huge pages (why: the constructor).
#pragma once

#include <cstddef>
#include <map>
#include <mutex>

namespace assbin::cli {

class LargeBlockPool {
  public:
    struct Stats {
        size_t in_use = 0;    // bytes handed out and not yet freed
        size_t kept = 0;      // freed bytes still in memory, ready to hand out again
        size_t most_held = 0; // the most the process held without kept bytes, so far
        size_t reused = 0;    // bytes handed out from kept memory, over the pool's life
        size_t fresh = 0;     // bytes handed out that had to be faulted in anew
    };

    // The memory the process holds (resident anonymous bytes), read when a block is allocated or
    // freed.
    using Resident = size_t (*)();

    // Reserves `reserve` bytes of address space (none of memory). Kept memory is given back so that
    // resident() stays within the most the process held without it (resident() less the kept bytes,
    // the largest seen so far), less `headroom`: the process grows between the pool's looks, which
    // are only when a block is allocated or freed. Without `resident`, the pool's own blocks in use
    // stand for it. A reservation that fails leaves the pool empty: allocate returns null.
    // With `huge_pages`, the range asks for transparent huge pages (MADV_HUGEPAGE).
    LargeBlockPool(size_t reserve, size_t headroom, Resident resident = nullptr, bool huge_pages = true);
    ~LargeBlockPool();
    LargeBlockPool(const LargeBlockPool&) = delete;
    LargeBlockPool& operator=(const LargeBlockPool&) = delete;

    // A page-aligned block of at least `bytes`, or null when the reserved range has no room left
    // (the caller then allocates elsewhere).
    void* allocate(size_t bytes);
    // Whether `pointer` came from allocate (a block, or any address inside the reserved range).
    bool owns(const void* pointer) const {
        return base_ != nullptr && pointer >= base_ && pointer < base_ + reserved_;
    }
    // Frees a block allocate returned.
    void release(void* pointer);
    // Gives every kept block back to the kernel (between jobs: what one job's stages passed on to
    // each other is not held while the next job's arrays, of other sizes, are made).
    void give_back_kept();

    Stats stats() const;

  private:
    using Ranges = std::map<char*, size_t>; // start -> length, non-overlapping

    static void insert_merged(Ranges& ranges, char* start, size_t length);
    static Ranges::iterator best_fit(Ranges& ranges, size_t length);
    char* take(Ranges& ranges, Ranges::iterator range, size_t length);
    size_t note_held();
    void keep_within_bound();
    void give_back(Ranges::iterator range, size_t length);

    char* mapping_ = nullptr; // the whole mapping: base_ rounded up to a huge page's boundary
    size_t mapped_ = 0;
    char* base_ = nullptr;
    size_t reserved_ = 0;
    size_t headroom_ = 0;
    Resident resident_ = nullptr;
    size_t carved_ = 0; // bytes of the range ever handed out, from base_
    mutable std::mutex mutex_;
    std::map<char*, size_t> in_use_; // block -> its length
    Ranges kept_;                    // freed, still in memory
    Ranges given_back_;              // freed and given back to the kernel: address range only
    Stats stats_;
};

} // namespace assbin::cli
