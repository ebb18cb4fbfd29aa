// `convert` with the 2025 layout: the same scene as the 2024 output, expressed the way today's AEM
// runtime reads it — joints with names, mesh animation as joints, top-left UV origin, tracks with
// their keys back to back, textures from the material's factors — and posing exactly alike.
#include "geometry_checks.hpp"
#include "pipeline.hpp"
#include "scene_maker.hpp"
#include "support/fixtures.hpp"

#include <aem/io.hpp>
#include <aem/pose.hpp>
#include <aem/validate.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>

namespace {

using assbin::converter::ConvertOptions;
using assbin::converter::ConvertResult;

ConvertResult convert_as(const assbin::Scene& scene, aem::Layout layout) {
    ConvertOptions options;
    options.layout = layout;
    return assbin::converter::convert(scene, options);
}

assbin::Scene fixture(const std::string& name) {
    return assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/" + name));
}

// The largest distance between the two models' posed vertices (same vertex order) over the bind
// pose and eight times of every animation, relative to the model's size.
double worst_pose_difference(const aem::Model& a, const aem::Model& b) {
    double worst = 0;
    const auto compare = [&](std::optional<uint32_t> animation, float t) {
        const aem::Pose pose_a = aem::evaluate_pose(a, animation, t);
        const aem::Pose pose_b = aem::evaluate_pose(b, animation, t);
        for (uint32_t v = 0; v < a.vertices.size(); ++v) {
            const double d =
                (aem::skinned_position(a, pose_a, v) - aem::skinned_position(b, pose_b, v)).norm();
            worst = std::max(worst, d);
        }
    };
    compare(std::nullopt, 0);
    for (uint32_t n = 0; n < a.animations.size(); ++n) {
        const float d = a.animations[n].duration;
        for (const float t : {-0.5f, 0.0f, 0.13f * d, 0.37f * d, 0.5f * d, 0.81f * d, d, d + 1.0f})
            compare(n, t);
    }
    return worst / assbin_test::model_size(a);
}

} // namespace

BOOST_AUTO_TEST_SUITE(layout_2025_conversion)

BOOST_AUTO_TEST_CASE(both_layouts_pose_alike_and_the_2025_file_round_trips) {
    for (const std::string name :
         {"FBX__huesitos.fbx.assbin", "X__anim_test.x.assbin", "glTF2__simple_skin__simple_skin.gltf.assbin",
          "ASE__anim.ASE.assbin", "Collada__box_nested_animation.dae.assbin", "3DS__RotatingCube.3DS.assbin",
          "LWS__move_x.lws.assbin", "OBJ__box.obj.tri.assbin"}) {
        BOOST_TEST_CONTEXT(name) {
            const assbin::Scene scene = fixture(name);
            const ConvertResult old_layout = convert_as(scene, aem::Layout::Edition2024);
            const ConvertResult new_layout = convert_as(scene, aem::Layout::Edition2025);
            const aem::Model& model = new_layout.model;
            BOOST_TEST((model.layout == aem::Layout::Edition2025));
            BOOST_TEST(aem::validate(model).empty());
            BOOST_TEST_REQUIRE(model.vertices.size() == old_layout.model.vertices.size());
            BOOST_TEST(worst_pose_difference(old_layout.model, model) <= 1e-5);
            const auto bytes = aem::to_bytes(model);
            const aem::Model read = aem::read_model(bytes);
            BOOST_TEST((read == model));
            BOOST_TEST((aem::to_bytes(read) == bytes));
        }
    }
}

BOOST_AUTO_TEST_CASE(mesh_bones_become_joints_with_weight_one_and_uvs_flip) {
    const assbin::Scene scene = fixture("ASE__anim.ASE.assbin");
    const aem::Model old_layout = convert_as(scene, aem::Layout::Edition2024).model;
    const aem::Model new_layout = convert_as(scene, aem::Layout::Edition2025).model;
    size_t mesh_bone_vertices = 0;
    for (size_t v = 0; v < old_layout.vertices.size(); ++v) {
        const aem::Vertex& a = old_layout.vertices[v];
        const aem::Vertex& b = new_layout.vertices[v];
        BOOST_TEST(b.extra_bone == aem::kNone);
        if (a.extra_bone != aem::kNone) {
            ++mesh_bone_vertices;
            BOOST_TEST((b.bone_indices == std::array<int32_t, 4>{a.extra_bone, -1, -1, -1}));
            BOOST_TEST((b.bone_weights == std::array<float, 4>{1, 0, 0, 0}));
        }
        BOOST_TEST(b.uv.x() == a.uv.x());
        BOOST_TEST(b.uv.y() == 1.0f - a.uv.y());
        BOOST_TEST((b.bitangent == -a.bitangent)); // along +v, which now points the other way
        BOOST_TEST((b.tangent == a.tangent));
    }
    BOOST_TEST(mesh_bone_vertices > 0u);
    BOOST_TEST(!new_layout.bones[0].name.empty());
}

