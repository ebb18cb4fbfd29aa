// Reader and writer: round trips, the byte layout, and every way a file's shape can be wrong.
#include "aem_fixtures.hpp"
#include "support/error_names.hpp"

#include <aem/io.hpp>

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cstring>
#include <string>
#include <vector>

using assbin_test::f32_at;
using assbin_test::put_u32_at;
using assbin_test::read_bytes;
using assbin_test::TempDir;
using assbin_test::u32_at;

namespace {

// Offsets of the header's nine counts, in file order.
constexpr size_t kCountOffsets[9] = {4, 8, 12, 16, 20, 24, 28, 32, 36};
constexpr size_t kRecordSizes[9] = {92, 4, 128, 12, 12, 80, 136, 24, 20};

// A header with these counts and nothing else: a 40-byte file.
std::vector<std::byte> header_only(size_t count_index, uint32_t count) {
    std::vector<std::byte> bytes = aem::to_bytes(aem::Model{});
    put_u32_at(bytes, kCountOffsets[count_index], count);
    return bytes;
}

aem::ErrorCode code_of_reading(const std::vector<std::byte>& bytes) {
    try {
        aem::read_model(bytes);
    } catch (const aem::Error& error) {
        return error.code();
    }
    BOOST_FAIL("the reader accepted the bytes");
    return aem::ErrorCode::Io;
}

std::string message_of_reading(const std::vector<std::byte>& bytes) {
    try {
        aem::read_model(bytes);
    } catch (const aem::Error& error) {
        return error.what();
    }
    return "(accepted)";
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

BOOST_AUTO_TEST_CASE(round_trip_gives_the_same_model) {
    const TempDir dir;
    const aem::Model model = assbin_test::make_two_bone_model();
    aem::write_file(model, dir / "model.aem");
    BOOST_TEST((aem::read_file(dir / "model.aem") == model));
}

BOOST_AUTO_TEST_CASE(second_write_is_byte_identical) {
    const TempDir dir;
    aem::write_file(assbin_test::make_two_bone_model(), dir / "first.aem");
    aem::write_file(aem::read_file(dir / "first.aem"), dir / "second.aem");
    const auto first = assbin_test::read_bytes(dir / "first.aem");
    const auto second = assbin_test::read_bytes(dir / "second.aem");
    BOOST_TEST(first.size() ==
               40 + 6 * 92 + 6 * 4 + 3 * 128 + 2 * 12 + 2 * 12 + 2 * 80 + 136 + 2 * 24 + 10 * 20);
    BOOST_TEST((first == second));
}

BOOST_AUTO_TEST_CASE(empty_model_is_a_bare_header) {
    const auto bytes = aem::to_bytes(aem::Model{});
    BOOST_TEST(bytes.size() == 40u);
    BOOST_TEST((aem::read_model(bytes) == aem::Model{}));
}

BOOST_AUTO_TEST_CASE(to_bytes_matches_the_written_file) {
    const TempDir dir;
    const aem::Model model = assbin_test::make_two_bone_model();
    aem::write_file(model, dir / "model.aem");
    BOOST_TEST((assbin_test::read_bytes(dir / "model.aem") == aem::to_bytes(model)));
}

// Offsets below are the layout table's, worked out by hand, not taken from the writer.
BOOST_AUTO_TEST_CASE(writes_the_layout_of_the_format_page) {
    aem::Model model;
    aem::Vertex vertex;
    vertex.position = {1, 2, 3};
    vertex.normal = {4, 5, 6};
    vertex.tangent = {7, 8, 9};
    vertex.bitangent = {10, 11, 12};
    vertex.uv = {13, 14};
    vertex.bone_indices = {0, -1, -1, -1};
    vertex.bone_weights = {1, 0, 0, 0};
    vertex.extra_bone = 7;
    model.vertices = {vertex};
    model.indices = {0, 0, 0};
    model.textures = {{"tex.png"}};
    model.meshes = {{0, 3, 0}};
    model.materials = {{0, -1, 0}};
    aem::Bone bone;
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c)
            bone.inverse_bind(r, c) = static_cast<float>(10 * r + c);
    }
    model.bones = {bone};
    model.animations = {{"walk", 1.5f, 0}};
    model.sequences = {{{0, 1}, {1, 1}, {2, 1}}};
    model.keyframes = {{0.25f, {1, 2, 3, 0}}, {0.5f, {0.1f, 0.2f, 0.3f, 0.9f}}, {0.75f, {1, 1, 1, 0}}};

