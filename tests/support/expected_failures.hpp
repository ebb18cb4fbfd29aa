// The corpus sweeps' list of files that must fail to read (one name a line, '#' comments), and the
// read each sweep starts a dump with.
#pragma once

#include <assbin/error.hpp>
#include <assbin/reader.hpp>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
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

// Reads a corpus dump; one that fails to read counts as passed when the list expects it (printed
// as "expected" when `say_expected`), else as failed (printed), and gives nullopt.
inline std::optional<assbin::Scene> read_corpus_dump(const std::filesystem::path& file,
                                                     const std::string& name,
                                                     const std::set<std::string>& unreadable,
                                                     bool say_expected, size_t& passed, size_t& failed) {
    try {
        return assbin::read_file(file);
    } catch (const assbin::ParseError& error) {
        const bool expected = unreadable.count(file.filename().string()) > 0;
        if (!expected || say_expected)
            std::cout << (expected ? "expected " : "FAILED   ") << name << ": unreadable: " << error.what()
                      << "\n";
        (expected ? passed : failed) += 1;
        return std::nullopt;
    }
}

} // namespace assbin_test
