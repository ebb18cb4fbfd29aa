// Small in-memory scenes for the converter's unit tests: nodes, meshes, materials and animations
// built directly as assbin::Scene values (the reader is tested elsewhere).
#pragma once

#include <assbin/converter/convert.hpp>
#include <assbin/types.hpp>

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

namespace assbin_test {

// A matrix from its rows, as ASSBIN lists a1 a2 a3 a4 / b1 ... / d1 ... d4.
inline assbin::Matrix4 rows(std::initializer_list<std::initializer_list<float>> values) {
    assbin::Matrix4 m;
    int r = 0;
    for (const auto& row : values) {
        int c = 0;
        for (const float v : row)
            m(r, c++) = v;
        ++r;
    }
    return m;
}

inline assbin::Matrix4 translation(float x, float y, float z) {
    return rows({{1, 0, 0, x}, {0, 1, 0, y}, {0, 0, 1, z}, {0, 0, 0, 1}});
}

// A string material property as ASSBIN stores it: u32 length, the bytes, a terminator.
inline assbin::MaterialProperty string_property(const std::string& key, const std::string& value,
                                                uint32_t semantic = 0) {
    assbin::MaterialProperty property;
    property.key = key;
    property.semantic = semantic;
    property.type = static_cast<uint32_t>(assbin::MaterialPropertyType::String);
    const uint32_t length = static_cast<uint32_t>(value.size());
    property.data.resize(4 + value.size() + 1, 0);
    std::memcpy(property.data.data(), &length, 4);
    std::memcpy(property.data.data() + 4, value.data(), value.size());
    return property;
}

// A full-dump vertex array (bounds zeroed: Eigen leaves them uninitialised otherwise).
inline assbin::VertexStream<assbin::Vec3> stream(std::vector<assbin::Vec3> values) {
    assbin::VertexStream<assbin::Vec3> out;
    out.values = std::move(values);
    out.bounds.min = assbin::Vec3::Zero();
    out.bounds.max = assbin::Vec3::Zero();
    return out;
}

inline assbin::UvChannel uv_channel(std::vector<assbin::Vec3> values, uint32_t components = 2) {
    assbin::UvChannel out;
    static_cast<assbin::VertexStream<assbin::Vec3>&>(out) = stream(std::move(values));
    out.component_count = components;
    return out;
}

class SceneMaker {
  public:
    SceneMaker() { scene.header.shortened = 0; }

    uint32_t node(const std::string& name, int32_t parent,
                  const assbin::Matrix4& transform = assbin::Matrix4::Identity(),
                  std::vector<uint32_t> meshes = {}) {
        assbin::Node n;
        n.name = name;
        n.parent = parent;
        n.transform = transform;
        n.meshes = std::move(meshes);
        const auto index = static_cast<uint32_t>(scene.nodes.size());
        if (parent >= 0) scene.nodes[static_cast<size_t>(parent)].children.push_back(index);
        scene.nodes.push_back(std::move(n));
        return index;
    }

    uint32_t mesh(std::vector<assbin::Vec3> positions, const std::vector<std::vector<uint32_t>>& faces,
                  uint32_t material = 0) {
        assbin::Mesh m;
        m.vertex_count = static_cast<uint32_t>(positions.size());
        m.positions = stream(std::move(positions));
        m.material_index = material;
        for (const auto& face : faces) {
            if (m.faces.offsets.empty()) m.faces.offsets.push_back(0);
            m.faces.indices.insert(m.faces.indices.end(), face.begin(), face.end());
            m.faces.offsets.push_back(static_cast<uint32_t>(m.faces.indices.size()));
        }
        m.face_count = static_cast<uint32_t>(faces.size());
        scene.meshes.push_back(std::move(m));
        return static_cast<uint32_t>(scene.meshes.size() - 1);
    }

    // A single triangle in the z = 0 plane.
    uint32_t triangle(uint32_t material = 0) {
        return mesh({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}}, material);
    }

    uint32_t material(std::vector<assbin::MaterialProperty> properties = {}) {
        assbin::Material m;
        m.properties = std::move(properties);
        scene.materials.push_back(std::move(m));
        return static_cast<uint32_t>(scene.materials.size() - 1);
    }

    assbin::Mesh& last_mesh() { return scene.meshes.back(); }

    assbin::Scene scene;
};

// The converter with optimisation off: vertices and triangles in source order, one mesh per
// (node, mesh) reference, so that a rule's test can name a vertex by its source index. The welded,
// reordered output is tested on its own (optimize_test.cpp).
inline assbin::converter::ConvertResult
convert_in_source_order(const assbin::Scene& scene, assbin::converter::ConvertOptions options = {}) {
    options.optimize = false;
    return assbin::converter::convert(scene, options);
}

} // namespace assbin_test
