// The pool behind the program's operator new (tools/cli_support/large_block_pool.hpp): freed
// blocks are handed out again with their pages (the bytes left in them prove it), merged and split
// across sizes, and given back to the kernel once what the process holds would pass the most it
// held before (given-back pages read as zero); the range asks for transparent huge pages.
#include "large_block_pool.hpp"
#include "support/skip.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using assbin::cli::LargeBlockPool;

namespace {

constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kReserve = size_t{256} << 20;

bool filled_with(const void* block, size_t length, unsigned char value) {
    const auto* bytes = static_cast<const unsigned char*>(block);
    for (size_t i = 0; i < length; ++i)
        if (bytes[i] != value) return false;
    return true;
}

// What the pool reads as the process's resident memory in the bound test.
size_t g_resident = 0;
size_t fake_resident() {
    return g_resident;
}

// The VmFlags of the mapping holding `address` (/proc/self/smaps), or "" when none is found.
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

} // namespace

BOOST_AUTO_TEST_SUITE(large_block_pool)

BOOST_AUTO_TEST_CASE(a_freed_block_is_handed_out_again_with_its_pages) {
    LargeBlockPool pool(kReserve, 0);
    void* first = pool.allocate(8 * kMiB);
    BOOST_REQUIRE(first != nullptr);
    BOOST_TEST(pool.owns(first));
    std::memset(first, 0xAB, 8 * kMiB);
    pool.release(first);
    BOOST_TEST(pool.stats().kept == 8 * kMiB);

    void* again = pool.allocate(8 * kMiB);
    BOOST_TEST(again == first);
    // Not zeroed: the pages the first block touched, not fresh ones.
    BOOST_TEST(filled_with(again, 8 * kMiB, 0xAB));
    const LargeBlockPool::Stats stats = pool.stats();
    BOOST_TEST(stats.fresh == 8 * kMiB);
    BOOST_TEST(stats.reused == 8 * kMiB);
    BOOST_TEST(stats.kept == 0u);
    BOOST_TEST(stats.in_use == 8 * kMiB);
    pool.release(again);
}

BOOST_AUTO_TEST_CASE(neighbours_merge_and_a_larger_range_is_split) {
    LargeBlockPool pool(kReserve, 0);
    char* a = static_cast<char*>(pool.allocate(8 * kMiB));
    char* b = static_cast<char*>(pool.allocate(8 * kMiB));
    BOOST_REQUIRE(a != nullptr);
    BOOST_REQUIRE(b != nullptr);
    BOOST_TEST(b == a + 8 * kMiB); // carved one after the other
    pool.release(b);
    pool.release(a);
    BOOST_TEST(pool.stats().kept == 16 * kMiB);

    // The two freed neighbours serve one block of both their sizes...
    char* whole = static_cast<char*>(pool.allocate(16 * kMiB));
    BOOST_TEST(whole == a);
    pool.release(whole);
    // ...and a smaller one takes the front of the range, leaving the rest kept.
    char* part = static_cast<char*>(pool.allocate(5 * kMiB));
    BOOST_TEST(part == a);
    BOOST_TEST(pool.stats().kept == 11 * kMiB);
    BOOST_TEST(pool.stats().fresh == 16 * kMiB); // nothing faulted in anew since the first two
    pool.release(part);
}

BOOST_AUTO_TEST_CASE(kept_memory_past_the_bound_is_given_back_and_reads_as_zero) {
    // Without a resident reader the pool's own blocks in use stand for what the process holds: the
    // most held is 8 MiB, so with 4 MiB of headroom only 4 MiB of the freed block may stay.
    LargeBlockPool pool(kReserve, 4 * kMiB);
    char* block = static_cast<char*>(pool.allocate(8 * kMiB));
    BOOST_REQUIRE(block != nullptr);
    std::memset(block, 0xCD, 8 * kMiB);
    pool.release(block);
    BOOST_TEST(pool.stats().kept == 4 * kMiB);

    // The kept front still holds its bytes; the given-back tail was handed to the kernel.
    char* front = static_cast<char*>(pool.allocate(4 * kMiB));
    BOOST_TEST(front == block);
    BOOST_TEST(filled_with(front, 4 * kMiB, 0xCD));
    char* tail = static_cast<char*>(pool.allocate(4 * kMiB));
    BOOST_TEST(tail == block + 4 * kMiB); // its address range serves again
    BOOST_TEST(filled_with(tail, 4 * kMiB, 0));
    pool.release(front);
    pool.release(tail);
}

