// The one error type the reader throws: where it happened (byte offset and chunk path) and a
// sentence a user can act on.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace assbin {

enum class ErrorCode {
    Io,             // the file could not be opened or read
    NotAssbin,      // the magic is missing
    Truncated,      // a field or array runs past the end of its chunk or of the file
    BadChunk,       // a chunk id is not the one the layout requires here
    BadLength,      // a chunk length disagrees with its parent or its content
    BadValue,       // a field holds a value no writer produces (e.g. a metadata count past the chunk)
    BadCompression, // the zlib stream is corrupt or inflates to another size than declared
    LimitExceeded,  // a ReadLimits bound was reached
};

// Which ReadLimits bound a LimitExceeded error hit, so that a front end can name the knob its user
// turns (the command line's --max-inflated-mb, Python's max_inflated_mb=, ...) in that knob's unit.
enum class Limit {
    None,
    InflatedSize,    // ReadLimits::max_inflated_bytes
    InflateRatio,    // ReadLimits::max_inflate_ratio
    NodeDepth,       // ReadLimits::max_node_depth
    AllocationRatio, // ReadLimits::max_allocation_ratio (with max_allocation_allowance)
};

// Thrown by every reading function. `what()` gives the whole sentence:
// "at byte 1234 in scene/mesh[3]/bone[12]: <message>".
class ParseError : public std::runtime_error {
  public:
    ParseError(ErrorCode code, uint64_t offset, std::string chunk_path, std::string message,
               Limit limit = Limit::None);

    ErrorCode code() const { return code_; }
    // For LimitExceeded: the bound that was reached.
    Limit limit() const { return limit_; }
    // Byte offset in the file; for a compressed dump, in the inflated image (512-byte header + body).
    uint64_t offset() const { return offset_; }
    const std::string& chunk_path() const { return chunk_path_; }
    const std::string& message() const { return message_; }

  private:
    ErrorCode code_;
    uint64_t offset_;
    std::string chunk_path_;
    std::string message_;
    Limit limit_ = Limit::None;
};

// A short stable name for the code ("truncated", "bad-chunk", ...), for JSON output.
const char* error_code_name(ErrorCode code);

} // namespace assbin
