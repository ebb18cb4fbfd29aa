// Reading the CLI's --json output in tests with a real JSON library (nlohmann-json), by type: a
// number must be a number, a boolean a boolean, null null; a type regression fails the test instead
// of passing as the same text (what Boost.PropertyTree, which turns every value into a string, did).
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace assbin_test::json_read {

using nlohmann::json;

// The value at a dotted path ("totals.same"); throws when a step is missing.
inline const json& at(const json& root, const std::string& dotted) {
    const json* value = &root;
    size_t begin = 0;
    while (begin <= dotted.size()) {
        const size_t end = std::min(dotted.find('.', begin), dotted.size());
        const std::string key = dotted.substr(begin, end - begin);
        if (!value->is_object() || !value->contains(key))
            throw std::runtime_error(dotted + ": no such member");
        value = &(*value)[key];
        begin = end + 1;
    }
    return *value;
}

inline double number(const json& root, const std::string& dotted) {
    const json& value = at(root, dotted);
    if (!value.is_number()) throw std::runtime_error(dotted + " is not a number: " + value.dump());
    return value.get<double>();
}

inline std::string text(const json& root, const std::string& dotted) {
    const json& value = at(root, dotted);
    if (!value.is_string()) throw std::runtime_error(dotted + " is not a string: " + value.dump());
    return value.get<std::string>();
}

inline bool boolean(const json& root, const std::string& dotted) {
    const json& value = at(root, dotted);
    if (!value.is_boolean()) throw std::runtime_error(dotted + " is not a boolean: " + value.dump());
    return value.get<bool>();
}

// A scalar as text, the way the corpus manifests (TSV) write it: integers in decimal, booleans
// "true"/"false", null "null", strings as they are.
inline std::string scalar_text(const json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number_unsigned()) return std::to_string(value.get<unsigned long long>());
    if (value.is_number_integer()) return std::to_string(value.get<long long>());
    if (value.is_null()) return "null";
    return value.dump(); // booleans, other numbers
}

} // namespace assbin_test::json_read
