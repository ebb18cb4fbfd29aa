// TEXTURE, LIGHT and CAMERA chunks (ASSBIN-FORMAT.md §4.8 - §4.10). The format hint width and the
// light placement block vary by writer; the exact lengths of these chunks tell which (§7 step 5).
#include "chunk_parsers.hpp"
#include "chunk_walker.hpp"

#include <assbin/format.hpp>

#include <cstring>

namespace assbin::detail {

Texture read_texture(ByteReader& scene, ReadContext& context, size_t index) {
    const ChunkHead head = next_chunk(scene, kChunkTexture);
    ChunkScope scope(context, indexed("texture", index), head);
    ByteReader reader = scene.child(head.length);
    Texture texture;
    texture.width = reader.u32("texture width");
    texture.height = reader.u32("texture height");
    // width x height fits in 64 bits, but x 4 texel bytes does not always (2^31 x 2^31 x 4 wraps
    // to 0): the texel count is checked against what is left before it is turned into bytes.
    const uint64_t texels = uint64_t{texture.width} * texture.height;
    const bool too_many_texels = !context.shortened && texture.height != 0 && texels > reader.remaining() / 4;
    const uint64_t data_bytes = context.shortened     ? 0
                                : texture.height == 0 ? uint64_t{texture.width}
                                : too_many_texels     ? UINT64_MAX
                                                      : texels * 4;
    if (too_many_texels || data_bytes > reader.remaining()) {
        const std::string size =
            too_many_texels ? "4 bytes per texel" : std::to_string(data_bytes) + " bytes";
        reader.fail(ErrorCode::Truncated,
                    "the texture data (" + size + " for " + std::to_string(texture.width) + " x " +
                        std::to_string(texture.height) + ") does not fit in the " +
                        std::to_string(reader.remaining()) + " bytes left in the TEXTURE chunk");
    }
    const uint64_t hint_bytes = reader.remaining() - data_bytes;
    if (hint_bytes != 4 && hint_bytes != 8) {
        reader.fail(ErrorCode::BadLength, "the TEXTURE length leaves " + std::to_string(hint_bytes) +
                                              " bytes for the format hint; writers use 4 (<= 5.0.1) or 8");
    }
    const char* hint = reinterpret_cast<const char*>(reader.current());
    texture.format_hint.assign(hint, strnlen(hint, hint_bytes));
    reader.skip(hint_bytes, "format hint");
    reader.bytes(data_bytes, texture.data, "texture data");
    context.layout->texture_hint_bytes = static_cast<unsigned>(hint_bytes);
    scope.field("width", texture.width);
    scope.field("height", texture.height);
    scope.field("hint", texture.format_hint);
    scope.finish(reader.position());
    return texture;
}

Light read_light(ByteReader& scene, ReadContext& context, size_t index) {
    const ChunkHead head = next_chunk(scene, kChunkLight);
    ChunkScope scope(context, indexed("light", index), head);
    ByteReader reader = scene.child(head.length);
    Light light;
    light.name = reader.string("light name");
    light.type = reader.u32("light type");
    const bool has_attenuation = light.type != static_cast<uint32_t>(LightType::Directional);
    const bool has_cones = light.type == static_cast<uint32_t>(LightType::Spot);
    const size_t base = (has_attenuation ? 12 : 0) + 3 * context.color3_bytes() + (has_cones ? 8 : 0);
    const size_t placement = 3 * context.vec3_bytes();
    const bool has_placement = reader.remaining() == base + placement;
    if (!has_placement && reader.remaining() != base) {
        reader.fail(ErrorCode::BadLength, "the LIGHT length leaves " + std::to_string(reader.remaining()) +
                                              " bytes after the type; a light of type " +
                                              std::to_string(light.type) + " needs " + std::to_string(base) +
                                              " (before 5.2.5) or " + std::to_string(base + placement) +
                                              " (5.2.5 and later)");
    }
    if (has_placement) {
        light.position = reader.vec3("light position");
        light.direction = reader.vec3("light direction");
        light.up = reader.vec3("light up");
    }
    if (has_attenuation) {
        light.attenuation_constant = reader.f32("attenuation");
        light.attenuation_linear = reader.f32("attenuation");
        light.attenuation_quadratic = reader.f32("attenuation");
    }
    light.diffuse = reader.color3("diffuse colour");
    light.specular = reader.color3("specular colour");
    light.ambient = reader.color3("ambient colour");
    if (has_cones) {
        light.inner_cone = reader.f32("inner cone angle");
        light.outer_cone = reader.f32("outer cone angle");
    }
    context.layout->light_placement = has_placement;
    scope.field("name", light.name);
    scope.field("type", light.type);
    scope.finish(reader.position());
    return light;
}

Camera read_camera(ByteReader& scene, ReadContext& context, size_t index) {
    const ChunkHead head = next_chunk(scene, kChunkCamera);
    ChunkScope scope(context, indexed("camera", index), head);
    ByteReader reader = scene.child(head.length);
    Camera camera;
    camera.name = reader.string("camera name");
    camera.position = reader.vec3("camera position");
    camera.look_at = reader.vec3("camera look-at");
    camera.up = reader.vec3("camera up");
    camera.horizontal_fov = reader.f32("horizontal field of view");
    camera.clip_near = reader.f32("near clip distance");
    camera.clip_far = reader.f32("far clip distance");
    camera.aspect = reader.f32("aspect ratio");
    scope.field("name", camera.name);
    skip_trailing_chunks(reader, "CAMERA");
    scope.finish(reader.position());
    return camera;
}

} // namespace assbin::detail
