// The 2025 layout's writer (AEM-FORMAT.md "The 2025 layout"): 52-byte header with a 64-bit
// image-buffer size, 88-byte vertices, the texels, 32-byte texture records, typed materials, named
// joints, tracks whose keys lie back to back.
#include "layouts.hpp"
#include "records.hpp"

#include <algorithm>

namespace aem::detail {

namespace {

void write_header_2025(SectionStream& stream, const Counts2025& counts) {
    std::string& out = stream.record();
    out.append(kMagic, sizeof kMagic);
    out += static_cast<char>(kVersion);
    append_u32(out, counts.vertices);
    append_u32(out, counts.indices);
    append_u64(out, counts.image_bytes);
    for (uint32_t count : {counts.textures, counts.meshes, counts.materials, counts.joints, counts.animations,
                           counts.tracks, counts.keyframes, uint32_t{0}}) {
        append_u32(out, count);
    }
    stream.end_record();
}

void write_image_buffer(SectionStream& stream, const std::vector<uint8_t>& texels) {
    for (size_t at = 0; at < texels.size(); at += kFlushThreshold) {
        const size_t size = std::min(kFlushThreshold, texels.size() - at);
        stream.record().append(reinterpret_cast<const char*>(texels.data() + at), size);
        stream.end_record();
    }
}

void write_texture_2025(std::string& out, const Texture& texture) {
    append_u64(out, texture.image_offset);
    for (uint32_t field : {texture.width, texture.height, texture.wrap_x, texture.wrap_y, texture.channels,
                           texture.compression}) {
        append_u32(out, field);
    }
}

void write_material_2025(std::string& out, const Material& material) {
    append_i32(out, material.base_color_texture);
    append_i32(out, material.normal_texture);
    append_i32(out, material.orm_texture);
    append_u32(out, material.type);
}

void write_joint(std::string& out, const Bone& joint) {
    append_name(out, joint.name);
    write_matrix(out, joint.inverse_bind);
    append_i32(out, joint.parent);
}

void write_track(std::string& out, const Sequence& track) {
    append_u32(out, track.position.first);
    append_u32(out, track.position.count);
    append_u32(out, track.rotation.count);
    append_u32(out, track.scale.count);
}

} // namespace

void write_model_2025(const Model& model, std::ostream& out) {
    SectionStream stream(out);
    write_header_2025(stream, counts_2025_of(model));
    write_vertex_section(stream, model.vertices, kVertexSize2025, write_vertex_2025);
    write_index_section(stream, model.indices);
    write_image_buffer(stream, model.image_buffer);
    write_section(stream, model.textures, write_texture_2025);
    write_section(stream, model.meshes, write_mesh);
    write_section(stream, model.materials, write_material_2025);
    write_section(stream, model.bones, write_joint);
    write_section(stream, model.animations, [](std::string& o, const Animation& animation) {
        append_name(o, animation.name);
        append_f32(o, animation.duration);
    });
    write_section(stream, model.sequences, write_track);
    write_section(stream, model.keyframes, write_keyframe);
    stream.flush();
}

} // namespace aem::detail
