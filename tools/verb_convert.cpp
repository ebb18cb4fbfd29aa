// `assbin convert IN... [-o OUT.aem | --out-dir DIR] [options]`: full dumps to AEM models, one
// file or a whole tree of them, in parallel. Every file is reported (a summary line, its warnings,
// or the reason it failed); a failure never stops the batch, and the exit code is 1 if any failed.
#include "cli_common.hpp"
#include "conversion_record.hpp"
#include "output_target.hpp"
#include "progress_bar.hpp"
#include "read_limit_options.hpp"
#include "verbs.hpp"

#include <aem/io.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <iostream>
#include <malloc.h>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace assbin::cli {

namespace {

constexpr int kMmapThreshold = 4 << 20;       // see run_convert
constexpr int kBatchTrimThreshold = 16 << 20; // see run_convert
constexpr int kFileTrimThreshold = 4 << 20;   // see run_convert
// Converted jobs may wait to be written together while their files (models and textures) number at
// most kBatchFiles and add up to no more than kBatchBytes (beyond one job per converter thread,
// which may wait whatever its size). The file bound keeps a batch's temporaries well inside what an
// interrupt can remove (converter::remove_pending_outputs tracks 256 at once).
constexpr size_t kBatchFiles = 64;
constexpr uint64_t kBatchBytes = uint64_t{64} << 20;
// A writer is woken once this many files, or bytes, wait (or a converter needs room, or the last one
// ends), not for every file: each wake is a switch to another thread (an interrupt between a VM's
// cores), and each batch two flushes of the file system; a run of small files makes few of both.
// Files that wait longer than kWakeAfter are written anyway, so slow conversions are reported as
// they complete. Small bounds, because the models waiting hold memory: on the 163-file corpus set,
// 8 MiB made the one-job run fault in 3,800 more pages than waking for every file, 1 MiB 1,000.
constexpr size_t kWakeFiles = 16;
constexpr uint64_t kWakeBytes = uint64_t{1} << 20;
constexpr std::chrono::milliseconds kWakeAfter{50};

// The bytes a converted job writes: its model and its texture files (a model AEM cannot express,
// which writing will report, counts as a batch of its own).
uint64_t bytes_to_write(const converter::ConvertResult& result) {
    uint64_t bytes = kBatchBytes;
    try {
        bytes = result.format == converter::OutputFormat::Aem ? aem::file_size_of(result.model)
                                                              : result.encoded.size();
    } catch (const std::exception&) {
    }
    for (const converter::TextureFile& texture : result.textures)
        bytes += texture.bytes.size();
    return bytes;
}

constexpr std::string_view kUsage =
    "assbin convert IN... [-o OUT.aem|OUT.glb|OUT.gltf | --out-dir DIR] [--format aem|glb|gltf]\n"
    "                      [--uv-channel N] [--ticks-per-second F]\n"
    "                      [--crease-angle DEG] [--layout 2024|2025] [--keep-meshes] [--no-optimize]\n"
    "                      [--key-error E]\n"
    "                      [--quantize] [--meshopt] [--texture-dir DIR]... [--max-texture-size N] "
    "[--compress] "
    "[--keep-embedded-bytes]\n"
    "                      [--jobs N] [--quiet] [--skip-existing] [--json]\n\n"
    "Converts full dumps to AEM models or glTF 2.0 files. IN is a dump or a folder (searched for\n"
    "*.assbin); each output goes beside its input, under --out-dir (keeping the folder structure), or to\n"
    "-o when there is one. The format is -o's extension (.aem, .glb, .gltf), else --format (aem).\n"
    "glTF keeps the node tree, every UV and colour set, points, lines, cameras and lights; a .gltf's\n"
    ".bin and images go beside it, a .glb holds everything.\n"
    "By default the geometry is game-ready: identical vertices welded, one mesh per material,\n"
    "triangles in vertex-cache then overdraw order, vertices in first-use order (meshoptimizer).\n"
    "Each file gets a line: counts, then 'geometry: V0 -> V vertices, ACMR A0 -> A, M0 -> M meshes'\n"
    "(source order -> written; ACMR = vertices transformed per triangle, 16-entry FIFO cache).";

struct Job {
    fs::path input;
    fs::path output;
    std::string setup_error; // set when the job cannot even start (e.g. two inputs, one output)
    int setup_exit_code = kExitUnreadable;
};

struct Outcome {
    bool ok = false;
    int exit_code = kExitOk; // a failure's code, for a lone input: 1 refused, 2 unreadable, 3 not written
    bool skipped = false;    // --skip-existing: the output is up to date
    std::string error;
    converter::ConvertStats stats;
    std::vector<std::string> warnings;
    std::vector<std::string> written; // every file put in place (model, files beside it, the record)
};

// Options given on the command line (not left at their defaults) whose subject a dump may lack.
struct GivenOptions {
    bool ticks_per_second = false;
    bool crease_angle = false;
    bool keep_embedded_bytes = false;
};

// A warning for each given option this scene gives nothing to work on (an option is never silently
// idle): a rate for animations that all give their own, a crease angle where every mesh has normals,
// embedded bytes kept where no image file is embedded.
std::vector<std::string> idle_option_warnings(const Scene& scene, const GivenOptions& given) {
    std::vector<std::string> warnings;
    if (given.ticks_per_second && std::none_of(scene.animations.begin(), scene.animations.end(),
                                               [](const Animation& a) { return a.ticks_per_second == 0; })) {
        warnings.push_back(
            scene.animations.empty()
                ? "--ticks-per-second is not used: the dump has no animation"
                : "--ticks-per-second is not used: every animation gives its own ticks per second");
    }
    if (given.crease_angle && std::all_of(scene.meshes.begin(), scene.meshes.end(), [](const Mesh& mesh) {
            return mesh.normals.has_value() || !mesh.positions || mesh.positions->values.empty();
        })) {
        warnings.push_back("--crease-angle is not used: every mesh has its own normals");
    }
    if (given.keep_embedded_bytes && std::none_of(scene.textures.begin(), scene.textures.end(),
                                                  [](const Texture& t) { return t.is_compressed(); })) {
        warnings.push_back("--keep-embedded-bytes is not used: the dump embeds no image file");
    }
    return warnings;
}

struct Settings {
    converter::ConvertOptions options;
    GivenOptions given;
    ReadOptions read;
    unsigned jobs = 1;
    bool quiet = false;
    bool skip_existing = false;
    bool json = false; // the report as JSON on stdout (implies no text lines and no progress bar)
    // -o's extension names no format: a usage error, unless the output is refused as an input first.
    std::string unknown_extension;
};

// "model.fbx.assbin" -> "model.fbx.aem" (or .glb, .gltf); any other name gets the extension appended.
fs::path output_name(const fs::path& input, converter::OutputFormat format) {
    std::string name = input.filename().string();
    const std::string suffix = ".assbin";
    if (name.size() > suffix.size() && name.ends_with(suffix)) name.resize(name.size() - suffix.size());
    return fs::path(name + converter::format_extension(format));
}

// Files to convert: each file argument as given, each folder searched recursively for *.assbin
// (sorted). The output goes beside the input, under --out-dir (keeping the folder structure below
// a folder argument), or to -o.
std::vector<Job> plan_jobs(const std::vector<std::string>& inputs, const std::optional<fs::path>& out_file,
                           const std::optional<fs::path>& out_dir, converter::OutputFormat format) {
    const auto aem_name = [format](const fs::path& input) { return output_name(input, format); };
    std::vector<Job> jobs;
    for (const std::string& input : inputs) {
        std::error_code error;
        if (fs::is_directory(input, error)) {
            std::vector<fs::path> found;
            for (const auto& entry : fs::recursive_directory_iterator(input, error)) {
                if (entry.is_regular_file() && entry.path().filename().string().ends_with(".assbin"))
                    found.push_back(entry.path());
            }
            std::sort(found.begin(), found.end());
            for (const fs::path& file : found) {
                // The iterator's paths begin with `input`: the folder below it is a lexical matter
                // (fs::relative would resolve both paths on disk, a dozen system calls per file).
                const fs::path below = file.parent_path().lexically_relative(input);
                const fs::path folder = out_dir ? (*out_dir / below).lexically_normal() : file.parent_path();
                jobs.push_back({file, folder / aem_name(file), {}});
            }
            continue;
        }
        const fs::path file(input);
        jobs.push_back({file,
                        out_file  ? *out_file
                        : out_dir ? *out_dir / aem_name(file)
                                  : file.parent_path() / aem_name(file),
                        {}});
    }
    // One dump named twice (the same file by device and inode: "a.assbin ./a.assbin", a folder and a
    // file in it) is converted once.
    std::set<assbin_common::FileIdentity> seen;
    std::erase_if(jobs, [&](const Job& job) {
        const std::optional<assbin_common::FileIdentity> identity = assbin_common::file_identity(job.input);
        return identity && !seen.insert(*identity).second;
    });
    if (out_file && jobs.size() == 1) jobs.front().output = *out_file; // a folder holding one dump too
    std::map<fs::path, size_t> first_use;
    for (size_t j = 0; j < jobs.size(); ++j) {
        const auto [at, fresh] = first_use.emplace(jobs[j].output.lexically_normal(), j);
        if (!fresh) {
            jobs[j].setup_error = "its output " + jobs[j].output.string() + " is already the output of " +
                                  jobs[at->second].input.string();
        }
    }
    return jobs;
}

bool output_is_a_stream(const fs::path& output) {
    try {
        return assbin_common::output_kind(output) == assbin_common::OutputKind::Stream;
    } catch (const assbin_common::OutputRefused&) {
        return false; // refused with its reason when it is checked
    }
}

// What an output of `format` holds, for the rule on what it may replace.
assbin_common::Content output_content(converter::OutputFormat format) {
    switch (format) {
    case converter::OutputFormat::Glb:
        return assbin_common::Content::Glb;
    case converter::OutputFormat::Gltf:
        return assbin_common::Content::GltfJson;
    case converter::OutputFormat::Aem:
        break;
    }
    return assbin_common::Content::Aem;
}

// What a converted job still has to do: put its files on disk (and record them).
struct PendingWrite {
    converter::ConvertResult result;
    std::string source_key, settings_key; // --skip-existing only
    bool recorded = false;                // --skip-existing: its record was appended
};

// Reads and converts one job; everything but writing, which is left in `write` (set only when the
// conversion succeeded and there is something to write).
Outcome convert_job(const Job& job, const converter::ConvertOptions& base, const GivenOptions& given,
                    const ReadOptions& read_options, bool skip_existing, std::optional<PendingWrite>& write) {
    Outcome outcome;
    if (!job.setup_error.empty()) {
        outcome.error = job.setup_error;
        outcome.exit_code = job.setup_exit_code;
        return outcome;
    }
    try {
        std::string source_key, settings_key; // hashed only when a record is asked for
        converter::ConvertOptions options = base;
        options.texture_stem = job.output.stem().string();
        options.source_folder = job.input.parent_path();
        Scene scene;
        {
            outcome.exit_code = kExitUnreadable;
            const std::vector<std::byte> source = load_file_bytes(job.input);
            if (skip_existing) {
                source_key = content_key(source);
                settings_key = options_key(base);
            }
            if (skip_existing && output_is_up_to_date(job.output, source_key, settings_key, options)) {
                outcome.ok = outcome.skipped = true;
                return outcome;
            }
            scene = read_scene(source, read_options);
        } // the file's bytes are freed before the conversion's arrays arrive (a lower peak)
        outcome.exit_code = kExitDiffers;
        std::vector<std::string> idle = idle_option_warnings(scene, given); // before the meshes go
        write = PendingWrite{converter::convert(std::move(scene), options), std::move(source_key),
                             std::move(settings_key)};
        converter::drop_textures_for_stream(write->result, job.output); // -o /dev/null: said, not written
        for (std::string& warning : idle)
            write->result.warnings.push_back(std::move(warning));
    } catch (const ParseError& error) {
        outcome.error = parse_error_text(job.input.string(), error);
    } catch (const converter::ConvertError& error) {
        outcome.error =
            std::string("refused (") + converter::refusal_name(error.refusal()) + "): " + error.what();
    } catch (const std::exception& error) {
        outcome.error = error.what();
    }
    return outcome;
}

void fail_write(Outcome& outcome, const std::string& why) {
    outcome.error = "cannot write the output: " + why;
    outcome.exit_code = kExitCannotRun;
}

// Writes a converted job's files to temporaries in `batch` (atomically and durably once the batch
// is committed), and records the output when asked to: before it is in place, so that a batch
// killed between its renames and its records leaves no output in place unrecorded (the record
// names the output's content, which the output only has once renamed). False when writing failed
// (the outcome says why).
bool add_to_batch(const Job& job, PendingWrite& write, bool skip_existing, converter::OutputBatch& batch,
                  Outcome& outcome) {
    fs::path written;
    try {
        if (job.output.has_parent_path()) {
            std::error_code ignored; // a racing job may create it first; writing reports real failures
            fs::create_directories(job.output.parent_path(), ignored);
        }
        written = batch.add(write.result, job.output);
    } catch (const std::exception& error) {
        fail_write(outcome, error.what());
        return false;
    }
    // Once added, the output is the batch's to commit (its errors are matched to the outputs added).
    if (skip_existing && !written.empty()) { // a stream's output is not recorded: it is never up to date
        std::string why =
            record_output(job.output, written, write.result, write.source_key, write.settings_key);
        write.recorded = why.empty();
        if (!write.recorded)
            write.result.warnings.push_back(
                "not recorded for --skip-existing, so converted again next time: " + std::move(why));
    }
    return true;
}

// A job whose files the batch put in place: what it reports.
void finish_written_job(const Job& job, PendingWrite& write, bool skip_existing, Outcome& outcome) {
    outcome.ok = true;
    outcome.written.push_back(job.output.string());
    const fs::path folder = job.output.parent_path();
    for (const converter::TextureFile& file : write.result.textures) // none for a stream (dropped, said)
        outcome.written.push_back((folder / file.name).string());
    if (skip_existing && write.recorded) outcome.written.push_back(record_path(job.output).string());
    outcome.stats = write.result.stats;
    outcome.warnings = std::move(write.result.warnings);
}

// One file's line of the --json report.
struct FileRecord {
    std::string input, output;
    std::string status; // "converted", "up to date" or "failed"
    std::string error;
    int exit_code = kExitOk;
    converter::ConvertStats stats;
    std::vector<std::string> warnings;
    converter::OutputFormat format = converter::OutputFormat::Aem;
    std::vector<std::string> written;
};

struct Totals {
    size_t converted = 0, skipped = 0, failed = 0, vertices = 0, triangles = 0, bones = 0, animations = 0,
           warnings = 0;
    size_t source_vertices = 0, source_transformed = 0, transformed = 0, source_meshes = 0, meshes = 0;
    int first_failure_code = kExitOk;
    bool cannot_write = false;       // an output could not be written (exit 3 even for a batch)
    std::vector<FileRecord> records; // --json only
};

std::string acmr_text(size_t transformed, size_t triangles) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", triangles ? double(transformed) / double(triangles) : 0.0);
    return text;
}

