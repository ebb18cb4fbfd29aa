// The crafted-variant tests' shared part (ASSBIN-FORMAT.md §4 - §8): comparison helpers, a scene
// with something of every kind, and the checks of a read scene against the spec its profile wrote.
// Used by tests/assbin/crafted_*_test.cpp.
#pragma once

#include "support/error_names.hpp"
#include <boost/test/unit_test.hpp>

#include "support/dump_builder.hpp"

#include <assbin/error.hpp>
#include <assbin/reader.hpp>
#include <assbin/types.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace assbin_test {

using assbin::ErrorCode;

// ---------------------------------------------------------------------------------------------
// Comparison helpers. Values round-trip exactly (the mixed double layout widens f32 to f64 and
// back), so floats compare with ==, NaN equal to NaN.

inline bool same(float a, float b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}
inline bool same(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}
inline bool same(const assbin::Vec3& v, const F3& f) {
    return same(v.x(), f[0]) && same(v.y(), f[1]) && same(v.z(), f[2]);
}
inline bool same(const assbin::Color4& c, const F4& f) {
    return same(c[0], f[0]) && same(c[1], f[1]) && same(c[2], f[2]) && same(c[3], f[3]);
}
inline bool same(const assbin::Quaternion& q, const F4& f) { // f is w, x, y, z
    return same(q.w(), f[0]) && same(q.x(), f[1]) && same(q.y(), f[2]) && same(q.z(), f[3]);
}
inline bool same(const assbin::Matrix4& m, const M4& f) {
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c) {
            if (!same(m(r, c), f[r * 4 + c])) return false;
        }
    }
    return true;
}
template <class A, class B>
bool same_array(const std::vector<A>& a, const std::vector<B>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (!same(a[i], b[i])) return false;
    }
    return true;
}
template <size_t N, class T>
bool same_bounds(const assbin::Bounds<T>& b, const FloatBounds<N>& f) {
    return same(b.min, f.min) && same(b.max, f.max);
}

inline std::vector<uint8_t> as_u8(const Bytes& b) {
    std::vector<uint8_t> out;
    for (std::byte x : b)
        out.push_back(static_cast<uint8_t>(x));
    return out;
}

inline Bytes texels(size_t n, uint8_t seed) {
    Bytes out;
    for (size_t i = 0; i < n; ++i)
        out.push_back(static_cast<std::byte>(seed + i * 7));
    return out;
}

inline std::vector<F3> ramp3(size_t n, float scale, float offset = 0.0f) {
    std::vector<F3> out;
    for (size_t i = 0; i < n; ++i) {
        float f = static_cast<float>(i);
        out.push_back({offset + f * scale, -f * scale * 0.5f, 1.0f / (f + 1.0f)});
    }
    return out;
}

inline std::vector<F4> ramp4(size_t n, float scale) {
    std::vector<F4> out;
    for (size_t i = 0; i < n; ++i) {
        float f = static_cast<float>(i);
        out.push_back({f * scale, 1.0f - f * scale, 0.25f + f, 0.5f * f});
    }
    return out;
}

inline M4 transform(float tx, float ty, float tz, float s = 1.0f) {
    return {s, 0.125f, 0, tx, 0, s, -0.25f, ty, 0.5f, 0, s, tz, 0, 0, 0, 1};
}

inline assbin::Scene read_dump(const Bytes& bytes, const assbin::ReadOptions& options = {}) {
    return assbin::read_scene(bytes, options);
}

// Reads, requiring a ParseError; returns it for further checks.
inline assbin::ParseError read_error(const Bytes& bytes, const assbin::ReadOptions& options = {}) {
    try {
        assbin::read_scene(bytes, options);
    } catch (const assbin::ParseError& e) {
        BOOST_TEST_MESSAGE("ParseError [" << assbin::error_code_name(e.code()) << "]: " << e.what());
        return e;
    }
    BOOST_FAIL("read_scene accepted a damaged file");
    throw std::logic_error("unreachable");
}

