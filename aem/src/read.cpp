// The reader: header, then the size the counts imply (checked before anything is allocated),
// then the sections in file order.
#include "records.hpp"

#include "layouts.hpp"

#include <aem/io.hpp>
#include <aem/validate.hpp>
#include <read_file.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <system_error>
#include <utility>

namespace aem {

const std::byte* detail::ByteCursor::take(size_t size) {
    if (size > bytes_.size() - position_) {
        throw Error(ErrorCode::Truncated,
                    "the file ends inside a record at byte " + std::to_string(position_));
    }
    const std::byte* at = bytes_.data() + position_;
    position_ += size;
    return at;
}

namespace {

using namespace detail;

struct Section {
    const char* name;
    uint64_t count;
    uint64_t record_size;
};

std::array<Section, 9> sections_of(const Counts& counts) {
    return {{{"vertex", counts.vertices, kVertexSize},
             {"index", counts.indices, kIndexSize},
             {"texture", counts.textures, kTextureSize},
             {"mesh", counts.meshes, kMeshSize},
             {"material", counts.materials, kMaterialSize},
             {"bone", counts.bones, kBoneSize},
             {"animation", counts.animations, kAnimationSize},
             {"sequence", counts.sequences, kSequenceSize},
             {"keyframe", counts.keyframes, kKeyframeSize}}};
}

std::string describe_bytes(std::span<const std::byte> bytes) {
    std::string hex;
    for (std::byte b : bytes) {
        char buffer[4];
        std::snprintf(buffer, sizeof buffer, "%02x", std::to_integer<unsigned>(b));
        if (!hex.empty()) hex += ' ';
        hex += buffer;
    }
    return hex;
}

// The first section that runs past `file_size`, described for the error message.
std::string first_section_past(const Counts& counts, uint64_t file_size) {
    uint64_t offset = kHeaderSize;
    for (const Section& section : sections_of(counts)) {
        const uint64_t end = offset + section.count * section.record_size;
        if (end > file_size) {
            return "the " + std::string(section.name) + " section (" + std::to_string(section.count) + " × " +
                   std::to_string(section.record_size) + " bytes from byte " + std::to_string(offset) +
                   ") would end at byte " + std::to_string(end);
        }
        offset = end;
    }
    return "the last section ends past the file";
}

// Why the file is not as long as the 2024 counts say, or empty when it is. Compares in 64 bits, so
// counts whose sizes wrap around 32 bits cannot pass for a short file.
std::pair<ErrorCode, std::string> size_fault_2024(const Counts& counts, uint64_t file_size) {
    const uint64_t expected = file_size_for(counts);
    if (file_size < expected) {
        return {ErrorCode::Truncated, "the file is cut short: it has " + std::to_string(file_size) +
                                          " bytes but its counts imply " + std::to_string(expected) + "; " +
                                          first_section_past(counts, file_size)};
    }
    if (file_size > expected) {
        return {ErrorCode::TrailingBytes, "the file has " + std::to_string(file_size - expected) +
                                              " bytes after the end its counts imply (" +
                                              std::to_string(expected) + " bytes of " +
                                              std::to_string(file_size) + ")"};
    }
    return {ErrorCode::Io, {}};
}

// Which layout's size equation the file satisfies (AEM-FORMAT.md "Telling the layouts apart").
struct LayoutFit {
    bool edition_2024 = false;
    bool edition_2025 = false;
};

// Throws when the file fits neither layout, or is too large to address. `header` holds the
// file's first min(size, 52) bytes.
LayoutFit fit_layouts(std::span<const std::byte> header, uint64_t file_size) {
    const Counts counts = read_counts(header);
    LayoutFit fit;
    const auto [code, fault] = size_fault_2024(counts, file_size);
    fit.edition_2024 = fault.empty();
    std::string as_2025 = "it is shorter than the 52-byte header of the 2025 layout";
    if (header.size() >= kHeaderSize2025) {
        const Counts2025 counts_2025 = detail::read_counts_2025(header);
        const uint64_t expected = file_size_for(counts_2025);
        fit.edition_2025 = expected == file_size && counts_2025.padding == 0;
        as_2025 = counts_2025.padding != 0 ? "its 2025 header's padding is not zero"
                  : expected == std::numeric_limits<uint64_t>::max()
                      ? "its 2025 counts imply more bytes than 64 bits can count"
                      : "its 2025 counts imply " + std::to_string(expected) + " bytes";
    }
    if (!fit.edition_2024 && !fit.edition_2025)
        throw Error(code, fault + "; nor does it fit the 2025 layout: " + as_2025);
    if (file_size > std::numeric_limits<size_t>::max()) {
        throw Error(ErrorCode::TooLarge, "the counts imply " + std::to_string(file_size) +
                                             " bytes, more than this machine can address");
    }
    return fit;
}

Vertex read_vertex(ByteCursor& in) {
    Vertex vertex = read_vertex_2025(in);
    vertex.extra_bone = in.i32();
    return vertex;
}

Material read_material(ByteCursor& in, uint32_t texture_count) {
    // The original table's "255 means undefined", honoured only where 255 cannot be a real index.
    const bool legacy_none = texture_count <= kLegacyNoTexture;
    const auto slot = [&] {
        const int32_t texture = in.i32();
        return legacy_none && texture == static_cast<int32_t>(kLegacyNoTexture) ? kNone : texture;
    };
    Material material;
    material.base_color_texture = slot();
    material.normal_texture = slot();
    material.orm_texture = slot();
    return material;
}

Bone read_bone(ByteCursor& in) {
    Bone bone;
    bone.inverse_bind = read_matrix(in);
    bone.parent = in.i32();
    in.skip(kBonePaddingSize);
    return bone;
}

Animation read_animation(ByteCursor& in) {
    Animation animation;
    animation.name = read_name(in);
    animation.duration = in.f32();
    animation.first_sequence = in.u32();
    return animation;
}

Sequence read_sequence(ByteCursor& in) {
    Sequence sequence;
    for (KeyRange* range : {&sequence.position, &sequence.rotation, &sequence.scale}) {
        range->first = in.u32();
        range->count = in.u32();
    }
    return sequence;
}

// Appends `count` bytes from `in`; throws Io when fewer arrive.
void append_from(std::ifstream& in, std::vector<std::byte>& bytes, size_t count) {
    const size_t old_size = bytes.size();
    bytes.resize(old_size + count);
    in.read(reinterpret_cast<char*>(bytes.data() + old_size), static_cast<std::streamsize>(count));
    if (static_cast<size_t>(in.gcount()) != count) {
        throw Error(ErrorCode::Io, "reading failed after " + std::to_string(old_size + in.gcount()) +
                                       " bytes (did the file change while being read?)");
    }
}

} // namespace

Counts read_counts(std::span<const std::byte> bytes) {
    if (bytes.empty()) throw Error(ErrorCode::NotAem, "the file is empty (0 bytes), not an AEM model");
    const auto magic = bytes.first(std::min(bytes.size(), sizeof kMagic));
    for (size_t i = 0; i < magic.size(); ++i) {
        if (std::to_integer<char>(magic[i]) != kMagic[i]) {
            throw Error(ErrorCode::NotAem, "not an AEM model: it starts with bytes " + describe_bytes(magic) +
                                               ", not \"AEM\" (41 45 4d)");
        }
    }
    if (bytes.size() < kHeaderSize) {
        throw Error(ErrorCode::Truncated, "the file is cut short: it has " + std::to_string(bytes.size()) +
                                              " bytes, fewer than the 40-byte AEM header");
    }
    const unsigned version = std::to_integer<unsigned>(bytes[3]);
    if (version != kVersion) {
        throw Error(ErrorCode::UnsupportedVersion, "AEM version " + std::to_string(version) +
                                                       " is not supported (this reader reads version 1)");
    }
    ByteCursor in(bytes, 4);
    Counts counts;
    for (uint32_t* count :
         {&counts.vertices, &counts.indices, &counts.textures, &counts.meshes, &counts.materials,
          &counts.bones, &counts.animations, &counts.sequences, &counts.keyframes}) {
        *count = in.u32();
    }
    return counts;
}

namespace {

Model read_model_2024(std::span<const std::byte> bytes) {
    const Counts counts = read_counts(bytes);
    ByteCursor in(bytes, kHeaderSize);
    Model model;
    model.vertices = read_section(in, counts.vertices, read_vertex);
    model.indices = read_section(in, counts.indices, [](ByteCursor& c) { return c.u32(); });
    model.textures = read_section(in, counts.textures, [](ByteCursor& c) { return Texture{read_name(c)}; });
    model.meshes = read_section(in, counts.meshes, read_mesh);
    model.materials =
        read_section(in, counts.materials, [&](ByteCursor& c) { return read_material(c, counts.textures); });
    model.bones = read_section(in, counts.bones, read_bone);
    model.animations = read_section(in, counts.animations, read_animation);
    model.sequences = read_section(in, counts.sequences, read_sequence);
    model.keyframes = read_section(in, counts.keyframes, read_keyframe);
    return model;
}

} // namespace

Model read_model(std::span<const std::byte> bytes) {
    const LayoutFit fit = fit_layouts(bytes.first(std::min(bytes.size(), kHeaderSize2025)), bytes.size());
    if (!fit.edition_2025) return read_model_2024(bytes);
    if (!fit.edition_2024) return detail::read_model_2025(bytes);
    // Both size equations hold (contrived small files): the reading whose sections validate wins.
    Model as_2024 = read_model_2024(bytes);
    Model as_2025 = detail::read_model_2025(bytes);
    return validate(as_2025).size() < validate(as_2024).size() ? as_2025 : as_2024;
}

Model read_file(const std::filesystem::path& path) {
    size_t size = 0;
    try { // a missing file, a folder, a FIFO or a device: refused in the words every reader uses
        const assbin_common::detail::FileDescriptor file{
            assbin_common::detail::open_regular_file(path, size)};
    } catch (const assbin_common::ReadFailure& failure) {
        throw Error(ErrorCode::Io, failure.what());
    }
    const uintmax_t file_size = size;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorCode::Io, "cannot open for reading");
    // Check the header against the file size before reading a byte more than the header.
    std::vector<std::byte> bytes;
    append_from(in, bytes, static_cast<size_t>(std::min<uintmax_t>(file_size, kHeaderSize2025)));
    fit_layouts(bytes, file_size);
    append_from(in, bytes, static_cast<size_t>(file_size) - bytes.size());
    return read_model(bytes);
}

} // namespace aem
