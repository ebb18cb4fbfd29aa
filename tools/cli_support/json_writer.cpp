#include "json_writer.hpp"

#include <quoting.hpp>

#include <charconv>
#include <cmath>
#include <ostream>

namespace assbin::cli {

using assbin_common::json_quote;

void JsonWriter::newline() {
    out_ << '\n';
    for (size_t i = 0; i < has_items_.size(); ++i)
        out_ << "  ";
}

void JsonWriter::before_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (!has_items_.empty()) {
        if (has_items_.back()) out_ << ',';
        has_items_.back() = true;
        newline();
    }
}

void JsonWriter::begin_object() {
    open('{');
}

void JsonWriter::end_object() {
    close('}');
}

void JsonWriter::begin_array() {
    open('[');
}

void JsonWriter::end_array() {
    close(']');
}

void JsonWriter::open(char bracket) {
    before_value();
    out_ << bracket;
    has_items_.push_back(false);
}

void JsonWriter::close(char bracket) {
    const bool had_items = has_items_.back();
    has_items_.pop_back();
    if (had_items) newline();
    out_ << bracket;
}

void JsonWriter::key(std::string_view name) {
    before_value();
    out_ << json_quote(name) << ": ";
    after_key_ = true;
}

void JsonWriter::value(std::string_view text) {
    before_value();
    out_ << json_quote(text);
}

void JsonWriter::value(bool flag) {
    before_value();
    out_ << (flag ? "true" : "false");
}

void JsonWriter::value(long long number) {
    before_value();
    out_ << number;
}

void JsonWriter::value(unsigned long long number) {
    before_value();
    out_ << number;
}

namespace {

// The shortest text that reads back as exactly `number` (std::to_chars), in its own precision: a
// float written as a float ("0.1"), not as the double it widens to ("0.10000000149011612").
template <class Real>
void write_real(std::ostream& out, Real number) {
    if (std::isnan(number)) {
        out << "\"nan\"";
    } else if (std::isinf(number)) {
        out << (number > 0 ? "\"inf\"" : "\"-inf\"");
    } else {
        char buffer[64];
        const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, number);
        out.write(buffer, error == std::errc() ? end - buffer : 0);
    }
}

} // namespace

void JsonWriter::value(double number) {
    before_value();
    write_real(out_, number);
}

void JsonWriter::value(float number) {
    before_value();
    write_real(out_, number);
}

void JsonWriter::null() {
    before_value();
    out_ << "null";
}

void JsonWriter::finish() {
    out_ << '\n';
}

} // namespace assbin::cli
