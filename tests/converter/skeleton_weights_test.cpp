// Rules 3 and 4: skeletal, mesh and hierarchy bones, parents first, inverse bind matrices, splits,
// unmatched bone names, and weights limited to the four largest and renormalised.
#include "scene_maker.hpp"

#include "algorithms.hpp"
#include "support/gltf_read.hpp"
#include <assbin/converter/convert.hpp>

#include <boost/test/unit_test.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace {

using assbin::converter::Influence;
using assbin::converter::limit_influences;
using assbin_test::convert_in_source_order;
using assbin_test::rows;
using assbin_test::SceneMaker;
using assbin_test::translation;

bool near(const Eigen::Matrix4f& a, const Eigen::Matrix4f& b, float tolerance = 1e-5f) {
    return (a - b).cwiseAbs().maxCoeff() <= tolerance;
}

bool mentions(const std::vector<std::string>& warnings, const std::string& a, const std::string& b = "") {
    return std::any_of(warnings.begin(), warnings.end(), [&](const std::string& w) {
        return w.find(a) != std::string::npos && w.find(b) != std::string::npos;
    });
}

assbin::Bone bone(const std::string& name, const assbin::Matrix4& offset,
                  std::vector<assbin::VertexWeight> weights) {
    assbin::Bone b;
    b.name = name;
    b.offset = offset;
    b.weights = std::move(weights);
    b.weight_count = static_cast<uint32_t>(b.weights.size());
    return b;
}

float sum(const std::array<float, 4>& weights) {
    return weights[0] + weights[1] + weights[2] + weights[3];
}

// root -> arm -> hand, plus a static "prop" under root holding a second mesh; the skinned mesh sits
// on node "body" (translated by 5 along x) and names arm and hand.
SceneMaker skinned_scene() {
    SceneMaker s;
    s.triangle();
    s.triangle();
    s.material();
    const uint32_t root = s.node("root", -1);
    s.node("body", static_cast<int32_t>(root), translation(5, 0, 0), {0});
    const uint32_t arm = s.node("arm", static_cast<int32_t>(root), translation(0, 1, 0));
    s.node("hand", static_cast<int32_t>(arm), translation(0, 1, 0));
    s.node("prop", static_cast<int32_t>(root), translation(0, 0, 3), {1});
    s.scene.meshes[0].bones = {bone("arm", translation(0, -1, 0), {{0, 1.0f}, {1, 0.5f}}),
                               bone("hand", translation(0, -2, 0), {{1, 0.5f}, {2, 1.0f}})};
    return s;
}

} // namespace

BOOST_AUTO_TEST_SUITE(skeleton_weights)

BOOST_AUTO_TEST_CASE(the_four_largest_weights_are_kept_and_renormalised) {
    std::vector<Influence> influences = {{0, 0.1f}, {1, 0.3f}, {2, 0.05f}, {3, 0.2f}, {4, 0.25f}, {5, 0.1f}};
    const auto limited = limit_influences(influences);
    BOOST_TEST(limited.lost_influences);
    BOOST_TEST((limited.bones == std::array<int32_t, 4>{1, 4, 3, 0})); // ties: lower bone first (0 before 5)
    BOOST_TEST(std::abs(sum(limited.weights) - 1.0f) < 1e-6f);
    BOOST_TEST(std::abs(limited.weights[0] - 0.3f / 0.85f) < 1e-6f);
}

BOOST_AUTO_TEST_CASE(zero_negative_and_repeated_weights_are_handled_before_limiting) {
    std::vector<Influence> influences = {{2, 0.0f},  {3, -0.5f},         {1, 0.25f},
                                         {1, 0.25f}, {4, std::nanf("")}, {-1, 1.0f}};
    const auto limited = limit_influences(influences);
    BOOST_TEST(!limited.lost_influences);
    BOOST_TEST((limited.bones == std::array<int32_t, 4>{1, -1, -1, -1}));
    BOOST_TEST((limited.weights == std::array<float, 4>{1.0f, 0, 0, 0}));
    std::vector<Influence> none = {{0, 0.0f}};
    BOOST_TEST(limit_influences(none).bones[0] == -1);
}

