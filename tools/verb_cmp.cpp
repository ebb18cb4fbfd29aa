// `assbin cmp ACTUAL EXPECTED`: compares two dumps, or two folders of dumps matched by relative
// path, by value (assbin::compare), and reports every difference with its scene path.
//
// Exit codes (cli_common.hpp's table): 0 every pair the same (or excused by --known-failures); 1 a
// pair differs, is new or missing, changed its expected failure, or (folders) cannot be read; 2 one
// of two files cannot be read, or a usage error; 3 the --html report cannot be written.
#include "cli_common.hpp"
#include "read_limit_options.hpp"
#include "output_target.hpp"
#include "render/html_report.hpp"
#include "scene_facts.hpp"
#include "sigbus_guard.hpp"
#include "verbs.hpp"

#include <assbin/compare.hpp>
#include <assbin/format.hpp>
#include <assbin/reader.hpp>
#include <mapped_file.hpp>
#include <quoting.hpp>
#include <read_file.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace assbin::cli {

namespace {

constexpr std::string_view kUsage =
    "assbin cmp ACTUAL EXPECTED [--epsilon E] [--relative R] [--ulps N] [--by-value] [--max-diffs N]\n"
    "                  [--ignore GLOB]... [--known-failures FILE] [--strict] [--json] [--verbose] [--html "
    "REPORT.html]\n"
    "                  [--jobs N]\n\n"
    "ACTUAL and EXPECTED are two dumps, or two folders (a regression database and a fresh run) whose\n"
    "dumps are matched by relative path; a 0-byte file is an expected-failure marker (Assimp's databases).\n"
    "A pair is same, different, new (only in ACTUAL), missing (only in EXPECTED), now-succeeds (EXPECTED\n"
    "a marker), now-fails (ACTUAL a marker) or unreadable; the same words in lines, summary and JSON.";

// How many differences the text report shows per pair in folder mode (JSON shows all it kept).
constexpr size_t kFolderDiffsShown = 5;

// NowSucceeds: EXPECTED is an empty marker (the import was expected to fail), ACTUAL a dump; NowFails:
// the other way round. Two empty markers are the same.
enum class Status { Same, Different, MissingActual, MissingExpected, NowSucceeds, NowFails, Unreadable };

const char* status_name(Status status) {
    switch (status) {
    case Status::Same:
        return "same";
    case Status::Different:
        return "different";
    case Status::MissingActual:
        return "missing";
    case Status::MissingExpected:
        return "new";
    case Status::NowSucceeds:
        return "now-succeeds";
    case Status::NowFails:
        return "now-fails";
    case Status::Unreadable:
        return "unreadable";
    }
    return "?";
}

struct Pair {
    std::string name; // relative path (folders) or ACTUAL as given (files)
    fs::path actual, expected;
    Status status = Status::Same;
    bool known_failure = false; // listed, and not the same
    bool stale = false;         // listed, but now the same
    bool both_empty = false;    // two expected-failure markers
    CompareResult result;
    std::string error;
    // What the reader stepped over in each file: bytes after the SCENE chunk, unknown chunks.
    uint64_t trailing_actual = 0, trailing_expected = 0;
    std::vector<SkippedChunk> skipped_actual, skipped_expected;

    bool compared() const { return status == Status::Same || status == Status::Different; }
    bool failing() const { return status != Status::Same && status != Status::Unreadable && !known_failure; }
};

struct Settings {
    CompareOptions compare;
    ReadOptions read;
    std::set<std::string> known_failures;
    bool json = false;
    bool verbose = false;
    std::string html; // --html REPORT.html
};

// ---- reading the pairs

// A dump by magic, or by name (.assbin, .assbin.regress) even when it is damaged, or an empty file
// (an expected-failure marker: regression databases name their files without an extension).
bool is_dump_candidate(const fs::directory_entry& entry) {
    const std::string name = entry.path().filename().string();
    std::error_code error;
    return name.ends_with(".assbin") || name.ends_with(".assbin.regress") || entry.file_size(error) == 0 ||
           is_dump_file(entry.path());
}

// Relative paths of the dumps under `root` (picked by magic or by the .assbin/.assbin.regress name).
std::set<std::string> dumps_under(const fs::path& root) {
    std::set<std::string> names;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (entry.is_regular_file() && is_dump_candidate(entry)) {
            names.insert(entry.path().lexically_relative(root).generic_string());
        }
    }
    return names;
}

