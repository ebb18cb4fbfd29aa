// assbin::write against two independent oracles: Assimp's own files (the fixtures; the whole corpus
// is corpus_roundtrip's job) and the test-side dump builder, which was written from
// ASSBIN-FORMAT.md alone. Also the §5 hash and bounds rules, the header, the refusals and the
// atomic file output.
#include "support/crafted_scenes.hpp"
#include "support/data_test_case.hpp"
#include "support/dump_builder.hpp"
#include "support/fixtures.hpp"

#include <assbin/compare.hpp>
#include <assbin/format.hpp>
#include <assbin/reader.hpp>
#include <assbin/shortened.hpp>
#include <assbin/writer.hpp>

#include <boost/test/unit_test.hpp>

#include <zlib.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

namespace fs = std::filesystem;
using assbin_test::Bytes;
using assbin_test::F3;
using assbin_test::F4;
using assbin_test::fixture_bytes;
using assbin_test::ramp3;
using assbin_test::ramp4;
using assbin_test::read_dump;
using assbin_test::texels;

namespace {

// ---- helpers

Bytes inflate_body(std::span<const std::byte> file) {
    uint32_t prefix;
    std::memcpy(&prefix, file.data() + 512, 4);
    Bytes body(prefix);
    uLongf size = prefix;
    const int status =
        uncompress(reinterpret_cast<Bytef*>(body.data()), &size,
                   reinterpret_cast<const Bytef*>(file.data() + 516), static_cast<uLong>(file.size() - 516));
    BOOST_TEST_REQUIRE(status == Z_OK);
    body.resize(size);
    return body;
}

// The body of a dump image: after the header, inflated when compressed.
Bytes body_of(std::span<const std::byte> file) {
    BOOST_TEST_REQUIRE(file.size() >= 512u);
    if (static_cast<uint8_t>(file[62]) == 1) return inflate_body(file);
    return Bytes(file.begin() + 512, file.end());
}

// Where two bodies first differ, for a readable failure.
std::string first_difference(const Bytes& ours, const Bytes& theirs) {
    size_t at = 0;
    while (at < ours.size() && at < theirs.size() && ours[at] == theirs[at])
        ++at;
    if (at == ours.size() && at == theirs.size()) return "identical";
    return "first difference at body byte " + std::to_string(at) + " (sizes " + std::to_string(ours.size()) +
           ", " + std::to_string(theirs.size()) + ")";
}

#define CHECK_SAME_BODY(ours, theirs)                                                                        \
    do {                                                                                                     \
        const Bytes ours_ = (ours);                                                                          \
        const Bytes theirs_ = (theirs);                                                                      \
        BOOST_TEST(first_difference(ours_, theirs_) == "identical");                                         \
    } while (false)

assbin::WriteOptions as(bool shortened, bool compressed = false) {
    assbin::WriteOptions options;
    options.shortened = shortened;
    options.compressed = compressed;
    return options;
}

template <class T>
T load(const Bytes& bytes, size_t offset) {
    T value;
    std::memcpy(&value, bytes.data() + offset, sizeof value);
    return value;
}

// ---- a scene with something of every kind, for the dump builder (ramps and texels from
// support/crafted_scenes.hpp, shared with the crafted-variant tests)

assbin_test::MeshSpec every_stream_mesh() {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    assbin_test::MeshSpec mesh;
    mesh.material_index = 1;
    mesh.positions = ramp3(6, 0.5f);
    (*mesh.positions)[2][0] = -0.0f;
    mesh.normals = ramp3(6, -0.25f, 1.0f);
    (*mesh.normals)[3][1] = nan; // replaces the accumulator, then the next element replaces it
    (*mesh.normals)[5][2] = nan; // the last element: NaN stays in the bounds
    mesh.tangents = ramp3(6, 0.125f, 2.0f);
    mesh.bitangents = ramp3(6, 0.0625f, -3.0f);
    mesh.colors = {ramp4(6, 0.1f), ramp4(6, 0.05f)};
    mesh.uvs = {{2, ramp3(6, 0.2f)}, {3, ramp3(6, 0.3f, 0.5f)}};
    mesh.faces = {{0, 1, 2}, {}, {2, 1, 3}, {3, 4, 5, 0}, {7}};
    assbin_test::BoneSpec bone;
    bone.name = "bone0";
    bone.offset = {1, 0, 0, 0.5f, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    bone.weights = {{0, 1.0f}, {2, 0.5f}, {5, nan}, {1, 0.25f}};
    assbin_test::BoneSpec empty_bone;
    empty_bone.name = "no weights";
    mesh.bones = {bone, empty_bone};
    return mesh;
}

// 1100 faces: three hash blocks, the last one short.
assbin_test::MeshSpec many_faces_mesh() {
    assbin_test::MeshSpec mesh;
    mesh.primitive_types = 8;
    mesh.positions = ramp3(40, 1.5f);
    for (uint32_t f = 0; f < 1100; ++f) {
        std::vector<uint32_t> face;
        for (uint32_t k = 0; k < 3 + f % 4; ++k)
            face.push_back((f + k * 7) % 40);
        mesh.faces.push_back(face);
    }
    return mesh;
}

// 70000 vertices: u32 indices in the full dump.
assbin_test::MeshSpec wide_index_mesh() {
    assbin_test::MeshSpec mesh;
    mesh.positions = ramp3(70000, 0.001f);
    for (uint32_t f = 0; f < 600; ++f)
        mesh.faces.push_back({f * 100, f * 100 + 50, 69999 - f});
    return mesh;
}

std::vector<assbin_test::MatPropSpec> every_property() {
    return {
        assbin_test::prop_string("?mat.name", "plain"),
        assbin_test::prop_floats("$clr.diffuse", {0.25f, 0.5f, 0.75f, 1.0f}),
        assbin_test::prop_doubles("$mat.shininess", {12.5}),
        assbin_test::prop_ints("$mat.twosided", {1}),
        assbin_test::prop_buffer("$mat.blob", Bytes{std::byte{1}, std::byte{0}, std::byte{0xff}}),
        assbin_test::prop_string("$tex.file", "tex/a.png", 0x41, 1, 0), // non-zero terminator, kept
    };
}

assbin_test::AnimationSpec walk_animation() {
    assbin_test::AnimationSpec anim;
    anim.name = "walk";
    anim.duration = 48.0;
    anim.ticks_per_second = 24.0;
    assbin_test::ChannelSpec c0;
    c0.node_name = "child0";
    c0.pre_state = 1;
    c0.post_state = 3;
    c0.positions = {{0.0, {0, 0, 0}}, {12.0, {1, 2, 3}}, {48.0, {-1, 0.5f, 2}}};
    c0.rotations = {{0.0, {1, 0, 0, 0}}, {24.0, {0.70710677f, 0, 0.70710677f, 0}}};
    c0.scalings = {{0.0, {1, 1, 1}}, {48.0, {2, 2, 0.5f}}};
    assbin_test::ChannelSpec c1; // no rotation or scaling keys: no bounds for them when shortened
    c1.node_name = "grandchild";
    c1.positions = {{5.0, {9, 8, 7}}};
    anim.channels = {c0, c1};
    return anim;
}

// `placement`: lights with position/direction/up (only 5.2.5+ layouts store them).
assbin_test::SceneSpec oracle_scene(bool placement) {
    using assbin_test::make_node;
    assbin_test::SceneSpec s;
    s.flags = 0x8;
    s.root = make_node("root", {}, {},
                       {{"flag", 0, true},
                        {"count", 1, int32_t{-42}},
                        {"big", 2, uint64_t{0x1234567890abcdefULL}},
                        {"ratio", 3, 0.75f},
                        {"precise", 4, 3.141592653589793},
                        {"label", 5, std::string("hello \xc3\xa9")},
                        {"offset", 6, F3{1.5f, -2.25f, 1e-3f}},
                        {"extras", 7, std::monostate{}}});
    s.root.children = {
        make_node("child0", {0, 3}),
        make_node("child1", {1}, {make_node("grandchild", {2}, {}, {{"depth", 1, int32_t{2}}})})};
    assbin_test::MeshSpec empty;
    empty.vertex_count = 0;
    empty.positions = std::vector<F3>{}; // positions flag set, no vertices: the empty bounds
    s.meshes = {every_stream_mesh(), many_faces_mesh(), wide_index_mesh(), empty};
    assbin_test::MaterialSpec second;
    second.properties = {assbin_test::prop_string("?mat.name", "second")};
    s.materials = {{every_property(), std::nullopt}, second};
    s.animations = {walk_animation()};
    s.textures = {assbin_test::compressed_texture("png", texels(37, 0x89)),
                  assbin_test::argb_texture(2, 3, texels(24, 3), "")};
    const assbin_test::SceneSpec rich = assbin_test::rich_scene(); // six light types, a camera
    s.lights = rich.lights;
    if (!placement) {
        for (assbin_test::LightSpec& light : s.lights)
            light.position = light.direction = light.up = F3{};
    }
    s.cameras = rich.cameras;
    return s;
}

void strip_metadata(assbin_test::NodeSpec& node) {
    node.metadata.clear();
    for (assbin_test::NodeSpec& child : node.children)
        strip_metadata(child);
}

// Expects write() to throw WriteError at `path` (any path when empty); returns the message.
std::string write_refusal(const assbin::Scene& scene, const assbin::WriteOptions& options,
                          const std::string& path) {
    try {
        assbin::write(scene, options);
    } catch (const assbin::WriteError& error) {
        BOOST_TEST_MESSAGE("WriteError: " << error.what());
        if (!path.empty()) BOOST_TEST(error.path() == path);
        return error.message();
    }
    BOOST_FAIL("write() accepted a scene it cannot store");
    return {};
}

const char* const kFullFixtures[] = {
    "assimp-5.2.5/Collada__box_nested_animation.dae.assbin",
    "assimp-5.2.5/Collada__lights.dae.assbin",
    "assimp-5.2.5/FBX__huesitos.fbx.assbin",
    "assimp-5.2.5/MDL__MDL-HL1__duplicate_submodels.mdl.assbin",
    "assimp-5.2.5/OBJ__box.obj.tri.assbin",
    "assimp-5.2.5/OBJ__box_UTF16BE.obj.assbin",
    "assimp-5.2.5/OFF__invalid.off.assbin",
    "assimp-5.2.5/OpenGEX__camera.ogex.assbin",
    "assimp-5.2.5/PLY__cube_binary_starts_with_nl.ply.assbin",
    "assimp-5.2.5/PLY__payload_JVN42386607.assbin",
    "assimp-5.2.5/SMD__triangle.smd.assbin",
    "assimp-5.2.5/STL__triangle_with_empty_solid.stl.assbin",
    "assimp-5.2.5/X__anim_test.x.assbin",
    "assimp-5.2.5/generated__node_extras_metadata.gltf.assbin",
    "assimp-5.2.5/generated__uv1d_scalar_texcoord.gltf.assbin",
    "assimp-5.2.5/glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin",
    "assimp-5.2.5/glTF2__simple_skin__simple_skin.gltf.assbin",
};

// Full dumps and the shortened dumps Assimp's own writer made from the same import.
const char* const kTwins[][2] = {
    {"assimp-5.2.5/FBX__huesitos.fbx.assbin", "assimp-5.2.5/FBX__huesitos.fbx.assbin.regress"},
    {"assimp-5.2.5/SMD__triangle.smd.assbin", "assimp-5.2.5/SMD__triangle.smd.assbin.regress"},
    {"assimp-5.2.5/generated__node_extras_metadata.gltf.assbin",
     "assimp-5.2.5/generated__node_extras_metadata.gltf.assbin.regress"},
    {"assimp-5.2.5/glTF2__simple_skin__simple_skin.gltf.assbin",
     "assimp-5.2.5/glTF2__simple_skin__simple_skin.gltf.assbin.regress"},
};

} // namespace

BOOST_AUTO_TEST_SUITE(writer)

// ---- §5 rules

BOOST_AUTO_TEST_CASE(super_fast_hash_matches_the_format_test_vectors) {
    BOOST_TEST(assbin::super_fast_hash_u32(3, 0) == 0x95f4fd58u);
    const auto hashes = [](std::vector<std::vector<uint32_t>> faces) {
        assbin::FaceList list;
        for (const auto& face : faces) {
            list.offsets.push_back(static_cast<uint32_t>(list.indices.size()));
            list.indices.insert(list.indices.end(), face.begin(), face.end());
        }
        if (!faces.empty()) list.offsets.push_back(static_cast<uint32_t>(list.indices.size()));
        return assbin::face_hashes(list);
    };
    BOOST_TEST(hashes({{0, 1, 2}}) == std::vector<uint32_t>{0xe3f59cdbu}, boost::test_tools::per_element());
    BOOST_TEST(hashes({{0, 1, 2}, {2, 1, 3}}) == std::vector<uint32_t>{0x7a250f0du},
               boost::test_tools::per_element());
    BOOST_TEST(hashes({{0, 1, 2, 3}}) == std::vector<uint32_t>{0x88e86e55u},
               boost::test_tools::per_element());
    BOOST_TEST(hashes(std::vector<std::vector<uint32_t>>(1025, {0, 1, 2})) ==
                   (std::vector<uint32_t>{0xbc3caa45u, 0xbc3caa45u, 0xe3f59cdbu}),
               boost::test_tools::per_element());
    BOOST_TEST(hashes({}).empty());
    BOOST_TEST(assbin::face_hash_count(0) == 0u);
    BOOST_TEST(assbin::face_hash_count(512) == 1u);
    BOOST_TEST(assbin::face_hash_count(513) == 2u);
}

BOOST_AUTO_TEST_CASE(super_fast_hash_of_any_length_matches_the_builder) {
    // Every tail case (1, 2, 3 bytes), with bytes >= 0x80 read as signed chars like Hash.h.
    const Bytes data = texels(11, 0xF3);
    for (size_t length = 0; length <= data.size(); ++length) {
        const std::span<const std::byte> part(data.data(), length);
        BOOST_TEST(assbin::super_fast_hash(part, 0x1234u) == assbin_test::super_fast_hash(part, 0x1234u),
                   "length " << length);
    }
    for (uint32_t value : {0u, 1u, 0xFFFFu, 0x10000u, 0x80000000u, 0xFFFFFFFFu}) {
        BOOST_TEST(assbin::super_fast_hash_u32(value, 77) == assbin_test::sfh_u32(value, 77));
    }
}

BOOST_AUTO_TEST_CASE(bounds_follow_assimps_array_bounds_rules) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const auto empty = assbin::compute_bounds(std::span<const assbin::Vec3>());
    BOOST_TEST(empty.min.x() == 1e10f);
    BOOST_TEST(empty.max.z() == -1e10f);
    const std::vector<assbin::Vec3> values{{1, 5, nan}, {-2, 7, 3}, {4, -1, 2}};
    const auto b = assbin::compute_bounds(std::span<const assbin::Vec3>(values));
    BOOST_TEST(b.min.x() == -2.0f);
    BOOST_TEST(b.max.y() == 7.0f);
    BOOST_TEST(b.min.z() == 2.0f); // NaN replaced the accumulator, the next element replaced the NaN
    BOOST_TEST(b.max.z() == 3.0f);
    const std::vector<assbin::Vec3> trailing_nan{{1, 1, 1}, {nan, 0, 0}};
    BOOST_TEST(std::isnan(assbin::compute_bounds(std::span<const assbin::Vec3>(trailing_nan)).min.x()));
    const std::vector<assbin::Vec3> zeros{{0.0f, 0, 0}, {-0.0f, 0, 0}};
    BOOST_TEST(std::signbit(assbin::compute_bounds(std::span<const assbin::Vec3>(zeros)).min.x()));

