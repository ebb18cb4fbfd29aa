// assbin_compare_bench: what comparing two big full dumps costs next to reading them.
//
// It builds a grid scene (positions, normals, one UV channel, u32 triangles; tests/support/heavy_shapes),
// writes it with assbin::write_file, and writes a perturbed twin: every position moved by 1e-4
// (within cmpdump's 0.1, so it must be compared value by value) and every 10,000th vertex moved
// by 1 (beyond it). Both files are at least 30 MB by default. Then, best of N runs:
//   read   read_file of both dumps
//   cmp    compare() of the two scenes (every difference counted, the first 50 kept)
//   same   compare() of a scene with itself (the memcmp fast path)
//   short  compare() of the full scene against its shortened twin (bounds and hashes derived)
// and prints the times and the ratio cmp / read.
//
// usage: assbin_compare_bench [--runs N] [--grid N] [--json] [--keep]
#include "bench_options.hpp"
#include "best_time.hpp"
#include "support/heavy_shapes.hpp"

#include <json_writer.hpp>
#include <table.hpp>

#include <assbin/compare.hpp>
#include <assbin/reader.hpp>
#include <assbin/writer.hpp>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

namespace fs = std::filesystem;
using assbin::cli::JsonWriter;
using assbin::cli::Table;
using assbin::cli::with_thousands;

namespace {

constexpr double kMega = 1e6;

using Options = assbin_test::bench::BenchOptions;
using assbin_test::bench::best_seconds;

[[noreturn]] void usage(int status) {
    std::fprintf(status ? stderr : stdout,
                 "usage: assbin_compare_bench [--runs N] [--grid N] [--json] [--keep]\n"
                 "  --runs N   best of N timed runs (default 5)\n"
                 "  --grid N   grid of N x N vertices (default 700: two dumps of about 31 MB)\n"
                 "  --json     print JSON instead of the table\n"
                 "  --keep     keep the generated dumps in the temp folder\n");
    std::exit(status);
}

Options parse_options(int argc, char** argv) {
    return assbin_test::bench::parse_bench_options(argc, argv, 5, 0, usage);
}

// The grid of tests/support/heavy_shapes (the read and convert benchmarks' grid), as a scene.
assbin::Scene grid_scene(uint32_t n) {
    return assbin::read_scene(
        assbin_test::build_dump(assbin_test::shapes::grid(n), assbin_test::WriterProfile::p5()).bytes);
}

// Writes the grid dump and a copy whose every position moved by 1e-4 and every 10,000th by 1 more
// (beyond the default tolerance); returns how many moved beyond it.
uint64_t write_grid_pair(uint32_t grid, const fs::path& expected_path, const fs::path& actual_path) {
    uint64_t beyond = 0;
    assbin::Scene scene = grid_scene(grid);
    assbin::write_file(scene, expected_path);
    std::vector<assbin::Vec3>& positions = scene.meshes[0].positions->values;
    for (size_t i = 0; i < positions.size(); ++i) {
        positions[i].x() += 1e-4f;
        if (i % 10000 == 0) {
            positions[i].y() += 1.0f;
            ++beyond;
        }
    }
    assbin::write_file(scene, actual_path);
    return beyond;
}

struct Timings {
    uint64_t actual_bytes = 0, expected_bytes = 0, beyond = 0;
    double read = 0, compare = 0, same = 0, shortened = 0;
    assbin::CompareResult result;
};

void print_json(const Options& options, const Timings& t) {
    JsonWriter json(std::cout);
    json.begin_object();
    json.field("grid", options.grid);
    json.field("actual_bytes", t.actual_bytes);
    json.field("expected_bytes", t.expected_bytes);
    json.field("runs", options.runs);
    json.field("read_both_s", t.read);
    json.field("compare_s", t.compare);
    json.field("compare_same_s", t.same);
    json.field("compare_full_vs_shortened_s", t.shortened);
    json.field("compare_over_read", t.compare / t.read);
    json.field("values_compared", t.result.values_compared);
    json.field("differences", t.result.total);
    json.field("differences_expected", t.beyond);
    json.end_object();
    json.finish();
}

std::string milliseconds(double seconds) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f ms", seconds * 1e3);
    return buffer;
}

void print_timings(const Options& options, const Timings& t) {
    if (options.json) return print_json(options, t);
    std::printf("two full dumps of a %ux%u grid: %.1f MB and %.1f MB (best of %d runs)\n", options.grid,
                options.grid, t.actual_bytes / kMega, t.expected_bytes / kMega, options.runs);
    char speed[48];
    std::snprintf(speed, sizeof speed, "%.0f MB/s", (t.actual_bytes + t.expected_bytes) / kMega / t.read);
    Table table({"measurement", "best", "note"}, "lrl");
    table.add({"read both (read_file x 2)", milliseconds(t.read), speed});
    table.add({"compare (every position perturbed)", milliseconds(t.compare),
               with_thousands(t.result.values_compared) + " values, " + with_thousands(t.result.total) +
                   " differences"});
    table.add({"compare a scene with itself", milliseconds(t.same), ""});
    table.add({"compare full against shortened (derived)", milliseconds(t.shortened), ""});
    table.print(std::cout);
    std::printf("  compare / read both = %.3f\n", t.compare / t.read);
}

} // namespace

int main(int argc, char** argv) {
    const Options options = parse_options(argc, argv);
    const fs::path folder =
        fs::temp_directory_path() / ("assbin-compare-bench-" + std::to_string(::getpid()));
    fs::create_directories(folder);
    const fs::path expected_path = folder / "grid.assbin";
    const fs::path actual_path = folder / "grid-perturbed.assbin";
    Timings t;
    t.beyond = write_grid_pair(options.grid, expected_path, actual_path);
    t.actual_bytes = fs::file_size(actual_path);
    t.expected_bytes = fs::file_size(expected_path);
    assbin::Scene actual, expected;
    t.read = best_seconds(options.runs, [&] {
        actual = assbin::read_file(actual_path);
        expected = assbin::read_file(expected_path);
    });
    assbin::CompareOptions cmpdump; // the nudges within 0.1 match, the moves beyond it count
    cmpdump.epsilon = 0.1;
    t.compare = best_seconds(options.runs, [&] { t.result = assbin::compare(actual, expected, cmpdump); });
    t.same = best_seconds(options.runs, [&] { (void)assbin::compare(expected, expected); });
    assbin::WriteOptions shortened_options;
    shortened_options.shortened = true;
    const assbin::Scene shortened = assbin::read_scene(assbin::write(expected, shortened_options));
    t.shortened = best_seconds(options.runs, [&] { (void)assbin::compare(expected, shortened); });
    if (!options.keep) fs::remove_all(folder);
    print_timings(options, t);
    if (t.result.total != t.beyond) {
        std::fprintf(stderr, "compare found %llu differences, expected %llu\n",
                     static_cast<unsigned long long>(t.result.total),
                     static_cast<unsigned long long>(t.beyond));
        return 1;
    }
    return 0;
}