bool is_empty_file(const fs::path& path) {
    std::error_code error;
    return fs::file_size(path, error) == 0 && !error;
}

// One side of a pair: the scene, whose arrays stay in the mapped file (ReadOptions::array_views).
struct Side {
    std::optional<assbin_common::MappedFile> file;
    Scene scene;
};

// Reads one side; false (pair unreadable) when it cannot.
bool read_side(Pair& pair, const char* side, const fs::path& path, const Settings& settings, Side& out) {
    const auto unreadable = [&](const std::string& why) {
        pair.status = Status::Unreadable;
        pair.error = std::string(side) + " " + path.string() + ": " + why;
        return false;
    };
    try {
        note_mapped_input(path.string());
        out.file.emplace(path);
        ReadOptions options = settings.read;
        options.array_views = true; // compared in place, never copied
        out.scene = read_scene(out.file->bytes(), options);
        return true;
    } catch (const ParseError& error) {
        return unreadable(parse_error_text(path.string(), error));
    } catch (const assbin_common::ReadFailure& failure) {
        return unreadable(ParseError(ErrorCode::Io, 0, "", failure.what()).what());
    }
}

void compare_pair(Pair& pair, const Settings& settings) {
    const bool actual_empty = is_empty_file(pair.actual), expected_empty = is_empty_file(pair.expected);
    if (actual_empty && expected_empty) {
        pair.both_empty = true;
        return; // Same: the import was expected to fail, and still fails
    }
    if (actual_empty) {
        Side expected;
        if (read_side(pair, "EXPECTED", pair.expected, settings, expected)) pair.status = Status::NowFails;
        return;
    }
    Side actual, expected;
    if (!read_side(pair, "ACTUAL", pair.actual, settings, actual)) return;
    pair.trailing_actual = actual.scene.trailing_bytes;
    pair.skipped_actual = actual.scene.skipped_chunks;
    if (expected_empty) {
        pair.status = Status::NowSucceeds;
        return;
    }
    if (!read_side(pair, "EXPECTED", pair.expected, settings, expected)) return;
    pair.trailing_expected = expected.scene.trailing_bytes;
    pair.skipped_expected = expected.scene.skipped_chunks;
    try {
        pair.result = compare(actual.scene, expected.scene, settings.compare);
    } catch (const std::invalid_argument& error) {
        pair.status = Status::Unreadable;
        pair.error = std::string("cannot compare: ") + error.what();
        return;
    }
    pair.status = pair.result.same() ? Status::Same : Status::Different;
}

void apply_known_failures(std::vector<Pair>& pairs, const Settings& settings) {
    for (Pair& pair : pairs) {
        if (!settings.known_failures.count(pair.name)) continue;
        if (pair.status == Status::Same)
            pair.stale = true;
        else
            pair.known_failure = true;
    }
}

std::vector<Pair> folder_pairs(const fs::path& actual_root, const fs::path& expected_root,
                               const Settings& settings) {
    const std::set<std::string> in_actual = dumps_under(actual_root);
    const std::set<std::string> in_expected = dumps_under(expected_root);
    std::set<std::string> names = in_actual;
    names.insert(in_expected.begin(), in_expected.end());
    std::vector<Pair> pairs;
    for (const std::string& name : names) { // std::set: byte order, stable
        Pair pair;
        pair.name = name;
        pair.actual = actual_root / name;
        pair.expected = expected_root / name;
        const bool has_actual = fs::is_regular_file(pair.actual);
        const bool has_expected = fs::is_regular_file(pair.expected);
        if (!has_actual)
            pair.status = Status::MissingActual;
        else if (!has_expected)
            pair.status = Status::MissingExpected;
        else
            compare_pair(pair, settings);
        pairs.push_back(std::move(pair));
    }
    return pairs;
}