// A measured key error (a fraction of the model's size) in two significant digits: "9.1e-05", "0".
std::string key_error_text(double error) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2g", error);
    return text;
}

// "geometry: 256 -> 128 vertices, ACMR 2.133 -> 0.733, 3 -> 1 meshes": what optimisation did.
std::string geometry_change(size_t source_vertices, size_t vertices, size_t source_transformed,
                            size_t transformed, size_t triangles, size_t source_meshes, size_t meshes) {
    return "geometry: " + with_thousands(source_vertices) + " -> " + with_thousands(vertices) +
           (vertices == 1 ? " vertex, ACMR " : " vertices, ACMR ") +
           acmr_text(source_transformed, triangles) + " -> " + acmr_text(transformed, triangles) + ", " +
           with_thousands(source_meshes) + " -> " + with_thousands(meshes) +
           (meshes == 1 ? " mesh" : " meshes");
}

// For the interrupt handler: how many outputs the run has, and how many are finished (in place, or up to
// date). Lock-free atomics, which a signal handler may read.
std::atomic<size_t> g_outputs_total{0}, g_outputs_finished{0}, g_outputs_failed{0};
static_assert(std::atomic<size_t>::is_always_lock_free);

void report_outcome(const Job& job, const Outcome& outcome, bool quiet, bool json, Totals& totals,
                    converter::OutputFormat format_of_output, double key_error) {
    (outcome.ok ? g_outputs_finished : g_outputs_failed).fetch_add(1, std::memory_order_relaxed);
    if (json) {
        totals.records.push_back({job.input.string(), job.output.string(),
                                  !outcome.ok       ? "failed"
                                  : outcome.skipped ? "up to date"
                                                    : "converted",
                                  outcome.error, outcome.ok ? kExitOk : outcome.exit_code, outcome.stats,
                                  outcome.warnings, format_of_output, outcome.written});
        quiet = true; // the text lines (errors still go to stderr)
    }
    if (!outcome.ok) {
        if (totals.failed == 0) totals.first_failure_code = outcome.exit_code;
        if (outcome.exit_code == kExitCannotRun) totals.cannot_write = true;
        ++totals.failed;
        print_error(job.input.string() + ": " + outcome.error);
        return;
    }
    if (outcome.skipped) {
        ++totals.skipped;
        if (!quiet)
            std::cout << job.input.string() << " -> " << job.output.string() << ": up to date, skipped\n";
        return;
    }
    ++totals.converted;
    const converter::ConvertStats& s = outcome.stats;
    totals.vertices += s.vertices;
    totals.triangles += s.triangles;
    totals.bones += s.bones;
    totals.animations += s.animations;
    totals.warnings += outcome.warnings.size();
    totals.source_vertices += s.source_vertices;
    totals.source_transformed += s.source_vertices_transformed;
    totals.transformed += s.vertices_transformed;
    totals.source_meshes += s.source_meshes;
    totals.meshes += s.meshes;
    if (quiet) return;
    // glTF's line names what it keeps that AEM cannot (lines, points, cameras, lights) when there are any.
    std::string kept;
    for (const auto& [count, noun] : {std::pair{s.lines, "line"}, std::pair{s.points, "point"},
                                      std::pair{s.cameras, "camera"}, std::pair{s.lights, "light"}}) {
        if (count > 0) kept += counted(count, noun) + ", ";
    }
    std::cout << job.input.string() << " -> " << job.output.string() << ": "
              << counted(s.vertices, "vertex", "vertices") << ", " << counted(s.triangles, "triangle") << ", "
              << kept << counted(s.bones, "bone") << ", " << counted(s.animations, "animation") << ", "
              << counted(outcome.warnings.size(), "warning") << "; "
              << geometry_change(s.source_vertices, s.vertices, s.source_vertices_transformed,
                                 s.vertices_transformed, s.triangles, s.source_meshes, s.meshes)
              << (key_error > 0 && s.keys + s.keys_removed > 0
                      ? "; keys: " + with_thousands(s.keys + s.keys_removed) + " -> " +
                            with_thousands(s.keys) + ", largest error " +
                            key_error_text(s.key_error_measured) + " of the model's size"
                      : std::string())
              << std::endl;
    for (const std::string& warning : outcome.warnings)
        std::cerr << "assbin: warning: " << job.input.string() << ": " << warning << "\n";
}