BOOST_AUTO_TEST_CASE(growth_elsewhere_in_the_process_makes_the_pool_give_back) {
    g_resident = 0;
    LargeBlockPool pool(kReserve, 0, fake_resident);
    void* a = pool.allocate(8 * kMiB);
    g_resident = 8 * kMiB; // a touched
    void* b = pool.allocate(8 * kMiB);
    g_resident = 16 * kMiB; // b touched
    pool.release(b);        // the pool last saw 8 MiB held: b goes back at once
    BOOST_TEST(pool.stats().kept == 0u);
    g_resident = 8 * kMiB;
    void* c = pool.allocate(8 * kMiB); // b's range: given back, so counted as fresh
    g_resident = 16 * kMiB;
    void* d = pool.allocate(4 * kMiB); // seen held: 16 MiB
    g_resident = 20 * kMiB;
    pool.release(c); // 12 MiB held + 8 kept <= 16? no: 4 MiB of it goes back
    BOOST_TEST(pool.stats().kept == 4 * kMiB);
    BOOST_TEST(pool.stats().most_held == 16 * kMiB);

    // Something other than the pool grows (malloc's arenas): the kept memory makes way.
    g_resident = 30 * kMiB;
    pool.release(d);
    BOOST_TEST(pool.stats().kept == 0u);
    pool.give_back_kept();
    pool.release(a);
    BOOST_TEST(pool.stats().in_use == 0u);
}

BOOST_AUTO_TEST_CASE(give_back_kept_empties_the_pool_and_foreign_pointers_are_ignored) {
    LargeBlockPool pool(kReserve, 0);
    void* block = pool.allocate(6 * kMiB);
    BOOST_REQUIRE(block != nullptr);
    pool.release(block);
    BOOST_TEST(pool.stats().kept > 0u);
    pool.give_back_kept();
    BOOST_TEST(pool.stats().kept == 0u);

    int local = 0;
    BOOST_TEST(!pool.owns(&local));
    pool.release(&local); // not the pool's: nothing happens
    BOOST_TEST(pool.stats().in_use == 0u);
    BOOST_TEST(pool.allocate(0) == nullptr);
    BOOST_TEST(pool.allocate(kReserve + 1) == nullptr); // the caller allocates elsewhere
}

BOOST_AUTO_TEST_CASE(the_range_starts_on_a_huge_page_and_asks_for_huge_pages, *assbin_test::may_skip()) {
    constexpr size_t kHugePage = 2 * kMiB;
    LargeBlockPool pool(kReserve, 0);
    void* block = pool.allocate(8 * kMiB);
    BOOST_REQUIRE(block != nullptr);
    BOOST_TEST(reinterpret_cast<uintptr_t>(block) % kHugePage == 0u); // the first block is at the start
    LargeBlockPool plain(kReserve, 0, nullptr, false);
    void* plain_block = plain.allocate(8 * kMiB);
    BOOST_REQUIRE(plain_block != nullptr);
    if (!std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled"))
        assbin_test::skip_check("huge pages: this kernel has no transparent huge pages");
    // "hg": the mapping is marked MADV_HUGEPAGE.
    BOOST_TEST(vm_flags_of(block).find(" hg ") != std::string::npos, "VmFlags:" << vm_flags_of(block));
    BOOST_TEST(vm_flags_of(plain_block).find(" hg ") == std::string::npos);
    pool.release(block);
    plain.release(plain_block);
}

BOOST_AUTO_TEST_CASE(a_reservation_that_fails_leaves_an_empty_pool) {
    LargeBlockPool pool(size_t{1} << 62, 0); // more address space than x86-64 has
    BOOST_TEST(pool.allocate(8 * kMiB) == nullptr);
    int local = 0;
    BOOST_TEST(!pool.owns(&local));
}

BOOST_AUTO_TEST_SUITE_END()