// ---- text output

std::string difference_line(const Difference& d) {
    std::string line = "  " + d.path + ": expected " + d.expected + ", actual " + d.actual;
    if (d.delta && std::isfinite(*d.delta)) {
        char delta[48];
        std::snprintf(delta, sizeof delta, " (delta %.9g)", *d.delta);
        line += delta;
    }
    return line;
}

std::string compared_as(const CompareResult& result) {
    if (!result.shortened) return "";
    if (result.derived_actual)
        return "compared as shortened dumps: bounds and face hashes derived from the full ACTUAL";
    if (result.derived_expected) {
        return "compared as shortened dumps: bounds and face hashes derived from the full EXPECTED";
    }
    return "compared as shortened dumps";
}

void print_differences(const Pair& pair, size_t shown) {
    const CompareResult& result = pair.result;
    const size_t listed = std::min(shown, result.differences.size());
    for (size_t i = 0; i < listed; ++i)
        std::cout << difference_line(result.differences[i]) << "\n";
    if (result.total > listed)
        std::cout << "  ... and " << with_thousands(result.total - listed) << " more\n";
}

// What the reader stepped over, per side: "ACTUAL: 100 bytes after the SCENE chunk",
// "EXPECTED: 2 unknown chunks skipped (scene/mesh[0] id 0x1234, ...)".
std::vector<std::string> reader_findings(const Pair& pair) {
    std::vector<std::string> findings;
    const auto side = [&](const char* name, uint64_t trailing, const std::vector<SkippedChunk>& skipped) {
        if (trailing > 0)
            findings.push_back(std::string(name) + ": " + counted(trailing, "byte") +
                               " after the SCENE chunk");
        if (skipped.empty()) return;
        std::string list;
        for (size_t i = 0; i < skipped.size() && i < 3; ++i)
            list += (i ? ", " : "") + skipped[i].path + " id " + hex(skipped[i].id);
        if (skipped.size() > 3) list += ", ...";
        findings.push_back(std::string(name) + ": " + counted(skipped.size(), "unknown chunk") +
                           " skipped (" + list + ")");
    };
    side("ACTUAL", pair.trailing_actual, pair.skipped_actual);
    side("EXPECTED", pair.trailing_expected, pair.skipped_expected);
    return findings;
}

void print_file_text(const Pair& pair) {
    const CompareResult& result = pair.result;
    const std::string mode = compared_as(result);
    const std::string ignored =
        result.ignored ? std::string(", ") + with_thousands(result.ignored) + " ignored" : "";
    const std::string known = pair.known_failure ? " (known failure)" : "";
    if (pair.both_empty) {
        std::cout << "same: both files are empty expected-failure markers (the import still fails)\n";
    } else if (pair.status == Status::NowSucceeds) {
        std::cout << "now succeeds" << known
                  << ": EXPECTED is an empty expected-failure marker, ACTUAL a readable dump\n";
    } else if (pair.status == Status::NowFails) {
        std::cout << "now fails" << known
                  << ": ACTUAL is an empty expected-failure marker, EXPECTED a dump\n";
    } else if (pair.status == Status::Same) {
        std::cout << (pair.stale ? "same (listed in the known failures: stale)" : "same")
                  << ": no differences in " << counted(result.values_compared, "value") << " compared"
                  << ignored << (mode.empty() ? "" : "; " + mode) << "\n";
    } else {
        std::cout << "different" << known << ": " << counted(result.total, "difference") << ignored
                  << (mode.empty() ? "" : "; " + mode) << "\n";
        print_differences(pair, result.differences.size());
    }
    for (const std::string& finding : reader_findings(pair))
        std::cout << "note: " << finding << " (not compared; --strict refuses trailing bytes)\n";
}

