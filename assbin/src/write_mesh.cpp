// MESH and BONE chunks (ASSBIN-FORMAT.md §4.3, §4.4, and §5 for the shortened form): the mirror of
// read_mesh.cpp. A full scene written shortened gets its bounds and face hashes computed here.
#include "write_context.hpp"

#include <assbin/format.hpp>
#include <assbin/shortened.hpp>

#include <limits>

namespace assbin::detail {

namespace {

constexpr uint32_t kMaxFaceIndices = 0xFFFF; // the face size is stored as u16

template <class T>
void write_bounds(ByteWriter& out, const Bounds<T>& bounds);

template <>
void write_bounds(ByteWriter& out, const Bounds<Vec3>& bounds) {
    out.vec3(bounds.min);
    out.vec3(bounds.max);
}

template <>
void write_bounds(ByteWriter& out, const Bounds<Color4>& bounds) {
    out.color4(bounds.min);
    out.color4(bounds.max);
}

// A per-vertex array: the values (full), or their bounds (shortened; computed from a full scene).
template <class T>
void write_stream(WriteContext& context, const VertexStream<T>& stream, uint32_t vertex_count,
                  const char* what) {
    if (context.from_full) context.require_size(stream.values.size(), vertex_count, what, "the vertex count");
    if (!context.shortened) {
        context.out.records(std::span<const T>(stream.values));
        return;
    }
    write_bounds(context.out,
                 context.from_full ? compute_bounds(std::span<const T>(stream.values)) : stream.bounds);
}

void check_components(const WriteContext& context, const Mesh& mesh) {
    if (mesh.tangents.has_value() != mesh.bitangents.has_value()) {
        context.fail(
            "the mesh has tangents without bitangents (or the reverse); the file stores them as a pair");
    }
    if (mesh.color_sets.size() > kMaxColorSets || mesh.uv_channels.size() > kMaxUvChannels) {
        context.fail("the mesh has " + std::to_string(mesh.color_sets.size()) + " colour sets and " +
                     std::to_string(mesh.uv_channels.size()) +
                     " UV channels; the file stores at most 8 of each");
    }
    if (mesh.bones.size() > std::numeric_limits<uint32_t>::max())
        context.fail("too many bones for a 32-bit count");
}

void write_vertex_arrays(WriteContext& context, const Mesh& mesh) {
    const uint32_t n = mesh.vertex_count;
    if (mesh.positions) write_stream(context, *mesh.positions, n, "positions");
    if (mesh.normals) write_stream(context, *mesh.normals, n, "normals");
    if (mesh.tangents) {
        write_stream(context, *mesh.tangents, n, "tangents");
        write_stream(context, *mesh.bitangents, n, "bitangents");
    }
    // Colours come before UVs (§4.3).
    for (size_t set = 0; set < mesh.color_sets.size(); ++set) {
        WritePathScope scope(context, indexed_segment("color", set));
        write_stream(context, mesh.color_sets[set], n, "the colour set");
    }
    for (size_t channel = 0; channel < mesh.uv_channels.size(); ++channel) {
        WritePathScope scope(context, indexed_segment("uv", channel));
        const UvChannel& uv = mesh.uv_channels[channel];
        context.out.u32(uv.component_count);
        write_stream<Vec3>(context, uv, n, "the UV channel");
    }
}

// Every face must fit the file: a u16 size, and u16 indices below 65536 vertices.
void check_faces(WriteContext& context, const Mesh& mesh) {
    const FaceList& faces = mesh.faces;
    context.require_size(faces.size(), mesh.face_count, "faces", "the face count");
    if (faces.size() == 0) return;
    if (faces.offsets.back() > faces.indices.size()) {
        context.fail("the face offsets end at " + std::to_string(faces.offsets.back()) + ", past the " +
                     std::to_string(faces.indices.size()) + " indices");
    }
    const bool narrow = !mesh.uses_32bit_indices();
    for (size_t face = 0; face < faces.size(); ++face) {
        const uint32_t first = faces.offsets[face];
        const uint32_t last = faces.offsets[face + 1];
        if (last < first || last - first > kMaxFaceIndices) {
            WritePathScope scope(context, indexed_segment("faces", face));
            context.fail(last < first ? "the face ends before it starts (its offsets descend)"
                                      : "the face has " + std::to_string(last - first) +
                                            " indices; the file stores at most 65535 per face");
        }
        for (uint32_t i = first; narrow && i < last; ++i) {
            if (faces.indices[i] > 0xFFFF) {
                WritePathScope scope(context, indexed_segment("faces", face));
                context.fail("index " + std::to_string(faces.indices[i]) +
                             " does not fit the 16 bits the file " + "uses for a mesh of " +
                             std::to_string(mesh.vertex_count) + " vertices");
            }
        }
    }
}

// Full faces: u16 size, then the indices as u16 (fewer than 65536 vertices) or u32 (§4.3).
void write_full_faces(ByteWriter& out, const Mesh& mesh) {
    const FaceList& faces = mesh.faces;
    const bool narrow = !mesh.uses_32bit_indices();
    const size_t index_bytes = narrow ? 2 : 4;
    const size_t first_index = faces.size() == 0 ? 0 : faces.offsets.front();
    const size_t index_total = faces.size() == 0 ? 0 : faces.offsets.back() - first_index;
    std::byte* at = out.extend(2 * faces.size() + index_bytes * index_total);
    for (size_t face = 0; face < faces.size(); ++face) {
        const uint32_t first = faces.offsets[face];
        const uint32_t last = faces.offsets[face + 1];
        const uint16_t size = static_cast<uint16_t>(last - first);
        std::memcpy(at, &size, 2);
        at += 2;
        if (narrow) {
            for (uint32_t i = first; i < last; ++i, at += 2) {
                const uint16_t index = static_cast<uint16_t>(faces.indices[i]);
                std::memcpy(at, &index, 2);
            }
        } else {
            // data() is null when every face is empty; memcpy must not see it even for 0 bytes.
            if (size != 0) std::memcpy(at, faces.indices.data() + first, size_t{size} * 4);
            at += size_t{size} * 4;
        }
    }
}

void write_faces(WriteContext& context, const Mesh& mesh) {
    if (context.from_full) check_faces(context, mesh);
    if (!context.shortened) {
        write_full_faces(context.out, mesh);
        return;
    }
    if (context.from_full) {
        context.out.records(std::span<const uint32_t>(face_hashes(mesh.faces)));
        return;
    }
    context.require_size(mesh.face_hashes.size(), face_hash_count(mesh.face_count), "face hashes",
                         "one per 512 faces of the face count");
    context.out.records(std::span<const uint32_t>(mesh.face_hashes));
}

void write_bone(WriteContext& context, const Bone& bone, size_t index) {
    WritePathScope scope(context, indexed_segment("bone", index));
    ByteWriter& out = context.out;
    const size_t mark = out.begin_chunk(kChunkBone);
    out.string(bone.name, "the bone name");
    out.u32(bone.weight_count);
    out.matrix(bone.offset);
    if (context.from_full)
        context.require_size(bone.weights.size(), bone.weight_count, "weights", "the weight count");
    if (!context.shortened) {
        out.records(std::span<const VertexWeight>(bone.weights));
    } else {
        // Written even when the bone has no weights (§4.4).
        const Bounds<VertexWeight> bounds = context.from_full
                                                ? compute_bounds(std::span<const VertexWeight>(bone.weights))
                                                : bone.weight_bounds;
        out.records(std::span<const VertexWeight>(&bounds.min, 1));
        out.records(std::span<const VertexWeight>(&bounds.max, 1));
    }
    out.end_chunk(mark);
}

} // namespace

void write_mesh(WriteContext& context, const Mesh& mesh, size_t index) {
    WritePathScope scope(context, indexed_segment("mesh", index));
    check_components(context, mesh);
    ByteWriter& out = context.out;
    const size_t mark = out.begin_chunk(kChunkMesh);
    out.u32(mesh.primitive_types);
    out.u32(mesh.vertex_count);
    out.u32(mesh.face_count);
    out.u32(static_cast<uint32_t>(mesh.bones.size()));
    out.u32(mesh.material_index);
    out.u32(mesh.component_mask());
    write_vertex_arrays(context, mesh);
    write_faces(context, mesh);
    for (size_t i = 0; i < mesh.bones.size(); ++i)
        write_bone(context, mesh.bones[i], i);
    out.end_chunk(mark);
}

} // namespace assbin::detail
