// Access to the fixture files in tests/data and to the built CLI, for every test suite.
#pragma once

#include "support/temp_dir.hpp"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace assbin_test {

// tests/data/<relative>
inline std::filesystem::path fixture_path(const std::string& relative) {
    return std::filesystem::path(ASSBIN_TEST_DATA_DIR) / relative;
}

// The bytes of tests/data/<relative>; fails the test when the file is missing.
std::vector<std::byte> fixture_bytes(const std::string& relative);

// Every fixture file (relative paths) that starts with the ASSBIN magic, sorted.
std::vector<std::string> all_assbin_fixtures();

struct CommandResult {
    int exit_code = -1;
    std::string out; // standard output
    std::string err; // standard error
};

// Runs the built `assbin` with these arguments (each shell-quoted), capturing both streams.
CommandResult run_cli(const std::vector<std::string>& args);

} // namespace assbin_test