    const auto no_weights = assbin::compute_bounds(std::span<const assbin::VertexWeight>());
    BOOST_TEST(no_weights.min.vertex == 0x80000000u);
    BOOST_TEST(no_weights.max.vertex == 0u);
    BOOST_TEST(no_weights.min.weight == 1e10f);
    const std::vector<assbin::VertexWeight> weights{{0x90000000u, 0.5f}, {3, 0.25f}};
    const auto w = assbin::compute_bounds(std::span<const assbin::VertexWeight>(weights));
    BOOST_TEST(w.min.vertex == 3u); // unsigned comparison against the 0x80000000 start
    BOOST_TEST(w.max.vertex == 0x90000000u);

    const std::vector<assbin::QuaternionKey> keys{{2.0, assbin::Quaternion(1, 0, -1, 0.5f)},
                                                  {-1.0, assbin::Quaternion(0.5f, 2, 0, 0)}};
    const auto k = assbin::compute_bounds(std::span<const assbin::QuaternionKey>(keys));
    BOOST_TEST(k.min.time == -1.0);
    BOOST_TEST(k.max.time == 2.0);
    BOOST_TEST(k.min.value.w() == 0.5f);
    BOOST_TEST(k.max.value.x() == 2.0f);
    BOOST_TEST(k.min.value.y() == -1.0f);
    BOOST_TEST(k.max.value.z() == 0.5f);
}

