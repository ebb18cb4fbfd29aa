// The writer: the sections in file order, little-endian by construction, streamed through a
// small buffer (the vertex and index sections as blocks where memory holds them in file form:
// records.hpp); write_file goes through a temporary name so a failure never leaves half a file.
#include "layouts.hpp"
#include "records.hpp"

#include <aem/io.hpp>

#include "atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

namespace aem {

namespace {

using namespace detail;

void check_name(const std::string& name, const std::string& owner) {
    if (name.size() > kMaxNameLength) {
        throw Error(ErrorCode::NameTooLong, owner + " name is " + std::to_string(name.size()) +
                                                " bytes; the AEM field holds at most 127 (it is never cut)");
    }
    if (name.find('\0') != std::string::npos) {
        throw Error(ErrorCode::NameTooLong, owner + " name contains a NUL byte, which would end it early");
    }
}

void write_header(SectionStream& stream, const Counts& counts) {
    std::string& out = stream.record();
    out.append(kMagic, sizeof kMagic);
    out += static_cast<char>(kVersion);
    for (uint32_t count : {counts.vertices, counts.indices, counts.textures, counts.meshes, counts.materials,
                           counts.bones, counts.animations, counts.sequences, counts.keyframes}) {
        append_u32(out, count);
    }
    stream.end_record();
}

void write_vertex(std::string& out, const Vertex& vertex) {
    write_vertex_2025(out, vertex);
    append_i32(out, vertex.extra_bone);
}

void write_bone(std::string& out, const Bone& bone) {
    write_matrix(out, bone.inverse_bind); // element (row r, column c) at float index c*4 + r
    append_i32(out, bone.parent);
    out.append(kBonePaddingSize, '\0');
}

void write_animation(std::string& out, const Animation& animation) {
    append_name(out, animation.name);
    append_f32(out, animation.duration);
    append_u32(out, animation.first_sequence);
}

void write_sequence(std::string& out, const Sequence& sequence) {
    for (const KeyRange& range : {sequence.position, sequence.rotation, sequence.scale}) {
        append_u32(out, range.first);
        append_u32(out, range.count);
    }
}

} // namespace

// Everything that would make the file say something other than the model: checked up front so
// a failure writes nothing (io.hpp).
void check_expressible(const Model& model) {
    const bool edition_2025 = model.layout == Layout::Edition2025;
    edition_2025 ? void(counts_2025_of(model)) : void(counts_of(model));
    detail::check_layout_expressible(model);
    for (size_t i = 0; i < model.textures.size(); ++i) {
        check_name(model.textures[i].file_name, "texture " + std::to_string(i));
    }
    for (size_t i = 0; i < model.bones.size(); ++i) {
        check_name(model.bones[i].name, "joint " + std::to_string(i));
    }
    for (size_t i = 0; i < model.animations.size(); ++i) {
        check_name(model.animations[i].name, "animation " + std::to_string(i));
    }
}

void write_model(const Model& model, std::ostream& out) {
    check_expressible(model);
    if (model.layout == Layout::Edition2025) return detail::write_model_2025(model, out);
    SectionStream stream(out);
    write_header(stream, counts_of(model));
    write_vertex_section(stream, model.vertices, kVertexSize, write_vertex);
    write_index_section(stream, model.indices);
    write_section(stream, model.textures,
                  [](std::string& o, const Texture& t) { append_name(o, t.file_name); });
    write_section(stream, model.meshes, write_mesh);
    write_section(stream, model.materials, [](std::string& o, const Material& material) {
        append_i32(o, material.base_color_texture);
        append_i32(o, material.normal_texture);
        append_i32(o, material.orm_texture);
    });
    write_section(stream, model.bones, write_bone);
    write_section(stream, model.animations, write_animation);
    write_section(stream, model.sequences, write_sequence);
    write_section(stream, model.keyframes, write_keyframe);
    stream.flush();
}

std::vector<std::byte> to_bytes(const Model& model) {
    std::ostringstream out(std::ios::binary);
    write_model(model, out);
    const std::string text = std::move(out).str();
    const auto* first = reinterpret_cast<const std::byte*>(text.data());
    return std::vector<std::byte>(first, first + text.size());
}

void write_file(const Model& model, const std::filesystem::path& path) {
    check_expressible(model); // fail before creating anything
    const std::vector<std::byte> bytes = to_bytes(model);
    try {
        assbin_common::write_file_atomically(path, bytes); // temporary, fsync, rename, folder fsync
    } catch (const assbin_common::WriteFailure& failure) {
        throw Error(ErrorCode::Io, failure.what());
    }
}

} // namespace aem
