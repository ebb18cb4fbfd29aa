// The corpus sweeps' list of files that must fail to read (one name a line, '#' comments).
#pragma once

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace assbin_test {

inline std::set<std::string> read_expected_failures(const std::filesystem::path& list) {
    std::set<std::string> names;
    if (list.empty()) return names;
    std::ifstream in(list);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line[0] != '#') names.insert(line);
    }
    return names;
}

} // namespace assbin_test
