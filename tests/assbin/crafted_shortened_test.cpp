// Shortened and compressed crafted dumps (ASSBIN-FORMAT.md §5, §7) and unknown chunks: bounds,
// face hashes, both compression prefixes, chunks the reader steps over and reports.
#include "support/crafted_scenes.hpp"

#include <zlib.h>

using namespace assbin_test;
using assbin::ErrorCode;

BOOST_AUTO_TEST_SUITE(crafted_shortened)

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

BOOST_AUTO_TEST_SUITE_END()
