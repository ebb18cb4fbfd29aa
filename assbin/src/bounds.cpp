// Bounds as Assimp's ArrayBounds computes them (ASSBIN-FORMAT.md §5), and the shortened form of a
// full scene built from them.
#include <assbin/shortened.hpp>

#include <stdexcept>
#include <string>

namespace assbin {

namespace {

constexpr float kFloatStart = 1e10f;
constexpr double kDoubleStart = 1e10;
constexpr uint32_t kVertexIdMinStart = 0x80000000u; // Assimp's MinMaxChooser<unsigned int>

// std::min(e, acc) and std::max(e, acc), as Assimp calls them: a NaN element replaces the
// accumulator (the comparison is false), and a NaN accumulator is replaced by the next element.
template <class T>
void take_min(T& acc, T e) {
    acc = (acc < e) ? acc : e;
}
template <class T>
void take_max(T& acc, T e) {
    acc = (e < acc) ? acc : e;
}

// Bounds over fixed-size float vectors (Vec3, Color4), component by component.
template <class V>
Bounds<V> float_vector_bounds(std::span<const V> values) {
    Bounds<V> bounds;
    bounds.min.setConstant(kFloatStart);
    bounds.max.setConstant(-kFloatStart);
    constexpr int n = V::RowsAtCompileTime;
    for (const V& e : values) {
        for (int i = 0; i < n; ++i) {
            take_min(bounds.min[i], e[i]);
            take_max(bounds.max[i], e[i]);
        }
    }
    return bounds;
}

template <class T>
Bounds<T> bounds_of_stream(const VertexStream<T>& stream) {
    return compute_bounds(std::span<const T>(stream.values));
}

VertexStream<Vec3> shorten_stream(const VertexStream<Vec3>& full) {
    VertexStream<Vec3> shortened;
    shortened.bounds = bounds_of_stream(full);
    return shortened;
}

Bone shorten_bone(const Bone& full) {
    Bone bone;
    bone.name = full.name;
    bone.offset = full.offset;
    bone.weight_count = full.weight_count;
    bone.weight_bounds = compute_bounds(std::span<const VertexWeight>(full.weights));
    return bone;
}

Mesh shorten_mesh(const Mesh& full, size_t index) {
    Mesh mesh;
    mesh.primitive_types = full.primitive_types;
    mesh.material_index = full.material_index;
    mesh.vertex_count = full.vertex_count;
    mesh.face_count = full.face_count;
    if (full.positions) mesh.positions = shorten_stream(*full.positions);
    if (full.normals) mesh.normals = shorten_stream(*full.normals);
    if (full.tangents) mesh.tangents = shorten_stream(*full.tangents);
    if (full.bitangents) mesh.bitangents = shorten_stream(*full.bitangents);
    for (const VertexStream<Color4>& set : full.color_sets) {
        VertexStream<Color4> shortened;
        shortened.bounds = bounds_of_stream(set);
        mesh.color_sets.push_back(std::move(shortened));
    }
    for (const UvChannel& channel : full.uv_channels) {
        UvChannel shortened;
        shortened.component_count = channel.component_count;
        shortened.bounds = bounds_of_stream<Vec3>(channel);
        mesh.uv_channels.push_back(std::move(shortened));
    }
    try {
        mesh.face_hashes = face_hashes(full.faces);
    } catch (const std::invalid_argument& error) {
        throw std::invalid_argument("scene/mesh[" + std::to_string(index) + "]/faces: " + error.what());
    }
    mesh.bones.reserve(full.bones.size());
    for (const Bone& bone : full.bones)
        mesh.bones.push_back(shorten_bone(bone));
    return mesh;
}

// The writer stores key bounds only when the key array pointer is set, i.e. when count > 0.
template <class T>
KeyTrack<T> shorten_track(const KeyTrack<T>& full) {
    KeyTrack<T> track;
    track.count = full.count;
    if (full.count != 0) track.bounds = compute_bounds(std::span<const Key<T>>(full.keys));
    return track;
}

Animation shorten_animation(const Animation& full) {
    Animation animation;
    animation.name = full.name;
    animation.duration = full.duration;
    animation.ticks_per_second = full.ticks_per_second;
    animation.channels.reserve(full.channels.size());
    for (const NodeChannel& full_channel : full.channels) {
        NodeChannel channel;
        channel.node_name = full_channel.node_name;
        channel.pre_state = full_channel.pre_state;
        channel.post_state = full_channel.post_state;
        channel.positions = shorten_track(full_channel.positions);
        channel.rotations = shorten_track(full_channel.rotations);
        channel.scalings = shorten_track(full_channel.scalings);
        animation.channels.push_back(std::move(channel));
    }
    return animation;
}

} // namespace

Bounds<Vec3> compute_bounds(std::span<const Vec3> values) {
    return float_vector_bounds(values);
}

Bounds<Color4> compute_bounds(std::span<const Color4> values) {
    return float_vector_bounds(values);
}

Bounds<VertexWeight> compute_bounds(std::span<const VertexWeight> weights) {
    Bounds<VertexWeight> bounds{{kVertexIdMinStart, kFloatStart}, {0u, -kFloatStart}};
    for (const VertexWeight& e : weights) {
        take_min(bounds.min.vertex, e.vertex);
        take_max(bounds.max.vertex, e.vertex);
        take_min(bounds.min.weight, e.weight);
        take_max(bounds.max.weight, e.weight);
    }
    return bounds;
}

Bounds<VectorKey> compute_bounds(std::span<const VectorKey> keys) {
    Bounds<VectorKey> bounds;
    bounds.min.time = kDoubleStart;
    bounds.max.time = -kDoubleStart;
    const Bounds<Vec3> start = compute_bounds(std::span<const Vec3>());
    bounds.min.value = start.min;
    bounds.max.value = start.max;
    for (const VectorKey& e : keys) {
        take_min(bounds.min.time, e.time);
        take_max(bounds.max.time, e.time);
        for (int i = 0; i < 3; ++i) {
            take_min(bounds.min.value[i], e.value[i]);
            take_max(bounds.max.value[i], e.value[i]);
        }
    }
    return bounds;
}

Bounds<QuaternionKey> compute_bounds(std::span<const QuaternionKey> keys) {
    // Component by component in (w, x, y, z) order; Eigen keeps them as coeffs() = (x, y, z, w), and
    // the order does not change per-component results.
    Bounds<QuaternionKey> bounds;
    bounds.min.time = kDoubleStart;
    bounds.max.time = -kDoubleStart;
    bounds.min.value.coeffs().setConstant(kFloatStart);
    bounds.max.value.coeffs().setConstant(-kFloatStart);
    for (const QuaternionKey& e : keys) {
        take_min(bounds.min.time, e.time);
        take_max(bounds.max.time, e.time);
        for (int i = 0; i < 4; ++i) {
            take_min(bounds.min.value.coeffs()[i], e.value.coeffs()[i]);
            take_max(bounds.max.value.coeffs()[i], e.value.coeffs()[i]);
        }
    }
    return bounds;
}

Scene make_shortened(const Scene& full) {
    if (full.is_shortened()) return full;
    Scene scene;
    scene.header = full.header;
    scene.header.shortened = 1;
    scene.layout = full.layout;
    scene.flags = full.flags;
    scene.nodes = full.nodes;
    scene.meshes.reserve(full.meshes.size());
    for (size_t i = 0; i < full.meshes.size(); ++i)
        scene.meshes.push_back(shorten_mesh(full.meshes[i], i));
    scene.materials = full.materials;
    scene.animations.reserve(full.animations.size());
    for (const Animation& animation : full.animations)
        scene.animations.push_back(shorten_animation(animation));
    scene.textures.reserve(full.textures.size());
    for (const Texture& texture : full.textures) {
        Texture shortened;
        shortened.width = texture.width;
        shortened.height = texture.height;
        shortened.format_hint = texture.format_hint;
        scene.textures.push_back(std::move(shortened));
    }
    scene.lights = full.lights;
    scene.cameras = full.cameras;
    scene.skipped_chunks = full.skipped_chunks;
    scene.body_bytes = 0; // not read from a file
    return scene;
}

} // namespace assbin
