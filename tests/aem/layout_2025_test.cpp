// The 2025 layout (AEM-FORMAT.md "The 2025 layout"): written byte by byte as the page says, read
// back equal, told apart from the 2024 layout by the size equations alone, validated by its own
// invariants, posed by the same evaluator.
#include "aem_fixtures.hpp"

#include <aem/io.hpp>
#include <aem/pose.hpp>
#include <aem/validate.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstring>

namespace {

using assbin_test::f32_at;
using assbin_test::make_two_joint_model;
using assbin_test::u32_at;

uint64_t u64_at(const std::vector<std::byte>& bytes, size_t offset) {
    return u32_at(bytes, offset) | uint64_t{u32_at(bytes, offset + 4)} << 32;
}

bool has_rule(const std::vector<aem::Violation>& violations, aem::Rule rule) {
    return std::any_of(violations.begin(), violations.end(),
                       [&](const aem::Violation& v) { return v.rule == rule; });
}

} // namespace

BOOST_AUTO_TEST_SUITE(layout_2025)

BOOST_AUTO_TEST_CASE(the_fixture_is_valid_and_its_chains_have_the_page_sizes) {
    const aem::Model model = make_two_joint_model();
    BOOST_TEST(aem::validate(model).empty());
    BOOST_TEST(aem::mip_level_count(4, 2) == 3u);
    BOOST_TEST(aem::mip_chain_bytes(4, 2, 4, aem::kCompressionNone) == 44u);
    BOOST_TEST(aem::mip_chain_bytes(2, 2, 2, aem::kCompressionNone) == 10u);
    BOOST_TEST(aem::mip_level_count(2048, 512) == 12u);
    BOOST_TEST(aem::mip_level_bytes(5, 5, 2, aem::kCompressionBc5) == 4u * 16); // 2 x 2 blocks
    BOOST_TEST(aem::mip_chain_bytes(4, 4, 4, aem::kCompressionBc7) == 3u * 16); // 4x4, 2x2, 1x1: a block each
    BOOST_TEST(model.image_buffer.size() == 58u);
}

BOOST_AUTO_TEST_CASE(round_trip_is_equal_and_byte_identical) {
    const aem::Model model = make_two_joint_model();
    const auto bytes = aem::to_bytes(model);
    BOOST_TEST(bytes.size() == aem::file_size_of(model));
    const aem::Model read = aem::read_model(bytes);
    BOOST_TEST((read.layout == aem::Layout::Edition2025));
    BOOST_TEST((read == model));
    BOOST_TEST((aem::to_bytes(read) == bytes));
}

BOOST_AUTO_TEST_CASE(writes_the_layout_of_the_format_page) {
    const aem::Model model = make_two_joint_model();
    const auto bytes = aem::to_bytes(model);
    BOOST_TEST(std::memcmp(bytes.data(), "AEM\x01", 4) == 0);
    BOOST_TEST(u32_at(bytes, 4) == 6u);                   // vertices
    BOOST_TEST(u32_at(bytes, 8) == 6u);                   // indices
    BOOST_TEST(u64_at(bytes, 12) == 58u);                 // image-buffer bytes
    const uint32_t counts[8] = {3, 2, 2, 2, 1, 2, 10, 0}; // textures .. keyframes, padding
    for (size_t i = 0; i < 8; ++i)
        BOOST_TEST(u32_at(bytes, 20 + 4 * i) == counts[i]);
    BOOST_TEST(bytes.size() ==
               52u + 6 * 88 + 6 * 4 + 58 + 3 * 32 + 2 * 12 + 2 * 16 + 2 * 196 + 132 + 2 * 16 + 10 * 20);

    const size_t vertex3 = 52 + 3 * 88; // no extra bone index: the next vertex follows the weights
    BOOST_TEST(f32_at(bytes, vertex3) == 1.0f);
    BOOST_TEST(u32_at(bytes, vertex3 + 56) == 1u);
    BOOST_TEST(f32_at(bytes, vertex3 + 72) == 1.0f);
    BOOST_TEST(f32_at(bytes, vertex3 + 88) == model.vertices[4].position.x());
    const size_t image = 52 + 6 * 88 + 6 * 4;
    BOOST_TEST(std::to_integer<int>(bytes[image]) == 0xAA);
    BOOST_TEST(std::to_integer<int>(bytes[image + 44]) == 0x80);
    const size_t texture1 = image + 58 + 32; // u64 offset, w, h, wrap x, wrap y, channels, compression
    BOOST_TEST(u64_at(bytes, texture1) == 44u);
    const uint32_t fields[6] = {2, 2, aem::kWrapRepeat, aem::kWrapClampToEdge, 2, aem::kCompressionNone};
    for (size_t i = 0; i < 6; ++i)
        BOOST_TEST(u32_at(bytes, texture1 + 8 + 4 * i) == fields[i]);
    const size_t material1 = image + 58 + 3 * 32 + 2 * 12 + 16;
    BOOST_TEST(u32_at(bytes, material1) == 2u);
    BOOST_TEST(u32_at(bytes, material1 + 12) == aem::kMaterialTransparent);
    const size_t joint1 = material1 + 16 + 196; // name, matrix, parent
    BOOST_TEST(std::memcmp(bytes.data() + joint1, "arm\0", 4) == 0);
    BOOST_TEST(u32_at(bytes, joint1 + 128 + 64) == 0u);
    const size_t animation = joint1 + 196;
    BOOST_TEST(f32_at(bytes, animation + 128) == model.animations[0].duration);
    const size_t track1 = animation + 132 + 16; // first key, translation, rotation, scale counts
    const uint32_t track[4] = {6, 1, 2, 1};
    for (size_t i = 0; i < 4; ++i)
        BOOST_TEST(u32_at(bytes, track1 + 4 * i) == track[i]);
}

