// glTF 2.0 files for `render` (and `render --sheet`): what a glTF viewer shows without an animation,
// as an AEM model (2025 layout: textures as pixels) the renderer draws like any other.
#pragma once

#include <aem/model.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace assbin::render {

// A .gltf by its extension, or a .glb by its "glTF" magic.
bool is_gltf_file(const std::filesystem::path& path);

// Every triangle primitive of the scene at rest, with its material's base colour texture. Throws
// std::runtime_error (or nlohmann's parse error, a std::exception) naming what is wrong.
aem::Model load_gltf_drawable(const std::filesystem::path& path, std::vector<std::string>& warnings);

} // namespace assbin::render
