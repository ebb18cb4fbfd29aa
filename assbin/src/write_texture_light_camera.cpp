// TEXTURE, LIGHT and CAMERA chunks (ASSBIN-FORMAT.md §4.8 - §4.10) in the 5.2.5+ layout: 8-byte
// format hint, lights with position, direction and up. The mirror of read_texture_light_camera.cpp.
#include "write_context.hpp"

#include <assbin/format.hpp>

namespace assbin::detail {

namespace {

constexpr size_t kHintBytes = 8;

} // namespace

void write_texture(WriteContext& context, const Texture& texture, size_t index) {
    WritePathScope scope(context, indexed_segment("texture", index));
    if (texture.format_hint.size() > kHintBytes) {
        context.fail("the format hint '" + texture.format_hint +
                     "' is longer than the 8 bytes the file holds");
    }
    const uint64_t data_bytes =
        texture.height == 0 ? uint64_t{texture.width} : uint64_t{texture.width} * texture.height * 4;
    if (context.from_full && texture.data.size() != data_bytes) {
        context.fail("the texture holds " + std::to_string(texture.data.size()) + " bytes of data, but " +
                     std::to_string(texture.width) + " x " + std::to_string(texture.height) + " needs " +
                     std::to_string(data_bytes) +
                     (texture.height == 0 ? " (an embedded file of width bytes)" : ""));
    }
    ByteWriter& out = context.out;
    const size_t mark = out.begin_chunk(kChunkTexture);
    out.u32(texture.width);
    out.u32(texture.height);
    std::byte* hint = out.extend(kHintBytes); // NUL-padded, no terminator when full
    std::memcpy(hint, texture.format_hint.data(), texture.format_hint.size());
    if (!context.shortened) out.bytes(texture.data); // shortened dumps end after the hint
    out.end_chunk(mark);
}

void write_light(WriteContext& context, const Light& light, size_t index) {
    WritePathScope scope(context, indexed_segment("light", index));
    ByteWriter& out = context.out;
    const size_t mark = out.begin_chunk(kChunkLight);
    out.string(light.name, "the light name");
    out.u32(light.type);
    out.vec3(light.position);
    out.vec3(light.direction);
    out.vec3(light.up);
    if (light.type != static_cast<uint32_t>(LightType::Directional)) {
        out.f32(light.attenuation_constant);
        out.f32(light.attenuation_linear);
        out.f32(light.attenuation_quadratic);
    }
    out.color3(light.diffuse);
    out.color3(light.specular);
    out.color3(light.ambient);
    if (light.type == static_cast<uint32_t>(LightType::Spot)) {
        out.f32(light.inner_cone);
        out.f32(light.outer_cone);
    }
    out.end_chunk(mark);
}

void write_camera(WriteContext& context, const Camera& camera, size_t index) {
    WritePathScope scope(context, indexed_segment("camera", index));
    ByteWriter& out = context.out;
    const size_t mark = out.begin_chunk(kChunkCamera);
    out.string(camera.name, "the camera name");
    out.vec3(camera.position);
    out.vec3(camera.look_at);
    out.vec3(camera.up);
    out.f32(camera.horizontal_fov);
    out.f32(camera.clip_near);
    out.f32(camera.clip_far);
    out.f32(camera.aspect);
    out.end_chunk(mark);
}

} // namespace assbin::detail
