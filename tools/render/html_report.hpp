// `assbin cmp --html`: one self-contained page (pictures inlined as data: URIs, no script, no
// server) with each pair's verdict and differences, EXPECTED and ACTUAL thumbnails side by side,
// and a difference picture where two full dumps differ. Shortened dumps have no arrays: their
// meshes' bounds are drawn as boxes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace assbin::render {

struct ReportPair {
    std::string name;
    std::string verdict;                    // "same", "different", "missing-actual", ...
    std::vector<std::string> differences;   // lines to show (already cut to a few)
    std::filesystem::path actual, expected; // empty when missing
};

// Writes the page to `path` (a temporary name, renamed when complete). Pictures that cannot be
// drawn (no OpenGL context, unreadable file) leave a note in their place; the page is written
// anyway. Throws std::runtime_error when the file cannot be written.
void write_html_report(const std::filesystem::path& path, const std::string& title,
                       const std::vector<ReportPair>& pairs);

} // namespace assbin::render