BOOST_AUTO_TEST_CASE(vertices_that_lose_influences_are_counted_and_reported) {
    SceneMaker s;
    s.triangle();
    s.material();
    const uint32_t root = s.node("root", -1, assbin::Matrix4::Identity(), {0});
    for (int b = 0; b < 6; ++b) {
        const std::string name = std::string("b") + std::to_string(b);
        s.node(name, static_cast<int32_t>(root));
        s.last_mesh().bones.push_back(
            bone(name, assbin::Matrix4::Identity(), {{0, 0.1f * (b + 1)}, {1, 1.0f}}));
    }
    const assbin::converter::ConvertResult result = convert_in_source_order(s.scene);
    BOOST_TEST(result.stats.vertices_lost_influences == 2u); // vertices 0 and 1 had six weights each
    BOOST_TEST(mentions(result.warnings, "more than four bone weights"));
    for (const aem::Vertex& v : result.model.vertices) {
        if (v.bone_indices[0] == aem::kNone) continue;
        BOOST_TEST(std::abs(sum(v.bone_weights) - 1.0f) < 1e-5f);
    }
    const aem::Vertex& first = result.model.vertices[0];
    BOOST_TEST(first.bone_weights[0] == 0.6f / 1.8f,
               boost::test_tools::tolerance(1e-5f)); // 0.6 + 0.5 + 0.4 + 0.3
    BOOST_TEST((result.model.vertices[2].bone_indices == std::array<int32_t, 4>{-1, -1, -1, -1}));
}

BOOST_AUTO_TEST_CASE(skeletal_bones_get_offset_times_inverse_mesh_global) {
    const assbin::converter::ConvertResult result = convert_in_source_order(skinned_scene().scene);
    const aem::Model& model = result.model;
    // Bones: root (hierarchy), arm, hand; body and prop are folded (not on any bone's path).
    BOOST_TEST_REQUIRE(model.bones.size() == 3u);
    BOOST_TEST(model.bones[0].parent == -1);
    BOOST_TEST(model.bones[1].parent == 0);
    BOOST_TEST(model.bones[2].parent == 1);
    BOOST_TEST(near(model.bones[0].inverse_bind, Eigen::Matrix4f::Identity()));
    const Eigen::Matrix4f body_inverse = Eigen::Affine3f(Eigen::Translation3f(-5, 0, 0)).matrix();
    BOOST_TEST(near(model.bones[1].inverse_bind,
                    Eigen::Affine3f(Eigen::Translation3f(0, -1, 0)).matrix() * body_inverse));
    BOOST_TEST(near(model.bones[2].inverse_bind,
                    Eigen::Affine3f(Eigen::Translation3f(0, -2, 0)).matrix() * body_inverse));
    // Weights: vertex 1 is half arm, half hand; vertices keep extra bone -1.
    const aem::Vertex& v1 = model.vertices[1];
    BOOST_TEST((v1.bone_indices == std::array<int32_t, 4>{1, 2, -1, -1}));
    BOOST_TEST((v1.bone_weights == std::array<float, 4>{0.5f, 0.5f, 0, 0}));
    BOOST_TEST(v1.extra_bone == -1);
    // The static mesh on "prop" is baked in place and has no bone at all.
    const aem::Vertex& prop = model.vertices[3];
    BOOST_TEST((prop.position == Eigen::Vector3f(0, 0, 3)));
    BOOST_TEST(prop.extra_bone == -1);
    BOOST_TEST(prop.bone_indices[0] == -1);
}

