// compare(): the scene-level walk, the tolerance test and the difference list. The parts of a scene
// are compared in compare_node.cpp, compare_mesh.cpp and compare_parts.cpp.
#include "compare_context.hpp"

#include <assbin/compare.hpp>
#include <assbin/shortened.hpp>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace assbin {

bool glob_match(std::string_view pattern, std::string_view text) {
    // Greedy matching with one backtrack point (the last '*'): enough for '*' and '?' alone.
    size_t p = 0, t = 0;
    size_t star = std::string_view::npos, resume = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            resume = t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

namespace detail {

namespace {

template <class T>
std::string shortest(T value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char text[64];
    const auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
}

// Position on the number line counted in representable values: adjacent values differ by 1, and
// -0 and +0 share a position. Not called for NaN.
uint64_t ordinal(float value) {
    const uint32_t bits = std::bit_cast<uint32_t>(value);
    return (bits & 0x80000000u) ? uint64_t{0x80000000u} - (bits & 0x7FFFFFFFu) : uint64_t{bits} + 0x80000000u;
}

uint64_t ordinal(double value) {
    constexpr uint64_t kSign = uint64_t{1} << 63;
    const uint64_t bits = std::bit_cast<uint64_t>(value);
    return (bits & kSign) ? kSign - (bits & ~kSign) : bits + kSign;
}

template <class T>
bool within(const CompareOptions& options, T actual, T expected) {
    if (actual == expected) return true;
    const bool actual_nan = std::isnan(actual), expected_nan = std::isnan(expected);
    if (actual_nan || expected_nan) return actual_nan && expected_nan;
    const double difference = std::fabs(static_cast<double>(actual) - static_cast<double>(expected));
    if (difference <= options.epsilon) return true;
    if (options.relative &&
        difference <= *options.relative * std::max(std::fabs(double(actual)), std::fabs(double(expected)))) {
        return true;
    }
    if (options.ulps) {
        const uint64_t a = ordinal(actual), e = ordinal(expected);
        if ((a > e ? a - e : e - a) <= *options.ulps) return true;
    }
    return false;
}

void check_options(const CompareOptions& options) {
    if (!(options.epsilon >= 0)) {
        throw std::invalid_argument("the absolute tolerance (epsilon) must be 0 or more, not " +
                                    shortest(options.epsilon));
    }
    if (options.relative && !(*options.relative >= 0)) {
        throw std::invalid_argument("the relative tolerance must be 0 or more, not " +
                                    shortest(*options.relative));
    }
}

template <class T, class CompareOne>
void compare_list(Comparer& comparer, const char* plural, const char* singular, const std::vector<T>& actual,
                  const std::vector<T>& expected, CompareOne compare_one) {
    std::string count = "/";
    count += plural;
    count += ".count";
    comparer.exact(count, actual.size(), expected.size());
    for (size_t i = 0; i < std::min(actual.size(), expected.size()); ++i) {
        Comparer::Scope scope(comparer, part(singular, i));
        compare_one(comparer, actual[i], expected[i]);
    }
}

void compare_scene(Comparer& comparer, const Scene& actual, const Scene& expected) {
    static constexpr Comparer::FlagName kSceneFlags[] = {{kSceneIncomplete, "incomplete"},
                                                         {kSceneValidated, "validated"},
                                                         {kSceneValidationWarning, "validation-warning"},
                                                         {kSceneNonVerboseFormat, "non-verbose"},
                                                         {kSceneTerrain, "terrain"},
                                                         {kSceneAllowShared, "allow-shared"}};
    comparer.flags("/flags", actual.flags, expected.flags, kSceneFlags);
    compare_nodes(comparer, actual.nodes, expected.nodes);
    compare_list(comparer, "meshes", "mesh", actual.meshes, expected.meshes, compare_mesh);
    compare_list(comparer, "materials", "material", actual.materials, expected.materials, compare_material);
    compare_list(comparer, "animations", "animation", actual.animations, expected.animations,
                 compare_animation);
    compare_list(comparer, "textures", "texture", actual.textures, expected.textures, compare_texture);
    compare_list(comparer, "lights", "light", actual.lights, expected.lights, compare_light);
    compare_list(comparer, "cameras", "camera", actual.cameras, expected.cameras, compare_camera);
}

} // namespace

std::string format_number(float value) {
    return shortest(value);
}
std::string format_number(double value) {
    return shortest(value);
}

std::string format_hex(uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

std::string format_text(std::string_view text) {
    std::string quoted = "\"";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            quoted += '\\';
            quoted += c;
        } else if (byte < 0x20 || byte == 0x7F) {
            char escape[8];
            std::snprintf(escape, sizeof escape, "\\x%02x", byte);
            quoted += escape;
        } else {
            quoted += c;
        }
    }
    quoted += '"';
    return quoted;
}

Comparer::Comparer(const CompareOptions& options, CompareResult& result)
    : options_(options), result_(result) {}

bool Comparer::detail_wanted() const {
    return !options_.ignore.empty() || result_.differences.size() < options_.max_diffs;
}

void Comparer::report(std::string_view suffix, std::string expected, std::string actual,
                      std::optional<double> delta) {
    if (!detail_wanted()) {
        ++result_.total;
        return;
    }
    std::string path = path_;
    path += suffix;
    for (const std::string& pattern : options_.ignore) {
        if (glob_match(pattern, path)) {
            ++result_.ignored;
            return;
        }
    }
    ++result_.total;
    if (result_.differences.size() < options_.max_diffs) {
        result_.differences.push_back({std::move(path), std::move(expected), std::move(actual), delta});
    }
}

bool Comparer::exact(std::string_view suffix, uint64_t actual, uint64_t expected) {
    ++result_.values_compared;
    if (actual == expected) return true;
    report(suffix, std::to_string(expected), std::to_string(actual),
           static_cast<double>(actual) - static_cast<double>(expected));
    return false;
}

bool Comparer::exact_hex(std::string_view suffix, uint64_t actual, uint64_t expected) {
    ++result_.values_compared;
    if (actual == expected) return true;
    report(suffix, format_hex(expected), format_hex(actual));
    return false;
}

namespace {

std::string flags_text(uint64_t value, std::span<const Comparer::FlagName> names) {
    std::string text = format_hex(value), list;
    uint64_t named = 0;
    for (const Comparer::FlagName& flag : names) {
        if ((value & flag.bit) == 0) continue;
        list += (list.empty() ? "" : " | ") + std::string(flag.name);
        named |= flag.bit;
    }
    if ((value & ~named) != 0) list += (list.empty() ? "" : " | ") + format_hex(value & ~named);
    return list.empty() ? text : text + " (" + list + ")";
}

} // namespace

bool Comparer::flags(std::string_view suffix, uint64_t actual, uint64_t expected,
                     std::span<const FlagName> names) {
    ++result_.values_compared;
    if (actual == expected) return true;
    report(suffix, flags_text(expected, names), flags_text(actual, names));
    return false;
}

bool Comparer::text(std::string_view suffix, std::string_view actual, std::string_view expected) {
    ++result_.values_compared;
    if (actual == expected) return true;
    report(suffix, format_text(expected), format_text(actual));
    return false;
}

bool Comparer::presence(std::string_view suffix, bool actual, bool expected) {
    ++result_.values_compared;
    if (actual == expected) return true;
    report(suffix, expected ? "present" : "(absent)", actual ? "present" : "(absent)");
    return false;
}

bool Comparer::matches(float actual, float expected) const {
    return within(options_, actual, expected);
}
bool Comparer::matches(double actual, double expected) const {
    return within(options_, actual, expected);
}

bool Comparer::real(std::string_view suffix, float actual, float expected) {
    ++result_.values_compared;
    if (matches(actual, expected)) return true;
    report(suffix, format_number(expected), format_number(actual), double(actual) - double(expected));
    return false;
}

bool Comparer::real(std::string_view suffix, double actual, double expected) {
    ++result_.values_compared;
    if (matches(actual, expected)) return true;
    report(suffix, format_number(expected), format_number(actual), actual - expected);
    return false;
}

void Comparer::float_records(std::string_view suffix, std::span<const std::byte> actual_bytes,
                             std::span<const std::byte> expected_bytes, size_t count, size_t components,
                             const char* const* names) {
    const size_t n = count * components;
    result_.values_compared += n;
    if (n == 0 || std::memcmp(actual_bytes.data(), expected_bytes.data(), n * sizeof(float)) == 0) return;
    // Read by copy: the records may lie unaligned in a file (ReadOptions::array_views).
    const auto at = [](std::span<const std::byte> bytes, size_t i) {
        float value;
        std::memcpy(&value, bytes.data() + i * sizeof(float), sizeof value);
        return value;
    };
    for (size_t i = 0; i < n; ++i) {
        const float actual_i = at(actual_bytes, i), expected_i = at(expected_bytes, i);
        if (matches(actual_i, expected_i)) continue;
        if (!detail_wanted()) {
            ++result_.total;
            continue;
        }
        std::string where(suffix);
        append_index(where, i / components);
        if (names) {
            where += '.';
            where += names[i % components];
        }
        report(where, format_number(expected_i), format_number(actual_i),
               double(actual_i) - double(expected_i));
    }
}

void Comparer::float_bounds(std::string_view suffix, const float* actual, const float* expected,
                            size_t components, const char* const* names) {
    for (size_t c = 0; c < components; ++c) {
        ++result_.values_compared;
        if (matches(actual[c], expected[c])) continue;
        std::string where(suffix);
        where += '.';
        where += names[c];
        report(where, format_number(expected[c]), format_number(actual[c]),
               double(actual[c]) - double(expected[c]));
    }
}

void Comparer::vec3(std::string_view suffix, const Vec3& actual, const Vec3& expected) {
    float_bounds(suffix, actual.data(), expected.data(), 3, kXyz);
}

void Comparer::color3(std::string_view suffix, const Color3& actual, const Color3& expected) {
    float_bounds(suffix, actual.data(), expected.data(), 3, kRgba);
}

void Comparer::color4(std::string_view suffix, const Color4& actual, const Color4& expected) {
    float_bounds(suffix, actual.data(), expected.data(), 4, kRgba);
}

void Comparer::quaternion(std::string_view suffix, const Quaternion& actual, const Quaternion& expected) {
    const std::string base(suffix);
    real(base + ".w", actual.w(), expected.w());
    real(base + ".x", actual.x(), expected.x());
    real(base + ".y", actual.y(), expected.y());
    real(base + ".z", actual.z(), expected.z());
}

void Comparer::matrix(std::string_view suffix, const Matrix4& actual, const Matrix4& expected) {
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c) {
            ++result_.values_compared;
            if (matches(actual(r, c), expected(r, c))) continue;
            std::string where(suffix);
            append_index(where, static_cast<size_t>(r));
            append_index(where, static_cast<size_t>(c));
            report(where, format_number(expected(r, c)), format_number(actual(r, c)),
                   double(actual(r, c)) - double(expected(r, c)));
        }
    }
}