inline void expect_error(const Bytes& bytes, ErrorCode code, const std::string& path, uint64_t offset_min,
                         uint64_t offset_max, const assbin::ReadOptions& options = {}) {
    assbin::ParseError e = read_error(bytes, options);
    BOOST_TEST(e.code() == code);
    BOOST_TEST(e.chunk_path() == path);
    BOOST_TEST(e.offset() >= offset_min);
    BOOST_TEST(e.offset() <= offset_max);
    BOOST_TEST(!e.message().empty());
}

// ---------------------------------------------------------------------------------------------
// A scene with something of every kind.

inline std::vector<MetaSpec> every_metadata_entry() {
    return {
        {"flag", 0, true},
        {"count", 1, int32_t{-42}},
        {"big", 2, uint64_t{0x1234567890abcdefULL}},
        {"ratio", 3, 0.75f},
        {"precise", 4, 3.141592653589793},
        {"label", 5, std::string("hello \xc3\xa9")},
        {"offset", 6, F3{1.5f, -2.25f, 1e-3f}},
        {"extras", 7, std::monostate{}},
        {"signed64", 8, std::monostate{}},
        {"unsigned32", 9, std::monostate{}},
    };
}

inline SceneSpec rich_scene() {
    SceneSpec s;
    s.flags = 0x8;
    s.root = make_node("root", {}, {}, every_metadata_entry());
    s.root.transform = transform(1, 2, 3);
    NodeSpec grandchild = make_node("grandchild", {1}, {}, {{"depth", 1, int32_t{2}}});
    grandchild.transform = transform(-1, 0.5f, 8, 2);
    NodeSpec child1 = make_node("child1", {1, 0}, {grandchild});
    child1.transform = transform(0, 0, -4);
    s.root.children = {make_node("child0", {0}), child1};

    MeshSpec m0;
    m0.primitive_types = 4;
    m0.material_index = 1;
    m0.positions = ramp3(6, 0.5f);
    m0.normals = ramp3(6, -0.25f, 1.0f);
    m0.tangents = ramp3(6, 0.125f, 2.0f);
    m0.bitangents = ramp3(6, 0.0625f, -3.0f);
    m0.colors = {ramp4(6, 0.1f), ramp4(6, 0.05f)};
    m0.uvs = {{2, ramp3(6, 0.2f)}, {3, ramp3(6, 0.3f, 0.5f)}};
    m0.faces = {{0, 1, 2}, {2, 1, 3}, {3, 4, 5}};
    BoneSpec b0;
    b0.name = "bone0";
    b0.offset = transform(0.5f, 0, 0);
    b0.weights = {{0, 1.0f}, {2, 0.5f}, {5, 0.25f}};
    BoneSpec b1;
    b1.name = "empty bone";
    m0.bones = {b0, b1};

    MeshSpec m1;
    m1.primitive_types = 8;
    m1.positions = ramp3(8, 1.5f);
    m1.uvs = {{1, ramp3(8, 0.01f)}};
    m1.faces = {{}, {7}, {0, 1}, {0, 1, 2}, {0, 1, 2, 3}, {0, 1, 2, 3, 4, 5, 6}};
    s.meshes = {m0, m1};

    MaterialSpec mat0;
    mat0.properties = {
        prop_string("?mat.name", "plain"),
        prop_floats("$clr.diffuse", {0.25f, 0.5f, 0.75f, 1.0f}),
        prop_doubles("$mat.shininess", {12.5}),
        prop_ints("$mat.twosided", {1}),
        prop_buffer("$mat.blob", Bytes{std::byte{1}, std::byte{0}, std::byte{0xff}}),
        prop_string("$tex.file", "tex/a.png", 0x41, 1, 0),
    };
    MaterialSpec mat1;
    mat1.properties = {prop_string("?mat.name", "second")};
    s.materials = {mat0, mat1};

    AnimationSpec anim;
    anim.name = "walk";
    anim.duration = 48.0;
    anim.ticks_per_second = 24.0;
    ChannelSpec c0;
    c0.node_name = "child0";
    c0.pre_state = 1;
    c0.post_state = 3;
    c0.positions = {{0.0, {0, 0, 0}}, {12.0, {1, 2, 3}}, {48.0, {-1, 0.5f, 2}}};
    c0.rotations = {{0.0, {1, 0, 0, 0}}, {24.0, {0.70710677f, 0, 0.70710677f, 0}}};
    c0.scalings = {{0.0, {1, 1, 1}}, {48.0, {2, 2, 0.5f}}};
    ChannelSpec c1;
    c1.node_name = "grandchild";
    c1.pre_state = 2;
    c1.post_state = 0;
    c1.positions = {{5.0, {9, 8, 7}}};
    s.animations = {anim};
    s.animations[0].channels = {c0, c1};

    s.textures = {compressed_texture("png", texels(37, 0x89)), argb_texture(2, 3, texels(24, 3))};
    for (uint32_t type = 0; type <= 5; ++type) {
        LightSpec l;
        l.name = "light" + std::to_string(type);
        l.type = type;
        l.position = {float(type), 1, 2};
        l.direction = {0, -1, float(type) * 0.5f};
        l.up = {0, 0, 1};
        l.att_constant = 1.0f;
        l.att_linear = 0.125f * float(type);
        l.att_quadratic = 0.0625f;
        l.diffuse = {1, 0.5f, 0.25f};
        l.specular = {0.5f, 0.5f, float(type)};
        l.ambient = {0.1f, 0.2f, 0.3f};
        l.inner_cone = 0.5f;
        l.outer_cone = 0.75f;
        s.lights.push_back(l);
    }
    CameraSpec cam;
    cam.name = "camera";
    cam.position = {0, 1, 10};
    cam.look_at = {0, 0, -1};
    cam.up = {0, 1, 0};
    cam.horizontal_fov = 0.785f;
    cam.clip_near = 0.1f;
    cam.clip_far = 1000.0f;
    cam.aspect = 1.777f;
    s.cameras = {cam};
    return s;
}

