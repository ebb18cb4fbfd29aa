// assbin_read_bench: how close reading comes to copying the bytes, and how much memory it takes.
//
// Without file arguments it writes a large grid dump with the test builder (P5 layout: positions,
// normals, one 2-component UV channel, u32 triangles) and its compressed twin (new prefix). It
// times, best of N runs: memcpy of the body, read_scene on the plain bytes, zlib inflate of the
// stream alone, and read_scene on the compressed bytes; and read_scene of a scene of 64 smaller
// grids (the same bytes in many meshes) on one thread and on two. Then, in a fresh child process
// per file (fork + exec of itself), it measures the peak resident memory of one read_file (file
// loading included) above the child's resident size before reading.
//
// Memory state decides much of a read's time: arrays in memory the process used before cost a
// copy; arrays in fresh pages also cost the kernel a page fault and zero-fill per 4 KB. glibc
// reuses or maps afresh depending on its history, so the benchmark sets it (mallopt) and measures
// both, each against a memcpy into memory in the same state.
//
// Targets: read / memcpy <= 2 (either state); compressed read / inflate < 1.15; two threads on the
// many-mesh scene >= 1.6x one; peak <= 2.1 x body + 10 MB.
#include "support/dump_builder.hpp"
#include "support/heavy_shapes.hpp"

#include "bench_options.hpp"
#include "best_time.hpp"

#include <json_writer.hpp>
#include <table.hpp>

#include <assbin/error.hpp>
#include <assbin/reader.hpp>

#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#if ASSBIN_BENCH_LIBDEFLATE
#include <libdeflate.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using assbin::cli::JsonWriter;
using assbin::cli::Table;
using assbin_test::Bytes;

