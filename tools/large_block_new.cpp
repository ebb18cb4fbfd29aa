// The program's global operator new and delete. A block of 4 MiB or more comes from malloc when
// malloc's arenas hold that much free memory (they may serve it from pages already resident), and
// otherwise from a LargeBlockPool (cli_support/large_block_pool.hpp), where a freed array's pages
// serve the next one without raising the peak; everything smaller comes from malloc as before.
//
// Why malloc first: convert sets malloc's mmap threshold to 4 MiB, yet malloc still hands out large
// blocks from free memory in its arenas (freed smaller blocks, merged). Taking every large block
// from the pool left that memory idle while the pool faulted in new pages: the 64 stacked grids'
// peak rose from 122 to 148 MiB. Asking malloc first when its arenas could hold the block keeps
// every peak where it was (the grid 151 MiB, the stack 122 MiB, the 3M-triangle disc 772 MiB) while
// the grid faults in 80k pages instead of 97k and the 3M disc 434k instead of 656k (each fresh page
// cost 3.5-3.8 us of kernel time, and up to twice that, on the VM this was measured on).
//
// Only the `assbin` program replaces the operators; the libraries allocate as their host does.
// Sanitizer builds keep the sanitizers' own operators, which must see every block.
#include "large_block_new.hpp"

#include "large_block_pool.hpp"
#include "replace_global_new.hpp"

#include <cstdlib> // defines __GLIBC__ where glibc is the C library

// malloc's free memory is read with glibc's mallinfo2; other C libraries keep the default operators.
#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ASSBIN_KEEP_DEFAULT_NEW 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define ASSBIN_KEEP_DEFAULT_NEW 1
#endif
#endif

#ifndef ASSBIN_KEEP_DEFAULT_NEW

#include <fcntl.h>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <new>

namespace {

constexpr size_t kLargeBlock = size_t{4} << 20; // as the mmap threshold convert sets for malloc
// Address space only (MAP_NORESERVE; nothing is committed until touched). Under a limit on the
// address space (ulimit -v) the pool takes at most a quarter of it, so that what it reserves does
// not starve malloc.
constexpr size_t kReserved = size_t{64} << 30;
// Kept memory stops this far under the most ever in use: malloc's share grows between the pool's
// looks (the grid: 8 MiB keeps its peak where it was without the pool, 2 MiB raised it 8 MB).
constexpr size_t kHeadroom = size_t{8} << 20;

size_t reservation() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        return std::min<size_t>(kReserved, limit.rlim_cur / 4);
    return kReserved;
}

// The process's resident anonymous memory (/proc/self/statm: resident less file-backed pages),
// read a few times per large block: a read of a small file, far cheaper than faulting in the block.
size_t resident_anonymous() {
    const int file = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (file < 0) return 0;
    char text[128];
    const ssize_t length = ::read(file, text, sizeof text - 1);
    ::close(file);
    if (length <= 0) return 0;
    text[length] = '\0';
    unsigned long size = 0, resident = 0, shared = 0;
    if (std::sscanf(text, "%lu %lu %lu", &size, &resident, &shared) != 3 || shared > resident) return 0;
    return (resident - shared) * static_cast<size_t>(::sysconf(_SC_PAGESIZE));
}

// Made by the first large allocation (which may come before main), never destroyed: blocks may be
// freed by static destructors after main returns. A run that never allocates a large block never
// reserves the address space.
std::atomic<assbin::cli::LargeBlockPool*> g_pool{nullptr};

assbin::cli::LargeBlockPool& pool() {
    static auto* const instance =
        new assbin::cli::LargeBlockPool(reservation(), kHeadroom, resident_anonymous);
    g_pool.store(instance, std::memory_order_release);
    return *instance;
}

// Whether malloc's arenas hold at least `size` free bytes (perhaps not in one piece: then malloc
// maps the block afresh, as it would have without the pool).
bool malloc_has_room_for(size_t size) {
    return mallinfo2().fordblks >= size;
}

// ASSBIN_LARGE_BLOCK_POOL=0 leaves every block to malloc: scripts/bench-allocators.sh measures the
// pool against glibc with and without tunables and against mimalloc (LD_PRELOAD) with it.
bool pool_enabled() {
    static const bool enabled = [] {
        const char* setting = std::getenv("ASSBIN_LARGE_BLOCK_POOL");
        return setting == nullptr || setting[0] != '0';
    }();
    return enabled;
}

void* allocate(size_t size) noexcept {
    if (size >= kLargeBlock && pool_enabled() && !malloc_has_room_for(size)) {
        if (void* block = pool().allocate(size)) return block;
    }
    return std::malloc(size == 0 ? 1 : size);
}

void deallocate(void* pointer) noexcept {
    if (pointer == nullptr) return;
    assbin::cli::LargeBlockPool* const large = g_pool.load(std::memory_order_acquire);
    if (large != nullptr && large->owns(pointer)) {
        large->release(pointer);
        return;
    }
    std::free(pointer);
}

void* allocate_or_throw(size_t size) {
    void* block = allocate(size);
    while (block == nullptr) {
        std::new_handler handler = std::get_new_handler();
        if (!handler) throw std::bad_alloc();
        handler();
        block = allocate(size);
    }
    return block;
}

} // namespace

ASSBIN_REPLACE_GLOBAL_NEW(allocate_or_throw, allocate, deallocate)

void assbin::cli::give_back_kept_large_blocks() noexcept {
    if (assbin::cli::LargeBlockPool* const large = g_pool.load(std::memory_order_acquire))
        large->give_back_kept();
}

#else

void assbin::cli::give_back_kept_large_blocks() noexcept {}

#endif
