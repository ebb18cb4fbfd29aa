// `assbin dump IN OUT [--compressed] [--shortened] [--source-name TEXT]`: reads a dump of any
// layout and writes it again in the current Assimp layout, full, shortened or compressed. The output
// appears atomically (temporary file, fsync, rename); the input is never modified. IN and OUT may be
// folders: every dump under IN is written to the same relative path under OUT, and empty files
// (a regression database's expected-failure markers) are written empty, so
// `assbin dump --shortened FULL_DUMPS/ DATABASE/` regenerates a database `assbin cmp` can use.
#include "atomic_file.hpp"
#include "cli_common.hpp"
#include "json_writer.hpp"
#include "output_target.hpp"
#include "progress_bar.hpp"
#include "read_limit_options.hpp"
#include "sigbus_guard.hpp"
#include "verbs.hpp"

#include <assbin/reader.hpp>
#include <assbin/writer.hpp>

#include <assbin/format.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace assbin::cli {

namespace {

constexpr std::string_view kUsage =
    "assbin dump IN OUT [--compressed] [--shortened] [--source-name TEXT] [--json]\n\n"
    "Rewrites a dump of any Assimp version in the current layout. IN and OUT are two files, a file and\n"
    "an existing folder (OUT/<IN's name>), or two folders: every dump under IN written to the same\n"
    "relative path under OUT (empty files, expected-failure markers, stay empty; a failed file does not\n"
    "stop the others; a progress bar on a terminal).";

// Assimp's command field holds the arguments after the file names, each followed by a space.
std::string command_field(const std::vector<std::string>& args, const std::string& in,
                          const std::string& out) {
    std::string command;
    bool skipped_in = false, skipped_out = false;
    for (const std::string& arg : args) {
        if (!skipped_in && arg == in)
            skipped_in = true;
        else if (!skipped_out && arg == out)
            skipped_out = true;
        else if (arg == "--json") // how the run reports, not how the dump was made
            continue;
        else
            command += arg + " ";
    }
    return command;
}

std::string kind_text(const WriteOptions& options) {
    std::string text = options.shortened ? "shortened" : "full";
    if (options.compressed) text += ", compressed";
    return text;
}

// One file's outcome, for the report: a line, or an entry of --json.
struct DumpRecord {
    std::string input, output;
    std::string status; // "written", "empty marker" or "failed"
    std::string error;
    int exit_code = kExitOk;
    std::string written_as; // "full", "shortened, compressed", ...
};

// The run's report: each file's line as it is done (or an error), or with --json one document at
// the end on stdout (stderr when the dump itself goes to stdout).
class DumpReport {
  public:
    DumpReport(bool json, const ProgressBar& bar) : json_(json), bar_(bar) {}

    void add(DumpRecord record, const std::string& line) {
        if (!json_) {
            bar_.clear();
            if (record.exit_code != kExitOk)
                print_error(record.error);
            else if (!line.empty())
                std::cout << line << std::endl;
        }
        records_.push_back(std::move(record));
    }

    // Prints the --json document (nothing without --json).
    void finish() const {
        if (!json_) return;
        JsonWriter json(std::cout);
        json.begin_object();
        json.key("files");
        json.begin_array();
        size_t written = 0, markers = 0, failed = 0;
        for (const DumpRecord& record : records_) {
            json.begin_object();
            json.field("input", record.input);
            json.field("output", record.output);
            json.field("status", record.status);
            if (record.exit_code != kExitOk) {
                json.field("error", record.error);
                json.field("exit_code", record.exit_code);
            } else if (!record.written_as.empty()) {
                json.field("written_as", record.written_as);
            }
            json.end_object();
            (record.exit_code != kExitOk ? failed : record.status == "written" ? written : markers) += 1;
        }
        json.end_array();
        json.key("written"); // every file put in place (a stream or a device is written into, not placed)
        json.begin_array();
        for (const DumpRecord& record : records_) {
            if (record.exit_code == kExitOk &&
                assbin_common::output_kind(record.output) == assbin_common::OutputKind::File)
                json.value(record.output);
        }
        json.end_array();
        json.key("totals");
        json.begin_object();
        json.field("written", written);
        json.field("empty_markers", markers);
        json.field("failed", failed);
        json.end_object();
        json.end_object();
        json.finish();
    }

