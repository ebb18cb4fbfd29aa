#include "support/fixtures.hpp"

#include <assbin/format.hpp>
#include <quoting.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace assbin_test {

std::vector<std::byte> fixture_bytes(const std::string& relative) {
    std::ifstream file(fixture_path(relative), std::ios::binary);
    BOOST_TEST_REQUIRE(file.good(), "missing fixture " << relative);
    std::vector<char> chars((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(chars.size());
    std::transform(chars.begin(), chars.end(), bytes.begin(), [](char c) { return std::byte(c); });
    return bytes;
}

std::vector<std::string> all_assbin_fixtures() {
    std::vector<std::string> names;
    for (const fs::path& file : assbin::find_dumps(ASSBIN_TEST_DATA_DIR))
        names.push_back(fs::relative(file, ASSBIN_TEST_DATA_DIR).generic_string());
    std::sort(names.begin(), names.end()); // relative names can sort apart from the full paths
    return names;
}

namespace {

using assbin_common::shell_quote;

std::string slurp(const fs::path& path) {
    std::ifstream file(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

} // namespace

CommandResult run_cli(const std::vector<std::string>& args) {
    TempDir temp;
    // Without COLUMNS: --help is then laid out as written whatever the shell that runs the tests set.
    std::string command = "env -u COLUMNS " + shell_quote(ASSBIN_CLI_PATH);
    // Appended piece by piece: `" " + std::string` trips GCC 12's -Wrestrict in Release builds.
    for (const std::string& arg : args) {
        command += ' ';
        command += shell_quote(arg);
    }
    command += " >";
    command += shell_quote((temp.path() / "out").string());
    command += " 2>";
    command += shell_quote((temp.path() / "err").string());
    command += " </dev/null";
    const int status = std::system(command.c_str());
    CommandResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = slurp(temp.path() / "out");
    result.err = slurp(temp.path() / "err");
    return result;
}

} // namespace assbin_test
