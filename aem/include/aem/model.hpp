// An AEM model in memory: one typed array per section of the file, records that refer to each
// other by index exactly as the file does. Nothing here checks the invariants; validate() does.
#pragma once

#include <aem/format.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace aem {

inline constexpr int32_t kNone = -1; // "no texture", "no parent", "no bone" in an index field

// AEM version 1 has two layouts that both say "version 1" (AEM-FORMAT.md): the 2024 edition this
// project's converter implements by default, and the 2025 one today's AEM runtime loads. A model
// remembers which one it was read from, and is written in that one.
enum class Layout : uint8_t {
    Edition2024, // 92-byte vertices with an extra bone index, texture file names, bones, sequences
    Edition2025, // 88-byte vertices, texels in the file with MIP chains, named joints, tracks
};

// 2025 texture fields, as stored (validate() checks the ranges).
inline constexpr uint32_t kWrapRepeat = 0, kWrapMirroredRepeat = 1, kWrapClampToEdge = 2;
inline constexpr uint32_t kCompressionNone = 0, kCompressionBc5 = 1, kCompressionBc7 = 2;
inline constexpr uint32_t kMaterialOpaque = 0, kMaterialTransparent = 1;

// 92 bytes on disk. Unused bone slots hold index -1 and weight 0.
struct Vertex {
    Eigen::Vector3f position = Eigen::Vector3f::Zero(); // model space
    Eigen::Vector3f normal = Eigen::Vector3f::Zero();
    Eigen::Vector3f tangent = Eigen::Vector3f::Zero();
    Eigen::Vector3f bitangent = Eigen::Vector3f::Zero();
    Eigen::Vector2f uv = Eigen::Vector2f::Zero();
    std::array<int32_t, 4> bone_indices = {kNone, kNone, kNone, kNone};
    std::array<float, 4> bone_weights = {0, 0, 0, 0};
    int32_t extra_bone = kNone; // mesh animation: applied with full weight before the skin

    friend bool operator==(const Vertex&, const Vertex&) = default;
};

// 2024: 128 bytes on disk, the file name, NUL-terminated and NUL-padded. 2025: 32 bytes, the
// texels of a full MIP chain (level 0 first, down to 1x1) at `image_offset` in Model::image_buffer.
struct Texture {
    std::string file_name; // 2024 only
    uint64_t image_offset = 0;
    uint32_t width = 0; // level 0
    uint32_t height = 0;
    uint32_t wrap_x = kWrapRepeat;
    uint32_t wrap_y = kWrapRepeat;
    uint32_t channels = 0; // 4 (RGBA8: base colour, PBR) or 2 (RG8: normal map)
    uint32_t compression = kCompressionNone;

    friend bool operator==(const Texture&, const Texture&) = default;
};

// 12 bytes on disk: a range of the index section drawn with one material.
struct Mesh {
    uint32_t first_index = 0;
    uint32_t index_count = 0;
    uint32_t material = 0;

    friend bool operator==(const Mesh&, const Mesh&) = default;
};

// 12 bytes on disk: three texture slots, each an index into the texture section or -1.
struct Material {
    int32_t base_color_texture = kNone;
    int32_t normal_texture = kNone;
    int32_t orm_texture = kNone; // 2024: occlusion, roughness, metalness in R, G, B. 2025 (never -1):
                                 // the PBR texture, roughness, occlusion, metalness, emissive in R, G, B, A
    uint32_t type = kMaterialOpaque; // 2025 only: 0 opaque, 1 transparent (alpha blends or masks)

    friend bool operator==(const Material&, const Material&) = default;
};

// 80 bytes on disk (the last 12 are zero padding). Parents precede their children.
struct Bone {
    Eigen::Matrix4f inverse_bind = Eigen::Matrix4f::Identity(); // column-major, like the file
    int32_t parent = kNone;
    std::string name; // 2025 joints only (2024 bones have no names)

    friend bool operator==(const Bone&, const Bone&) = default;
};

// 136 bytes on disk. An animation owns `bones` consecutive sequences from `first_sequence`.
struct Animation {
    std::string name;
    float duration = 0; // seconds
    uint32_t first_sequence = 0;

    friend bool operator==(const Animation&, const Animation&) = default;
};

// A run of keyframes: [first, first + count) in the keyframe section.
struct KeyRange {
    uint32_t first = 0;
    uint32_t count = 0;

    friend bool operator==(const KeyRange&, const KeyRange&) = default;
};

// 24 bytes on disk: one bone's three channels in one animation.
struct Sequence {
    KeyRange position;
    KeyRange rotation;
    KeyRange scale;

    friend bool operator==(const Sequence&, const Sequence&) = default;
};

// 20 bytes on disk. `value` is (x, y, z, w) as stored: a quaternion for rotation keys (w last,
// unlike Eigen::Quaternionf's constructor), a vector with w = 0 for position and scale keys.
struct Keyframe {
    float time = 0; // seconds
    Eigen::Vector4f value = Eigen::Vector4f::Zero();

    friend bool operator==(const Keyframe&, const Keyframe&) = default;
};

// The whole file. Comparison is exact (a NaN never equals itself). In the 2025 layout, `bones` are
// its joints, `sequences` its tracks (a track's keys are its translation, rotation and scale keys
// back to back, so each range follows the previous one), every animation's `first_sequence` is
// animation × joints, and vertices' extra bone index is -1 (the layout has none).
struct Model {
    Layout layout = Layout::Edition2024;
    std::vector<Vertex> vertices;
    std::vector<uint32_t> indices; // whole-file vertex indices, triangle lists
    std::vector<Texture> textures;
    std::vector<Mesh> meshes;
    std::vector<Material> materials;
    std::vector<Bone> bones;
    std::vector<Animation> animations;
    std::vector<Sequence> sequences; // animations × bones, animation-major
    std::vector<Keyframe> keyframes;
    std::vector<uint8_t> image_buffer; // 2025 only: every texture's MIP chain

    friend bool operator==(const Model&, const Model&) = default;
};

// The 2025 header counts for `model` (as counts_of, for the 2025 sections).
Counts2025 counts_2025_of(const Model& model);

// The size of the file write_model produces for `model`, in its layout.
uint64_t file_size_of(const Model& model);

// The header counts for `model`. Throws aem::Error (code CountTooLarge) when a section holds
// more than 2^32 - 1 records, which the file cannot express.
Counts counts_of(const Model& model);

// The rotation a rotation keyframe holds, converted from the file's (x, y, z, w) order.
inline Eigen::Quaternionf rotation_of(const Keyframe& key) {
    return Eigen::Quaternionf(key.value.w(), key.value.x(), key.value.y(), key.value.z());
}

// The translation or scale a position or scale keyframe holds.
inline Eigen::Vector3f vector_of(const Keyframe& key) {
    return key.value.head<3>();
}

} // namespace aem
