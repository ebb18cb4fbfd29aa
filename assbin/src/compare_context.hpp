// The state of one comparison: the current scene path, the tolerance test, and the collected
// differences. Paths are built only when a difference is found, so equal data costs one
// comparison per value.
#pragma once

#include <assbin/compare.hpp>
#include <assbin/types.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace assbin::detail {

// Display text of values, as differences show them.
std::string format_number(float value);
std::string format_number(double value);
std::string format_hex(uint64_t value);
std::string format_text(std::string_view text); // quoted, control bytes escaped

// a + b as a new string (GCC 12 flags `"literal" + std::string` with -Wrestrict in Release).
inline std::string joined(std::string_view a, std::string_view b) {
    std::string text(a);
    text += b;
    return text;
}

class Comparer {
  public:
    Comparer(const CompareOptions& options, CompareResult& result);

    // Facts both sides share, set once by compare().
    bool shortened = false; // both sides hold bounds and face hashes
    bool compare_metadata = true;
    bool compare_light_placement = true;
    size_t texture_hint_bytes = 8;
    bool real_properties_by_value = false; // CompareOptions::real_properties_by_value

    // Appends a path part ("/mesh[2]", "/node[Root/Arm]") for the lifetime of the scope.
    class Scope {
      public:
        Scope(Comparer& comparer, std::string_view part)
            : comparer_(comparer), length_(comparer.path_.size()) {
            comparer_.path_ += part;
        }
        ~Scope() { comparer_.path_.resize(length_); }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

      private:
        Comparer& comparer_;
        size_t length_;
    };

    // Records a difference at the current path + `suffix`, unless an ignore pattern matches it.
    void report(std::string_view suffix, std::string expected, std::string actual,
                std::optional<double> delta = std::nullopt);

    // Each returns true when the values match (and reports the difference otherwise).
    bool exact(std::string_view suffix, uint64_t actual, uint64_t expected);
    bool exact_hex(std::string_view suffix, uint64_t actual, uint64_t expected);
    // A bit mask shown with its bits' names: "0x9 (incomplete | non-verbose)".
    struct FlagName {
        uint64_t bit;
        const char* name;
    };
    bool flags(std::string_view suffix, uint64_t actual, uint64_t expected, std::span<const FlagName> names);
    bool text(std::string_view suffix, std::string_view actual, std::string_view expected);
    bool presence(std::string_view suffix, bool actual, bool expected);
    bool real(std::string_view suffix, float actual, float expected);
    bool real(std::string_view suffix, double actual, double expected);

    // One record of `components` floats named `names`: differences at suffix.name.
    void float_bounds(std::string_view suffix, const float* actual, const float* expected, size_t components,
                      const char* const* names);
    void vec3(std::string_view suffix, const Vec3& actual, const Vec3& expected);
    void color3(std::string_view suffix, const Color3& actual, const Color3& expected);
    void color4(std::string_view suffix, const Color4& actual, const Color4& expected);
    void quaternion(std::string_view suffix, const Quaternion& actual, const Quaternion& expected);
    void matrix(std::string_view suffix, const Matrix4& actual, const Matrix4& expected);

    // Element-wise over two arrays of the same length of records holding `components` floats each,
    // named `names` ("x", "y", "z"): differences at suffix[i].name.
    // `count` records of `components` floats each, as bytes (copied arrays or file records).
    void float_records(std::string_view suffix, std::span<const std::byte> actual,
                       std::span<const std::byte> expected, size_t count, size_t components,
                       const char* const* names);
    // Element-wise over two integer arrays of the same length (shared by the two below).
    template <class T>
    void integer_array(std::string_view suffix, std::span<const T> actual, std::span<const T> expected,
                       bool hex);
    // Element-wise over two u32 arrays of the same length: differences at suffix[i].
    void u32_array(std::string_view suffix, std::span<const uint32_t> actual,
                   std::span<const uint32_t> expected, bool hex);
    // Element-wise over two byte arrays of the same length: differences at suffix[i].
    void byte_array(std::string_view suffix, std::span<const uint8_t> actual,
                    std::span<const uint8_t> expected);

    // False once max_diffs differences are kept and no ignore pattern could drop one: the caller
    // then only counts (report() does the same), without building paths or texts.
    bool detail_wanted() const;
    void count_difference() { ++result_.total; }

    bool matches(float actual, float expected) const;
    bool matches(double actual, double expected) const;
    void counted(uint64_t values) { result_.values_compared += values; }

  private:
    const CompareOptions& options_;
    CompareResult& result_;
    std::string path_ = "scene";
};

inline constexpr const char* kXyz[] = {"x", "y", "z"};
inline constexpr const char* kRgba[] = {"r", "g", "b", "a"};

// Appends "[index]".
inline void append_index(std::string& text, size_t index) {
    text += '[';
    text += std::to_string(index);
    text += ']';
}

// "/channel[3 'Bip01 Head']" path parts: the index, and the name it stands for.
inline std::string named_part(std::string_view name, size_t index, std::string_view what) {
    std::string text = "/";
    text += name;
    text += '[';
    text += std::to_string(index);
    text += " '";
    text += what;
    text += "']";
    return text;
}

// "/mesh[2]" path parts.
inline std::string part(std::string_view name, size_t index) {
    std::string text = "/";
    text += name;
    text += '[';
    text += std::to_string(index);
    text += ']';
    return text;
}

// The comparers of each part of a scene (compare_*.cpp), given ACTUAL first, as compare() is.
void compare_nodes(Comparer& comparer, const std::vector<Node>& actual, const std::vector<Node>& expected);
void compare_mesh(Comparer& comparer, const Mesh& actual, const Mesh& expected);
void compare_material(Comparer& comparer, const Material& actual, const Material& expected);
void compare_animation(Comparer& comparer, const Animation& actual, const Animation& expected);
void compare_texture(Comparer& comparer, const Texture& actual, const Texture& expected);
void compare_light(Comparer& comparer, const Light& actual, const Light& expected);
void compare_camera(Comparer& comparer, const Camera& actual, const Camera& expected);

} // namespace assbin::detail
