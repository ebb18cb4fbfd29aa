// ANIMATION and NODEANIM chunks (ASSBIN-FORMAT.md §4.6, §4.7): the mirror of read_animation.cpp.
// Vector keys are always the 20-byte record (f64 time, 3 x f32) of every writer since 5.1.
#include "write_context.hpp"

#include <assbin/format.hpp>
#include <assbin/shortened.hpp>

#include <limits>

namespace assbin::detail {

namespace {

void write_key(ByteWriter& out, const VectorKey& key) {
    out.f64(key.time);
    out.vec3(key.value);
}

void write_key(ByteWriter& out, const QuaternionKey& key) {
    out.f64(key.time);
    out.quaternion(key.value);
}

// Keys (full), or the bounds of (time, value) per component (shortened), written only for a track
// whose count is not 0: Assimp writes them for non-null key arrays (§4.7).
template <class T>
void write_track(WriteContext& context, const KeyTrack<T>& track, const char* what) {
    if (context.from_full) context.require_size(track.keys.size(), track.count, what, "the key count");
    if (track.count == 0) return;
    ByteWriter& out = context.out;
    if (!context.shortened) {
        for (const Key<T>& key : track.keys)
            write_key(out, key);
        return;
    }
    if (!context.from_full && !track.bounds) {
        context.fail(std::string(what) + " count " + std::to_string(track.count) + " but no key bounds");
    }
    const Bounds<Key<T>> bounds =
        context.from_full ? compute_bounds(std::span<const Key<T>>(track.keys)) : *track.bounds;
    write_key(out, bounds.min);
    write_key(out, bounds.max);
}

void write_channel(WriteContext& context, const NodeChannel& channel, size_t index) {
    WritePathScope scope(context, indexed_segment("channel", index));
    ByteWriter& out = context.out;
    const size_t mark = out.begin_chunk(kChunkNodeAnim);
    out.string(channel.node_name, "the channel's node name");
    out.u32(channel.positions.count);
    out.u32(channel.rotations.count);
    out.u32(channel.scalings.count);
    out.u32(channel.pre_state);
    out.u32(channel.post_state);
    write_track(context, channel.positions, "position keys");
    write_track(context, channel.rotations, "rotation keys");
    write_track(context, channel.scalings, "scaling keys");
    out.end_chunk(mark);
}

} // namespace

void write_animation(WriteContext& context, const Animation& animation, size_t index) {
    WritePathScope scope(context, indexed_segment("animation", index));
    if (animation.channels.size() > std::numeric_limits<uint32_t>::max()) {
        context.fail("too many channels for a 32-bit count");
    }
    ByteWriter& out = context.out;
    const size_t mark = out.begin_chunk(kChunkAnimation);
    out.string(animation.name, "the animation name");
    out.f64(animation.duration);
    out.f64(animation.ticks_per_second);
    out.u32(static_cast<uint32_t>(animation.channels.size()));
    for (size_t i = 0; i < animation.channels.size(); ++i)
        write_channel(context, animation.channels[i], i);
    out.end_chunk(mark);
}

} // namespace assbin::detail
