// How the front ends name the reader's limits to their users: each limit's knob, the same word in
// Python (max_inflate_ratio=) and on the command line (--max-inflate-ratio), and its unit. One table,
// so that a ParseError's limit() reads the same from both.
#pragma once

#include <assbin/error.hpp>

#include <string>
#include <string_view>

namespace assbin_common {

struct LimitWords {
    std::string_view keyword; // Python's keyword; the option is "--" + it with '-' for '_'
    std::string_view unit;
};

inline LimitWords limit_words(assbin::Limit limit) {
    switch (limit) {
    case assbin::Limit::InflatedSize:
        return {"max_inflated_mb", "in MiB"};
    case assbin::Limit::InflateRatio:
        return {"max_inflate_ratio", "a multiple of the compressed stream's size"};
    case assbin::Limit::NodeDepth:
        return {"max_node_depth", "in levels of nesting"};
    case assbin::Limit::AllocationRatio:
        return {"max_allocation_ratio", "a multiple of the body's size"};
    case assbin::Limit::None:
        break;
    }
    return {};
}

// "--max-inflate-ratio", or "" for no limit.
inline std::string limit_option(assbin::Limit limit) {
    const std::string_view keyword = limit_words(limit).keyword;
    if (keyword.empty()) return {};
    std::string option = "--";
    for (const char c : keyword)
        option += c == '_' ? '-' : c;
    return option;
}

} // namespace assbin_common