    const auto bytes = aem::to_bytes(model);
    BOOST_TEST(bytes.size() == 40u + 92 + 12 + 128 + 12 + 12 + 80 + 136 + 24 + 60);
    BOOST_TEST(std::memcmp(bytes.data(), "AEM\x01", 4) == 0);
    const uint32_t counts[9] = {1, 3, 1, 1, 1, 1, 1, 1, 3};
    for (size_t i = 0; i < 9; ++i)
        BOOST_TEST(u32_at(bytes, kCountOffsets[i]) == counts[i]);

    const size_t v = 40; // vertex: 14 floats, 4 int32, 4 floats, 1 int32
    for (size_t i = 0; i < 14; ++i)
        BOOST_TEST(f32_at(bytes, v + 4 * i) == static_cast<float>(i + 1));
    BOOST_TEST(u32_at(bytes, v + 56) == 0u);
    BOOST_TEST(u32_at(bytes, v + 60) == 0xFFFFFFFFu);
    BOOST_TEST(f32_at(bytes, v + 72) == 1.0f);
    BOOST_TEST(u32_at(bytes, v + 88) == 7u);

    const size_t texture = v + 92 + 12;
    BOOST_TEST(std::memcmp(bytes.data() + texture, "tex.png", 7) == 0);
    for (size_t i = 7; i < 128; ++i)
        BOOST_TEST(std::to_integer<int>(bytes[texture + i]) == 0);

    const size_t material = texture + 128 + 12;
    BOOST_TEST(u32_at(bytes, material + 4) == 0xFFFFFFFFu);

    const size_t bone_at = material + 12; // column-major: (r, c) at float index c*4 + r
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c)
            BOOST_TEST(f32_at(bytes, bone_at + 4 * (c * 4 + r)) == 10.0f * r + c);
    }
    BOOST_TEST(u32_at(bytes, bone_at + 64) == 0xFFFFFFFFu);
    for (size_t i = 68; i < 80; ++i)
        BOOST_TEST(std::to_integer<int>(bytes[bone_at + i]) == 0);

    const size_t animation = bone_at + 80;
    BOOST_TEST(std::memcmp(bytes.data() + animation, "walk\0\0", 6) == 0);
    BOOST_TEST(f32_at(bytes, animation + 128) == 1.5f);
    BOOST_TEST(u32_at(bytes, animation + 132) == 0u);

    const size_t sequence = animation + 136;
    const uint32_t ranges[6] = {0, 1, 1, 1, 2, 1};
    for (size_t i = 0; i < 6; ++i)
        BOOST_TEST(u32_at(bytes, sequence + 4 * i) == ranges[i]);

    const size_t rotation_key = sequence + 24 + 20; // time, then x, y, z, w
    BOOST_TEST(f32_at(bytes, rotation_key) == 0.5f);
    BOOST_TEST(f32_at(bytes, rotation_key + 4) == 0.1f);
    BOOST_TEST(f32_at(bytes, rotation_key + 16) == 0.9f);
    BOOST_TEST(aem::rotation_of(model.keyframes[1]).w() == 0.9f);
}

BOOST_AUTO_TEST_CASE(rejects_bad_magic) {
    auto bytes = aem::to_bytes(assbin_test::make_two_bone_model());
    bytes[1] = std::byte{'X'};
    BOOST_TEST(code_of_reading(bytes) == aem::ErrorCode::NotAem);
    BOOST_TEST(contains(message_of_reading(bytes), "not an AEM model"));
}

