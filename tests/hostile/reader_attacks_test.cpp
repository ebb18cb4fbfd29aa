// Files crafted to attack each known weak spot of an ASSBIN reader (the kind that gave Assimp's own
// loader heap overflows): lying counts and lengths, zero-length chunk floods, deep chains, zlib
// bombs, oversized strings and textures. Each must end in the right error (or a correct read), and
// the read's peak heap must stay within a bound set by the input size: nothing is allocated from a
// count before the bytes behind it are known to exist.
#include "attack_scenes.hpp"
#include "support/dump_builder.hpp"
#include "support/heap_meter.hpp"

#include <assbin/reader.hpp>
#include <assbin/validate.hpp>
#include <assbin/writer.hpp>

#include <boost/test/unit_test.hpp>

#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

using namespace assbin_test;
using namespace assbin_test::attack_scenes;
using assbin::ErrorCode;

namespace {

constexpr size_t kMiB = size_t{1} << 20;

struct Outcome {
    std::optional<assbin::Scene> scene;
    std::optional<assbin::ParseError> error;
    size_t peak_heap = 0;
    double seconds = 0;
};

// Reads `bytes`, measuring the peak heap and the time. A generous time guard catches hangs only;
// speed itself is measured by the benchmarks.
Outcome read_measured(const Bytes& bytes, const assbin::ReadOptions& options = {}) {
    Outcome outcome;
    const auto start = std::chrono::steady_clock::now();
    heap_meter_start();
    try {
        outcome.scene = assbin::read_scene(bytes, options);
    } catch (const assbin::ParseError& error) {
        outcome.error = error;
    }
    outcome.peak_heap = heap_meter_peak();
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    BOOST_TEST(outcome.seconds < 10.0);
    return outcome;
}

// The read fails with `code`, at a path starting with `path`, saying `words`; the peak heap stays
// under `heap_bound` (default: twice the input plus 1 MiB, i.e. nothing sized by a lying count).
uint64_t expect_error(const Bytes& bytes, ErrorCode code, const std::string& path, const std::string& words,
                      std::optional<size_t> heap_bound = std::nullopt,
                      const assbin::ReadOptions& options = {}) {
    const Outcome outcome = read_measured(bytes, options);
    BOOST_TEST_REQUIRE(outcome.error.has_value());
    BOOST_TEST_MESSAGE(outcome.error->what());
    BOOST_TEST(assbin::error_code_name(outcome.error->code()) == assbin::error_code_name(code));
    BOOST_TEST(outcome.error->chunk_path().starts_with(path), outcome.error->chunk_path() << " vs " << path);
    BOOST_TEST(std::string(outcome.error->what()).find(words) != std::string::npos, outcome.error->what());
    BOOST_TEST(outcome.peak_heap <= heap_bound.value_or(2 * bytes.size() + kMiB));
    return outcome.error->offset();
}

// As expect_error, on a built dump: the error's byte offset also lies inside the chunk at `path`.
void expect_error_in(const Dump& dump, ErrorCode code, const std::string& path, const std::string& words) {
    const uint64_t offset = expect_error(dump.bytes, code, path, words);
    const ChunkInfo& chunk = dump.chunk(path);
    BOOST_TEST(offset >= chunk.offset, "offset " << offset << " before " << path);
    BOOST_TEST(offset <= chunk.end(), "offset " << offset << " after " << path);
}

void patch_u32(Bytes& bytes, uint64_t offset, uint32_t value) {
    std::memcpy(bytes.data() + offset, &value, 4);
}

// A body whose SCENE holds one chain of `depth` NODE chunks; the deepest node ends with
// `empty_chunks` unknown chunks of length 0.
Bytes chain_with_empty_chunks(uint32_t depth, uint32_t empty_chunks) {
    ByteWriter w;
    const size_t scene = w.begin_chunk(chunk::kScene);
    for (int i = 0; i < 7; ++i)
        w.u32(0); // flags and the six counts
    std::vector<size_t> marks;
    for (uint32_t level = 0; level < depth; ++level) {
        marks.push_back(w.begin_chunk(chunk::kNode));
        w.str("");
        for (const float v : kIdentity)
            w.f32(v);
        w.u32(level + 1 < depth ? 1 : 0); // children
        w.u32(0);                         // meshes
        w.u32(0);                         // metadata
    }
    for (uint32_t i = 0; i < empty_chunks; ++i) {
        w.u32(0x9999);
        w.u32(0);
    }
    for (auto mark = marks.rbegin(); mark != marks.rend(); ++mark)
        w.end_chunk(*mark);
    w.end_chunk(scene);
    return assemble(WriterProfile::p5(), w.bytes());
}

// A zlib stream of `mebibytes` MiB of zeros, built cheaply: after a full flush, deflating the same
// 1 MiB of zeros again yields the same bytes, so that segment is repeated.
Bytes zlib_bomb(size_t mebibytes) {
    const std::vector<Bytef> zeros(kMiB, 0);
    z_stream z{};
    BOOST_REQUIRE(deflateInit(&z, 9) == Z_OK);
    const auto deflate_once = [&](int flush) {
        Bytes out(kMiB);
        z.next_in = const_cast<Bytef*>(zeros.data());
        z.avail_in = flush == Z_FINISH ? 0 : static_cast<uInt>(zeros.size());
        z.next_out = reinterpret_cast<Bytef*>(out.data());
        z.avail_out = static_cast<uInt>(out.size());
        deflate(&z, flush);
        out.resize(out.size() - z.avail_out);
        return out;
    };
    Bytes stream = deflate_once(Z_FULL_FLUSH);
    const Bytes segment = deflate_once(Z_FULL_FLUSH);
    for (size_t i = 2; i < mebibytes; ++i)
        stream.insert(stream.end(), segment.begin(), segment.end());
    const Bytes end = deflate_once(Z_FINISH); // the checksum is that of 2 MiB: never reached
    stream.insert(stream.end(), end.begin(), end.end());
    deflateEnd(&z);
    return stream;
}

Bytes compressed_file(const Bytes& stream, uint32_t prefix) {
    WriterProfile p = WriterProfile::p5();
    p.header.compressed = 1;
    Bytes file = build_header(p);
    const size_t at = file.size();
    file.resize(at + 4);
    patch_u32(file, at, prefix);
    file.insert(file.end(), stream.begin(), stream.end());
    return file;
}

} // namespace