BOOST_AUTO_TEST_CASE(tracks_hold_their_keys_back_to_back) {
    const aem::Model model = convert_as(fixture("FBX__huesitos.fbx.assbin"), aem::Layout::Edition2025).model;
    BOOST_TEST(model.sequences.size() == model.animations.size() * model.bones.size());
    uint32_t next = 0;
    for (const aem::Sequence& track : model.sequences) {
        BOOST_TEST(track.position.first == next);
        BOOST_TEST(track.rotation.first == track.position.first + track.position.count);
        BOOST_TEST(track.scale.first == track.rotation.first + track.rotation.count);
        next = track.scale.first + track.scale.count;
    }
    BOOST_TEST(next == model.keyframes.size());
}

BOOST_AUTO_TEST_CASE(names_are_cut_at_127_bytes_on_a_character_boundary) {
    using assbin::converter::detail::cut_name;
    BOOST_TEST(cut_name(std::string(127, 'a')) == std::string(127, 'a'));
    BOOST_TEST(cut_name(std::string(200, 'a')) == std::string(127, 'a'));
    const std::string accents = std::string(126, 'a') + "\xC3\xA9\xC3\xA9"; // é splits at byte 127
    BOOST_TEST(cut_name(accents) == std::string(126, 'a'));

    assbin_test::SceneMaker s;
    s.triangle();
    s.material();
    s.node(std::string(130, 'n'), -1, assbin::Matrix4::Identity(), {0});
    s.scene.animations.resize(1);
    s.scene.animations[0].name = std::string(140, 'x');
    s.scene.animations[0].duration = 1;
    s.scene.animations[0].ticks_per_second = 1;
    assbin::NodeChannel channel;
    channel.node_name = std::string(130, 'n');
    channel.positions.keys = {{0.0, {0, 0, 0}}, {1.0, {1, 0, 0}}};
    s.scene.animations[0].channels.push_back(channel);
    BOOST_CHECK_THROW(convert_as(s.scene, aem::Layout::Edition2024), assbin::converter::ConvertError);
    const ConvertResult result = convert_as(s.scene, aem::Layout::Edition2025);
    BOOST_TEST(result.model.animations[0].name == std::string(127, 'x'));
    BOOST_TEST(result.model.bones[0].name == std::string(127, 'n'));
    BOOST_TEST(std::count_if(result.warnings.begin(), result.warnings.end(),
                             [](const std::string& w) { return w.find("cut") != std::string::npos; }) == 2);
}

BOOST_AUTO_TEST_CASE(materials_get_three_textures_from_their_factors) {
    assbin_test::SceneMaker s;
    s.triangle(0);
    s.triangle(1);
    const auto colour = [](const std::string& key, std::vector<float> values) {
        assbin::MaterialProperty property;
        property.key = key;
        property.type = static_cast<uint32_t>(assbin::MaterialPropertyType::Float);
        property.data.resize(values.size() * 4);
        std::memcpy(property.data.data(), values.data(), property.data.size());
        return property;
    };
    s.material({colour("$clr.diffuse", {1, 0, 0}), colour("$mat.opacity", {0.5f})});
    s.material();
    s.node("root", -1, assbin::Matrix4::Identity(), {0, 1});
    const aem::Model model = convert_as(s.scene, aem::Layout::Edition2025).model;
    BOOST_TEST_REQUIRE(model.materials.size() == 2u);
    const aem::Material& red = model.materials[0];
    BOOST_TEST(red.type == aem::kMaterialTransparent);
    const aem::Texture& base = model.textures[static_cast<size_t>(red.base_color_texture)];
    BOOST_TEST(base.channels == 4u);
    const uint8_t* texel = model.image_buffer.data() + base.image_offset;
    BOOST_TEST((std::vector<int>(texel, texel + 4) == std::vector<int>{255, 0, 0, 128}));
    const aem::Texture& normal = model.textures[static_cast<size_t>(red.normal_texture)];
    BOOST_TEST(normal.channels == 2u);
    BOOST_TEST(model.image_buffer[normal.image_offset] == 128);
    BOOST_TEST(model.materials[1].type == aem::kMaterialOpaque);
    BOOST_TEST(model.materials[1].normal_texture == red.normal_texture); // one flat normal map, stored once
    BOOST_TEST(aem::validate(model).empty());
}

BOOST_AUTO_TEST_CASE(the_cli_writes_the_2025_layout_on_request) {
    assbin_test::TempDir temp;
    const std::string input = assbin_test::fixture_path("assimp-5.2.5/FBX__huesitos.fbx.assbin").string();
    const std::string out = (temp.path() / "new.aem").string();
    BOOST_TEST(assbin_test::run_cli({"convert", input, "-o", out, "--layout", "2025"}).exit_code == 0);
    const auto info = assbin_test::run_cli({"aem-info", out, "--validate"});
    BOOST_TEST(info.exit_code == 0);
    BOOST_TEST(info.out.find("2025 layout") != std::string::npos);
    const auto bad = assbin_test::run_cli({"convert", input, "-o", out, "--layout", "2026"});
    BOOST_TEST(bad.exit_code == 2);
    BOOST_TEST(bad.err.find("--layout must be 2024 or 2025") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
