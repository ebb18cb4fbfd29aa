// JSON for `--json` output and for the benchmarks' reports: streamed, pretty-printed, with correct
// escaping and commas, and numbers written exactly. Internal (library assbin_cli_support); not installed.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace assbin::cli {

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
    void open(char bracket);  // an object's or array's opening bracket, after a comma if one is due
    void close(char bracket); // its closing bracket, on a line of its own when it has items
    void before_value();
    void newline();

    std::ostream& out_;
    std::vector<bool> has_items_; // one per open container
    bool after_key_ = false;
};

} // namespace assbin::cli