BOOST_AUTO_TEST_SUITE(reader_attacks)

BOOST_AUTO_TEST_CASE(counts_that_imply_more_bytes_than_the_chunk_holds) {
    const WriterProfile p = WriterProfile::p5();
    {
        SceneSpec s = one_triangle();
        s.meshes[0].vertex_count = 0xFFFFFFFF; // 48 GiB of positions claimed
        expect_error_in(build_dump(s, p), ErrorCode::Truncated, "scene/mesh[0]", "positions");
    }
    {
        SceneSpec s = one_triangle();
        s.meshes[0].declared_faces = 0xFFFFFFFF;
        expect_error_in(build_dump(s, p), ErrorCode::Truncated, "scene/mesh[0]", "faces");
    }
    {
        SceneSpec s = one_triangle();
        s.meshes[0].declared_bones = 0xFFFFFFFF;
        expect_error(build_dump(s, p).bytes, ErrorCode::Truncated, "scene/mesh[0]", "BONE chunks");
    }
    {
        SceneSpec s = one_triangle();
        s.meshes[0].bones = {BoneSpec{"b", kIdentity, {{0, 1.0f}}, 0xFFFFFFFF}};
        expect_error_in(build_dump(s, p), ErrorCode::Truncated, "scene/mesh[0]/bone[0]", "vertex weights");
    }
    {
        SceneSpec s = one_triangle();
        s.materials[0].declared_properties = 0xFFFFFFFF;
        expect_error_in(build_dump(s, p), ErrorCode::Truncated, "scene/material[0]", "MATPROP chunks");
    }
    struct NodeCount {
        std::optional<uint32_t> NodeSpec::*field;
        const char* words;
    };
    for (const NodeCount& count : {NodeCount{&NodeSpec::declared_children, "child NODE chunks"},
                                   NodeCount{&NodeSpec::declared_meshes, "mesh indices"},
                                   NodeCount{&NodeSpec::declared_metadata, "metadata entries"}}) {
        BOOST_TEST_CONTEXT(count.words) {
            SceneSpec s = one_triangle();
            s.root.*count.field = 0x40000000;
            expect_error_in(build_dump(s, p), ErrorCode::Truncated, "scene/node", count.words);
        }
    }
    {
        // The SCENE's mesh count (after the flags) claims 2^32 - 1 meshes.
        Dump d = build_dump(one_triangle(), p);
        patch_u32(d.bytes, kHeaderBytes + 8 + 4, 0xFFFFFFFF);
        expect_error(d.bytes, ErrorCode::Truncated, "scene", "child chunks");
    }
    {
        // A NODEANIM's position key count claims 2^32 - 1 keys.
        SceneSpec s = one_triangle();
        s.animations = {AnimationSpec{"a", 1, 25, {ChannelSpec{"root", 0, 0, {{0, {0, 0, 0}}}, {}, {}}}}};
        Dump d = build_dump(s, p);
        const ChunkInfo& channel = d.chunk("scene/animation[0]/channel[0]");
        patch_u32(d.bytes, channel.offset + 8 + 4 + 4, 0xFFFFFFFF);
        expect_error(d.bytes, ErrorCode::BadLength, "scene/animation[0]/channel[0]", "NODEANIM length");
    }
}

