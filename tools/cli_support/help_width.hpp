// --help laid out for the width it is read at: the terminal's, or COLUMNS when set (the manual page
// is made with COLUMNS=73 so that, indented by man, it fits 80 columns). The texts are written for a
// wide terminal; a narrower one gets its long lines wrapped, prose paragraphs refilled, and table
// rows (options, verbs, exit codes) continued under their description column.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace assbin::cli {

// The columns --help is laid out for: COLUMNS when it holds a number from 40 to 1000, else the
// terminal's width when standard output is a terminal, else 0 (any width: the texts as written).
size_t help_width();

// `text` with every line wider than `width` wrapped at spaces (width 0: unchanged). Lines that start
// at column 0 and are not table rows are refilled as paragraphs; a table row (text, two or more
// spaces, text) continues under its second column; other lines continue under their own indent.
std::string fit_to_width(std::string_view text, size_t width);

} // namespace assbin::cli
