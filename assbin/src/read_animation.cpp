// ANIMATION and NODEANIM chunks (ASSBIN-FORMAT.md §4.6, §4.7).
#include "chunk_parsers.hpp"
#include "chunk_walker.hpp"
#include <counting.hpp>

#include <assbin/format.hpp>

namespace assbin::detail {

namespace {

VectorKey read_vector_key(ByteReader& reader, size_t stride) {
    VectorKey key;
    key.time = reader.f64("key time");
    key.value = reader.vec3("key value");
    // assimp_cmd <= 5.0.1 wrote the raw 24-byte struct: 4 bytes of undefined padding follow.
    reader.skip(stride - 8 - reader.context().vec3_bytes(), "key padding");
    return key;
}

QuaternionKey read_quaternion_key(ByteReader& reader) {
    QuaternionKey key;
    key.time = reader.f64("key time");
    key.value = reader.quaternion("key value");
    return key;
}

template <class T, class ReadKey>
void read_track(ByteReader& reader, KeyTrack<T>& track, size_t stride, const char* what, ReadKey read_key) {
    if (reader.context().shortened) {
        // Bounds are written only for arrays that exist, i.e. whose count is not 0.
        if (track.count == 0) return;
        Bounds<Key<T>> bounds;
        bounds.min = read_key(reader);
        bounds.max = read_key(reader);
        track.bounds = bounds;
        return;
    }
    reader.require_records(track.count, stride, what);
    reader.context().charge_array<Key<T>>(track.count, reader.offset());
    track.keys.reserve(track.count);
    for (uint32_t i = 0; i < track.count; ++i)
        track.keys.push_back(read_key(reader));
}

// Full dumps: vector keys are 20 bytes, or 24 from assimp_cmd <= 5.0.1; the exact NODEANIM
// length tells which (§4.7).
size_t vector_key_stride(const ByteReader& reader, const NodeChannel& channel) {
    const ReadContext& context = reader.context();
    const size_t compact = 8 + context.vec3_bytes();
    const uint64_t vector_keys = uint64_t{channel.positions.count} + channel.scalings.count;
    if (context.shortened || context.mixed_double || vector_keys == 0) return compact;
    const uint64_t rotation_bytes = uint64_t{channel.rotations.count} * (8 + context.quat_bytes());
    const uint64_t left = reader.remaining();
    if (left >= rotation_bytes && (left - rotation_bytes) % vector_keys == 0) {
        const uint64_t stride = (left - rotation_bytes) / vector_keys;
        if (stride == 20 || stride == 24) return static_cast<size_t>(stride);
    }
    reader.fail(ErrorCode::BadLength, "the NODEANIM length leaves " + assbin_common::counted(left, "byte") +
                                          " for " + std::to_string(vector_keys) + " position/scaling and " +
                                          std::to_string(channel.rotations.count) +
                                          " rotation keys, which fits neither 20- nor 24-byte position keys");
}

NodeChannel read_channel(ByteReader& animation, ReadContext& context, size_t index) {
    const ChunkHead head = next_chunk(animation, kChunkNodeAnim);
    ChunkScope scope(context, indexed("channel", index), head);
    ByteReader reader = animation.child(head.length);
    NodeChannel channel;
    channel.node_name = reader.string("channel node name");
    channel.positions.count = reader.u32("position key count");
    channel.rotations.count = reader.u32("rotation key count");
    channel.scalings.count = reader.u32("scaling key count");
    channel.pre_state = reader.u32("pre state");
    channel.post_state = reader.u32("post state");
    scope.field("node", channel.node_name);
    scope.field("position keys", channel.positions.count);
    scope.field("rotation keys", channel.rotations.count);
    scope.field("scaling keys", channel.scalings.count);

    const size_t stride = vector_key_stride(reader, channel);
    const auto vector_key = [stride](ByteReader& r) { return read_vector_key(r, stride); };
    read_track(reader, channel.positions, stride, "position keys", vector_key);
    read_track(reader, channel.rotations, 8 + context.quat_bytes(), "rotation keys", read_quaternion_key);
    read_track(reader, channel.scalings, stride, "scaling keys", vector_key);
    if (!context.shortened && channel.positions.count + channel.scalings.count > 0) {
        context.layout->vector_key_bytes = static_cast<unsigned>(stride);
    }
    skip_trailing_chunks(reader, "NODEANIM");
    scope.finish(reader.position());
    return channel;
}

} // namespace

Animation read_animation(ByteReader& scene, ReadContext& context, size_t index) {
    const ChunkHead head = next_chunk(scene, kChunkAnimation);
    ChunkScope scope(context, indexed("animation", index), head);
    ByteReader reader = scene.child(head.length);
    Animation animation;
    animation.name = reader.string("animation name");
    animation.duration = reader.f64("duration");
    animation.ticks_per_second = reader.f64("ticks per second");
    const uint32_t channel_count = reader.u32("channel count");
    reader.require_records(channel_count, kChunkHeadSize, "NODEANIM chunks");
    scope.field("name", animation.name);
    scope.field("duration", std::to_string(animation.duration));
    scope.field("ticks per second", std::to_string(animation.ticks_per_second));
    scope.field("channels", channel_count);
    context.charge_array<NodeChannel>(channel_count, reader.offset());
    animation.channels.reserve(channel_count);
    for (uint32_t i = 0; i < channel_count; ++i)
        animation.channels.push_back(read_channel(reader, context, i));
    skip_trailing_chunks(reader, "ANIMATION");
    scope.finish(reader.position());
    return animation;
}

} // namespace assbin::detail
