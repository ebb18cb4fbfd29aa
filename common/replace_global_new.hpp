// The program-wide replacements of the unaligned global operator new and delete, every replaceable
// form at once, forwarding to three functions of the file that expands the macro (once in a
// program): ALLOCATE_OR_THROW(size) for the throwing news, ALLOCATE(size) (null on failure) for the
// nothrow ones, RELEASE(pointer) for every delete. The over-aligned forms keep the library's own
// operators, which pair with their own deletes. Used by the `assbin` program (huge pages for large blocks)
// and the tests' heap meter (live bytes counted). Internal and header-only, like the rest of common/.
#pragma once

#include <cstddef>
#include <new>

// NOLINTBEGIN(cppcoreguidelines-macro-usage): operators must be defined at global scope, by name
#define ASSBIN_REPLACE_GLOBAL_NEW(ALLOCATE_OR_THROW, ALLOCATE, RELEASE)                                      \
    void* operator new(std::size_t size) {                                                                   \
        return ALLOCATE_OR_THROW(size);                                                                      \
    }                                                                                                        \
    void* operator new[](std::size_t size) {                                                                 \
        return ALLOCATE_OR_THROW(size);                                                                      \
    }                                                                                                        \
    void* operator new(std::size_t size, const std::nothrow_t&) noexcept {                                   \
        return ALLOCATE(size);                                                                               \
    }                                                                                                        \
    void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {                                 \
        return ALLOCATE(size);                                                                               \
    }                                                                                                        \
    void operator delete(void* pointer) noexcept {                                                           \
        RELEASE(pointer);                                                                                    \
    }                                                                                                        \
    void operator delete[](void* pointer) noexcept {                                                         \
        RELEASE(pointer);                                                                                    \
    }                                                                                                        \
    void operator delete(void* pointer, std::size_t) noexcept {                                              \
        RELEASE(pointer);                                                                                    \
    }                                                                                                        \
    void operator delete[](void* pointer, std::size_t) noexcept {                                            \
        RELEASE(pointer);                                                                                    \
    }                                                                                                        \
    void operator delete(void* pointer, const std::nothrow_t&) noexcept {                                    \
        RELEASE(pointer);                                                                                    \
    }                                                                                                        \
    void operator delete[](void* pointer, const std::nothrow_t&) noexcept {                                  \
        RELEASE(pointer);                                                                                    \
    }
// NOLINTEND(cppcoreguidelines-macro-usage)