std::string pair_note(const Pair& pair) {
    std::string note;
    switch (pair.status) {
    case Status::MissingActual:
        note = "only in EXPECTED";
        break;
    case Status::MissingExpected:
        note = "only in ACTUAL";
        break;
    case Status::Unreadable:
        note = pair.error;
        break;
    case Status::NowSucceeds:
        note = "EXPECTED is an empty expected-failure marker; the import now succeeds";
        break;
    case Status::NowFails:
        note = "ACTUAL is an empty expected-failure marker; the import now fails";
        break;
    case Status::Same:
        note = pair.stale        ? "listed in the known failures, but now the same: stale"
               : pair.both_empty ? "both empty: an expected failure, still failing"
                                 : "";
        break;
    case Status::Different:
        break;
    }
    const auto add = [&](const std::string& part) { note += (note.empty() ? "" : "; ") + part; };
    if (pair.known_failure) add("known failure");
    for (const std::string& finding : reader_findings(pair))
        add(finding);
    return note;
}

struct Totals {
    size_t same = 0, both_empty = 0, different = 0, known = 0, stale = 0, missing_actual = 0,
           missing_expected = 0, now_succeeds = 0, now_fails = 0, unreadable = 0, with_findings = 0;
};

Totals count(const std::vector<Pair>& pairs) {
    Totals totals;
    for (const Pair& pair : pairs) {
        totals.known += pair.known_failure;
        totals.stale += pair.stale;
        totals.both_empty += pair.both_empty;
        totals.with_findings += !reader_findings(pair).empty();
        switch (pair.status) {
        case Status::Same:
            ++totals.same;
            break;
        case Status::Different:
            ++totals.different;
            break;
        case Status::MissingActual:
            ++totals.missing_actual;
            break;
        case Status::MissingExpected:
            ++totals.missing_expected;
            break;
        case Status::NowSucceeds:
            ++totals.now_succeeds;
            break;
        case Status::NowFails:
            ++totals.now_fails;
            break;
        case Status::Unreadable:
            ++totals.unreadable;
            break;
        }
    }
    return totals;
}

void print_folder_text(const std::vector<Pair>& pairs, const std::vector<std::string>& unmatched,
                       bool verbose, size_t max_diffs) {
    std::printf("%-17s %12s  %s\n", "status", "differences", "pair");
    size_t hidden = 0;
    for (const Pair& pair : pairs) {
        if (pair.status == Status::Same && !pair.stale && !verbose && reader_findings(pair).empty()) {
            ++hidden;
            continue;
        }
        const std::string diffs =
            pair.compared() && !pair.both_empty ? with_thousands(pair.result.total) : "-";
        const std::string note = pair_note(pair);
        std::printf("%-17s %12s  %s%s\n", status_name(pair.status), diffs.c_str(), pair.name.c_str(),
                    note.empty() ? "" : ("  (" + note + ")").c_str());
    }
    if (hidden) {
        std::cout << "(" << counted(hidden, "pair that is", "pairs that are")
                  << " the same not listed; --verbose lists them)\n";
    }
    for (const std::string& name : unmatched) {
        std::cout << "stale known failure: " << name << " (no such pair)\n";
    }

    const Totals totals = count(pairs);
    std::cout << "\nsummary\n";
    const auto row = [](const char* label, size_t value) {
        std::printf("  %-28s %8s\n", label, with_thousands(value).c_str());
    };
    row("same", totals.same);
    row("  of which both empty", totals.both_empty);
    row("different", totals.different);
    row("new (only in ACTUAL)", totals.missing_expected);
    row("missing (only in EXPECTED)", totals.missing_actual);
    row("now succeeds", totals.now_succeeds);
    row("now fails", totals.now_fails);
    row("unreadable", totals.unreadable);
    row("pairs", pairs.size());
    row("known failures", totals.known);
    row("stale known failures", totals.stale + unmatched.size());
    row("with reader findings", totals.with_findings);

    const size_t shown = std::min(kFolderDiffsShown, max_diffs);
    bool header = false;
    for (const Pair& pair : pairs) {
        if (pair.status != Status::Different) continue;
        if (!header) std::cout << "\nfirst differences of each differing pair\n";
        header = true;
        std::cout << pair.name << (pair.known_failure ? " (known failure)" : "") << ": "
                  << counted(pair.result.total, "difference");
        const std::string mode = compared_as(pair.result);
        std::cout << (mode.empty() ? "" : "; " + mode) << "\n";
        print_differences(pair, shown);
    }
}