// ---- the independent builder as oracle

BOOST_AUTO_TEST_CASE(writes_a_crafted_scene_byte_identical_to_the_builder_full_and_shortened) {
    const assbin_test::SceneSpec spec = oracle_scene(true);
    const assbin_test::Dump full = assbin_test::build_dump(spec, assbin_test::WriterProfile::p5());
    const assbin_test::Dump shortened =
        assbin_test::build_dump(spec, assbin_test::WriterProfile::p5().with_shortened());
    const assbin::Scene scene = read_dump(full.bytes);
    CHECK_SAME_BODY(body_of(assbin::write(scene, as(false))), full.body);
    CHECK_SAME_BODY(body_of(assbin::write(scene, as(true))), shortened.body); // bounds and hashes computed
    CHECK_SAME_BODY(body_of(assbin::write(read_dump(shortened.bytes), as(true))), shortened.body);
    CHECK_SAME_BODY(body_of(assbin::write(scene, as(false, true))), full.body);
}

BOOST_AUTO_TEST_CASE(rewrites_every_older_layout_as_the_current_one) {
    // Lights without placement and short hints: what every layout can hold. Layouts without node
    // metadata (P1, P2) lose it, so their current-layout twin has none either.
    using assbin_test::WriterProfile;
    for (WriterProfile profile :
         {WriterProfile::p1(), WriterProfile::p1_prime(), WriterProfile::p2(), WriterProfile::p3(),
          WriterProfile::p4(), WriterProfile::p4_double(), WriterProfile::p5_double()}) {
        BOOST_TEST_CONTEXT(profile.label) {
            const assbin_test::SceneSpec spec = oracle_scene(false);
            assbin_test::SceneSpec current_spec = spec;
            if (!profile.node_metadata) strip_metadata(current_spec.root);
            const assbin_test::Dump current = assbin_test::build_dump(current_spec, WriterProfile::p5());
            const assbin_test::Dump current_short =
                assbin_test::build_dump(current_spec, WriterProfile::p5().with_shortened());
            const assbin::Scene old = read_dump(assbin_test::build_dump(spec, profile).bytes);
            CHECK_SAME_BODY(body_of(assbin::write(old, as(false))), current.body);
            CHECK_SAME_BODY(body_of(assbin::write(old, as(true))), current_short.body);
            if (profile.label.rfind("P1", 0) == 0) { // assimp_cmd <= 5.0.1 also wrote shortened dumps
                const assbin::Scene old_short =
                    read_dump(assbin_test::build_dump(spec, profile.with_shortened()).bytes);
                CHECK_SAME_BODY(body_of(assbin::write(old_short, as(true))), current_short.body);
            }
        }
    }
}

