#include "drawable_model.hpp"
#include "gltf_drawable.hpp"

#include <aem/io.hpp>
#include <assbin/converter/convert.hpp>

#include <fstream>
#include <stdexcept>

namespace assbin::render {

namespace {

// A box's 12 triangles: a shortened mesh's position bounds.
void add_box(aem::Model& model, const Eigen::Vector3f& low, const Eigen::Vector3f& high) {
    const auto first = uint32_t(model.vertices.size());
    for (int corner = 0; corner < 8; ++corner) {
        aem::Vertex v;
        v.position = {corner & 1 ? high.x() : low.x(), corner & 2 ? high.y() : low.y(),
                      corner & 4 ? high.z() : low.z()};
        v.normal = {0, 0, 1};
        model.vertices.push_back(v);
    }
    const int faces[12][3] = {{0, 1, 3}, {0, 3, 2}, {4, 6, 7}, {4, 7, 5}, {0, 4, 5}, {0, 5, 1},
                              {2, 3, 7}, {2, 7, 6}, {0, 2, 6}, {0, 6, 4}, {1, 5, 7}, {1, 7, 3}};
    for (const auto& face : faces)
        for (const int k : face)
            model.indices.push_back(first + uint32_t(k));
}

bool starts_with_aem_magic(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    char magic[3] = {};
    in.read(magic, 3);
    return in.gcount() == 3 && std::string(magic, 3) == "AEM";
}

// A 2024 model names its texture files; they are looked for beside it, then in `folders`. Only
// base-colour textures are drawn, so only their absence is reported.
void find_texture_files(DrawableModel& out, const std::filesystem::path& own_folder,
                        const std::vector<std::filesystem::path>& folders) {
    const aem::Model& model = out.model;
    out.texture_files.assign(model.textures.size(), {});
    std::vector<std::filesystem::path> searched{own_folder.empty() ? "." : own_folder};
    searched.insert(searched.end(), folders.begin(), folders.end());
    for (size_t m = 0; m < model.materials.size(); ++m) {
        const int32_t slot = model.materials[m].base_color_texture;
        if (slot < 0 || size_t(slot) >= model.textures.size() || !out.texture_files[size_t(slot)].empty())
            continue;
        const std::string& name = model.textures[size_t(slot)].file_name;
        std::error_code error;
        for (const std::filesystem::path& folder : searched) {
            if (std::filesystem::is_regular_file(folder / name, error)) {
                out.texture_files[size_t(slot)] = folder / name;
                break;
            }
        }
        if (out.texture_files[size_t(slot)].empty()) {
            out.warnings.push_back(
                "material " + std::to_string(m) + ": texture '" + name +
                "' was not found (looked beside the model and in the texture folders); its "
                "flat colour is drawn");
        }
    }
}

} // namespace

DrawableModel load_drawable(const std::filesystem::path& file, const ReadOptions& read,
                            const std::vector<std::filesystem::path>& texture_folders,
                            const GltfPose* gltf_pose) {
    DrawableModel out;
    if (is_gltf_file(file)) {
        out.model = load_gltf_drawable(file, out.warnings, gltf_pose);
        if (!texture_folders.empty())
            out.warnings.push_back("--texture-dir does nothing here: a glTF file names its images itself");
        return out;
    }
    if (starts_with_aem_magic(file)) {
        out.model = aem::read_file(file);
        if (out.model.layout == aem::Layout::Edition2024)
            find_texture_files(out, file.parent_path(), texture_folders);
        else if (!texture_folders.empty())
            out.warnings.push_back(
                "--texture-dir does nothing here: a 2025 model carries its textures' pixels");
        return out;
    }
    const Scene scene = read_file(file, read);
    if (scene.is_shortened()) {
        out.bounds_only = true;
        for (const Mesh& mesh : scene.meshes)
            out.shortened_bones += mesh.bones.size();
        out.model.materials.resize(1);
        for (const Mesh& mesh : scene.meshes) {
            if (mesh.positions) add_box(out.model, mesh.positions->bounds.min, mesh.positions->bounds.max);
        }
        if (out.model.indices.empty())
            throw std::runtime_error("a shortened dump without mesh bounds: nothing to draw");
        out.model.meshes.push_back({0, uint32_t(out.model.indices.size()), 0});
        return out;
    }
    converter::ConvertOptions options;
    options.layout = aem::Layout::Edition2025; // textures as pixels
    options.optimize = false;                  // a picture needs no weld or vertex-cache order
    options.warn_cameras_and_lights_dropped = false; // drawn with render's own camera and lights
    options.source_folder = file.parent_path();
    options.texture_folders = texture_folders;
    converter::ConvertResult result = converter::convert(scene, options);
    out.model = std::move(result.model);
    out.warnings = std::move(result.warnings);
    return out;
}

} // namespace assbin::render