BOOST_AUTO_TEST_CASE(rejects_unsupported_version) {
    auto bytes = aem::to_bytes(assbin_test::make_two_bone_model());
    bytes[3] = std::byte{2};
    BOOST_TEST(code_of_reading(bytes) == aem::ErrorCode::UnsupportedVersion);
    BOOST_TEST(contains(message_of_reading(bytes), "version 2 is not supported"));
}

BOOST_AUTO_TEST_CASE(rejects_every_truncated_prefix) {
    const auto bytes = aem::to_bytes(assbin_test::make_two_bone_model());
    for (size_t size = 0; size < bytes.size(); ++size) {
        const std::vector<std::byte> prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size));
        BOOST_TEST_CONTEXT("prefix of " << size << " bytes") { // an empty file is no model at all
            BOOST_TEST(code_of_reading(prefix) ==
                       (size == 0 ? aem::ErrorCode::NotAem : aem::ErrorCode::Truncated));
        }
    }
}

BOOST_AUTO_TEST_CASE(truncated_file_error_names_the_section) {
    auto bytes = aem::to_bytes(assbin_test::make_two_bone_model());
    bytes.resize(bytes.size() - 1);
    const std::string message = message_of_reading(bytes);
    BOOST_TEST(contains(message, "the file is cut short"));
    BOOST_TEST(contains(message, "keyframe section"));
}

BOOST_AUTO_TEST_CASE(rejects_trailing_bytes) {
    for (size_t extra : {1u, 92u, 4096u}) {
        auto bytes = aem::to_bytes(assbin_test::make_two_bone_model());
        const size_t expected = bytes.size();
        bytes.resize(bytes.size() + extra);
        BOOST_TEST(code_of_reading(bytes) == aem::ErrorCode::TrailingBytes);
        BOOST_TEST(contains(message_of_reading(bytes), std::to_string(extra) +
                                                           " bytes after the end its counts imply (" +
                                                           std::to_string(expected)));
    }
}

// For each count, the smallest value whose byte size is a multiple of 2^32: a reader summing
// sizes in 32 bits would think this 40-byte header-only file is complete.
BOOST_AUTO_TEST_CASE(rejects_counts_whose_sizes_wrap_32_bits) {
    for (size_t i = 0; i < 9; ++i) {
        const uint64_t lowest_power_of_two = kRecordSizes[i] & (~kRecordSizes[i] + 1);
        const auto count = static_cast<uint32_t>((uint64_t{1} << 32) / lowest_power_of_two);
        BOOST_REQUIRE(uint32_t(count * kRecordSizes[i]) == 0u);
        const auto bytes = header_only(i, count);
        BOOST_TEST_CONTEXT("count " << i << " = " << count) {
            BOOST_TEST(code_of_reading(bytes) == aem::ErrorCode::Truncated);
            const std::string implied = std::to_string(40 + uint64_t{count} * kRecordSizes[i]);
            BOOST_TEST(contains(message_of_reading(bytes), "has 40 bytes but its counts imply " + implied));
        }
    }
}

BOOST_AUTO_TEST_CASE(rejects_largest_counts_without_allocating) {
    std::vector<std::byte> bytes = aem::to_bytes(aem::Model{});
    for (size_t offset : kCountOffsets)
        put_u32_at(bytes, offset, 0xFFFFFFFFu);
    BOOST_TEST(code_of_reading(bytes) == aem::ErrorCode::Truncated);
    BOOST_TEST(
        contains(message_of_reading(bytes), "the vertex section (4294967295 × 92 bytes from byte 40)"));
}

BOOST_AUTO_TEST_CASE(read_file_checks_the_size_before_reading_the_body) {
    const TempDir dir;
    assbin_test::write_bytes(dir / "huge.aem", header_only(0, 0xFFFFFFFFu));
    try {
        aem::read_file(dir / "huge.aem");
        BOOST_FAIL("accepted");
    } catch (const aem::Error& error) {
        BOOST_TEST(error.code() == aem::ErrorCode::Truncated);
    }
}

