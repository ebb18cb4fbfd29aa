#include "aem_fixtures.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace assbin_test {

namespace {

aem::Vertex make_vertex(float x, float y, float z) {
    aem::Vertex vertex;
    vertex.position = {x, y, z};
    vertex.normal = {0, 0, 1};
    vertex.tangent = {1, 0, 0};
    vertex.bitangent = {0, 1, 0};
    vertex.uv = {x * 0.25f, y * 0.25f};
    return vertex;
}

aem::Vertex on_bones(aem::Vertex vertex, std::initializer_list<std::pair<int32_t, float>> influences) {
    size_t slot = 0;
    for (const auto& [bone, weight] : influences) {
        vertex.bone_indices[slot] = bone;
        vertex.bone_weights[slot] = weight;
        ++slot;
    }
    return vertex;
}

aem::Keyframe key(float time, float x, float y, float z, float w) {
    return {time, {x, y, z, w}};
}

void add_geometry(aem::Model& model) {
    aem::Vertex extra_only = make_vertex(1, 0, 0);
    extra_only.extra_bone = 1;
    aem::Vertex skinned_with_extra = on_bones(make_vertex(0, 2, 0), {{1, 1.0f}});
    skinned_with_extra.extra_bone = 0;
    model.vertices = {on_bones(make_vertex(0, 0, 0), {{0, 1.0f}}),
                      on_bones(make_vertex(0, 2, 0), {{1, 1.0f}}),
                      on_bones(make_vertex(1, 2, 0), {{0, 0.5f}, {1, 0.5f}}),
                      extra_only,
                      skinned_with_extra,
                      make_vertex(5, 5, 5)};
    model.indices = {0, 1, 2, 3, 4, 5};
    model.textures = {{"albedo.png"}, {"normal.png"}, {"orm.png"}};
    model.materials = {{0, 1, 2}, {0, aem::kNone, aem::kNone}};
    model.meshes = {{0, 3, 0}, {3, 3, 1}};
}

void add_skeleton_and_animation(aem::Model& model) {
    aem::Bone root;
    aem::Bone child;
    child.parent = 0;
    child.inverse_bind(1, 3) = -1.0f; // inverse of a translation by (0, 1, 0)
    model.bones = {root, child};
    model.animations = {{"bend", 2.0f, 0}};
    model.sequences = {{{0, 3}, {3, 1}, {4, 2}}, {{6, 1}, {7, 2}, {9, 1}}};
    const float half = std::sqrt(0.5f);
    model.keyframes = {key(0, 0, 0, 0, 0), key(1, 2, 0, 0, 0),       key(2, 2, 4, 0, 0), // bone 0 position
                       key(0, 0, 0, 0, 1),                                               // bone 0 rotation
                       key(0, 1, 1, 1, 0), key(2, 3, 3, 3, 0),                           // bone 0 scale
                       key(0, 0, 1, 0, 0),                                               // bone 1 position
                       key(0, 0, 0, 0, 1), key(2, 0, 0, half, half),                     // bone 1 rotation
                       key(0, 1, 1, 1, 0)};                                              // bone 1 scale
}

} // namespace

aem::Model make_two_bone_model() {
    aem::Model model;
    add_geometry(model);
    add_skeleton_and_animation(model);
    return model;
}

aem::Model make_two_joint_model() {
    aem::Model model = assbin_test::make_two_bone_model();
    model.layout = aem::Layout::Edition2025;
    model.bones[0].name = "root";
    model.bones[1].name = "arm";
    for (aem::Vertex& v : model.vertices)
        v.extra_bone = aem::kNone;
    model.vertices[3].bone_indices = {1, -1, -1, -1};
    model.vertices[3].bone_weights = {1, 0, 0, 0};
    model.textures.clear();
    const auto add_texture = [&](uint32_t w, uint32_t h, uint32_t channels, uint8_t fill) {
        aem::Texture texture;
        texture.image_offset = model.image_buffer.size();
        texture.width = w;
        texture.height = h;
        texture.channels = channels;
        texture.wrap_y = aem::kWrapClampToEdge;
        model.image_buffer.resize(model.image_buffer.size() + aem::mip_chain_bytes(w, h, channels, 0), fill);
        model.textures.push_back(texture);
    };
    add_texture(4, 2, 4, 0xAA); // 32 + 8 + 4 bytes: 4x2, 2x1, 1x1
    add_texture(2, 2, 2, 0x80); // 8 + 2
    add_texture(1, 1, 4, 0xFF); // 4
    model.materials = {{0, 1, 2, aem::kMaterialOpaque}, {2, 1, 2, aem::kMaterialTransparent}};
    return model;
}

std::vector<std::byte> read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(chars.size());
    std::transform(chars.begin(), chars.end(), bytes.begin(),
                   [](char c) { return static_cast<std::byte>(c); });
    return bytes;
}

void write_bytes(const std::filesystem::path& path, const std::vector<std::byte>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

uint32_t u32_at(const std::vector<std::byte>& bytes, size_t offset) {
    uint32_t value = 0;
    for (size_t i = 0; i < 4; ++i)
        value |= std::to_integer<uint32_t>(bytes.at(offset + i)) << (8 * i);
    return value;
}

float f32_at(const std::vector<std::byte>& bytes, size_t offset) {
    return std::bit_cast<float>(u32_at(bytes, offset));
}

void put_u32_at(std::vector<std::byte>& bytes, size_t offset, uint32_t value) {
    for (size_t i = 0; i < 4; ++i)
        bytes.at(offset + i) = static_cast<std::byte>((value >> (8 * i)) & 0xFF);
}

} // namespace assbin_test
