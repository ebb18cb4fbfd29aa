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
std::set<std::string> carried_paths(const MaterialKeys& material, const ConvertOptions& options) {
    std::set<std::string> carried;
    const auto take = [&](const TextureSlot* slot) {
        if (slot) carried.insert(slot->path);
    };
    take(material.first_of(kBaseColor, kDiffuse));
    take(material.first_of(kNormals, kNormalCamera));
    if (options.format != OutputFormat::Aem) {
        take(material.orm());
        take(material.first_of(kLightmap, kAmbientOcclusion));
        take(material.first_of(kEmissive, kEmissionColor));
    } else if (options.layout == aem::Layout::Edition2025) {
        take(material.texture(kDiffuseRoughness));
        take(material.first_of(kAmbientOcclusion, kLightmap));
        take(material.texture(kMetalness));
        take(material.first_of(kEmissive, kEmissionColor));
    } else {
        take(material.orm());
    }
    return carried;
}

} // namespace

void report_unused_texture_slots(const std::vector<MaterialKeys>& materials, const ConvertOptions& options,
                                 Report& report, ConvertStats& stats) {
    std::set<std::string> slots; // the slot names of the dropped references
    size_t with_drops = 0;
    for (const MaterialKeys& material : materials) {
        const std::set<std::string> carried = carried_paths(material, options);
        bool dropped = false;
        for (const auto& [type, path] : material.files) {
            if (carried.count(path)) continue;
            ++stats.texture_slots_dropped;
            slots.insert(texture_type_name(type));
            dropped = true;
        }
        with_drops += dropped ? 1 : 0;
    }
    if (stats.texture_slots_dropped == 0) return;
    std::string names;
    for (const std::string& slot : slots)
        names += (names.empty() ? "" : ", ") + slot;
    report.warn(std::to_string(stats.texture_slots_dropped) +
                (stats.texture_slots_dropped == 1 ? " texture" : " textures") + " of " +
                std::to_string(with_drops) + (with_drops == 1 ? " material" : " materials") + " (" + names +
                ") not used: " +
                (options.format != OutputFormat::Aem          ? "glTF's materials have"
                 : options.layout == aem::Layout::Edition2025 ? "the 2025 layout's materials have"
                                                              : "the 2024 layout's materials have") +
                " no slot for them");
}

} // namespace assbin::converter::detail
