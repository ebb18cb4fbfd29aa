// The writer's entry points: the SCENE chunk and its children in file order (the mirror of
// read_scene.cpp), the header, optional compression, and the atomic file output.
#include "write_context.hpp"

#include "atomic_file.hpp"

#include <assbin/format.hpp>
#include <assbin/writer.hpp>

#include <cstring>
#include <limits>

namespace assbin {

namespace detail {

void ByteWriter::string(std::string_view text, const char* what) {
    if (text.size() > std::numeric_limits<uint32_t>::max()) {
        context_.fail(std::string(what) + " is " + std::to_string(text.size()) +
                      " bytes; strings hold at most 4 GiB");
    }
    u32(static_cast<uint32_t>(text.size()));
    append(text.data(), text.size());
}

void ByteWriter::quaternion(const Quaternion& q) {
    f32(q.w());
    f32(q.x());
    f32(q.y());
    f32(q.z());
}

size_t ByteWriter::begin_chunk(uint32_t id) {
    const size_t mark = buffer_.size();
    u32(id);
    u32(0); // patched by end_chunk
    return mark;
}

void ByteWriter::end_chunk(size_t mark) {
    const uint64_t payload = buffer_.size() - mark - kChunkHeadSize;
    if (payload > std::numeric_limits<uint32_t>::max()) {
        context_.fail("the chunk holds " + std::to_string(payload) + " bytes; a chunk length has 32 bits");
    }
    const uint32_t length = static_cast<uint32_t>(payload);
    std::memcpy(buffer_.data() + mark + 4, &length, 4);
}

std::string WriteContext::path_string() const {
    std::string joined;
    for (const std::string& segment : path) {
        if (!joined.empty()) joined += '/';
        joined += segment;
    }
    return joined;
}

void WriteContext::require_size(uint64_t actual, uint64_t expected, const char* what,
                                const char* count) const {
    if (actual != expected) {
        fail(std::string(what) + " holds " + std::to_string(actual) + " entries, but " + count + " is " +
             std::to_string(expected));
    }
}

namespace {

void require_chunk_count(const WriteContext& context, size_t count, const char* what) {
    if (count > std::numeric_limits<uint32_t>::max()) {
        context.fail(std::to_string(count) + " " + what + " do not fit the 32-bit count");
    }
}

// A first guess at the body size, so that big scenes are not copied while the buffer grows.
size_t estimated_body_bytes(const Scene& scene, bool shortened) {
    if (shortened) return 4096;
    size_t bytes = 4096;
    for (const Mesh& mesh : scene.meshes) {
        const size_t streams = (mesh.positions ? 1 : 0) + (mesh.normals ? 1 : 0) + (mesh.tangents ? 2 : 0) +
                               mesh.uv_channels.size();
        bytes += size_t{mesh.vertex_count} * (12 * streams + 16 * mesh.color_sets.size());
        bytes +=
            2 * size_t{mesh.face_count} + (mesh.uses_32bit_indices() ? 4 : 2) * mesh.faces.indices.size();
        for (const Bone& bone : mesh.bones)
            bytes += 8 * bone.weights.size();
    }
    for (const Texture& texture : scene.textures)
        bytes += texture.data.size();
    return bytes;
}

// The header, then the SCENE chunk.
std::vector<std::byte> write_image(const Scene& scene, bool shortened, std::span<const std::byte> header) {
    WriteContext context;
    context.shortened = shortened;
    context.from_full = !scene.is_shortened();
    ByteWriter& out = context.out;
    out.reserve(header.size() + estimated_body_bytes(scene, shortened));
    out.raw(header);
    require_chunk_count(context, scene.meshes.size(), "meshes");
    require_chunk_count(context, scene.materials.size(), "materials");
    require_chunk_count(context, scene.animations.size(), "animations");
    require_chunk_count(context, scene.textures.size(), "textures");
    require_chunk_count(context, scene.lights.size(), "lights");
    require_chunk_count(context, scene.cameras.size(), "cameras");

    const size_t mark = out.begin_chunk(kChunkScene);
    out.u32(scene.flags);
    out.u32(static_cast<uint32_t>(scene.meshes.size()));
    out.u32(static_cast<uint32_t>(scene.materials.size()));
    out.u32(static_cast<uint32_t>(scene.animations.size()));
    out.u32(static_cast<uint32_t>(scene.textures.size()));
    out.u32(static_cast<uint32_t>(scene.lights.size()));
    out.u32(static_cast<uint32_t>(scene.cameras.size()));
    write_node_tree(context, scene.nodes);
    for (size_t i = 0; i < scene.meshes.size(); ++i)
        write_mesh(context, scene.meshes[i], i);
    for (size_t i = 0; i < scene.materials.size(); ++i)
        write_material(context, scene.materials[i], i);
    for (size_t i = 0; i < scene.animations.size(); ++i)
        write_animation(context, scene.animations[i], i);
    for (size_t i = 0; i < scene.textures.size(); ++i)
        write_texture(context, scene.textures[i], i);
    for (size_t i = 0; i < scene.lights.size(); ++i)
        write_light(context, scene.lights[i], i);
    for (size_t i = 0; i < scene.cameras.size(); ++i)
        write_camera(context, scene.cameras[i], i);
    out.end_chunk(mark);
    return out.take();
}

// The one atomic-write routine of the project (common/atomic_file.hpp), its failures as WriteError.
void store_atomically(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    try {
        assbin_common::write_file_atomically(path, bytes);
    } catch (const assbin_common::WriteFailure& failure) {
        throw WriteError(path.string(), failure.cause());
    }
}

} // namespace

} // namespace detail

std::vector<std::byte> write(const Scene& scene, const WriteOptions& options) {
    if (holds_file_records(scene)) { // read with array_views: the arrays are written from a copy
        Scene copy = scene;
        copy_file_records(copy);
        return write(copy, options);
    }
    if (options.compressed && (options.compression_level < 1 || options.compression_level > 9)) {
        throw WriteError("", "the compression level must be 1 to 9, not " +
                                 std::to_string(options.compression_level));
    }
    if (scene.is_shortened() && !options.shortened) {
        throw WriteError("scene",
                         "this scene comes from a shortened dump (.assbin.regress): it holds only bounds and "
                         "face hashes, not the vertex, face, weight, key and texture arrays a full dump "
                         "stores, so it can only be written shortened");
    }
    std::vector<std::byte> image =
        detail::write_image(scene, options.shortened, detail::header_bytes(options, options.shortened));
    if (!options.compressed) return image;
    const std::vector<std::byte> packed = detail::compress_body(
        std::span<const std::byte>(image).subspan(kHeaderSize), options.compression_level);
    image.resize(kHeaderSize);
    image.insert(image.end(), packed.begin(), packed.end());
    return image;
}

void write_file(const Scene& scene, const std::filesystem::path& path, const WriteOptions& options) {
    const std::vector<std::byte> bytes = write(scene, options);
    detail::store_atomically(path, bytes);
}

} // namespace assbin
