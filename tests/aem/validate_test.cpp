// The validator: each invariant of AEM-FORMAT.md broken alone, in a file, and named.
#include "aem_fixtures.hpp"

#include <aem/io.hpp>
#include <aem/validate.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <string>

using aem::Rule;

namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInfinity = std::numeric_limits<float>::infinity();

// Writes the model to a file, reads it back and validates what was read.
std::vector<aem::Violation> violations_in_file(const aem::Model& model) {
    const assbin_test::TempDir dir;
    aem::write_file(model, dir / "broken.aem");
    return aem::validate(aem::read_file(dir / "broken.aem"));
}

std::string listed(const std::vector<aem::Violation>& violations) {
    std::ostringstream out;
    for (const aem::Violation& violation : violations)
        out << "\n  " << aem::to_string(violation);
    return out.str();
}

// The model breaks exactly one invariant, once, at `location`.
void expect_only(const std::vector<aem::Violation>& violations, Rule rule, const std::string& location) {
    BOOST_TEST_INFO("violations:" << listed(violations));
    BOOST_REQUIRE_EQUAL(violations.size(), 1u);
    BOOST_TEST(aem::rule_name(violations[0].rule) == aem::rule_name(rule));
    BOOST_TEST(violations[0].location == location);
    BOOST_TEST(!violations[0].message.empty());
}

void expect_only_in_file(const aem::Model& model, Rule rule, const std::string& location) {
    expect_only(violations_in_file(model), rule, location);
}

} // namespace

BOOST_AUTO_TEST_CASE(valid_model_has_no_violations) {
    const auto violations = violations_in_file(assbin_test::make_two_bone_model());
    BOOST_TEST_INFO("violations:" << listed(violations));
    BOOST_TEST(violations.empty());
    BOOST_TEST(aem::validate(aem::Model{}).empty());
}

BOOST_AUTO_TEST_CASE(validator_names_index_out_of_range) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.indices[4] = 6;
    expect_only_in_file(model, Rule::IndexOutOfRange, "indices[4]");
}

BOOST_AUTO_TEST_CASE(validator_names_index_count_not_multiple_of_3) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.indices.push_back(0);
    expect_only_in_file(model, Rule::IndexCountNotTriangles, "indices");
}

BOOST_AUTO_TEST_CASE(validator_names_mesh_range_outside_the_index_section) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.meshes[1].first_index = 6;
    expect_only_in_file(model, Rule::MeshRangeOutOfBounds, "meshes[1]");
}

BOOST_AUTO_TEST_CASE(validator_names_mesh_range_that_wraps_32_bits) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.meshes[1].first_index = 0xFFFFFFFFu; // + 3 wraps to 2 in 32 bits
    expect_only_in_file(model, Rule::MeshRangeOutOfBounds, "meshes[1]");
}

BOOST_AUTO_TEST_CASE(validator_names_mesh_count_not_multiple_of_3) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.meshes[0].index_count = 2;
    expect_only_in_file(model, Rule::MeshCountNotTriangles, "meshes[0]");
}

BOOST_AUTO_TEST_CASE(validator_names_mesh_material_out_of_range) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.meshes[1].material = 2;
    expect_only_in_file(model, Rule::MeshMaterialOutOfRange, "meshes[1].material");
}

BOOST_AUTO_TEST_CASE(validator_names_material_texture_out_of_range) {
    aem::Model base_color = assbin_test::make_two_bone_model();
    base_color.materials[1].base_color_texture = 3;
    expect_only_in_file(base_color, Rule::MaterialTextureOutOfRange, "materials[1].base_color_texture");
    aem::Model normal = assbin_test::make_two_bone_model();
    normal.materials[0].normal_texture = -2;
    expect_only_in_file(normal, Rule::MaterialTextureOutOfRange, "materials[0].normal_texture");
    aem::Model orm = assbin_test::make_two_bone_model();
    orm.materials[0].orm_texture = 254;
    expect_only_in_file(orm, Rule::MaterialTextureOutOfRange, "materials[0].orm_texture");
}

BOOST_AUTO_TEST_CASE(validator_names_vertex_bone_out_of_range) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.vertices[2].bone_indices[1] = 2;
    expect_only_in_file(model, Rule::VertexBoneOutOfRange, "vertices[2].bone_indices[1]");
}

BOOST_AUTO_TEST_CASE(validator_names_unused_bone_slot_with_weight) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.vertices[0].bone_weights[3] = 0.25f; // index -1; the used slots still sum to 1
    expect_only_in_file(model, Rule::BoneSlotWeight, "vertices[0].bone_weights[3]");
}

