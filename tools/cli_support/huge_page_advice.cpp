#include "huge_page_advice.hpp"

#include <sys/mman.h>

#include <cstdint>

namespace assbin::cli {

size_t advise_huge_pages(void* block, size_t size) noexcept {
    const auto begin = reinterpret_cast<uintptr_t>(block);
    const uintptr_t first = (begin + kHugePageSize - 1) & ~(uintptr_t{kHugePageSize} - 1);
    const uintptr_t last = (begin + size) & ~(uintptr_t{kHugePageSize} - 1);
    if (block == nullptr || last <= first) return 0;
#ifdef MADV_HUGEPAGE // Linux; elsewhere blocks stay as malloc gives them
    if (::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE) != 0) return 0;
    return last - first;
#else
    return 0;
#endif
}

} // namespace assbin::cli