  private:
    bool json_;
    const ProgressBar& bar_;
    std::vector<DumpRecord> records_;
};

// Reads `in` and writes `out`; the exit code: 2 unreadable, 1 a shortened dump asked to be full,
// 3 the output cannot be written (each reported).
int dump_one(const std::string& in, const std::string& out, const WriteOptions& write_options,
             const ReadOptions& read_options, DumpReport& report) {
    DumpRecord record{in, out, "failed", "", kExitOk, ""};
    const auto fail = [&](int code, std::string why) {
        record.exit_code = code;
        record.error = std::move(why);
        report.add(record, "");
        return code;
    };
    try {
        note_mapped_input(in);
        const Scene scene = read_file(in, read_options);
        if (scene.is_shortened() && !write_options.shortened) {
            return fail(kExitDiffers,
                        in + ": is a shortened dump (bounds and face hashes only), so it cannot be written as a "
                             "full dump; pass --shortened to rewrite it shortened");
        }
        make_output_folder(out);
        write_file(scene, out, write_options);
        record.status = "written";
        record.written_as = kind_text(write_options);
        report.add(record, "wrote " + out + " (" + kind_text(write_options) + ", current Assimp layout) from " + in +
                               " (" + (scene.is_shortened() ? "shortened" : "full") + ", " +
                               writer_profile(scene) + ")");
        return kExitOk;
    } catch (const ParseError& error) {
        return fail(kExitUnreadable, in + ": " + parse_error_text(in, error));
    } catch (const WriteError& error) {
        // File errors name the output already; scene errors name the scene path.
        return fail(error.path() == out ? kExitCannotRun : kExitDiffers,
                    error.path() == out ? std::string(error.what()) : out + ": " + error.what());
    }
}

// An empty marker stays an empty file (written as every output is: common/atomic_file.hpp).
bool write_empty(const fs::path& in, const fs::path& out, DumpReport& report) {
    try {
        assbin_common::write_file_atomically(out, {});
        report.add({in.string(), out.string(), "empty marker", "", kExitOk, ""}, "");
        return true;
    } catch (const assbin_common::WriteFailure& failure) {
        report.add({in.string(), out.string(), "failed",
                    out.string() + ": cannot write the empty marker: " + failure.cause(), kExitCannotRun, ""},
                   "");
        return false;
    }
}

int dump_folder(const fs::path& in, const fs::path& out, const assbin_common::InputFiles& run_inputs,
                WriteOptions write_options, const ReadOptions& read_options,
                const std::optional<std::string>& source_name, bool json) {
    if (fs::exists(out) && !fs::is_directory(out))
        return usage_error(out.string() + ": IN is a folder, so OUT must be a folder too", kUsage);
    struct Found {
        fs::path path;
        bool empty;
    };
    std::vector<Found> found;
    // An output folder inside the input folder (`dump da da/sub`) holds this verb's own outputs: never
    // read as inputs (a second run would nest da/sub/sub and fail on its own files).
    std::error_code unresolved;
    const fs::path out_folder = fs::weakly_canonical(out, unresolved);
    for (auto it = fs::recursive_directory_iterator(in); it != fs::recursive_directory_iterator(); ++it) {
        const fs::directory_entry& entry = *it;
        std::error_code error;
        if (entry.is_directory(error) && !unresolved &&
            fs::weakly_canonical(entry.path(), error) == out_folder) {
            it.disable_recursion_pending();
            continue;
        }
        if (!entry.is_regular_file(error)) continue;
        const bool empty = entry.file_size(error) == 0 && !error;
        if (empty || is_dump_file(entry.path())) found.push_back({entry.path(), empty});
    }
    if (found.empty()) {
        print_error(in.string() + ": no dump (and no empty expected-failure marker) found in the folder");
        return kExitUnreadable;
    }
    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.path < b.path; });
    const ProgressBar bar(found.size(), !json);
    DumpReport report(json, bar);
    size_t written = 0, failed = 0, markers = 0;
    bool cannot_write = false; // an output refused or not written (a full disk): the batch exits 3
    for (const Found& file : found) {
        const fs::path target = out / file.path.lexically_relative(in);
        if (!outputs_allowed(run_inputs, {target}, assbin_common::Content::AssbinDump,
                             "dump")) { // before reading (it said why)
            bar.clear();
            ++failed;
            cannot_write = true;
            report.add({file.path.string(), target.string(), "failed", "refused: see the error above",
                        kExitCannotRun, ""},
                       "");
            bar.draw(written + markers + failed, failed);
            continue;
        }
        std::error_code error;
        fs::create_directories(target.parent_path(), error);
        if (file.empty) {
            const bool ok = write_empty(file.path, target, report);
            markers += ok;
            failed += !ok;
            cannot_write = cannot_write || !ok;
        } else {
            write_options.source_name = source_name.value_or(target.string());
            const int code = dump_one(file.path.string(), target.string(), write_options, read_options, report);
            (code == kExitOk ? written : failed) += 1;
            cannot_write = cannot_write || code == kExitCannotRun;
        }
        bar.draw(written + markers + failed, failed);
    }
    bar.clear();
    if (json) {
        report.finish();
    } else {
        std::cout << "wrote " << counted(written, "dump") << " and " << counted(markers, "empty marker")
                  << " under " << out.string()
                  << (failed ? ", " + with_thousands(failed) + " failed" : std::string()) << "\n";
    }
    return cannot_write ? kExitCannotRun : failed ? kExitDiffers : kExitOk;
}

} // namespace