// ---- JSON output

void write_options_json(JsonWriter& json, const CompareOptions& options) {
    json.key("options");
    json.begin_object();
    json.field("epsilon", options.epsilon);
    json.key("relative");
    if (options.relative)
        json.value(*options.relative);
    else
        json.null();
    json.key("ulps");
    if (options.ulps)
        json.value(static_cast<unsigned long long>(*options.ulps));
    else
        json.null();
    json.field("real_properties_by_value", options.real_properties_by_value);
    json.field("max_diffs", static_cast<unsigned long long>(options.max_diffs));
    json.key("ignore");
    json.begin_array();
    for (const std::string& pattern : options.ignore)
        json.value(pattern);
    json.end_array();
    json.end_object();
}

void write_side_findings_json(JsonWriter& json, uint64_t trailing, const std::vector<SkippedChunk>& skipped) {
    json.begin_object();
    json.field("trailing_bytes", trailing);
    json.key("skipped_chunks");
    json.begin_array();
    for (const SkippedChunk& chunk : skipped) {
        json.begin_object();
        json.field("path", chunk.path);
        json.field("id", hex(chunk.id));
        json.field("offset", chunk.offset);
        json.field("length", chunk.length);
        json.end_object();
    }
    json.end_array();
    json.end_object();
}

// What the reader stepped over in each file (not compared): {"actual": {...}, "expected": {...}}.
void write_findings_json(JsonWriter& json, const Pair& pair) {
    json.key("reader_findings");
    json.begin_object();
    json.key("actual");
    write_side_findings_json(json, pair.trailing_actual, pair.skipped_actual);
    json.key("expected");
    write_side_findings_json(json, pair.trailing_expected, pair.skipped_expected);
    json.end_object();
}

void write_pair_json(JsonWriter& json, const Pair& pair) {
    json.begin_object();
    json.field("name", pair.name);
    json.field("status", status_name(pair.status));
    json.field("known_failure", pair.known_failure);
    json.field("stale", pair.stale);
    json.field("both_empty", pair.both_empty);
    write_findings_json(json, pair);
    if (pair.compared() && !pair.both_empty) {
        const CompareResult& result = pair.result;
        json.field("compared_as", result.shortened ? "shortened" : "full");
        json.field("derived", result.derived_actual     ? "actual"
                              : result.derived_expected ? "expected"
                                                        : "none");
        json.field("total_differences", static_cast<unsigned long long>(result.total));
        json.field("ignored", static_cast<unsigned long long>(result.ignored));
        json.field("values_compared", static_cast<unsigned long long>(result.values_compared));
        json.key("differences");
        json.begin_array();
        for (const Difference& d : result.differences) {
            json.begin_object();
            json.field("path", d.path);
            json.field("expected", d.expected);
            json.field("actual", d.actual);
            json.key("delta");
            if (d.delta)
                json.value(*d.delta);
            else
                json.null();
            json.end_object();
        }
        json.end_array();
    }
    if (!pair.error.empty()) json.field("error", pair.error);
    json.end_object();
}

