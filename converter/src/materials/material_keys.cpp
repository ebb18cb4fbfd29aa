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

using Type = assbin::MaterialPropertyType;

bool is(const assbin::MaterialProperty& property, Type type) {
    return property.type == static_cast<uint32_t>(type);
}

// The 4-byte elements of a property's data as T.
template <class T>
std::vector<double> elements(const assbin::MaterialProperty& property) {
    std::vector<double> values;
    for (size_t at = 0; at + 4 <= property.data.size(); at += 4) {
        T value;
        std::memcpy(&value, property.data.data() + at, 4);
        values.push_back(static_cast<double>(value));
    }
    return values;
}

// The values of a real-valued key ($clr.*, $mat.opacity, $tex.scale, ...) as Assimp's
// aiGetMaterialFloatArray gives them: floats, doubles, integers widened, and a buffer's bytes taken
// as floats (importers store some keys as aiPTI_Buffer; the getter reads them so).
std::vector<double> real_values(const assbin::MaterialProperty& property) {
    if (is(property, Type::Buffer)) return elements<float>(property);
    std::vector<double> values = property.numbers();
    if (values.empty()) {
        for (const int32_t i : property.integers())
            values.push_back(i);
    }
    return values;
}

// The values of an integer key ($tex.mapmodeu/v, $tex.uvwsrc, $tex.mappingfilter*, $mat.twosided) as Assimp's
// aiGetMaterialIntegerArray gives them: integers, and a buffer's bytes taken as 32-bit integers —
// one byte, a bool, as that byte (the glTF and FBX importers store $mat.twosided and the map modes
// so); floats and doubles truncated. A buffer of 2 or 3 bytes, which the getter would read past, is
// taken as nothing.
std::vector<double> integer_values(const assbin::MaterialProperty& property) {
    if (is(property, Type::Integer) || is(property, Type::Buffer)) {
        if (property.data.size() == 1) return {static_cast<double>(static_cast<int8_t>(property.data[0]))};
        return elements<int32_t>(property);
    }
    std::vector<double> values = property.numbers();
    for (double& value : values)
        value = std::isfinite(value) ? std::trunc(value) : value;
    return values;
}

// The first value when it is finite.
std::optional<double> first_finite(const std::vector<double>& values) {
    if (values.empty() || !std::isfinite(values.front())) return std::nullopt;
    return values.front();
}

std::optional<double> first_real(const assbin::MaterialProperty& property) {
    return first_finite(real_values(property));
}

// The first integer of a key (a map mode, a filter), clamped to int32.
std::optional<int32_t> map_mode(const assbin::MaterialProperty& property) {
    const std::optional<double> value = first_finite(integer_values(property));
    if (!value) return std::nullopt;
    return static_cast<int32_t>(std::clamp(*value, double(std::numeric_limits<int32_t>::min()),
                                           double(std::numeric_limits<int32_t>::max())));
}

// A UV set number; a billion stands for any set far past the eight a mesh can have.
uint32_t uv_set(const assbin::MaterialProperty& property) {
    return static_cast<uint32_t>(std::clamp(first_finite(integer_values(property)).value_or(0), 0.0, 1e9));
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
         strength = false, mag_filter = false, min_filter = false;
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
        std::vector<double> (*read)(const assbin::MaterialProperty&);
    };
    static constexpr Factor kFactors[] = {{"$clr.base", &MaterialKeys::base_colour, real_values},
                                          {"$clr.diffuse", &MaterialKeys::diffuse, real_values},
                                          {"$clr.emissive", &MaterialKeys::emissive, real_values},
                                          {"$mat.opacity", &MaterialKeys::opacity, real_values},
                                          {"$mat.metallicFactor", &MaterialKeys::metallic, real_values},
                                          {"$mat.roughnessFactor", &MaterialKeys::roughness, real_values},
                                          {"$mat.shininess", &MaterialKeys::shininess, real_values},
                                          {"$mat.gltf.alphaCutoff", &MaterialKeys::alpha_cutoff, real_values},
                                          {"$mat.twosided", &MaterialKeys::two_sided, integer_values}};
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
                slot.scale = first_real(property);
            } else if (key == "$tex.strength" && first(was.strength)) {
                slot.strength = first_real(property);
            } else if (key == "$tex.mappingfiltermag" && first(was.mag_filter)) {
                slot.mag_filter = map_mode(property);
            } else if (key == "$tex.mappingfiltermin" && first(was.min_filter)) {
                slot.min_filter = map_mode(property);
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
                keys.*kFactors[f].values = kFactors[f].read(property);
        }
    }
    if (!keys.files.empty()) keys.uv_sets_read = 1;
    for (const auto& [type, slot] : keys.slots) {
        if (!slot.path.empty()) keys.uv_sets_read = std::max(keys.uv_sets_read, slot.uv_set + 1);
    }
    return keys;
}

} // namespace assbin::converter::detail