// ---- Assimp's own files as oracle

BOOST_AUTO_TEST_CASE(full_fixtures_rewrite_byte_identical_after_the_header) {
    for (const char* name : kFullFixtures) {
        BOOST_TEST_CONTEXT(name) {
            const Bytes file = fixture_bytes(name);
            const assbin::Scene scene = read_dump(file);
            CHECK_SAME_BODY(body_of(assbin::write(scene, as(false))), body_of(file));
            CHECK_SAME_BODY(body_of(assbin::write(scene, as(false, true))), body_of(file));
        }
    }
}

BOOST_AUTO_TEST_CASE(compressed_fixtures_rewrite_to_a_body_that_inflates_the_same) {
    for (const char* name :
         {"assimp-5.2.5/Collada__lights.dae.z.assbin", "assimp-5.2.5/SMD__triangle.smd.z.assbin",
          "assimp-5.2.5/LWO__LWO2__box_2vc_1unused.lwo.z.assbin"}) {
        BOOST_TEST_CONTEXT(name) {
            const Bytes file = fixture_bytes(name);
            const Bytes ours = assbin::write(read_dump(file), as(false, true));
            BOOST_TEST(load<uint16_t>(ours, 62) == 1u);
            BOOST_TEST(load<uint32_t>(ours, 512) == body_of(file).size()); // prefix: the body length
            BOOST_TEST(static_cast<uint8_t>(ours[516]) == 0x78u);          // zlib, level 9: 78 DA
            BOOST_TEST(static_cast<uint8_t>(ours[517]) == 0xDAu);
            CHECK_SAME_BODY(body_of(ours), body_of(file));
        }
    }
}

