// The advice behind the program's operator new (tools/cli_support/huge_page_advice.hpp): the whole
// 2 MiB pages inside a large block are marked for transparent huge pages, nothing outside it is, and
// a block spanning no whole huge page is left alone.
#include "huge_page_advice.hpp"
#include "support/skip.hpp"

#include <sys/mman.h>

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using assbin::cli::advise_huge_pages;
using assbin::cli::kHugePageSize;

namespace {

// The VmFlags of the mapping holding `address` (/proc/self/smaps) with a space either side, or "".
std::string vm_flags_of(const void* address) {
    std::ifstream smaps("/proc/self/smaps");
    const auto at = reinterpret_cast<uintptr_t>(address);
    bool inside = false;
    for (std::string line; std::getline(smaps, line);) {
        uintptr_t start = 0, end = 0;
        char dash = 0;
        if (std::istringstream(line) >> std::hex >> start >> dash >> end && dash == '-') {
            inside = start <= at && at < end;
        } else if (inside && line.rfind("VmFlags:", 0) == 0) {
            return line.substr(8) + " ";
        }
    }
    return "";
}

bool marked_huge(const void* address) {
    return vm_flags_of(address).find(" hg ") != std::string::npos;
}

// A mapping of `huge_pages` + 2 huge pages, so that a block starting `offset` bytes past a huge-page
// boundary inside it can be placed exactly.
struct Mapping {
    explicit Mapping(size_t huge_pages) : size((huge_pages + 2) * kHugePageSize) {
        base =
            ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    }
    ~Mapping() {
        if (base != MAP_FAILED) ::munmap(base, size);
    }
    char* aligned() const {
        const auto at =
            (reinterpret_cast<uintptr_t>(base) + kHugePageSize - 1) & ~(uintptr_t{kHugePageSize} - 1);
        return reinterpret_cast<char*>(at);
    }
    void* base;
    size_t size;
};

} // namespace

BOOST_AUTO_TEST_SUITE(huge_page_advice)

BOOST_AUTO_TEST_CASE(the_whole_huge_pages_inside_a_block_are_advised_and_no_more, *assbin_test::may_skip()) {
    if (!std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled"))
        assbin_test::skip_check("huge pages: this kernel has no transparent huge pages");
    Mapping mapping(6);
    BOOST_REQUIRE(mapping.base != MAP_FAILED);
    // A block from 16 bytes past a boundary to 100 bytes past the fourth one: the three whole huge
    // pages between are advised, the partial ones at either end are not.
    char* const block = mapping.aligned() + 16;
    const size_t size = 4 * kHugePageSize + 100 - 16;
    BOOST_TEST(advise_huge_pages(block, size) == 3 * kHugePageSize);
    BOOST_TEST(marked_huge(mapping.aligned() + kHugePageSize),
               "VmFlags:" << vm_flags_of(mapping.aligned() + kHugePageSize));
    BOOST_TEST(marked_huge(mapping.aligned() + 4 * kHugePageSize - 1));
    BOOST_TEST(!marked_huge(block));                                      // the first, partial page
    BOOST_TEST(!marked_huge(mapping.aligned() + 4 * kHugePageSize + 50)); // the last, partial page
}

BOOST_AUTO_TEST_CASE(a_block_without_a_whole_huge_page_is_left_alone) {
    Mapping mapping(2);
    BOOST_REQUIRE(mapping.base != MAP_FAILED);
    char* const block = mapping.aligned() + 4096;
    BOOST_TEST(advise_huge_pages(block, kHugePageSize) == 0u); // crosses a boundary, holds no whole page
    BOOST_TEST(!marked_huge(block));
    BOOST_TEST(advise_huge_pages(nullptr, 8 * kHugePageSize) == 0u);
    BOOST_TEST(advise_huge_pages(mapping.aligned(), kHugePageSize) == kHugePageSize); // exactly one
}

BOOST_AUTO_TEST_SUITE_END()
