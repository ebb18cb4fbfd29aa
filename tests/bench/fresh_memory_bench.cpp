// What fresh memory costs on this machine: the first write to each page of newly mapped memory, with
// small (4 KiB) pages and with transparent huge pages (2 MiB), against writing the same memory once
// resident (memset). A convert's arrays are mostly fresh memory, so these rates decide much of a big
// mesh's time, and they can differ between machines far more than the CPU does: on a VM whose host
// takes back the memory its guest has left free for a while (virtio-balloon free page reporting), a
// huge page taken from that memory is fetched from the host on its first write, while one just
// freed by another process is not. So huge pages are timed twice: after an idle pause (memory the
// host may have taken back) and again at once (the same memory, just freed).
//   build/bin/assbin_fresh_memory_bench [--mib N] [--idle SECONDS] [--json]
// Prints rates in GB/s and each as a ratio to memset's. Never registered with CTest (a benchmark).
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kSmallPage = 4096;

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The kernel's count of transparent huge pages given on a fault (0 where it does not say).
uint64_t huge_pages_faulted() {
    std::ifstream vmstat("/proc/vmstat");
    std::string name;
    uint64_t value = 0;
    while (vmstat >> name >> value)
        if (name == "thp_fault_alloc") return value;
    return 0;
}

struct Timing {
    double first_write_seconds = 0; // one byte written to every small page
    double memset_seconds = 0;      // the whole range written again, resident
    uint64_t huge_pages = 0;        // faulted as huge pages
};

// Maps `bytes` (aligned to a huge page), asks for huge pages or refuses them, writes one byte per
// small page (the first write faults the page in, zeroed by the kernel), then memsets it all.
Timing time_fresh(size_t bytes, bool huge) {
    Timing timing;
    void* mapping =
        ::mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) {
        std::perror("fresh_memory_bench: mmap");
        std::exit(1);
    }
    const auto address = reinterpret_cast<uintptr_t>(mapping);
    auto* start = reinterpret_cast<volatile char*>((address + kHugePage - 1) / kHugePage * kHugePage);
    ::madvise(const_cast<char*>(start), bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    const uint64_t huge_before = huge_pages_faulted();
    auto begin = std::chrono::steady_clock::now();
    for (size_t offset = 0; offset < bytes; offset += kSmallPage)
        start[offset] = 1;
    timing.first_write_seconds = seconds_since(begin);
    timing.huge_pages = huge_pages_faulted() - huge_before;
    begin = std::chrono::steady_clock::now();
    std::memset(const_cast<char*>(start), 2, bytes);
    timing.memset_seconds = seconds_since(begin);
    ::munmap(mapping, bytes + kHugePage);
    return timing;
}

void usage_error(const char* what) {
    std::fprintf(
        stderr,
        "fresh_memory_bench: %s\nusage: assbin_fresh_memory_bench [--mib N] [--idle SECONDS] [--json]\n",
        what);
    std::exit(2);
}

} // namespace

int main(int argc, char** argv) {
    size_t mib = 256;
    double idle = 3;
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--json") {
            json = true;
        } else if ((arg == "--mib" || arg == "--idle") && i + 1 < argc) {
            char* end = nullptr;
            const double value = std::strtod(argv[++i], &end);
            if (end == argv[i] || *end != '\0' || !(value >= 0) || value > 65536)
                usage_error(("bad value for " + arg).c_str());
            if (arg == "--mib") {
                if (value < 2) usage_error("--mib must be at least 2");
                mib = static_cast<size_t>(value);
            } else {
                idle = value;
            }
        } else {
            usage_error(("unknown argument " + arg).c_str());
        }
    }
    const size_t bytes = mib << 20;
    const Timing small = time_fresh(bytes, false);
    std::this_thread::sleep_for(std::chrono::duration<double>(idle));
    const Timing huge_after_idle = time_fresh(bytes, true);
    const Timing huge_again = time_fresh(bytes, true);
    // The baseline: writing resident memory (the best memset of the three runs).
    double memset_seconds = small.memset_seconds;
    for (const Timing& t : {huge_after_idle, huge_again})
        memset_seconds = std::min(memset_seconds, t.memset_seconds);
    const auto rate = [&](double s) { return static_cast<double>(bytes) / s / 1e9; };
    const double baseline = rate(memset_seconds);
    const bool huge_given = huge_after_idle.huge_pages > 0 || huge_again.huge_pages > 0;

    struct Row {
        const char* key;
        const char* label;
        double seconds;
    };
    const Row rows[] = {
        {"small_pages", "fresh memory, 4 KiB pages", small.first_write_seconds},
        {"huge_pages_after_idle", "fresh memory, 2 MiB pages, after an idle pause",
         huge_after_idle.first_write_seconds},
        {"huge_pages_just_freed", "fresh memory, 2 MiB pages, just freed", huge_again.first_write_seconds},
    };
    if (json) {
        std::printf(
            "{\"mib\": %zu, \"idle_seconds\": %g, \"memset_gb_per_s\": %.3f, \"huge_pages_given\": %s", mib,
            idle, baseline, huge_given ? "true" : "false");
        for (const Row& row : rows)
            std::printf(", \"%s_gb_per_s\": %.3f", row.key, rate(row.seconds));
        std::printf("}\n");
        return 0;
    }
    std::printf("%-50s %8s %10s\n", "", "GB/s", "vs memset");
    std::printf("%-50s %8.2f %10s\n", "resident memory, memset (the baseline)", baseline, "1.00");
    for (const Row& row : rows) {
        std::printf("%-50s %8.2f %9.2fx\n", row.label, rate(row.seconds), rate(row.seconds) / baseline);
    }
    if (!huge_given)
        std::printf("(no transparent huge page was given: the 2 MiB rows are small pages; "
                    "see /sys/kernel/mm/transparent_hugepage/enabled)\n");
    std::printf("(%zu MiB each; the pause before the first huge-page run: %g s)\n", mib, idle);
    return 0;
}