// The jobs' indices, largest input first (ties and unreadable inputs in input order): started in
// that order, a batch does not end with one worker converting a big file while the others wait.
std::vector<size_t> largest_first(const std::vector<Job>& jobs) {
    std::vector<uintmax_t> size(jobs.size(), 0);
    for (size_t j = 0; j < jobs.size(); ++j) {
        std::error_code error;
        const uintmax_t bytes = fs::file_size(jobs[j].input, error);
        if (!error) size[j] = bytes;
    }
    std::vector<size_t> order(jobs.size());
    for (size_t j = 0; j < order.size(); ++j)
        order[j] = j;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return size[a] > size[b]; });
    return order;
}

// Converts the jobs on `workers` threads and writes them on as many writer threads, so that the
// waits for the disk (every output is flushed before it is renamed into place) overlap the next
// files' conversions. A writer takes every converted file waiting and makes them durable together
// (converter::OutputBatch: two flushes per batch, not two per file), so a run of small files does
// not queue behind the disk one at a time; it is woken when enough wait (kWakeFiles, kWakeBytes,
// kWakeAfter). Waiting are at most `workers` converted files, or more while they are small
// (kBatchFiles, kBatchBytes). Reports the jobs in input order as they complete (they start largest
// first).
class JobRunner {
  public:
    JobRunner(const std::vector<Job>& jobs, const Settings& settings)
        : jobs_(jobs), settings_(settings), options_(settings.options), read_(settings.read),
          outcomes_(jobs.size()), workers_(std::min<size_t>(settings.jobs, jobs.size())) {
        // One file gets the threads for reading its meshes, converting them and its own texture
        // work; a batch spreads them over files instead.
        if (jobs.size() == 1) {
            options_.threads = settings.jobs; // baking, skinning and tangent frames of a big mesh
            options_.texture_threads = settings.jobs;
            read_.threads = settings.jobs;
        }
    }

