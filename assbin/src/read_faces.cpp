// Faces, the largest array of most meshes. Nearly every real face list holds faces of one size
// (triangles, or lines, or points), so that case is read in one pass that checks each face's count
// while copying its indices; any other list takes two passes, one that checks every face and sizes
// the index array exactly, one that copies.
#include "read_faces.hpp"
#include <counting.hpp>

#include <cstring>
#include <optional>
#include <string>

namespace assbin::detail {

namespace {

[[noreturn]] void fail_face(const ByteReader& reader, size_t at, uint32_t face, const std::string& what) {
    reader.context().fail(ErrorCode::Truncated, reader.offset() + at,
                          "face " + std::to_string(face) + ": " + what + " runs past the end of the mesh");
}

// Copies one face's `Size` indices (`Size` 0: `size`, known only at run time) of `IndexBytes` each.
template <size_t IndexBytes, uint16_t Size>
inline void copy_face(const std::byte* from, uint16_t size, uint32_t* to) {
    const uint16_t count = Size != 0 ? Size : size;
    if constexpr (IndexBytes == 4) {
        // A copy of a size known here is inlined; one of count * 4 bytes is a call.
        if constexpr (Size != 0)
            std::memcpy(to, from, Size * 4);
        else
            std::memcpy(to, from, size_t{count} * 4);
    } else {
        for (uint16_t k = 0; k < count; ++k) {
            uint16_t index;
            std::memcpy(&index, from + 2 * k, 2);
            to[k] = index;
        }
    }
}

// The one-pass read of `face_count` faces of `size` indices each, `stride` bytes apart. Returns
// false at the first face of another size, having written part of `indices`.
template <size_t IndexBytes, uint16_t Size>
bool copy_uniform_faces(const std::byte* bytes, uint32_t face_count, uint16_t size, uint32_t* indices) {
    const size_t stride = 2 + size_t{Size != 0 ? Size : size} * IndexBytes;
    for (uint32_t face = 0; face < face_count; ++face) {
        const std::byte* at = bytes + face * stride;
        uint16_t count;
        std::memcpy(&count, at, 2);
        if (count != size) return false;
        copy_face<IndexBytes, Size>(at + 2, size, indices + size_t{face} * size);
    }
    return true;
}

// Reads the faces when they all have the first face's size and fit in the reader; returns false,
// leaving `faces` empty and nothing charged, when they do not (the general read then decides).
template <size_t IndexBytes>
bool read_uniform_faces(ByteReader& reader, uint32_t face_count, FaceList& faces) {
    const std::byte* bytes = reader.current();
    uint16_t size;
    std::memcpy(&size, bytes, 2); // the caller checked that face_count u16 counts fit
    const size_t stride = 2 + size_t{size} * IndexBytes;
    if (size == 0 || face_count > reader.remaining() / stride) return false;
    const uint64_t index_total = uint64_t{face_count} * size;
    const uint64_t charge = (uint64_t{face_count} + 1 + index_total) * sizeof(uint32_t);
    if (!reader.context().fits(charge)) return false; // the general read names the limit in order
    faces.indices.resize(index_total);
    const bool uniform =
        size == 3 ? copy_uniform_faces<IndexBytes, 3>(bytes, face_count, size, faces.indices.data())
                  : copy_uniform_faces<IndexBytes, 0>(bytes, face_count, size, faces.indices.data());
    if (!uniform) {
        faces.indices = {};
        return false;
    }
    faces.offsets.resize(size_t{face_count} + 1);
    for (uint32_t face = 0; face <= face_count; ++face)
        faces.offsets[face] = face * uint32_t{size};
    reader.context().charge(charge, reader.offset());
    reader.skip(face_count * stride, "faces");
    return true;
}

// The bytes and indices of a face list.
struct FaceExtent {
    size_t bytes = 0;
    uint64_t indices = 0;
};

// For the reads that only check faces (structure_only, array_views): when every face has the first
// face's size and all fit, the extent, found with loads that do not wait on each other; nothing
// when not (check_faces then finds out face by face).
std::optional<FaceExtent> uniform_face_extent(const ByteReader& reader, uint32_t face_count,
                                              size_t index_bytes) {
    const std::byte* bytes = reader.current();
    uint16_t size;
    std::memcpy(&size, bytes, 2); // the caller checked that face_count u16 counts fit
    const size_t stride = 2 + size_t{size} * index_bytes;
    if (face_count > reader.remaining() / stride) return std::nullopt;
    bool uniform = true;
    for (uint32_t face = 1; face < face_count; ++face) {
        uint16_t count;
        std::memcpy(&count, bytes + face * stride, 2);
        uniform &= count == size;
    }
    if (!uniform) return std::nullopt;
    return FaceExtent{face_count * stride, uint64_t{face_count} * size};
}

// Checks every face fits, in order; returns the bytes they take and the indices they hold.
FaceExtent check_faces(const ByteReader& reader, uint32_t face_count, size_t index_bytes) {
    const std::byte* bytes = reader.current();
    const size_t available = reader.remaining();
    FaceExtent extent;
    size_t& at = extent.bytes;
    for (uint32_t face = 0; face < face_count; ++face) {
        if (available - at < 2) fail_face(reader, at, face, "the index count");
        uint16_t count;
        std::memcpy(&count, bytes + at, 2);
        at += 2;
        if (available - at < count * index_bytes)
            fail_face(reader, at, face, assbin_common::counted(count, "index", "indices"));
        at += count * index_bytes;
        extent.indices += count;
    }
    return extent;
}

template <size_t IndexBytes>
void copy_faces(const std::byte* bytes, uint32_t face_count, FaceList& faces) {
    uint32_t* out = faces.indices.data();
    uint32_t written = 0;
    size_t at = 0;
    for (uint32_t face = 0; face < face_count; ++face) {
        uint16_t count;
        std::memcpy(&count, bytes + at, 2);
        at += 2;
        faces.offsets[face] = written;
        // When every face is empty the index array is empty and `out` is null: copy nothing then.
        if (count != 0) copy_face<IndexBytes, 0>(bytes + at, count, out + written);
        at += count * IndexBytes;
        written += count;
    }
    faces.offsets[face_count] = written;
}

} // namespace

void read_faces(ByteReader& reader, uint32_t face_count, bool wide_indices, FaceList& faces) {
    reader.require_records(face_count, 2, "faces");
    if (face_count == 0) return;
    ReadContext& context = reader.context();
    const bool copying = !context.structure_only() && !context.array_views();
    if (copying && (wide_indices ? read_uniform_faces<4>(reader, face_count, faces)
                                 : read_uniform_faces<2>(reader, face_count, faces)))
        return;
    const size_t index_bytes = wide_indices ? 4 : 2;
    std::optional<FaceExtent> uniform;
    if (!copying) uniform = uniform_face_extent(reader, face_count, index_bytes);
    const FaceExtent extent = uniform ? *uniform : check_faces(reader, face_count, index_bytes);
    const std::byte* bytes = reader.current();
    if (context.array_views()) {
        faces.file_records = {bytes, extent.bytes};
        faces.file_wide_indices = wide_indices;
    } else if (!context.structure_only()) {
        context.charge_array<uint32_t>(uint64_t{face_count} + 1 + extent.indices, reader.offset());
        faces.offsets.resize(size_t{face_count} + 1);
        faces.indices.resize(extent.indices);
        if (wide_indices)
            copy_faces<4>(bytes, face_count, faces);
        else
            copy_faces<2>(bytes, face_count, faces);
    }
    reader.skip(extent.bytes, "faces");
}

} // namespace assbin::detail