void print_json(const std::string& actual, const std::string& expected, bool folders,
                const Settings& settings, const std::vector<Pair>& pairs,
                const std::vector<std::string>& unmatched, int exit_code) {
    JsonWriter json(std::cout);
    json.begin_object();
    json.field("actual", actual);
    json.field("expected", expected);
    json.field("mode", folders ? "directories" : "files");
    write_options_json(json, settings.compare);
    json.key("pairs");
    json.begin_array();
    for (const Pair& pair : pairs)
        write_pair_json(json, pair);
    json.end_array();
    json.key("stale_known_failures");
    json.begin_array();
    for (const Pair& pair : pairs) {
        if (pair.stale) json.value(pair.name);
    }
    for (const std::string& name : unmatched)
        json.value(name);
    json.end_array();
    const Totals totals = count(pairs);
    json.key("totals");
    json.begin_object();
    json.field("pairs", static_cast<unsigned long long>(pairs.size()));
    json.field("same", static_cast<unsigned long long>(totals.same));
    json.field("both_empty", static_cast<unsigned long long>(totals.both_empty));
    json.field("different", static_cast<unsigned long long>(totals.different));
    json.field("now_succeeds", static_cast<unsigned long long>(totals.now_succeeds));
    json.field("now_fails", static_cast<unsigned long long>(totals.now_fails));
    json.field("with_reader_findings", static_cast<unsigned long long>(totals.with_findings));
    json.field("known_failures", static_cast<unsigned long long>(totals.known));
    json.field("stale", static_cast<unsigned long long>(totals.stale + unmatched.size()));
    json.field("new", static_cast<unsigned long long>(totals.missing_expected));
    json.field("missing", static_cast<unsigned long long>(totals.missing_actual));
    json.field("unreadable", static_cast<unsigned long long>(totals.unreadable));
    json.end_object();
    json.field("exit_code", exit_code);
    json.key("written"); // the --html page, when it was put in place (a stream is written into)
    json.begin_array();
    if (!settings.html.empty() && assbin_common::output_kind(settings.html) == assbin_common::OutputKind::File)
        json.value(settings.html);
    json.end_array();
    json.end_object();
    json.finish();
}

// ---- options

// The names listed in `path`, or nullopt with `why` set (the system's reason) when it cannot be read.
std::optional<std::set<std::string>> load_known_failures(const std::string& path, std::string& why) {
    std::vector<std::byte> bytes;
    try { // the words every reader uses: no such file, is a folder, ...
        bytes = assbin_common::read_regular_file(path);
    } catch (const assbin_common::ReadFailure& failure) {
        why = failure.what();
        return std::nullopt;
    }
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    // A list is text: a picture or a dump given by mistake would become lines of noise.
    if (text.find('\0') != std::string_view::npos || !assbin_common::is_valid_utf8(text)) {
        why = "it is not a text file of names (it holds binary bytes)";
        return std::nullopt;
    }
    std::set<std::string> names;
    std::istringstream list{std::string(text)};
    for (std::string line; std::getline(list, line);) {
        const size_t comment = line.find(" #");
        if (comment != std::string::npos) line.resize(comment);
        const size_t begin = line.find_first_not_of(" \t\r");
        if (begin == std::string::npos || line[begin] == '#') continue;
        const size_t end = line.find_last_not_of(" \t\r");
        names.insert(line.substr(begin, end - begin + 1));
    }
    return names;
}

// Range checks after parsing; prints the usage error and returns false when one fails.
bool read_settings(const po::variables_map& vm, Settings& settings) {
    CompareOptions& options = settings.compare;
    options.epsilon = vm["epsilon"].as<double>();
    if (vm.count("relative")) options.relative = vm["relative"].as<double>();
    if (vm.count("ulps")) options.ulps = vm["ulps"].as<uint64_t>();
    // Choosing --relative or --ulps replaces the default absolute tolerance; an --epsilon given as
    // well is combined with them on purpose (a value matches when any given tolerance allows it).
    if ((options.relative || options.ulps) && vm["epsilon"].defaulted()) options.epsilon = 0;
    options.real_properties_by_value = vm.count("by-value") != 0;
    options.max_diffs = vm["max-diffs"].as<size_t>();
    if (vm.count("ignore")) options.ignore = vm["ignore"].as<std::vector<std::string>>();
    settings.json = vm.count("json") != 0;
    settings.verbose = vm.count("verbose") != 0;
    if (vm.count("html")) settings.html = vm["html"].as<std::string>();
    if (!std::isfinite(options.epsilon) || options.epsilon < 0 ||
        (options.relative && (!std::isfinite(*options.relative) || *options.relative < 0))) {
        usage_error("--epsilon and --relative take a finite number of 0 or more", kUsage);
        return false;
    }
    if (vm.count("known-failures")) {
        const std::string path = vm["known-failures"].as<std::string>();
        std::string why;
        const auto names = load_known_failures(path, why);
        if (!names) {
            print_error(path + ": cannot read the known-failures list: " + why);
            return false;
        }
        settings.known_failures = *names;
    }
    return true;
}

