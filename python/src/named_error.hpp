// Errors that know which file they are about. The translator in module.cpp raises them as the
// package's ReadError (filename, side) and as Python's own OSError subclasses, with errno,
// filename and filename2 set as Python's file functions set them. Paths stay paths until then: a
// name that is not UTF-8 reaches Python as os.fsdecode gives it.
#pragma once

#include <aem/io.hpp>
#include <assbin/error.hpp>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

namespace assbin::python {

// A dump that could not be read (ParseError), and the file it was read from; in compare, the side.
struct NamedReadError : ParseError {
    NamedReadError(const ParseError& error, std::filesystem::path file_path, std::string side_name = {})
        : ParseError(error), file(std::move(file_path)), side(std::move(side_name)) {}
    std::filesystem::path file;
    std::string side; // "actual" or "expected" in compare; empty elsewhere
};

// An AEM file that could not be read, and its path.
struct NamedAemError : aem::Error {
    NamedAemError(const aem::Error& error, std::filesystem::path file_path)
        : aem::Error(error), file(std::move(file_path)) {}
    std::filesystem::path file;
};

// A file that could not be opened, read or written: Python's OSError(errno, text, file, None,
// file2). `number` 0 finds the errno from the system's words quoted in `text` ("(Permission
// denied)"), as the project's readers and writers quote strerror.
struct FileError : std::runtime_error {
    FileError(const std::string& text, std::filesystem::path file_path, int number = 0,
              std::optional<std::filesystem::path> second = std::nullopt)
        : std::runtime_error(text), file(std::move(file_path)), file2(std::move(second)),
          error_number(number) {}
    std::filesystem::path file;
    std::optional<std::filesystem::path> file2;
    int error_number;
};

// The errno whose strerror() text `text` quotes in parentheses, or that the project's own words
// name ("no such file", "is a folder"); 0 when it names none.
int errno_in(const std::string& text);

// Rethrows an output failure from a writer (aem::Error Io, assbin::WriteError, the output rule's
// OutputError) as a FileError about `output`, or about the file the message names first when that
// is one of `candidates` (a texture beside the model). Called inside a catch block.
[[noreturn]] void rethrow_as_output_error(const std::filesystem::path& output);

} // namespace assbin::python