BOOST_AUTO_TEST_CASE(chunk_lengths_past_the_parent_or_the_file) {
    const WriterProfile p = WriterProfile::p5();
    {
        SceneSpec s = one_triangle();
        s.root.children = {make_node("child")};
        s.root.children[0].length_override = 0x7FFFFFFF;
        const Dump d = build_dump(s, p);
        const uint64_t at = expect_error(d.bytes, ErrorCode::BadLength, "scene/node", "its parent has only");
        BOOST_TEST(at == d.chunk("scene/node/node[0]").offset); // the child's own header
    }
    {
        SceneSpec s = one_triangle();
        s.meshes[0].length_override = 0xFFFFFFF0;
        expect_error(build_dump(s, p).bytes, ErrorCode::BadLength, "scene", "its parent has only");
    }
    {
        // The SCENE claims more than the file holds: read as a cut file, whose damage is named.
        SceneSpec s = one_triangle();
        s.length_override = 0x7FFFFFFF;
        Dump d = build_dump(s, p);
        d.bytes.resize(d.bytes.size() - 20);
        expect_error(d.bytes, ErrorCode::Truncated, "scene", "the file is cut short");
    }
}

BOOST_AUTO_TEST_CASE(a_flood_of_zero_length_chunks_is_stepped_over_in_bounded_memory) {
    // 100,000 empty unknown chunks: each costs 8 bytes of input and one skipped-chunk record.
    const Bytes file = chain_with_empty_chunks(1, 100'000);
    const Outcome outcome = read_measured(file);
    BOOST_TEST_REQUIRE(outcome.scene.has_value());
    BOOST_TEST(outcome.scene->skipped_chunks.size() == 100'000u);
    BOOST_TEST(outcome.peak_heap <= 16 * file.size() + 16 * kMiB);
    // A known chunk of length 0 is not a loop either: it fails at once.
    SceneSpec s = one_triangle();
    s.meshes[0].length_override = 0;
    expect_error(build_dump(s, WriterProfile::p5()).bytes, ErrorCode::Truncated, "scene/mesh[0]",
                 "primitive types");
}

BOOST_AUTO_TEST_CASE(empty_chunks_deep_in_a_chain_hit_the_allocation_limit_not_the_memory) {
    // Each skipped record keeps its chunk path: 1,000 levels deep, 8 bytes of input would become
    // kilobytes of paths. max_allocation_ratio stops that, and raising it lets the file through.
    const Bytes file = chain_with_empty_chunks(1000, 20'000);
    const size_t bound = 16 * file.size() + 16 * kMiB;
    expect_error(file, ErrorCode::LimitExceeded, "scene/node", "the reader's allocation limit", bound + kMiB);
    assbin::ReadOptions raised;
    raised.limits.max_allocation_ratio = 4096;
    const Outcome outcome = read_measured(file, raised);
    BOOST_TEST_REQUIRE(outcome.scene.has_value());
    BOOST_TEST(outcome.scene->skipped_chunks.size() == 20'000u);
}

BOOST_AUTO_TEST_CASE(a_node_chain_100000_deep_stops_at_the_depth_limit) {
    // The old layout (P2: no metadata count) is refused the same way.
    const WriterProfile old_layout = WriterProfile::p2();
    expect_error(assemble(old_layout, deep_node_chain_body(100'000, old_layout)), ErrorCode::LimitExceeded,
                 "scene/node/node[0]", "the reader's node-depth limit");
    const WriterProfile p = WriterProfile::p5();
    const Bytes file = assemble(p, deep_node_chain_body(100'000, p));
    expect_error(file, ErrorCode::LimitExceeded, "scene/node/node[0]", "the reader's node-depth limit");
    assbin::ReadOptions raised;
    raised.limits.max_node_depth = 200'000;
    const Outcome outcome = read_measured(file, raised);
    BOOST_TEST_REQUIRE(outcome.scene.has_value());
    BOOST_TEST(outcome.scene->nodes.size() == 100'000u);
    BOOST_TEST(outcome.peak_heap <= 16 * file.size() + 16 * kMiB);
}

BOOST_AUTO_TEST_CASE(a_zlib_bomb_declaring_4_gib_is_refused_without_holding_its_bytes) {
    const Bytes bomb = zlib_bomb(64); // 64 MiB of zeros in about 65 KB
    BOOST_TEST(bomb.size() < 100'000u);
    // 5.0+ prefix: the declared size is over the cap; the stream is inflated into scratch up to the
    // cap (to tell a bomb from a cut file, which declares more than it holds too), never kept.
    expect_error(compressed_file(bomb, 0xFFFFFFFF), ErrorCode::LimitExceeded, "compressed body",
                 "the reader's inflate-ratio limit for this 65,");
    // 3.0 - 4.1.0 prefix (the stream's length): inflated until the ratio cap, 512 x the stream.
    const uint64_t cap = 512 * uint64_t{bomb.size()};
    expect_error(compressed_file(bomb, static_cast<uint32_t>(bomb.size())), ErrorCode::LimitExceeded,
                 "compressed body", "the reader's inflate-ratio limit", 2 * cap + kMiB);
    // The absolute cap names itself too.
    assbin::ReadOptions small;
    small.limits.max_inflated_bytes = 4 * kMiB;
    expect_error(compressed_file(bomb, static_cast<uint32_t>(bomb.size())), ErrorCode::LimitExceeded,
                 "compressed body", "the reader's inflated-size limit (4 MiB)", 12 * kMiB, small);
}

BOOST_AUTO_TEST_CASE(strings_longer_than_their_chunk) {
    Dump d = build_dump(one_triangle(), WriterProfile::p5());
    Bytes node_name = d.bytes;
    patch_u32(node_name, d.chunk("scene/node").offset + 8, 0xFFFFFFF0);
    expect_error(node_name, ErrorCode::Truncated, "scene/node", "node name needs 4,294,967,280 bytes");
    Bytes property_key = d.bytes;
    patch_u32(property_key, d.chunk("scene/material[0]/property[0]").offset + 8, 0x7FFFFFFF);
    expect_error(property_key, ErrorCode::Truncated, "scene/material[0]/property[0]", "property key");
}

BOOST_AUTO_TEST_CASE(face_index_counts_of_0_and_65535) {
    const WriterProfile p = WriterProfile::p5();
    SceneSpec s = one_triangle();
    s.meshes[0].faces = {{}, {0, 1, 2}};
    Outcome empty_face = read_measured(build_dump(s, p).bytes);
    BOOST_TEST_REQUIRE(empty_face.scene.has_value());
    BOOST_TEST(empty_face.scene->meshes[0].faces.face(0).size() == 0u);
    BOOST_TEST(empty_face.scene->meshes[0].faces.face(1).size() == 3u);

    // A 65535-corner face over 65535 vertices (16-bit indices) reads whole.
    SceneSpec big = one_triangle();
    std::vector<F3> ring(65535);
    std::vector<uint32_t> corners(65535);
    for (uint32_t i = 0; i < 65535; ++i) {
        ring[i] = {std::cos(i * 0.0001f), std::sin(i * 0.0001f), 0};
        corners[i] = i;
    }
    big.meshes[0].positions = ring;
    big.meshes[0].faces = {corners};
    Outcome whole = read_measured(build_dump(big, p).bytes);
    BOOST_TEST_REQUIRE(whole.scene.has_value());
    BOOST_TEST(whole.scene->meshes[0].faces.face(0).size() == 65535u);

    // Only empty faces over 65,536 vertices (32-bit indices): the flat index array is empty, so
    // its data() is null; neither the reader nor the writer may hand that to memcpy (found by
    // fuzz_chunk_walker and fuzz_convert under UBSan). The read must also write back and reread.
    SceneSpec hollow = one_triangle();
    hollow.meshes[0].positions = std::vector<F3>(65536, F3{0, 0, 0});
    hollow.meshes[0].faces = {{}, {}};
    Outcome no_indices = read_measured(build_dump(hollow, p).bytes);
    BOOST_TEST_REQUIRE(no_indices.scene.has_value());
    const assbin::FaceList& faces = no_indices.scene->meshes[0].faces;
    BOOST_TEST(faces.size() == 2u);
    BOOST_TEST(faces.indices.empty());
    BOOST_TEST(faces.face_size(0) + faces.face_size(1) == 0u);
    const assbin::Scene reread = assbin::read_scene(assbin::write(*no_indices.scene));
    BOOST_TEST(reread.meshes[0].faces.size() == 2u);
    BOOST_TEST(reread.meshes[0].faces.indices.empty());

    // 65535 indices claimed where 3 are stored.
    Dump d = build_dump(one_triangle(), p);
    const ChunkInfo& mesh = d.chunk("scene/mesh[0]");
    const uint64_t face = mesh.offset + 8 + 24 + 3 * 12; // after the six fields and the positions
    d.bytes[face] = std::byte{0xFF};
    d.bytes[face + 1] = std::byte{0xFF};
    expect_error(d.bytes, ErrorCode::Truncated, "scene/mesh[0]", "face 0: 65,535 indices");
}

BOOST_AUTO_TEST_CASE(out_of_range_references_read_and_are_reported_by_validate) {
    // Reading keeps what the file says; validate() names every broken reference. (The converter
    // refuses them: tests/hostile/converter_attacks_test.cpp.)
    SceneSpec s = one_triangle();
    s.meshes[0].faces = {{0, 1, 7}};
    s.meshes[0].material_index = 9;
    s.root.meshes = {0, 5};
    const Outcome outcome = read_measured(build_dump(s, WriterProfile::p5()).bytes);
    BOOST_TEST_REQUIRE(outcome.scene.has_value());
    const std::vector<assbin::Problem> problems = assbin::validate(*outcome.scene);
    const auto says = [&](const std::string& words) {
        return std::any_of(problems.begin(), problems.end(), [&](const assbin::Problem& p) {
            return p.message.find(words) != std::string::npos;
        });
    };
    BOOST_TEST(says("refers to mesh 5"));
    BOOST_TEST(says("material index 9 is past the"));
    BOOST_TEST(says("1 face uses vertex indices >= the vertex count"));
}

BOOST_AUTO_TEST_CASE(nan_and_infinity_in_matrices_read_as_they_are_and_validate_names_them) {
    SceneSpec s = one_triangle();
    s.root.transform[3] = std::numeric_limits<float>::quiet_NaN();
    s.root.transform[7] = std::numeric_limits<float>::infinity();
    const Outcome outcome = read_measured(build_dump(s, WriterProfile::p5()).bytes);
    BOOST_TEST_REQUIRE(outcome.scene.has_value());
    BOOST_TEST(std::isnan(outcome.scene->nodes[0].transform(0, 3)));
    BOOST_TEST(std::isinf(outcome.scene->nodes[0].transform(1, 3)));
    const std::vector<assbin::Problem> problems = assbin::validate(*outcome.scene);
    BOOST_TEST(std::any_of(problems.begin(), problems.end(), [](const assbin::Problem& p) {
        return p.message.find("non-finite transform") != std::string::npos;
    }));
}

BOOST_AUTO_TEST_CASE(a_texture_whose_width_times_height_overflows) {
    // 2^31 x 2^31 texels x 4 bytes wraps to 0 in 64 bits; 0xFFFFFFFF squared x 4 wraps too.
    for (const uint32_t side : {0x80000000u, 0xFFFFFFFFu}) {
        BOOST_TEST_CONTEXT(side) {
            SceneSpec s = one_triangle();
            s.textures = {argb_texture(1, 1, Bytes(4, std::byte{7}), "")};
            Dump d = build_dump(s, WriterProfile::p5());
            const ChunkInfo& texture = d.chunk("scene/texture[0]");
            patch_u32(d.bytes, texture.offset + 8, side);
            patch_u32(d.bytes, texture.offset + 12, side);
            expect_error(d.bytes, ErrorCode::Truncated, "scene/texture[0]", "does not fit");
        }
    }
}

BOOST_AUTO_TEST_CASE(every_limit_names_itself_and_can_be_raised) {
    const WriterProfile p = WriterProfile::p5();
    const Bytes file = build_dump(one_triangle(), p).bytes;
    assbin::ReadOptions tight;
    tight.limits.max_allocation_ratio = 0;
    tight.limits.max_allocation_allowance = 16;
    expect_error(file, ErrorCode::LimitExceeded, "scene", "(0 times the body + 0 MiB)", std::nullopt, tight);
    tight.limits.max_node_depth = 0;
    expect_error(file, ErrorCode::LimitExceeded, "scene",
                 "nodes nest deeper than 0 levels, the reader's node-depth limit", std::nullopt, tight);
    BOOST_TEST(read_measured(file).scene.has_value()); // the defaults take it
    // A ratio of 0 allows nothing to inflate (it once divided by zero).
    assbin::ReadOptions no_inflating;
    no_inflating.limits.max_inflate_ratio = 0;
    const Bytes compressed =
        build_dump(one_triangle(), WriterProfile::p5().with_compression(Compression::NewPrefix)).bytes;
    expect_error(compressed, ErrorCode::LimitExceeded, "compressed body", "(0 times its size)", std::nullopt,
                 no_inflating);
}

BOOST_AUTO_TEST_SUITE_END()
