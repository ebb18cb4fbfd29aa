// The project's three ways of quoting text, one copy each, and one way back from %XX escapes
// (`percent_decoded`): for a terminal or a message (`printable`),
// for JSON (`json_quote`) and for a POSIX shell command line (`shell_quote`). Names in dumps are
// untrusted bytes (control characters, invalid UTF-8, megabytes long), so each form is total: any
// input gives well-formed output. Internal and header-only, like the rest of common/; not installed.
#pragma once

#include <cctype>

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace assbin_common {

// For display: control bytes as \xNN, cut after `max` bytes with "...", and between two `quote`
// characters when one is given ('\'' in converter messages, '"' in `info` tables); the quote inside
// is then written as a control byte is (\x22, \x27), so a quoted name always ends where it seems
// to, and Windows paths keep their single backslashes.
inline std::string printable(std::string_view text, size_t max = 200, char quote = '\0') {
    std::string out;
    if (quote != '\0') out += quote;
    const size_t start = out.size();
    for (const char byte : text) {
        const auto c = static_cast<unsigned char>(byte);
        if (out.size() - start >= max) {
            out += "...";
            break;
        }
        if (c < 0x20 || c == 0x7F || (quote != '\0' && byte == quote)) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
            out += buffer;
        } else {
            out += byte;
        }
    }
    if (quote != '\0') out += quote;
    return out;
}

namespace detail {

// Length of the valid UTF-8 sequence starting at text[i], or 0 if it is not valid.
inline size_t utf8_sequence_length(std::string_view text, size_t i) {
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

inline void append_json_escape(std::string& out, unsigned char c) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
    out += buffer;
}

} // namespace detail

// Whether `text` is valid UTF-8 throughout (ASCII included).
inline bool is_valid_utf8(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ++i;
            continue;
        }
        const size_t length = detail::utf8_sequence_length(text, i);
        if (length == 0) return false;
        i += length;
    }
    return true;
}

// A JSON string literal, quotes included. Valid UTF-8 passes through; a byte that is not part of a
// valid sequence is kept visible as \u00XX (read as Latin-1), so the output is always valid JSON.
inline std::string json_quote(std::string_view text) {
    std::string out = "\"";
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
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
            detail::append_json_escape(out, c);
        } else if (c >= 0x80) {
            const size_t length = detail::utf8_sequence_length(text, i);
            if (length == 0) {
                detail::append_json_escape(out, c);
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

// One word for /bin/sh, whatever it holds: 'text' with each ' written as '\''.
inline std::string shell_quote(std::string_view text) {
    std::string out = "'";
    for (const char c : text) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    out += '\'';
    return out;
}

// Back from URL-style escapes: each %XX (two hex digits) becomes its byte; a % not followed by two
// hex digits stays as it is. For file names stored escaped (a glTF URI, convert's record).
inline std::string percent_decoded(std::string_view text) {
    const auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    const auto value = [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (c | 0x20) - 'a' + 10;
    };
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) && hex(text[i + 2])) {
            out += static_cast<char>(value(text[i + 1]) * 16 + value(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

} // namespace assbin_common
