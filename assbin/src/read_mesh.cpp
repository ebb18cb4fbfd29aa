// MESH and BONE chunks (ASSBIN-FORMAT.md §4.3, §4.4, and §5 for the shortened variant).
#include "chunk_parsers.hpp"
#include "chunk_walker.hpp"
#include "read_faces.hpp"

#include <assbin/format.hpp>

#include <cstdio>
#include <cstring>

namespace assbin::detail {

namespace {

constexpr uint32_t kHasPositions = 0x1;
constexpr uint32_t kHasNormals = 0x2;
constexpr uint32_t kHasTangentsAndBitangents = 0x4;
constexpr uint32_t has_uv_channel(unsigned n) {
    return 0x100u << n;
}
constexpr uint32_t has_color_set(unsigned n) {
    return 0x10000u << n;
}
constexpr uint32_t kFacesPerHash = 512;

std::string hex(uint32_t value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%x", value);
    return text;
}

VertexStream<Vec3> read_vec3_stream(ByteReader& reader, uint32_t vertex_count, const char* what) {
    VertexStream<Vec3> stream;
    if (reader.context().shortened) {
        stream.bounds.min = reader.vec3(what);
        stream.bounds.max = reader.vec3(what);
    } else if (reader.context().structure_only()) {
        reader.require_records(vertex_count, reader.context().vec3_bytes(), what);
        reader.skip(size_t{vertex_count} * reader.context().vec3_bytes(), what);
    } else if (reader.context().array_views() && !reader.context().mixed_double) {
        stream.file_values.bytes = reader.view_records(vertex_count, sizeof(Vec3), what);
    } else {
        reader.vec3_array(vertex_count, stream.values, what);
    }
    return stream;
}

VertexStream<Color4> read_color_stream(ByteReader& reader, uint32_t vertex_count) {
    VertexStream<Color4> stream;
    if (reader.context().shortened) {
        stream.bounds.min = reader.color4("colour bounds");
        stream.bounds.max = reader.color4("colour bounds");
    } else if (reader.context().structure_only()) {
        reader.require_records(vertex_count, reader.context().color4_bytes(), "vertex colours");
        reader.skip(size_t{vertex_count} * reader.context().color4_bytes(), "vertex colours");
    } else if (reader.context().array_views() && !reader.context().mixed_double) {
        stream.file_values.bytes = reader.view_records(vertex_count, sizeof(Color4), "vertex colours");
    } else {
        reader.color4_array(vertex_count, stream.values, "vertex colours");
    }
    return stream;
}

Bone read_bone(ByteReader& mesh, ReadContext& context, size_t index) {
    const ChunkHead head = next_chunk(mesh, kChunkBone);
    ChunkScope scope(context, indexed("bone", index), head);
    ByteReader reader = mesh.child(head.length);
    Bone bone;
    bone.name = reader.string("bone name");
    bone.weight_count = reader.u32("weight count");
    bone.offset = reader.matrix("bone offset matrix");
    if (context.shortened) {
        bone.weight_bounds.min = {reader.u32("weight bounds"), reader.f32("weight bounds")};
        bone.weight_bounds.max = {reader.u32("weight bounds"), reader.f32("weight bounds")};
    } else {
        if (context.structure_only()) {
            reader.require_records(bone.weight_count, sizeof(VertexWeight), "vertex weights");
            reader.skip(size_t{bone.weight_count} * sizeof(VertexWeight), "vertex weights");
        } else if (context.array_views()) {
            bone.file_weights.bytes =
                reader.view_records(bone.weight_count, sizeof(VertexWeight), "vertex weights");
        } else {
            reader.records(bone.weight_count, bone.weights, "vertex weights");
        }
    }
    scope.field("name", bone.name);
    scope.field("weights", bone.weight_count);
    skip_trailing_chunks(reader, "BONE");
    scope.finish(reader.position());
    return bone;
}

void read_vertex_arrays(ByteReader& reader, uint32_t components, Mesh& mesh) {
    const uint32_t n = mesh.vertex_count;
    if (components & kHasPositions) mesh.positions = read_vec3_stream(reader, n, "positions");
    if (components & kHasNormals) mesh.normals = read_vec3_stream(reader, n, "normals");
    if (components & kHasTangentsAndBitangents) {
        mesh.tangents = read_vec3_stream(reader, n, "tangents");
        mesh.bitangents = read_vec3_stream(reader, n, "bitangents");
    }
    // Colours come before UVs; both stop at the first missing set, as every writer does.
    for (unsigned set = 0; set < kMaxColorSets && (components & has_color_set(set)); ++set) {
        reader.context().charge_array<VertexStream<Color4>>(1, reader.offset());
        mesh.color_sets.push_back(read_color_stream(reader, n));
    }
    for (unsigned channel = 0; channel < kMaxUvChannels && (components & has_uv_channel(channel));
         ++channel) {
        reader.context().charge_array<UvChannel>(1, reader.offset());
        UvChannel uv;
        uv.component_count = reader.u32("UV component count");
        static_cast<VertexStream<Vec3>&>(uv) = read_vec3_stream(reader, n, "texture coordinates");
        mesh.uv_channels.push_back(std::move(uv));
    }
}

// assimp_cmd <= 5.0.1 full dumps counted each colour set and UV array as 1 byte (§3).
uint64_t short_length_deficit(const Mesh& mesh) {
    const uint64_t n = mesh.vertex_count;
    const uint64_t per_array = n > 0 ? 1 : 0;
    return mesh.color_sets.size() * (16 * n - per_array) + mesh.uv_channels.size() * (12 * n - per_array);
}

void check_mesh_length(ByteReader& reader, ReadContext& context, const ChunkHead& head, const Mesh& mesh) {
    if (context.exact_lengths) {
        skip_trailing_chunks(reader, "MESH");
        return;
    }
    const uint64_t content = reader.position();
    if (head.length == content) return; // exact after all: the SCENE was short for another reason
    const uint64_t deficit = short_length_deficit(mesh);
    if (head.length != content - deficit) {
        context.fail(ErrorCode::BadLength, head.offset,
                     "MESH declares " + std::to_string(head.length) + " bytes, but its content is " +
                         std::to_string(content) + " bytes, which fits neither an exact length nor the " +
                         "short length of assimp_cmd <= 5.0.1 (" + std::to_string(content - deficit) + ")");
    }
    context.scene_length_deficit += deficit;
}

} // namespace

Mesh read_mesh(ByteReader& scene, ReadContext& context, size_t index) {
    // In assimp_cmd <= 5.0.1 full dumps the MESH length is short, so the content decides the end.
    const ChunkHead head = next_chunk(scene, kChunkMesh, !context.exact_lengths);
    ChunkScope scope(context, indexed("mesh", index), head);
    ByteReader reader = context.exact_lengths ? scene.child(head.length) : scene.rest();

    Mesh mesh;
    mesh.primitive_types = reader.u32("primitive types");
    mesh.vertex_count = reader.u32("vertex count");
    mesh.face_count = reader.u32("face count");
    const uint32_t bone_count = reader.u32("bone count");
    mesh.material_index = reader.u32("material index");
    const uint32_t components = reader.u32("component mask");
    scope.field("vertices", mesh.vertex_count);
    scope.field("faces", mesh.face_count);
    scope.field("bones", bone_count);
    scope.field("material", mesh.material_index);
    scope.field("components", hex(components));

    read_vertex_arrays(reader, components, mesh);
    if (context.shortened) {
        const uint32_t hash_count = mesh.face_count / kFacesPerHash + (mesh.face_count % kFacesPerHash != 0);
        reader.records(hash_count, mesh.face_hashes, "face hashes");
    } else {
        read_faces(reader, mesh.face_count, mesh.uses_32bit_indices(), mesh.faces);
    }
    reader.require_records(bone_count, kChunkHeadSize, "BONE chunks");
    context.charge_array<Bone>(bone_count, reader.offset());
    mesh.bones.reserve(bone_count);
    for (uint32_t i = 0; i < bone_count; ++i)
        mesh.bones.push_back(read_bone(reader, context, i));

    check_mesh_length(reader, context, head, mesh);
    if (!context.exact_lengths) scene.skip(reader.position(), "mesh");
    scope.finish(reader.position());
    return mesh;
}

} // namespace assbin::detail