BOOST_AUTO_TEST_CASE(an_animated_node_holding_a_plain_mesh_becomes_a_mesh_bone) {
    SceneMaker s = skinned_scene();
    assbin::Animation animation;
    animation.ticks_per_second = 1;
    animation.duration = 1;
    assbin::NodeChannel channel;
    channel.node_name = "root"; // the prop moves with its animated ancestor
    channel.rotations.keys = {{0.0, assbin::Quaternion(1, 0, 0, 0)}};
    animation.channels.push_back(channel);
    s.scene.animations.push_back(animation);
    const aem::Model model = convert_in_source_order(s.scene).model;
    // Bones: root, arm, hand, prop (mesh bone, inverse bind = G⁻¹ of prop).
    BOOST_TEST_REQUIRE(model.bones.size() == 4u);
    BOOST_TEST(model.bones[3].parent == 0);
    BOOST_TEST(near(model.bones[3].inverse_bind, Eigen::Affine3f(Eigen::Translation3f(0, 0, -3)).matrix()));
    BOOST_TEST(model.vertices[3].extra_bone == 3);
    BOOST_TEST(model.vertices[3].bone_indices[0] == -1);
    BOOST_TEST(model.vertices[0].extra_bone == -1); // skinned vertices: the skin moves them
    BOOST_TEST(model.sequences.size() == model.animations.size() * model.bones.size());
}

BOOST_AUTO_TEST_CASE(a_node_bound_with_two_inverse_bind_matrices_is_split) {
    SceneMaker s;
    s.triangle();
    s.triangle();
    s.material();
    const uint32_t root = s.node("root", -1);
    s.node("near", static_cast<int32_t>(root), translation(1, 0, 0), {0});
    s.node("far", static_cast<int32_t>(root), translation(0, 0, 0), {1});
    s.node("joint", static_cast<int32_t>(root));
    s.scene.meshes[0].bones = {bone("joint", assbin::Matrix4::Identity(), {{0, 1.0f}})};
    s.scene.meshes[1].bones = {bone("joint", translation(0, 0, 7), {{0, 1.0f}})};
    const assbin::converter::ConvertResult result = convert_in_source_order(s.scene);
    BOOST_TEST_REQUIRE(result.model.bones.size() == 3u); // root, joint, joint (split)
    BOOST_TEST(result.model.bones[1].parent == 0);
    BOOST_TEST(result.model.bones[2].parent == 0);
    BOOST_TEST(mentions(result.warnings, "'joint'", "becomes 2 bones"));
    BOOST_TEST(result.model.vertices[0].bone_indices[0] == 1);
    BOOST_TEST(result.model.vertices[3].bone_indices[0] == 2);
}

BOOST_AUTO_TEST_CASE(two_meshes_with_one_skeleton_share_its_bones) {
    SceneMaker s;
    s.triangle();
    s.triangle();
    s.material();
    const uint32_t root = s.node("root", -1, assbin::Matrix4::Identity(), {0});
    s.node("moved", static_cast<int32_t>(root), translation(0, 4, 0), {1});
    s.node("joint", static_cast<int32_t>(root), translation(1, 1, 1));
    // Offsets consistent with each mesh's node: offset = G(joint)⁻¹ · G(mesh node).
    s.scene.meshes[0].bones = {bone("joint", translation(-1, -1, -1), {{0, 1.0f}})};
    s.scene.meshes[1].bones = {bone("joint", translation(-1, 3, -1), {{0, 1.0f}})};
    const assbin::converter::ConvertResult result = convert_in_source_order(s.scene);
    BOOST_TEST(result.model.bones.size() == 2u);
    BOOST_TEST(!mentions(result.warnings, "becomes"));
}

