// What an AEM model (or a glTF file) cannot hold is never dropped silently: vertex colour sets, UV
// channels other than the one converted, cameras, lights and texture files in slots the target has none for
// are each counted (ConvertStats) and said in one warning with the count; a scene without them says nothing.
// The corpus holds every dump to the same (tests/corpus/corpus_convert.cpp).
#include "support/dump_builder.hpp"

#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using namespace assbin_test;

// One triangle with `colour_sets` colour sets and `uv_channels` UV channels.
MeshSpec triangle(size_t colour_sets, size_t uv_channels) {
    MeshSpec mesh;
    mesh.positions = std::vector<F3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh.normals = std::vector<F3>{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    for (size_t c = 0; c < colour_sets; ++c)
        mesh.colors.push_back({{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}});
    for (size_t u = 0; u < uv_channels; ++u)
        mesh.uvs.push_back({2, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}});
    mesh.faces.push_back({0, 1, 2});
    return mesh;
}

SceneSpec scene_with_everything() {
    SceneSpec scene;
    scene.meshes.push_back(triangle(2, 3));
    scene.meshes.push_back(triangle(1, 1));
    scene.root = make_node("root", {0, 1});
    scene.materials.push_back(
        {{prop_string("?mat.name", "m"), prop_string("$tex.file", "diffuse.png", 0, 1),
          prop_string("$tex.file", "specular.png", 0, 2), prop_string("$tex.file", "opacity.png", 0, 8)},
         std::nullopt});
    scene.cameras.push_back({"camera", {0, 0, 5}, {0, 0, -1}, {0, 1, 0}, 0.8f, 0.1f, 100.0f, 1.5f});
    LightSpec light;
    light.name = "sun";
    scene.lights.push_back(light);
    scene.lights.push_back(light);
    return scene;
}

assbin::converter::ConvertResult convert(const SceneSpec& spec,
                                         aem::Layout layout = aem::Layout::Edition2024) {
    assbin::converter::ConvertOptions options;
    options.layout = layout;
    return assbin::converter::convert(assbin::read_scene(build_dump(spec, WriterProfile::p5()).bytes),
                                      options);
}

bool said(const std::vector<std::string>& warnings, const std::string& text) {
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

} // namespace

BOOST_AUTO_TEST_SUITE(drops)

BOOST_AUTO_TEST_CASE(every_drop_is_counted_and_said_once) {
    const auto result = convert(scene_with_everything());
    BOOST_TEST(result.stats.colour_sets_dropped == 3u);
    BOOST_TEST(result.stats.uv_channels_dropped == 2u); // channels 1 and 2 of mesh 0
    BOOST_TEST(result.stats.cameras_dropped == 1u);
    BOOST_TEST(result.stats.lights_dropped == 2u);
    BOOST_TEST(result.stats.texture_slots_dropped == 2u); // specular and opacity; diffuse is carried
    const auto& w = result.warnings;
    BOOST_TEST(said(w, "3 vertex colour sets dropped from 2 meshes (0, 1): AEM vertices have no colours"));
    BOOST_TEST(said(w, "2 UV channels other than channel 0 dropped from 1 mesh (0)"));
    BOOST_TEST(said(w, "1 camera dropped: AEM has no cameras"));
    BOOST_TEST(said(w, "2 lights dropped: AEM has no lights"));
    BOOST_TEST(said(w, "2 textures of 1 material (opacity, specular) not used: the 2024 layout's materials"));
}

BOOST_AUTO_TEST_CASE(the_uv_channel_converted_is_not_a_drop) {
    SceneSpec spec;
    spec.meshes.push_back(triangle(0, 2));
    spec.root = make_node("root", {0});
    spec.materials.push_back({{prop_string("?mat.name", "m")}, std::nullopt});
    assbin::converter::ConvertOptions options;
    options.uv_channel = 1;
    const auto result =
        assbin::converter::convert(assbin::read_scene(build_dump(spec, WriterProfile::p5()).bytes), options);
    BOOST_TEST(result.stats.uv_channels_dropped == 1u);
    BOOST_TEST(said(result.warnings, "1 UV channel other than channel 1 dropped from 1 mesh (0)"));
}

BOOST_AUTO_TEST_CASE(the_2025_layout_carries_emissive_and_occlusion_slots) {
    SceneSpec spec;
    spec.meshes.push_back(triangle(0, 1));
    spec.root = make_node("root", {0});
    spec.materials.push_back({{prop_string("?mat.name", "m"), prop_string("$tex.file", "glow.png", 0, 4),
                               prop_string("$tex.file", "ao.png", 0, 17)},
                              std::nullopt});
    BOOST_TEST(convert(spec).stats.texture_slots_dropped == 2u);
    BOOST_TEST(convert(spec, aem::Layout::Edition2025).stats.texture_slots_dropped == 0u);
}

// glTF keeps colours, every UV channel, cameras and lights, and holds emissive and occlusion
// textures: what it has no slot for (specular, opacity) is counted and said as for AEM.
BOOST_AUTO_TEST_CASE(gltf_says_the_texture_slots_it_has_no_place_for) {
    SceneSpec spec = scene_with_everything();
    spec.materials[0].properties.push_back(prop_string("$tex.file", "glow.png", 0, 4));
    spec.materials[0].properties.push_back(prop_string("$tex.file", "ao.png", 0, 17));
    assbin::converter::ConvertOptions options;
    options.format = assbin::converter::OutputFormat::Glb;
    const auto result =
        assbin::converter::convert(assbin::read_scene(build_dump(spec, WriterProfile::p5()).bytes), options);
    BOOST_TEST(result.stats.texture_slots_dropped == 2u); // diffuse, emissive, occlusion carried
    BOOST_TEST(result.stats.colour_sets_dropped == 0u);
    BOOST_TEST(result.stats.cameras_dropped == 0u);
    BOOST_TEST(said(result.warnings,
                    "2 textures of 1 material (opacity, specular) not used: glTF's materials have "
                    "no slot for them"));
}

BOOST_AUTO_TEST_CASE(a_scene_the_model_holds_whole_says_nothing) {
    SceneSpec spec;
    spec.meshes.push_back(triangle(0, 1));
    spec.root = make_node("root", {0});
    spec.materials.push_back({{prop_string("?mat.name", "m")}, std::nullopt});
    const auto result = convert(spec);
    BOOST_TEST(result.warnings.empty());
}

// A count of one reads as one: "1 vertex had more than four bone weights".
BOOST_AUTO_TEST_CASE(counts_of_one_are_singular) {
    SceneSpec spec;
    MeshSpec mesh = triangle(0, 1);
    NodeSpec skeleton = make_node("skeleton");
    for (int b = 0; b < 5; ++b) {
        BoneSpec bone;
        bone.name = "bone" + std::to_string(b);
        bone.weights = {{0, 0.2f}}; // vertex 0: five weights
        if (b == 0) bone.weights.insert(bone.weights.end(), {{1, 1.0f}, {2, 1.0f}});
        mesh.bones.push_back(bone);
        skeleton.children.push_back(make_node(bone.name));
    }
    spec.meshes.push_back(std::move(mesh));
    spec.root = make_node("root", {}, {make_node("body", {0}), std::move(skeleton)});
    spec.materials.push_back({{prop_string("?mat.name", "m")}, std::nullopt});
    const auto result = convert(spec);
    BOOST_TEST(said(result.warnings, "1 vertex had more than four bone weights; the four largest were kept"));
}

BOOST_AUTO_TEST_SUITE_END()
