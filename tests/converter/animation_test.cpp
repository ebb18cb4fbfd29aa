// Rule 5: ticks to seconds (0 ticks per second means 25 unless chosen otherwise), rest-pose keys
// for bones without a channel, quaternions stored (x, y, z, w), equal times collapsed, channels
// naming unknown nodes reported and skipped; AEM and glTF play the same prepared keys.
#include "scene_maker.hpp"
#include "support/fixtures.hpp"
#include "support/gltf_read.hpp"

#include "algorithms.hpp"
#include <aem/pose.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

using assbin::converter::ConvertOptions;
using assbin_test::convert_in_source_order;
using assbin_test::rows;
using assbin_test::SceneMaker;
using assbin_test::translation;

bool mentions(const std::vector<std::string>& warnings, const std::string& a, const std::string& b = "") {
    return std::any_of(warnings.begin(), warnings.end(), [&](const std::string& w) {
        return w.find(a) != std::string::npos && w.find(b) != std::string::npos;
    });
}

// root -> spinner (driven by channel 0, holds a triangle: a mesh bone) and root -> resting -> tip
// (tip driven by channel 1). "resting" has no channel: a hierarchy bone that gets rest-pose keys
// from its transform (rotation 90 degrees about z, scale 2, translation (1, 2, 3)).
const assbin::Matrix4 kResting = rows({{0, -2, 0, 1}, {2, 0, 0, 2}, {0, 0, 2, 3}, {0, 0, 0, 1}});

SceneMaker animated_scene(double ticks_per_second) {
    SceneMaker s;
    s.triangle();
    s.material();
    const uint32_t root = s.node("root", -1);
    s.node("spinner", static_cast<int32_t>(root), assbin::Matrix4::Identity(), {0});
    const uint32_t resting = s.node("resting", static_cast<int32_t>(root), kResting);
    s.node("tip", static_cast<int32_t>(resting), assbin::Matrix4::Identity(), {0});
    assbin::Animation animation;
    animation.name = "spin";
    animation.duration = 40;
    animation.ticks_per_second = ticks_per_second;
    assbin::NodeChannel channel;
    channel.node_name = "spinner";
    channel.positions.keys = {{0.0, {0, 0, 0}}, {20.0, {4, 0, 0}}};
    const float half = std::sqrt(0.5f);
    channel.rotations.keys = {{0.0, assbin::Quaternion(1, 0, 0, 0)},
                              {40.0, assbin::Quaternion(half, 0, 0, half)}};
    channel.scalings.keys = {{10.0, {1, 1, 1}}};
    animation.channels.push_back(channel);
    assbin::NodeChannel tip;
    tip.node_name = "tip";
    tip.positions.keys = {{0.0, {0, 0, 0}}};
    animation.channels.push_back(tip);
    s.scene.animations.push_back(animation);
    return s;
}

// Bones of the scene above: root 0, spinner 1, resting 2, tip 3.
const aem::Sequence& sequence(const aem::Model& model, size_t animation, size_t bone) {
    return model.sequences[model.animations[animation].first_sequence + bone];
}

} // namespace

BOOST_AUTO_TEST_SUITE(animation)

BOOST_AUTO_TEST_CASE(tick_times_become_seconds) {
    const aem::Model model = convert_in_source_order(animated_scene(10).scene).model;
    BOOST_TEST_REQUIRE(model.animations.size() == 1u);
    BOOST_TEST(model.animations[0].name == "spin");
    BOOST_TEST(model.animations[0].duration == 4.0f);
    const aem::Sequence& spinner = sequence(model, 0, 1);
    BOOST_TEST(spinner.position.count == 2u);
    BOOST_TEST(model.keyframes[spinner.position.first + 1].time == 2.0f);
    BOOST_TEST(model.keyframes[spinner.rotation.first + 1].time == 4.0f);
    BOOST_TEST(model.keyframes[spinner.scale.first].time == 1.0f);
}

BOOST_AUTO_TEST_CASE(zero_ticks_per_second_means_25_unless_chosen_otherwise) {
    const assbin::Scene scene = animated_scene(0).scene;
    const aem::Model model = convert_in_source_order(scene).model;
    BOOST_TEST(model.animations[0].duration == 40.0f / 25.0f);
    BOOST_TEST(model.keyframes[sequence(model, 0, 1).position.first + 1].time == 20.0f / 25.0f);
    ConvertOptions options;
    options.default_ticks_per_second = 50;
    const aem::Model faster = convert_in_source_order(scene, options).model;
    BOOST_TEST(faster.animations[0].duration == 0.8f);
    // A file's own rate is never overridden.
    BOOST_TEST(convert_in_source_order(animated_scene(10).scene, options).model.animations[0].duration ==
               4.0f);
}

