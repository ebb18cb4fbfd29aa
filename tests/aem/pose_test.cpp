// Pose evaluation against values worked out by hand for the two-bone model (aem_fixtures.hpp).
#include "aem_fixtures.hpp"

#include <aem/io.hpp>
#include <aem/pose.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace {

constexpr float kTolerance = 1e-5f;

// The animation's channels, written out piecewise from the keys (not by the library):
// bone 0 position  (0,0,0) -> (2,0,0) over [0,1], -> (2,4,0) over [1,2]
// bone 0 scale     1 -> 3 over [0,2], uniform
// bone 1 rotation  0 -> 90 degrees about +z over [0,2]
// Outside [0, 2] every channel holds its end value.
struct HandPose {
    Eigen::Vector3f root_position;
    float root_scale;
    float child_angle; // radians
};

HandPose by_hand(float time) {
    const float t = std::clamp(time, 0.0f, 2.0f);
    HandPose pose;
    pose.root_position = t <= 1 ? Eigen::Vector3f(2 * t, 0, 0) : Eigen::Vector3f(2, 4 * (t - 1), 0);
    pose.root_scale = 1 + t;
    pose.child_angle = static_cast<float>(M_PI / 4) * t;
    return pose;
}

Eigen::Matrix4f rows(std::initializer_list<std::initializer_list<float>> values) {
    Eigen::Matrix4f matrix;
    int r = 0;
    for (const auto& row : values) {
        int c = 0;
        for (float value : row)
            matrix(r, c++) = value;
        ++r;
    }
    return matrix;
}

// skin 0 = global 0 = [s·I | p]          (inverse bind identity)
Eigen::Matrix4f root_skin_by_hand(const HandPose& h) {
    const float s = h.root_scale;
    const Eigen::Vector3f& p = h.root_position;
    return rows({{s, 0, 0, p.x()}, {0, s, 0, p.y()}, {0, 0, s, p.z()}, {0, 0, 0, 1}});
}

// global 1 = global 0 · [R(a) | (0,1,0)] = [s·R | p + s·(0,1,0)]
// skin 1   = global 1 · translate(0,-1,0) = [s·R | p + s·(0,1,0) - s·R·(0,1,0)]
//          = [s·R | p + s·(sin a, 1 - cos a, 0)]
Eigen::Matrix4f child_skin_by_hand(const HandPose& h) {
    const float s = h.root_scale;
    const float c = std::cos(h.child_angle);
    const float n = std::sin(h.child_angle);
    const Eigen::Vector3f& p = h.root_position;
    return rows({{s * c, -s * n, 0, p.x() + s * n},
                 {s * n, s * c, 0, p.y() + s * (1 - c)},
                 {0, 0, s, p.z()},
                 {0, 0, 0, 1}});
}

Eigen::Vector3f transform(const Eigen::Matrix4f& matrix, const Eigen::Vector3f& point) {
    return (matrix * point.homogeneous()).head<3>();
}

void check_close(const Eigen::MatrixXf& actual, const Eigen::MatrixXf& expected) {
    BOOST_TEST_INFO("actual:\n" << actual << "\nexpected:\n" << expected);
    const float scale = 1 + expected.cwiseAbs().maxCoeff();
    BOOST_TEST((actual - expected).cwiseAbs().maxCoeff() <= kTolerance * scale);
}

const float kTimes[] = {-1.0f, 0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.5f};

} // namespace

BOOST_AUTO_TEST_CASE(hand_formulas_agree_with_literal_values_at_one_second) {
    // At t = 1: p = (2,0,0), s = 2, a = 45 degrees; worked out on paper.
    const HandPose h = by_hand(1.0f);
    const float r = std::sqrt(2.0f); // s·cos 45 = s·sin 45
    check_close(child_skin_by_hand(h),
                rows({{r, -r, 0, 2 + r}, {r, r, 0, 2 - r}, {0, 0, 2, 0}, {0, 0, 0, 1}}));
    const aem::Pose pose = aem::evaluate_pose(assbin_test::make_two_bone_model(), 0, 1.0f);
    check_close(aem::skinned_position(assbin_test::make_two_bone_model(), pose, 1),
                Eigen::Vector3f(2 - r, 2 + r, 0)); // (0,2,0): 1 above the joint at (2,2,0), turned, doubled
}