// Integer arrays of equal length, element by element after a memcmp fast path.
template <class T>
void Comparer::integer_array(std::string_view suffix, std::span<const T> actual, std::span<const T> expected,
                             bool hex) {
    result_.values_compared += actual.size();
    if (actual.empty() || std::memcmp(actual.data(), expected.data(), actual.size_bytes()) == 0) return;
    for (size_t i = 0; i < actual.size(); ++i) {
        if (actual[i] == expected[i]) continue;
        if (!detail_wanted()) {
            ++result_.total;
            continue;
        }
        std::string where(suffix);
        append_index(where, i);
        if (hex)
            report(where, format_hex(expected[i]), format_hex(actual[i]));
        else
            report(where, std::to_string(expected[i]), std::to_string(actual[i]),
                   double(actual[i]) - double(expected[i]));
    }
}

void Comparer::u32_array(std::string_view suffix, std::span<const uint32_t> actual,
                         std::span<const uint32_t> expected, bool hex) {
    integer_array(suffix, actual, expected, hex);
}

void Comparer::byte_array(std::string_view suffix, std::span<const uint8_t> actual,
                          std::span<const uint8_t> expected) {
    integer_array(suffix, actual, expected, false);
}

} // namespace detail

CompareResult compare(const Scene& actual, const Scene& expected, const CompareOptions& options) {
    detail::check_options(options);
    CompareResult result;
    // A full scene held against a shortened one is reduced to what its shortened dump would hold.
    result.shortened = actual.is_shortened() || expected.is_shortened();
    std::optional<Scene> derived_actual, derived_expected;
    // A full side is hashed and bounded as Assimp's shortened writer would (from copied arrays).
    const auto derive = [](const Scene& full) {
        if (!holds_file_records(full)) return make_shortened(full);
        Scene copy = full;
        copy_file_records(copy);
        return make_shortened(copy);
    };
    if (result.shortened && !actual.is_shortened()) derived_actual = derive(actual);
    if (result.shortened && !expected.is_shortened()) derived_expected = derive(expected);
    result.derived_actual = derived_actual.has_value();
    result.derived_expected = derived_expected.has_value();
    const Scene& a = derived_actual ? *derived_actual : actual;
    const Scene& e = derived_expected ? *derived_expected : expected;

    detail::Comparer comparer(options, result);
    comparer.shortened = result.shortened;
    comparer.compare_metadata = a.layout.node_metadata && e.layout.node_metadata;
    comparer.compare_light_placement =
        a.layout.light_placement.value_or(true) && e.layout.light_placement.value_or(true);
    comparer.real_properties_by_value = options.real_properties_by_value;
    comparer.texture_hint_bytes =
        (a.layout.texture_hint_bytes == 4 || e.layout.texture_hint_bytes == 4) ? 4 : 8;
    detail::compare_scene(comparer, a, e);
    return result;
}

} // namespace assbin
