// The options every generated-grid benchmark takes: --runs N, --grid N, --json, --keep, --help,
// and (where allowed) file paths to use instead of the generated grid.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace assbin_test::bench {

struct BenchOptions {
    int runs = 5;
    uint32_t grid = 700;
    bool json = false;
    bool keep = false;
    std::vector<std::filesystem::path> files;
};

// Parses argv. `usage(status)` prints the benchmark's usage and exits; it is called for --help (0)
// and for anything malformed (2). Files are accepted only when `max_files` > 0.
template <class Usage>
BenchOptions parse_bench_options(int argc, char** argv, int default_runs, size_t max_files, Usage usage) {
    const auto number = [&](const char* text, long min, long max) {
        char* end = nullptr;
        const long value = std::strtol(text, &end, 10);
        if (!end || *end != '\0' || value < min || value > max) usage(2);
        return value;
    };
    BenchOptions o;
    o.runs = default_runs;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--runs" && i + 1 < argc)
            o.runs = static_cast<int>(number(argv[++i], 1, 1000));
        else if (arg == "--grid" && i + 1 < argc)
            o.grid = static_cast<uint32_t>(number(argv[++i], 2, 4000));
        else if (arg == "--json")
            o.json = true;
        else if (arg == "--keep")
            o.keep = true;
        else if (arg == "--help" || arg == "-h")
            usage(0);
        else if (arg.empty() || arg[0] == '-' || o.files.size() == max_files)
            usage(2);
        else
            o.files.emplace_back(arg);
    }
    return o;
}

} // namespace assbin_test::bench