BOOST_AUTO_TEST_CASE(validator_names_used_bone_slot_without_weight) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.vertices[1].bone_indices[1] = 0; // weight 0 but an index: the slot is neither used nor unused
    expect_only_in_file(model, Rule::BoneSlotWeight, "vertices[1].bone_weights[1]");
}

BOOST_AUTO_TEST_CASE(validator_names_weights_not_summing_to_one) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.vertices[2].bone_weights[1] = 0.4f;
    expect_only_in_file(model, Rule::WeightSum, "vertices[2].bone_weights");
}

BOOST_AUTO_TEST_CASE(validator_accepts_weight_sum_within_tolerance) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.vertices[2].bone_weights[1] = 0.500004f;
    BOOST_TEST(violations_in_file(model).empty());
    model.vertices[2].bone_weights[1] = 0.50002f;
    expect_only_in_file(model, Rule::WeightSum, "vertices[2].bone_weights");
}

BOOST_AUTO_TEST_CASE(validator_names_extra_bone_out_of_range) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.vertices[3].extra_bone = 2;
    expect_only_in_file(model, Rule::ExtraBoneOutOfRange, "vertices[3].extra_bone");
}

BOOST_AUTO_TEST_CASE(validator_names_bone_parent_after_child) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.bones[0].parent = 1;
    expect_only_in_file(model, Rule::BoneParentNotEarlier, "bones[0].parent");
}

BOOST_AUTO_TEST_CASE(validator_names_bone_that_is_its_own_parent) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.bones[1].parent = 1;
    expect_only_in_file(model, Rule::BoneParentNotEarlier, "bones[1].parent");
}

BOOST_AUTO_TEST_CASE(validator_names_bone_parent_that_is_not_a_bone) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.bones[1].parent = -7;
    expect_only_in_file(model, Rule::BoneParentNotEarlier, "bones[1].parent");
}

BOOST_AUTO_TEST_CASE(validator_names_sequence_count_not_animations_times_bones) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.sequences.push_back(model.sequences[0]);
    expect_only_in_file(model, Rule::SequenceCount, "sequences");
}

BOOST_AUTO_TEST_CASE(validator_names_animation_sequences_out_of_bounds) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.animations[0].first_sequence = 1;
    expect_only_in_file(model, Rule::AnimationSequencesOutOfBounds, "animations[0]");
}

BOOST_AUTO_TEST_CASE(validator_names_animations_sharing_sequences) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.animations.push_back({"again", 1.0f, 1}); // [1, 3) overlaps the first's [0, 2)
    model.sequences.push_back(model.sequences[0]);
    model.sequences.push_back(model.sequences[1]);
    expect_only_in_file(model, Rule::AnimationSequencesOverlap, "animations[1]");
}

BOOST_AUTO_TEST_CASE(validator_names_key_range_out_of_bounds) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.sequences[1].scale.first = 10;
    expect_only_in_file(model, Rule::KeyRangeOutOfBounds, "sequences[1].scale");
}

BOOST_AUTO_TEST_CASE(validator_names_empty_channel) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.sequences[0].rotation.count = 0;
    expect_only_in_file(model, Rule::EmptyChannel, "sequences[0].rotation");
}

BOOST_AUTO_TEST_CASE(validator_names_key_times_not_strictly_increasing) {
    aem::Model equal = assbin_test::make_two_bone_model();
    equal.keyframes[1].time = 0.0f; // same as key 0
    expect_only_in_file(equal, Rule::KeyTimesNotIncreasing, "sequences[0].position[1]");
    aem::Model decreasing = assbin_test::make_two_bone_model();
    decreasing.keyframes[8].time = -1.0f;
    expect_only_in_file(decreasing, Rule::KeyTimesNotIncreasing, "sequences[1].rotation[1]");
}

BOOST_AUTO_TEST_CASE(validator_names_rotation_that_is_not_unit) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.keyframes[8].value = {0, 0, 1, 1};
    expect_only_in_file(model, Rule::RotationNotUnit, "sequences[1].rotation[1]");
}

BOOST_AUTO_TEST_CASE(validator_names_position_and_scale_keys_with_w) {
    aem::Model position = assbin_test::make_two_bone_model();
    position.keyframes[2].value.w() = 1.0f;
    expect_only_in_file(position, Rule::VectorKeyWNotZero, "sequences[0].position[2]");
    aem::Model scale = assbin_test::make_two_bone_model();
    scale.keyframes[9].value.w() = 0.5f;
    expect_only_in_file(scale, Rule::VectorKeyWNotZero, "sequences[1].scale[0]");
}

