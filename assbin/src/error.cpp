#include <assbin/error.hpp>

namespace assbin {

namespace {

std::string compose(ErrorCode code, uint64_t offset, const std::string& chunk_path,
                    const std::string& message) {
    if (code == ErrorCode::Io) return message;
    std::string text = "at byte " + std::to_string(offset);
    if (!chunk_path.empty()) text += " in " + chunk_path;
    return text + ": " + message;
}

} // namespace

ParseError::ParseError(ErrorCode code, uint64_t offset, std::string chunk_path, std::string message)
    : std::runtime_error(compose(code, offset, chunk_path, message)), code_(code), offset_(offset),
      chunk_path_(std::move(chunk_path)), message_(std::move(message)) {}

const char* error_code_name(ErrorCode code) {
    switch (code) {
    case ErrorCode::Io:
        return "io";
    case ErrorCode::NotAssbin:
        return "not-assbin";
    case ErrorCode::Truncated:
        return "truncated";
    case ErrorCode::BadChunk:
        return "bad-chunk";
    case ErrorCode::BadLength:
        return "bad-length";
    case ErrorCode::BadValue:
        return "bad-value";
    case ErrorCode::BadCompression:
        return "bad-compression";
    case ErrorCode::LimitExceeded:
        return "limit-exceeded";
    }
    return "unknown";
}

} // namespace assbin