BOOST_AUTO_TEST_CASE(a_real_dump_with_zero_ticks_per_second_plays_at_25) {
    const assbin::Scene scene =
        assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/3DS__RotatingCube.3DS.assbin"));
    BOOST_TEST_REQUIRE(scene.animations[0].ticks_per_second == 0.0);
    const aem::Model model = convert_in_source_order(scene).model;
    BOOST_TEST(model.animations[0].duration == static_cast<float>(scene.animations[0].duration / 25.0));
}

BOOST_AUTO_TEST_CASE(quaternions_are_stored_x_y_z_w) {
    const aem::Model model = convert_in_source_order(animated_scene(10).scene).model;
    const aem::Keyframe& key = model.keyframes[sequence(model, 0, 1).rotation.first + 1];
    const float half = std::sqrt(0.5f);
    BOOST_TEST(key.value.x() == 0.0f);
    BOOST_TEST(key.value.y() == 0.0f);
    BOOST_TEST(key.value.z() == half, boost::test_tools::tolerance(1e-6f));
    BOOST_TEST(key.value.w() == half, boost::test_tools::tolerance(1e-6f));
    const aem::Keyframe& position = model.keyframes[sequence(model, 0, 1).position.first + 1];
    BOOST_TEST((position.value == Eigen::Vector4f(4, 0, 0, 0)));
}

BOOST_AUTO_TEST_CASE(bones_without_a_channel_get_one_rest_pose_key_per_channel) {
    const aem::Model model = convert_in_source_order(animated_scene(10).scene).model;
    BOOST_TEST_REQUIRE(model.bones.size() == 4u);
    const aem::Sequence& resting = sequence(model, 0, 2);
    BOOST_TEST(resting.position.count == 1u);
    BOOST_TEST(resting.rotation.count == 1u);
    BOOST_TEST(resting.scale.count == 1u);
    BOOST_TEST((model.keyframes[resting.position.first].value == Eigen::Vector4f(1, 2, 3, 0)));
    const Eigen::Vector4f q = model.keyframes[resting.rotation.first].value; // 90 degrees about z
    const float half = std::sqrt(0.5f);
    BOOST_TEST((q - Eigen::Vector4f(0, 0, half, half)).norm() < 1e-6f);
    BOOST_TEST(((model.keyframes[resting.scale.first].value - Eigen::Vector4f(2, 2, 2, 0)).norm() < 1e-6f));
}

BOOST_AUTO_TEST_CASE(rest_keys_are_shared_by_every_animation) {
    SceneMaker s = animated_scene(10);
    s.scene.animations.push_back(s.scene.animations[0]);
    s.scene.animations[1].name = "again";
    const aem::Model model = convert_in_source_order(s.scene).model;
    BOOST_TEST(model.sequences.size() == 2u * model.bones.size());
    BOOST_TEST((sequence(model, 0, 2) == sequence(model, 1, 2)));
    BOOST_TEST(!(sequence(model, 0, 1) == sequence(model, 1, 1))); // channels get keys of their own
}

BOOST_AUTO_TEST_CASE(decompose_splits_translation_rotation_and_scale) {
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m.topLeftCorner<3, 3>() =
        Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix() *
        Eigen::Vector3d(2, 3, 4).asDiagonal();
    m.topRightCorner<3, 1>() = Eigen::Vector3d(5, 6, 7);
    const auto pose = assbin::converter::decompose(m);
    BOOST_TEST(pose.exact);
    BOOST_TEST((pose.scale - Eigen::Vector3f(2, 3, 4)).norm() < 1e-5f);
    BOOST_TEST((pose.translation - Eigen::Vector3f(5, 6, 7)).norm() < 1e-6f);
    Eigen::Matrix4d mirrored = m;
    mirrored.col(0) = -mirrored.col(0); // negative determinant
    const auto flipped = assbin::converter::decompose(mirrored);
    BOOST_TEST(flipped.exact);
    Eigen::Matrix4f rebuilt = Eigen::Matrix4f::Identity();
    rebuilt.topLeftCorner<3, 3>() = flipped.rotation.toRotationMatrix() * flipped.scale.asDiagonal();
    BOOST_TEST(
        (rebuilt.topLeftCorner<3, 3>() - mirrored.topLeftCorner<3, 3>().cast<float>()).cwiseAbs().maxCoeff() <
        1e-5f);
    Eigen::Matrix4d sheared = Eigen::Matrix4d::Identity();
    sheared(0, 1) = 0.5;
    BOOST_TEST(!assbin::converter::decompose(sheared).exact);
}

