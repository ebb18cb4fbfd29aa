// Reading and writing AEM files. The reader checks the file's shape (magic, version, size);
// the content's invariants are validate()'s job (aem/validate.hpp), so broken files stay loadable
// for inspection.
#pragma once

#include <aem/format.hpp>
#include <aem/model.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace aem {

enum class ErrorCode {
    Io,                 // the file could not be opened, read, written or renamed
    NotAem,             // the magic is not "AEM"
    UnsupportedVersion, // the version byte is not 1
    Truncated,          // the file is shorter than its header or than its counts imply
    TrailingBytes,      // the file is longer than its counts imply
    TooLarge,           // the counts imply more bytes than this machine can address
    CountTooLarge,      // writing: a section holds more records than a uint32 count can say
    NameTooLong,        // writing: a name does not fit its 128-byte NUL-terminated field
    LayoutMismatch,     // writing: the model holds something its layout has no field for
};

// The one error type reading and writing throw. `what()` is a sentence a user can act on.
class Error : public std::runtime_error {
  public:
    Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}

    ErrorCode code() const { return code_; }

  private:
    ErrorCode code_;
};

// A short stable name for the code ("truncated", "trailing-bytes", ...), for JSON output.
const char* error_code_name(ErrorCode code);

// The header of an AEM file held in memory. Throws Error (Truncated, NotAem, UnsupportedVersion)
// when `bytes` does not start with a version 1 header. Does not look at the rest of the file.
Counts read_counts(std::span<const std::byte> bytes);

// A whole AEM file held in memory, in whichever layout its size fits (AEM-FORMAT.md "Telling the
// layouts apart"; Model::layout says which; when both fit, the one with fewer violations of
// validate(), the 2024 one on a tie). Throws Error when the header is bad (see read_counts), when
// the size fits neither layout's counts (Truncated or TrailingBytes as the 2024 counts see it, the
// message naming what both layouts' counts imply) or is too large to address; the content is not
// validated. Material slots holding 255 become -1 when there are at most 255
// textures; names end at their first NUL (a field with no NUL gives a 128-byte name).
Model read_model(std::span<const std::byte> bytes);

// Reads the file at `path`, then as read_model. Throws Error (code Io) when it cannot be read.
Model read_file(const std::filesystem::path& path);

// Throws what write_model would throw before writing anything (CountTooLarge, NameTooLong,
// LayoutMismatch) when the model cannot be expressed in its layout; returns when it can.
void check_expressible(const Model& model);

// Streams the sections to `out` in file order, in the model's layout. Throws Error (CountTooLarge,
// NameTooLong, LayoutMismatch) before writing anything when the model cannot be expressed in it, and Error
// (Io) when the stream fails. Invariants are not checked: an invalid model is written as it is.
void write_model(const Model& model, std::ostream& out);

// The file write_model would produce, in memory. Throws as write_model.
std::vector<std::byte> to_bytes(const Model& model);

// Writes `model` to a temporary name beside `path` and renames it to `path` once complete, so
// `path` either keeps its old content or gets the whole new file. Throws as write_model, and
// Error (Io) when the file cannot be created, written or renamed (the temporary is removed).
void write_file(const Model& model, const std::filesystem::path& path);

} // namespace aem
