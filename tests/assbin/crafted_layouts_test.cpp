// Crafted dumps of every chunk layout and writer profile (ASSBIN-FORMAT.md §4 - §6), written by
// the independent test-side builder and read back with assbin::read_scene field by field.
#include "support/crafted_scenes.hpp"

#include <zlib.h>

using namespace assbin_test;
using assbin::ErrorCode;

BOOST_AUTO_TEST_SUITE(crafted_layouts)

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

namespace {

// A read that leaves faces in the bytes (array_views) must see the faces a full read copies, and a
// structure-only read must accept the same bytes.
void check_faces_left_in_the_bytes(const SceneSpec& spec) {
    const Dump d = build_dump(spec, WriterProfile::p5());
    assbin::ReadOptions views, structure;
    views.array_views = true;
    structure.structure_only = true;
    const assbin::Scene full = read_dump(d.bytes), left = read_dump(d.bytes, views);
    BOOST_TEST(read_dump(d.bytes, structure).meshes.size() == 1u);
    std::vector<std::vector<uint32_t>> seen;
    left.meshes[0].faces.for_each(
        [&](size_t, std::span<const uint32_t> face) { seen.emplace_back(face.begin(), face.end()); });
    BOOST_TEST_REQUIRE(seen.size() == full.meshes[0].faces.size());
    for (size_t f = 0; f < seen.size(); ++f) {
        const auto face = full.meshes[0].faces.face(f);
        BOOST_TEST_REQUIRE((seen[f] == std::vector<uint32_t>(face.begin(), face.end())));
    }
}

} // namespace

// Face lists of one size are read in one pass that checks each count as it copies; a list that
// changes size partway, or whose size would run past the mesh, is read face by face from the start.
BOOST_AUTO_TEST_CASE(reads_face_lists_that_change_size_partway_in_both_index_widths) {
    for (const uint32_t vertices : {100u, 70000u}) {
        BOOST_TEST_CONTEXT(vertices << " vertices") {
            MeshSpec m;
            m.primitive_types = 0x4 | 0x8;
            m.positions = ramp3(vertices, 0.001f);
            for (uint32_t f = 0; f < 1000; ++f)
                m.faces.push_back({f % 97, (f + 1) % 97, vertices - 1 - f % 50});
            // A line and a quad after 1,000 triangles take the bytes of two triangles, so the list
            // looks like 1,002 triangles until the line's count is read.
            m.faces.push_back({9, 8});
            m.faces.push_back({1, 2, 3, 4});
            round_trip(single_mesh_scene(m), WriterProfile::p5()); // every face checked index by index
            check_faces_left_in_the_bytes(single_mesh_scene(m));
            // A quad after triangles, with bones after the faces (so more bytes follow them).
            m.faces.resize(999);
            m.faces.push_back({1, 2, 3, 4});
            m.faces.push_back({5, 6, 7});
            m.faces.push_back({});
            BoneSpec bone;
            bone.name = "after the faces";
            bone.weights = {{0, 1.0f}, {1, 0.5f}, {2, 0.25f}};
            m.bones = {bone};
            round_trip(single_mesh_scene(m), WriterProfile::p5());
            check_faces_left_in_the_bytes(single_mesh_scene(m));
        }
    }
}

BOOST_AUTO_TEST_CASE(reads_face_lists_of_one_size_with_exact_offsets) {
    MeshSpec m;
    m.primitive_types = 0x8;
    m.positions = ramp3(70000, 0.001f);
    for (uint32_t f = 0; f < 300; ++f)
        m.faces.push_back({f, f + 1, 69999 - f, 0x80000000u + f}); // quads, u32 indices kept as written
    const assbin::Scene scene = round_trip(single_mesh_scene(m), WriterProfile::p5());
    const assbin::FaceList& faces = scene.meshes[0].faces;
    BOOST_TEST_REQUIRE(faces.offsets.size() == 301u);
    for (uint32_t f = 0; f <= 300; ++f)
        BOOST_TEST_REQUIRE(faces.offsets[f] == 4 * f);
    BOOST_TEST(faces.indices.size() == 1200u);
}

BOOST_AUTO_TEST_CASE(a_face_list_of_one_size_cut_short_names_the_first_face_that_does_not_fit) {
    for (const uint32_t vertices : {100u, 70000u}) {
        MeshSpec m;
        m.positions = ramp3(vertices, 0.001f);
        for (uint32_t f = 0; f < 500; ++f)
            m.faces.push_back({0, 1, 2});
        m.declared_faces = 501; // one more than the mesh holds: the count of face 500 is missing
        const Dump d = build_dump(single_mesh_scene(m), WriterProfile::p5());
        assbin::ReadOptions views, structure;
        views.array_views = true;
        structure.structure_only = true;
        for (const assbin::ReadOptions& options : {assbin::ReadOptions{}, views, structure}) {
            const assbin::ParseError error = read_error(d.bytes, options);
            BOOST_TEST(error.code() == ErrorCode::Truncated);
            BOOST_TEST(error.chunk_path() == "scene/mesh[0]");
            BOOST_TEST(error.message().find("face 500: the index count") != std::string::npos);
            BOOST_TEST(error.offset() == d.chunk("scene/mesh[0]").end());
        }
    }
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

BOOST_AUTO_TEST_SUITE_END()
