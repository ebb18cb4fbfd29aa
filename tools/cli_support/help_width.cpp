#include "help_width.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include <sys/ioctl.h>
#include <unistd.h>

namespace assbin::cli {

size_t help_width() {
    if (const char* columns = std::getenv("COLUMNS"); columns != nullptr && *columns != '\0') {
        char* end = nullptr;
        const unsigned long value = std::strtoul(columns, &end, 10);
        if (*end == '\0' && value >= 40 && value <= 1000) return value;
    }
    winsize size{};
    if (::isatty(STDOUT_FILENO) && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 40)
        return size.ws_col;
    return 0;
}

namespace {

size_t leading_spaces(std::string_view line) {
    const size_t first = line.find_first_not_of(' ');
    return first == std::string_view::npos ? line.size() : first;
}

// The column a table row's second cell starts at ("  --json   print ..." -> 11; "usage: assbin
// convert IN..." -> the column after the verb, where the synopsis continues), or 0 when the line is
// not one.
size_t second_column(std::string_view line) {
    if (line.starts_with("usage: ")) {
        size_t column = 7;
        for (int word = 0; word < 2 && column < line.size(); ++word) { // "assbin", the verb
            const size_t space = line.find(' ', column);
            if (space == std::string_view::npos) return 0;
            column = space + 1;
        }
        return column;
    }
    const size_t text = leading_spaces(line);
    const size_t gap = line.find("  ", text);
    if (gap == std::string_view::npos) return 0;
    const size_t next = line.find_first_not_of(' ', gap);
    return next == std::string_view::npos ? 0 : next;
}

// Appends `words` wrapped at `width`: the first line starts with `first` (already indented), the
// others with `indent` spaces.
void wrap(std::string& out, std::string first, const std::vector<std::string_view>& words, size_t indent,
          size_t width) {
    std::string line = std::move(first);
    bool line_has_word = false;
    for (const std::string_view word : words) {
        if (line_has_word && line.size() + 1 + word.size() > width) {
            out += line;
            out += '\n';
            line.assign(indent, ' ');
            line_has_word = false;
        }
        if (line_has_word) line += ' ';
        line += word;
        line_has_word = true;
    }
    out += line;
    out += '\n';
}

std::vector<std::string_view> words_of(std::string_view text) {
    std::vector<std::string_view> words;
    size_t at = 0;
    while (at < text.size()) {
        const size_t start = text.find_first_not_of(' ', at);
        if (start == std::string_view::npos) break;
        const size_t end = std::min(text.find(' ', start), text.size());
        words.push_back(text.substr(start, end - start));
        at = end;
    }
    return words;
}

} // namespace

std::string fit_to_width(std::string_view text, size_t width) {
    if (width == 0) return std::string(text);
    std::vector<std::string_view> lines;
    for (size_t at = 0; at < text.size();) {
        const size_t end = std::min(text.find('\n', at), text.size());
        lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    const bool ends_with_newline = text.ends_with('\n');
    std::string out;
    for (size_t i = 0; i < lines.size();) {
        const std::string_view line = lines[i];
        const bool prose = !line.empty() && leading_spaces(line) == 0 && second_column(line) == 0;
        const size_t column = prose ? 0 : second_column(line);
        // A block: a paragraph (this prose line and the prose lines after it), or a table row and
        // the lines that continue its second cell (indented to its column); refilled as one when
        // one of its lines is too wide.
        size_t end = i + 1;
        while (end < lines.size() && !lines[end].empty() &&
               (prose ? leading_spaces(lines[end]) == 0 && second_column(lines[end]) == 0
                      : column > 0 && leading_spaces(lines[end]) == column))
            ++end;
        const bool too_wide = std::any_of(lines.begin() + static_cast<std::ptrdiff_t>(i),
                                          lines.begin() + static_cast<std::ptrdiff_t>(end),
                                          [&](std::string_view l) { return l.size() > width; });
        if (!too_wide) {
            for (size_t k = i; k < end; ++k) {
                out += lines[k];
                out += '\n';
            }
        } else {
            // The first cell keeps its spacing; the rest is words, continued under the second
            // column (or the line's own indent).
            const size_t head = column > 0 ? column : leading_spaces(line);
            const size_t indent = column > 0 && column < width / 2 ? column : leading_spaces(line);
            std::vector<std::string_view> words = words_of(line.substr(head));
            for (size_t k = i + 1; k < end; ++k)
                for (const std::string_view word : words_of(lines[k]))
                    words.push_back(word);
            wrap(out, std::string(line.substr(0, head)), words, prose ? 0 : indent, width);
        }
        i = end;
    }
    if (!ends_with_newline && !out.empty()) out.pop_back();
    return out;
}

} // namespace assbin::cli
