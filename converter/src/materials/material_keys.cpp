// A dump material's keys read once (pipeline.hpp, MaterialKeys), so that the three writers (AEM
// 2024, AEM 2025, glTF) map the same values by their own rules and none reads the keys itself.
// Where a key appears twice with the same semantic and index, the first counts, as in Assimp's own
// aiGetMaterialProperty. Cost: one pass over the material's properties.
#include "pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

namespace assbin::converter::detail {

namespace {

// The values of a numeric property as Assimp's aiGetMaterialFloatArray gives them: floats or
// doubles, else integers widened.
std::vector<double> values_of(const assbin::MaterialProperty& property) {
    std::vector<double> values = property.numbers();
    if (values.empty()) {
        for (const int32_t i : property.integers())
            values.push_back(i);
    }
    return values;
}

// The first value when it is finite.
std::optional<double> first_finite(const assbin::MaterialProperty& property) {
    const std::vector<double> values = values_of(property);
    if (values.empty() || !std::isfinite(values.front())) return std::nullopt;
    return values.front();
}

std::optional<int32_t> map_mode(const assbin::MaterialProperty& property) {
    const std::optional<double> value = first_finite(property);
    if (!value) return std::nullopt;
    return static_cast<int32_t>(std::clamp(*value, double(std::numeric_limits<int32_t>::min()),
                                           double(std::numeric_limits<int32_t>::max())));
}

// A UV set number; a billion stands for any set far past the eight a mesh can have.
uint32_t uv_set(const assbin::MaterialProperty& property) {
    return static_cast<uint32_t>(std::clamp(first_finite(property).value_or(0), 0.0, 1e9));
}

std::optional<std::array<double, 5>> uv_transform(const assbin::MaterialProperty& property) {
    if (property.data.size() != 20) return std::nullopt;
    float t[5];
    std::memcpy(t, property.data.data(), 20);
    std::array<double, 5> out;
    for (size_t k = 0; k < 5; ++k) {
        out[k] = t[k];
        if (!std::isfinite(out[k])) return std::nullopt;
    }
    if (out == std::array<double, 5>{0, 0, 1, 1, 0}) return std::nullopt;
    return out;
}

// The path as C code sees it (aiString::C_Str): up to the first NUL. Some importers count a
// terminating NUL in the length (MDL7 does).
std::string path_of(const assbin::MaterialProperty& property) {
    std::string path = property.string_value().value_or(std::string());
    path.resize(std::min(path.size(), path.find('\0')));
    return path;
}

// What of a slot has been read already (the first of each key counts).
struct SlotSeen {
    bool file = false, uv_set = false, map_u = false, map_v = false, transform = false, scale = false,
         strength = false;
};

} // namespace

const TextureSlot* MaterialKeys::texture(uint32_t type) const {
    const auto found = slots.find(type);
    return found != slots.end() && !found->second.path.empty() ? &found->second : nullptr;
}

const TextureSlot* MaterialKeys::first_of(uint32_t preferred, uint32_t fallback) const {
    const TextureSlot* slot = texture(preferred);
    return slot ? slot : texture(fallback);
}

const TextureSlot* MaterialKeys::orm() const {
    const TextureSlot* unknown = texture(kUnknown);
    const TextureSlot* metal = texture(kMetalness);
    const TextureSlot* rough = texture(kDiffuseRoughness);
    if (unknown && ((metal && unknown->path == metal->path) || (rough && unknown->path == rough->path)))
        return unknown;
    if (metal && rough && metal->path == rough->path) return metal;
    return nullptr;
}

const TextureSlot& MaterialKeys::settings(uint32_t type) const {
    static const TextureSlot kDefaults;
    const auto found = slots.find(type);
    return found != slots.end() ? found->second : kDefaults;
}

MaterialKeys read_material_keys(const assbin::Material& material) {
    MaterialKeys keys;
    keys.name = material.name();
    struct Factor {
        std::string_view key;
        std::vector<double> MaterialKeys::*values;
    };
    static constexpr Factor kFactors[] = {{"$clr.base", &MaterialKeys::base_colour},
                                          {"$clr.diffuse", &MaterialKeys::diffuse},
                                          {"$clr.emissive", &MaterialKeys::emissive},
                                          {"$mat.opacity", &MaterialKeys::opacity},
                                          {"$mat.metallicFactor", &MaterialKeys::metallic},
                                          {"$mat.roughnessFactor", &MaterialKeys::roughness},
                                          {"$mat.shininess", &MaterialKeys::shininess},
                                          {"$mat.gltf.alphaCutoff", &MaterialKeys::alpha_cutoff},
                                          {"$mat.twosided", &MaterialKeys::two_sided}};
    bool factor_seen[std::size(kFactors)] = {};
    bool alpha_mode_seen = false;
    std::map<uint32_t, SlotSeen> seen;
    for (const assbin::MaterialProperty& property : material.properties) {
        const std::string_view key = property.key;
        if (key == "$tex.file") {
            const std::string path = path_of(property);
            if (!path.empty()) keys.files.emplace_back(property.semantic, path);
        }
        if (property.index != 0) continue;
        if (key.starts_with("$tex.")) {
            TextureSlot& slot = keys.slots[property.semantic];
            SlotSeen& was = seen[property.semantic];
            slot.type = property.semantic;
            const auto first = [](bool& flag) { return !std::exchange(flag, true); };
            if (key == "$tex.file" && first(was.file)) {
                slot.path = path_of(property);
            } else if (key == "$tex.uvwsrc" && first(was.uv_set)) {
                slot.uv_set = uv_set(property);
            } else if (key == "$tex.mapmodeu" && first(was.map_u)) {
                slot.map_mode_u = map_mode(property);
            } else if (key == "$tex.mapmodev" && first(was.map_v)) {
                slot.map_mode_v = map_mode(property);
            } else if (key == "$tex.uvtrafo" && first(was.transform)) {
                slot.uv_transform = uv_transform(property);
            } else if (key == "$tex.scale" && first(was.scale)) {
                slot.scale = first_finite(property);
            } else if (key == "$tex.strength" && first(was.strength)) {
                slot.strength = first_finite(property);
            }
            continue;
        }
        if (property.semantic != 0) continue;
        if (key == "$mat.gltf.alphaMode" && !std::exchange(alpha_mode_seen, true)) {
            keys.alpha_mode = property.string_value().value_or(std::string());
            continue;
        }
        for (size_t f = 0; f < std::size(kFactors); ++f) {
            if (key == kFactors[f].key && !std::exchange(factor_seen[f], true))
                keys.*kFactors[f].values = values_of(property);
        }
    }
    if (!keys.files.empty()) keys.uv_sets_read = 1;
    for (const auto& [type, slot] : keys.slots) {
        if (!slot.path.empty()) keys.uv_sets_read = std::max(keys.uv_sets_read, slot.uv_set + 1);
    }
    return keys;
}

} // namespace assbin::converter::detail
