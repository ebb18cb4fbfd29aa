// Draws an AEM model (either layout), posed by the AEM library's evaluator, into an RGBA image
// with OpenGL 3.3 core: perspective camera framing the posed bounds, a head light, 4x multisampling.
#pragma once

#include <aem/model.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace assbin::render {

struct RenderOptions {
    uint32_t width = 800;
    uint32_t height = 600;
    float yaw_degrees = 35.0f;         // about the up axis (+y); 0 looks at the model's front (from +z)
    float pitch_degrees = 25.0f;       // above the horizon
    std::optional<uint32_t> animation; // posed at `time` seconds; none: the bind pose
    float time = 0.0f;
    bool wireframe = false;
    bool shade_normals = false; // colour = normal (x, y, z mapped to r, g, b) instead of lighting
    bool bones = false;         // the skeleton drawn over the model (lines to parents, dots at joints)
    std::array<uint8_t, 3> background = {46, 52, 64};
    // A 2024 model's texture files, one per model texture (empty: not found, the flat colour is drawn);
    // load_drawable (drawable_model.hpp) finds them beside the model and in --texture-dir folders.
    std::vector<std::filesystem::path> texture_files;
};

// RGBA8, rows top first.
struct Picture {
    uint32_t width = 0;
    uint32_t height = 0;
    std::vector<uint8_t> rgba;
};

// Needs a current HeadlessGl context on this thread. Throws std::runtime_error when a GL step fails
// (the message names it).
Picture render_model(const aem::Model& model, const RenderOptions& options);

} // namespace assbin::render