BOOST_AUTO_TEST_CASE(full_fixtures_shorten_to_assimps_own_shortened_twins) {
    for (const auto& [full, twin] : kTwins) {
        BOOST_TEST_CONTEXT(full) {
            const assbin::Scene scene = read_dump(fixture_bytes(full));
            const Bytes ours = assbin::write(scene, as(true));
            BOOST_TEST(load<uint16_t>(ours, 60) == 1u);
            CHECK_SAME_BODY(body_of(ours), body_of(fixture_bytes(twin)));
        }
    }
}

BOOST_AUTO_TEST_CASE(shortened_fixtures_rewrite_byte_identical) {
    for (const char* name :
         {"assimp-5.2.5/FBX__huesitos.fbx.assbin.regress", "assimp-5.2.5/HMP__terrain.hmp.assbin.regress",
          "assimp-5.2.5/PLY__pond.0.ply.assbin.regress", "assimp-5.2.5/SMD__triangle.smd.assbin.regress",
          "assimp-5.2.5/generated__node_extras_metadata.gltf.assbin.regress",
          "assimp-5.2.5/glTF2__simple_skin__simple_skin.gltf.assbin.regress"}) {
        BOOST_TEST_CONTEXT(name) {
            const Bytes file = fixture_bytes(name);
            CHECK_SAME_BODY(body_of(assbin::write(read_dump(file), as(true))), body_of(file));
        }
    }
}

