// Numbers in sentences, one way everywhere: counts and sizes with thousands separators
// ("79,728", as every report prints them) and a count agreeing with its noun ("1 triangle",
// "3 triangles"). Header-only, like the rest of common/; used by the reader's and converter's
// messages and by the command line's reports, so that an error and a report say a number alike.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace assbin_common {

// 1234567 -> "1,234,567".
inline std::string with_thousands(uint64_t number) {
    const std::string digits = std::to_string(number);
    std::string out;
    out.reserve(digits.size() + digits.size() / 3);
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

// counted(1, "warning") -> "1 warning", counted(1638, "bone") -> "1,638 bones"; nouns whose plural
// is not singular + "s" give it: counted(n, "vertex", "vertices").
inline std::string counted(uint64_t number, std::string_view singular, std::string_view plural = {}) {
    std::string out = with_thousands(number) + " ";
    if (number == 1)
        out += singular;
    else if (!plural.empty())
        out += plural;
    else
        (out += singular) += 's';
    return out;
}

} // namespace assbin_common
