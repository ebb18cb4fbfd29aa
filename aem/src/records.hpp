// Records the two AEM layouts share (AEM-FORMAT.md), read and written field by field through the
// little-endian helpers, and the section helpers both readers and both writers use.
#pragma once

#include "bytes.hpp"

#include <aem/format.hpp>
#include <aem/io.hpp>
#include <aem/model.hpp>

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

// Collects records and hands them to the stream in blocks of about 64 KiB.
class SectionStream {
  public:
    explicit SectionStream(std::ostream& out) : out_(out) { buffer_.reserve(kFlushThreshold + kTextureSize); }

    std::string& record() { return buffer_; }

    void end_record() {
        if (buffer_.size() >= kFlushThreshold) flush();
    }

    void flush() {
        out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
        buffer_.clear();
        if (!out_) throw Error(ErrorCode::Io, "writing the AEM data failed");
    }

  private:
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

} // namespace aem::detail