po::options_description cmp_options() {
    po::options_description options("options");
    options.add_options()("help,h", "show this help")(
        "epsilon", po::value<double>()->default_value(0.0, "0"),
        "absolute tolerance for floats: |actual - expected| <= E matches. By default none: floats must be "
        "equal (0 == -0, NaN == NaN), so that no change passes unseen; 0.1 is assimp cmpdump's tolerance. "
        "Given with --relative or --ulps, a value matches when any of the given tolerances allows it")(
        "relative", po::value<double>(),
        "relative tolerance: |actual - expected| <= R * max(|actual|, |expected|); replaces the default "
        "--epsilon")(
        "ulps", po::value<uint64_t>(),
        "matches when at most N representable values apart (f32 or f64); replaces the default --epsilon")(
        "by-value",
        "material properties holding floats or doubles are compared by value, whatever type and size they "
        "are stored with (a single-precision dump against a double-precision one)")(
        "max-diffs", po::value<size_t>()->default_value(50), "differences kept per pair (all are counted)")(
        "ignore", po::value<std::vector<std::string>>()->composing(),
        "skip differences whose scene path matches this glob ('*' any run, '?' one character), e.g. "
        "'*/tangents*'; "
        "repeatable")(
        "known-failures", po::value<std::string>(),
        "file of pair names (relative paths; ACTUAL as given for two files), one per line, '#' comments: "
        "these may "
        "differ or be missing without failing; listed pairs that are now the same are reported as stale")(
        "json", "print the report as JSON")("verbose", "folders: list the pairs that are the same too")(
        "html", po::value<std::string>()->value_name("REPORT.html"),
        "also write a self-contained HTML page: each pair's verdict and differences, pictures of EXPECTED "
        "and "
        "ACTUAL side by side, and where they differ (shortened dumps: their bounds as boxes); the "
        "differences listed up to --max-diffs per pair");
    options.add(jobs_option("threads that decode each dump's meshes (default: the number of cores)"));
    options.add(read_limit_options());
    return options;
}

int exit_code_of(const std::vector<Pair>& pairs, bool folders) {
    // Two files: an unreadable one means nothing was compared (2). Folders are a batch: an unreadable
    // pair is one failed file among the others, compared and reported (1).
    if (std::any_of(pairs.begin(), pairs.end(),
                    [](const Pair& p) { return p.status == Status::Unreadable && !p.known_failure; })) {
        return folders ? kExitDiffers : kExitUnreadable;
    }
    if (std::any_of(pairs.begin(), pairs.end(), [](const Pair& p) { return p.failing(); }))
        return kExitDiffers;
    return kExitOk;
}

// The --html page; false (reported) when it cannot be written.
bool write_html(const std::string& path, const std::string& actual, const std::string& expected,
                const std::vector<Pair>& pairs, size_t max_diffs) {
    make_output_folder(path);
    std::vector<render::ReportPair> report;
    for (const Pair& pair : pairs) {
        render::ReportPair entry{pair.name, status_name(pair.status), {}, {}, {}};
        if (pair.status != Status::MissingActual) entry.actual = pair.actual;
        if (pair.status != Status::MissingExpected) entry.expected = pair.expected;
        if (pair.status == Status::Unreadable) entry.differences.push_back(pair.error);
        const size_t listed = std::min(pair.result.differences.size(), max_diffs);
        for (size_t d = 0; d < listed; ++d)
            entry.differences.push_back(difference_line(pair.result.differences[d]));
        if (pair.result.total > listed)
            entry.differences.push_back("... and " + with_thousands(pair.result.total - listed) + " more");
        report.push_back(std::move(entry));
    }
    try {
        render::write_html_report(path, "assbin cmp " + actual + " " + expected, report);
    } catch (const std::exception& error) {
        print_error(error.what());
        return false;
    }
    return true;
}

} // namespace

