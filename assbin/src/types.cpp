// Small accessors of the Scene types.
#include <assbin/types.hpp>

#include <cstring>

namespace assbin {

uint32_t Mesh::component_mask() const {
    uint32_t mask = 0;
    if (positions) mask |= 0x1;
    if (normals) mask |= 0x2;
    if (tangents && bitangents) mask |= 0x4;
    for (size_t n = 0; n < uv_channels.size() && n < kMaxUvChannels; ++n)
        mask |= 0x100u << n;
    for (size_t n = 0; n < color_sets.size() && n < kMaxColorSets; ++n)
        mask |= 0x10000u << n;
    return mask;
}

std::optional<std::string> MaterialProperty::string_value() const {
    // u32 length, the bytes, then one terminator byte (not always 0 in real files).
    if (type != static_cast<uint32_t>(MaterialPropertyType::String) || data.size() < 4) return std::nullopt;
    uint32_t length;
    std::memcpy(&length, data.data(), 4);
    if (length > data.size() - 4) return std::nullopt;
    return std::string(reinterpret_cast<const char*>(data.data()) + 4, length);
}

std::vector<double> MaterialProperty::numbers() const {
    std::vector<double> values;
    if (type == static_cast<uint32_t>(MaterialPropertyType::Float)) {
        for (size_t at = 0; at + 4 <= data.size(); at += 4) {
            float value;
            std::memcpy(&value, data.data() + at, 4);
            values.push_back(value);
        }
    } else if (type == static_cast<uint32_t>(MaterialPropertyType::Double)) {
        for (size_t at = 0; at + 8 <= data.size(); at += 8) {
            double value;
            std::memcpy(&value, data.data() + at, 8);
            values.push_back(value);
        }
    }
    return values;
}

std::vector<int32_t> MaterialProperty::integers() const {
    std::vector<int32_t> values;
    if (type != static_cast<uint32_t>(MaterialPropertyType::Integer)) return values;
    for (size_t at = 0; at + 4 <= data.size(); at += 4) {
        int32_t value;
        std::memcpy(&value, data.data() + at, 4);
        values.push_back(value);
    }
    return values;
}

const MaterialProperty* Material::find(std::string_view key, uint32_t semantic, uint32_t index) const {
    for (const MaterialProperty& property : properties) {
        if (property.key == key && property.semantic == semantic && property.index == index) return &property;
    }
    return nullptr;
}

std::string Material::name() const {
    const MaterialProperty* property = find("?mat.name");
    if (!property) return {};
    return property->string_value().value_or(std::string());
}

} // namespace assbin
