// A reader error with the file it came from and, in compare, the side: the translator in module.cpp
// gives them to assbin.ReadError (filename, side) and to the OSError of a file that cannot be opened.
#pragma once

#include <assbin/error.hpp>

#include <string>

namespace assbin::python {

struct NamedReadError : ParseError {
    NamedReadError(const ParseError& error, std::string file_name, std::string side_name = {})
        : ParseError(error), file(std::move(file_name)), side(std::move(side_name)) {}
    std::string file;
    std::string side; // "actual" or "expected" in compare; empty elsewhere
};

} // namespace assbin::python