int run_cmp(const std::vector<std::string>& args) {
    const po::options_description options = cmp_options();
    int exit_code = kExitOk;
    const auto vm = parse_verb_arguments(
        args, {"cmp", kUsage, {{"actual", "ACTUAL"}, {"expected", "EXPECTED"}}}, options, &exit_code);
    if (!vm) return exit_code;
    Settings settings;
    if (!read_settings(*vm, settings)) return kExitUnreadable;
    settings.read = read_options_from(*vm);
    const std::optional<unsigned> jobs = jobs_from(*vm);
    if (!jobs) return usage_error("--jobs must be 1..1024", kUsage);
    settings.read.threads = *jobs;
    const std::string actual = (*vm)["actual"].as<std::string>();
    const std::string expected = (*vm)["expected"].as<std::string>();
    std::vector<fs::path> inputs{actual, expected};
    if (vm->count("known-failures")) inputs.emplace_back((*vm)["known-failures"].as<std::string>());
    const assbin_common::InputFiles run_inputs(inputs, [](const fs::path& file) {
        std::error_code gone; // a file that vanished since it was listed is no input
        const fs::directory_entry entry(file, gone);
        return !gone && is_dump_candidate(entry);
    });
    if (!settings.html.empty() &&
        !outputs_allowed(run_inputs, {settings.html}, assbin_common::Content::Html, "cmp --html"))
        return kExitCannotRun;
    const ReportsOffStandardOutput reports({fs::path(settings.html)});

    const bool folders = fs::is_directory(actual) || fs::is_directory(expected);
    if (folders && !(fs::is_directory(actual) && fs::is_directory(expected))) {
        const std::string missing = !fs::exists(actual) ? actual : !fs::exists(expected) ? expected : "";
        if (!missing.empty())
            print_error(missing + ": no such file or folder");
        else
            return usage_error("ACTUAL and EXPECTED must be two files or two folders", kUsage);
        return kExitUnreadable;
    }
    if (!folders && settings.verbose) // said, as convert says its idle options
        std::cerr << "assbin: warning: --verbose does nothing here: it lists the same pairs of two folders; "
                     "a pair of files is listed whole anyway\n";
    std::vector<Pair> pairs;
    if (folders) {
        try {
            pairs = folder_pairs(actual, expected, settings);
        } catch (const fs::filesystem_error& error) {
            print_error(std::string("cannot list the folders: ") + error.what());
            return kExitUnreadable;
        }
    } else {
        Pair pair;
        pair.name = actual;
        pair.actual = actual;
        pair.expected = expected;
        compare_pair(pair, settings);
        pairs.push_back(std::move(pair));
    }
    apply_known_failures(pairs, settings);
    std::vector<std::string> unmatched;
    for (const std::string& name : settings.known_failures) {
        if (std::none_of(pairs.begin(), pairs.end(), [&](const Pair& p) { return p.name == name; })) {
            unmatched.push_back(name);
        }
    }
    for (const Pair& pair : pairs) {
        if (pair.status == Status::Unreadable) print_error(pair.error);
    }
    exit_code = exit_code_of(pairs, folders);
    if (!settings.html.empty() &&
        !write_html(settings.html, actual, expected, pairs, settings.compare.max_diffs))
        return kExitCannotRun;
    if (settings.json)
        print_json(actual, expected, folders, settings, pairs, unmatched, exit_code);
    else if (folders)
        print_folder_text(pairs, unmatched, settings.verbose, settings.compare.max_diffs);
    else if (pairs.front().status != Status::Unreadable)
        print_file_text(pairs.front());
    return exit_code;
}

} // namespace assbin::cli