// The fixtures written by older Assimp releases (every one but assimp-5.2.5/).
std::vector<std::string> older_fixtures() {
    std::vector<std::string> names;
    for (const std::string& name : assbin_test::all_assbin_fixtures())
        if (name.rfind("assimp-5.2.5/", 0) != 0) names.push_back(name);
    return names;
}

BOOST_DATA_TEST_CASE(old_layout_fixtures_come_out_in_the_current_layout_and_read_back_equal,
                     assbin_test::fixtures(older_fixtures()), name) {
    const assbin::Scene old = read_dump(fixture_bytes(name));
    const assbin::Scene again = read_dump(assbin::write(old, as(old.is_shortened())));
    BOOST_TEST(again.layout.node_metadata);
    BOOST_TEST(!again.layout.mixed_double);
    BOOST_TEST(again.layout.exact_mesh_lengths);
    if (!again.textures.empty()) BOOST_TEST(again.layout.texture_hint_bytes == 8u);
    if (!again.lights.empty()) BOOST_TEST(again.layout.light_placement.value_or(false));
    assbin::CompareOptions exact;
    exact.epsilon = 0;
    const assbin::CompareResult result = assbin::compare(again, old, exact);
    BOOST_TEST(result.total == 0u);
    for (const assbin::Difference& d : result.differences)
        BOOST_TEST_MESSAGE(d.path << ": " << d.expected << " vs " << d.actual);
}

BOOST_AUTO_TEST_CASE(make_shortened_matches_what_the_shortened_dump_reads_back_as) {
    const assbin::Scene full =
        read_dump(fixture_bytes("assimp-5.2.5/glTF2__simple_skin__simple_skin.gltf.assbin"));
    const assbin::Scene derived = assbin::make_shortened(full);
    BOOST_TEST(derived.is_shortened());
    BOOST_TEST(derived.meshes[0].positions->values.empty());
    BOOST_TEST(derived.meshes[0].face_hashes.size() == assbin::face_hash_count(full.meshes[0].face_count));
    assbin::CompareOptions exact;
    exact.epsilon = 0;
    const assbin::Scene written = read_dump(assbin::write(full, as(true)));
    BOOST_TEST(assbin::compare(derived, written, exact).total == 0u);
    // Bitwise too: a rewrite of the derived scene gives the same bytes.
    CHECK_SAME_BODY(body_of(assbin::write(derived, as(true))), body_of(assbin::write(full, as(true))));
}

// ---- header