    Totals run() {
        order_ = largest_first(jobs_);
        converting_ = workers_;
        std::vector<std::thread> threads;
        for (size_t w = 0; w < workers_; ++w) {
            threads.emplace_back([this] { convert_jobs(); });
            threads.emplace_back([this] { write_jobs(); });
        }
        const ProgressBar bar(jobs_.size(), !settings_.quiet && !settings_.json);
        Totals totals;
        bar.draw(0, 0);
        for (size_t j = 0; j < jobs_.size(); ++j) {
            std::unique_lock lock(mutex_);
            outcome_ready_.wait(lock, [&] { return outcomes_[j].has_value(); });
            const Outcome outcome = std::move(*outcomes_[j]);
            outcomes_[j].reset();
            lock.unlock();
            bar.clear();
            report_outcome(jobs_[j], outcome, settings_.quiet, settings_.json, totals,
                           settings_.options.format, settings_.options.key_error);
            bar.draw(j + 1, totals.failed);
        }
        bar.clear();
        for (std::thread& thread : threads)
            thread.join();
        return totals;
    }

  private:
    struct Converted {
        size_t job;
        Outcome outcome;
        PendingWrite write;
        uint64_t bytes = 0; // what the job will write
        size_t files = 0;   // and in how many files
    };

    // Whether a converted job writing `files` files of `bytes` in all may join those waiting.
    bool room_for(uint64_t bytes, size_t files) const {
        return to_write_.size() < workers_ ||
               (waiting_files_ + files <= kBatchFiles && waiting_bytes_ + bytes <= kBatchBytes);
    }

    // Whether the files waiting are enough to write (see kWakeFiles), or must be written now.
    bool batch_due() const {
        return !to_write_.empty() && (waiting_files_ >= kWakeFiles || waiting_bytes_ >= kWakeBytes ||
                                      converters_waiting_ > 0 || converting_ == 0);
    }

    void convert_jobs() {
        for (size_t n = next_++; n < jobs_.size(); n = next_++) {
            const size_t j = order_[n];
            std::optional<PendingWrite> write;
            Outcome outcome =
                convert_job(jobs_[j], options_, settings_.given, read_, settings_.skip_existing, write);
            const uint64_t bytes = write ? bytes_to_write(write->result) : 0;
            const size_t files = write ? 1 + write->result.textures.size() : 0;
            std::unique_lock lock(mutex_);
            if (write) {
                if (!room_for(bytes, files)) {
                    ++converters_waiting_; // makes the batch due: a writer must make room
                    batch_ready_.notify_one();
                    room_.wait(lock, [&] { return room_for(bytes, files); });
                    --converters_waiting_;
                }
                if (to_write_.empty()) first_waiting_since_ = std::chrono::steady_clock::now();
                to_write_.push_back({j, std::move(outcome), std::move(*write), bytes, files});
                waiting_bytes_ += bytes;
                waiting_files_ += files;
                if (batch_due()) batch_ready_.notify_one();
            } else {
                outcomes_[j] = std::move(outcome);
                outcome_ready_.notify_one();
            }
        }
        const std::lock_guard lock(mutex_);
        --converting_;
        if (converting_ == 0) batch_ready_.notify_all(); // the rest is due, and the writers may end
    }

    // Waits until the files waiting are due, or have waited kWakeAfter; false when no file is left
    // to write.
    bool wait_for_batch(std::unique_lock<std::mutex>& lock) {
        for (;;) {
            if (batch_due()) return true;
            if (to_write_.empty()) {
                if (converting_ == 0) return false;
                batch_ready_.wait(lock);
                continue;
            }
            const auto deadline = first_waiting_since_ + kWakeAfter;
            if (std::chrono::steady_clock::now() >= deadline) return true;
            batch_ready_.wait_until(lock, deadline);
        }
    }