// ---------------------------------------------------------------------------------------------
// Checking a read scene against its spec, as the profile wrote it.

inline void check_metadata(const std::vector<assbin::MetadataEntry>& got, const std::vector<MetaSpec>& want) {
    BOOST_TEST_REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        BOOST_TEST_CONTEXT("metadata[" << i << "] " << want[i].key) {
            BOOST_TEST(got[i].key == want[i].key);
            BOOST_TEST(got[i].type == want[i].type);
            std::visit(
                [&](const auto& v) {
                    using T = std::decay_t<decltype(v)>;
                    if constexpr (std::is_same_v<T, F3>) {
                        BOOST_TEST_REQUIRE(std::holds_alternative<assbin::Vec3>(got[i].value));
                        BOOST_TEST(same(std::get<assbin::Vec3>(got[i].value), v));
                    } else {
                        BOOST_TEST_REQUIRE(std::holds_alternative<T>(got[i].value));
                        if constexpr (!std::is_same_v<T, std::monostate>)
                            BOOST_TEST((std::get<T>(got[i].value) == v));
                    }
                },
                want[i].value);
        }
    }
}

inline void flatten(const NodeSpec& n, int32_t parent,
                    std::vector<std::pair<const NodeSpec*, int32_t>>& out) {
    out.emplace_back(&n, parent);
    const int32_t me = static_cast<int32_t>(out.size() - 1);
    for (const NodeSpec& c : n.children)
        flatten(c, me, out);
}

inline void check_nodes(const assbin::Scene& scene, const SceneSpec& spec, const WriterProfile& p) {
    std::vector<std::pair<const NodeSpec*, int32_t>> flat;
    flatten(spec.root, -1, flat);
    BOOST_TEST_REQUIRE(scene.nodes.size() == flat.size());
    for (size_t i = 0; i < flat.size(); ++i) {
        const assbin::Node& got = scene.nodes[i];
        const NodeSpec& want = *flat[i].first;
        BOOST_TEST_CONTEXT("node[" << i << "] " << want.name) {
            BOOST_TEST(got.name == want.name);
            BOOST_TEST(same(got.transform, want.transform));
            BOOST_TEST(got.parent == flat[i].second);
            BOOST_TEST(got.meshes == want.meshes, boost::test_tools::per_element());
            BOOST_TEST(got.children.size() == want.children.size());
            for (uint32_t child : got.children)
                BOOST_TEST(scene.nodes.at(child).parent == int32_t(i));
            if (p.node_metadata)
                check_metadata(got.metadata, want.metadata);
            else
                BOOST_TEST(got.metadata.empty());
        }
    }
}

