// The entry points: header, optional inflate, then the SCENE chunk and its children in file order.
#include "chunk_parsers.hpp"
#include "chunk_walker.hpp"
#include "inflate.hpp"
#include "mapped_file.hpp"
#include "read_file.hpp"

#include <assbin/format.hpp>
#include <assbin/reader.hpp>
#include <counting.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>

namespace assbin {

using assbin_common::with_thousands;

namespace detail {

namespace {

template <class T, class ReadOne>
void read_children(ByteReader& scene, ReadContext& context, uint32_t count, std::vector<T>& out,
                   ReadOne read_one) {
    context.charge_array<T>(count, scene.offset());
    out.reserve(count);
    for (uint32_t i = 0; i < count; ++i)
        out.push_back(read_one(scene, context, i));
}

struct SceneCounts {
    uint32_t meshes, materials, animations, textures, lights, cameras;
};

SceneCounts read_scene_fields(ByteReader& reader, Scene& scene, ChunkScope& scope) {
    scene.flags = reader.u32("scene flags");
    SceneCounts counts{};
    counts.meshes = reader.u32("mesh count");
    counts.materials = reader.u32("material count");
    counts.animations = reader.u32("animation count");
    counts.textures = reader.u32("texture count");
    counts.lights = reader.u32("light count");
    counts.cameras = reader.u32("camera count");
    const uint64_t chunk_count = uint64_t{counts.meshes} + counts.materials + counts.animations +
                                 counts.textures + counts.lights + counts.cameras;
    reader.require_records(chunk_count, kChunkHeadSize, "child chunks (as the scene counts declare)");
    scope.field("flags", scene.flags);
    scope.field("meshes", counts.meshes);
    scope.field("materials", counts.materials);
    scope.field("animations", counts.animations);
    scope.field("textures", counts.textures);
    scope.field("lights", counts.lights);
    scope.field("cameras", counts.cameras);
    return counts;
}

// assimp_cmd <= 5.0.1 full dumps declare a SCENE length short by the sum of their meshes' deficits.
void check_scene_length(const ReadContext& context, const ChunkHead& head, uint64_t content) {
    if (context.exact_lengths) return;
    if (head.length != content - context.scene_length_deficit) {
        context.fail(ErrorCode::BadLength, head.offset,
                     "SCENE declares " + std::to_string(head.length) + " bytes, but its content is " +
                         std::to_string(content) +
                         " bytes, which fits neither an exact length nor the short " +
                         "length of assimp_cmd <= 5.0.1 (" +
                         std::to_string(content - context.scene_length_deficit) + ")");
    }
}

void read_scene_chunk(ByteReader& body, ReadContext& context, Scene& scene) {
    const ChunkHead head = next_chunk(body, kChunkScene, true);
    // The body is one SCENE chunk. A length short of the body means an assimp_cmd <= 5.0.1 full
    // dump (§3) or a writer that crashed (length = placeholder); the content decides either way.
    // A length past the body means a cut file: it is read as far as it goes, for the chunk trace.
    context.exact_lengths = head.length >= body.remaining();
    scene.layout.exact_mesh_lengths = context.exact_lengths;
    ChunkScope scope(context, "scene", head);
    ByteReader reader = body.child(body.remaining());
    const SceneCounts counts = read_scene_fields(reader, scene, scope);

    scene.nodes =
        read_node_tree(reader, context, (scene.header.compile_flags & kCompileDoublePrecision) != 0);
    scene.layout.node_metadata = context.node_metadata;
    scene.layout.mixed_double = context.mixed_double;
    read_meshes(reader, context, counts.meshes, scene.meshes);
    read_children(reader, context, counts.materials, scene.materials, read_material);
    read_children(reader, context, counts.animations, scene.animations, read_animation);
    read_children(reader, context, counts.textures, scene.textures, read_texture);
    read_children(reader, context, counts.lights, scene.lights, read_light);
    read_children(reader, context, counts.cameras, scene.cameras, read_camera);
    if (context.exact_lengths) {
        skip_trailing_chunks(reader, "SCENE");
    } else if (!reader.at_end()) {
        // Bytes after a scene that ended where its length (exact, or short by the meshes' deficits)
        // says are not the scene's: Assimp's loader never reads them. Kept as a finding, not refused.
        if (head.length + context.scene_length_deficit != reader.position()) {
            reader.fail(ErrorCode::BadLength, assbin_common::counted(reader.remaining(), "byte") +
                                                  (reader.remaining() == 1 ? " follows" : " follow") +
                                                  " the last chunk of the scene");
        }
        if (context.options->refuse_trailing_bytes) {
            reader.fail(ErrorCode::BadLength,
                        std::to_string(reader.remaining()) +
                            " bytes follow the end of the SCENE chunk (refused as asked)");
        }
        scene.trailing_offset = head.offset + kChunkHeadSize + reader.position();
        scene.trailing_bytes = reader.remaining();
    }
    const uint64_t content = reader.position();
    if (head.length > content) {
        reader.fail(ErrorCode::Truncated, "the scene's content ends here, before the SCENE chunk's end");
    }
    check_scene_length(context, head, content);
    scope.finish(content);
}

// Why a read that failed inside the scene failed, when the SCENE head already tells.
std::string scene_damage_note(uint32_t scene_length, uint64_t body_bytes) {
    if (body_bytes < kChunkHeadSize) return {};
    const uint64_t available = body_bytes - kChunkHeadSize;
    if (scene_length == kChunkScene) {
        return " (the SCENE length still holds the writer's placeholder, its chunk id: the writer stopped "
               "before finishing the file)";
    }
    if (scene_length > available) {
        return " (the file is cut short: the SCENE chunk declares " + with_thousands(scene_length) +
               " bytes, but only " + with_thousands(available) + " follow its head)";
    }
    return {};
}

Scene read_body(std::span<const std::byte> body, const Header& header, const ReadOptions& options) {
    Scene scene;
    scene.header = header;
    scene.body_bytes = body.size();
    if (options.report) *options.report = {};
    ReadContext context;
    context.options = &options;
    context.shortened = header.is_shortened();
    context.trace = options.chunk_trace;
    context.skipped = &scene.skipped_chunks;
    context.layout = &scene.layout;
    context.body_bytes = body.size();
    const ReadLimits& limits = options.limits;
    context.allocation_cap =
        body.size() > (UINT64_MAX - limits.max_allocation_allowance) /
                          std::max<uint64_t>(limits.max_allocation_ratio, 1)
            ? UINT64_MAX
            : body.size() * limits.max_allocation_ratio + limits.max_allocation_allowance;
    ByteReader reader(body.data(), body.size(), kHeaderSize, context);
    uint32_t scene_length = 0;
    if (reader.remaining() >= kChunkHeadSize) scene_length = reader.peek_u32(4);
    try {
        read_scene_chunk(reader, context, scene);
    } catch (const ParseError& error) {
        const std::string note = scene_damage_note(scene_length, body.size());
        if (note.empty()) throw;
        // A file cut short is one condition, whichever field the cut landed in: said as Truncated,
        // as a cut compressed dump is, not as the length fault the cut caused.
        const bool cut = scene_length != kChunkScene && body.size() >= kChunkHeadSize &&
                         scene_length > body.size() - kChunkHeadSize;
        if (!cut || error.code() == ErrorCode::LimitExceeded)
            throw ParseError(error.code(), error.offset(), error.chunk_path(), error.message() + note,
                             error.limit());
        // The cause first, then the symptom the reader met where the bytes ran out.
        throw ParseError(ErrorCode::Truncated, error.offset(), error.chunk_path(),
                         note.substr(2, note.size() - 3) + "; reading stopped here: " + error.message());
    }
    return scene;
}

// Reads from `data`; when `file` holds the same bytes, they are released once inflated, so a
// compressed read never holds the file, the body and the scene at once.
Scene read_image(std::span<const std::byte> data, assbin_common::MappedFile* file,
                 const ReadOptions& options) {
    const Header header = read_header(data);
    if (!header.is_compressed()) return read_body(data.subspan(kHeaderSize), header, options);
    ByteBuffer body = inflate_body(data.subspan(kHeaderSize + 4), header, options.limits);
    if (file) file->release();
    if (!body.cut_short.empty()) {
        // The chunks are walked up to the cut (a chunk trace shows them), then the cut is the error:
        // whatever the walk met at the end of what was inflated is the cut's doing, not a fault
        // of its own (a chunk "longer than its parent", a limit).
        try {
            read_body(body.span(), header, options);
        } catch (const ParseError&) {
        }
        throw ParseError(ErrorCode::Truncated, kHeaderSize + 4, "compressed body", body.cut_short);
    }
    if (body.bytes_after_stream > 0 && options.refuse_trailing_bytes) {
        throw ParseError(ErrorCode::BadLength, body.stream_end, "",
                         assbin_common::counted(body.bytes_after_stream, "byte") +
                             (body.bytes_after_stream == 1 ? " follows" : " follow") +
                             " the end of the zlib stream (refused as asked)");
    }
    Scene scene = read_body(body.span(), header, options);
    scene.bytes_after_stream = body.bytes_after_stream;
    scene.bytes_after_stream_offset = body.stream_end;
    if (options.array_views) scene.inflated_body = std::move(body.data); // its records point there
    return scene;
}

} // namespace

} // namespace detail

Scene read_scene(std::span<const std::byte> data, const ReadOptions& options) {
    return detail::read_image(data, nullptr, options);
}

std::vector<std::byte> load_file_bytes(const std::filesystem::path& path) {
    try {
        return assbin_common::read_regular_file(path);
    } catch (const assbin_common::ReadFailure& failure) {
        throw ParseError(ErrorCode::Io, 0, "", failure.what());
    }
}

Scene read_file(const std::filesystem::path& path, const ReadOptions& options) {
    std::optional<assbin_common::MappedFile> file;
    try {
        file.emplace(path);
    } catch (const assbin_common::ReadFailure& failure) {
        throw ParseError(ErrorCode::Io, 0, "", failure.what());
    }
    return detail::read_image(file->bytes(), &*file, options);
}

} // namespace assbin