namespace {

constexpr double kMega = 1e6; // MB = 10^6 bytes throughout
constexpr double kReadOverMemcpyTarget = 2.0;
constexpr double kTwoThreadSpeedupTarget = 1.6;
constexpr uint32_t kManyMeshes = 64;
constexpr double kCompressedOverInflateTarget = 1.15;
constexpr double kPeakBodyFactor = 2.1;
constexpr uint64_t kPeakSlackBytes = 10'000'000;

using Options = assbin_test::bench::BenchOptions;
// Every timing here is the best of at least --runs runs and of 0.3 s of runs: the in-memory rows
// take milliseconds, and their ratios need more than a few runs to settle on a shared machine.
constexpr double kTimingBudgetSeconds = 0.3;
template <class Prepare, class Work>
double best_seconds(int runs, Prepare&& prepare, Work&& work) {
    return assbin_test::bench::best_seconds_within(runs, kTimingBudgetSeconds, prepare, work);
}
template <class Work>
double best_seconds(int runs, Work&& work) {
    return best_seconds(
        runs, [] {}, work);
}

[[noreturn]] void usage(int status) {
    std::fprintf(status ? stderr : stdout,
                 "usage: assbin_read_bench [--runs N] [--grid N] [--json] [--keep] [FILE [FILE]]\n"
                 "  --runs N   best of N timed runs or more: runs go on for 0.3 s (default 7)\n"
                 "  --grid N   generated grid of N x N vertices (default 700, about 31 MB)\n"
                 "  --json     print JSON instead of the table\n"
                 "  --keep     keep the generated files in the temp folder\n"
                 "  FILE       an ASSBIN dump to use instead of the generated grid; its plain or\n"
                 "             compressed twin is made when only one kind is given\n");
    std::exit(status);
}

Options parse_options(int argc, char** argv) {
    return assbin_test::bench::parse_bench_options(argc, argv, 7, 2, usage);
}

// ---------------------------------------------------------------------------------------------
// Inputs

struct Inputs {
    Bytes many_meshes; // the same grid split into kManyMeshes meshes (always generated)
    Bytes plain;       // header + body
    Bytes compressed;  // header + prefix + zlib stream
    fs::path plain_path;
    fs::path compressed_path;
    size_t body_bytes = 0;
    std::string description;
};

// `meshes` grids of n x n vertices side by side (rows of 8), one node holding them all.
assbin_test::SceneSpec grid_scene(uint32_t n, uint32_t meshes = 1) {
    assbin_test::SceneSpec scene;
    std::vector<uint32_t> mesh_indices;
    for (uint32_t i = 0; i < meshes; ++i) {
        scene.meshes.push_back(assbin_test::shapes::grid_mesh(n, 10.0f * float(i % 8), 10.0f * float(i / 8)));
        mesh_indices.push_back(i);
    }
    scene.root = assbin_test::make_node("grid", mesh_indices);
    scene.materials.push_back({{assbin_test::prop_string("?mat.name", "grid")}, std::nullopt});
    return scene;
}

void write_file(const fs::path& path, const Bytes& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

bool is_compressed(const Bytes& file) {
    return file.size() >= 516 && (static_cast<uint8_t>(file[62]) | static_cast<uint8_t>(file[63])) != 0;
}

// The inflated body of a compressed dump (its size comes from a first read of the dump).
Bytes inflate_body(const Bytes& compressed, size_t body_bytes) {
    Bytes body(body_bytes);
    uLongf produced = static_cast<uLongf>(body.size());
    const int rc = uncompress(reinterpret_cast<Bytef*>(body.data()), &produced,
                              reinterpret_cast<const Bytef*>(compressed.data() + 516),
                              static_cast<uLong>(compressed.size() - 516));
    if (rc != Z_OK || produced != body.size()) throw std::runtime_error("cannot inflate the compressed dump");
    return body;
}

Bytes with_compressed_flag(const Bytes& file, bool on) {
    Bytes header(file.begin(), file.begin() + 512);
    header[62] = std::byte{static_cast<uint8_t>(on ? 1 : 0)};
    header[63] = std::byte{0};
    return header;
}

Inputs make_inputs(const Options& o, const fs::path& temp) {
    Inputs in;
    if (o.files.empty()) {
        assbin_test::WriterProfile p = assbin_test::WriterProfile::p5();
        assbin_test::Dump dump = [&] {
            const assbin_test::SceneSpec spec = grid_scene(o.grid);
            return assbin_test::build_dump(spec, p);
        }();
        in.plain = std::move(dump.bytes);
        in.compressed =
            assbin_test::assemble(p.with_compression(assbin_test::Compression::NewPrefix), dump.body);
        in.body_bytes = dump.body.size();
        in.description = "generated " + std::to_string(o.grid) + "x" + std::to_string(o.grid) + " grid, P5";
    } else {
        for (const fs::path& path : o.files) {
            Bytes bytes = assbin::load_file_bytes(path);
            (is_compressed(bytes) ? in.compressed_path : in.plain_path) = path;
            (is_compressed(bytes) ? in.compressed : in.plain) = std::move(bytes);
        }
        const Bytes& any = in.plain.empty() ? in.compressed : in.plain;
        in.body_bytes = assbin::read_scene(any).body_bytes;
        if (in.plain.empty()) {
            Bytes body = inflate_body(in.compressed, in.body_bytes);
            in.plain = with_compressed_flag(in.compressed, false);
            in.plain.insert(in.plain.end(), body.begin(), body.end());
        }
        if (in.compressed.empty()) {
            in.compressed = with_compressed_flag(in.plain, true);
            Bytes packed = assbin_test::compress_body(std::span(in.plain).subspan(512),
                                                      assbin_test::Compression::NewPrefix);
            in.compressed.insert(in.compressed.end(), packed.begin(), packed.end());
        }
        in.description = o.files.front().filename().string();
    }
    // As many vertices as the main input's grid, in kManyMeshes meshes.
    const uint32_t side = std::max<uint32_t>(
        2, static_cast<uint32_t>(std::lround(double(o.grid) / std::sqrt(double(kManyMeshes)))));
    in.many_meshes =
        assbin_test::build_dump(grid_scene(side, kManyMeshes), assbin_test::WriterProfile::p5()).bytes;
    write_file(temp / "many.assbin", in.many_meshes); // for scripts/bench.sh's whole-process --jobs
    if (in.plain_path.empty()) {
        in.plain_path = temp / "bench.assbin";
        write_file(in.plain_path, in.plain);
    }
    if (in.compressed_path.empty()) {
        in.compressed_path = temp / "bench.z.assbin";
        write_file(in.compressed_path, in.compressed);
    }
    return in;
}

// ---------------------------------------------------------------------------------------------
// Timing

struct Timing {
    std::string name;
    double seconds = 0;
    size_t bytes = 0; // throughput is counted in body bytes for every row
    double mb_per_s() const { return static_cast<double>(bytes) / kMega / seconds; }
};

// Where glibc puts the arrays of the next reads: in memory it keeps and reuses (allocations below
// 32 MiB from the heap, whose free memory is kept), or in fresh pages: before each run every free
// page is given back (malloc_trim), and allocations of 1 MiB or more are mapped afresh.
enum class MemoryState { Reused, Fresh };
void set_memory_state(MemoryState state) {
    if (state == MemoryState::Reused) {
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
        mallopt(M_TRIM_THRESHOLD, 1 << 30);
    } else {
        mallopt(M_MMAP_THRESHOLD, 1 << 20);
        mallopt(M_TRIM_THRESHOLD, 1 << 20);
    }
}

// read_scene, the scene freed inside the timing; one untimed read first (a new thread's arena).
double time_read(int runs, const Bytes& bytes, unsigned threads, MemoryState state = MemoryState::Reused) {
    assbin::ReadOptions options;
    options.threads = threads;
    volatile size_t sink = 0;
    const auto read = [&] {
        const assbin::Scene scene = assbin::read_scene(bytes, options);
        sink = sink + scene.meshes.size();
    };
    read();
    return best_seconds(
        runs,
        [&] {
            if (state == MemoryState::Fresh) malloc_trim(0);
        },
        read);
}

// The compressed dump's body inflated by the library the reader uses (libdeflate when the build
// has it, else zlib), into a buffer it reuses.
double time_inflate(int runs, const Bytes& compressed, Bytes& target, bool with_libdeflate) {
    const auto* stream = reinterpret_cast<const Bytef*>(compressed.data() + 516);
    const size_t stream_bytes = compressed.size() - 516;
#if ASSBIN_BENCH_LIBDEFLATE
    if (with_libdeflate) {
        libdeflate_decompressor* inflater = libdeflate_alloc_decompressor();
        const double seconds = best_seconds(runs, [&] {
            size_t produced = 0;
            if (libdeflate_zlib_decompress(inflater, stream, stream_bytes, target.data(), target.size(),
                                           &produced) != LIBDEFLATE_SUCCESS)
                throw std::runtime_error("libdeflate_zlib_decompress failed");
        });
        libdeflate_free_decompressor(inflater);
        return seconds;
    }
#endif
    (void)with_libdeflate;
    return best_seconds(runs, [&] {
        uLongf produced = static_cast<uLongf>(target.size());
        if (uncompress(reinterpret_cast<Bytef*>(target.data()), &produced, stream,
                       static_cast<uLong>(stream_bytes)) != Z_OK)
            throw std::runtime_error("uncompress failed");
    });
}

constexpr bool kReaderUsesLibdeflate = ASSBIN_BENCH_LIBDEFLATE + 0 != 0;

// The fixed order of the rows, which the ratios name.
enum Row : size_t {
    kMemcpyReused,
    kReadReused,
    kMemcpyFresh,
    kReadFresh,
    kZlibInflate,
    kInflate, // the reader's own inflater: libdeflate or zlib
    kReadCompressed,
    kManyOneThread,
    kManyTwoThreads,
};

std::vector<Timing> run_timings(const Inputs& in, int runs) {
    std::vector<Timing> out;
    const std::span<const std::byte> body = std::span(in.plain).subspan(512);
    volatile uint8_t sink = 0;
    set_memory_state(MemoryState::Reused);
    Bytes target(body.size());
    out.push_back({"memcpy body, memory reused",
                   best_seconds(runs,
                                [&] {
                                    std::memcpy(target.data(), body.data(), body.size());
                                    sink = sink + static_cast<uint8_t>(target[target.size() / 2]);
                                }),
                   body.size()});
    out.push_back({"read_scene plain, memory reused", time_read(runs, in.plain, 1), body.size()});
    set_memory_state(MemoryState::Fresh);
    out.push_back({"memcpy body, fresh pages",
                   best_seconds(runs,
                                [&] {
                                    void* fresh = mmap(nullptr, body.size(), PROT_READ | PROT_WRITE,
                                                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                                    if (fresh == MAP_FAILED) throw std::runtime_error("mmap failed");
                                    std::memcpy(fresh, body.data(), body.size());
                                    sink = sink + static_cast<uint8_t>(static_cast<std::byte*>(fresh)[1]);
                                    munmap(fresh, body.size());
                                }),
                   body.size()});
    out.push_back(
        {"read_scene plain, fresh pages", time_read(runs, in.plain, 1, MemoryState::Fresh), body.size()});
    set_memory_state(MemoryState::Reused);
    out.push_back({"zlib inflate alone", time_inflate(runs, in.compressed, target, false), body.size()});
    out.push_back({kReaderUsesLibdeflate ? "libdeflate inflate alone (the reader's)"
                                         : "zlib inflate alone (the reader's)",
                   time_inflate(runs, in.compressed, target, kReaderUsesLibdeflate), body.size()});
    out.push_back({"read_scene compressed", time_read(runs, in.compressed, 1), body.size()});
    const size_t many_body = in.many_meshes.size() - 512;
    out.push_back({"read_scene " + std::to_string(kManyMeshes) + " meshes, 1 thread",
                   time_read(runs, in.many_meshes, 1), many_body});
    out.push_back({"read_scene " + std::to_string(kManyMeshes) + " meshes, 2 threads",
                   time_read(runs, in.many_meshes, 2), many_body});
    return out;
}

// ---------------------------------------------------------------------------------------------
// Peak memory of one read in a forked child

long status_kb(const char* field) {
    std::ifstream status("/proc/self/status");
    std::string line;
    const std::string prefix = std::string(field) + ":";
    while (std::getline(status, line)) {
        if (line.rfind(prefix, 0) == 0) return std::strtol(line.c_str() + prefix.size(), nullptr, 10);
    }
    return -1;
}

struct Memory {
    std::string name;
    bool ok = false;
    long baseline_kb = 0;
    long peak_kb = 0;
    std::string error;
    uint64_t delta_bytes() const {
        return peak_kb > baseline_kb ? uint64_t(peak_kb - baseline_kb) * 1024 : 0;
    }
};

// The child: a fresh exec of this program (`--child-read FILE`), so that no heap pages of the
// parent are reused unseen. Prints "baseline_kb peak_kb" after one read_file, or "error <text>".
int child_read(const char* file) {
    if (std::FILE* clear = std::fopen("/proc/self/clear_refs", "w")) { // "5" resets VmHWM
        std::fputs("5", clear);
        std::fclose(clear);
    }
    const long baseline = status_kb("VmRSS");
    try {
        const assbin::Scene scene = assbin::read_file(file);
        long peak = status_kb("VmHWM");
        if (peak < 0) {
            rusage usage{};
            getrusage(RUSAGE_SELF, &usage);
            peak = usage.ru_maxrss;
        }
        std::printf("%ld %ld %zu\n", baseline, peak, scene.nodes.size());
        return 0;
    } catch (const std::exception& e) {
        std::printf("error %s\n", e.what());
        return 1;
    }
}

Memory measure_peak(const std::string& name, const fs::path& file) {
    Memory m;
    m.name = name;
    int fds[2];
    if (pipe(fds) != 0) {
        m.error = "pipe failed";
        return m;
    }
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[1]);
        const std::string path = file.string();
        execl("/proc/self/exe", "assbin_read_bench", "--child-read", path.c_str(),
              static_cast<char*>(nullptr));
        _exit(127);
    }
    close(fds[1]);
    std::string output;
    char buffer[512];
    for (ssize_t got; pid > 0 && (got = read(fds[0], buffer, sizeof buffer)) > 0;)
        output.append(buffer, size_t(got));
    close(fds[0]);
    int status = 0;
    if (pid > 0) waitpid(pid, &status, 0);
    std::istringstream in(output);
    if (output.rfind("error ", 0) == 0) {
        m.error = output.substr(6);
    } else if (!(in >> m.baseline_kb >> m.peak_kb)) {
        m.error =
            pid > 0 ? "the child process failed (status " + std::to_string(status) + ")" : "fork failed";
    } else {
        m.ok = true;
    }
    return m;
}

// ---------------------------------------------------------------------------------------------
// Output

struct Report {
    Inputs* in;
    int runs;
    std::vector<Timing> timings;
    std::vector<Memory> memory;

