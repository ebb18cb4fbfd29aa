// The test-side dump builder against the numbers ASSBIN-FORMAT.md gives (face hashes, bounds,
// header offsets, record sizes, the §3 short lengths, both compression prefixes).
#include "support/crafted_scenes.hpp"

#include <zlib.h>

using namespace assbin_test;
using assbin::ErrorCode;

BOOST_AUTO_TEST_SUITE(crafted_builder)

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

BOOST_AUTO_TEST_SUITE_END()
