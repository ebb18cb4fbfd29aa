// `assbin dump IN OUT [--compressed] [--shortened] [--source-name TEXT]`: reads a dump of any
// layout and writes it again in the current Assimp layout, full, shortened or compressed. The output
// appears atomically (temporary file, fsync, rename); the input is never modified. IN and OUT may be
// folders: every dump under IN is written to the same relative path under OUT, and empty files
// (a regression database's expected-failure markers) are written empty, so
// `assbin dump --shortened FULL_DUMPS/ DATABASE/` regenerates a database `assbin cmp` can use.
#include "cli_common.hpp"
#include "read_limit_options.hpp"
#include "sigbus_guard.hpp"
#include "verbs.hpp"

#include <assbin/reader.hpp>
#include <assbin/writer.hpp>

#include <assbin/format.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace assbin::cli {

namespace {

constexpr std::string_view kUsage =
    "assbin dump IN OUT [--compressed] [--shortened] [--source-name TEXT]\n"
    "IN and OUT are two files, or two folders (every dump under IN written to the same relative path\n"
    "under OUT; empty files, expected-failure markers, stay empty)\n"
    "exit: 0 written, 2 a file could not be read or written (folders: the others are still written)";

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
        else
            command += arg + " ";
    }
    return command;
}

bool same_file(const std::string& a, const std::string& b) {
    std::error_code error;
    return fs::exists(b, error) && fs::equivalent(a, b, error);
}

std::string kind_text(const WriteOptions& options) {
    std::string text = options.shortened ? "shortened" : "full";
    if (options.compressed) text += ", compressed";
    return text;
}

// Reads `in` and writes `out`; false (reported) when either fails.
bool dump_one(const std::string& in, const std::string& out, const WriteOptions& write_options,
              const ReadOptions& read_options) {
    try {
        note_mapped_input(in);
        const Scene scene = read_file(in, read_options);
        if (scene.is_shortened() && !write_options.shortened) {
            print_error(in +
                        ": is a shortened dump (bounds and face hashes only), so it cannot be written as a "
                        "full dump; pass --shortened to rewrite it shortened");
            return false;
        }
        write_file(scene, out, write_options);
        std::cout << "wrote " << out << " (" << kind_text(write_options) << ", current Assimp layout) from "
                  << in << " (" << (scene.is_shortened() ? "shortened" : "full") << ", "
                  << writer_profile(scene) << ")\n";
        return true;
    } catch (const ParseError& error) {
        print_parse_error(in, error);
    } catch (const WriteError& error) {
        // File errors name the output already; scene errors name the scene path.
        print_error(error.path() == out ? std::string(error.what()) : out + ": " + error.what());
    }
    return false;
}

// An empty marker stays an empty file (written under a temporary name, then renamed).
bool write_empty(const fs::path& out) {
    std::error_code error;
    std::string name = ".";
    name += out.filename().string();
    name += ".tmp";
    const fs::path temporary = out.parent_path() / name;
    std::ofstream(temporary, std::ios::binary | std::ios::trunc).close();
    fs::rename(temporary, out, error);
    if (!error) return true;
    fs::remove(temporary, error);
    print_error(out.string() + ": cannot write the empty marker");
    return false;
}

int dump_folder(const fs::path& in, const fs::path& out, WriteOptions write_options,
                const ReadOptions& read_options, const std::optional<std::string>& source_name) {
    if (fs::exists(out) && !fs::is_directory(out)) {
        print_error(out.string() + ": IN is a folder, so OUT must be a folder too");
        return kExitUnreadable;
    }
    size_t written = 0, failed = 0, markers = 0;
    for (const auto& entry : fs::recursive_directory_iterator(in)) {
        std::error_code error;
        if (!entry.is_regular_file(error)) continue;
        const bool empty = entry.file_size(error) == 0 && !error;
        if (!empty && !is_dump_file(entry.path())) continue;
        const fs::path relative = entry.path().lexically_relative(in);
        const fs::path target = out / relative;
        fs::create_directories(target.parent_path(), error);
        if (empty) {
            markers += write_empty(target);
            failed += !fs::exists(target);
            continue;
        }
        write_options.source_name = source_name.value_or(target.string());
        (dump_one(entry.path().string(), target.string(), write_options, read_options) ? written : failed) +=
            1;
    }
    std::cout << "wrote " << written << (written == 1 ? " dump" : " dumps") << " and " << markers << " empty "
              << (markers == 1 ? "marker" : "markers") << " under " << out.string() << (failed ? ", " : "")
              << (failed ? std::to_string(failed) + " failed" : "") << "\n";
    return failed ? kExitUnreadable : kExitOk;
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
        "in", po::value<std::string>()->required(), "the dump to read (any Assimp version or variant)")(
        "out", po::value<std::string>()->required(), "the file to write (replaced atomically)");
    options.add(read_limit_options());
    po::positional_options_description positional;
    positional.add("in", 1).add("out", 1);
    int exit_code = kExitOk;
    const auto vm = parse_verb_arguments(args, kUsage, options, positional, &exit_code);
    if (!vm) return exit_code;
    const std::string in = (*vm)["in"].as<std::string>();
    const std::string out = (*vm)["out"].as<std::string>();
    if (same_file(in, out)) {
        print_error(out + ": is the input file; dump never modifies its input (write elsewhere, then move)");
        return kExitUnreadable;
    }

    WriteOptions write_options;
    write_options.shortened = vm->count("shortened") != 0;
    write_options.compressed = vm->count("compressed") != 0;
    write_options.command = command_field(args, in, out);
    const ReadOptions read_options = read_options_from(*vm);
    const std::optional<std::string> source_name =
        vm->count("source-name") ? std::optional((*vm)["source-name"].as<std::string>()) : std::nullopt;
    if (fs::is_directory(in)) return dump_folder(in, out, write_options, read_options, source_name);
    write_options.source_name = source_name.value_or(out);
    return dump_one(in, out, write_options, read_options) ? kExitOk : kExitUnreadable;
}

} // namespace assbin::cli
