// Damaged crafted dumps: counts and lengths past their chunk, wrong chunk ids, crashed writers,
// trailing bytes, bad zlib streams, limits; each refused with its code, chunk path and offset.
#include "support/crafted_scenes.hpp"

#include <zlib.h>

using namespace assbin_test;
using assbin::ErrorCode;

BOOST_AUTO_TEST_SUITE(crafted_damaged)

// ---------------------------------------------------------------------------------------------
// Damaged files: clear ParseErrors. Counts past their chunk, a child node longer than its parent and
// a 100,000-deep node chain are tests/hostile/reader_attacks_test.cpp's cases (with the offset and
// heap checks); these are the damages only a crafted layout can make.

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
    // Said as what it is: the sizes, not "corrupt".
    BOOST_TEST(e.message().find("the stream inflates to") != std::string::npos, e.message());
    BOOST_TEST(e.message().find("bytes, but the size prefix declares") != std::string::npos, e.message());
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
            // A cut stream is told from a corrupt one: Truncated, saying so.
            const assbin::ParseError cut_error = read_error(cut);
            BOOST_TEST(assbin::error_code_name(cut_error.code()) ==
                       assbin::error_code_name(ErrorCode::Truncated));
            BOOST_TEST(cut_error.message().find("the compressed stream is cut short") != std::string::npos);
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
            // Bytes after the stream are a finding, as bytes after a plain dump's SCENE are; --strict
            // refuses both.
            const assbin::Scene read_past = read_dump(after);
            BOOST_TEST(read_past.bytes_after_stream == 2u);
            BOOST_TEST(read_past.bytes_after_stream_offset == after.size() - 2);
            assbin::ReadOptions strict;
            strict.refuse_trailing_bytes = true;
            const assbin::ParseError refused = read_error(after, strict);
            BOOST_TEST(assbin::error_code_name(refused.code()) ==
                       assbin::error_code_name(ErrorCode::BadLength));
            BOOST_TEST(refused.offset() == after.size() - 2);
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

// A path a thousand nodes deep reads as its first and last steps with the count between them in the
// error's text (not 10 KB of "node[0]/"); chunk_path() keeps every step for programs.
BOOST_AUTO_TEST_CASE(an_error_deep_in_the_tree_names_its_path_in_a_line) {
    WriterProfile p = WriterProfile::p5();
    const assbin::ParseError e = read_error(assemble(p, deep_node_chain_body(1025, p)));
    const std::string text = e.what();
    BOOST_TEST(text.find("in scene/node/node[0]/... 1,021 more node[0] .../node[0]: nodes nest deeper") !=
                   std::string::npos,
               text);
    BOOST_TEST(text.size() < 200u);
    size_t steps = 0;
    for (size_t at = e.chunk_path().find("node[0]"); at != std::string::npos;
         at = e.chunk_path().find("node[0]", at + 1))
        ++steps;
    BOOST_TEST(steps == 1023u);
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