// The Assimp viewer's AnimEvaluator at a time shared by several keys: values approach the first of
// them and hold the last from that time on; keys between them are never shown.
BOOST_AUTO_TEST_CASE(keys_at_equal_times_follow_the_assimp_viewer) {
    SceneMaker s = animated_scene(10);
    s.scene.animations[0].channels[0].positions.keys = {
        {0.0, {0, 0, 0}}, {10.0, {1, 0, 0}}, {10.0, {9, 9, 9}}, {10.0, {2, 0, 0}}, {20.0, {3, 0, 0}}};
    const assbin::converter::ConvertResult result = convert_in_source_order(s.scene);
    const aem::Model& model = result.model;
    const aem::Sequence& spinner = sequence(model, 0, 1);
    BOOST_TEST_REQUIRE(spinner.position.count == 4u);
    const aem::Keyframe* keys = &model.keyframes[spinner.position.first];
    BOOST_TEST(keys[1].time == std::nextafter(1.0f, 0.0f)); // the first key at 10 ticks, just before 1 s
    BOOST_TEST((keys[1].value == Eigen::Vector4f(1, 0, 0, 0)));
    BOOST_TEST(keys[2].time == 1.0f); // the last one, at 1 s
    BOOST_TEST((keys[2].value == Eigen::Vector4f(2, 0, 0, 0)));
    BOOST_TEST(std::any_of(result.warnings.begin(), result.warnings.end(), [](const std::string& w) {
        return w.find("1 times carry several keys") != std::string::npos;
    }));
    // Posed: half-way to 1 s the value is half-way to the first key; at 1 s it is the last one.
    const auto x_at = [&](float seconds) { return aem::sample_bone(model, 0, 1, seconds).translation.x(); };
    BOOST_TEST(x_at(0.5f) == 0.5f, boost::test_tools::tolerance(1e-5f));
    BOOST_TEST(x_at(1.0f) == 2.0f, boost::test_tools::tolerance(1e-5f));
    BOOST_TEST(x_at(1.5f) == 2.5f, boost::test_tools::tolerance(1e-5f));
}

BOOST_AUTO_TEST_CASE(keys_sharing_the_first_time_hold_the_last_from_that_time) {
    SceneMaker s = animated_scene(10);
    s.scene.animations[0].channels[0].positions.keys = {
        {0.0, {5, 0, 0}}, {0.0, {1, 0, 0}}, {10.0, {2, 0, 0}}};
    const aem::Model model = convert_in_source_order(s.scene).model;
    const aem::Sequence& spinner = sequence(model, 0, 1);
    BOOST_TEST_REQUIRE(spinner.position.count == 3u);
    const aem::Keyframe* keys = &model.keyframes[spinner.position.first];
    BOOST_TEST(keys[0].time < 0.0f); // one float step before 0: only a time before the start shows it
    BOOST_TEST((keys[0].value == Eigen::Vector4f(5, 0, 0, 0)));
    BOOST_TEST(keys[1].time == 0.0f);
    BOOST_TEST((keys[1].value == Eigen::Vector4f(1, 0, 0, 0)));
}

BOOST_AUTO_TEST_CASE(keys_out_of_time_order_are_sorted_and_reported) {
    SceneMaker s = animated_scene(10);
    s.scene.animations[0].channels[0].positions.keys = {
        {20.0, {3, 0, 0}}, {0.0, {0, 0, 0}}, {10.0, {1, 0, 0}}};
    const assbin::converter::ConvertResult result = convert_in_source_order(s.scene);
    const aem::Sequence& spinner = sequence(result.model, 0, 1);
    BOOST_TEST(result.model.keyframes[spinner.position.first].time == 0.0f);
    BOOST_TEST(result.model.keyframes[spinner.position.first + 2].time == 2.0f);
    BOOST_TEST(mentions(result.warnings, "'spin'", "out of time order"));
}

