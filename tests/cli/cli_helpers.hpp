// What the CLI suites share: fixture paths, whole-file text, and "does the output say this".
#pragma once

#include "support/fixtures.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace assbin_cli_test {

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// tests/data/assimp-5.2.5/<name>
inline std::string fixture(const std::string& name) {
    return assbin_test::fixture_path("assimp-5.2.5/" + name).string();
}

inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline void write_text(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

} // namespace assbin_cli_test
