// Every verb of the `assbin` program: one function each, given the arguments after the verb name.
// Each returns the process exit code (0 success, 1 "differs"/"invalid", 2 unreadable input or usage).
#pragma once

#include <string>
#include <vector>

namespace assbin::cli {

int run_info(const std::vector<std::string>& args);
int run_tree(const std::vector<std::string>& args);
int run_aem_info(const std::vector<std::string>& args);
int run_convert(const std::vector<std::string>& args);
int run_dump(const std::vector<std::string>& args);
int run_cmp(const std::vector<std::string>& args);
int run_render(const std::vector<std::string>& args);

} // namespace assbin::cli
