// Crafted dumps of every layout variant (ASSBIN-FORMAT.md §4 - §8), written by the independent
// test-side builder and read back with assbin::read_scene.
#include <boost/test/unit_test.hpp>

#include "support/dump_builder.hpp"

#include <assbin/error.hpp>
#include <assbin/reader.hpp>
#include <assbin/types.hpp>

#include <zlib.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace assbin_test;
using assbin::ErrorCode;

namespace {

// ---------------------------------------------------------------------------------------------
// Comparison helpers. Values round-trip exactly (the mixed double layout widens f32 to f64 and
// back), so floats compare with ==, NaN equal to NaN.

bool same(float a, float b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}
bool same(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}
bool same(const assbin::Vec3& v, const F3& f) {
    return same(v.x(), f[0]) && same(v.y(), f[1]) && same(v.z(), f[2]);
}
bool same(const assbin::Color4& c, const F4& f) {
    return same(c[0], f[0]) && same(c[1], f[1]) && same(c[2], f[2]) && same(c[3], f[3]);
}
bool same(const assbin::Quaternion& q, const F4& f) { // f is w, x, y, z
    return same(q.w(), f[0]) && same(q.x(), f[1]) && same(q.y(), f[2]) && same(q.z(), f[3]);
}
bool same(const assbin::Matrix4& m, const M4& f) {
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

std::vector<uint8_t> as_u8(const Bytes& b) {
    std::vector<uint8_t> out;
    for (std::byte x : b)
        out.push_back(static_cast<uint8_t>(x));
    return out;
}

Bytes texels(size_t n, uint8_t seed) {
    Bytes out;
    for (size_t i = 0; i < n; ++i)
        out.push_back(static_cast<std::byte>(seed + i * 7));
    return out;
}

std::vector<F3> ramp3(size_t n, float scale, float offset = 0.0f) {
    std::vector<F3> out;
    for (size_t i = 0; i < n; ++i) {
        float f = static_cast<float>(i);
        out.push_back({offset + f * scale, -f * scale * 0.5f, 1.0f / (f + 1.0f)});
    }
    return out;
}

std::vector<F4> ramp4(size_t n, float scale) {
    std::vector<F4> out;
    for (size_t i = 0; i < n; ++i) {
        float f = static_cast<float>(i);
        out.push_back({f * scale, 1.0f - f * scale, 0.25f + f, 0.5f * f});
    }
    return out;
}

M4 transform(float tx, float ty, float tz, float s = 1.0f) {
    return {s, 0.125f, 0, tx, 0, s, -0.25f, ty, 0.5f, 0, s, tz, 0, 0, 0, 1};
}

assbin::Scene read_dump(const Bytes& bytes, const assbin::ReadOptions& options = {}) {
    return assbin::read_scene(bytes, options);
}

// Reads, requiring a ParseError; returns it for further checks.
assbin::ParseError read_error(const Bytes& bytes, const assbin::ReadOptions& options = {}) {
    try {
        assbin::read_scene(bytes, options);
    } catch (const assbin::ParseError& e) {
        BOOST_TEST_MESSAGE("ParseError [" << assbin::error_code_name(e.code()) << "]: " << e.what());
        return e;
    }
    BOOST_FAIL("read_scene accepted a damaged file");
    throw std::logic_error("unreachable");
}

void expect_error(const Bytes& bytes, ErrorCode code, const std::string& path, uint64_t offset_min,
                  uint64_t offset_max, const assbin::ReadOptions& options = {}) {
    assbin::ParseError e = read_error(bytes, options);
    BOOST_TEST(assbin::error_code_name(e.code()) == assbin::error_code_name(code));
    BOOST_TEST(e.chunk_path() == path);
    BOOST_TEST(e.offset() >= offset_min);
    BOOST_TEST(e.offset() <= offset_max);
    BOOST_TEST(!e.message().empty());
}

// ---------------------------------------------------------------------------------------------
// A scene with something of every kind.

std::vector<MetaSpec> every_metadata_entry() {
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

SceneSpec rich_scene() {
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

void check_metadata(const std::vector<assbin::MetadataEntry>& got, const std::vector<MetaSpec>& want) {
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

void flatten(const NodeSpec& n, int32_t parent, std::vector<std::pair<const NodeSpec*, int32_t>>& out) {
    out.emplace_back(&n, parent);
    const int32_t me = static_cast<int32_t>(out.size() - 1);
    for (const NodeSpec& c : n.children)
        flatten(c, me, out);
}

void check_nodes(const assbin::Scene& scene, const SceneSpec& spec, const WriterProfile& p) {
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

void check_stream(const std::optional<assbin::VertexStream<assbin::Vec3>>& got,
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

void check_bone(const assbin::Bone& got, const BoneSpec& want, bool shortened) {
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

void check_faces(const assbin::Mesh& got, const MeshSpec& want, bool shortened) {
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

void check_mesh(const assbin::Mesh& got, const MeshSpec& want, bool shortened) {
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

void check_materials(const assbin::Scene& scene, const SceneSpec& spec) {
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

void check_animations(const assbin::Scene& scene, const SceneSpec& spec, bool shortened) {
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

std::string expected_hint(const std::string& hint, unsigned width) {
    std::string cut = hint.substr(0, std::min<size_t>(hint.size(), width));
    return cut.substr(0, cut.find('\0'));
}

void check_textures(const assbin::Scene& scene, const SceneSpec& spec, const WriterProfile& p) {
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

void check_lights(const assbin::Scene& scene, const SceneSpec& spec, const WriterProfile& p) {
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

void check_cameras(const assbin::Scene& scene, const SceneSpec& spec) {
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

void check_header(const assbin::Header& h, const WriterProfile& p) {
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

bool has_vector_keys(const SceneSpec& spec) {
    for (const auto& a : spec.animations) {
        for (const auto& c : a.channels) {
            if (!c.positions.empty() || !c.scalings.empty()) return true;
        }
    }
    return false;
}

uint64_t total_deficit(const SceneSpec& spec) {
    uint64_t d = 0;
    for (const auto& m : spec.meshes)
        d += short_length_deficit(m);
    return d;
}

// The profile name writer_profile() must start with, from the layout facts of §7.
std::string expected_profile(const SceneSpec& spec, const WriterProfile& p) {
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

void check_layout(const assbin::Scene& scene, const SceneSpec& spec, const WriterProfile& p) {
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

void check_scene(const assbin::Scene& scene, const SceneSpec& spec, const WriterProfile& p) {
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
assbin::Scene round_trip(const SceneSpec& spec, const WriterProfile& p) {
    Dump d = build_dump(spec, p);
    BOOST_TEST_MESSAGE(p.label << ": " << d.bytes.size() << " bytes, body " << d.body.size());
    assbin::Scene scene = read_dump(d.bytes);
    BOOST_TEST(scene.body_bytes == d.body.size());
    check_scene(scene, spec, p);
    return scene;
}

SceneSpec single_mesh_scene(MeshSpec mesh) {
    SceneSpec s;
    s.root = make_node("root", {0});
    s.meshes = {std::move(mesh)};
    return s;
}

} // namespace

BOOST_AUTO_TEST_SUITE(crafted_variants)

// ---------------------------------------------------------------------------------------------
// The builder itself, against the numbers the format page gives.

BOOST_AUTO_TEST_CASE(builder_face_hash_matches_format_test_vectors) {
    BOOST_TEST(sfh_u32(3, 0) == 0x95f4fd58u);
    BOOST_TEST(face_hashes({{0, 1, 2}}) == std::vector<uint32_t>{0xe3f59cdbu},
               boost::test_tools::per_element());
    BOOST_TEST(face_hashes({{0, 1, 2}, {2, 1, 3}}) == std::vector<uint32_t>{0x7a250f0du},
               boost::test_tools::per_element());
    BOOST_TEST(face_hashes({{0, 1, 2, 3}}) == std::vector<uint32_t>{0x88e86e55u},
               boost::test_tools::per_element());
    std::vector<std::vector<uint32_t>> many(1025, {0, 1, 2});
    BOOST_TEST(face_hashes(many) == (std::vector<uint32_t>{0xbc3caa45u, 0xbc3caa45u, 0xe3f59cdbu}),
               boost::test_tools::per_element());
    BOOST_TEST(face_hashes({}).empty());
}

BOOST_AUTO_TEST_CASE(builder_bounds_follow_array_bounds_rule) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    auto empty = bounds_of(std::span<const F3>());
    BOOST_TEST(empty.min[0] == 1e10f);
    BOOST_TEST(empty.max[2] == -1e10f);
    std::vector<F3> values{{1, 5, nan}, {-2, 7, 3}, {4, -1, 2}};
    auto b = bounds_of(std::span<const F3>(values));
    BOOST_TEST(b.min[0] == -2.0f);
    BOOST_TEST(b.max[0] == 4.0f);
    BOOST_TEST(b.min[1] == -1.0f);
    BOOST_TEST(b.max[1] == 7.0f);
    BOOST_TEST(b.min[2] == 2.0f); // the NaN replaced the accumulator, the next element replaced the NaN
    BOOST_TEST(b.max[2] == 3.0f);
    std::vector<F3> trailing_nan{{1, 1, 1}, {nan, 0, 0}};
    BOOST_TEST(std::isnan(bounds_of(std::span<const F3>(trailing_nan)).min[0]));
    auto w = bounds_of(std::span<const WeightSpec>());
    BOOST_TEST(w.min.vertex == 0x80000000u);
    BOOST_TEST(w.max.vertex == 0u);
}

BOOST_AUTO_TEST_CASE(builder_header_fields_sit_at_documented_offsets) {
    WriterProfile p = WriterProfile::p1();
    p.header.name = std::string(300, 'n'); // cut to 256, no NUL
    p.header.command = "-b -s ";
    p.shortened = true;
    p.compression = Compression::OldPrefix;
    Bytes h = build_header(p);
    BOOST_TEST_REQUIRE(h.size() == 512u);
    auto u32_at = [&](size_t o) {
        uint32_t v;
        std::memcpy(&v, h.data() + o, 4);
        return v;
    };
    auto u16_at = [&](size_t o) {
        uint16_t v;
        std::memcpy(&v, h.data() + o, 2);
        return v;
    };
    BOOST_TEST(std::memcmp(h.data(), "ASSIMP.binary-dump.", 19) == 0);
    BOOST_TEST(static_cast<char>(h[43]) == '\n');
    BOOST_TEST(u32_at(44) == 1u);
    BOOST_TEST(u32_at(48) == 0u);
    BOOST_TEST(u32_at(52) == 0x08a5041eu);
    BOOST_TEST(u32_at(56) == 0x19u);
    BOOST_TEST(u16_at(60) == 1u);
    BOOST_TEST(u16_at(62) == 1u);
    BOOST_TEST(static_cast<char>(h[64 + 255]) == 'n');
    BOOST_TEST(static_cast<char>(h[320]) == '-');
    BOOST_TEST(static_cast<uint8_t>(h[320 + 6]) == 0u);
    for (size_t i = 448; i < 512; ++i)
        BOOST_TEST(static_cast<uint8_t>(h[i]) == 0xCDu);
}

BOOST_AUTO_TEST_CASE(builder_writes_documented_record_sizes) {
    SceneSpec s;
    s.lights = rich_scene().lights;
    s.cameras = rich_scene().cameras;
    // Light: p/d/u adds 36 bytes (48 in the double layout) to the same light (§4.9).
    Dump p4 = build_dump(s, WriterProfile::p4());
    Dump p5 = build_dump(s, WriterProfile::p5());
    Dump p5d = build_dump(s, WriterProfile::p5_double());
    for (size_t i = 0; i < s.lights.size(); ++i) {
        std::string path = "scene/light[" + std::to_string(i) + "]";
        BOOST_TEST(p5.chunk(path).length - p4.chunk(path).length == 36u);
    }
    // Root node: 4 + 4 ("root") + 64 + 12 bytes; the double matrix adds 64.
    BOOST_TEST(p5.chunk("scene/node").length == 84u);
    BOOST_TEST(p5d.chunk("scene/node").length == 148u);
    // Camera: str + 3 vec3 + 4 f32; the double layout adds 3 x 4.
    BOOST_TEST(p5.chunk("scene/camera[0]").length == 4u + 6 + 36 + 16);
    BOOST_TEST(p5d.chunk("scene/camera[0]").length == 4u + 6 + 48 + 16);
    // Spot light (type 3) in the double layout: str, type, p/d/u 48, att 12, colours 48, cones 8.
    BOOST_TEST(p5d.chunk("scene/light[3]").length == 4u + 6 + 4 + 48 + 12 + 48 + 8);
}

BOOST_AUTO_TEST_CASE(builder_p1_lengths_are_short_by_the_section_3_formula) {
    SceneSpec s = rich_scene();
    Dump p1 = build_dump(s, WriterProfile::p1());
    Dump p2 = build_dump(s, WriterProfile::p2());
    const ChunkInfo& m0 = p1.chunk("scene/mesh[0]");
    // Mesh 0: 6 vertices, 2 colour sets, 2 UV channels.
    BOOST_TEST(m0.payload - m0.length == 2u * (16 * 6 - 1) + 2u * (12 * 6 - 1));
    BOOST_TEST(p2.chunk("scene/mesh[0]").length == p2.chunk("scene/mesh[0]").payload);
    const ChunkInfo& scene = p1.chunk("scene");
    BOOST_TEST(scene.payload - scene.length == total_deficit(s));
    // Node lengths stay exact in P1.
    BOOST_TEST(p1.chunk("scene/node").length == p1.chunk("scene/node").payload);
}

BOOST_AUTO_TEST_CASE(builder_compresses_with_both_prefix_meanings) {
    Dump plain = build_dump(rich_scene(), WriterProfile::p5());
    for (Compression c : {Compression::OldPrefix, Compression::NewPrefix}) {
        Bytes file = assemble(WriterProfile::p5().with_compression(c), plain.body);
        uint32_t prefix;
        std::memcpy(&prefix, file.data() + 512, 4);
        BOOST_TEST(prefix == (c == Compression::OldPrefix ? file.size() - 516 : plain.body.size()));
        BOOST_TEST(static_cast<uint8_t>(file[62]) == 1u);
        BOOST_TEST(static_cast<uint8_t>(file[516]) == 0x78u); // zlib header of level 9: 78 DA
        BOOST_TEST(static_cast<uint8_t>(file[517]) == 0xdau);
        Bytes body(plain.body.size());
        uLongf produced = static_cast<uLongf>(body.size());
        BOOST_TEST(uncompress(reinterpret_cast<Bytef*>(body.data()), &produced,
                              reinterpret_cast<const Bytef*>(file.data() + 516),
                              static_cast<uLong>(file.size() - 516)) == Z_OK);
        BOOST_TEST((body == plain.body));
    }
}

// ---------------------------------------------------------------------------------------------
// Chunk types one at a time (P5 unless the case says otherwise).

BOOST_AUTO_TEST_CASE(reads_empty_scene_with_only_a_root_node) {
    SceneSpec s;
    s.flags = 0x1;
    assbin::Scene scene = round_trip(s, WriterProfile::p5());
    BOOST_TEST(scene.nodes.size() == 1u);
    BOOST_TEST(scene.nodes[0].parent == -1);
}

BOOST_AUTO_TEST_CASE(reads_node_tree_without_metadata_count) {
    SceneSpec s = rich_scene();
    s.meshes.clear();
    s.materials.clear();
    s.animations.clear();
    s.textures.clear();
    s.lights.clear();
    s.cameras.clear();
    s.root.children[0].meshes.clear();
    s.root.children[1].meshes.clear();
    s.root.children[1].children[0].meshes.clear();
    round_trip(s, WriterProfile::p2());
}

BOOST_AUTO_TEST_CASE(reads_node_tree_with_metadata_count) {
    SceneSpec s = rich_scene();
    round_trip(s, WriterProfile::p3());
}

BOOST_AUTO_TEST_CASE(reads_leaf_nodes_with_meshes_but_no_metadata_layout) {
    // §7 step 3: a leaf's payload after nMeshes is exactly 4 * nMeshes bytes without metadata.
    SceneSpec s;
    s.root = make_node("root", {0, 0}, {make_node("leaf", {0}), make_node("leaf2", {0, 0, 0})});
    s.meshes = {MeshSpec{}};
    s.meshes[0].positions = ramp3(3, 1);
    s.meshes[0].faces = {{0, 1, 2}};
    round_trip(s, WriterProfile::p2());
    round_trip(s, WriterProfile::p3());
}

BOOST_AUTO_TEST_CASE(reads_every_metadata_type_including_valueless_7_8_9) {
    SceneSpec s;
    s.root.metadata = every_metadata_entry();
    s.root.metadata.push_back({"unknown type", 0x4242, std::monostate{}});
    s.root.metadata.push_back({"", 5, std::string()});
    s.root.children = {make_node("child", {}, {}, {{"after", 0, false}})};
    assbin::Scene scene = round_trip(s, WriterProfile::p5());
    BOOST_TEST(scene.nodes[0].metadata.size() == 12u);
    BOOST_TEST(std::holds_alternative<std::monostate>(scene.nodes[0].metadata[7].value));
    BOOST_TEST(scene.nodes[0].metadata[10].type == 0x4242u);
}

BOOST_AUTO_TEST_CASE(reads_metadata_vector_as_16_bytes_in_double_layout) {
    SceneSpec s;
    s.root.metadata = every_metadata_entry();
    s.root.children = {make_node("c", {}, {}, {{"v", 6, F3{-0.5f, 1e20f, 3}}})};
    round_trip(s, WriterProfile::p5_double());
}

BOOST_AUTO_TEST_CASE(reads_mesh_with_every_vertex_stream) {
    MeshSpec m;
    m.primitive_types = 4;
    m.material_index = 3;
    m.positions = ramp3(5, 1.0f);
    m.normals = ramp3(5, 0.5f, 1);
    m.tangents = ramp3(5, 0.25f, 2);
    m.bitangents = ramp3(5, 0.125f, 3);
    for (int n = 0; n < 8; ++n)
        m.colors.push_back(ramp4(5, 0.01f * float(n + 1)));
    for (uint32_t n = 0; n < 8; ++n)
        m.uvs.push_back({n % 3 + 1, ramp3(5, 0.1f * float(n + 1), float(n))});
    m.faces = {{0, 1, 2}, {2, 3, 4}};
    SceneSpec s = single_mesh_scene(m);
    for (const WriterProfile& p : {WriterProfile::p5(), WriterProfile::p5_double(), WriterProfile::p1(),
                                   WriterProfile::p2(), WriterProfile::p4_double()}) {
        BOOST_TEST_CONTEXT(p.label) {
            assbin::Scene scene = round_trip(s, p);
            BOOST_TEST(scene.meshes[0].component_mask() == 0xff'ff07u);
        }
    }
}

BOOST_AUTO_TEST_CASE(reads_mesh_with_positions_only_and_no_faces) {
    MeshSpec m;
    m.primitive_types = 1;
    m.positions = ramp3(4, 2.0f);
    round_trip(single_mesh_scene(m), WriterProfile::p5());
    MeshSpec empty;
    empty.positions = std::vector<F3>{};
    empty.uvs = {{2, {}}};
    empty.colors.emplace_back();
    round_trip(single_mesh_scene(empty), WriterProfile::p1()); // nv = 0: each array adds 0 (§3)
}

BOOST_AUTO_TEST_CASE(reads_16bit_face_indices_up_to_65535_vertices) {
    MeshSpec m;
    m.positions = std::vector<F3>(65535, F3{1, 2, 3});
    m.faces = {{0, 65534, 1}, {65534, 65533, 2}};
    Dump d = build_dump(single_mesh_scene(m), WriterProfile::p5());
    const ChunkInfo& mesh = d.chunk("scene/mesh[0]");
    BOOST_TEST(mesh.payload == 24u + 65535u * 12 + 2 * (2 + 3 * 2));
    assbin::Scene scene = round_trip(single_mesh_scene(m), WriterProfile::p5());
    BOOST_TEST(!scene.meshes[0].uses_32bit_indices());
}

BOOST_AUTO_TEST_CASE(reads_32bit_face_indices_from_65536_vertices) {
    MeshSpec m;
    m.positions = ramp3(65536, 0.001f);
    m.faces = {{0, 65535, 1}, {65535, 70000, 0x12345678}, {}, {7}};
    Dump d = build_dump(single_mesh_scene(m), WriterProfile::p5());
    BOOST_TEST(d.chunk("scene/mesh[0]").payload == 24u + 65536u * 12 + (2 + 12) * 2 + 2 + (2 + 4));
    assbin::Scene scene = round_trip(single_mesh_scene(m), WriterProfile::p5());
    BOOST_TEST(scene.meshes[0].uses_32bit_indices());
    BOOST_TEST(scene.meshes[0].faces.face(1)[2] == 0x12345678u); // out of range, kept (§4.3)
}

BOOST_AUTO_TEST_CASE(reads_polygons_of_sizes_0_1_2_3_4_and_7) {
    MeshSpec m;
    m.primitive_types = 0x1 | 0x2 | 0x4 | 0x8 | 0x10;
    m.positions = ramp3(8, 1.0f);
    m.faces = {{}, {5}, {1, 2}, {0, 1, 2}, {0, 1, 2, 3}, {0, 1, 2, 3, 4, 5, 6}, {}};
    assbin::Scene scene = round_trip(single_mesh_scene(m), WriterProfile::p5());
    const auto& faces = scene.meshes[0].faces;
    BOOST_TEST_REQUIRE(faces.size() == 7u);
    const std::vector<uint32_t> sizes{0, 1, 2, 3, 4, 7, 0};
    for (size_t f = 0; f < sizes.size(); ++f)
        BOOST_TEST(faces.face_size(f) == sizes[f]);
    BOOST_TEST(faces.offsets.back() == 17u);
}

BOOST_AUTO_TEST_CASE(reads_bones_and_weights) {
    MeshSpec m;
    m.positions = ramp3(4, 1);
    m.faces = {{0, 1, 2}, {1, 2, 3}};
    for (int b = 0; b < 3; ++b) {
        BoneSpec bone;
        bone.name = "bone" + std::to_string(b);
        bone.offset = transform(float(b), 1, 2, 0.5f);
        for (uint32_t v = 0; v < uint32_t(b * 2); ++v)
            bone.weights.push_back({v, 1.0f / float(v + 1)});
        m.bones.push_back(bone);
    }
    round_trip(single_mesh_scene(m), WriterProfile::p5());
    round_trip(single_mesh_scene(m), WriterProfile::p5_double());
    round_trip(single_mesh_scene(m), WriterProfile::p1());
}

BOOST_AUTO_TEST_CASE(reads_material_properties_of_every_type) {
    SceneSpec s;
    MaterialSpec mat;
    mat.properties = {
        prop_string("?mat.name", "Material.001"),
        prop_floats("$clr.diffuse", {0.8f, 0.1f, 0.2f}),
        prop_doubles("$mat.opacity", {0.5, 0.25}),
        prop_string("$tex.file", "C:\\tex\\wood.png", 0x7f, 1, 2), // non-zero terminator (§4.5)
        prop_ints("$mat.shadingm", {2, -7}),
        prop_buffer("$raw", texels(9, 0xf0)),
        prop_buffer("$empty", {}),
        {"$odd type", 0, 0, 99, texels(3, 1), std::nullopt},
    };
    s.materials = {mat, MaterialSpec{}};
    assbin::Scene scene = round_trip(s, WriterProfile::p5());
    const assbin::Material& m = scene.materials[0];
    BOOST_TEST(m.name() == "Material.001");
    const assbin::MaterialProperty* file = m.find("$tex.file", 1, 2);
    BOOST_TEST_REQUIRE(file != nullptr);
    BOOST_TEST(file->data.size() == std::string("C:\\tex\\wood.png").size() + 5);
    BOOST_TEST(file->data.back() == 0x7fu);
    BOOST_TEST(file->string_value().value_or("<none>") == "C:\\tex\\wood.png");
    BOOST_TEST(m.find("$clr.diffuse")->numbers() == (std::vector<double>{0.8f, 0.1f, 0.2f}),
               boost::test_tools::per_element());
    BOOST_TEST(m.find("$mat.opacity")->numbers() == (std::vector<double>{0.5, 0.25}),
               boost::test_tools::per_element());
    BOOST_TEST(m.find("$mat.shadingm")->integers() == (std::vector<int32_t>{2, -7}),
               boost::test_tools::per_element());
    BOOST_TEST(scene.materials[1].properties.empty());
}

BOOST_AUTO_TEST_CASE(reads_animations_with_pre_and_post_states_and_20_byte_keys) {
    SceneSpec s;
    AnimationSpec a;
    a.name = "states";
    a.duration = 10;
    a.ticks_per_second = 0;
    for (uint32_t state = 0; state < 4; ++state) {
        ChannelSpec c;
        c.node_name = "n" + std::to_string(state);
        c.pre_state = state;
        c.post_state = 3 - state;
        for (uint32_t k = 0; k <= state; ++k) {
            c.positions.push_back({double(k) * 0.5, {float(k), 1, 2}});
            c.rotations.push_back({double(k), {1, 0, 0, float(k) * 0.1f}});
        }
        if (state % 2) c.scalings = {{0.0, {1, 2, 3}}};
        a.channels.push_back(c);
    }
    s.animations = {a, AnimationSpec{}};
    s.animations[1].name = "empty";
    for (const WriterProfile& p : {WriterProfile::p5(), WriterProfile::p2(), WriterProfile::p5_double()}) {
        BOOST_TEST_CONTEXT(p.label) {
            Dump d = build_dump(s, p);
            const ChunkInfo& c1 = d.chunk("scene/animation[0]/channel[1]");
            const unsigned vkey = p.mixed_double ? 24 : 20, qkey = p.mixed_double ? 28 : 24;
            BOOST_TEST(c1.length == 4u + 2 + 20 + 2 * vkey + 2 * qkey + vkey);
            round_trip(s, p);
        }
    }
}

BOOST_AUTO_TEST_CASE(reads_24_byte_vector_keys_whatever_their_padding) {
    SceneSpec s = rich_scene();
    for (uint8_t padding : {uint8_t{0}, uint8_t{0xff}, uint8_t{0x3c}}) {
        WriterProfile p = WriterProfile::p1();
        p.key_padding = padding;
        BOOST_TEST_CONTEXT("padding " << int(padding)) {
            round_trip(s, p);
        }
    }
    // A channel with rotations only has no vector keys to tell the stride.
    SceneSpec rot;
    ChannelSpec c;
    c.node_name = "r";
    c.rotations = {{1.0, {0, 1, 0, 0}}};
    rot.animations = {AnimationSpec{}};
    rot.animations[0].channels = {c};
    round_trip(rot, WriterProfile::p1());
}

BOOST_AUTO_TEST_CASE(reads_compressed_and_argb_textures_with_4_byte_hint) {
    SceneSpec s;
    s.textures = {compressed_texture("png", texels(100, 1)), compressed_texture("jpeg", texels(5, 2)),
                  argb_texture(3, 2, texels(24, 9)), argb_texture(1, 1, texels(4, 0), "rgba")};
    round_trip(s, WriterProfile::p3());
    round_trip(s, WriterProfile::p1());
}

BOOST_AUTO_TEST_CASE(reads_compressed_and_argb_textures_with_8_byte_hint) {
    SceneSpec s;
    s.textures = {compressed_texture("png", texels(100, 1)), compressed_texture("rgba8888", texels(8, 2)),
                  argb_texture(3, 2, texels(24, 9), "argb8888"), compressed_texture("", {})};
    round_trip(s, WriterProfile::p4());
    round_trip(s, WriterProfile::p5());
    round_trip(s, WriterProfile::p5_double());
}

BOOST_AUTO_TEST_CASE(reads_lights_of_all_six_types_without_placement) {
    SceneSpec s;
    s.lights = rich_scene().lights;
    round_trip(s, WriterProfile::p4());
    round_trip(s, WriterProfile::p3());
    round_trip(s, WriterProfile::p1());
}

BOOST_AUTO_TEST_CASE(reads_lights_of_all_six_types_with_placement) {
    SceneSpec s;
    s.lights = rich_scene().lights;
    round_trip(s, WriterProfile::p5());
    round_trip(s, WriterProfile::p5_double());
}

BOOST_AUTO_TEST_CASE(reads_cameras) {
    SceneSpec s;
    s.cameras = rich_scene().cameras;
    CameraSpec second;
    second.name = "";
    second.position = {1e-30f, -1e30f, 0};
    second.horizontal_fov = 1.5f;
    s.cameras.push_back(second);
    round_trip(s, WriterProfile::p5());
    round_trip(s, WriterProfile::p5_double());
    round_trip(s, WriterProfile::p1());
}

// ---------------------------------------------------------------------------------------------
// Every writer profile of §6 on the same scene.

BOOST_AUTO_TEST_CASE(reads_rich_scene_from_p1_assimp_cmd_3_0_to_4_1_0) {
    round_trip(rich_scene(), WriterProfile::p1());
}
BOOST_AUTO_TEST_CASE(reads_rich_scene_from_p1_prime_assimp_cmd_5_0) {
    round_trip(rich_scene(), WriterProfile::p1_prime());
}
BOOST_AUTO_TEST_CASE(reads_rich_scene_from_p2_exporter_3_2_to_3_3_1) {
    round_trip(rich_scene(), WriterProfile::p2());
}
BOOST_AUTO_TEST_CASE(reads_rich_scene_from_p3_exporter_4_0_to_5_0_1) {
    round_trip(rich_scene(), WriterProfile::p3());
}
BOOST_AUTO_TEST_CASE(reads_rich_scene_from_p4_writer_5_1_0_to_5_2_4) {
    round_trip(rich_scene(), WriterProfile::p4());
}
BOOST_AUTO_TEST_CASE(reads_rich_scene_from_p5_writer_5_2_5_and_later) {
    round_trip(rich_scene(), WriterProfile::p5());
}

BOOST_AUTO_TEST_CASE(reads_rich_scene_from_5_2_5_double_build_mixed_layout) {
    assbin::Scene scene = round_trip(rich_scene(), WriterProfile::p5_double());
    BOOST_TEST(scene.header.compile_flags == 0x31u);
}

BOOST_AUTO_TEST_CASE(reads_rich_scene_from_5_1_to_5_2_4_double_build_single_layout) {
    assbin::Scene scene = round_trip(rich_scene(), WriterProfile::p4_double());
    BOOST_TEST(!scene.layout.mixed_double);
    BOOST_TEST(assbin::writer_profile(scene).find("double") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(reads_scenes_without_textures_or_lights_identically_for_p3_p4_p5) {
    SceneSpec s = rich_scene();
    s.textures.clear();
    s.lights.clear();
    Dump p3 = build_dump(s, WriterProfile::p3());
    Dump p5 = build_dump(s, WriterProfile::p5());
    BOOST_TEST((p3.body == p5.body)); // §7 step 5: byte-identical bodies
    round_trip(s, WriterProfile::p3());
    round_trip(s, WriterProfile::p5());
}

BOOST_AUTO_TEST_CASE(reads_p1_dump_without_colours_or_uvs_whose_lengths_are_exact) {
    SceneSpec s = rich_scene();
    for (MeshSpec& m : s.meshes) {
        m.colors.clear();
        m.uvs.clear();
    }
    round_trip(s, WriterProfile::p1());
}

// ---------------------------------------------------------------------------------------------
// Shortened dumps (§5).

BOOST_AUTO_TEST_CASE(reads_shortened_rich_scene_for_every_profile_that_shortens) {
    for (WriterProfile p : {WriterProfile::p1(), WriterProfile::p1_prime(), WriterProfile::p3(),
                            WriterProfile::p5(), WriterProfile::p5_double()}) {
        p.with_shortened();
        BOOST_TEST_CONTEXT(p.label << " shortened") {
            round_trip(rich_scene(), p);
        }
    }
}

BOOST_AUTO_TEST_CASE(reads_shortened_vertex_streams_as_bounds) {
    MeshSpec m;
    m.positions = ramp3(7, 3.0f, -1.0f);
    m.normals = ramp3(7, -1.0f);
    m.tangents = ramp3(7, 0.5f);
    m.bitangents = ramp3(7, -0.5f);
    m.colors = {ramp4(7, 0.1f), ramp4(7, -0.1f), ramp4(7, 0.3f)};
    m.uvs = {{1, ramp3(7, 0.1f)}, {2, ramp3(7, 0.2f)}, {3, ramp3(7, 0.3f)}};
    m.faces = {{0, 1, 2}};
    SceneSpec s = single_mesh_scene(m);
    WriterProfile p = WriterProfile::p1().with_shortened();
    Dump d = build_dump(s, p);
    // 24 header bytes, 4 x 24 bounds, 3 x 32 colour bounds, 3 x 28 UV, 1 hash.
    BOOST_TEST(d.chunk("scene/mesh[0]").length == 24u + 4 * 24 + 3 * 32 + 3 * 28 + 4);
    BOOST_TEST(d.chunk("scene/mesh[0]").length == d.chunk("scene/mesh[0]").payload);
    assbin::Scene scene = round_trip(s, p);
    BOOST_TEST(scene.meshes[0].positions->bounds.min.x() == -1.0f);
    BOOST_TEST(scene.meshes[0].positions->bounds.max.x() == 17.0f);
}

BOOST_AUTO_TEST_CASE(reads_shortened_face_hashes_per_512_faces) {
    MeshSpec m;
    m.positions = ramp3(4, 1);
    m.faces.assign(1025, {0, 1, 2});
    m.faces[700] = {3, 2, 1, 0};
    assbin::Scene scene = round_trip(single_mesh_scene(m), WriterProfile::p5().with_shortened());
    BOOST_TEST(scene.meshes[0].face_hashes.size() == 3u);
    BOOST_TEST(scene.meshes[0].face_count == 1025u);

    MeshSpec none;
    none.positions = ramp3(4, 1);
    scene = round_trip(single_mesh_scene(none), WriterProfile::p5().with_shortened());
    BOOST_TEST(scene.meshes[0].face_hashes.empty());

    MeshSpec exact;
    exact.positions = ramp3(70000, 0.5f);
    exact.faces.assign(512, {0, 69999, 65536});
    scene = round_trip(single_mesh_scene(exact), WriterProfile::p5_double().with_shortened());
    BOOST_TEST(scene.meshes[0].face_hashes.size() == 1u);
}

BOOST_AUTO_TEST_CASE(reads_shortened_bone_weight_bounds_including_empty_bones) {
    MeshSpec m;
    m.positions = ramp3(4, 1);
    BoneSpec empty;
    empty.name = "no weights";
    BoneSpec some;
    some.name = "weights";
    some.weights = {{3, 0.5f}, {1, 0.75f}, {2, 0.25f}};
    m.bones = {empty, some};
    SceneSpec s = single_mesh_scene(m);
    WriterProfile p = WriterProfile::p3().with_shortened();
    Dump d = build_dump(s, p);
    BOOST_TEST(d.chunk("scene/mesh[0]/bone[0]").length == 4u + 10 + 4 + 64 + 16);
    assbin::Scene scene = round_trip(s, p);
    BOOST_TEST(scene.meshes[0].bones[0].weight_bounds.min.vertex == 0x80000000u);
    BOOST_TEST(scene.meshes[0].bones[0].weight_bounds.max.weight == -1e10f);
    BOOST_TEST(scene.meshes[0].bones[1].weight_bounds.min.vertex == 1u);
    BOOST_TEST(scene.meshes[0].bones[1].weight_bounds.max.weight == 0.75f);
}

BOOST_AUTO_TEST_CASE(reads_shortened_key_bounds_only_for_non_empty_tracks) {
    SceneSpec s = rich_scene(); // channel 1 has positions only
    WriterProfile p = WriterProfile::p5().with_shortened();
    Dump d = build_dump(s, p);
    BOOST_TEST(d.chunk("scene/animation[0]/channel[1]").length == 4u + 10 + 20 + 40);
    BOOST_TEST(d.chunk("scene/animation[0]/channel[0]").length == 4u + 6 + 20 + 40 + 48 + 40);
    assbin::Scene scene = round_trip(s, p);
    BOOST_TEST(!scene.animations[0].channels[1].rotations.bounds.has_value());
    BOOST_TEST(scene.animations[0].channels[0].positions.bounds->max.time == 48.0);
    WriterProfile pd = WriterProfile::p5_double().with_shortened();
    BOOST_TEST(build_dump(s, pd).chunk("scene/animation[0]/channel[0]").length == 4u + 6 + 20 + 48 + 56 + 48);
    round_trip(s, pd);
}

BOOST_AUTO_TEST_CASE(reads_shortened_textures_without_data) {
    SceneSpec s;
    s.textures = {compressed_texture("png", texels(100, 1)), argb_texture(4, 4, texels(64, 2), "")};
    WriterProfile p = WriterProfile::p1().with_shortened();
    Dump d = build_dump(s, p);
    BOOST_TEST(d.chunk("scene/texture[0]").length == 12u);
    round_trip(s, p);
}

BOOST_AUTO_TEST_CASE(reads_shortened_bounds_with_nan_as_written) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    MeshSpec m;
    m.positions = std::vector<F3>{{1, nan, 2}, {nan, 5, 3}, {-1, 2, nan}};
    m.normals = std::vector<F3>{{1, 1, 1}, {nan, nan, nan}};
    SceneSpec s = single_mesh_scene(m);
    assbin::Scene scene = round_trip(s, WriterProfile::p1().with_shortened());
    BOOST_TEST(std::isnan(scene.meshes[0].normals->bounds.min.x()));
    BOOST_TEST(scene.meshes[0].positions->bounds.min.x() == -1.0f);
}

// ---------------------------------------------------------------------------------------------
// Compressed dumps (§2).

BOOST_AUTO_TEST_CASE(reads_compressed_dump_with_old_prefix_compressed_length) {
    WriterProfile p = WriterProfile::p1().with_compression(Compression::OldPrefix);
    Dump d = build_dump(rich_scene(), p);
    BOOST_TEST(static_cast<uint8_t>(d.bytes[516]) == 0x78u);
    BOOST_TEST(static_cast<uint8_t>(d.bytes[517]) == 0xdau);
    assbin::Scene scene = round_trip(rich_scene(), p);
    BOOST_TEST(scene.header.compressed_prefix == d.bytes.size() - 516);
    BOOST_TEST((scene.header.prefix_meaning == assbin::CompressedPrefix::CompressedLength));
}

BOOST_AUTO_TEST_CASE(reads_compressed_dump_with_new_prefix_uncompressed_length) {
    for (WriterProfile p :
         {WriterProfile::p1_prime(), WriterProfile::p4(), WriterProfile::p5(), WriterProfile::p5_double()}) {
        p.with_compression(Compression::NewPrefix);
        BOOST_TEST_CONTEXT(p.label) {
            Dump d = build_dump(rich_scene(), p);
            assbin::Scene scene = round_trip(rich_scene(), p);
            BOOST_TEST(scene.header.compressed_prefix == d.body.size());
            BOOST_TEST((scene.header.prefix_meaning == assbin::CompressedPrefix::UncompressedLength));
        }
    }
}

BOOST_AUTO_TEST_CASE(reads_shortened_and_compressed_dump) {
    for (WriterProfile p : {WriterProfile::p1(), WriterProfile::p1_prime(), WriterProfile::p5()}) {
        p.with_shortened().with_compression(p.label == "P1" ? Compression::OldPrefix
                                                            : Compression::NewPrefix);
        BOOST_TEST_CONTEXT(p.label) {
            round_trip(rich_scene(), p);
        }
    }
}

BOOST_AUTO_TEST_CASE(reads_compressed_empty_scene) {
    round_trip(SceneSpec{}, WriterProfile::p5().with_compression(Compression::NewPrefix));
    round_trip(SceneSpec{}, WriterProfile::p1().with_compression(Compression::OldPrefix));
}

// ---------------------------------------------------------------------------------------------
// Unknown chunks are stepped over and reported.

BOOST_AUTO_TEST_CASE(skips_and_reports_unknown_chunks) {
    SceneSpec s = rich_scene();
    ByteWriter w;
    w.chunk(0x4242, texels(5, 0));
    s.after_root = w.bytes();
    ByteWriter tail;
    tail.chunk(0xdead0001u, {});
    tail.chunk(0x77, texels(3, 1));
    s.meshes[1].trailing = tail.bytes();
    s.trailing = w.bytes();
    WriterProfile p = WriterProfile::p5();
    Dump d = build_dump(s, p);
    assbin::Scene scene = read_dump(d.bytes);
    BOOST_TEST_REQUIRE(scene.skipped_chunks.size() == 4u);
    const auto& sk = scene.skipped_chunks;
    BOOST_TEST(sk[0].id == 0x4242u);
    BOOST_TEST(sk[0].length == 5u);
    BOOST_TEST(sk[0].path == "scene");
    BOOST_TEST(sk[0].offset == d.chunk("scene/node").end());
    BOOST_TEST(sk[1].id == 0xdead0001u);
    BOOST_TEST(sk[1].length == 0u);
    BOOST_TEST(sk[1].path == "scene/mesh[1]");
    BOOST_TEST(sk[1].offset == d.chunk("scene/mesh[1]").end() - 19);
    BOOST_TEST(sk[2].id == 0x77u);
    BOOST_TEST(sk[3].path == "scene");
    BOOST_TEST(sk[3].offset == d.chunk("scene").end() - 13);
    // Everything else reads as without them.
    SceneSpec clean = rich_scene();
    scene.skipped_chunks.clear();
    check_nodes(scene, clean, p);
    check_mesh(scene.meshes[1], clean.meshes[1], false);
    check_cameras(scene, clean);
}

BOOST_AUTO_TEST_CASE(skips_unknown_chunk_at_the_end_of_a_node) {
    SceneSpec s;
    s.root.children = {make_node("a", {}, {}, {{"k", 1, int32_t{5}}}), make_node("b")};
    ByteWriter w;
    w.chunk(0x9999, texels(16, 0));
    s.root.children[0].trailing = w.bytes();
    Dump d = build_dump(s, WriterProfile::p5());
    assbin::Scene scene = read_dump(d.bytes);
    BOOST_TEST_REQUIRE(scene.skipped_chunks.size() == 1u);
    BOOST_TEST(scene.skipped_chunks[0].path == "scene/node/node[0]");
    BOOST_TEST(scene.skipped_chunks[0].offset == d.chunk("scene/node/node[0]").end() - 24);
    BOOST_TEST(scene.nodes.size() == 3u);
    BOOST_TEST(scene.layout.node_metadata);
}

// ---------------------------------------------------------------------------------------------
// Damaged files: clear ParseErrors.

BOOST_AUTO_TEST_CASE(rejects_node_mesh_count_past_chunk_end) {
    SceneSpec s;
    s.root.declared_meshes = 1'000'000;
    Dump d = build_dump(s, WriterProfile::p5());
    const ChunkInfo& node = d.chunk("scene/node");
    expect_error(d.bytes, ErrorCode::Truncated, "scene/node", node.offset, node.end());
}

BOOST_AUTO_TEST_CASE(rejects_node_child_count_past_chunk_end) {
    SceneSpec s;
    s.root.children = {make_node("only")};
    s.root.declared_children = 0xffffffffu;
    Dump d = build_dump(s, WriterProfile::p5());
    const ChunkInfo& node = d.chunk("scene/node");
    expect_error(d.bytes, ErrorCode::Truncated, "scene/node", node.offset, node.end());
}

BOOST_AUTO_TEST_CASE(rejects_mesh_vertex_count_past_chunk_end) {
    MeshSpec m;
    m.positions = ramp3(3, 1);
    m.vertex_count = 0x40000000;
    Dump d = build_dump(single_mesh_scene(m), WriterProfile::p5());
    const ChunkInfo& mesh = d.chunk("scene/mesh[0]");
    expect_error(d.bytes, ErrorCode::Truncated, "scene/mesh[0]", mesh.offset, mesh.end());
}

BOOST_AUTO_TEST_CASE(rejects_mesh_face_count_past_chunk_end) {
    MeshSpec m;
    m.positions = ramp3(3, 1);
    m.faces = {{0, 1, 2}};
    m.declared_faces = 5;
    Dump d = build_dump(single_mesh_scene(m), WriterProfile::p5());
    const ChunkInfo& mesh = d.chunk("scene/mesh[0]");
    expect_error(d.bytes, ErrorCode::Truncated, "scene/mesh[0]", mesh.offset, mesh.end());
}

BOOST_AUTO_TEST_CASE(rejects_bone_weight_count_past_chunk_end) {
    MeshSpec m;
    m.positions = ramp3(3, 1);
    BoneSpec b;
    b.name = "b";
    b.weights = {{0, 1}};
    b.declared_weights = 0x20000000;
    m.bones = {b};
    Dump d = build_dump(single_mesh_scene(m), WriterProfile::p5());
    const ChunkInfo& bone = d.chunk("scene/mesh[0]/bone[0]");
    expect_error(d.bytes, ErrorCode::Truncated, "scene/mesh[0]/bone[0]", bone.offset, bone.end());
}

BOOST_AUTO_TEST_CASE(rejects_material_property_count_past_chunk_end) {
    SceneSpec s;
    MaterialSpec mat;
    mat.properties = {prop_ints("$i", {1})};
    mat.declared_properties = 100000;
    s.materials = {mat};
    Dump d = build_dump(s, WriterProfile::p5());
    const ChunkInfo& c = d.chunk("scene/material[0]");
    expect_error(d.bytes, ErrorCode::Truncated, "scene/material[0]", c.offset, c.end());
}

BOOST_AUTO_TEST_CASE(rejects_property_data_length_past_chunk_end) {
    SceneSpec s;
    MaterialSpec mat;
    mat.properties = {prop_ints("$i", {1})};
    mat.properties[0].declared_length = 4000;
    s.materials = {mat};
    Dump d = build_dump(s, WriterProfile::p5());
    const ChunkInfo& c = d.chunk("scene/material[0]/property[0]");
    expect_error(d.bytes, ErrorCode::Truncated, "scene/material[0]/property[0]", c.offset, c.end());
}

BOOST_AUTO_TEST_CASE(rejects_metadata_count_past_chunk_end) {
    SceneSpec s;
    s.root.children = {make_node("m", {}, {}, {{"k", 0, true}})};
    s.root.children[0].declared_metadata = 0x10000;
    Dump d = build_dump(s, WriterProfile::p5());
    // Neither layout fits; the error names the node either way.
    assbin::ParseError e = read_error(d.bytes);
    BOOST_TEST(e.chunk_path().starts_with("scene/node"));
    BOOST_TEST(e.offset() >= d.chunk("scene/node").offset);
    BOOST_TEST(e.offset() <= d.chunk("scene/node").end());
}

BOOST_AUTO_TEST_CASE(rejects_chunk_length_past_its_parent) {
    MeshSpec m;
    m.positions = ramp3(3, 1);
    SceneSpec s = single_mesh_scene(m);
    s.meshes[0].length_override = 100000;
    Dump d = build_dump(s, WriterProfile::p5());
    const ChunkInfo& mesh = d.chunk("scene/mesh[0]");
    expect_error(d.bytes, ErrorCode::BadLength, "scene", mesh.offset, mesh.offset);

    SceneSpec props;
    MaterialSpec mat;
    mat.properties = {prop_ints("$a", {1}), prop_ints("$b", {2})};
    props.materials = {mat};
    Dump dp = build_dump(props, WriterProfile::p5());
    // Make property[0] claim the rest of the material and more.
    const ChunkInfo& p0 = dp.chunk("scene/material[0]/property[0]");
    Bytes bytes = dp.bytes;
    const uint32_t too_long = p0.length + 200;
    std::memcpy(bytes.data() + p0.offset + 4, &too_long, 4);
    expect_error(bytes, ErrorCode::BadLength, "scene/material[0]", p0.offset, p0.offset);
}

BOOST_AUTO_TEST_CASE(rejects_child_node_length_past_its_parent) {
    SceneSpec s;
    s.root.children = {make_node("child")};
    s.root.children[0].length_override = 5000;
    Dump d = build_dump(s, WriterProfile::p5());
    const ChunkInfo& child = d.chunk("scene/node/node[0]");
    expect_error(d.bytes, ErrorCode::BadLength, "scene/node", child.offset, child.offset);
}

BOOST_AUTO_TEST_CASE(rejects_wrong_child_chunk_id) {
    SceneSpec s;
    s.root.children = {make_node("child")};
    s.root.children[0].chunk_id = chunk::kMesh;
    Dump d = build_dump(s, WriterProfile::p5());
    const ChunkInfo& child = d.chunk("scene/node/node[0]");
    expect_error(d.bytes, ErrorCode::BadChunk, "scene/node", child.offset, child.offset);

    MeshSpec m;
    m.positions = ramp3(3, 1);
    SceneSpec s2 = single_mesh_scene(m);
    s2.meshes[0].chunk_id = chunk::kMaterial;
    Dump d2 = build_dump(s2, WriterProfile::p5());
    const ChunkInfo& mesh = d2.chunk("scene/mesh[0]");
    expect_error(d2.bytes, ErrorCode::BadChunk, "scene", mesh.offset, mesh.offset);
}

BOOST_AUTO_TEST_CASE(rejects_scene_counts_past_chunk_end) {
    Dump d = build_dump(SceneSpec{}, WriterProfile::p5());
    Bytes bytes = d.bytes;
    const uint32_t huge = 0x7fffffff;
    std::memcpy(bytes.data() + d.chunk("scene").offset + 8 + 4 * 6, &huge, 4); // nCameras
    const ChunkInfo& scene = d.chunk("scene");
    expect_error(bytes, ErrorCode::Truncated, "scene", scene.offset, scene.end());
}

BOOST_AUTO_TEST_CASE(rejects_scene_counts_that_disagree_with_the_chunks) {
    // Two meshes declared, one written, then a material: the second MESH is a MATERIAL.
    SceneSpec s = rich_scene();
    Dump d = build_dump(s, WriterProfile::p5());
    Bytes bytes = d.bytes;
    const uint64_t scene_fields = d.chunk("scene").offset + 8;
    const uint32_t three = 3;
    std::memcpy(bytes.data() + scene_fields + 4, &three, 4);
    const ChunkInfo& mat = d.chunk("scene/material[0]");
    expect_error(bytes, ErrorCode::BadChunk, "scene", mat.offset, mat.offset);
}

// A crashed assimp_cmd <= 5.0.1 left the SCENE length at its placeholder 0x1239 = 4665 (§3, §11).
Bytes crashed_p1_file(const Dump& d, uint64_t cut_at,
                      std::optional<std::string> chunk_with_placeholder = {}) {
    Bytes body(d.body.begin(), d.body.begin() + static_cast<ptrdiff_t>(cut_at - 512));
    const uint32_t scene_placeholder = chunk::kScene;
    std::memcpy(body.data() + 4, &scene_placeholder, 4);
    if (chunk_with_placeholder) {
        const ChunkInfo& c = d.chunk(*chunk_with_placeholder);
        std::memcpy(body.data() + (c.offset - 512) + 4, &c.id, 4);
    }
    return assemble(WriterProfile::p1(), body);
}

// Over 4665 bytes before the second mesh: mesh 0 has 1000 positions and normals.
SceneSpec rich_scene_with_big_first_mesh() {
    SceneSpec s = rich_scene();
    s.meshes[0].positions = ramp3(1000, 0.5f);
    s.meshes[0].normals = ramp3(1000, 0.25f);
    s.meshes[0].tangents.reset();
    s.meshes[0].colors.clear();
    s.meshes[0].uvs.clear();
    return s;
}

BOOST_AUTO_TEST_CASE(rejects_truncated_dump_whose_scene_length_is_the_placeholder) {
    // The file is longer than 4665 bytes, so the placeholder is shorter than the content, as the
    // short SCENE lengths of §3 are: the cut shows up inside the mesh being written.
    SceneSpec s = rich_scene_with_big_first_mesh();
    Dump d = build_dump(s, WriterProfile::p1());
    const ChunkInfo& mesh = d.chunk("scene/mesh[0]");
    const uint64_t cut = mesh.offset + 8 + 24 + 12000 + 100; // inside the normals
    BOOST_TEST_REQUIRE(cut - 512 - 8 > uint64_t{chunk::kScene});
    assbin::ParseError e = read_error(crashed_p1_file(d, cut));
    BOOST_TEST(assbin::error_code_name(e.code()) == assbin::error_code_name(ErrorCode::Truncated));
    BOOST_TEST(e.chunk_path() == "scene/mesh[0]");
    BOOST_TEST(e.offset() >= mesh.offset + 8 + 24 + 12000);
    BOOST_TEST(e.offset() <= cut);
    BOOST_TEST(e.message().find("placeholder") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(rejects_crashed_writer_dump_cut_inside_a_texture) {
    // The HMP case of §11: the TEXTURE being written keeps its placeholder length too.
    SceneSpec s = rich_scene_with_big_first_mesh();
    s.textures = {compressed_texture("png", texels(6000, 0))};
    Dump d = build_dump(s, WriterProfile::p1());
    const ChunkInfo& tex = d.chunk("scene/texture[0]");
    BOOST_TEST_REQUIRE(tex.offset - 512 > uint64_t{chunk::kScene});
    assbin::ParseError e = read_error(crashed_p1_file(d, tex.offset + 100, "scene/texture[0]"));
    // The TEXTURE length runs past the file: a length that does not fit, or a cut file.
    BOOST_TEST((e.code() == ErrorCode::Truncated || e.code() == ErrorCode::BadLength));
    BOOST_TEST(e.chunk_path().starts_with("scene"));
    BOOST_TEST(e.offset() >= tex.offset);
    BOOST_TEST(e.offset() <= tex.offset + 100);
    BOOST_TEST(e.message().find("placeholder") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(rejects_small_crashed_dump_whose_placeholder_exceeds_the_file) {
    SceneSpec s;
    s.textures = {compressed_texture("png", texels(300, 0))};
    Dump d = build_dump(s, WriterProfile::p1());
    const ChunkInfo& tex = d.chunk("scene/texture[0]");
    Bytes file = crashed_p1_file(d, tex.offset + 100, "scene/texture[0]");
    assbin::ParseError e = read_error(file);
    BOOST_TEST((e.code() == ErrorCode::Truncated || e.code() == ErrorCode::BadLength));
    BOOST_TEST(e.offset() >= 512u);
    BOOST_TEST(e.offset() <= file.size());
    BOOST_TEST(e.message().find("placeholder") != std::string::npos);
}

// Assimp's loader reads the SCENE chunk by its length and never looks further, so a database file
// with bytes after it still loads: the reader reads past them and says so; strict reading refuses.
BOOST_AUTO_TEST_CASE(reads_past_trailing_bytes_after_the_scene_chunk_and_reports_them) {
    for (const WriterProfile& p : {WriterProfile::p5(), WriterProfile::p1(), WriterProfile::p2()}) {
        BOOST_TEST_CONTEXT(p.label) {
            Dump d = build_dump(rich_scene(), p);
            Bytes body = d.body;
            for (int i = 0; i < 7; ++i)
                body.push_back(std::byte{0});
            Bytes file = assemble(p, body);
            const assbin::Scene scene = read_dump(file);
            BOOST_TEST(scene.trailing_bytes == 7u);
            BOOST_TEST(scene.trailing_offset == 512 + d.body.size());
            BOOST_TEST(scene.meshes.size() == rich_scene().meshes.size());
            BOOST_TEST(read_dump(assemble(p, d.body)).trailing_bytes == 0u);
            assbin::ReadOptions strict;
            strict.refuse_trailing_bytes = true;
            expect_error(file, ErrorCode::BadLength, "scene", 512 + d.body.size(), 512 + d.body.size(),
                         strict);
        }
    }
}

BOOST_AUTO_TEST_CASE(rejects_trailing_bytes_inside_a_chunk) {
    SceneSpec s;
    s.cameras = rich_scene().cameras;
    Dump d = build_dump(s, WriterProfile::p5());
    // Grow the camera and SCENE lengths by 3 and insert 3 bytes at the camera's end.
    Bytes body = d.body;
    const ChunkInfo& cam = d.chunk("scene/camera[0]");
    body.insert(body.begin() + static_cast<ptrdiff_t>(cam.end() - 512), 3, std::byte{0x11});
    const uint32_t cam_len = cam.length + 3, scene_len = d.chunk("scene").length + 3;
    std::memcpy(body.data() + (cam.offset - 512) + 4, &cam_len, 4);
    std::memcpy(body.data() + 4, &scene_len, 4);
    expect_error(assemble(WriterProfile::p5(), body), ErrorCode::BadLength, "scene/camera[0]", cam.end(),
                 cam.end());
}

BOOST_AUTO_TEST_CASE(rejects_zlib_stream_that_inflates_to_less_than_declared) {
    WriterProfile p = WriterProfile::p5().with_compression(Compression::NewPrefix);
    Dump d = build_dump(rich_scene(), p);
    p.prefix_override = static_cast<uint32_t>(d.body.size() + 16);
    Bytes file = assemble(p, d.body);
    assbin::ParseError e = read_error(file);
    BOOST_TEST(assbin::error_code_name(e.code()) == assbin::error_code_name(ErrorCode::BadCompression));
    BOOST_TEST(e.offset() >= 512u);
    BOOST_TEST(e.offset() <= 516u);
}

BOOST_AUTO_TEST_CASE(rejects_zlib_stream_that_inflates_to_more_than_declared) {
    WriterProfile p = WriterProfile::p5().with_compression(Compression::NewPrefix);
    Dump d = build_dump(rich_scene(), p);
    p.prefix_override = static_cast<uint32_t>(d.body.size() - 16);
    assbin::ParseError e = read_error(assemble(p, d.body));
    BOOST_TEST(assbin::error_code_name(e.code()) == assbin::error_code_name(ErrorCode::BadCompression));
}

BOOST_AUTO_TEST_CASE(compressed_body_with_trailing_bytes_or_cut_short) {
    // The stream itself is fine, but the body it holds has trailing bytes, or ends early.
    WriterProfile p = WriterProfile::p1_prime().with_compression(Compression::NewPrefix);
    Dump d = build_dump(rich_scene(), p);
    Bytes longer = d.body; // a byte after the SCENE chunk inside the stream: read past, reported
    longer.push_back(std::byte{1});
    BOOST_TEST(read_dump(assemble(p, longer)).trailing_bytes == 1u);
    assbin::ReadOptions strict;
    strict.refuse_trailing_bytes = true;
    expect_error(assemble(p, longer), ErrorCode::BadLength, "scene", 512 + d.body.size(), 512 + d.body.size(),
                 strict);
    // Cut short: the last chunk declares more than is left (the reader reports a cut file as a
    // length that does not fit, BadLength, or as a field that does not fit, Truncated).
    Bytes shorter(d.body.begin(), d.body.end() - 10);
    assbin::ParseError e = read_error(assemble(p, shorter));
    BOOST_TEST((e.code() == ErrorCode::Truncated || e.code() == ErrorCode::BadLength));
    BOOST_TEST(e.offset() >= d.chunk("scene/camera[0]").offset);
    BOOST_TEST(e.offset() <= 512 + shorter.size());
}

BOOST_AUTO_TEST_CASE(rejects_corrupt_or_cut_zlib_streams) {
    for (Compression c : {Compression::OldPrefix, Compression::NewPrefix}) {
        WriterProfile p = WriterProfile::p5().with_compression(c);
        Dump d = build_dump(rich_scene(), p);
        BOOST_TEST_CONTEXT("prefix kind " << int(c)) {
            Bytes cut(d.bytes.begin(), d.bytes.end() - 9);
            if (c == Compression::OldPrefix) { // keep the prefix = stream length
                const uint32_t len = static_cast<uint32_t>(cut.size() - 516);
                std::memcpy(cut.data() + 512, &len, 4);
            }
            BOOST_TEST(assbin::error_code_name(read_error(cut).code()) ==
                       assbin::error_code_name(ErrorCode::BadCompression));
            Bytes garbage = d.bytes;
            for (size_t i = 540; i < 560; ++i)
                garbage[i] = std::byte{0xff};
            BOOST_TEST(assbin::error_code_name(read_error(garbage).code()) ==
                       assbin::error_code_name(ErrorCode::BadCompression));
            Bytes after = d.bytes;
            after.push_back(std::byte{0});
            after.push_back(std::byte{0});
            if (c == Compression::OldPrefix) {
                const uint32_t len = static_cast<uint32_t>(after.size() - 516);
                std::memcpy(after.data() + 512, &len, 4);
            }
            BOOST_TEST(assbin::error_code_name(read_error(after).code()) ==
                       assbin::error_code_name(ErrorCode::BadCompression));
        }
    }
}

BOOST_AUTO_TEST_CASE(rejects_inflated_body_over_the_size_limit) {
    WriterProfile p = WriterProfile::p1().with_compression(Compression::OldPrefix);
    Dump d = build_dump(rich_scene(), p);
    assbin::ReadOptions options;
    options.limits.max_inflated_bytes = d.body.size() / 2;
    BOOST_TEST(assbin::error_code_name(read_error(d.bytes, options).code()) ==
               assbin::error_code_name(ErrorCode::LimitExceeded));
    WriterProfile pn = WriterProfile::p5().with_compression(Compression::NewPrefix);
    Dump dn = build_dump(rich_scene(), pn);
    BOOST_TEST(assbin::error_code_name(read_error(dn.bytes, options).code()) ==
               assbin::error_code_name(ErrorCode::LimitExceeded));
    options.limits.max_inflated_bytes = dn.body.size();
    BOOST_CHECK_NO_THROW(read_dump(dn.bytes, options));
}

BOOST_AUTO_TEST_CASE(rejects_node_nesting_100000_deep_with_limit_exceeded) {
    for (const WriterProfile& p : {WriterProfile::p5(), WriterProfile::p2()}) {
        BOOST_TEST_CONTEXT(p.label) {
            Bytes file = assemble(p, deep_node_chain_body(100'000, p));
            assbin::ParseError e = read_error(file);
            BOOST_TEST(assbin::error_code_name(e.code()) ==
                       assbin::error_code_name(ErrorCode::LimitExceeded));
            BOOST_TEST(e.chunk_path().starts_with("scene/node/node[0]"));
        }
    }
}

BOOST_AUTO_TEST_CASE(accepts_node_nesting_up_to_the_limit) {
    WriterProfile p = WriterProfile::p5();
    assbin::ReadOptions options;
    options.limits.max_node_depth = 40;
    assbin::Scene scene = read_dump(assemble(p, deep_node_chain_body(40, p)), options);
    BOOST_TEST(scene.nodes.size() == 40u);
    BOOST_TEST(scene.nodes.back().parent == 38);
    assbin::ParseError e = read_error(assemble(p, deep_node_chain_body(41, p)), options);
    BOOST_TEST(assbin::error_code_name(e.code()) == assbin::error_code_name(ErrorCode::LimitExceeded));
    // The default limit takes 1024 levels.
    BOOST_TEST(read_dump(assemble(p, deep_node_chain_body(1024, p))).nodes.size() == 1024u);
}

BOOST_AUTO_TEST_CASE(rejects_texture_whose_length_fits_no_hint_width) {
    SceneSpec s;
    s.textures = {compressed_texture("png", texels(10, 0))};
    WriterProfile p = WriterProfile::p5();
    p.texture_hint_bytes = 6;
    Dump d = build_dump(s, p);
    const ChunkInfo& tex = d.chunk("scene/texture[0]");
    expect_error(d.bytes, ErrorCode::BadLength, "scene/texture[0]", tex.offset, tex.end());
}

BOOST_AUTO_TEST_CASE(rejects_light_whose_length_fits_no_layout) {
    SceneSpec s;
    s.lights = {rich_scene().lights[2]};
    Dump d = build_dump(s, WriterProfile::p5());
    Bytes body = d.body;
    const ChunkInfo& light = d.chunk("scene/light[0]");
    body.insert(body.begin() + static_cast<ptrdiff_t>(light.end() - 512), 4, std::byte{0});
    const uint32_t len = light.length + 4, scene_len = d.chunk("scene").length + 4;
    std::memcpy(body.data() + (light.offset - 512) + 4, &len, 4);
    std::memcpy(body.data() + 4, &scene_len, 4);
    expect_error(assemble(WriterProfile::p5(), body), ErrorCode::BadLength, "scene/light[0]", light.offset,
                 light.end() + 4);
}

BOOST_AUTO_TEST_CASE(rejects_bad_magic) {
    Dump d = build_dump(SceneSpec{}, WriterProfile::p5());
    Bytes bytes = d.bytes;
    bytes[0] = std::byte{'X'};
    BOOST_TEST(assbin::error_code_name(read_error(bytes).code()) ==
               assbin::error_code_name(ErrorCode::NotAssbin));
}

BOOST_AUTO_TEST_SUITE_END()