inline void check_stream(const std::optional<assbin::VertexStream<assbin::Vec3>>& got,
                         const std::optional<std::vector<F3>>& want, bool shortened, const char* what) {
    BOOST_TEST_CONTEXT(what) {
        BOOST_TEST_REQUIRE(got.has_value() == want.has_value());
        if (!want) return;
        if (shortened) {
            BOOST_TEST(got->values.empty());
            BOOST_TEST(same_bounds(got->bounds, bounds_of(std::span<const F3>(*want))));
        } else {
            BOOST_TEST(same_array(got->values, *want));
        }
    }
}

inline void check_bone(const assbin::Bone& got, const BoneSpec& want, bool shortened) {
    BOOST_TEST_CONTEXT("bone " << want.name) {
        BOOST_TEST(got.name == want.name);
        BOOST_TEST(same(got.offset, want.offset));
        BOOST_TEST(got.weight_count == want.weights.size());
        if (shortened) {
            WeightBounds b = bounds_of(std::span<const WeightSpec>(want.weights));
            BOOST_TEST(got.weights.empty());
            BOOST_TEST(got.weight_bounds.min.vertex == b.min.vertex);
            BOOST_TEST(same(got.weight_bounds.min.weight, b.min.weight));
            BOOST_TEST(got.weight_bounds.max.vertex == b.max.vertex);
            BOOST_TEST(same(got.weight_bounds.max.weight, b.max.weight));
        } else {
            BOOST_TEST_REQUIRE(got.weights.size() == want.weights.size());
            for (size_t i = 0; i < want.weights.size(); ++i) {
                BOOST_TEST(got.weights[i].vertex == want.weights[i].vertex);
                BOOST_TEST(same(got.weights[i].weight, want.weights[i].weight));
            }
        }
    }
}

inline void check_faces(const assbin::Mesh& got, const MeshSpec& want, bool shortened) {
    BOOST_TEST(got.face_count == want.faces.size());
    if (shortened) {
        BOOST_TEST(got.faces.size() == 0u);
        BOOST_TEST(got.face_hashes == face_hashes(want.faces), boost::test_tools::per_element());
        return;
    }
    BOOST_TEST(got.face_hashes.empty());
    BOOST_TEST_REQUIRE(got.faces.size() == want.faces.size());
    for (size_t f = 0; f < want.faces.size(); ++f) {
        auto face = got.faces.face(f);
        BOOST_TEST_CONTEXT("face " << f) {
            BOOST_TEST(std::vector<uint32_t>(face.begin(), face.end()) == want.faces[f],
                       boost::test_tools::per_element());
        }
    }
}

inline void check_mesh(const assbin::Mesh& got, const MeshSpec& want, bool shortened) {
    BOOST_TEST(got.primitive_types == want.primitive_types);
    BOOST_TEST(got.material_index == want.material_index);
    BOOST_TEST(got.vertex_count == want.nv());
    BOOST_TEST(got.component_mask() == want.component_mask());
    check_stream(got.positions, want.positions, shortened, "positions");
    check_stream(got.normals, want.normals, shortened, "normals");
    check_stream(got.tangents, want.tangents, shortened, "tangents");
    check_stream(got.bitangents, want.bitangents, shortened, "bitangents");
    BOOST_TEST_REQUIRE(got.color_sets.size() == want.colors.size());
    for (size_t n = 0; n < want.colors.size(); ++n) {
        BOOST_TEST_CONTEXT("color set " << n) {
            if (shortened)
                BOOST_TEST(
                    same_bounds(got.color_sets[n].bounds, bounds_of(std::span<const F4>(want.colors[n]))));
            else
                BOOST_TEST(same_array(got.color_sets[n].values, want.colors[n]));
        }
    }
    BOOST_TEST_REQUIRE(got.uv_channels.size() == want.uvs.size());
    for (size_t n = 0; n < want.uvs.size(); ++n) {
        BOOST_TEST_CONTEXT("uv channel " << n) {
            BOOST_TEST(got.uv_channels[n].component_count == want.uvs[n].components);
            if (shortened) {
                BOOST_TEST(same_bounds(got.uv_channels[n].bounds,
                                       bounds_of(std::span<const F3>(want.uvs[n].coords))));
            } else {
                BOOST_TEST(same_array(got.uv_channels[n].values, want.uvs[n].coords));
            }
        }
    }
    check_faces(got, want, shortened);
    BOOST_TEST_REQUIRE(got.bones.size() == want.bones.size());
    for (size_t b = 0; b < want.bones.size(); ++b)
        check_bone(got.bones[b], want.bones[b], shortened);
}