// Both formats take their keys from the prepared scene (key_tracks.cpp): a track out of order, with
// a run of keys at one time, a key at a NaN time and a zero quaternion gives the same times and
// values in the AEM model and in the glTF file (where glTF leaves no key out as flat).
BOOST_AUTO_TEST_CASE(aem_and_gltf_play_the_same_keys) {
    SceneMaker s = animated_scene(10);
    assbin::NodeChannel& channel = s.scene.animations[0].channels[0];
    channel.positions.keys = {{20.0, {3, 0, 0}},
                              {0.0, {0, 0, 0}},
                              {10.0, {1, 0, 0}},
                              {10.0, {2, 5, 0}},
                              {std::numeric_limits<double>::quiet_NaN(), {7, 7, 7}}};
    const float half = std::sqrt(0.5f);
    channel.rotations.keys = {{0.0, assbin::Quaternion(2, 0, 0, 0)}, // not unit: made unit
                              {20.0, assbin::Quaternion(0, 0, 0, 0)},
                              {40.0, assbin::Quaternion(half, 0, 0, half)}};
    const assbin::converter::ConvertResult aem = convert_in_source_order(s.scene);
    ConvertOptions options;
    options.format = assbin::converter::OutputFormat::Glb;
    const assbin::converter::ConvertResult glb = assbin::converter::convert(s.scene, options);
    const assbin_test::gltf::Document doc = assbin_test::gltf::Document::from_glb(glb.encoded);

    const nlohmann::json& nodes = doc.json()["nodes"];
    const nlohmann::json& animation = doc.json()["animations"][0];
    const auto gltf_track = [&](const std::string& path) {
        for (const nlohmann::json& target : animation["channels"]) {
            const nlohmann::json& node = nodes[target["target"]["node"].get<size_t>()];
            if (node.value("name", "") != "spinner" || target["target"]["path"] != path) continue;
            const nlohmann::json& sampler = animation["samplers"][target["sampler"].get<size_t>()];
            return std::pair(doc.accessor(sampler["input"].get<size_t>()),
                             doc.accessor(sampler["output"].get<size_t>()));
        }
        BOOST_FAIL("no " + path + " track for 'spinner'");
        return std::pair<std::vector<double>, std::vector<double>>();
    };
    const aem::Sequence& spinner = sequence(aem.model, 0, 1);
    const auto compare = [&](const aem::KeyRange& range, const std::string& path, int width) {
        const auto [times, values] = gltf_track(path);
        BOOST_TEST_REQUIRE(times.size() == range.count);
        for (size_t k = 0; k < range.count; ++k) {
            const aem::Keyframe& key = aem.model.keyframes[range.first + k];
            BOOST_TEST(static_cast<float>(times[k]) == key.time);
            for (int c = 0; c < width; ++c)
                BOOST_TEST(values[k * static_cast<size_t>(width) + static_cast<size_t>(c)] == key.value[c],
                           boost::test_tools::tolerance(1e-6));
        }
    };
    BOOST_TEST(spinner.position.count == 4u); // 0, just before 1 s, 1 s, 2 s: the NaN key dropped
    compare(spinner.position, "translation", 3);
    BOOST_TEST(spinner.rotation.count == 2u); // the zero quaternion dropped
    compare(spinner.rotation, "rotation", 4);
    BOOST_TEST(mentions(aem.warnings, "2 keys with a non-finite time or value (or a zero quaternion)"));
    BOOST_TEST(
        mentions(glb.warnings, "2 keys with a time or value not finite (or a zero quaternion) dropped"));
    BOOST_TEST(mentions(glb.warnings, "1 key track out of time order sorted"));
}

BOOST_AUTO_TEST_CASE(a_channel_naming_an_unknown_node_is_reported_and_skipped) {
    SceneMaker s = animated_scene(10);
    s.scene.animations[0].channels[0].node_name = "nobody";
    const assbin::converter::ConvertResult result = convert_in_source_order(s.scene);
    BOOST_TEST(mentions(result.warnings, "'nobody'", "does not have"));
    // "spinner" is no longer driven: its mesh is static, and the bones are root, resting and tip.
    BOOST_TEST(result.model.bones.size() == 3u);
    BOOST_TEST(result.model.vertices[0].extra_bone == -1);
    BOOST_TEST(result.model.sequences.size() == 3u);
}

BOOST_AUTO_TEST_CASE(an_animation_name_over_127_bytes_is_refused) {
    SceneMaker s = animated_scene(10);
    s.scene.animations[0].name = std::string(127, 'a');
    BOOST_CHECK_NO_THROW(convert_in_source_order(s.scene));
    s.scene.animations[0].name = std::string(128, 'a');
    BOOST_CHECK_EXCEPTION(convert_in_source_order(s.scene), assbin::converter::ConvertError,
                          [](const assbin::converter::ConvertError& e) {
                              return e.refusal() == assbin::converter::Refusal::NameTooLong &&
                                     std::string(e.what()).find("animation 0") != std::string::npos;
                          });
}

BOOST_AUTO_TEST_SUITE_END()