BOOST_AUTO_TEST_CASE(skinning_matrices_match_hand_values_before_between_and_after_keys) {
    const aem::Model model = assbin_test::make_two_bone_model();
    for (float time : kTimes) {
        BOOST_TEST_CONTEXT("t = " << time) {
            const HandPose h = by_hand(time);
            const aem::Pose pose = aem::evaluate_pose(model, 0, time);
            BOOST_REQUIRE_EQUAL(pose.skinning.size(), 2u);
            check_close(pose.skinning[0], root_skin_by_hand(h));
            check_close(pose.skinning[1], child_skin_by_hand(h));
            // global 1 = skin 1 · bind 1, bind 1 = translate(0, 1, 0)
            check_close(pose.global[1], child_skin_by_hand(h) *
                                            rows({{1, 0, 0, 0}, {0, 1, 0, 1}, {0, 0, 1, 0}, {0, 0, 0, 1}}));
        }
    }
}

BOOST_AUTO_TEST_CASE(skinned_positions_match_hand_values) {
    const aem::Model model = assbin_test::make_two_bone_model();
    for (float time : kTimes) {
        BOOST_TEST_CONTEXT("t = " << time) {
            const HandPose h = by_hand(time);
            const Eigen::Matrix4f skin0 = root_skin_by_hand(h);
            const Eigen::Matrix4f skin1 = child_skin_by_hand(h);
            const aem::Pose pose = aem::evaluate_pose(model, 0, time);
            const auto at = [&](uint32_t vertex) { return aem::skinned_position(model, pose, vertex); };
            check_close(at(0), h.root_position);
            check_close(at(1), transform(skin1, {0, 2, 0}));
            check_close(at(2), 0.5f * transform(skin0, {1, 2, 0}) + 0.5f * transform(skin1, {1, 2, 0}));
            check_close(at(3), transform(skin1, {1, 0, 0}));                   // extra bone only
            check_close(at(4), transform(skin1, transform(skin0, {0, 2, 0}))); // skin · extra · position
            check_close(at(5), Eigen::Vector3f(5, 5, 5));
        }
    }
}

BOOST_AUTO_TEST_CASE(skinned_positions_match_literal_values_at_one_second) {
    const aem::Model model = assbin_test::make_two_bone_model();
    const float r = std::sqrt(2.0f);
    const auto at = [&](uint32_t vertex) { return aem::skinned_position(model, vertex, 0, 1.0f); };
    check_close(at(0), Eigen::Vector3f(2, 0, 0));
    check_close(at(2), Eigen::Vector3f(3, 3 + r, 0));         // halfway between (3,4,0) and (3, 2+2r, 0)
    check_close(at(3), Eigen::Vector3f(2 + 2 * r, 2, 0));     // (1,0,0) on the child: (2,2) + 2·R45·(1,-1)
    check_close(at(4), Eigen::Vector3f(2 - r, 2 + 5 * r, 0)); // (0,2,0) -> (2,4,0) by bone 0, then bone 1
}

BOOST_AUTO_TEST_CASE(rotation_is_slerped_not_lerped) {
    // At t = 0.5 the child has turned a quarter of 90 degrees: 22.5 exactly. Normalised lerp gives 21.6.
    const aem::BoneTransform child = aem::sample_bone(assbin_test::make_two_bone_model(), 0, 1, 0.5f);
    const float half_angle = static_cast<float>(M_PI / 16);
    BOOST_TEST(child.rotation.z() == std::sin(half_angle), boost::test_tools::tolerance(kTolerance));
    BOOST_TEST(child.rotation.w() == std::cos(half_angle), boost::test_tools::tolerance(kTolerance));
    check_close(child.translation, Eigen::Vector3f(0, 1, 0));
    check_close(child.scale, Eigen::Vector3f(1, 1, 1));
    const aem::BoneTransform root = aem::sample_bone(assbin_test::make_two_bone_model(), 0, 0, 0.5f);
    check_close(root.translation, Eigen::Vector3f(1, 0, 0));
    check_close(root.scale, Eigen::Vector3f(1.5f, 1.5f, 1.5f));
}

