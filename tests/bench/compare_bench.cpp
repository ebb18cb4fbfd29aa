// assbin_compare_bench: what comparing two big full dumps costs next to reading them.
//
// It builds a grid scene (positions, normals, one UV channel, u32 triangles) as an assbin::Scene,
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

assbin::VertexStream<assbin::Vec3> stream(std::vector<assbin::Vec3> values) {
    assbin::VertexStream<assbin::Vec3> s;
    s.values = std::move(values);
    s.bounds.min = s.bounds.max = assbin::Vec3::Zero();
    return s;
}

assbin::Scene grid_scene(uint32_t n) {
    const size_t nv = size_t{n} * n;
    std::vector<assbin::Vec3> positions, normals, uvs;
    positions.reserve(nv);
    normals.reserve(nv);
    uvs.reserve(nv);
    const float step = 1.0f / static_cast<float>(n - 1);
    for (uint32_t y = 0; y < n; ++y) {
        for (uint32_t x = 0; x < n; ++x) {
            const float u = static_cast<float>(x) * step, v = static_cast<float>(y) * step;
            positions.emplace_back(u * 10.0f, 0.25f * std::sin(u * 6.0f) * std::cos(v * 6.0f), v * 10.0f);
            normals.emplace_back(0.0f, 1.0f, 0.0f);
            uvs.emplace_back(u, v, 0.0f);
        }
    }
    assbin::Mesh mesh;
    mesh.primitive_types = assbin::kPrimitiveTriangle;
    mesh.vertex_count = static_cast<uint32_t>(nv);
    mesh.positions = stream(std::move(positions));
    mesh.normals = stream(std::move(normals));
    assbin::UvChannel uv;
    static_cast<assbin::VertexStream<assbin::Vec3>&>(uv) = stream(std::move(uvs));
    mesh.uv_channels.push_back(std::move(uv));
    assbin::FaceList& faces = mesh.faces;
    faces.indices.reserve(size_t{n - 1} * (n - 1) * 6);
    for (uint32_t y = 0; y + 1 < n; ++y) {
        for (uint32_t x = 0; x + 1 < n; ++x) {
            const uint32_t i = y * n + x;
            for (uint32_t index : {i, i + n, i + 1, i + 1, i + n, i + n + 1})
                faces.indices.push_back(index);
        }
    }
    const size_t face_count = faces.indices.size() / 3;
    faces.offsets.resize(face_count + 1);
    for (size_t f = 0; f <= face_count; ++f)
        faces.offsets[f] = static_cast<uint32_t>(3 * f);
    mesh.face_count = static_cast<uint32_t>(face_count);

    assbin::Scene scene;
    scene.nodes.resize(1);
    scene.nodes[0].name = "grid";
    scene.nodes[0].meshes = {0};
    scene.meshes.push_back(std::move(mesh));
    scene.materials.resize(1);
    return scene;
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
    t.compare = best_seconds(options.runs, [&] { t.result = assbin::compare(actual, expected); });
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
