// Pieces every verb shares: exit codes, error lines, option parsing, and a small JSON writer.
#pragma once

#include <assbin/error.hpp>

#include <boost/program_options.hpp>

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assbin::cli {

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

// Streams JSON with correct escaping and commas; pretty-printed with two-space indentation.
class JsonWriter {
  public:
    explicit JsonWriter(std::ostream& out) : out_(out) {}

    void begin_object();
    void end_object();
    void begin_array();
    void end_array();
    void key(std::string_view name);

    void value(std::string_view text);
    void value(const char* text) { value(std::string_view(text)); }
    void value(const std::string& text) { value(std::string_view(text)); }
    void value(bool flag);
    void value(long long number);
    void value(unsigned long long number);
    void value(int number) { value(static_cast<long long>(number)); }
    void value(unsigned number) { value(static_cast<unsigned long long>(number)); }
    void value(long number) { value(static_cast<long long>(number)); }
    void value(unsigned long number) { value(static_cast<unsigned long long>(number)); }
    // Exactly: the shortest text that reads back as the same value in its own precision. Non-finite
    // numbers are written as strings ("nan", "inf", "-inf").
    void value(double number);
    void value(float number);
    void null();

    template <class T>
    void field(std::string_view name, const T& v) {
        key(name);
        value(v);
    }

    // Call once at the end: adds the final newline.
    void finish();

  private:
    void before_value();
    void newline();

    std::ostream& out_;
    std::vector<bool> has_items_; // one per open container
    bool after_key_ = false;
};

// Text as a JSON string literal (quotes included); bytes that are not valid UTF-8 become \u00XX.
std::string json_quote(std::string_view text);

// A name for display: printable, with control bytes escaped, cut to `max` characters.
std::string printable(std::string_view text, size_t max = 200);

// Numbers as humans read them in a terminal: "1234567" -> "1,234,567".
std::string with_thousands(uint64_t number);

} // namespace assbin::cli