BOOST_AUTO_TEST_CASE(local_matrix_is_translate_rotate_scale) {
    aem::BoneTransform transform;
    transform.translation = {1, 2, 3};
    transform.rotation =
        Eigen::Quaternionf(Eigen::AngleAxisf(static_cast<float>(M_PI / 2), Eigen::Vector3f::UnitZ()));
    transform.scale = {2, 3, 4};
    // R(90 z) · diag(2,3,4) = [[0,-3,0],[2,0,0],[0,0,4]]; S·R would give [[0,-2,0],[3,0,0],...].
    check_close(aem::local_matrix(transform),
                rows({{0, -3, 0, 1}, {2, 0, 0, 2}, {0, 0, 4, 3}, {0, 0, 0, 1}}));
}

BOOST_AUTO_TEST_CASE(no_animation_gives_identity_skinning_and_the_bind_pose) {
    const aem::Model model = assbin_test::make_two_bone_model();
    const aem::Pose pose = aem::evaluate_pose(model, std::nullopt, 1.0f);
    for (const Eigen::Matrix4f& skin : pose.skinning)
        BOOST_TEST((skin == Eigen::Matrix4f::Identity()));
    check_close(pose.global[1], rows({{1, 0, 0, 0}, {0, 1, 0, 1}, {0, 0, 1, 0}, {0, 0, 0, 1}}));
    for (uint32_t v = 0; v < model.vertices.size(); ++v) {
        check_close(aem::skinned_position(model, v, std::nullopt, 0.0f), model.vertices[v].position);
    }
}

BOOST_AUTO_TEST_CASE(pose_of_a_read_model_equals_pose_of_the_built_one) {
    const aem::Model model = assbin_test::make_two_bone_model();
    const aem::Model read = aem::read_model(aem::to_bytes(model));
    const aem::Pose built = aem::evaluate_pose(model, 0, 1.25f);
    const aem::Pose loaded = aem::evaluate_pose(read, 0, 1.25f);
    for (size_t b = 0; b < 2; ++b)
        BOOST_TEST((built.skinning[b] == loaded.skinning[b]));
}

BOOST_AUTO_TEST_CASE(pose_rejects_bad_arguments_without_reading_out_of_bounds) {
    const aem::Model model = assbin_test::make_two_bone_model();
    BOOST_CHECK_THROW(aem::evaluate_pose(model, 1, 0.0f), std::out_of_range);
    BOOST_CHECK_THROW(aem::sample_bone(model, 0, 2, 0.0f), std::out_of_range);
    BOOST_CHECK_THROW(aem::skinned_position(model, 6, 0, 0.0f), std::out_of_range);
    BOOST_CHECK_THROW(aem::evaluate_pose(model, 0, std::numeric_limits<float>::quiet_NaN()),
                      std::invalid_argument);

    aem::Model child_first = model;
    child_first.bones[0].parent = 1;
    BOOST_CHECK_THROW(aem::evaluate_pose(child_first, 0, 0.0f), std::invalid_argument);
    aem::Model empty_channel = model;
    empty_channel.sequences[1].rotation.count = 0;
    BOOST_CHECK_THROW(aem::evaluate_pose(empty_channel, 0, 0.0f), std::invalid_argument);
    aem::Model past_keys = model;
    past_keys.sequences[1].scale.first = 10;
    BOOST_CHECK_THROW(aem::evaluate_pose(past_keys, 0, 0.0f), std::out_of_range);
    aem::Model bad_weight_bone = model;
    bad_weight_bone.vertices[0].bone_indices[0] = 5;
    BOOST_CHECK_THROW(aem::skinned_position(bad_weight_bone, 0, 0, 0.0f), std::out_of_range);
}
