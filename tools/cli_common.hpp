// Pieces every verb shares: exit codes, error lines, option parsing; and, through the includes, the
// JSON writer, the text table and the three quoting helpers the benchmarks use too.
#pragma once

#include "json_writer.hpp"
#include "table.hpp"

#include <assbin/error.hpp>
#include <output_target.hpp>
#include <quoting.hpp>

#include <boost/program_options.hpp>

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assbin::cli {

using assbin_common::json_quote;
using assbin_common::printable;
using assbin_common::shell_quote;

// One table for every verb (kExitCodeTable prints it; the README holds the same lines, a test
// compares them, and another runs each verb into each code).
inline constexpr int kExitOk = 0;
inline constexpr int kExitDiffers = 1; // done, answer negative: differs, invalid, refused, or a batch failure
inline constexpr int kExitUnreadable =
    2;                                   // not done: usage error, or the input missing, unreadable or damaged
inline constexpr int kExitCannotRun = 3; // not done here: no OpenGL context, or an output cannot be written

inline constexpr std::string_view kExitCodeTable =
    "exit codes (the same for every verb):\n"
    "  0  done: everything asked for (cmp: no difference; aem-info --validate: valid)\n"
    "  1  done, with a negative answer: a difference (cmp), an invalid model (aem-info --validate),\n"
    "     a dump that cannot be converted, or a file of a batch (folder, several inputs, sheet) failed\n"
    "  2  not done: a usage error, an input missing, unreadable or damaged, or no input in the folders\n"
    "  3  not done here: no OpenGL context (render), or an output cannot be written (in a batch too:\n"
    "     an output refused or a full disk)\n";

// The candidates a mistyped name may have meant: those it begins (an abbreviation), else those one
// typo away per four characters (a swap of neighbours is one), for "did you mean".
std::vector<std::string> close_names(std::string_view name, const std::vector<std::string>& candidates);
// Edit distance of two names, a swap of two neighbours counting as one edit.
size_t edit_distance(std::string_view a, std::string_view b);

// Prints "assbin: error: <what>" on stderr.
void print_error(std::string_view what);
// The reader's sentence for the user: "at byte <offset> in <chunk path>: <message>", and after it,
// for a limit, the option that raises it in that option's unit; for a file that is not a dump but
// an AEM model, the verb that reads it. Every verb words a reader error with it.
std::string parse_error_text(std::string_view file, const ParseError& error);
// The "error" member every --json output carries when a file could not be read: {code, offset, path,
// message, limit} (limit: the option that raises it, or null); `error` null writes null.
void write_error_json(JsonWriter& json, std::string_view file, const ParseError* error);
// A whole --json document for a file that could not be read: {"file": ..., "error": {...}}.
void print_error_json(std::string_view file, const ParseError& error);
// Prints "assbin: error: <file>: " + parse_error_text on stderr.
void print_parse_error(std::string_view file, const ParseError& error);
// Prints "assbin: error: <what>" and the verb's synopsis; returns kExitUnreadable.
int usage_error(std::string_view what, std::string_view usage);

// A verb's positional argument, named as its synopsis names it; never listed among the options.
struct Operand {
    std::string option; // the internal name ("file")
    std::string word;   // the synopsis's word ("FILE")
    bool many = false;  // any number of them (IN...)
    bool required = true;
};

struct VerbSyntax {
    std::string_view verb;  // "info"
    std::string_view usage; // the synopsis and what the verb does, shown by --help and usage errors
    std::vector<Operand> operands;
};

// Parses a verb's arguments. Returns nullopt after printing help (`*exit_code` = 0) or a usage
// error (`*exit_code` = 2), worded in the synopsis's terms: "info needs a FILE", "info takes one
// FILE; 'b' is one too many", "--depth takes a whole number, not '-1'".
std::optional<boost::program_options::variables_map>
parse_verb_arguments(const std::vector<std::string>& args, const VerbSyntax& syntax,
                     const boost::program_options::options_description& options, int* exit_code);

// The project's output rule (common/output_target.hpp) for the outputs a verb knows before it reads
// anything: false, with the reason printed (exit kExitCannotRun), when one of them is one of the
// run's inputs or an existing folder, block device or socket. Every file opened for writing while
// `inputs` lives is held to it again.
// While it lives, what the verb prints for the user (its report lines, --json) goes to the standard
// error when one of `outputs` is the standard output (`-o -`, /dev/stdout, /dev/fd/1: the output's
// bytes own that stream, and a report line in it would corrupt them). Not copyable.
class ReportsOffStandardOutput {
  public:
    explicit ReportsOffStandardOutput(const std::vector<std::filesystem::path>& outputs);
    ~ReportsOffStandardOutput();
    ReportsOffStandardOutput(const ReportsOffStandardOutput&) = delete;
    ReportsOffStandardOutput& operator=(const ReportsOffStandardOutput&) = delete;

  private:
    std::streambuf* saved_ = nullptr;
};

// `writes` is what the outputs hold, `verb` the command that writes them: an existing file holding
// something else is refused unless named with that content's extension (refuse_other_content).
bool outputs_allowed(const assbin_common::InputFiles& inputs,
                     const std::vector<std::filesystem::path>& outputs, assbin_common::Content writes,
                     const std::string& verb);

// Makes the folder an output goes into, as convert always has (render -o new/x.png, dump IN new/OUT,
// cmp --html new/report.html): a missing folder is no reason to lose the work. One that cannot be
// made is left for the write to report.
void make_output_folder(const std::filesystem::path& output);

// When `file` is not what this verb reads but another verb's input (an AEM model given to `info`, a
// dump given to `aem-info`): " (it is an AEM model: use 'assbin aem-info')"; otherwise "".
std::string other_verb_hint(const std::string& file, std::string_view verb);

} // namespace assbin::cli
