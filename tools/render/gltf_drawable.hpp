// glTF 2.0 files for `render` (and `render --sheet`): what a glTF viewer shows, at rest or posed by
// one of the file's animations at a time, as an AEM model (2025 layout: textures as pixels) the
// renderer draws like any other.
#pragma once

#include <aem/model.hpp>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace assbin::render {

// A .gltf by its extension, or a .glb by its "glTF" magic.
bool is_gltf_file(const std::filesystem::path& path);

// Which animation poses the scene, and when.
struct GltfPose {
    std::string animation; // its index or its name
    double seconds = 0;    // clamped to the animation's keys, as a glTF viewer holds the first and last
};

// A file that is not a glTF file render can read: not JSON, a damaged GLB container, a member of
// the wrong type, a buffer or accessor past its bytes, a buffer file missing. The caller's exit 2
// (an unreadable input), with the cause and where it is, in the program's words.
struct UnreadableModel : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// An animation the file does not have (--anim 3 of a file with 2): the caller's usage error.
struct NoSuchGltfAnimation : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Every triangle primitive of the scene, at rest or, with `pose`, with every node the animation
// drives at that time (translation, rotation and scale channels; LINEAR, STEP, and CUBICSPLINE by its
// key values) and skins following their joints; with its material's base colour texture. Throws
// UnreadableModel for a damaged file, NoSuchGltfAnimation, or std::runtime_error for a file that
// holds nothing to draw, naming what is wrong.
aem::Model load_gltf_drawable(const std::filesystem::path& path, std::vector<std::string>& warnings,
                              const GltfPose* pose = nullptr);

} // namespace assbin::render
