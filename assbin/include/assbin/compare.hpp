// Comparing two scenes by value, the way a regression suite needs: every difference with its
// scene path, never a byte-stream walk. Layout variants (node metadata or not, 4- or 8-byte texture
// hints, lights with or without position/direction/up, 20- or 24-byte keys, compression, double
// precision) are not differences; a full scene compared with a shortened one is first reduced to
// its shortened form (bounds and face hashes, ASSBIN-FORMAT.md §5).
#pragma once

#include <assbin/types.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assbin {

struct CompareOptions {
    // Two floating-point values match when they are equal (0 == -0), both NaN, or within any of
    // the tolerances below. Integers, strings, counts, flags and face hashes compare exactly.
    // Absolute: |actual - expected| <= epsilon. 0, the default, turns it off: exact comparison
    // unless another tolerance is set, so that no change passes unseen. 0.1 is `assimp cmpdump`'s
    // fixed tolerance.
    double epsilon = 0;
    // Relative: |actual - expected| <= relative * max(|actual|, |expected|).
    std::optional<double> relative;
    // At most this many representable values apart, counted in the value's own precision (f32 for
    // vertex data, f64 for key times, durations and double properties).
    std::optional<uint64_t> ulps;
    // Material properties holding floats and doubles are compared by value, whatever type and size
    // they are stored with (a float against a double in float precision): for a single-precision
    // dump against a double-precision one, whose properties differ only in their stored type.
    bool real_properties_by_value = false;
    // How many differences CompareResult::differences keeps; every difference is still counted.
    size_t max_diffs = 50;
    // Differences whose path matches one of these glob patterns are skipped (counted in `ignored`).
    // '*' matches any run of characters, '/' included; '?' any one character; everything else,
    // '[' and ']' too, is literal. Example: "*/tangents*", "scene/node[*]/metadata*".
    std::vector<std::string> ignore;
};

struct Difference {
    // Where: "scene/mesh[2]/normals.max.y", "scene/node[RootNode/Arm]/transform[1][3]",
    // "scene/mesh[0]/faces[17][2]", "scene/material[1]/property[$clr.diffuse][0]".
    // Nodes are named by the path of names from the root (EXPECTED's names; "#i" marks the i-th
    // child when a name is empty or repeats among siblings).
    std::string path;
    std::string expected;        // the value in EXPECTED, as text ("(absent)" when it has none)
    std::string actual;          // the value in ACTUAL
    std::optional<double> delta; // actual - expected, for numbers
};

struct CompareResult {
    std::vector<Difference> differences; // the first max_diffs differences, in scene order
    uint64_t total = 0;                  // every difference found (not counting ignored ones)
    uint64_t ignored = 0;                // differences skipped because an ignore pattern matched
    uint64_t values_compared = 0;        // scalar values compared (numbers, strings, hashes, counts)
    // True when the scenes were compared in the shortened form (at least one side is shortened).
    bool shortened = false;
    // Which side was full and had its bounds and face hashes derived for the comparison.
    bool derived_actual = false;
    bool derived_expected = false;

    bool same() const { return total == 0; }
};

// Compares ACTUAL against EXPECTED (the reference), in scene order: scene flags and counts, the
// node tree (children matched by position), meshes, materials (properties matched by key, semantic
// and index), animations, textures, lights, cameras. When counts differ, the common prefix is
// compared and per-element arrays whose lengths differ (vertices, faces, weights, keys, texels) are
// not compared element by element: the count difference is reported once. Node metadata is compared
// only when both layouts store it; light position/direction/up only when both store them; texture
// hints only as far as both layouts store them (4 or 8 bytes).
// Throws std::invalid_argument when an option is out of range (negative or NaN tolerance), or when
// a full scene compared with a shortened one has malformed faces (see make_shortened).
CompareResult compare(const Scene& actual, const Scene& expected, const CompareOptions& options = {});

// True when `text` matches the glob `pattern` ('*' any run including '/', '?' one character,
// everything else literal). Never fails; linear in practice.
bool glob_match(std::string_view pattern, std::string_view text);

} // namespace assbin