BOOST_AUTO_TEST_CASE(read_file_reports_a_missing_file) {
    const TempDir dir;
    try {
        aem::read_file(dir / "absent.aem");
        BOOST_FAIL("accepted");
    } catch (const aem::Error& error) {
        BOOST_TEST(error.code() == aem::ErrorCode::Io);
        BOOST_TEST(contains(error.what(), "no such file"));
    }
}

BOOST_AUTO_TEST_CASE(reads_material_slot_255_as_none_with_at_most_255_textures) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.materials[0].normal_texture = 255;
    const aem::Model read = aem::read_model(aem::to_bytes(model));
    BOOST_TEST(read.materials[0].normal_texture == aem::kNone);
    BOOST_TEST(read.materials[0].base_color_texture == 0);
}

BOOST_AUTO_TEST_CASE(keeps_material_slot_255_with_more_than_255_textures) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.textures.resize(256, aem::Texture{"t.png"});
    model.materials[0].normal_texture = 255;
    BOOST_TEST(aem::read_model(aem::to_bytes(model)).materials[0].normal_texture == 255);
}

BOOST_AUTO_TEST_CASE(name_of_127_bytes_round_trips) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.textures[0].file_name = std::string(127, 'n');
    model.animations[0].name = std::string(127, 'a');
    BOOST_TEST((aem::read_model(aem::to_bytes(model)) == model));
}

BOOST_AUTO_TEST_CASE(writer_refuses_a_name_longer_than_127_bytes) {
    const TempDir dir;
    aem::Model model = assbin_test::make_two_bone_model();
    model.textures[1].file_name = std::string(128, 'n');
    try {
        aem::write_file(model, dir / "model.aem");
        BOOST_FAIL("written");
    } catch (const aem::Error& error) {
        BOOST_TEST(error.code() == aem::ErrorCode::NameTooLong);
        BOOST_TEST(contains(error.what(), "texture 1 name is 128 bytes"));
    }
    BOOST_TEST(std::filesystem::is_empty(dir.path())); // nothing created, not even a temporary
}

BOOST_AUTO_TEST_CASE(writer_refuses_a_name_holding_a_nul) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.animations[0].name = std::string("be\0nd", 5);
    BOOST_CHECK_THROW(aem::to_bytes(model), aem::Error);
}

BOOST_AUTO_TEST_CASE(failed_write_leaves_the_old_file_untouched) {
    const TempDir dir;
    aem::write_file(assbin_test::make_two_bone_model(), dir / "model.aem");
    const auto before = assbin_test::read_bytes(dir / "model.aem");
    aem::Model bad = assbin_test::make_two_bone_model();
    bad.animations[0].name = std::string(200, 'x');
    BOOST_CHECK_THROW(aem::write_file(bad, dir / "model.aem"), aem::Error);
    BOOST_TEST((assbin_test::read_bytes(dir / "model.aem") == before));
}

BOOST_AUTO_TEST_CASE(write_file_replaces_an_existing_file_and_leaves_no_temporary) {
    const TempDir dir;
    aem::write_file(aem::Model{}, dir / "model.aem");
    aem::write_file(assbin_test::make_two_bone_model(), dir / "model.aem");
    BOOST_TEST((aem::read_file(dir / "model.aem") == assbin_test::make_two_bone_model()));
    size_t files = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path()))
        ++files;
    BOOST_TEST(files == 1u);
}

BOOST_AUTO_TEST_CASE(write_file_reports_a_missing_directory) {
    const TempDir dir;
    try {
        aem::write_file(aem::Model{}, dir / "no-such-dir" / "model.aem");
        BOOST_FAIL("written");
    } catch (const aem::Error& error) {
        BOOST_TEST(error.code() == aem::ErrorCode::Io);
        BOOST_TEST(contains(error.what(), "cannot create"));
    }
}