inline void check_materials(const assbin::Scene& scene, const SceneSpec& spec) {
    BOOST_TEST_REQUIRE(scene.materials.size() == spec.materials.size());
    for (size_t m = 0; m < spec.materials.size(); ++m) {
        const auto& got = scene.materials[m].properties;
        const auto& want = spec.materials[m].properties;
        BOOST_TEST_REQUIRE(got.size() == want.size());
        for (size_t i = 0; i < want.size(); ++i) {
            BOOST_TEST_CONTEXT("material " << m << " property " << want[i].key) {
                BOOST_TEST(got[i].key == want[i].key);
                BOOST_TEST(got[i].semantic == want[i].semantic);
                BOOST_TEST(got[i].index == want[i].index);
                BOOST_TEST(got[i].type == want[i].type);
                BOOST_TEST(got[i].data == as_u8(want[i].data), boost::test_tools::per_element());
            }
        }
    }
}

template <class GotKey, class WantKey>
void check_keys(const assbin::KeyTrack<GotKey>& got, const std::vector<WantKey>& want, bool shortened,
                const char* what) {
    BOOST_TEST_CONTEXT(what) {
        BOOST_TEST(got.count == want.size());
        if (shortened) {
            BOOST_TEST(got.keys.empty());
            BOOST_TEST_REQUIRE(got.bounds.has_value() == !want.empty());
            if (want.empty()) return;
            auto b = bounds_of(std::span<const WantKey>(want));
            BOOST_TEST(same(got.bounds->min.time, b.min.time));
            BOOST_TEST(same(got.bounds->max.time, b.max.time));
            BOOST_TEST(same(got.bounds->min.value, b.min.value));
            BOOST_TEST(same(got.bounds->max.value, b.max.value));
            return;
        }
        BOOST_TEST_REQUIRE(got.keys.size() == want.size());
        for (size_t k = 0; k < want.size(); ++k) {
            BOOST_TEST(same(got.keys[k].time, want[k].time));
            BOOST_TEST(same(got.keys[k].value, want[k].value));
        }
    }
}

inline void check_animations(const assbin::Scene& scene, const SceneSpec& spec, bool shortened) {
    BOOST_TEST_REQUIRE(scene.animations.size() == spec.animations.size());
    for (size_t a = 0; a < spec.animations.size(); ++a) {
        const auto& got = scene.animations[a];
        const auto& want = spec.animations[a];
        BOOST_TEST(got.name == want.name);
        BOOST_TEST(got.duration == want.duration);
        BOOST_TEST(got.ticks_per_second == want.ticks_per_second);
        BOOST_TEST_REQUIRE(got.channels.size() == want.channels.size());
        for (size_t c = 0; c < want.channels.size(); ++c) {
            BOOST_TEST_CONTEXT("animation " << a << " channel " << c) {
                BOOST_TEST(got.channels[c].node_name == want.channels[c].node_name);
                BOOST_TEST(got.channels[c].pre_state == want.channels[c].pre_state);
                BOOST_TEST(got.channels[c].post_state == want.channels[c].post_state);
                check_keys(got.channels[c].positions, want.channels[c].positions, shortened, "positions");
                check_keys(got.channels[c].rotations, want.channels[c].rotations, shortened, "rotations");
                check_keys(got.channels[c].scalings, want.channels[c].scalings, shortened, "scalings");
            }
        }
    }
}

inline std::string expected_hint(const std::string& hint, unsigned width) {
    std::string cut = hint.substr(0, std::min<size_t>(hint.size(), width));
    return cut.substr(0, cut.find('\0'));
}

