// `assbin dump IN OUT [--compressed] [--shortened] [--source-name TEXT]`: reads a dump of any
// layout and writes it again in the current Assimp layout, full, shortened or compressed. The output
// appears atomically (temporary file, fsync, rename); the input is never modified.
#include "cli_common.hpp"
#include "read_limit_options.hpp"
#include "verbs.hpp"

#include <assbin/reader.hpp>
#include <assbin/writer.hpp>

#include <filesystem>
#include <iostream>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace assbin::cli {

namespace {

constexpr std::string_view kUsage = "assbin dump IN OUT [--compressed] [--shortened] [--source-name TEXT]";

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
    write_options.source_name = vm->count("source-name") ? (*vm)["source-name"].as<std::string>() : out;
    write_options.command = command_field(args, in, out);
    try {
        const Scene scene = read_file(in, read_options_from(*vm));
        if (scene.is_shortened() && !write_options.shortened) {
            print_error(in +
                        ": is a shortened dump (bounds and face hashes only), so it cannot be written as a "
                        "full dump; pass --shortened to rewrite it shortened");
            return kExitUnreadable;
        }
        write_file(scene, out, write_options);
        std::cout << "wrote " << out << " (" << kind_text(write_options) << ", current Assimp layout) from "
                  << in << " (" << (scene.is_shortened() ? "shortened" : "full") << ", "
                  << writer_profile(scene) << ")\n";
    } catch (const ParseError& error) {
        print_parse_error(in, error);
        return kExitUnreadable;
    } catch (const WriteError& error) {
        // File errors name the output already; scene errors name the scene path.
        print_error(error.path() == out ? std::string(error.what()) : out + ": " + error.what());
        return kExitUnreadable;
    }
    return kExitOk;
}

} // namespace assbin::cli