    void write_jobs() {
        for (;;) {
            std::unique_lock lock(mutex_);
            if (!wait_for_batch(lock)) return;
            std::vector<Converted> batch;
            while (!to_write_.empty()) {
                batch.push_back(std::move(to_write_.front()));
                to_write_.pop_front();
            }
            waiting_bytes_ = 0;
            waiting_files_ = 0;
            if (converters_waiting_ > 0) room_.notify_all();
            lock.unlock();
            write_batch(batch);
            lock.lock();
            for (Converted& converted : batch)
                outcomes_[converted.job] = std::move(converted.outcome);
            outcome_ready_.notify_one();
        }
    }

    // Every file of the batch to its temporary, then all of them made durable and put in place.
    void write_batch(std::vector<Converted>& batch) {
        converter::OutputBatch output;
        std::vector<Converted*> added;
        for (Converted& converted : batch) {
            if (add_to_batch(jobs_[converted.job], converted.write, settings_.skip_existing, output,
                             converted.outcome))
                added.push_back(&converted);
        }
        const std::vector<std::string> errors = output.commit();
        for (size_t k = 0; k < added.size(); ++k) {
            Converted& converted = *added[k];
            if (errors[k].empty()) {
                finish_written_job(jobs_[converted.job], converted.write, settings_.skip_existing,
                                   converted.outcome);
            } else {
                fail_write(converted.outcome, errors[k]);
            }
        }
        for (Converted& converted : batch)
            converted.write = {}; // the models' memory goes before the lock is taken
    }

    const std::vector<Job>& jobs_;
    const Settings& settings_;
    converter::ConvertOptions options_;
    ReadOptions read_;
    std::vector<std::optional<Outcome>> outcomes_;
    const size_t workers_;
    std::vector<size_t> order_; // the jobs in the order they are started: largest input first
    std::atomic<size_t> next_{0};
    std::mutex mutex_;
    std::condition_variable outcome_ready_; // the reporter's: an outcome
    std::condition_variable batch_ready_;   // the writers': a batch due (batch_due), or the end
    std::condition_variable room_;          // the converters': room to hand a converted job over
    std::deque<Converted> to_write_;
    uint64_t waiting_bytes_ = 0; // of the jobs in to_write_
    size_t waiting_files_ = 0;
    size_t converting_ = 0;                                     // converter threads still running
    size_t converters_waiting_ = 0;                             // for room to hand a converted job over
    std::chrono::steady_clock::time_point first_waiting_since_; // of the jobs in to_write_
};

Totals run_jobs(const std::vector<Job>& jobs, const Settings& settings) {
    return JobRunner(jobs, settings).run();
}

// What a model could not hold, with counts (each also a warning): the --json report's "dropped".
void write_dropped_json(JsonWriter& json, const converter::ConvertStats& s) {
    using Stats = converter::ConvertStats;
    static constexpr std::pair<const char*, size_t Stats::*> kDropped[] = {
        {"points", &Stats::points_dropped},
        {"lines", &Stats::lines_dropped},
        {"colour_sets", &Stats::colour_sets_dropped},
        {"uv_channels", &Stats::uv_channels_dropped},
        {"cameras", &Stats::cameras_dropped},
        {"lights", &Stats::lights_dropped},
        {"texture_slots", &Stats::texture_slots_dropped},
        {"vertices_past_four_influences", &Stats::vertices_lost_influences},
        {"empty_faces", &Stats::empty_faces},
        {"faces_out_of_range", &Stats::faces_out_of_range},
        {"faces_non_finite", &Stats::faces_non_finite},
    };
    json.key("dropped");
    json.begin_object();
    for (const auto& [name, member] : kDropped)
        json.field(name, s.*member);
    json.end_object();
}

void print_json_report(const Totals& totals, double seconds, double key_error) {
    JsonWriter json(std::cout);
    json.begin_object();
    json.key("files");
    json.begin_array();
    for (const FileRecord& record : totals.records) {
        json.begin_object();
        json.field("input", record.input);
        json.field("output", record.output);
        json.field("status", record.status);
        if (record.status == "failed") {
            json.field("error", record.error);
            json.field("exit_code", record.exit_code);
        }
        if (record.status == "converted") {
            json.key("written"); // every file this conversion put in place, the output first
            json.begin_array();
            for (const std::string& file : record.written)
                json.value(file);
            json.end_array();
            const converter::ConvertStats& s = record.stats;
            json.field("format", converter::format_name(record.format));
            json.field("vertices", s.vertices);
            json.field("triangles", s.triangles);
            if (record.format != converter::OutputFormat::Aem) {
                json.field("lines", s.lines);
                json.field("points", s.points);
                json.field("cameras", s.cameras);
                json.field("lights", s.lights);
                json.field("nodes", s.nodes);
            }
            json.field("meshes", s.meshes);
            json.field("bones", s.bones);
            json.field("animations", s.animations);
            if (key_error > 0) { // the keys before and after --key-error (absent without it)
                json.field("keys_before", s.keys + s.keys_removed);
                json.field("keys", s.keys);
                json.field("key_error_measured", s.key_error_measured);
            }
            json.field("textures_written", s.textures_written);
            json.field("source_vertices", s.source_vertices);
            json.field("source_meshes", s.source_meshes);
            write_dropped_json(json, s);
            json.key("warnings");
            json.begin_array();
            for (const std::string& warning : record.warnings)
                json.value(warning);
            json.end_array();
        }
        json.end_object();
    }
    json.end_array();
    json.key("totals");
    json.begin_object();
    json.field("converted", totals.converted);
    json.field("up_to_date", totals.skipped);
    json.field("failed", totals.failed);
    json.field("vertices", totals.vertices);
    json.field("triangles", totals.triangles);
    json.field("warnings", totals.warnings);
    json.field("seconds", seconds);
    json.end_object();
    json.end_object();
    json.finish();
}

