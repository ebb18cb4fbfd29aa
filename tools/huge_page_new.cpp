// The program's global operator new: malloc, with every block of 4 MiB or more advised onto
// transparent huge pages (cli_support/huge_page_advice.hpp says why, and what it was measured
// against). Only the `assbin` program replaces the operators; the libraries allocate as their host
// does. Sanitizer builds keep the sanitizers' own operators, which must see every block.
//
// ASSBIN_HUGE_PAGES=0 leaves blocks as malloc gives them: scripts/bench-allocators.sh measures the
// advice against glibc alone, glibc with its tunables and mimalloc.
#include "huge_page_advice.hpp"
#include "replace_global_new.hpp"

#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ASSBIN_KEEP_DEFAULT_NEW 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define ASSBIN_KEEP_DEFAULT_NEW 1
#endif
#endif

#ifndef ASSBIN_KEEP_DEFAULT_NEW

namespace {

// As the mmap threshold convert sets for malloc: blocks this large are mappings of their own.
constexpr size_t kLargeBlock = size_t{4} << 20;

bool advice_enabled() {
    static const bool enabled = [] {
        const char* setting = std::getenv("ASSBIN_HUGE_PAGES");
        return setting == nullptr || setting[0] != '0';
    }();
    return enabled;
}

void* allocate(size_t size) noexcept {
    void* block = std::malloc(size == 0 ? 1 : size);
    if (block != nullptr && size >= kLargeBlock && advice_enabled())
        assbin::cli::advise_huge_pages(block, size);
    return block;
}

void release(void* pointer) noexcept {
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

ASSBIN_REPLACE_GLOBAL_NEW(allocate_or_throw, allocate, release)

#endif
