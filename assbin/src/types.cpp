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

namespace {

template <class T>
void copy_stream_records(VertexStream<T>& stream) {
    const FileRecords<T> records = stream.file_values;
    stream.values.resize(records.size());
    if (!records.empty())
        std::memcpy(static_cast<void*>(stream.values.data()), records.bytes.data(), records.bytes.size());
    stream.file_values = {};
}

} // namespace

bool holds_file_records(const Scene& scene) {
    for (const Mesh& mesh : scene.meshes) {
        for (const auto* stream : {&mesh.positions, &mesh.normals, &mesh.tangents, &mesh.bitangents}) {
            if (*stream && !(*stream)->file_values.empty()) return true;
        }
        for (const VertexStream<Color4>& colors : mesh.color_sets) {
            if (!colors.file_values.empty()) return true;
        }
        for (const UvChannel& uv : mesh.uv_channels) {
            if (!uv.file_values.empty()) return true;
        }
        if (!mesh.faces.file_records.empty()) return true;
        for (const Bone& bone : mesh.bones) {
            if (!bone.file_weights.empty()) return true;
        }
    }
    return false;
}

void copy_file_records(Scene& scene) {
    for (Mesh& mesh : scene.meshes) {
        for (auto* stream : {&mesh.positions, &mesh.normals, &mesh.tangents, &mesh.bitangents}) {
            if (*stream && !(*stream)->file_values.empty()) copy_stream_records(**stream);
        }
        for (VertexStream<Color4>& colors : mesh.color_sets) {
            if (!colors.file_values.empty()) copy_stream_records(colors);
        }
        for (UvChannel& uv : mesh.uv_channels) {
            if (!uv.file_values.empty()) copy_stream_records<Vec3>(uv);
        }
        if (!mesh.faces.file_records.empty()) {
            FaceList faces;
            faces.offsets.reserve(size_t{mesh.face_count} + 1);
            mesh.faces.for_each([&faces](size_t, std::span<const uint32_t> face) {
                faces.offsets.push_back(static_cast<uint32_t>(faces.indices.size()));
                faces.indices.insert(faces.indices.end(), face.begin(), face.end());
            });
            faces.offsets.push_back(static_cast<uint32_t>(faces.indices.size()));
            mesh.faces = std::move(faces);
        }
        for (Bone& bone : mesh.bones) {
            const FileRecords<VertexWeight> weights = bone.file_weights;
            if (weights.empty()) continue;
            bone.weights.resize(weights.size());
            std::memcpy(static_cast<void*>(bone.weights.data()), weights.bytes.data(), weights.bytes.size());
            bone.file_weights = {};
        }
    }
    scene.inflated_body.reset();
}

} // namespace assbin