BOOST_AUTO_TEST_CASE(asctime_utc_gives_the_25_characters_of_asctime) {
    // 2015-01-03 10:20:30 UTC
    const auto time = std::chrono::system_clock::from_time_t(1420280430);
    BOOST_TEST(assbin::asctime_utc(time) == "Sat Jan  3 10:20:30 2015\n");
    BOOST_TEST(assbin::asctime_utc(std::chrono::system_clock::from_time_t(0)) ==
               "Thu Jan  1 00:00:00 1970\n");
}

BOOST_AUTO_TEST_CASE(header_fields_hold_the_documented_values) {
    const assbin::Scene scene = read_dump(fixture_bytes("assimp-5.2.5/SMD__triangle.smd.assbin"));
    assbin::WriteOptions options = as(true, true);
    options.time = std::chrono::system_clock::from_time_t(1420280430);
    options.source_name = std::string(254, 'n') + "\xc3\xa9"; // 256 bytes: the é must not be cut in two
    options.command = "-b -s -z ";
    options.revision = 0x1234abcd;
    options.compile_flags = 0x11;
    const Bytes file = assbin::write(scene, options);
    BOOST_TEST(std::string(reinterpret_cast<const char*>(file.data()), 44) ==
               "ASSIMP.binary-dump.Sat Jan  3 10:20:30 2015\n");
    BOOST_TEST(load<uint32_t>(file, 44) == 1u);
    BOOST_TEST(load<uint32_t>(file, 48) == 0u);
    BOOST_TEST(load<uint32_t>(file, 52) == 0x1234abcdu);
    BOOST_TEST(load<uint32_t>(file, 56) == 0x11u);
    BOOST_TEST(load<uint16_t>(file, 60) == 1u);
    BOOST_TEST(load<uint16_t>(file, 62) == 1u);
    const assbin::Header header = assbin::read_header(file);
    BOOST_TEST(header.source_name == std::string(254, 'n')); // cut at a character boundary, then NUL
    BOOST_TEST(header.command == "-b -s -z ");
    for (size_t i = 448; i < 512; ++i)
        BOOST_TEST(static_cast<uint8_t>(file[i]) == 0xCDu);
    BOOST_TEST(static_cast<uint8_t>(file[64 + 255]) == 0u);

    assbin::WriteOptions long_command;
    long_command.command = std::string(300, 'c');
    const Bytes cut = assbin::write(scene, long_command);
    BOOST_TEST(assbin::read_header(cut).command == std::string(127, 'c'));
    BOOST_TEST(load<uint32_t>(cut, 52) == 0u); // defaults: no revision, no compile flags
    BOOST_TEST(load<uint32_t>(cut, 56) == 0u);
}

// ---- refusals