BOOST_AUTO_TEST_CASE(the_2024_layout_still_reads_as_2024) {
    const aem::Model model = assbin_test::make_two_bone_model();
    const aem::Model read = aem::read_model(aem::to_bytes(model));
    BOOST_TEST((read.layout == aem::Layout::Edition2024));
    BOOST_TEST((read == model));
}

BOOST_AUTO_TEST_CASE(a_file_that_fits_neither_layout_names_both) {
    auto bytes = aem::to_bytes(make_two_joint_model());
    bytes.pop_back();
    try {
        aem::read_model(bytes);
        BOOST_FAIL("a short 2025 file was read");
    } catch (const aem::Error& error) {
        const std::string message = error.what();
        BOOST_TEST(message.find("nor does it fit the 2025 layout: its 2025 counts imply " +
                                std::to_string(bytes.size() + 1) + " bytes") != std::string::npos,
                   message);
    }
    for (size_t size = 0; size < bytes.size(); size += 7) // every prefix refused, none crashes
        BOOST_CHECK_THROW(aem::read_model(std::span(bytes).first(size)), aem::Error);
}

BOOST_AUTO_TEST_CASE(a_huge_image_buffer_is_refused_before_allocating) {
    auto bytes = aem::to_bytes(make_two_joint_model());
    assbin_test::put_u32_at(bytes, 16, 0xFFFFFFFFu); // image bytes ~ 2^64
    BOOST_CHECK_THROW(aem::read_model(bytes), aem::Error);
}

BOOST_AUTO_TEST_CASE(each_2025_invariant_is_checked) {
    const auto broken = [](auto&& edit) {
        aem::Model model = make_two_joint_model();
        edit(model);
        return aem::validate(model);
    };
    BOOST_TEST(has_rule(broken([](aem::Model& m) { m.textures[1].channels = 3; }), aem::Rule::TextureFormat));
    BOOST_TEST(has_rule(broken([](aem::Model& m) { m.textures[0].compression = aem::kCompressionBc5; }),
                        aem::Rule::TextureFormat));
    BOOST_TEST(has_rule(broken([](aem::Model& m) { m.textures[0].wrap_x = 3; }), aem::Rule::TextureFormat));
    BOOST_TEST(has_rule(broken([](aem::Model& m) { m.textures[2].image_offset = 55; }),
                        aem::Rule::TextureChainOutOfBounds));
    BOOST_TEST(has_rule(broken([](aem::Model& m) { m.materials[0].normal_texture = aem::kNone; }),
                        aem::Rule::MaterialTextureMissing));
    BOOST_TEST(has_rule(broken([](aem::Model& m) { m.materials[1].type = 2; }), aem::Rule::MaterialType));
    BOOST_TEST(
        has_rule(broken([](aem::Model& m) { m.vertices[2].extra_bone = 0; }), aem::Rule::ExtraBoneInLayout));
    BOOST_TEST(has_rule(broken([](aem::Model& m) { m.sequences[0].scale.first = 3; }),
                        aem::Rule::TrackNotContiguous));
    BOOST_TEST(
        has_rule(broken([](aem::Model& m) { m.bones[0].name = std::string(128, 'j'); }), aem::Rule::BadName));
}

BOOST_AUTO_TEST_CASE(writing_refuses_what_the_layout_cannot_hold) {
    aem::Model with_extra_bone = make_two_joint_model();
    with_extra_bone.vertices[0].extra_bone = 1;
    BOOST_CHECK_EXCEPTION(aem::to_bytes(with_extra_bone), aem::Error,
                          [](const aem::Error& e) { return e.code() == aem::ErrorCode::LayoutMismatch; });
    aem::Model texels_in_2024 = assbin_test::make_two_bone_model();
    texels_in_2024.image_buffer = {1, 2, 3};
    BOOST_CHECK_EXCEPTION(aem::to_bytes(texels_in_2024), aem::Error,
                          [](const aem::Error& e) { return e.code() == aem::ErrorCode::LayoutMismatch; });
}

BOOST_AUTO_TEST_CASE(both_layouts_pose_alike) {
    const aem::Model edition_2024 = assbin_test::make_two_bone_model();
    const aem::Model edition_2025 = aem::read_model(aem::to_bytes(make_two_joint_model()));
    for (const float t : {-1.0f, 0.0f, 0.5f, 1.0f, 2.0f, 3.0f}) {
        const aem::Pose a = aem::evaluate_pose(edition_2024, 0u, t);
        const aem::Pose b = aem::evaluate_pose(edition_2025, 0u, t);
        for (uint32_t v : {0u, 1u, 2u, 5u}) // the vertices whose skin both layouts share
            BOOST_TEST((aem::skinned_position(edition_2024, a, v) - aem::skinned_position(edition_2025, b, v))
                           .norm() < 1e-6f);
        // Vertex 3: the 2024 mesh bone (extra bone 1) is the 2025 joint 1 with weight 1.
        BOOST_TEST(
            (aem::skinned_position(edition_2024, a, 3) - aem::skinned_position(edition_2025, b, 3)).norm() <
            1e-6f);
    }
}

BOOST_AUTO_TEST_SUITE_END()
