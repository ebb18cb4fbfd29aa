// What a model's materials cannot hold, said (issue "every drop is a warning"): texture files the
// dump's materials name in slots the target has no place for (specular, opacity, height, ... and,
// in the 2024 layout, emissive and occlusion; glTF's materials hold base colour, metallic-roughness,
// normal, occlusion and emissive). A file counts as carried when a slot the layout
// fills takes the same path, whatever slot named it (glTF imports name one file as both DIFFUSE and
// BASE_COLOR: nothing of it is lost).
#include "pipeline.hpp"

#include <algorithm>
#include <set>
#include <string>

namespace assbin::converter::detail {

namespace {

const char* texture_type_name(uint32_t type) {
    static const char* const kNames[] = {
        "none",      "diffuse",           "specular",          "ambient",       "emissive",
        "height",    "normals",           "shininess",         "opacity",       "displacement",
        "lightmap",  "reflection",        "base colour",       "normal camera", "emission colour",
        "metalness", "diffuse roughness", "ambient occlusion", "unknown",       "sheen",
        "clearcoat", "transmission"};
    return type < std::size(kNames) ? kNames[type] : "other";
}

// The paths the target's slots take from a material (materials_2024.cpp, materials_2025.cpp,
// gltf/gltf_materials.cpp).
std::set<std::string> carried_paths(const assbin::Material& material, const ConvertOptions& options) {
    std::set<std::string> carried;
    const auto take = [&](const std::optional<std::string>& path) {
        if (path) carried.insert(*path);
    };
    take(first_of(material, kBaseColor, kDiffuse));
    take(first_of(material, kNormals, kNormalCamera));
    if (options.format != OutputFormat::Aem) {
        take(orm_path(material));
        take(first_of(material, kLightmap, kAmbientOcclusion));
        take(first_of(material, kEmissive, kEmissionColor));
    } else if (options.layout == aem::Layout::Edition2025) {
        take(first_of(material, kDiffuseRoughness, kDiffuseRoughness));
        take(first_of(material, kAmbientOcclusion, kLightmap));
        take(first_of(material, kMetalness, kMetalness));
        take(first_of(material, kEmissive, kEmissionColor));
    } else {
        take(orm_path(material));
    }
    return carried;
}

} // namespace

void report_unused_texture_slots(const assbin::Scene& scene, const ConvertOptions& options, Report& report,
                                 ConvertStats& stats) {
    std::set<std::string> slots; // the slot names of the dropped references
    size_t materials = 0;
    for (const assbin::Material& material : scene.materials) {
        const std::set<std::string> carried = carried_paths(material, options);
        bool dropped = false;
        for (const assbin::MaterialProperty& property : material.properties) {
            if (property.key != "$tex.file") continue;
            std::optional<std::string> path = property.string_value();
            if (path) path->resize(std::min(path->size(), path->find('\0')));
            if (!path || path->empty() || carried.count(*path)) continue;
            ++stats.texture_slots_dropped;
            slots.insert(texture_type_name(property.semantic));
            dropped = true;
        }
        materials += dropped ? 1 : 0;
    }
    if (stats.texture_slots_dropped == 0) return;
    std::string names;
    for (const std::string& slot : slots)
        names += (names.empty() ? "" : ", ") + slot;
    report.warn(std::to_string(stats.texture_slots_dropped) +
                (stats.texture_slots_dropped == 1 ? " texture" : " textures") + " of " +
                std::to_string(materials) + (materials == 1 ? " material" : " materials") + " (" + names +
                ") not used: " +
                (options.format != OutputFormat::Aem          ? "glTF's materials have"
                 : options.layout == aem::Layout::Edition2025 ? "the 2025 layout's materials have"
                                                              : "the 2024 layout's materials have") +
                " no slot for them");
}

} // namespace assbin::converter::detail
