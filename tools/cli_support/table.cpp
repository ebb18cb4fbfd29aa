#include "table.hpp"

#include <algorithm>
#include <ostream>
#include <utility>

namespace assbin::cli {

Table::Table(std::vector<std::string> headings, std::string alignment)
    : headings_(std::move(headings)), alignment_(std::move(alignment)) {
    alignment_.resize(headings_.size(), 'l');
}

void Table::add(std::vector<std::string> row) {
    row.resize(headings_.size());
    rows_.push_back(std::move(row));
}

void Table::print(std::ostream& out) const {
    std::vector<size_t> widths(headings_.size());
    for (size_t c = 0; c < widths.size(); ++c)
        widths[c] = headings_[c].size();
    for (const auto& row : rows_) {
        for (size_t c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], row[c].size());
    }
    print_row(out, headings_, widths);
    for (const auto& row : rows_)
        print_row(out, row, widths);
}

void Table::print_row(std::ostream& out, const std::vector<std::string>& row,
                      const std::vector<size_t>& widths) const {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
        const std::string padding(widths[c] - row[c].size(), ' ');
        line += "  ";
        if (alignment_[c] == 'r') {
            line += padding;
            line += row[c];
        } else {
            line += row[c];
            line += padding;
        }
    }
    while (!line.empty() && line.back() == ' ')
        line.pop_back();
    out << line << "\n";
}

} // namespace assbin::cli