int run_dump(const std::vector<std::string>& args) {
    po::options_description options("options");
    options.add_options()("help,h", "show this help")("compressed,z",
                                                      "compress the body (zlib level 9, as Assimp's -z)")(
        "shortened,s",
        "write the shortened form (.assbin.regress): bounds and face hashes instead of arrays, "
        "computed from a full dump exactly as Assimp's writer does")(
        "source-name", po::value<std::string>(),
        "header source name (default: OUT as given, as Assimp 5.1+ does)")(
        "json", "print the report as JSON: per file its input, output, status and error; the files written "
                "(\"written\"); the totals");
    options.add(read_limit_options());
    int exit_code = kExitOk;
    const auto vm =
        parse_verb_arguments(args, {"dump", kUsage, {{"in", "IN"}, {"out", "OUT"}}}, options, &exit_code);
    if (!vm) return exit_code;
    const std::string in = (*vm)["in"].as<std::string>();
    const std::string out_argument = (*vm)["out"].as<std::string>();
    std::string out = out_argument;
    std::error_code error;
    if (!fs::exists(in, error)) {
        print_error(in + ": no such file");
        return kExitUnreadable;
    }
    if (!fs::is_directory(in, error) && fs::is_directory(out, error))
        out = (fs::path(out) / fs::path(in).filename()).string();
    // A folder's dumps are each checked before they are read (dump_folder).
    std::error_code unresolved;
    const fs::path out_folder = fs::weakly_canonical(out, unresolved);
    const assbin_common::InputFiles run_inputs(std::vector<fs::path>{in}, [&](const fs::path& file) {
        std::error_code unreadable;
        const fs::path folder = fs::weakly_canonical(file, unreadable).parent_path();
        const bool inside_output =
            std::mismatch(out_folder.begin(), out_folder.end(), folder.begin(), folder.end()).first ==
            out_folder.end();
        if (!unresolved && !unreadable && inside_output) return false;     // our own outputs
        return fs::file_size(file, unreadable) == 0 || is_dump_file(file); // what dump_folder reads
    });
    if (!fs::is_directory(in, error) &&
        !outputs_allowed(run_inputs, {out}, assbin_common::Content::AssbinDump, "dump"))
        return kExitCannotRun;
    const ReportsOffStandardOutput reports({fs::path(out)});

    WriteOptions write_options;
    write_options.shortened = vm->count("shortened") != 0;
    write_options.compressed = vm->count("compressed") != 0;
    write_options.command = command_field(args, in, out_argument);
    const ReadOptions read_options = read_options_from(*vm);
    const std::optional<std::string> source_name =
        vm->count("source-name") ? std::optional((*vm)["source-name"].as<std::string>()) : std::nullopt;
    if (source_name && source_name->size() > 255) { // the header's field: never cut silently
        return usage_error(
            "--source-name takes at most 255 bytes (the header's field holds no more); this one has " +
                std::to_string(source_name->size()),
            kUsage);
    }
    if (fs::is_directory(in) && fs::is_directory(out, error) && fs::equivalent(in, out, error)) {
        print_error(out + ": is IN itself: each dump would replace itself; write into another folder");
        return kExitCannotRun;
    }
    const bool json = vm->count("json") > 0;
    if (fs::is_directory(in))
        return dump_folder(in, out, run_inputs, write_options, read_options, source_name, json);
    write_options.source_name = source_name.value_or(out);
    const ProgressBar no_bar(1, false);
    DumpReport report(json, no_bar);
    const int code = dump_one(in, out, write_options, read_options, report);
    report.finish();
    return code;
}

} // namespace assbin::cli
