// Records the two AEM layouts share (AEM-FORMAT.md), read and written field by field through the
// little-endian helpers, and the section helpers both readers and both writers use.
#pragma once

#include "bytes.hpp"

#include <aem/format.hpp>
#include <aem/io.hpp>
#include <aem/model.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace aem::detail {

inline void read_floats(ByteCursor& in, float* values, size_t count) {
    for (size_t i = 0; i < count; ++i)
        values[i] = in.f32();
}

inline std::string read_name(ByteCursor& in) {
    const std::string_view field = in.text(kNameFieldSize);
    return std::string(field.substr(0, field.find('\0'))); // no NUL: all 128 bytes, for validate()
}

// The 88 bytes both layouts' vertices start with (the 2024 one adds the extra bone index).
inline Vertex read_vertex_2025(ByteCursor& in) {
    Vertex vertex;
    read_floats(in, vertex.position.data(), 3);
    read_floats(in, vertex.normal.data(), 3);
    read_floats(in, vertex.tangent.data(), 3);
    read_floats(in, vertex.bitangent.data(), 3);
    read_floats(in, vertex.uv.data(), 2);
    for (int32_t& index : vertex.bone_indices)
        index = in.i32();
    for (float& weight : vertex.bone_weights)
        weight = in.f32();
    return vertex;
}

// A column-major matrix: element (row r, column c) at float index c*4 + r.
inline Eigen::Matrix4f read_matrix(ByteCursor& in) {
    Eigen::Matrix4f matrix;
    for (int column = 0; column < 4; ++column) {
        for (int row = 0; row < 4; ++row)
            matrix(row, column) = in.f32();
    }
    return matrix;
}

inline Mesh read_mesh(ByteCursor& in) {
    Mesh mesh;
    mesh.first_index = in.u32();
    mesh.index_count = in.u32();
    mesh.material = in.u32();
    return mesh;
}

inline Keyframe read_keyframe(ByteCursor& in) {
    Keyframe key;
    key.time = in.f32();
    read_floats(in, key.value.data(), 4); // (x, y, z, w)
    return key;
}

template <class ReadRecord>
inline auto read_section(ByteCursor& in, uint32_t count, ReadRecord read_record) {
    std::vector<decltype(read_record(in))> records;
    records.reserve(count); // safe: the file size already proved these bytes exist
    for (uint32_t i = 0; i < count; ++i)
        records.push_back(read_record(in));
    return records;
}

inline constexpr size_t kFlushThreshold = size_t{1} << 16;
// A block goes to the stream in pieces of this size: one write() of a 45 MB block spent 4-6x as
// long in the kernel as the same bytes in 1 MiB pieces (strace, the grid; 64 KiB pieces: 2x).
inline constexpr size_t kBlockPiece = size_t{1} << 20;

// Collects records and hands them to the stream in blocks of about 64 KiB.
class SectionStream {
  public:
    explicit SectionStream(std::ostream& out) : out_(out) { buffer_.reserve(kFlushThreshold + kTextureSize); }

    std::string& record() { return buffer_; }

    void end_record() {
        if (buffer_.size() >= kFlushThreshold) flush();
    }

    void flush() {
        write_through(buffer_.data(), buffer_.size());
        buffer_.clear();
    }

    // Bytes that are already in file form: a few go through the buffer, a block goes to the stream
    // as it is (no copy).
    void block(const void* bytes, size_t count) {
        if (buffer_.size() + count <= kFlushThreshold) {
            buffer_.append(static_cast<const char*>(bytes), count);
            return;
        }
        flush();
        const char* at = static_cast<const char*>(bytes);
        for (size_t piece; count > 0; at += piece, count -= piece) {
            piece = std::min(count, kBlockPiece);
            write_through(at, piece);
        }
    }

  private:
    void write_through(const char* bytes, size_t count) {
        out_.write(bytes, static_cast<std::streamsize>(count));
        if (!out_) throw Error(ErrorCode::Io, "writing the AEM data failed");
    }

    std::ostream& out_;
    std::string buffer_;
};

inline void append_floats(std::string& out, const float* values, size_t count) {
    for (size_t i = 0; i < count; ++i)
        append_f32(out, values[i]);
}

inline void append_name(std::string& out, const std::string& name) {
    out += name;
    out.append(kNameFieldSize - name.size(), '\0');
}

inline void write_vertex_2025(std::string& out, const Vertex& vertex) {
    append_floats(out, vertex.position.data(), 3);
    append_floats(out, vertex.normal.data(), 3);
    append_floats(out, vertex.tangent.data(), 3);
    append_floats(out, vertex.bitangent.data(), 3);
    append_floats(out, vertex.uv.data(), 2);
    for (int32_t index : vertex.bone_indices)
        append_i32(out, index);
    for (float weight : vertex.bone_weights)
        append_f32(out, weight);
}

inline void write_matrix(std::string& out, const Eigen::Matrix4f& matrix) {
    for (int column = 0; column < 4; ++column) {
        for (int row = 0; row < 4; ++row)
            append_f32(out, matrix(row, column));
    }
}

inline void write_mesh(std::string& out, const Mesh& mesh) {
    append_u32(out, mesh.first_index);
    append_u32(out, mesh.index_count);
    append_u32(out, mesh.material);
}

inline void write_keyframe(std::string& out, const Keyframe& key) {
    append_f32(out, key.time);
    append_floats(out, key.value.data(), 4); // (x, y, z, w)
}

template <class Record, class WriteRecord>
inline void write_section(SectionStream& stream, const std::vector<Record>& records,
                          WriteRecord write_record) {
    for (const Record& record : records) {
        write_record(stream.record(), record);
        stream.end_record();
    }
}

// Whether a Vertex's bytes in memory are, on this host, the bytes of its record in the file: a
// little-endian host, the fields in file order without padding (the 2024 record is all 92 bytes,
// the 2025 one the first 88). Then the big sections go out as blocks instead of field by field
// (23 four-byte appends per vertex; the grid's 45 MB of vertices went out in 868 writes, now 57).
inline constexpr bool kVertexAsInFile =
    std::endian::native == std::endian::little && sizeof(Vertex) == 92 && offsetof(Vertex, position) == 0 &&
    offsetof(Vertex, normal) == 12 && offsetof(Vertex, tangent) == 24 && offsetof(Vertex, bitangent) == 36 &&
    offsetof(Vertex, uv) == 48 && offsetof(Vertex, bone_indices) == 56 &&
    offsetof(Vertex, bone_weights) == 72 && offsetof(Vertex, extra_bone) == 88;

// The vertex section, records of `record_size` bytes (92 or 88); `write_record` writes one field by
// field where memory is not in file form.
template <class WriteRecord>
inline void write_vertex_section(SectionStream& stream, const std::vector<Vertex>& vertices,
                                 size_t record_size, WriteRecord write_record) {
    if constexpr (!kVertexAsInFile) {
        write_section(stream, vertices, write_record);
    } else if (record_size == sizeof(Vertex)) {
        stream.block(vertices.data(), vertices.size() * sizeof(Vertex));
    } else {
        for (const Vertex& vertex : vertices) {
            stream.record().append(reinterpret_cast<const char*>(&vertex), record_size);
            stream.end_record();
        }
    }
}

// The index section: one block on a little-endian host.
inline void write_index_section(SectionStream& stream, const std::vector<uint32_t>& indices) {
    if constexpr (std::endian::native == std::endian::little) {
        stream.block(indices.data(), indices.size() * sizeof(uint32_t));
    } else {
        write_section(stream, indices, [](std::string& out, uint32_t index) { append_u32(out, index); });
    }
}

} // namespace aem::detail