po::options_description describe_options() {
    // Program_Options prints the caption above the options: what the output says goes there.
    po::options_description options("options");
    options.add_options()("help,h", "show this help")(
        "output,o", po::value<std::string>(),
        "the file to write (one input only); its extension chooses the format: .aem, .glb or .gltf")(
        "out-dir", po::value<std::string>(), "folder for the outputs (default: beside each input)")(
        "format", po::value<std::string>(),
        "aem (the default), glb (glTF 2.0, one binary file) or gltf (glTF 2.0 text with its .bin and "
        "images beside it): the format of outputs named by their input (--out-dir, or beside it)")(
        "uv-channel", po::value<long>()->default_value(0),
        "UV channel to write, 0..7 (a mesh without it: a warning naming the channels it has)")(
        "ticks-per-second", po::value<double>()->default_value(25.0),
        "playback rate for animations that give 0 ticks per second")(
        "crease-angle", po::value<double>()->default_value(60.0),
        "generated normals are split where faces meet at more than DEG degrees, 0..180")(
        "key-error", po::value<double>()->value_name("E"),
        "animation keys are removed while no vertex moves more than E x the model's size (its bounding "
        "box's diagonal at rest) at any key time, 0..0.1 (0: every key kept, the default; 1e-4 with "
        "--quantize)")(
        "layout", po::value<std::string>()->default_value("2024"),
        "AEM layout: 2024 (the specification this project implements) or 2025 (what today's AEM runtime, "
        "viewer and game load: named joints, tracks, textures stored as pixels)")(
        "texture-dir", po::value<std::vector<std::string>>()->composing(),
        "2025 layout and glTF: a folder to look for external textures in, after the dump's own folder "
        "(repeatable)")(
        "max-texture-size", po::value<long>()->default_value(0),
        "2025 layout: resize textures to powers of two no larger than N (0: keep their size)")(
        "compress",
        "2025 layout: block-compress every texture level: normal maps as BC5, base colour and PBR "
        "as BC7 (4 times smaller than RGBA)")(
        "quantize",
        "glTF: KHR_mesh_quantization (gltfpack's bit counts): positions 14-bit, normals and tangents 8-bit, "
        "UVs 12-bit, colours 8-bit, weights 16-bit")(
        "meshopt", "glTF: EXT_meshopt_compression (meshoptimizer's encoders over vertex and index buffers; "
                   "viewers need its decoder)")(
        "keep-meshes", "one AEM mesh per (node, mesh) of the dump instead of one per material")(
        "no-optimize", "no weld, no reordering, one mesh per (node, mesh): vertices and triangles in the "
                       "dump's order (for debugging a pose against the source)")(
        "keep-embedded-bytes",
        "2024 layout: write compressed embedded textures byte for byte instead of as PNG")(
        "jobs,j", po::value<long>(),
        "files converted in parallel; one file alone: threads that read its meshes and convert it "
        "(default: the number of cores)")(
        "skip-existing",
        "skip an input whose output is up to date: recorded (in the output folder's .assbin-convert.log) as "
        "converted from a source of the same content with the same options, with every image it looked for "
        "as it was (the same content, or still missing), and unchanged since; an interrupted batch run "
        "again redoes only what is missing or stale")("quiet,q", "print only errors")(
        "json", "print the report as JSON: per file its status, counts, what the model could not hold "
                "(\"dropped\") and its warnings; then the totals");
    options.add(read_limit_options());
    return options;
}