// Big vertex and index sections go out as blocks of memory where the host's memory holds them in file
// form (records.hpp): every field of every record must still sit where the format page puts it, in
// both layouts, through to_bytes and write_file alike, across the writer's 1 MiB pieces.
BOOST_AUTO_TEST_CASE(large_sections_hold_every_field_where_the_page_puts_it) {
    constexpr uint32_t kVertices = 13000; // 1.2 MB of records: two pieces and a part
    const auto fields_of = [](const aem::Vertex& v, bool with_extra_bone) {
        std::vector<uint32_t> bits;
        for (const auto* part : {&v.position, &v.normal, &v.tangent, &v.bitangent})
            for (int i = 0; i < 3; ++i)
                bits.push_back(std::bit_cast<uint32_t>((*part)[i]));
        for (int i = 0; i < 2; ++i)
            bits.push_back(std::bit_cast<uint32_t>(v.uv[i]));
        for (const int32_t index : v.bone_indices)
            bits.push_back(static_cast<uint32_t>(index));
        for (const float weight : v.bone_weights)
            bits.push_back(std::bit_cast<uint32_t>(weight));
        if (with_extra_bone) bits.push_back(static_cast<uint32_t>(v.extra_bone));
        return bits;
    };
    for (const aem::Layout layout : {aem::Layout::Edition2024, aem::Layout::Edition2025}) {
        const bool edition_2024 = layout == aem::Layout::Edition2024;
        aem::Model model;
        model.layout = layout;
        for (uint32_t v = 0; v < kVertices; ++v) {
            aem::Vertex vertex;
            const float f = static_cast<float>(v);
            vertex.position = {f, f + 0.25f, -f};
            vertex.normal = {-0.0f, 1.0f / (f + 1), 0.5f};
            vertex.tangent = {f * 3, 0.0f, -1.0f};
            vertex.bitangent = {std::bit_cast<float>(0x7FC00000u | v), 2.0f, f / 7}; // NaNs with payloads
            vertex.uv = {f / kVertices, 1 - f / kVertices};
            vertex.bone_indices = {static_cast<int32_t>(v % 9), -1, static_cast<int32_t>(v % 3), -1};
            vertex.bone_weights = {0.5f, 0.0f, 0.5f, 0.0f};
            vertex.extra_bone = edition_2024 ? static_cast<int32_t>(v % 5) - 1 : aem::kNone;
            model.vertices.push_back(vertex);
        }
        for (uint32_t i = 0; i < 3 * kVertices; ++i)
            model.indices.push_back((i * 7919u) % kVertices);
        model.meshes = {{0, 3 * kVertices, 0}};
        model.materials.resize(1);

        const std::vector<std::byte> bytes = aem::to_bytes(model);
        const TempDir dir;
        aem::write_file(model, dir / "large.aem");
        BOOST_TEST((read_bytes(dir / "large.aem") == bytes));

        const size_t header = edition_2024 ? 40 : 52;
        const size_t record = edition_2024 ? 92 : 88;
        BOOST_TEST(u32_at(bytes, 4) == kVertices); // the vertex count, in both layouts
        size_t wrong_fields = 0;
        for (uint32_t v = 0; v < kVertices; ++v) {
            const std::vector<uint32_t> expected = fields_of(model.vertices[v], edition_2024);
            for (size_t k = 0; k < expected.size(); ++k)
                wrong_fields += u32_at(bytes, header + record * v + 4 * k) != expected[k];
        }
        BOOST_TEST(wrong_fields == 0u);
        const size_t indices_at = header + record * kVertices;
        size_t wrong_indices = 0;
        for (uint32_t i = 0; i < 3 * kVertices; ++i)
            wrong_indices += u32_at(bytes, indices_at + 4 * i) != model.indices[i];
        BOOST_TEST(wrong_indices == 0u);
        const aem::Model read = aem::read_model(bytes);
        BOOST_TEST(read.indices == model.indices);
        BOOST_TEST((read.meshes == model.meshes));
    }
}
