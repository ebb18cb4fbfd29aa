// The 2025 layout's reader; read.cpp has already matched the file size to this layout's counts.
#include "layouts.hpp"
#include "records.hpp"

#include <cstring>

namespace aem::detail {

namespace {

Texture read_texture_2025(ByteCursor& in) {
    Texture texture;
    texture.image_offset = in.u64();
    for (uint32_t* field : {&texture.width, &texture.height, &texture.wrap_x, &texture.wrap_y,
                            &texture.channels, &texture.compression}) {
        *field = in.u32();
    }
    return texture;
}

Material read_material_2025(ByteCursor& in) {
    Material material;
    material.base_color_texture = in.i32();
    material.normal_texture = in.i32();
    material.orm_texture = in.i32();
    material.type = in.u32();
    return material;
}

Bone read_joint(ByteCursor& in) {
    Bone joint;
    joint.name = read_name(in);
    joint.inverse_bind = read_matrix(in);
    joint.parent = in.i32();
    return joint;
}

// A track's three runs lie back to back from its first keyframe (offsets wrap like the file's
// uint32 fields would; validate() reports a track that runs past the keyframes).
Sequence read_track(ByteCursor& in) {
    Sequence track;
    track.position.first = in.u32();
    track.position.count = in.u32();
    track.rotation.count = in.u32();
    track.scale.count = in.u32();
    track.rotation.first = track.position.first + track.position.count;
    track.scale.first = track.rotation.first + track.rotation.count;
    return track;
}

} // namespace

Counts2025 read_counts_2025(std::span<const std::byte> header) {
    ByteCursor in(header, 4);
    Counts2025 counts;
    counts.vertices = in.u32();
    counts.indices = in.u32();
    counts.image_bytes = in.u64();
    for (uint32_t* count : {&counts.textures, &counts.meshes, &counts.materials, &counts.joints,
                            &counts.animations, &counts.tracks, &counts.keyframes, &counts.padding}) {
        *count = in.u32();
    }
    return counts;
}

Model read_model_2025(std::span<const std::byte> bytes) {
    const Counts2025 counts = read_counts_2025(bytes);
    ByteCursor in(bytes, kHeaderSize2025);
    Model model;
    model.layout = Layout::Edition2025;
    model.vertices = read_section(in, counts.vertices, read_vertex_2025);
    model.indices = read_section(in, counts.indices, [](ByteCursor& c) { return c.u32(); });
    const std::span<const std::byte> texels = in.bytes(static_cast<size_t>(counts.image_bytes));
    model.image_buffer.resize(texels.size());
    if (!texels.empty()) std::memcpy(model.image_buffer.data(), texels.data(), texels.size()); // never null
    model.textures = read_section(in, counts.textures, read_texture_2025);
    model.meshes = read_section(in, counts.meshes, read_mesh);
    model.materials = read_section(in, counts.materials, read_material_2025);
    model.bones = read_section(in, counts.joints, read_joint);
    model.animations = read_section(in, counts.animations, [](ByteCursor& c) {
        Animation animation;
        animation.name = read_name(c);
        animation.duration = c.f32();
        return animation;
    });
    for (size_t a = 0; a < model.animations.size(); ++a) // tracks are animation-major, joints each
        model.animations[a].first_sequence = static_cast<uint32_t>(a * model.bones.size());
    model.sequences = read_section(in, counts.tracks, read_track);
    model.keyframes = read_section(in, counts.keyframes, read_keyframe);
    return model;
}

} // namespace aem::detail
