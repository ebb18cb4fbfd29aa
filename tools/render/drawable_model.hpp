// What `render`, `render --sheet` and `cmp --html` draw for a file: an AEM model as it is; a glTF
// file at rest (gltf_drawable.hpp); a full
// dump converted in memory to the 2025 layout (textures as pixels, found as `convert` finds them);
// a shortened dump, which has no arrays, as its meshes' bounds (boxes, to be drawn in wireframe). A
// texture that cannot be found is a warning in both cases, worded alike.
#pragma once

#include "gltf_drawable.hpp"

#include <aem/model.hpp>
#include <assbin/reader.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace assbin::render {

struct DrawableModel {
    aem::Model model;
    bool bounds_only = false;          // a shortened dump's boxes
    size_t shortened_bones = 0;        // a shortened dump's bones (not drawn: no vertices to place them)
    std::vector<std::string> warnings; // the conversion's, or a 2024 model's textures not found
    std::vector<std::filesystem::path> texture_files; // a 2024 model's, per texture (RenderOptions)
};

// Throws ParseError (unreadable dump), aem::Error (unreadable AEM file) or converter::ConvertError
// (a dump that cannot be converted), and std::runtime_error for a shortened dump without meshes.
// `gltf_pose`: a glTF file is posed as it is loaded (its animation baked into the vertices); other
// models are posed when drawn.
DrawableModel load_drawable(const std::filesystem::path& file, const ReadOptions& read,
                            const std::vector<std::filesystem::path>& texture_folders,
                            const GltfPose* gltf_pose = nullptr);

} // namespace assbin::render