// Range checks and conflicts the parser cannot express; prints the problem and returns nullopt.
std::optional<Settings> settings_from(const po::variables_map& vm) {
    const auto refuse = [](const std::string& what) {
        usage_error(what, kUsage);
        return std::optional<Settings>();
    };
    Settings settings;
    const long uv = vm["uv-channel"].as<long>();
    const double tps = vm["ticks-per-second"].as<double>();
    const double crease = vm["crease-angle"].as<double>();
    if (uv < 0 || uv > 7) return refuse("--uv-channel must be 0..7");
    if (!std::isfinite(tps) || tps <= 0) return refuse("--ticks-per-second must be a positive number");
    if (!(crease >= 0 && crease <= 180)) return refuse("--crease-angle must be 0..180");
    // --quantize trades exactness for bytes already: it reduces keys too unless told otherwise.
    const double key_error = vm.count("key-error")  ? vm["key-error"].as<double>()
                             : vm.count("quantize") ? converter::kQuantizedKeyError
                                                    : 0.0;
    if (!(key_error >= 0 && key_error <= 0.1))
        return refuse("--key-error must be 0..0.1 (a fraction of the model's size, such as 1e-4)");
    if (vm.count("output") && vm.count("out-dir")) return refuse("-o and --out-dir exclude each other");
    std::optional<converter::OutputFormat> format;
    if (vm.count("format")) {
        std::string name = vm["format"].as<std::string>(); // any case, as -o x.GLB is taken
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        for (const auto candidate :
             {converter::OutputFormat::Aem, converter::OutputFormat::Glb, converter::OutputFormat::Gltf}) {
            if (name == converter::format_name(candidate)) format = candidate;
        }
        if (!format) return refuse("--format must be aem, glb or gltf");
    }
    if (vm.count("output")) {
        // The extension chooses the format; a name without one (a device such as /dev/null) takes --format.
        const fs::path output = vm["output"].as<std::string>();
        const std::optional<converter::OutputFormat> named = converter::format_of_file_name(output);
        bool stream = false; // an existing device or FIFO (-o /dev/null) is written into whatever its name
        try {
            stream = assbin_common::output_kind(output) == assbin_common::OutputKind::Stream;
        } catch (const assbin_common::OutputRefused&) {
        }
        if (!named && output.has_extension() && !stream) { // refused once the input rule has spoken
            settings.unknown_extension = "-o " + output.string() + ": the extension " +
                                         output.extension().string() +
                                         " names no format convert writes; use .aem, .glb or .gltf";
        }
        if (named && format && *named != *format) {
            return refuse(std::string("-o ") + output.string() + " is a " + converter::format_name(*named) +
                          " file, but --format says " + converter::format_name(*format));
        }
        if (named) format = named;
    }
    settings.options.format = format.value_or(converter::OutputFormat::Aem);
    const bool gltf = settings.options.format != converter::OutputFormat::Aem;
    settings.options.quantize = vm.count("quantize") > 0;
    settings.options.meshopt = vm.count("meshopt") > 0;
    if (settings.options.meshopt && !gltf)
        return refuse("--meshopt is a glTF option (EXT_meshopt_compression): write .glb or .gltf");
    if (settings.options.quantize && !gltf)
        return refuse("--quantize is a glTF option (KHR_mesh_quantization): write .glb or .gltf");
    // AEM's options are refused for glTF, where they would silently do nothing.
    for (const char* option : {"layout", "compress", "max-texture-size", "keep-embedded-bytes", "keep-meshes",
                               "uv-channel", "crease-angle"}) {
        if (gltf && vm.count(option) && !vm[option].defaulted()) {
            return refuse(std::string("--") + option + " is an AEM option; glTF " +
                          (std::string(option) == "uv-channel" ? "keeps every UV channel"
                           : std::string(option) == "crease-angle"
                               ? "generates no normals (viewers make flat ones)"
                               : "has no such choice"));
        }
    }
    settings.options.uv_channel = static_cast<uint32_t>(uv);
    settings.options.default_ticks_per_second = tps;
    settings.options.crease_angle_degrees = static_cast<float>(crease);
    settings.options.key_error = key_error;
    settings.options.keep_embedded_bytes = vm.count("keep-embedded-bytes") > 0;
    settings.given.ticks_per_second = !vm["ticks-per-second"].defaulted();
    settings.given.crease_angle = !vm["crease-angle"].defaulted();
    settings.given.keep_embedded_bytes = settings.options.keep_embedded_bytes;
    settings.options.keep_meshes = vm.count("keep-meshes") > 0;
    const std::string layout = vm["layout"].as<std::string>();
    if (layout != "2024" && layout != "2025") return refuse("--layout must be 2024 or 2025");
    settings.options.layout = layout == "2025" ? aem::Layout::Edition2025 : aem::Layout::Edition2024;
    if (vm.count("texture-dir")) {
        for (const std::string& folder : vm["texture-dir"].as<std::vector<std::string>>())
            settings.options.texture_folders.emplace_back(folder);
    }
    const long max_size = vm["max-texture-size"].as<long>();
    if (max_size < 0 || max_size > 65536) return refuse("--max-texture-size must be 0..65536");
    settings.options.max_texture_size = static_cast<uint32_t>(max_size);
    settings.options.compress_textures = vm.count("compress") > 0;
    // Options of one layout are refused with the other, where they would silently do nothing.
    const bool layout_2025 = settings.options.layout == aem::Layout::Edition2025;
    for (const char* option : {"compress", "max-texture-size", "texture-dir"}) {
        if (!layout_2025 && !gltf && vm.count(option) && !vm[option].defaulted()) {
            return refuse(std::string("--") + option +
                          " works on the 2025 layout's textures (stored as pixels); the 2024 layout "
                          "names texture files: add --layout 2025");
        }
    }
    if (layout_2025 && vm.count("keep-embedded-bytes"))
        return refuse("--keep-embedded-bytes keeps files beside a 2024 model; the 2025 layout stores pixels");
    if (vm.count("keep-meshes") && vm.count("no-optimize"))
        return refuse(
            "--keep-meshes is part of --no-optimize (one mesh per node and mesh): give one of them");
    for (const fs::path& folder : settings.options.texture_folders) {
        std::error_code error;
        if (!fs::is_directory(folder, error))
            return refuse("--texture-dir " + folder.string() +
                          (fs::exists(folder, error) ? ": is a file, not a folder" : ": no such folder"));
    }
    settings.options.optimize = vm.count("no-optimize") == 0;
    settings.quiet = vm.count("quiet") > 0;
    settings.json = vm.count("json") > 0;
    settings.skip_existing = vm.count("skip-existing") > 0;
    const std::optional<unsigned> jobs = jobs_from(vm);
    if (!jobs) return refuse("--jobs must be 1..1024");
    settings.jobs = *jobs;
    settings.read = read_options_from(vm);
    return settings;
}

} // namespace

namespace {

// Appends the decimal digits of `value` (async-signal-safe: no allocation, no locale).
char* append_number(char* at, size_t value) {
    char digits[24];
    int n = 0;
    do {
        digits[n++] = static_cast<char>('0' + value % 10);
        value /= 10;
    } while (value > 0);
    while (n > 0)
        *at++ = digits[--n];
    return at;
}

char* append_text(char* at, const char* text) {
    while (*text)
        *at++ = *text++;
    return at;
}

// An interrupted batch removes the temporaries being written, says what was finished and what was
// not (everything finished is complete and in place), then dies of the same signal (130 after
// SIGINT, 143 after SIGTERM, as the shell reports a death by signal).
void remove_outputs_and_reraise(int signal_number) {
    assbin::converter::remove_pending_outputs();
    char line[256];
    char* at = append_text(line, "\nassbin: interrupted: ");
    const size_t finished = g_outputs_finished.load(), failed = g_outputs_failed.load();
    const size_t total = g_outputs_total.load();
    at = append_number(at, finished);
    at = append_text(at, " of ");
    at = append_number(at, total);
    at = append_text(at, " outputs finished and in place");
    if (failed > 0) {
        at = append_text(at, ", ");
        at = append_number(at, failed);
        at = append_text(at, " failed");
    }
    at = append_text(at, ", ");
    at = append_number(at, total > finished + failed ? total - finished - failed : 0);
    at = append_text(at,
                     " not converted (no partial file is left); run again with --skip-existing to go on\n");
    [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, line, static_cast<size_t>(at - line));
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
}

void remove_partial_outputs_on_interrupt() {
    for (int signal_number : {SIGINT, SIGTERM, SIGHUP})
        std::signal(signal_number, remove_outputs_and_reraise);
}

} // namespace

