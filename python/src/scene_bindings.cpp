// assbin.read / assbin.write and the Scene with its parts. A Scene owns the C++ scene through a
// shared pointer; meshes, nodes, bones, ... are small views that share it, and their arrays are
// read-only NumPy views of the scene's own vectors (array_views.hpp).
#include "array_views.hpp"
#include "bindings.hpp"
#include "named_error.hpp"
#include "recycled_buffers.hpp"
#include "scene_ref.hpp"
#include "source_argument.hpp"
#include "text.hpp"
#include "value_equality.hpp"

#include <assbin/compare.hpp>
#include <assbin/reader.hpp>
#include <assbin/validate.hpp>
#include <assbin/writer.hpp>
#include <counting.hpp>
#include <output_target.hpp>
#include <quoting.hpp>
#include <read_file.hpp>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <variant>

namespace py = pybind11;

namespace assbin::python {

namespace {

using ScenePtr = std::shared_ptr<const Scene>;

// A scene and what its arrays live in: the file's bytes in a recycled block (a scene read from a
// path keeps its arrays there, recycled_buffers.hpp), or the scene it was copied from.
struct SceneWithOwner {
    std::shared_ptr<const void> owner;
    Scene scene;
};

struct NodeRef {
    ScenePtr scene;
    size_t node;
    const Node& get() const { return scene->nodes[node]; }
};
struct MeshRef {
    ScenePtr scene;
    size_t mesh;
    const Mesh& get() const { return scene->meshes[mesh]; }
};
struct BoneRef {
    ScenePtr scene;
    size_t mesh, bone;
    const Bone& get() const { return scene->meshes[mesh].bones[bone]; }
};
struct MaterialRef {
    ScenePtr scene;
    size_t material;
    const Material& get() const { return scene->materials[material]; }
};
struct AnimationRef {
    ScenePtr scene;
    size_t animation;
    const Animation& get() const { return scene->animations[animation]; }
};
struct ChannelRef {
    ScenePtr scene;
    size_t animation, channel;
    const NodeChannel& get() const { return scene->animations[animation].channels[channel]; }
};
struct TextureRef {
    ScenePtr scene;
    size_t texture;
    const Texture& get() const { return scene->textures[texture]; }
};

constexpr py::ssize_t kVec3 = sizeof(Vec3);

// The views of a scene's `count` parts of one kind (nodes, meshes, ...), as a list.
template <class Ref>
py::list parts(const ScenePtr& scene, size_t count) {
    py::list out;
    for (size_t i = 0; i < count; ++i)
        out.append(Ref{scene, i});
    return out;
}

// The first float of an array's records, whether copied into the scene's vectors or left in the
// file's bytes (a scene read from a path: the reader's array views), and how many records.
template <class T>
std::pair<const float*, py::ssize_t> records(const VertexStream<T>& stream) {
    const FileRecords<T> r = stream.records();
    return {r.empty() ? nullptr : reinterpret_cast<const float*>(r.bytes.data()), py::ssize_t(r.size())};
}

// (N, k) float32 over a stream's records (k of the T's floats; records at any alignment: the file's).
template <class T>
py::array stream_view(const ScenePtr& scene, const VertexStream<T>& stream, py::ssize_t components) {
    const auto [first, count] = records(stream);
    return view_of(first, {count, components}, {py::ssize_t(sizeof(T)), sizeof(float)}, keep_alive(scene));
}

// (N, 3) float32 over a vertex stream, or None when the mesh has none (or it is shortened: bounds).
py::object vec3_stream(const ScenePtr& scene, const std::optional<VertexStream<Vec3>>& stream) {
    if (!stream || (scene->header.is_shortened() && stream->records().empty())) return py::none();
    return stream_view(scene, *stream, 3);
}

// A bone's weights, copied or in the file's records: the first record's `field` and the count.
std::pair<const std::byte*, py::ssize_t> weight_field(const Bone& bone, size_t field) {
    const FileRecords<VertexWeight> r = bone.weight_records();
    return {r.empty() ? nullptr : r.bytes.data() + field, py::ssize_t(r.size())};
}

py::array matrix_view(const ScenePtr& scene, const Matrix4& matrix) {
    return view_of(matrix.data(), {4, 4}, {4 * sizeof(float), sizeof(float)}, keep_alive(scene)); // row-major
}

py::tuple vec3_tuple(const Vec3& v) {
    return py::make_tuple(v.x(), v.y(), v.z());
}

// A stream's bounds: a shortened dump stores them; a full dump's are those of its values (what a
// shortened dump of it would store), NaNs left out.
template <class T>
Bounds<T> bounds_of(const Scene& scene, const VertexStream<T>& stream) {
    const FileRecords<T> values = stream.records();
    if (scene.is_shortened() || values.empty()) return stream.bounds;
    Bounds<T> bounds;
    bounds.min.setConstant(std::numeric_limits<float>::infinity());
    bounds.max.setConstant(-std::numeric_limits<float>::infinity());
    for (size_t v = 0; v < values.size(); ++v) {
        const T value = values[v];
        for (int i = 0; i < value.size(); ++i) {
            if (std::isnan(value[i])) continue;
            bounds.min[i] = std::min(bounds.min[i], value[i]);
            bounds.max[i] = std::max(bounds.max[i], value[i]);
        }
    }
    return bounds;
}

// A stream's bounds as ((min...), (max...)).
template <class T>
py::tuple bounds_tuple(const Bounds<T>& bounds) {
    const auto as_tuple = [](const T& value) {
        py::list items;
        for (int i = 0; i < value.size(); ++i)
            items.append(value[i]);
        return py::tuple(items);
    };
    return py::make_tuple(as_tuple(bounds.min), as_tuple(bounds.max));
}

py::object metadata_value(const MetadataValue& value) {
    return std::visit(
        [](const auto& v) -> py::object {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, std::monostate>)
                return py::none();
            else if constexpr (std::is_same_v<V, Vec3>)
                return vec3_tuple(v);
            else if constexpr (std::is_same_v<V, std::string>)
                return text(v);
            else
                return py::cast(v);
        },
        value);
}

const char* property_type_name(uint32_t type) {
    switch (static_cast<MaterialPropertyType>(type)) {
    case MaterialPropertyType::Float:
        return "float";
    case MaterialPropertyType::Double:
        return "double";
    case MaterialPropertyType::String:
        return "string";
    case MaterialPropertyType::Integer:
        return "int";
    case MaterialPropertyType::Buffer:
        return "buffer";
    }
    return "unknown";
}

// A material property's value as Python sees it: str, list of floats or ints, or bytes.
py::object property_value(const MaterialProperty& property) {
    switch (static_cast<MaterialPropertyType>(property.type)) {
    case MaterialPropertyType::String:
        if (const std::optional<std::string> value = property.string_value()) return text(*value);
        break;
    case MaterialPropertyType::Float:
    case MaterialPropertyType::Double:
        return py::cast(property.numbers());
    case MaterialPropertyType::Integer:
        return py::cast(property.integers());
    default:
        break;
    }
    return py::bytes(reinterpret_cast<const char*>(property.data.data()), property.data.size());
}

// Keys of one track: times (K,) float64 and values (K, n) float32, views of the scene's keys.
template <class T>
py::tuple key_arrays(const ScenePtr& scene, const KeyTrack<T>& track, py::ssize_t components) {
    const auto* first = track.keys.empty() ? nullptr : &track.keys.front();
    const py::ssize_t count = py::ssize_t(track.keys.size());
    const py::capsule owner = keep_alive(scene);
    py::array times = view_of(first ? &first->time : nullptr, {count}, {sizeof(Key<T>)}, owner);
    py::array values = view_of(first ? first->value.coeffs().data() : nullptr, {count, components},
                               {sizeof(Key<T>), sizeof(float)}, owner);
    return py::make_tuple(times, values);
}

template <>
py::tuple key_arrays<Vec3>(const ScenePtr& scene, const KeyTrack<Vec3>& track, py::ssize_t components) {
    const auto* first = track.keys.empty() ? nullptr : &track.keys.front();
    const py::ssize_t count = py::ssize_t(track.keys.size());
    const py::capsule owner = keep_alive(scene);
    py::array times = view_of(first ? &first->time : nullptr, {count}, {sizeof(Key<Vec3>)}, owner);
    py::array values = view_of(first ? first->value.data() : nullptr, {count, components},
                               {sizeof(Key<Vec3>), sizeof(float)}, owner);
    return py::make_tuple(times, values);
}

// "\"Bone.001\"": a name in a repr, quoted and printable whatever its bytes.
std::string json_like(const std::string& name) {
    return assbin_common::json_quote(assbin_common::printable(name, 60));
}

std::string counted_text(uint64_t count, const char* one, const char* many) {
    return assbin_common::counted(count, one, many);
}

std::string number_text(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

// How a part pickles: the scene (as a dump, see Scene.__reduce__) and where the part is in it;
// assbin._part finds it again. Pickling a mesh carries its scene: a part is a view of it.
py::tuple part_reduce(const ScenePtr& scene, const char* kind, size_t index, size_t second = 0) {
    return py::make_tuple(py::module_::import("assbin").attr("_part"),
                          py::make_tuple(py::cast(SceneRef{scene}), kind, index, second));
}

py::tuple vec_state(const Eigen::Vector3f& v) {
    return py::make_tuple(v.x(), v.y(), v.z());
}
Eigen::Vector3f vec_from(const py::handle& state) {
    const py::tuple t = py::reinterpret_borrow<py::tuple>(state);
    return {t[0].cast<float>(), t[1].cast<float>(), t[2].cast<float>()};
}

// Every field, names and text as their bytes: equal states are equal values.
py::tuple header_state(const Header& h) {
    return py::make_tuple(py::bytes(h.timestamp), h.version_major, h.version_minor, h.revision,
                          h.compile_flags, h.shortened, h.compressed, py::bytes(h.source_name),
                          py::bytes(h.command),
                          py::bytes(reinterpret_cast<const char*>(h.reserved.data()), h.reserved.size()),
                          h.compressed_prefix, static_cast<int>(h.prefix_meaning));
}
// What a header says of the scene, for Scene equality (same_meaning) and its hash: its time,
// version, writer, flags and names; not how the bytes were laid out (the reserved bytes, the
// compressed stream's length prefix), which the current layout writes its own way, as cmp treats
// layout variants.
py::tuple header_meaning(const Header& h) {
    return py::make_tuple(py::bytes(h.timestamp), h.version_major, h.version_minor, h.revision,
                          h.compile_flags, h.shortened, h.compressed, py::bytes(h.source_name),
                          py::bytes(h.command));
}

// The same comparison without Python objects, for Scene.__eq__ (which runs without the GIL).
bool same_meaning(const Header& a, const Header& b) {
    return a.timestamp == b.timestamp && a.version_major == b.version_major &&
           a.version_minor == b.version_minor && a.revision == b.revision &&
           a.compile_flags == b.compile_flags && a.shortened == b.shortened && a.compressed == b.compressed &&
           a.source_name == b.source_name && a.command == b.command;
}

Header header_from_state(const py::tuple& state) {
    Header h;
    h.timestamp = state[0].cast<std::string>();
    h.version_major = state[1].cast<uint32_t>();
    h.version_minor = state[2].cast<uint32_t>();
    h.revision = state[3].cast<uint32_t>();
    h.compile_flags = state[4].cast<uint32_t>();
    h.shortened = state[5].cast<uint16_t>();
    h.compressed = state[6].cast<uint16_t>();
    h.source_name = state[7].cast<std::string>();
    h.command = state[8].cast<std::string>();
    const std::string reserved = state[9].cast<std::string>();
    std::copy_n(reserved.begin(), std::min(reserved.size(), h.reserved.size()), h.reserved.begin());
    h.compressed_prefix = state[10].cast<uint32_t>();
    h.prefix_meaning = static_cast<CompressedPrefix>(state[11].cast<int>());
    return h;
}

py::tuple light_state(const Light& l) {
    return py::make_tuple(py::bytes(l.name), l.type, vec_state(l.position), vec_state(l.direction),
                          vec_state(l.up), l.attenuation_constant, l.attenuation_linear,
                          l.attenuation_quadratic, vec_state(l.diffuse), vec_state(l.specular),
                          vec_state(l.ambient), l.inner_cone, l.outer_cone);
}
Light light_from_state(const py::tuple& state) {
    Light l;
    l.name = state[0].cast<std::string>();
    l.type = state[1].cast<uint32_t>();
    l.position = vec_from(state[2]);
    l.direction = vec_from(state[3]);
    l.up = vec_from(state[4]);
    l.attenuation_constant = state[5].cast<float>();
    l.attenuation_linear = state[6].cast<float>();
    l.attenuation_quadratic = state[7].cast<float>();
    l.diffuse = vec_from(state[8]);
    l.specular = vec_from(state[9]);
    l.ambient = vec_from(state[10]);
    l.inner_cone = state[11].cast<float>();
    l.outer_cone = state[12].cast<float>();
    return l;
}

py::tuple camera_state(const Camera& c) {
    return py::make_tuple(py::bytes(c.name), vec_state(c.position), vec_state(c.look_at), vec_state(c.up),
                          c.horizontal_fov, c.clip_near, c.clip_far, c.aspect);
}
Camera camera_from_state(const py::tuple& state) {
    Camera c;
    c.name = state[0].cast<std::string>();
    c.position = vec_from(state[1]);
    c.look_at = vec_from(state[2]);
    c.up = vec_from(state[3]);
    c.horizontal_fov = state[4].cast<float>();
    c.clip_near = state[5].cast<float>();
    c.clip_far = state[6].cast<float>();
    c.aspect = state[7].cast<float>();
    return c;
}

// What a dump in the current layout does not carry of the scene it was read from: the header as
// read, the layout found, the reader's findings. Pickled beside the dump, restored after reading it.
py::tuple scene_extras(const Scene& scene) {
    const Layout& l = scene.layout;
    py::list skipped;
    for (const SkippedChunk& c : scene.skipped_chunks)
        skipped.append(py::make_tuple(c.id, c.offset, c.length, c.path));
    return py::make_tuple(
        header_state(scene.header),
        py::make_tuple(l.node_metadata, l.texture_hint_bytes,
                       l.light_placement ? py::object(py::bool_(*l.light_placement)) : py::object(py::none()),
                       l.mixed_double, l.vector_key_bytes, l.exact_mesh_lengths),
        scene.body_bytes, scene.trailing_bytes, scene.trailing_offset, scene.bytes_after_stream,
        scene.bytes_after_stream_offset, skipped);
}

SceneRef restore_extras(const SceneRef& read_back, const py::tuple& extras) {
    auto held = std::make_shared<SceneWithOwner>();
    held->owner = read_back.scene; // its arrays may be views of what that scene holds
    held->scene = *read_back.scene;
    Scene* scene = &held->scene;
    scene->header = header_from_state(extras[0].cast<py::tuple>());
    const py::tuple layout = extras[1].cast<py::tuple>();
    scene->layout.node_metadata = layout[0].cast<bool>();
    scene->layout.texture_hint_bytes = layout[1].cast<unsigned>();
    if (layout[2].is_none())
        scene->layout.light_placement.reset();
    else
        scene->layout.light_placement = layout[2].cast<bool>();
    scene->layout.mixed_double = layout[3].cast<bool>();
    scene->layout.vector_key_bytes = layout[4].cast<unsigned>();
    scene->layout.exact_mesh_lengths = layout[5].cast<bool>();
    scene->body_bytes = extras[2].cast<uint64_t>();
    scene->trailing_bytes = extras[3].cast<uint64_t>();
    scene->trailing_offset = extras[4].cast<uint64_t>();
    scene->bytes_after_stream = extras[5].cast<uint64_t>();
    scene->bytes_after_stream_offset = extras[6].cast<uint64_t>();
    scene->skipped_chunks.clear();
    for (const py::handle chunk : extras[7].cast<py::list>()) {
        const py::tuple c = py::reinterpret_borrow<py::tuple>(chunk);
        scene->skipped_chunks.push_back(
            {c[0].cast<uint32_t>(), c[1].cast<uint64_t>(), c[2].cast<uint32_t>(), c[3].cast<std::string>()});
    }
    return {ScenePtr(held, scene)};
}

// A mesh's faces as offsets and indices, and the owner their arrays keep alive: the scene's own
// lists, or, for a scene read with array views (its faces left in the file's records), lists made
// from the records on first use and kept with the Mesh object (the GIL is held: one thread at a
// time makes them).
std::pair<std::shared_ptr<const FaceList>, py::capsule> faces_of(const py::object& self) {
    const MeshRef& mesh = self.cast<const MeshRef&>();
    const FaceList& stored = mesh.get().faces;
    if (stored.file_records.empty()) {
        return {std::shared_ptr<const FaceList>(mesh.scene, &stored), keep_alive(mesh.scene)};
    }
    const py::dict kept = self.attr("__dict__");
    if (!kept.contains("_faces")) {
        auto made = std::make_shared<FaceList>();
        {
            py::gil_scoped_release unlocked; // only the scene's bytes and `made` are touched
            made->offsets.reserve(stored.offsets.size() + mesh.get().face_count + 1);
            made->offsets.push_back(0);
            stored.for_each([&](size_t, std::span<const uint32_t> face) {
                made->indices.insert(made->indices.end(), face.begin(), face.end());
                made->offsets.push_back(uint32_t(made->indices.size()));
            });
            if (made->offsets.size() == 1) made->offsets.clear(); // no faces: no offsets, as the reader
        }
        kept["_faces"] = keep_alive(std::shared_ptr<const FaceList>(std::move(made)));
    }
    const py::capsule owner = kept["_faces"];
    return {*owner.get_pointer<std::shared_ptr<const FaceList>>(), owner};
}

// scene.meshes and the other part lists: made once per Scene object and kept in its __dict__, so
// that `scene.meshes[i]` in a loop costs an attribute lookup, not a list of new views. A tuple:
// the parts of a scene do not change.
template <class Ref>
py::object cached_parts(const py::object& self, const char* key, size_t (*count)(const Scene&)) {
    const py::dict cache = self.attr("__dict__");
    if (cache.contains(key)) return cache[key];
    const SceneRef& ref = self.cast<const SceneRef&>();
    const py::tuple parts_tuple(parts<Ref>(ref.scene, count(*ref.scene)));
    cache[key] = parts_tuple;
    return parts_tuple;
}

} // namespace

ReadOptions read_options(bool strict, std::optional<uint64_t> max_inflated_mb,
                         std::optional<uint64_t> max_inflate_ratio, std::optional<uint32_t> max_node_depth,
                         std::optional<uint64_t> max_allocation_ratio, unsigned threads) {
    ReadOptions options;
    options.refuse_trailing_bytes = strict;
    if (max_inflated_mb)
        options.limits.max_inflated_bytes =
            *max_inflated_mb > (UINT64_MAX >> 20) ? UINT64_MAX : *max_inflated_mb << 20;
    if (max_inflate_ratio) options.limits.max_inflate_ratio = *max_inflate_ratio;
    if (max_node_depth) options.limits.max_node_depth = *max_node_depth;
    if (max_allocation_ratio) options.limits.max_allocation_ratio = *max_allocation_ratio;
    options.threads = threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
    return options;
}

namespace {

ScenePtr scene_in_file(const std::filesystem::path& path, const ReadOptions& options) {
    std::shared_ptr<const FileBytes> file;
    try {
        file = read_recycled(path);
    } catch (const assbin_common::ReadFailure& failure) {
        throw ParseError(ErrorCode::Io, 0, "", failure.what());
    }
    ReadOptions views = options;
    views.array_views = true; // the arrays stay in the block: a read copies the file once
    auto held = std::make_shared<SceneWithOwner>();
    held->scene = read_scene(file->bytes(), views);
    // A compressed dump's records are in its inflated body, which the scene holds itself.
    if (!held->scene.inflated_body && holds_file_records(held->scene)) held->owner = std::move(file);
    return ScenePtr(held, &held->scene);
}

SceneRef read_source(const py::object& source, const ReadOptions& options) {
    const SourceArgument argument(source, "read");
    if (!argument.is_path()) {
        py::gil_scoped_release unlocked; // the buffer stays held by `argument`
        return {std::make_shared<const Scene>(read_scene(argument.bytes(), options))};
    }
    py::gil_scoped_release unlocked;
    try {
        return {scene_in_file(argument.path(), options)};
    } catch (const ParseError& error) {
        throw NamedReadError(error, argument.path());
    }
}

// The writer's options for a scene: compressed and shortened as asked (None: as the scene was
// read); with `keep_header`, the header's time, source name, command, revision and compile flags as
// read (the double-precision flag aside: the writer writes single precision), so that a scene
// written and read back is equal to itself and equal scenes give equal bytes.
WriteOptions write_options(const Scene& scene, std::optional<bool> compressed, std::optional<bool> shortened,
                           bool keep_header) {
    WriteOptions options;
    options.compressed = compressed.value_or(scene.header.is_compressed());
    options.shortened = shortened.value_or(false) || scene.header.is_shortened();
    if (keep_header) {
        options.timestamp = scene.header.timestamp;
        options.source_name = scene.header.source_name;
        options.command = scene.header.command;
        options.revision = scene.header.revision;
        options.compile_flags = scene.header.compile_flags & ~kCompileDoublePrecision;
    }
    return options;
}

std::vector<std::byte> scene_bytes(const SceneRef& scene, std::optional<bool> compressed,
                                   std::optional<bool> shortened, bool keep_header = true) {
    const WriteOptions options = write_options(*scene.scene, compressed, shortened, keep_header);
    py::gil_scoped_release unlocked;
    return write(*scene.scene, options);
}

py::bytes as_bytes(const std::vector<std::byte>& bytes) {
    return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

void bind_parts(py::module_& m) {
    py::class_<Header>(m, "Header", "The 512-byte header of a dump, field by field.")
        .def_property_readonly("timestamp", [](const Header& h) { return text(h.timestamp); })
        .def_readonly("version_major", &Header::version_major)
        .def_readonly("version_minor", &Header::version_minor)
        .def_readonly("revision", &Header::revision)
        .def_readonly("compile_flags", &Header::compile_flags)
        .def_property_readonly("shortened", &Header::is_shortened)
        .def_property_readonly("compressed", &Header::is_compressed)
        .def_property_readonly("source_name", [](const Header& h) { return text(h.source_name); })
        .def_property_readonly("command", [](const Header& h) { return text(h.command); })
        .def_readonly("compressed_prefix", &Header::compressed_prefix)
        .def("__repr__",
             [](const Header& h) {
                 return "<assbin.Header version " + std::to_string(h.version_major) + "." +
                        std::to_string(h.version_minor) + (h.is_compressed() ? ", compressed" : "") +
                        (h.is_shortened() ? ", shortened" : "") + ", source " + json_like(h.source_name) +
                        ">";
             })
        .def("__eq__",
             [](const Header& a, const Header& b) { return header_state(a).equal(header_state(b)); })
        .def(py::pickle([](const Header& h) { return header_state(h); },
                        [](const py::tuple& state) { return header_from_state(state); }));

    py::class_<NodeRef>(m, "Node", "A node of the scene graph (nodes are in pre-order; node 0 is the root).")
        .def_property_readonly("index", [](const NodeRef& n) { return n.node; })
        .def_property_readonly("name", [](const NodeRef& n) { return text(n.get().name); })
        .def_property_readonly(
            "transform", [](const NodeRef& n) { return matrix_view(n.scene, n.get().transform); },
            "4 x 4 float32, relative to the parent; translation in column 3 (Assimp's a4, b4, c4)")
        .def_property_readonly(
            "parent", [](const NodeRef& n) { return n.get().parent; }, "-1 for the root")
        .def_property_readonly("children", [](const NodeRef& n) { return n.get().children; })
        .def_property_readonly("mesh_indices", [](const NodeRef& n) { return n.get().meshes; })
        .def_property_readonly(
            "metadata",
            [](const NodeRef& n) {
                py::dict out;
                for (const MetadataEntry& entry : n.get().metadata)
                    out[text(entry.key)] = metadata_value(entry.value);
                return out;
            },
            "key -> bool, int, float, str, (x, y, z) or None (types without a value)")
        .def("__repr__",
             [](const NodeRef& n) {
                 return "<assbin.Node " + std::to_string(n.node) + " " + json_like(n.get().name) + ": " +
                        counted_text(n.get().meshes.size(), "mesh", "meshes") + ", " +
                        counted_text(n.get().children.size(), "child", "children") + ">";
             })
        .def("__reduce__", [](const NodeRef& n) { return part_reduce(n.scene, "nodes", n.node); });

    py::class_<BoneRef>(m, "Bone", "A mesh's bone: its name, offset matrix and vertex weights.")
        .def_property_readonly("name", [](const BoneRef& b) { return text(b.get().name); })
        .def_property_readonly(
            "offset", [](const BoneRef& b) { return matrix_view(b.scene, b.get().offset); },
            "4 x 4 float32, mesh space to bone space")
        .def_property_readonly("weight_count", [](const BoneRef& b) { return b.get().weight_count; })
        .def_property_readonly(
            "vertex_ids",
            [](const BoneRef& b) {
                const auto [first, count] = weight_field(b.get(), offsetof(VertexWeight, vertex));
                return view_of(reinterpret_cast<const uint32_t*>(first), {count}, {sizeof(VertexWeight)},
                               keep_alive(b.scene));
            },
            "uint32 (weights,): the vertex of each weight (empty in a shortened dump)")
        .def_property_readonly(
            "weights",
            [](const BoneRef& b) {
                const auto [first, count] = weight_field(b.get(), offsetof(VertexWeight, weight));
                return view_of(reinterpret_cast<const float*>(first), {count}, {sizeof(VertexWeight)},
                               keep_alive(b.scene));
            },
            "float32 (weights,)")
        .def_property_readonly("mesh_index", [](const BoneRef& b) { return b.mesh; })
        .def_property_readonly("index", [](const BoneRef& b) { return b.bone; })
        .def("__repr__",
             [](const BoneRef& b) {
                 return "<assbin.Bone " + json_like(b.get().name) + " of mesh " + std::to_string(b.mesh) +
                        ": " + counted_text(b.get().weight_count, "weight", "weights") + ">";
             })
        .def("__reduce__", [](const BoneRef& b) { return part_reduce(b.scene, "bones", b.mesh, b.bone); });

    py::class_<MeshRef>(m, "Mesh", py::dynamic_attr(),
                        "A mesh: vertex arrays (read-only views, no copy), faces and bones.")
        .def_property_readonly("index", [](const MeshRef& r) { return r.mesh; })
        .def_property_readonly("vertex_count", [](const MeshRef& r) { return r.get().vertex_count; })
        .def_property_readonly("face_count", [](const MeshRef& r) { return r.get().face_count; })
        .def_property_readonly("primitive_types", [](const MeshRef& r) { return r.get().primitive_types; })
        .def_property_readonly("material_index", [](const MeshRef& r) { return r.get().material_index; })
        .def_property_readonly(
            "positions", [](const MeshRef& r) { return vec3_stream(r.scene, r.get().positions); },
            "float32 (vertices, 3), or None")
        .def_property_readonly("normals",
                               [](const MeshRef& r) { return vec3_stream(r.scene, r.get().normals); })
        .def_property_readonly("tangents",
                               [](const MeshRef& r) { return vec3_stream(r.scene, r.get().tangents); })
        .def_property_readonly("bitangents",
                               [](const MeshRef& r) { return vec3_stream(r.scene, r.get().bitangents); })
        .def_property_readonly(
            "colors",
            [](const MeshRef& r) {
                py::list out;
                for (const VertexStream<Color4>& set : r.get().color_sets)
                    out.append(stream_view(r.scene, set, 4));
                return out;
            },
            "per colour set, float32 (vertices, 4): r, g, b, a")
        .def_property_readonly(
            "uvs",
            [](const MeshRef& r) {
                py::list out;
                for (const UvChannel& channel : r.get().uv_channels) {
                    const py::ssize_t components = std::clamp<py::ssize_t>(channel.component_count, 1, 3);
                    out.append(stream_view(r.scene, channel, components));
                }
                return out;
            },
            "per UV channel, float32 (vertices, k): k = uv_components[c], the meaningful components (u, v)")
        .def_property_readonly("uv_components",
                               [](const MeshRef& r) {
                                   std::vector<uint32_t> out;
                                   for (const UvChannel& channel : r.get().uv_channels)
                                       out.push_back(channel.component_count);
                                   return out;
                               })
        .def_property_readonly(
            "face_indices",
            [](const py::object& self) {
                const auto [faces, owner] = faces_of(self);
                const std::vector<uint32_t>& i = faces->indices;
                return view_of(i.data(), {py::ssize_t(i.size())}, {sizeof(uint32_t)}, owner);
            },
            "uint32: every face's vertex indices, back to back")
        .def_property_readonly(
            "face_offsets",
            [](const py::object& self) {
                const auto [faces, owner] = faces_of(self);
                const std::vector<uint32_t>& o = faces->offsets;
                return view_of(o.data(), {py::ssize_t(o.size())}, {sizeof(uint32_t)}, owner);
            },
            "uint32 (faces + 1,): face i is face_indices[face_offsets[i]:face_offsets[i + 1]]")
        .def_property_readonly(
            "faces",
            [](const py::object& self) -> py::object {
                const auto [faces, owner] = faces_of(self);
                if (faces->offsets.size() < 2) return py::none();
                const uint32_t corners = faces->offsets[1] - faces->offsets[0];
                const size_t count = faces->offsets.size() - 1;
                if (corners == 0 || size_t{corners} * count != faces->indices.size()) return py::none();
                return view_of(faces->indices.data(), {py::ssize_t(count), py::ssize_t(corners)},
                               {py::ssize_t(corners * sizeof(uint32_t)), sizeof(uint32_t)}, owner);
            },
            "uint32 (faces, k) when every face has k corners, else None")
        .def_property_readonly("bones",
                               [](const MeshRef& r) {
                                   py::list out;
                                   for (size_t b = 0; b < r.get().bones.size(); ++b)
                                       out.append(BoneRef{r.scene, r.mesh, b});
                                   return out;
                               })
        .def_property_readonly(
            "bounds",
            [](const MeshRef& r) {
                py::dict out;
                const Mesh& mesh = r.get();
                const auto add = [&](const char* name, const std::optional<VertexStream<Vec3>>& stream) {
                    if (stream) out[name] = bounds_tuple(bounds_of(*r.scene, *stream));
                };
                add("positions", mesh.positions);
                add("normals", mesh.normals);
                add("tangents", mesh.tangents);
                add("bitangents", mesh.bitangents);
                for (size_t c = 0; c < mesh.color_sets.size(); ++c)
                    out[py::str("colors[" + std::to_string(c) + "]")] =
                        bounds_tuple(bounds_of(*r.scene, mesh.color_sets[c]));
                for (size_t c = 0; c < mesh.uv_channels.size(); ++c)
                    out[py::str("uvs[" + std::to_string(c) + "]")] =
                        bounds_tuple(bounds_of(*r.scene, mesh.uv_channels[c]));
                return out;
            },
            "(min, max) per stream, by name: a shortened dump's stored bounds, a full dump's computed from "
            "its "
            "values (the stream's own NaNs left out)")
        .def_property_readonly(
            "face_hashes",
            [](const MeshRef& r) {
                const std::vector<uint32_t>& h = r.get().face_hashes;
                return view_of(h.data(), {py::ssize_t(h.size())}, {sizeof(uint32_t)}, keep_alive(r.scene));
            },
            "a shortened dump's uint32 hash per block of 512 faces")
        .def("__repr__",
             [](const MeshRef& r) {
                 return "<assbin.Mesh " + std::to_string(r.mesh) + ": " +
                        counted_text(r.get().vertex_count, "vertex", "vertices") + ", " +
                        counted_text(r.get().face_count, "face", "faces") + ">";
             })
        .def("__reduce__", [](const MeshRef& r) { return part_reduce(r.scene, "meshes", r.mesh); });

    py::class_<MaterialProperty>(m, "MaterialProperty")
        .def_property_readonly("key", [](const MaterialProperty& p) { return text(p.key); })
        .def_readonly("semantic", &MaterialProperty::semantic)
        .def_readonly("index", &MaterialProperty::index)
        .def_property_readonly("type", [](const MaterialProperty& p) { return property_type_name(p.type); })
        .def_property_readonly("value", &property_value, "str, list of float or int, or bytes (buffers)")
        .def("__repr__",
             [](const MaterialProperty& p) {
                 return "<assbin.MaterialProperty " + json_like(p.key) + " [" + std::to_string(p.semantic) +
                        "," + std::to_string(p.index) + "] " + property_type_name(p.type) + ">";
             })
        .def("__eq__",
             [](const MaterialProperty& a, const MaterialProperty& b) {
                 return a.key == b.key && a.semantic == b.semantic && a.index == b.index &&
                        a.type == b.type && a.data == b.data;
             })
        .def(py::pickle(
            [](const MaterialProperty& p) {
                return py::make_tuple(py::bytes(p.key), p.semantic, p.index, p.type,
                                      py::bytes(reinterpret_cast<const char*>(p.data.data()), p.data.size()));
            },
            [](const py::tuple& state) {
                MaterialProperty p;
                p.key = state[0].cast<std::string>();
                p.semantic = state[1].cast<uint32_t>();
                p.index = state[2].cast<uint32_t>();
                p.type = state[3].cast<uint32_t>();
                const std::string data = state[4].cast<std::string>();
                p.data.assign(data.begin(), data.end());
                return p;
            }));

    py::class_<MaterialRef>(m, "Material", "A material: typed properties by key, semantic and index.")
        .def_property_readonly("name", [](const MaterialRef& r) { return text(r.get().name()); })
        .def_property_readonly("properties", [](const MaterialRef& r) { return r.get().properties; })
        .def(
            "_get",
            [](const MaterialRef& r, const std::string& key, uint32_t semantic,
               uint32_t index) -> py::object {
                const MaterialProperty* p = r.get().find(key, semantic, index);
                return p ? property_value(*p) : py::none();
            },
            py::arg("key"), py::arg("semantic"), py::arg("index"))
        .def_property_readonly("index", [](const MaterialRef& r) { return r.material; })
        .def("__repr__",
             [](const MaterialRef& r) {
                 return "<assbin.Material " + std::to_string(r.material) + " " + json_like(r.get().name()) +
                        ": " + counted_text(r.get().properties.size(), "property", "properties") + ">";
             })
        .def("__reduce__",
             [](const MaterialRef& r) { return part_reduce(r.scene, "materials", r.material); });

    py::class_<ChannelRef>(m, "NodeChannel", "One node's keys in an animation (times in ticks).")
        .def_property_readonly("node_name", [](const ChannelRef& c) { return text(c.get().node_name); })
        .def_property_readonly("pre_state", [](const ChannelRef& c) { return c.get().pre_state; })
        .def_property_readonly("post_state", [](const ChannelRef& c) { return c.get().post_state; })
        .def_property_readonly(
            "positions", [](const ChannelRef& c) { return key_arrays(c.scene, c.get().positions, 3); },
            "(times float64 (K,), values float32 (K, 3))")
        .def_property_readonly(
            "rotations", [](const ChannelRef& c) { return key_arrays(c.scene, c.get().rotations, 4); },
            "(times float64 (K,), quaternions float32 (K, 4) as x, y, z, w)")
        .def_property_readonly(
            "scalings", [](const ChannelRef& c) { return key_arrays(c.scene, c.get().scalings, 3); },
            "(times float64 (K,), values float32 (K, 3))")
        .def("__repr__",
             [](const ChannelRef& c) {
                 const NodeChannel& channel = c.get();
                 return "<assbin.NodeChannel " + json_like(channel.node_name) + ": " +
                        counted_text(channel.positions.keys.size(), "position key", "position keys") + ", " +
                        counted_text(channel.rotations.keys.size(), "rotation key", "rotation keys") + ", " +
                        counted_text(channel.scalings.keys.size(), "scaling key", "scaling keys") + ">";
             })
        .def("__reduce__",
             [](const ChannelRef& c) { return part_reduce(c.scene, "channels", c.animation, c.channel); });

    py::class_<AnimationRef>(m, "Animation")
        .def_property_readonly("name", [](const AnimationRef& a) { return text(a.get().name); })
        .def_property_readonly(
            "duration", [](const AnimationRef& a) { return a.get().duration; }, "in ticks")
        .def_property_readonly(
            "ticks_per_second", [](const AnimationRef& a) { return a.get().ticks_per_second; },
            "0 when the file leaves it unspecified")
        .def_property_readonly("channels",
                               [](const AnimationRef& a) {
                                   py::list out;
                                   for (size_t c = 0; c < a.get().channels.size(); ++c)
                                       out.append(ChannelRef{a.scene, a.animation, c});
                                   return out;
                               })
        .def_property_readonly("index", [](const AnimationRef& a) { return a.animation; })
        .def("__repr__",
             [](const AnimationRef& a) {
                 return "<assbin.Animation " + std::to_string(a.animation) + " " + json_like(a.get().name) +
                        ": " + counted_text(a.get().channels.size(), "channel", "channels") + ", " +
                        number_text(a.get().duration) + " ticks>";
             })
        .def("__reduce__",
             [](const AnimationRef& a) { return part_reduce(a.scene, "animations", a.animation); });

    py::class_<TextureRef>(m, "Texture", "An embedded texture: an image file's bytes, or ARGB8888 texels.")
        .def_property_readonly("width", [](const TextureRef& t) { return t.get().width; })
        .def_property_readonly(
            "height", [](const TextureRef& t) { return t.get().height; }, "0 for an image file")
        .def_property_readonly("format_hint", [](const TextureRef& t) { return text(t.get().format_hint); })
        .def_property_readonly("is_file", [](const TextureRef& t) { return t.get().is_compressed(); })
        .def_property_readonly(
            "data",
            [](const TextureRef& t) {
                const std::vector<uint8_t>& d = t.get().data;
                return view_of(d.data(), {py::ssize_t(d.size())}, {1}, keep_alive(t.scene));
            },
            "uint8: the image file, or the texels (b, g, r, a per texel)")
        .def_property_readonly(
            "texels",
            [](const TextureRef& t) -> py::object {
                const Texture& texture = t.get();
                if (texture.is_compressed() ||
                    texture.data.size() != size_t{texture.width} * texture.height * 4)
                    return py::none();
                return view_of(texture.data.data(),
                               {py::ssize_t(texture.height), py::ssize_t(texture.width), 4},
                               {py::ssize_t(texture.width) * 4, 4, 1}, keep_alive(t.scene));
            },
            "uint8 (height, width, 4) as b, g, r, a, or None for an image file")
        .def_property_readonly("index", [](const TextureRef& t) { return t.texture; })
        .def("__repr__",
             [](const TextureRef& t) {
                 const Texture& texture = t.get();
                 return "<assbin.Texture " + std::to_string(t.texture) + ": " +
                        (texture.is_compressed() ? json_like(texture.format_hint) + " file, " +
                                                       counted_text(texture.data.size(), "byte", "bytes")
                                                 : std::to_string(texture.width) + " x " +
                                                       std::to_string(texture.height) + " texels") +
                        ">";
             })
        .def("__reduce__", [](const TextureRef& t) { return part_reduce(t.scene, "textures", t.texture); });

    py::class_<Light>(m, "Light")
        .def_property_readonly("name", [](const Light& l) { return text(l.name); })
        .def_readonly("type", &Light::type)
        .def_property_readonly("position", [](const Light& l) { return vec3_tuple(l.position); })
        .def_property_readonly("direction", [](const Light& l) { return vec3_tuple(l.direction); })
        .def_property_readonly("up", [](const Light& l) { return vec3_tuple(l.up); })
        .def_readonly("attenuation_constant", &Light::attenuation_constant)
        .def_readonly("attenuation_linear", &Light::attenuation_linear)
        .def_readonly("attenuation_quadratic", &Light::attenuation_quadratic)
        .def_property_readonly("diffuse", [](const Light& l) { return vec3_tuple(l.diffuse); })
        .def_property_readonly("specular", [](const Light& l) { return vec3_tuple(l.specular); })
        .def_property_readonly("ambient", [](const Light& l) { return vec3_tuple(l.ambient); })
        .def_readonly("inner_cone", &Light::inner_cone)
        .def_readonly("outer_cone", &Light::outer_cone)
        .def("__repr__",
             [](const Light& l) {
                 return "<assbin.Light " + json_like(l.name) + " type " + std::to_string(l.type) + ">";
             })
        .def("__eq__", [](const Light& a, const Light& b) { return light_state(a).equal(light_state(b)); })
        .def(py::pickle([](const Light& l) { return light_state(l); },
                        [](const py::tuple& state) { return light_from_state(state); }));

    py::class_<Camera>(m, "Camera")
        .def_property_readonly("name", [](const Camera& c) { return text(c.name); })
        .def_property_readonly("position", [](const Camera& c) { return vec3_tuple(c.position); })
        .def_property_readonly("look_at", [](const Camera& c) { return vec3_tuple(c.look_at); })
        .def_property_readonly("up", [](const Camera& c) { return vec3_tuple(c.up); })
        .def_readonly("horizontal_fov", &Camera::horizontal_fov)
        .def_readonly("clip_near", &Camera::clip_near)
        .def_readonly("clip_far", &Camera::clip_far)
        .def_readonly("aspect", &Camera::aspect)
        .def("__repr__", [](const Camera& c) { return "<assbin.Camera " + json_like(c.name) + ">"; })
        .def("__eq__",
             [](const Camera& a, const Camera& b) { return camera_state(a).equal(camera_state(b)); })
        .def(py::pickle([](const Camera& c) { return camera_state(c); },
                        [](const py::tuple& state) { return camera_from_state(state); }));
}

} // namespace

void bind_scene(py::module_& module) {
    py::module_& m = module;
    bind_parts(m);
    py::class_<SceneRef>(m, "Scene", py::dynamic_attr(),
                         "A dump's scene. Arrays are read-only views of its memory (no copy).\n"
                         "len(scene) and iter(scene) are its meshes; scene == other compares every value\n"
                         "exactly (assbin.compare with no tolerance) and the headers.")
        .def_property_readonly("header", [](const SceneRef& s) { return s.scene->header; })
        .def_property_readonly(
            "profile", [](const SceneRef& s) { return writer_profile(*s.scene); },
            "which Assimp writer the layout says wrote it")
        .def_property_readonly("is_shortened", [](const SceneRef& s) { return s.scene->is_shortened(); })
        .def_property_readonly("flags", [](const SceneRef& s) { return s.scene->flags; })
        .def_property_readonly("body_bytes", [](const SceneRef& s) { return s.scene->body_bytes; })
        .def_property_readonly("trailing_bytes", [](const SceneRef& s) { return s.scene->trailing_bytes; })
        .def_property_readonly("bytes_after_stream",
                               [](const SceneRef& s) { return s.scene->bytes_after_stream; })
        .def_property_readonly("nodes",
                               [](const py::object& self) {
                                   return cached_parts<NodeRef>(
                                       self, "_nodes", [](const Scene& scene) { return scene.nodes.size(); });
                               })
        .def_property_readonly("meshes",
                               [](const py::object& self) {
                                   return cached_parts<MeshRef>(self, "_meshes", [](const Scene& scene) {
                                       return scene.meshes.size();
                                   });
                               })
        .def_property_readonly("materials",
                               [](const py::object& self) {
                                   return cached_parts<MaterialRef>(
                                       self, "_materials",
                                       [](const Scene& scene) { return scene.materials.size(); });
                               })
        .def_property_readonly("animations",
                               [](const py::object& self) {
                                   return cached_parts<AnimationRef>(
                                       self, "_animations",
                                       [](const Scene& scene) { return scene.animations.size(); });
                               })
        .def_property_readonly("textures",
                               [](const py::object& self) {
                                   return cached_parts<TextureRef>(self, "_textures", [](const Scene& scene) {
                                       return scene.textures.size();
                                   });
                               })
        .def_property_readonly("lights",
                               [](const SceneRef& s) { return py::tuple(py::cast(s.scene->lights)); })
        .def_property_readonly("cameras",
                               [](const SceneRef& s) { return py::tuple(py::cast(s.scene->cameras)); })
        .def("__len__", [](const SceneRef& s) { return s.scene->meshes.size(); })
        .def("__iter__", [](const py::object& self) { return self.attr("meshes").attr("__iter__")(); })
        .def("__eq__",
             [](const SceneRef& a, const py::object& other) {
                 return equal_without_gil(a, other, [](const SceneRef& x, const SceneRef& y) {
                     if (x.scene == y.scene) return true;
                     if (!same_meaning(x.scene->header, y.scene->header)) return false;
                     CompareOptions exact;
                     exact.epsilon = 0;
                     exact.real_properties_by_value = false;
                     exact.max_diffs = 1;
                     return compare(*x.scene, *y.scene, exact).same();
                 });
             })
        .def("__hash__",
             [](const SceneRef& s) { // equal scenes (same header, same values) hash alike
                 const Scene& scene = *s.scene;
                 return py::hash(py::make_tuple(header_meaning(scene.header), scene.nodes.size(),
                                                scene.meshes.size(), scene.materials.size(),
                                                scene.animations.size()));
             })
        .def_property_readonly("skipped_chunks",
                               [](const SceneRef& s) {
                                   py::list out;
                                   for (const SkippedChunk& c : s.scene->skipped_chunks)
                                       out.append(py::dict(py::arg("id") = c.id, py::arg("offset") = c.offset,
                                                           py::arg("length") = c.length,
                                                           py::arg("path") = text(c.path)));
                                   return out;
                               })
        .def(
            "validate",
            [](const SceneRef& s) {
                py::list out;
                for (const Problem& p : validate(*s.scene))
                    out.append(py::make_tuple(p.severity == Severity::Error ? "error" : "warning",
                                              text(p.path), text(p.message)));
                return out;
            },
            "(severity, path, message) for each problem the content has")
        .def(
            "_to_bytes",
            [](const SceneRef& s, std::optional<bool> compressed, std::optional<bool> shortened,
               bool keep_header) { return as_bytes(scene_bytes(s, compressed, shortened, keep_header)); },
            py::arg("compressed"), py::arg("shortened"), py::arg("keep_header"))
        .def("__reduce__",
             [](const SceneRef& s) {
                 // Pickled as its dump (current layout) and what that layout does not say of the file it
                 // was read from (the header as read, the layout, the reader's findings): worker
                 // processes return the scene they were given, header and profile included.
                 return py::make_tuple(
                     py::module_::import("assbin").attr("_scene_from_state"),
                     py::make_tuple(as_bytes(scene_bytes(s, false, false)), scene_extras(*s.scene)));
             })
        .def("__repr__", [](const SceneRef& s) {
            return "<assbin.Scene: " + counted_text(s.scene->meshes.size(), "mesh", "meshes") + ", " +
                   counted_text(s.scene->nodes.size(), "node", "nodes") +
                   (s.scene->is_shortened() ? ", shortened" : "") + ">";
        });

    m.def(
        "read",
        [](const py::object& source, bool strict, std::optional<uint64_t> max_inflated_mb,
           std::optional<uint64_t> max_inflate_ratio, std::optional<uint32_t> max_node_depth,
           std::optional<uint64_t> max_allocation_ratio, unsigned threads) {
            return read_source(source, read_options(strict, max_inflated_mb, max_inflate_ratio,
                                                    max_node_depth, max_allocation_ratio, threads));
        },
        py::arg("source"), py::kw_only(), py::arg("strict") = false, py::arg("max_inflated_mb") = py::none(),
        py::arg("max_inflate_ratio") = py::none(), py::arg("max_node_depth") = py::none(),
        py::arg("max_allocation_ratio") = py::none(), py::arg("threads") = 0,
        "Reads a dump (a path, or its bytes) of any Assimp version: full, compressed or shortened.\n"
        "Raises assbin.ReadError (offset, chunk_path) on anything it cannot read; the limits are\n"
        "the reader's (the CLI's --max-* options); strict refuses bytes after the SCENE chunk;\n"
        "threads decode meshes (0: one per core). The GIL is released while reading.");

    m.def("_restore_extras", &restore_extras, py::arg("scene"), py::arg("extras"));
    m.def(
        "_spare_blocks",
        [] {
            const SpareBlocks spares = spare_blocks();
            return py::make_tuple(spares.blocks, spares.bytes);
        },
        "(blocks, bytes) the module keeps for the next read");
    m.def("_release_spare_blocks", [] {
        py::gil_scoped_release unlocked;
        release_spare_blocks();
    });

    m.def(
        "write",
        [](const SceneRef& scene, const std::filesystem::path& path, std::optional<bool> compressed,
           std::optional<bool> shortened, bool keep_header) {
            WriteOptions options = write_options(*scene.scene, compressed, shortened, keep_header);
            if (!keep_header) options.source_name = path.string(); // as Assimp 5.1+ names its output
            try { // the output rule (docs/cli.md): a dump replaces only a dump or a file named as one
                if (assbin_common::output_kind(path) == assbin_common::OutputKind::File)
                    assbin_common::refuse_other_content(path, assbin_common::Content::AssbinDump, "write");
            } catch (const assbin_common::OutputRefused& refused) {
                throw py::value_error(refused.what());
            }
            py::gil_scoped_release unlocked;
            try {
                write_file(*scene.scene, path, options);
            } catch (const WriteError& error) {
                if (error.path() != path.string()) throw; // the scene, not the file
                throw FileError(error.message(), path);
            }
        },
        py::arg("scene"), py::arg("path"), py::kw_only(), py::arg("compressed") = py::none(),
        py::arg("shortened") = py::none(), py::arg("keep_header") = true,
        "Writes the scene as a dump in the current Assimp layout, atomically (temporary, then rename).");
}

} // namespace assbin::python