    double ratio(size_t a, size_t b) const { return timings[a].seconds / timings[b].seconds; }
    uint64_t budget() const {
        return static_cast<uint64_t>(kPeakBodyFactor * double(in->body_bytes)) + kPeakSlackBytes;
    }
};

std::string fixed(double value, int decimals) {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

const char* yes_no(bool ok) {
    return ok ? "yes" : "NO";
}

// One ratio of two rows and its target: at most (times) or at least (speed-ups).
struct Ratio {
    std::string key, label;
    double value = 0, target = 0;
    bool at_least = false;
    std::string target_text;
    bool ok() const { return at_least ? value >= target : value <= target; }
};

std::vector<Ratio> ratios_of(const Report& r) {
    const auto at_most = [](double target) { return "<= " + fixed(target, 2); };
    return {
        {"read_over_memcpy", "read / memcpy, memory reused", r.ratio(kReadReused, kMemcpyReused),
         kReadOverMemcpyTarget, false, at_most(kReadOverMemcpyTarget)},
        {"read_over_memcpy_fresh", "read / memcpy, fresh pages", r.ratio(kReadFresh, kMemcpyFresh),
         kReadOverMemcpyTarget, false, at_most(kReadOverMemcpyTarget)},
        {"compressed_read_over_inflate", "compressed read / its inflate", r.ratio(kReadCompressed, kInflate),
         kCompressedOverInflateTarget, false, at_most(kCompressedOverInflateTarget)},
        {"two_threads_speedup", "many meshes: 1 thread / 2 threads", r.ratio(kManyOneThread, kManyTwoThreads),
         kTwoThreadSpeedupTarget, true, ">= " + fixed(kTwoThreadSpeedupTarget, 2)},
    };
}

void print_table(const Report& r) {
    std::printf("input: %s\n", r.in->description.c_str());
    std::printf("body %.2f MB, compressed %.2f MB, best of %d runs or more (MB = 10^6 bytes of body)\n\n",
                double(r.in->body_bytes) / kMega, double(r.in->compressed.size()) / kMega, r.runs);
    Table timings({"measurement", "best ms", "MB/s"}, "lrr");
    for (const Timing& t : r.timings)
        timings.add({t.name, fixed(t.seconds * 1e3, 3), fixed(t.mb_per_s(), 1)});
    timings.print(std::cout);
    Table ratios({"ratio", "value", "target", "ok"}, "lrrr");
    for (const Ratio& ratio : ratios_of(r))
        ratios.add({ratio.label, fixed(ratio.value, 2), ratio.target_text, yes_no(ratio.ok())});
    std::cout << "\n";
    ratios.print(std::cout);
    Table memory({"peak memory (read_file)", "baseline MB", "peak MB", "delta MB", "x body", "ok"}, "lrrrrr");
    for (const Memory& m : r.memory) {
        if (!m.ok) {
            memory.add({m.name, "failed: " + m.error});
            continue;
        }
        memory.add({m.name, fixed(m.baseline_kb * 1024 / kMega, 1), fixed(m.peak_kb * 1024 / kMega, 1),
                    fixed(double(m.delta_bytes()) / kMega, 1),
                    fixed(double(m.delta_bytes()) / double(r.in->body_bytes), 2),
                    yes_no(m.delta_bytes() <= r.budget())});
    }
    std::cout << "\n";
    memory.print(std::cout);
    std::printf("(budget: 2.1 x body + 10 MB = %.1f MB)\n", double(r.budget()) / kMega);
}

void write_ratio(JsonWriter& json, const Ratio& ratio) {
    json.key(ratio.key);
    json.begin_object();
    json.field("label", ratio.label);
    json.field("value", ratio.value);
    json.field("target", ratio.target);
    json.field("at_least", ratio.at_least);
    json.field("ok", ratio.ok());
    json.end_object();
}

void print_json(const Report& r) {
    JsonWriter json(std::cout);
    json.begin_object();
    json.field("input", r.in->description);
    json.field("body_bytes", r.in->body_bytes);
    json.field("compressed_bytes", r.in->compressed.size());
    json.field("runs", r.runs);
    json.key("timings");
    json.begin_array();
    for (const Timing& t : r.timings) {
        json.begin_object();
        json.field("name", t.name);
        json.field("seconds", t.seconds);
        json.field("mb_per_s", t.mb_per_s());
        json.end_object();
    }
    json.end_array();
    json.key("ratios");
    json.begin_object();
    for (const Ratio& ratio : ratios_of(r))
        write_ratio(json, ratio);
    json.end_object();
    json.key("peak_memory");
    json.begin_array();
    for (const Memory& m : r.memory) {
        json.begin_object();
        json.field("name", m.name);
        json.field("ok", m.ok);
        if (m.ok) {
            json.field("baseline_bytes", m.baseline_kb * 1024);
            json.field("peak_bytes", m.peak_kb * 1024);
            json.field("delta_bytes", m.delta_bytes());
            json.field("ratio_to_body", double(m.delta_bytes()) / double(r.in->body_bytes));
            json.field("budget_bytes", r.budget());
            json.field("within_budget", m.delta_bytes() <= r.budget());
        } else {
            json.field("error", m.error);
        }
        json.end_object();
    }
    json.end_array();
    json.end_object();
    json.finish();
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::strcmp(argv[1], "--child-read") == 0) return child_read(argv[2]);
    const Options options = parse_options(argc, argv);
    const fs::path temp = fs::temp_directory_path() / ("assbin_read_bench_" + std::to_string(getpid()));
    try {
        fs::create_directories(temp);
        Inputs inputs = make_inputs(options, temp);
        Report report{&inputs, options.runs, run_timings(inputs, options.runs), {}};
        report.memory.push_back(measure_peak("plain file", inputs.plain_path));
        report.memory.push_back(measure_peak("compressed file", inputs.compressed_path));
        if (options.json)
            print_json(report);
        else
            print_table(report);
        if (!options.keep)
            fs::remove_all(temp);
        else
            std::fprintf(stderr, "kept %s\n", temp.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "assbin_read_bench: %s\n", e.what());
        fs::remove_all(temp);
        return 2;
    }
    return 0;
}
