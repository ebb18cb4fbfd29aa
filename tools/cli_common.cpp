#include "cli_common.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

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
    before_value();
    out_ << '{';
    has_items_.push_back(false);
}

void JsonWriter::end_object() {
    const bool had_items = has_items_.back();
    has_items_.pop_back();
    if (had_items) newline();
    out_ << '}';
}

void JsonWriter::begin_array() {
    before_value();
    out_ << '[';
    has_items_.push_back(false);
}

void JsonWriter::end_array() {
    const bool had_items = has_items_.back();
    has_items_.pop_back();
    if (had_items) newline();
    out_ << ']';
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

namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0 if it is not valid.
size_t utf8_sequence_length(std::string_view text, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    size_t length = 0;
    if (lead >= 0xC2 && lead <= 0xDF)
        length = 2;
    else if (lead >= 0xE0 && lead <= 0xEF)
        length = 3;
    else if (lead >= 0xF0 && lead <= 0xF4)
        length = 4;
    else
        return 0;
    if (i + length > text.size()) return 0;
    for (size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
    }
    return length;
}

} // namespace

std::string json_quote(std::string_view text) {
    std::string out = "\"";
    for (size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c < 0x20 || c == 0x7F) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
            out += buffer;
        } else if (c >= 0x80) {
            const size_t length = utf8_sequence_length(text, i);
            if (length == 0) {
                char buffer[8];
                std::snprintf(buffer, sizeof buffer, "\\u%04x", c); // keep the byte visible, as Latin-1
                out += buffer;
            } else {
                out.append(text.substr(i, length));
                i += length;
                continue;
            }
        } else {
            out += static_cast<char>(c);
        }
        ++i;
    }
    out += '"';
    return out;
}

std::string printable(std::string_view text, size_t max) {
    std::string out;
    for (unsigned char c : text) {
        if (out.size() >= max) {
            out += "...";
            break;
        }
        if (c < 0x20 || c == 0x7F) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
            out += buffer;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

std::string with_thousands(uint64_t number) {
    std::string digits = std::to_string(number);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace assbin::cli
