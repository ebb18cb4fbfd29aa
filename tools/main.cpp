// `assbin <verb> ...`: dispatches to one function per verb (see verbs.hpp).
#include "cli_common.hpp"
#include "sigbus_guard.hpp"
#include "help_width.hpp"
#include "verbs.hpp"

#include <assbin/version.hpp>

#include <csignal>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Verb {
    std::string_view name;
    std::string_view summary;
    int (*run)(const std::vector<std::string>&);
};

constexpr Verb kVerbs[] = {
    {"info", "summarise a dump: header, layout, counts, meshes, materials, animations, nodes",
     assbin::cli::run_info},
    {"tree", "show the chunk tree with offsets, lengths and identifying fields", assbin::cli::run_tree},
    {"aem-info", "summarise, validate or pose an AEM model", assbin::cli::run_aem_info},
    {"render", "draw a dump, an AEM model or a glTF file, posed and lit, into a PNG",
     assbin::cli::run_render},
    {"convert", "convert full dumps to AEM models or glTF 2.0 (files or folders, in parallel)",
     assbin::cli::run_convert},
    {"dump", "rewrite a dump in the current Assimp layout: full, shortened or compressed",
     assbin::cli::run_dump},
    {"cmp", "compare two dumps (or two folders of dumps) by value, listing every difference",
     assbin::cli::run_cmp},
};

void print_usage(std::ostream& out) {
    out << "usage: assbin <verb> [options]   (assbin <verb> --help for a verb's options)\n\n"
           "Reads Assimp ASSBIN dumps (.assbin, compressed, shortened .assbin.regress) from every\n"
           "Assimp release since 3.0, without Assimp.\n\nverbs:\n";
    for (const Verb& verb : kVerbs) {
        out << "  " << verb.name << std::string(12 - verb.name.size(), ' ') << verb.summary << "\n";
    }
    out << "\noptions:\n  --help      this text\n  --version   print the version (assbin "
        << assbin::version_string << ") and exit\n";
    out << "\n" << assbin::cli::kExitCodeTable;
}

} // namespace

int main(int argc, char** argv) {
    // Past a file-size limit (ulimit -f) the kernel sends SIGXFSZ, whose default kills the process
    // mid-batch with no message; ignored, the write fails with EFBIG instead and is reported (the
    // file named, its temporary removed) like any other write error.
    std::signal(SIGXFSZ, SIG_IGN);
    // Inputs are read from memory mappings: a file cut by another program while it is read is then
    // an error naming it (exit 2), not a crash.
    assbin::cli::install_sigbus_guard();
    if (argc < 2) {
        print_usage(std::cerr);
        return assbin::cli::kExitUnreadable;
    }
    const std::string_view verb_name = argv[1];
    if (verb_name == "--help" || verb_name == "-h" || verb_name == "help") {
        std::ostringstream usage;
        print_usage(usage);
        std::cout << assbin::cli::fit_to_width(usage.str(), assbin::cli::help_width());
        return assbin::cli::kExitOk;
    }
    if (verb_name == "--version" || verb_name == "-V") {
        std::cout << "assbin " << assbin::version_string << "\n";
        return assbin::cli::kExitOk;
    }
    for (const Verb& verb : kVerbs) {
        if (verb.name == verb_name) {
            return verb.run(std::vector<std::string>(argv + 2, argv + argc));
        }
    }
    std::vector<std::string> names;
    for (const Verb& verb : kVerbs)
        names.emplace_back(verb.name);
    std::vector<std::string> close = assbin::cli::close_names(verb_name, names);
    std::string meant;
    for (size_t i = 0; i < close.size(); ++i)
        meant += (i == 0 ? "" : i + 1 == close.size() ? " or " : ", ") + close[i];
    assbin::cli::print_error("unknown verb '" + std::string(verb_name) + "'" +
                             (meant.empty() ? "" : " (did you mean " + meant + "?)") +
                             "; 'assbin --help' lists them");
    return assbin::cli::kExitUnreadable;
}
