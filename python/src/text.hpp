// Text from the C++ side as Python str. Names in dumps are untrusted bytes: they are decoded as the
// `assbin` program decodes them (UTF-8; a byte that is not part of a UTF-8 character is read as
// Latin-1, as older writers wrote names), and the first such name of the process is said once, as a
// UnicodeWarning. Paths are decoded as os.fsdecode decodes them.
#pragma once

#include <pybind11/pybind11.h>

#include <filesystem>
#include <string>
#include <vector>

namespace assbin::python {

// UTF-8 of `bytes`, each byte outside a valid UTF-8 sequence read as Latin-1.
std::string utf8_or_latin1(const std::string& bytes);

// `bytes` as a str, decoded as above; warns once per process when a name is not UTF-8.
pybind11::str text(const std::string& bytes);

// A list of str, each decoded by text().
pybind11::list text_list(const std::vector<std::string>& items);

// A path as os.fsdecode gives it (undecodable bytes as surrogates, so the path opens again).
pybind11::str path_text(const std::filesystem::path& path);

} // namespace assbin::python