inline void check_textures(const assbin::Scene& scene, const SceneSpec& spec, const WriterProfile& p) {
    BOOST_TEST_REQUIRE(scene.textures.size() == spec.textures.size());
    for (size_t t = 0; t < spec.textures.size(); ++t) {
        BOOST_TEST_CONTEXT("texture " << t) {
            const auto& got = scene.textures[t];
            const auto& want = spec.textures[t];
            BOOST_TEST(got.width == want.width);
            BOOST_TEST(got.height == want.height);
            BOOST_TEST(got.is_compressed() == (want.height == 0));
            BOOST_TEST(got.format_hint == expected_hint(want.hint, p.texture_hint_bytes));
            if (p.shortened)
                BOOST_TEST(got.data.empty());
            else
                BOOST_TEST(got.data == as_u8(want.data), boost::test_tools::per_element());
        }
    }
}

inline void check_lights(const assbin::Scene& scene, const SceneSpec& spec, const WriterProfile& p) {
    BOOST_TEST_REQUIRE(scene.lights.size() == spec.lights.size());
    const F3 zero{0, 0, 0};
    for (size_t i = 0; i < spec.lights.size(); ++i) {
        const auto& got = scene.lights[i];
        const auto& want = spec.lights[i];
        BOOST_TEST_CONTEXT("light " << i << " type " << want.type) {
            BOOST_TEST(got.name == want.name);
            BOOST_TEST(got.type == want.type);
            BOOST_TEST(same(got.position, p.light_placement ? want.position : zero));
            BOOST_TEST(same(got.direction, p.light_placement ? want.direction : zero));
            BOOST_TEST(same(got.up, p.light_placement ? want.up : zero));
            const bool attenuation = want.type != 1;
            BOOST_TEST(got.attenuation_constant == (attenuation ? want.att_constant : 0.0f));
            BOOST_TEST(got.attenuation_linear == (attenuation ? want.att_linear : 0.0f));
            BOOST_TEST(got.attenuation_quadratic == (attenuation ? want.att_quadratic : 0.0f));
            BOOST_TEST(same(got.diffuse, want.diffuse));
            BOOST_TEST(same(got.specular, want.specular));
            BOOST_TEST(same(got.ambient, want.ambient));
            const bool cones = want.type == 3;
            BOOST_TEST(got.inner_cone == (cones ? want.inner_cone : 0.0f));
            BOOST_TEST(got.outer_cone == (cones ? want.outer_cone : 0.0f));
        }
    }
}

inline void check_cameras(const assbin::Scene& scene, const SceneSpec& spec) {
    BOOST_TEST_REQUIRE(scene.cameras.size() == spec.cameras.size());
    for (size_t i = 0; i < spec.cameras.size(); ++i) {
        const auto& got = scene.cameras[i];
        const auto& want = spec.cameras[i];
        BOOST_TEST(got.name == want.name);
        BOOST_TEST(same(got.position, want.position));
        BOOST_TEST(same(got.look_at, want.look_at));
        BOOST_TEST(same(got.up, want.up));
        BOOST_TEST(got.horizontal_fov == want.horizontal_fov);
        BOOST_TEST(got.clip_near == want.clip_near);
        BOOST_TEST(got.clip_far == want.clip_far);
        BOOST_TEST(got.aspect == want.aspect);
    }
}

inline void check_header(const assbin::Header& h, const WriterProfile& p) {
    BOOST_TEST(h.timestamp == p.header.timestamp);
    BOOST_TEST(h.version_major == 1u);
    BOOST_TEST(h.version_minor == 0u);
    BOOST_TEST(h.revision == p.header.revision);
    BOOST_TEST(h.compile_flags == p.header.compile_flags);
    BOOST_TEST(h.is_shortened() == p.shortened);
    BOOST_TEST(h.is_compressed() == (p.compression != Compression::None));
    BOOST_TEST(h.source_name == p.header.name);
    BOOST_TEST(h.command == p.header.command);
    for (uint8_t r : h.reserved)
        BOOST_TEST(r == 0xCD);
}

inline bool has_vector_keys(const SceneSpec& spec) {
    for (const auto& a : spec.animations) {
        for (const auto& c : a.channels) {
            if (!c.positions.empty() || !c.scalings.empty()) return true;
        }
    }
    return false;
}

