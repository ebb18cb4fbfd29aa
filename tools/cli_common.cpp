#include "cli_common.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace assbin::cli {

void print_error(std::string_view what) {
    std::cerr << "assbin: error: " << what << "\n";
}

void print_parse_error(std::string_view file, const ParseError& error) {
    print_error(std::string(file) + ": " + error.what());
}

std::optional<po::variables_map> parse_verb_arguments(const std::vector<std::string>& args,
                                                      std::string_view usage,
                                                      const po::options_description& options,
                                                      const po::positional_options_description& positional,
                                                      int* exit_code) {
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
        if (vm.count("help")) {
            std::cout << "usage: " << usage << "\n\n" << options << "\n";
            *exit_code = kExitOk;
            return std::nullopt;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        print_error(std::string(e.what()) + "\nusage: " + std::string(usage));
        *exit_code = kExitUnreadable;
        return std::nullopt;
    }
    return vm;
}

} // namespace assbin::cli
