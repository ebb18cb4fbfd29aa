// Large blocks backed by transparent huge pages where the kernel leaves it to the program (THP
// "madvise" mode, Debian's default): what glibc's own `glibc.malloc.hugetlb=1` tunable does for
// malloc's large blocks, asked for in-process because a tunable is read only when a process starts.
//
// Why: a conversion allocates its big arrays (per vertex, per corner, per triangle) stage after
// stage, and each comes from fresh pages, faulted in and zeroed one 4 KiB page at a time; with huge
// pages a fault brings in 2 MiB. Measured against the alternatives (scripts/bench-allocators.sh,
// docs/benchmarks.md): glibc with this advice is level with a hand-written pool that kept freed
// blocks for reuse (within 6% either way on the grid, the 3M-triangle disc and the stack, at an
// equal or lower peak) and 14-29% faster than glibc without it; mimalloc with large pages is level
// too, at 10-28% more peak memory. The pool was deleted for it (issue 51's rule: hand-written code
// stays only where it beats the libraries by 10%).
#pragma once

#include <cstddef>

namespace assbin::cli {

inline constexpr size_t kHugePageSize = size_t{2} << 20;

// Asks the kernel to back the whole 2 MiB pages inside [block, block + size) with huge pages
// (madvise MADV_HUGEPAGE); a block spanning no whole huge page is left alone. Returns the bytes
// advised (0 also when the kernel refuses, which changes nothing but the speed).
size_t advise_huge_pages(void* block, size_t size) noexcept;

} // namespace assbin::cli