int run_convert(const std::vector<std::string>& args) {
    const po::options_description options = describe_options();
    int exit_code = kExitOk;
    const auto vm =
        parse_verb_arguments(args, {"convert", kUsage, {{"input", "IN", true}}}, options, &exit_code);
    if (!vm) return exit_code;
    const std::optional<Settings> settings = settings_from(*vm);
    if (!settings) return kExitUnreadable;
    remove_partial_outputs_on_interrupt();
    // A conversion's big arrays (per corner, per triangle) are allocated and freed stage after
    // stage. glibc raises its mmap threshold to the size of each large block freed, so the next
    // ones come from the heap and what is freed stays resident: the peak then holds arrays no
    // longer in use. A fixed threshold hands blocks of 4 MiB and more back to the kernel when
    // freed (the 977k-triangle grid: 181 MB -> 151 MB at the peak, for up to 5% more time spent
    // on fresh pages). The program's operator new (huge_page_new.cpp) asks for huge pages for such
    // blocks, so that a fault brings in 2 MiB of them.
    mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
    std::optional<fs::path> out_file, out_dir;
    if (vm->count("output")) out_file = vm->at("output").as<std::string>();
    if (vm->count("out-dir")) out_dir = vm->at("out-dir").as<std::string>();

    const std::vector<std::string> inputs = vm->at("input").as<std::vector<std::string>>();
    const ReportsOffStandardOutput reports(out_file ? std::vector<fs::path>{*out_file}
                                                    : std::vector<fs::path>{});
    if (out_file && settings->options.format == converter::OutputFormat::Gltf &&
        output_is_a_stream(*out_file)) {
        print_error("cannot write the output: " + out_file->string() +
                    ": a .gltf names its .bin and images, which go beside it, and a stream has no folder to "
                    "hold them; write --format glb (one file) to a stream");
        return kExitCannotRun;
    }
    std::vector<Job> jobs = plan_jobs(inputs, out_file, out_dir, settings->options.format);
    // No output replaces an input (common/output_target.hpp): checked for every job before any is
    // read, and by every file opened for writing while `run_inputs` lives (textures too).
    std::vector<fs::path> read_files;
    for (const Job& job : jobs)
        read_files.push_back(job.input);
    const assbin_common::InputFiles run_inputs(read_files);
    for (Job& job : jobs) {
        if (!job.setup_error.empty()) continue;
        try {
            assbin_common::refuse_input_as_output(job.output, run_inputs);
            if (assbin_common::output_kind(job.output) == assbin_common::OutputKind::File)
                assbin_common::refuse_other_content(job.output, output_content(settings->options.format),
                                                    "convert");
        } catch (const assbin_common::OutputRefused& refused) {
            job.setup_error = std::string("cannot write the output: ") + refused.what();
            job.setup_exit_code = kExitCannotRun;
        }
    }
    if (!settings->unknown_extension.empty() &&
        std::none_of(jobs.begin(), jobs.end(), [](const Job& job) { return !job.setup_error.empty(); }))
        return usage_error(settings->unknown_extension, kUsage);
    if (jobs.empty()) {
        print_error("no *.assbin file found in the given folders (shortened .assbin.regress dumps cannot be "
                    "converted)");
        return kExitUnreadable;
    }
    // glibc gives the free memory at the top of a heap back to the kernel once it passes 128 KiB,
    // and the next arrays fault it in again, page by page (each fresh page cost about 3 us of
    // kernel time on the VM this was measured on). Blocks of 4 MiB and more go back when freed
    // whatever this says (kMmapThreshold). Between the files of a batch, keeping up to 16 MiB took
    // the 163-file corpus set from 20,200 to 11,600 faults with one job (18,400 with two, from
    // 24,800), for a peak 4 MiB higher. Within one file the stages free and allocate arrays of a
    // few MiB in turn: keeping up to 4 MiB took the 977k-triangle grid from 16,900 to 9,700 faults
    // with one thread (wall 1.48 -> 1.38 s, means of 8 alternating rounds) and from 19,700 to
    // 15,000 with two (time unchanged), for peaks 3.4 and 2.8 MiB higher (16 MiB on two threads,
    // a heap each: 13 MiB higher, and more faults); the 3M-triangle disc 34,700 -> 19,400 faults.
    mallopt(M_TRIM_THRESHOLD, jobs.size() > 1 ? kBatchTrimThreshold : kFileTrimThreshold);
    if (out_file && jobs.size() != 1) {
        // The way out keeps the format -o asked for: --out-dir alone would write AEM.
        const std::optional<converter::OutputFormat> asked = converter::format_of_file_name(*out_file);
        return usage_error("-o names one output, but the inputs hold " + with_thousands(jobs.size()) +
                               " dumps; use --out-dir DIR" +
                               (asked && *asked != converter::OutputFormat::Aem
                                    ? std::string(" --format ") + converter::format_name(*asked)
                                    : std::string()) +
                               " to write one per dump",
                           kUsage);
    }
    std::error_code error;
    const bool lone_file = inputs.size() == 1 && !fs::is_directory(inputs.front(), error);
    std::set<fs::path> folders; // where an interrupted run may have left temporaries
    for (const Job& job : jobs)
        folders.insert(job.output.has_parent_path() ? job.output.parent_path() : fs::path("."));
    for (const fs::path& folder : folders) {
        const size_t removed = remove_stale_temporaries(folder);
        if (removed > 0 && !settings->quiet) {
            std::cerr << "assbin: removed " << counted(removed, "temporary file") << " left in "
                      << folder.string() << " by an interrupted run\n";
        }
    }
    g_outputs_total.store(jobs.size());
    const auto start = std::chrono::steady_clock::now();
    const Totals totals = run_jobs(jobs, *settings);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (settings->json) {
        print_json_report(totals, seconds, settings->options.key_error);
    } else if (jobs.size() > 1 && !settings->quiet) {
        char time[32];
        std::snprintf(time, sizeof time, "%.2f", seconds);
        std::cout << "total: " << with_thousands(totals.converted) << " converted, "
                  << (totals.skipped ? with_thousands(totals.skipped) + " up to date, " : std::string())
                  << with_thousands(totals.failed) << " failed";
        if (totals.converted > 0) { // what was converted; an all-skipped run has nothing to sum
            std::cout << "; " << counted(totals.vertices, "vertex", "vertices") << ", "
                      << counted(totals.triangles, "triangle") << ", " << counted(totals.bones, "bone")
                      << ", " << counted(totals.animations, "animation") << ", "
                      << counted(totals.warnings, "warning");
        }
        std::cout << " in " << time << " s";
        if (totals.converted > 0) {
            std::cout << "; "
                      << geometry_change(totals.source_vertices, totals.vertices, totals.source_transformed,
                                         totals.transformed, totals.triangles, totals.source_meshes,
                                         totals.meshes);
        }
        std::cout << std::endl;
    }
    if (totals.failed == 0) return kExitOk;
    // An output that could not be written (a full disk) is 3 in a batch too, as --help says.
    if (totals.cannot_write) return kExitCannotRun;
    return lone_file ? totals.first_failure_code : kExitDiffers;
}

} // namespace assbin::cli
