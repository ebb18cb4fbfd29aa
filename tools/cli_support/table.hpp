// Text for a terminal: a table whose columns line up, and numbers with thousands separators. Used by
// the verbs and the benchmarks. Internal (library assbin_cli_support); not installed.
#pragma once

#include <counting.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace assbin::cli {

// Rows of cells printed with every column as wide as its widest cell, two spaces before each
// column: numbers right-aligned, text left-aligned, trailing spaces trimmed.
class Table {
  public:
    // `alignment` holds 'l' or 'r' per column; a missing letter means 'l'.
    Table(std::vector<std::string> headings, std::string alignment);

    // A row shorter than the headings leaves the last columns empty; a longer one is cut.
    void add(std::vector<std::string> row);
    size_t rows() const { return rows_.size(); }
    void print(std::ostream& out) const;

  private:
    void print_row(std::ostream& out, const std::vector<std::string>& row,
                   const std::vector<size_t>& widths) const;

    std::vector<std::string> headings_;
    std::string alignment_;
    std::vector<std::vector<std::string>> rows_;
};

// Numbers as humans read them (common/counting.hpp): "1,234,567", "1 warning", "3 meshes".
using assbin_common::counted;
using assbin_common::with_thousands;

} // namespace assbin::cli