BOOST_AUTO_TEST_CASE(a_bone_naming_no_node_gives_its_weight_to_the_other_bones) {
    SceneMaker s = skinned_scene();
    s.scene.meshes[0].bones.push_back(bone("ghost", assbin::Matrix4::Identity(), {{1, 2.0f}}));
    const assbin::converter::ConvertResult result = convert_in_source_order(s.scene);
    BOOST_TEST(mentions(result.warnings, "'ghost'", "names no node"));
    const aem::Vertex& v1 = result.model.vertices[1];
    BOOST_TEST((v1.bone_weights == std::array<float, 4>{0.5f, 0.5f, 0, 0})); // not 0.2/0.2/0.8 of 2.5 left
}

BOOST_AUTO_TEST_CASE(a_bone_naming_two_nodes_is_reported) {
    SceneMaker s = skinned_scene();
    s.node("hand", 0);
    const assbin::converter::ConvertResult result = convert_in_source_order(s.scene);
    BOOST_TEST(mentions(result.warnings, "'hand'", "names 2 nodes"));
    BOOST_TEST((result.model.vertices[2].bone_indices == std::array<int32_t, 4>{-1, -1, -1, -1}));
    BOOST_TEST(mentions(result.warnings, "no bone weight left"));
}

// Which node a bone binds is decided once, in the prepared scene, for AEM's bones and glTF's joints
// alike: a bone naming no node, one naming two, and one with a non-finite offset bind nothing in
// either format, each said with the same reason, and their weights go to the vertices' other bones
// (in glTF the bone with the non-finite offset used to be a joint with an identity matrix).
BOOST_AUTO_TEST_CASE(aem_and_gltf_bind_the_same_bones) {
    SceneMaker s = skinned_scene();
    s.node("hand", 0);
    assbin::Matrix4 broken = translation(0, 0, -3);
    broken(0, 0) = std::numeric_limits<float>::quiet_NaN();
    s.scene.meshes[0].bones.push_back(bone("ghost", assbin::Matrix4::Identity(), {{1, 2.0f}}));
    s.scene.meshes[0].bones.push_back(bone("prop", broken, {{2, 1.0f}}));
    const std::vector<std::pair<std::string, std::string>> reasons = {
        {"'ghost'", "names no node"},
        {"'hand'", "names 2 nodes"},
        {"'prop'", "has a non-finite offset matrix"}};
    const assbin::converter::ConvertResult aem = convert_in_source_order(s.scene);
    assbin::converter::ConvertOptions options;
    options.format = assbin::converter::OutputFormat::Glb;
    const assbin::converter::ConvertResult glb = assbin::converter::convert(s.scene, options);
    for (const auto& [name, reason] : reasons) {
        BOOST_TEST(mentions(aem.warnings, name + " " + reason), name);
        BOOST_TEST(mentions(glb.warnings, "3 bones bind no node", name + " " + reason), name);
    }
    // AEM: vertex 1 keeps arm alone (hand and ghost bind nothing).
    BOOST_TEST((aem.model.vertices[1].bone_weights == std::array<float, 4>{1, 0, 0, 0}));
    // glTF: the joints are arm and the node placing the mesh (vertex 2 lost every weight), each
    // inverse bind matrix finite.
    const assbin_test::gltf::Document doc = assbin_test::gltf::Document::from_glb(glb.encoded);
    const nlohmann::json& skins = doc.json()["skins"];
    BOOST_TEST_REQUIRE(skins.size() == 1u);
    BOOST_TEST(skins[0]["joints"].size() == 2u);
    std::vector<std::string> joint_names;
    for (const nlohmann::json& joint : skins[0]["joints"])
        joint_names.push_back(doc.json()["nodes"][joint.get<size_t>()].value("name", ""));
    BOOST_TEST((std::count(joint_names.begin(), joint_names.end(), "arm") == 1));
    BOOST_TEST((std::count(joint_names.begin(), joint_names.end(), "prop") == 0)); // its offset is not finite
    for (const double value : doc.accessor(skins[0]["inverseBindMatrices"].get<size_t>()))
        BOOST_TEST(std::isfinite(value));
}

BOOST_AUTO_TEST_SUITE_END()
