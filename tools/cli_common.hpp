// Pieces every verb shares: exit codes, error lines, option parsing; and, through the includes, the
// JSON writer, the text table and the three quoting helpers the benchmarks use too.
#pragma once

#include "json_writer.hpp"
#include "table.hpp"

#include <assbin/error.hpp>
#include <quoting.hpp>

#include <boost/program_options.hpp>

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assbin::cli {

using assbin_common::json_quote;
using assbin_common::printable;
using assbin_common::shell_quote;

inline constexpr int kExitOk = 0;
inline constexpr int kExitDiffers = 1;    // "files differ", "invalid", or a failed file in a batch
inline constexpr int kExitUnreadable = 2; // unreadable input or usage error

// Prints "assbin: error: <what>" on stderr.
void print_error(std::string_view what);
// Prints "assbin: error: <file>: at byte <offset> in <chunk path>: <message>" on stderr.
void print_parse_error(std::string_view file, const ParseError& error);

// Parses a verb's arguments. Returns nullopt after printing help (exit 0 wanted, `*exit_code` = 0)
// or a usage error (`*exit_code` = 2). `positional` names the positional options in order.
std::optional<boost::program_options::variables_map>
parse_verb_arguments(const std::vector<std::string>& args, std::string_view usage,
                     const boost::program_options::options_description& options,
                     const boost::program_options::positional_options_description& positional,
                     int* exit_code);

} // namespace assbin::cli