inline uint64_t total_deficit(const SceneSpec& spec) {
    uint64_t d = 0;
    for (const auto& m : spec.meshes)
        d += short_length_deficit(m);
    return d;
}

// The profile name writer_profile() must start with, from the layout facts of §7.
inline std::string expected_profile(const SceneSpec& spec, const WriterProfile& p) {
    if (p.node_metadata) {
        if (p.mixed_double) return "P5 double";
        const bool tex = !spec.textures.empty();
        const bool lights = !spec.lights.empty();
        if (tex && p.texture_hint_bytes == 4) return "P3";
        if (lights && p.light_placement) return "P5";
        if (tex && lights) return "P4";
        if (tex) return "P4/P5";
        if (lights) return "P3/P4";
        return "P3/P4/P5";
    }
    const bool cmd = p.vector_key_bytes == 24 || p.short_lengths || p.shortened ||
                     p.compression != Compression::None || !p.header.command.empty();
    if (!cmd) return "P2";
    if (p.header.compile_flags & 0x8) return "P1"; // the Boost workaround flag: builds up to 3.2 (§1.1)
    if (p.compression == Compression::OldPrefix) return "P1";
    if (p.compression == Compression::NewPrefix) return "P1'";
    return "P1/P1'";
}

inline void check_layout(const assbin::Scene& scene, const SceneSpec& spec, const WriterProfile& p) {
    const assbin::Layout& l = scene.layout;
    BOOST_TEST(l.node_metadata == p.node_metadata);
    BOOST_TEST(l.texture_hint_bytes == (spec.textures.empty() ? 0u : p.texture_hint_bytes));
    if (spec.lights.empty())
        BOOST_TEST(!l.light_placement.has_value());
    else
        BOOST_TEST((l.light_placement == std::optional<bool>(p.light_placement)));
    BOOST_TEST(l.mixed_double == p.mixed_double);
    unsigned vkey = 0;
    if (!p.shortened && has_vector_keys(spec)) vkey = p.mixed_double ? 24 : p.vector_key_bytes;
    BOOST_TEST(l.vector_key_bytes == vkey);
    const bool short_lengths = p.short_lengths && !p.shortened && total_deficit(spec) > 0;
    BOOST_TEST(l.exact_mesh_lengths == !short_lengths);
    const std::string profile = assbin::writer_profile(scene);
    BOOST_TEST_MESSAGE("writer_profile: " << profile);
    BOOST_TEST(profile.starts_with(expected_profile(spec, p) + " ("),
               profile << " should name " << expected_profile(spec, p));
}

inline void check_scene(const assbin::Scene& scene, const SceneSpec& spec, const WriterProfile& p) {
    check_header(scene.header, p);
    check_layout(scene, spec, p);
    BOOST_TEST(scene.flags == spec.flags);
    BOOST_TEST(scene.skipped_chunks.empty());
    check_nodes(scene, spec, p);
    BOOST_TEST_REQUIRE(scene.meshes.size() == spec.meshes.size());
    for (size_t i = 0; i < spec.meshes.size(); ++i) {
        BOOST_TEST_CONTEXT("mesh " << i) {
            check_mesh(scene.meshes[i], spec.meshes[i], p.shortened);
        }
    }
    check_materials(scene, spec);
    check_animations(scene, spec, p.shortened);
    check_textures(scene, spec, p);
    check_lights(scene, spec, p);
    check_cameras(scene, spec);
}

// Builds `spec` with `p`, reads it and checks every field.
inline assbin::Scene round_trip(const SceneSpec& spec, const WriterProfile& p) {
    Dump d = build_dump(spec, p);
    BOOST_TEST_MESSAGE(p.label << ": " << d.bytes.size() << " bytes, body " << d.body.size());
    assbin::Scene scene = read_dump(d.bytes);
    BOOST_TEST(scene.body_bytes == d.body.size());
    check_scene(scene, spec, p);
    return scene;
}

inline SceneSpec single_mesh_scene(MeshSpec mesh) {
    SceneSpec s;
    s.root = make_node("root", {0});
    s.meshes = {std::move(mesh)};
    return s;
}

} // namespace assbin_test