BOOST_AUTO_TEST_CASE(validator_names_non_finite_floats) {
    aem::Model normal = assbin_test::make_two_bone_model();
    normal.vertices[1].normal.y() = kNaN;
    expect_only_in_file(normal, Rule::NonFiniteFloat, "vertices[1].normal");
    aem::Model weight = assbin_test::make_two_bone_model();
    weight.vertices[2].bone_weights[0] = kInfinity;
    expect_only_in_file(weight, Rule::NonFiniteFloat, "vertices[2].bone_weights");
    aem::Model matrix = assbin_test::make_two_bone_model();
    matrix.bones[1].inverse_bind(2, 3) = -kInfinity;
    expect_only_in_file(matrix, Rule::NonFiniteFloat, "bones[1].inverse_bind");
    aem::Model duration = assbin_test::make_two_bone_model();
    duration.animations[0].duration = kNaN;
    expect_only_in_file(duration, Rule::NonFiniteFloat, "animations[0].duration");
    aem::Model time = assbin_test::make_two_bone_model();
    time.keyframes[1].time = kNaN;
    expect_only_in_file(time, Rule::NonFiniteFloat, "keyframes[1].time");
    aem::Model rotation = assbin_test::make_two_bone_model();
    rotation.keyframes[8].value.x() = kNaN;
    expect_only_in_file(rotation, Rule::NonFiniteFloat, "keyframes[8].value");
}

// A 128-byte field with no NUL cannot come from the writer: patch one into the file.
BOOST_AUTO_TEST_CASE(validator_names_texture_name_without_terminator) {
    const assbin_test::TempDir dir;
    const aem::Model model = assbin_test::make_two_bone_model();
    auto bytes = aem::to_bytes(model);
    const size_t texture_section = 40 + 92 * model.vertices.size() + 4 * model.indices.size();
    for (size_t i = 0; i < 128; ++i)
        bytes[texture_section + 128 + i] = std::byte{'x'};
    assbin_test::write_bytes(dir / "unterminated.aem", bytes);
    const aem::Model read = aem::read_file(dir / "unterminated.aem");
    BOOST_TEST(read.textures[1].file_name == std::string(128, 'x'));
    expect_only(aem::validate(read), Rule::BadName, "textures[1].file_name");
}

// A name with a NUL inside cannot come from a file either; a model built in memory can hold one.
BOOST_AUTO_TEST_CASE(validator_names_name_holding_a_nul) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.animations[0].name = std::string("be\0nd", 5);
    expect_only(aem::validate(model), Rule::BadName, "animations[0].name");
}

BOOST_AUTO_TEST_CASE(validator_reports_every_violation_not_just_the_first) {
    aem::Model model = assbin_test::make_two_bone_model();
    model.indices[0] = 100;
    model.indices[5] = 200;
    model.materials[1].orm_texture = 9;
    model.bones[0].parent = 1;
    model.keyframes[8].value = {0, 0, 0, 2};
    const auto violations = violations_in_file(model);
    BOOST_TEST_INFO("violations:" << listed(violations));
    BOOST_REQUIRE_EQUAL(violations.size(), 5u);
    BOOST_TEST(violations[0].location == "indices[0]");
    BOOST_TEST(violations[1].location == "indices[5]");
    BOOST_TEST(violations[2].location == "materials[1].orm_texture");
    BOOST_TEST(violations[3].location == "bones[0].parent");
    BOOST_TEST(violations[4].location == "sequences[1].rotation[1]");
    BOOST_TEST(violations[4].message.find("animation 0 \"bend\", bone 1") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(rule_names_are_distinct) {
    std::set<std::string> names;
    for (int rule = 0; rule <= static_cast<int>(Rule::BadName); ++rule) {
        names.insert(aem::rule_name(static_cast<Rule>(rule)));
    }
    BOOST_TEST(names.size() == static_cast<size_t>(Rule::BadName) + 1);
    BOOST_TEST(names.count("unknown") == 0u);
}

// Sequences may all point at the same keyframes; checking each channel key by key would cost
// sequences × keys (hours for a hostile file of a few hundred megabytes).
BOOST_AUTO_TEST_CASE(validator_stays_linear_when_channels_share_keyframes) {
    constexpr uint32_t kKeys = 50'000;
    constexpr uint32_t kAnimations = 50'000;
    aem::Model model;
    model.bones = {aem::Bone{}};
    for (uint32_t k = 0; k < kKeys; ++k) {
        model.keyframes.push_back({static_cast<float>(k), {1, 0, 0, 0}}); // unit, and w = 0: fits any channel
    }
    for (uint32_t a = 0; a < kAnimations; ++a) {
        model.animations.push_back({"a", 1.0f, a});
        model.sequences.push_back({{0, kKeys}, {0, kKeys}, {0, kKeys}});
    }
    BOOST_TEST(aem::validate(model).empty());
    model.keyframes[kKeys - 1].time = 0; // one fault, seen by every channel that holds the key
    BOOST_TEST(aem::validate(model).size() == 3u * kAnimations);
}
