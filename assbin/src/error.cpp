#include <assbin/error.hpp>

#include <counting.hpp>

#include <string>
#include <vector>

namespace assbin {

namespace {

// A chunk path for people: a run of more than four equal steps (a chain of nodes nested a
// thousand deep) is written as its first and last step with the count between them,
// "node[0]/... 1,020 more node[0] .../node[0]", not 10 KB of "node[0]/". ParseError::chunk_path()
// keeps the whole path for programs.
std::string readable_path(const std::string& path) {
    std::vector<std::string> steps;
    for (size_t from = 0;;) {
        const size_t slash = path.find('/', from);
        steps.push_back(path.substr(from, slash - from));
        if (slash == std::string::npos) break;
        from = slash + 1;
    }
    std::string text;
    const auto add = [&](const std::string& step) {
        if (!text.empty()) text += '/';
        text += step;
    };
    for (size_t k = 0; k < steps.size();) {
        size_t run = 1;
        while (k + run < steps.size() && steps[k + run] == steps[k])
            ++run;
        if (run > 4) {
            const std::string count = assbin_common::with_thousands(run - 2);
            add(steps[k]);
            std::string middle = "... ";
            middle += count;
            middle += " more ";
            middle += steps[k];
            middle += " ...";
            add(middle);
            add(steps[k]);
        } else {
            for (size_t r = 0; r < run; ++r)
                add(steps[k]);
        }
        k += run;
    }
    return text;
}

std::string compose(ErrorCode code, uint64_t offset, const std::string& chunk_path,
                    const std::string& message) {
    if (code == ErrorCode::Io) return message;
    std::string text = "at byte " + std::to_string(offset);
    if (!chunk_path.empty()) text += " in " + readable_path(chunk_path);
    return text + ": " + message;
}

} // namespace

ParseError::ParseError(ErrorCode code, uint64_t offset, std::string chunk_path, std::string message,
                       Limit limit)
    : std::runtime_error(compose(code, offset, chunk_path, message)), code_(code), offset_(offset),
      chunk_path_(std::move(chunk_path)), message_(std::move(message)), limit_(limit) {}

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