BOOST_AUTO_TEST_CASE(refuses_to_write_a_shortened_scene_as_full_and_says_why) {
    const assbin::Scene shortened = read_dump(fixture_bytes("assimp-5.2.5/FBX__huesitos.fbx.assbin.regress"));
    const std::string message = write_refusal(shortened, as(false), "scene");
    BOOST_TEST(message.find("shortened") != std::string::npos);
    BOOST_TEST(message.find("bounds and face hashes") != std::string::npos);
    BOOST_TEST_REQUIRE(message.find("only be written shortened") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(refuses_scenes_a_dump_cannot_hold_naming_the_scene_path) {
    const assbin::Scene base = read_dump(fixture_bytes("assimp-5.2.5/FBX__huesitos.fbx.assbin"));
    {
        assbin::Scene scene = base;
        scene.meshes[0].positions->values.pop_back();
        BOOST_TEST(write_refusal(scene, as(false), "scene/mesh[0]").find("positions holds 255") == 0u);
        write_refusal(scene, as(true), "scene/mesh[0]"); // shortening needs consistent arrays too
    }
    {
        assbin::Scene scene = base;
        scene.meshes[0].faces.indices[scene.meshes[0].faces.offsets[7]] = 70000;
        BOOST_TEST(write_refusal(scene, as(false), "scene/mesh[0]/faces[7]").find("16 bits") !=
                   std::string::npos);
    }
    {
        assbin::Scene scene = base;
        size_t bone = 0;
        while (scene.meshes[0].bones[bone].weights.empty())
            ++bone;
        scene.meshes[0].bones[bone].weights.pop_back();
        write_refusal(scene, as(false), "scene/mesh[0]/bone[" + std::to_string(bone) + "]");
    }
    {
        assbin::Scene scene = base;
        scene.meshes[0].bitangents.reset(); // the file stores tangents and bitangents as a pair
        write_refusal(scene, as(false), "scene/mesh[0]");
    }
    {
        assbin::Scene scene;
        scene.nodes.resize(2);
        scene.nodes[0].children = {1, 1}; // node 1 twice: not a tree
        BOOST_TEST(write_refusal(scene, as(false), "scene/node/node[1]").find("second time") !=
                   std::string::npos);
        scene.nodes[0].children = {1, 5};
        BOOST_TEST(write_refusal(scene, as(false), "scene/node/node[1]").find("2 nodes") !=
                   std::string::npos);
        scene.nodes[0].children = {};
        BOOST_TEST(write_refusal(scene, as(false), "scene").find("not reached") != std::string::npos);
    }
    {
        assbin::Scene scene = base;
        scene.nodes[0].metadata.push_back({"mismatch", 1, std::string("not an int")});
        write_refusal(scene, as(false),
                      "scene/node/metadata[" + std::to_string(scene.nodes[0].metadata.size() - 1) + "]");
    }
    {
        assbin::Scene scene = base;
        scene.animations[0].channels[0].positions.keys.pop_back();
        write_refusal(scene, as(false), "scene/animation[0]/channel[0]");
    }
    {
        assbin::Scene scene = read_dump(
            fixture_bytes("assimp-5.2.5/glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin"));
        scene.textures[0].format_hint = "too long hint";
        write_refusal(scene, as(false), "scene/texture[0]");
        scene.textures[0].format_hint = "png";
        scene.textures[0].data.pop_back();
        write_refusal(scene, as(false), "scene/texture[0]");
    }
    {
        assbin::Scene scene = base;
        scene.nodes.clear();
        write_refusal(scene, as(false), "scene");
    }
    {
        assbin::Scene scene = read_dump(fixture_bytes("assimp-5.2.5/FBX__huesitos.fbx.assbin.regress"));
        scene.meshes[0].face_hashes.push_back(0);
        write_refusal(scene, as(true), "scene/mesh[0]");
    }
    assbin::WriteOptions double_flag;
    double_flag.compile_flags = 0x20;
    write_refusal(base, double_flag, "header");
    assbin::WriteOptions bad_level = as(false, true);
    bad_level.compression_level = 12;
    write_refusal(base, bad_level, "");
}

// ---- files

BOOST_AUTO_TEST_CASE(write_file_replaces_atomically_and_leaves_no_temporary_file) {
    const assbin_test::TempDir temp;
    const fs::path out = temp.path() / "out.assbin";
    {
        std::ofstream old(out, std::ios::binary);
        old << "previous content";
    }
    const assbin::Scene scene = read_dump(fixture_bytes("assimp-5.2.5/SMD__triangle.smd.assbin"));
    assbin::write_file(scene, out);
    const Bytes written = assbin::load_file_bytes(out);
    CHECK_SAME_BODY(body_of(written), body_of(fixture_bytes("assimp-5.2.5/SMD__triangle.smd.assbin")));
    size_t entries = 0;
    for (const auto& entry : fs::directory_iterator(temp.path())) {
        ++entries;
        BOOST_TEST(entry.path().filename() == "out.assbin");
    }
    BOOST_TEST(entries == 1u);

    const fs::path nowhere = temp.path() / "no such folder" / "x.assbin";
    try {
        assbin::write_file(scene, nowhere);
        BOOST_FAIL("write_file wrote into a missing folder");
    } catch (const assbin::WriteError& error) {
        BOOST_TEST(error.path() == nowhere.string());
        BOOST_TEST(error.message().find("temporary file") != std::string::npos);
    }
    BOOST_TEST(!fs::exists(nowhere));

    // A scene the writer refuses leaves the existing file untouched.
    assbin::Scene broken = scene;
    broken.nodes.clear();
    BOOST_CHECK_THROW(assbin::write_file(broken, out), assbin::WriteError);
    BOOST_TEST((assbin::load_file_bytes(out) == written));
}

BOOST_AUTO_TEST_SUITE_END()
