// glTF out: every full fixture dump becomes a .glb that the tests' own reader finds holding what the
// dump holds and posing as the Assimp-semantics oracle says; Khronos's validator passes every file
// (when Node and `npm ci` in tests/gltf are there); a crafted scene checks the mapping rules one by
// one (points and lines kept, UV v flipped, shear split into two nodes, skinned meshes at the root,
// cameras and lights on their nodes); and `assbin convert` chooses the format by -o's extension or
// --format, refuses an extension it does not write and AEM's options. The corpus holds every dump to
// the same (tests/corpus/corpus_gltf.cpp).
#include "gltf_checks.hpp"
#include "scene_maker.hpp"
#include "support/dump_builder.hpp"
#include "support/fixtures.hpp"
#include "support/gltf_read.hpp"
#include "support/skip.hpp"

#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#include <nlohmann/json.hpp>

#include <meshoptimizer.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <numbers>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace assbin_test;
using assbin::converter::ConvertOptions;
using assbin::converter::OutputFormat;

assbin::converter::ConvertResult to_glb(const assbin::Scene& scene, bool quantize = false) {
    ConvertOptions options;
    options.format = OutputFormat::Glb;
    options.quantize = quantize;
    options.record_vertex_origins = true;
    return assbin::converter::convert(scene, options);
}

std::vector<std::string> full_fixtures() {
    std::vector<std::string> names;
    for (const std::string& name : all_assbin_fixtures()) {
        if (name.find("assimp-5.2.5/") != 0 || name.ends_with(".regress")) continue;
        names.push_back(name);
    }
    return names;
}

bool said(const std::vector<std::string>& warnings, const std::string& text) {
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

} // namespace

BOOST_AUTO_TEST_SUITE(gltf_out)

BOOST_AUTO_TEST_CASE(every_fixture_holds_what_the_dump_holds_and_poses_as_assimp) {
    size_t converted = 0, posed = 0;
    for (const std::string& name : full_fixtures()) {
        BOOST_TEST_CONTEXT(name) {
            const assbin::Scene scene = assbin::read_scene(fixture_bytes(name));
            assbin::converter::ConvertResult result;
            try {
                result = to_glb(scene);
            } catch (const assbin::converter::ConvertError& error) {
                // Refused only where AEM refuses too, in the same words.
                std::string aem_words;
                try {
                    assbin::converter::convert(scene);
                } catch (const assbin::converter::ConvertError& aem_error) {
                    aem_words = aem_error.what();
                }
                BOOST_TEST(aem_words == error.what());
                continue;
            }
            ++converted;
            const gltf::Document doc = gltf::Document::from_glb(result.encoded);
            BOOST_TEST(gltf_counts_differ(scene, result, doc) == "");
            // Quantized (KHR_mesh_quantization): the same counts, poses within the same 1e-4.
            const auto quantized = to_glb(scene, true);
            const gltf::Document small = gltf::Document::from_glb(quantized.encoded);
            BOOST_TEST(gltf_counts_differ(scene, quantized, small) == "");
            if (result.encoded.size() > 16384) // below, the JSON the extension adds outweighs the bytes saved
                BOOST_TEST(quantized.encoded.size() < result.encoded.size());
            if (result.stats.bones > 0 || result.stats.animations > 0) {
                BOOST_TEST(gltf_pose_differs(scene, result, doc) == "");
                BOOST_TEST(gltf_pose_differs(scene, quantized, small) == "");
                ++posed;
            }
        }
    }
    BOOST_TEST(converted >= 20u);
    BOOST_TEST(posed >= 5u); // skinned and animated fixtures: the pose check is not vacuous
}

// A skinned mesh hangs from the scene root without a transform of its own (glTF ignores it), its
// joints are its bones' nodes and its inverse bind matrices their offsets.
// Both formats start from one prepared scene (converter/src/pipeline.hpp, PreparedScene): for
// every dump mesh, AEM's triangles and glTF's are the same triangles of the same dump vertices, each
// corner list rotated to start at its smallest vertex (so that welding and ordering, which each
// writer does its own way, do not count), quads and ear-clipped polygons included.
BOOST_AUTO_TEST_CASE(aem_and_gltf_draw_the_same_triangles_of_every_mesh) {
    using Triangle = std::array<uint32_t, 3>;
    using TriangleList = std::vector<Triangle>;
    const auto canonical = [](Triangle t) {
        std::rotate(t.begin(), std::min_element(t.begin(), t.end()), t.end());
        return t;
    };
    size_t compared = 0, with_polygons = 0;
    for (const std::string& name : full_fixtures()) {
        BOOST_TEST_CONTEXT(name) {
            const assbin::Scene scene = assbin::read_scene(fixture_bytes(name));
            ConvertOptions options;
            options.optimize = false;
            options.keep_meshes = true;
            options.record_vertex_origins = true;
            assbin::converter::ConvertResult aem, glb;
            try {
                aem = assbin::converter::convert(scene, options);
            } catch (const assbin::converter::ConvertError&) {
                continue; // refused (by both: the case above checks that)
            }
            options.format = OutputFormat::Glb;
            glb = assbin::converter::convert(scene, options);

            // AEM: per dump mesh, the triangles of the first node that places it (every placing
            // node gets a copy of the same triangles, baked where that node puts them).
            std::map<uint32_t, std::pair<uint32_t, TriangleList>> aem_triangles; // mesh -> (node, list)
            const auto& indices = aem.model.indices;
            for (size_t i = 0; i + 2 < indices.size(); i += 3) {
                const auto& a = aem.vertex_origins[indices[i]];
                const auto& b = aem.vertex_origins[indices[i + 1]];
                const auto& c = aem.vertex_origins[indices[i + 2]];
                auto& [node, list] = aem_triangles.try_emplace(a.mesh, a.node, TriangleList{}).first->second;
                if (a.node != node) continue;
                list.push_back(canonical({a.vertex, b.vertex, c.vertex}));
            }
            // glTF: the TRIANGLES primitives of each mesh (one per dump mesh), through the origins.
            const gltf::Document doc = gltf::Document::from_glb(glb.encoded);
            std::map<uint32_t, TriangleList> gltf_triangles;
            const nlohmann::json& meshes = doc.json()["meshes"];
            for (size_t m = 0; m < meshes.size(); ++m) {
                const nlohmann::json& primitives = meshes[m]["primitives"];
                for (size_t p = 0; p < primitives.size(); ++p) {
                    if (primitives[p].value("mode", 4) != 4) continue;
                    const std::vector<double> corners = doc.accessor(primitives[p]["indices"].get<size_t>());
                    const std::vector<uint32_t>& origin = glb.gltf_origins[m][p];
                    TriangleList& list = gltf_triangles[glb.gltf_mesh_sources[m]];
                    for (size_t i = 0; i + 2 < corners.size(); i += 3) {
                        list.push_back(canonical({origin[static_cast<size_t>(corners[i])],
                                                  origin[static_cast<size_t>(corners[i + 1])],
                                                  origin[static_cast<size_t>(corners[i + 2])]}));
                    }
                }
            }
            BOOST_TEST(aem_triangles.size() == gltf_triangles.size());
            for (auto& [mesh, placed] : aem_triangles) {
                BOOST_TEST_CONTEXT("mesh " << mesh) {
                    TriangleList& ours = placed.second;
                    TriangleList& theirs = gltf_triangles[mesh];
                    std::sort(ours.begin(), ours.end());
                    std::sort(theirs.begin(), theirs.end());
                    BOOST_TEST((ours == theirs));
                    ++compared;
                }
            }
            with_polygons += aem.stats.polygons_triangulated > 0;
        }
    }
    BOOST_TEST(compared >= 20u);
    BOOST_TEST(with_polygons >=
               3u); // quads and larger polygons among them: the comparison is not only of triangles
}

BOOST_AUTO_TEST_CASE(a_skinned_mesh_is_a_root_node_with_its_bones_as_joints) {
    const assbin::Scene scene =
        assbin::read_scene(fixture_bytes("assimp-5.2.5/glTF2__simple_skin__simple_skin.gltf.assbin"));
    const auto result = to_glb(scene);
    const gltf::Document doc = gltf::Document::from_glb(result.encoded);
    const nlohmann::json& j = doc.json();
    BOOST_TEST_REQUIRE(j["skins"].size() == 1u);
    bool found = false;
    for (const size_t root : j["scenes"][0]["nodes"].get<std::vector<size_t>>()) {
        const nlohmann::json& node = j["nodes"][root];
        if (!node.contains("skin")) continue;
        found = true;
        BOOST_TEST(!node.contains("translation"));
        BOOST_TEST(!node.contains("rotation"));
        BOOST_TEST(!node.contains("scale"));
        BOOST_TEST(!node.contains("matrix"));
    }
    BOOST_TEST(found);
    BOOST_TEST(j["skins"][0]["joints"].size() == 2u);
    BOOST_TEST(j["animations"].size() == 1u);
}

// Points and lines stay (as POINTS and LINES primitives), quads become two triangles, every UV and
// colour set is kept with v' = 1 - v, a sheared node becomes two nodes whose product is its matrix,
// a camera and a light hang from the nodes named after them.
BOOST_AUTO_TEST_CASE(the_mapping_rules_on_a_crafted_scene) {
    SceneSpec spec;
    MeshSpec mesh;
    mesh.positions = std::vector<F3>{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {2, 0, 0}, {3, 0, 0}};
    mesh.normals = std::vector<F3>{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 2}, {0, 0, 1}};
    mesh.uvs.push_back({2, {{0, 0.25f, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 0}, {0, 0, 0}}});
    mesh.uvs.push_back({2, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}});
    mesh.colors.push_back(
        {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}, {2, 0, 0, 1}, {0, 0, 0, 1}});
    mesh.faces = {{0, 1, 2, 3}, {4, 5}, {5}};
    spec.meshes.push_back(mesh);
    NodeSpec sheared = make_node("sheared", {0});
    sheared.transform = {1, 0.5f, 0, 3, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; // shear x by y, move x by 3
    spec.root = make_node("root", {}, {sheared, make_node("eye"), make_node("lamp")});
    spec.materials.push_back({{prop_string("?mat.name", "m")}, std::nullopt});
    spec.cameras.push_back({"eye", {0, 0, 5}, {0, 0, -1}, {0, 1, 0}, 1.0f, 0.1f, 100.0f, 2.0f});
    LightSpec light;
    light.name = "lamp";
    light.type = 2;
    light.att_quadratic = 1;
    light.diffuse = {2, 1, 0};
    spec.lights.push_back(light);
    const assbin::Scene scene = assbin::read_scene(build_dump(spec, WriterProfile::p5()).bytes);
    const auto result = to_glb(scene);
    const gltf::Document doc = gltf::Document::from_glb(result.encoded);
    const nlohmann::json& j = doc.json();
    BOOST_TEST(gltf_counts_differ(scene, result, doc) == "");
    BOOST_TEST(result.stats.triangles == 2u);
    BOOST_TEST(result.stats.lines == 1u);
    BOOST_TEST(result.stats.points == 1u);
    const nlohmann::json& primitives = j["meshes"][0]["primitives"];
    BOOST_TEST_REQUIRE(primitives.size() == 3u);
    BOOST_TEST(primitives[1]["mode"].get<int>() == 1);
    BOOST_TEST(primitives[2]["mode"].get<int>() == 0);
    for (const std::string attribute : {"TEXCOORD_0", "TEXCOORD_1", "COLOR_0", "NORMAL"})
        BOOST_TEST(primitives[0]["attributes"].contains(attribute), attribute);
    // v' = 1 - v: the dump's (0, 0.25) is (0, 0.75), and every UV is in 0..1 here.
    const std::vector<double> uvs = doc.accessor(primitives[0]["attributes"]["TEXCOORD_0"].get<size_t>());
    const std::vector<double> positions = doc.accessor(primitives[0]["attributes"]["POSITION"].get<size_t>());
    bool origin_seen = false;
    for (size_t v = 0; v < uvs.size() / 2; ++v) {
        if (positions[3 * v] == 0 && positions[3 * v + 1] == 0) {
            origin_seen = true;
            BOOST_TEST(uvs[2 * v + 1] == 0.75);
        }
    }
    BOOST_TEST(origin_seen);
    // Colours are clamped to 0..1 and the normal (0, 0, 2) made unit, each said.
    BOOST_TEST(said(result.warnings, "1 vertex colour component outside 0..1 clamped"));
    // The sheared node: two nodes whose product is the matrix.
    const auto pose = doc.pose(std::nullopt, 0);
    bool shear_checked = false;
    for (size_t n = 0; n < j["nodes"].size(); ++n) {
        if (j["nodes"][n].value("name", "") != "sheared" || !j["nodes"][n].contains("mesh")) continue;
        Eigen::Matrix4d want = Eigen::Matrix4d::Identity();
        want(0, 1) = 0.5;
        want(0, 3) = 3;
        BOOST_TEST((pose.globals[n] - want).cwiseAbs().maxCoeff() < 1e-6);
        shear_checked = true;
    }
    BOOST_TEST(shear_checked);
    // The camera: yfov from the horizontal field of view and aspect; the light: colour / intensity.
    BOOST_TEST_REQUIRE(j["cameras"].size() == 1u);
    BOOST_TEST(std::abs(j["cameras"][0]["perspective"]["yfov"].get<double>() -
                        2 * std::atan(std::tan(0.5) / 2)) < 1e-6);
    const nlohmann::json& lights = j["extensions"]["KHR_lights_punctual"]["lights"];
    BOOST_TEST_REQUIRE(lights.size() == 1u);
    BOOST_TEST(lights[0]["intensity"].get<double>() == 2.0);
    BOOST_TEST(lights[0]["color"][1].get<double>() == 0.5);
    const auto used = j["extensionsUsed"].get<std::vector<std::string>>();
    BOOST_TEST((std::find(used.begin(), used.end(), "KHR_lights_punctual") != used.end()));
}

// A skinned mesh's vertices that no bone weighs are placed by the node that holds the mesh: in glTF
// their joint is that node with the identity as inverse bind matrix, so that they stand where the
// node puts them (they sat at their mesh-space position, with inverse(bind global) there). Held to
// the Assimp-semantics oracle at rest and through an animation of the bone.
BOOST_AUTO_TEST_CASE(vertices_no_bone_weighs_stand_where_their_node_puts_them) {
    assbin_test::SceneMaker s;
    s.mesh({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0, 1, 2}, {0, 2, 3}});
    s.material();
    const uint32_t root = s.node("root", -1);
    s.node("body", int32_t(root), assbin_test::translation(5, 0, 0), {0});
    s.node("bone", int32_t(root), assbin_test::translation(0, 2, 0));
    assbin::Bone bone;
    bone.name = "bone";
    bone.offset =
        assbin_test::translation(0, -2, 0) * assbin_test::translation(5, 0, 0); // inverse(bone) * body
    bone.weights = {{0, 1.0f}, {1, 1.0f}};                                      // vertices 2 and 3: no weight
    bone.weight_count = 2;
    s.last_mesh().bones.push_back(bone);
    assbin::Animation lift;
    lift.name = "lift";
    lift.duration = 25;
    lift.ticks_per_second = 25;
    assbin::NodeChannel channel;
    channel.node_name = "bone";
    channel.positions.keys = {{0.0, assbin::Vec3(0, 2, 0)}, {25.0, assbin::Vec3(0, 3, 0)}};
    channel.positions.count = 2;
    lift.channels.push_back(channel);
    s.scene.animations.push_back(lift);
    for (const bool quantize : {false, true}) {
        const auto result = to_glb(s.scene, quantize);
        const gltf::Document doc = gltf::Document::from_glb(result.encoded);
        BOOST_TEST(gltf_pose_differs(s.scene, result, doc) == "", (quantize ? "quantized" : "plain"));
        // At rest, every vertex where the body puts it: x from 5 to 6.
        for (size_t n = 0; n < doc.json()["nodes"].size(); ++n) {
            if (!doc.json()["nodes"][n].contains("skin")) continue;
            for (const Eigen::Vector3d& v : doc.posed_vertices(doc.pose(std::nullopt, 0), n, 0))
                BOOST_TEST((v.x() > 4.999 && v.x() < 6.001), "x = " << v.x());
        }
    }
}

// --quantize folds each skin's dequantization into its inverse bind matrices: two skinned meshes
// that share a bone are quantized on one box, so that the joint has one inverse bind matrix (with
// two, Blender's default import guesses two bind poses and moves vertices at every frame).
BOOST_AUTO_TEST_CASE(a_joint_shared_by_two_skins_has_one_inverse_bind_matrix_when_quantized) {
    assbin_test::SceneMaker s;
    s.mesh({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}});
    s.mesh({{10, 0, 0}, {14, 0, 0}, {10, 3, 0}}, {{0, 1, 2}});       // another box entirely
    s.mesh({{50, 50, 50}, {51, 50, 50}, {50, 51, 50}}, {{0, 1, 2}}); // shares nothing
    s.material();
    const uint32_t root = s.node("root", -1);
    s.node("body", int32_t(root), assbin::Matrix4::Identity(), {0, 1, 2});
    s.node("bone", int32_t(root), assbin_test::translation(0, 2, 0));
    s.node("other", int32_t(root), assbin_test::translation(3, 0, 0));
    for (uint32_t m = 0; m < 3; ++m) {
        assbin::Bone bone;
        bone.name = m < 2 ? "bone" : "other";
        bone.offset = m < 2 ? assbin_test::translation(0, -2, 0) : assbin_test::translation(-3, 0, 0);
        bone.weights = {{0, 1.0f}, {1, 1.0f}, {2, 1.0f}};
        bone.weight_count = 3;
        s.scene.meshes[m].bones.push_back(bone);
    }
    const auto result = to_glb(s.scene, true);
    const gltf::Document doc = gltf::Document::from_glb(result.encoded);
    BOOST_TEST(gltf_pose_differs(s.scene, result, doc) == "");
    const nlohmann::json& j = doc.json();
    std::map<int64_t, std::vector<std::vector<double>>> matrices_of_joint;
    for (const nlohmann::json& skin : j["skins"]) {
        const std::vector<double> all = doc.accessor(skin["inverseBindMatrices"].get<size_t>());
        for (size_t k = 0; k < skin["joints"].size(); ++k)
            matrices_of_joint[skin["joints"][k].get<int64_t>()].emplace_back(all.begin() + 16 * k,
                                                                             all.begin() + 16 * (k + 1));
    }
    BOOST_TEST(j["skins"].size() == 3u);
    size_t shared = 0;
    for (const auto& [joint, matrices] : matrices_of_joint) {
        shared += matrices.size() > 1;
        for (const std::vector<double>& m : matrices)
            for (size_t e = 0; e < 16; ++e)
                BOOST_TEST(std::abs(m[e] - matrices.front()[e]) <= 1e-6 * std::max(1.0, std::abs(m[e])),
                           "joint " << joint << " element " << e);
    }
    BOOST_TEST(shared == 1u); // "bone", in the first two skins
}

// aiLight's cone angles are the whole cone's (Collada's lights.dae: 45 and 135 degrees); glTF's are
// from the centre: halved. A dump of Assimp's own glTF importer (told by its $mat.gltf.* keys)
// already holds glTF's half angles: kept.
BOOST_AUTO_TEST_CASE(spot_cones_are_halved_unless_the_gltf_importer_made_the_dump) {
    assbin::Scene scene =
        assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/Collada__lights.dae.assbin"));
    const auto spot_of = [](const assbin::Scene& from) {
        const gltf::Document doc = gltf::Document::from_glb(to_glb(from).encoded);
        for (const nlohmann::json& light : doc.json()["extensions"]["KHR_lights_punctual"]["lights"])
            if (light["type"] == "spot")
                return std::pair{light["spot"]["innerConeAngle"].get<double>(),
                                 light["spot"]["outerConeAngle"].get<double>()};
        return std::pair{-1.0, -1.0};
    };
    const auto is_spot = [](const assbin::Light& l) { return l.type == uint32_t(assbin::LightType::Spot); };
    const auto source = std::find_if(scene.lights.begin(), scene.lights.end(), is_spot);
    BOOST_TEST_REQUIRE((source != scene.lights.end()));
    BOOST_TEST(std::abs(source->outer_cone - 3 * std::numbers::pi / 4) < 1e-6); // 135 degrees, the whole cone
    const auto [inner, outer] = spot_of(scene);
    BOOST_TEST(std::abs(outer - source->outer_cone / 2) < 1e-6); // 67.5 degrees from the centre
    BOOST_TEST(std::abs(inner - source->inner_cone / 2) < 1e-6);

    source->inner_cone = 0.3f;
    source->outer_cone = 0.6f;
    assbin::MaterialProperty gltf_key;
    gltf_key.key = "$mat.gltf.alphaMode";
    gltf_key.type = uint32_t(assbin::MaterialPropertyType::String);
    const std::string mode = "OPAQUE";
    const uint32_t length = uint32_t(mode.size());
    gltf_key.data.resize(4 + mode.size() + 1);
    std::memcpy(gltf_key.data.data(), &length, 4);
    std::memcpy(gltf_key.data.data() + 4, mode.data(), mode.size());
    BOOST_TEST_REQUIRE(!scene.materials.empty());
    scene.materials.at(0).properties.push_back(gltf_key);
    const auto [kept_inner, kept_outer] = spot_of(scene);
    BOOST_TEST(std::abs(kept_inner - 0.3) < 1e-6);
    BOOST_TEST(std::abs(kept_outer - 0.6) < 1e-6);
}

// A glTF texture transform through Assimp's glTF importer and back: the importer stores the negated
// angle (mRotation = -rotation) and offsets moved for its flipped v and its rotation about the centre
// (glTF2Importer's formulas, applied here to known glTF values); the writer gives back the glTF
// values, rotation sign included (it came out negated).
BOOST_AUTO_TEST_CASE(a_texture_transform_from_assimps_gltf_importer_comes_back_as_it_was) {
    const double offset_x = 0.1, offset_y = 0.2, scale_x = 2, scale_y = 3;
    for (const double rotation : {0.0, 0.3927, -1.2}) {
        const double c = std::cos(rotation), s = std::sin(rotation); // the importer's cos(-mRotation)
        const std::vector<float> assimp = {float(0.5 * scale_x * (-c + s + 1) + offset_x),
                                           float(0.5 * scale_y * (s + c - 1) + 1 - scale_y - offset_y),
                                           float(scale_x), float(scale_y), float(-rotation)};
        SceneSpec spec;
        MeshSpec mesh;
        mesh.positions = std::vector<F3>{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}};
        mesh.uvs.push_back({2, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}}});
        mesh.faces = {{0, 1, 2}};
        spec.meshes.push_back(mesh);
        spec.root = make_node("root", {0});
        spec.materials = {MaterialSpec{{prop_string("?mat.name", "m"), prop_string("$tex.file", "*0", 0, 1),
                                        prop_floats("$tex.uvtrafo", assimp, 1)},
                                       {}}};
        spec.textures = {argb_texture(1, 1, Bytes(4, std::byte(200)))};
        const assbin::Scene scene = assbin::read_scene(build_dump(spec, WriterProfile::p5()).bytes);
        const gltf::Document doc = gltf::Document::from_glb(to_glb(scene).encoded);
        const nlohmann::json& t = doc.json()["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]
                                            ["extensions"]["KHR_texture_transform"];
        BOOST_TEST(std::abs(t.value("rotation", 0.0) - rotation) < 1e-6, "rotation " << rotation);
        BOOST_TEST(std::abs(t["offset"][0].get<double>() - offset_x) < 1e-6, "rotation " << rotation);
        BOOST_TEST(std::abs(t["offset"][1].get<double>() - offset_y) < 1e-6, "rotation " << rotation);
        BOOST_TEST(std::abs(t["scale"][0].get<double>() - scale_x) < 1e-6);
        BOOST_TEST(std::abs(t["scale"][1].get<double>() - scale_y) < 1e-6);
    }
}

// A camera's yfov: from Assimp's horizontal angle and aspect by the trigonometric relation, except in
// a dump of Assimp's glTF importer, which stores yfov · aspect as the horizontal angle.
BOOST_AUTO_TEST_CASE(a_cameras_yfov_undoes_the_relation_its_importer_used) {
    assbin::Scene scene =
        assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/Collada__lights.dae.assbin"));
    assbin::Camera camera;
    camera.name = "lens";
    camera.horizontal_fov = 1.0f;
    camera.aspect = 2.0f;
    camera.clip_near = 0.1f;
    camera.clip_far = 100.0f;
    camera.look_at = assbin::Vec3(0, 0, -1);
    camera.up = assbin::Vec3(0, 1, 0);
    scene.cameras = {camera};
    const auto yfov_of = [](const assbin::Scene& from) {
        const gltf::Document doc = gltf::Document::from_glb(to_glb(from).encoded);
        return doc.json()["cameras"].at(0)["perspective"]["yfov"].get<double>();
    };
    BOOST_TEST(std::abs(yfov_of(scene) - 2 * std::atan(std::tan(0.5) / 2)) < 1e-6); // one frustum's angles
    assbin::MaterialProperty gltf_key;
    gltf_key.key = "$mat.gltf.alphaCutoff";
    gltf_key.type = uint32_t(assbin::MaterialPropertyType::Float);
    const float cutoff = 0.5f;
    gltf_key.data.resize(4);
    std::memcpy(gltf_key.data.data(), &cutoff, 4);
    BOOST_TEST_REQUIRE(!scene.materials.empty());
    scene.materials.at(0).properties.push_back(gltf_key);
    BOOST_TEST(std::abs(yfov_of(scene) - 0.5) < 1e-6); // Assimp's glTF importer: hfov = yfov * aspect
}

// Doubtful, decided (docs/gltf.md): an opacity of exactly 0 over a whole material without an opacity
// texture is the inverted transparency convention of some Collada writers, written opaque and said;
// any other opacity is the alpha, blended.
BOOST_AUTO_TEST_CASE(an_invisible_material_is_written_opaque_and_said) {
    const auto material_for = [](float opacity) {
        assbin_test::SceneMaker s;
        s.triangle();
        assbin::MaterialProperty property;
        property.key = "$mat.opacity";
        property.type = uint32_t(assbin::MaterialPropertyType::Float);
        property.data.resize(4);
        std::memcpy(property.data.data(), &opacity, 4);
        s.material({property});
        s.node("root", -1, assbin::Matrix4::Identity(), {0});
        const auto result = to_glb(s.scene);
        return std::pair{gltf::Document::from_glb(result.encoded).json()["materials"].at(0), result.warnings};
    };
    const auto [invisible, said] = material_for(0.0f);
    BOOST_TEST(invisible["pbrMetallicRoughness"]["baseColorFactor"][3].get<double>() == 1.0);
    BOOST_TEST(!invisible.contains("alphaMode"));
    BOOST_TEST(std::any_of(said.begin(), said.end(), [](const std::string& w) {
        return w.find("1 material with an opacity of 0") != std::string::npos;
    }));
    const auto [half, quiet] = material_for(0.5f);
    BOOST_TEST(half["pbrMetallicRoughness"]["baseColorFactor"][3].get<double>() == 0.5);
    BOOST_TEST(half["alphaMode"].get<std::string>() == "BLEND");
}

// --quantize stores UVs that leave 0..1 as 12-bit steps across their (material, set) range, with the
// dequantization composed into every texture's KHR_texture_transform on that set (after the dump's
// own transform), so that a texture is looked up where the float file looks it up. Three materials:
// plain (two meshes: one inside 0..1, one far outside), with an aiUVTransform, and with a rotated
// one, whose UVs stay float (the composition would depend on the direction of rotation).
BOOST_AUTO_TEST_CASE(quantized_uvs_outside_0_1_carry_their_range_in_the_texture_transform) {
    SceneSpec spec;
    const auto quad = [](std::vector<F3> uvs, uint32_t material) {
        MeshSpec mesh;
        mesh.positions = std::vector<F3>{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
        mesh.uvs.push_back({2, std::move(uvs)});
        mesh.faces = {{0, 1, 2}, {0, 2, 3}};
        mesh.material_index = material;
        return mesh;
    };
    spec.meshes.push_back(quad({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, 0));
    spec.meshes.push_back(quad({{-1, -2, 0}, {3, -2, 0}, {3, 5, 0}, {-1, 5, 0}}, 0));
    spec.meshes.push_back(quad({{0, 0, 0}, {4, 0, 0}, {4, 4, 0}, {0, 4, 0}}, 1));
    spec.meshes.push_back(quad({{0, 0, 0}, {4, 0, 0}, {4, 4, 0}, {0, 4, 0}}, 2));
    spec.root = make_node("root", {0, 1, 2, 3});
    const auto textured = [](std::vector<float> transform) {
        MaterialSpec material{{prop_string("?mat.name", "m"), prop_string("$tex.file", "*0", 0, 1)}, {}};
        if (!transform.empty()) material.properties.push_back(prop_floats("$tex.uvtrafo", transform, 1));
        return material;
    };
    spec.materials = {textured({}), textured({0.1f, 0.2f, 2.0f, 3.0f, 0.0f}),
                      textured({0.0f, 0.0f, 1.0f, 1.0f, 0.5f})};
    Bytes pixels(16);
    for (size_t k = 0; k < pixels.size(); ++k)
        pixels[k] = std::byte(40 + 13 * k);
    spec.textures = {argb_texture(2, 2, pixels)};
    const assbin::Scene scene = assbin::read_scene(build_dump(spec, WriterProfile::p5()).bytes);
    const auto plain = to_glb(scene), quantized = to_glb(scene, true);
    const gltf::Document plain_doc = gltf::Document::from_glb(plain.encoded);
    const gltf::Document small_doc = gltf::Document::from_glb(quantized.encoded);
    BOOST_TEST(gltf_counts_differ(scene, quantized, small_doc) == "");
    const auto required = small_doc.json()["extensionsRequired"].get<std::vector<std::string>>();
    BOOST_TEST((std::find(required.begin(), required.end(), "KHR_texture_transform") != required.end()));
    BOOST_TEST(quantized.gltf_origins == plain.gltf_origins); // the same vertices in the same order

    // Where a primitive of `doc` looks its base colour texture up, per vertex: the UVs through the
    // transform, as the extension's specification writes it (no rotation here but the float one).
    const auto lookups = [](const gltf::Document& doc, size_t mesh) {
        const nlohmann::json& primitive = doc.json()["meshes"][mesh]["primitives"][0];
        const nlohmann::json& info = doc.json()["materials"][primitive["material"].get<size_t>()]
                                               ["pbrMetallicRoughness"]["baseColorTexture"];
        const nlohmann::json transform = info.contains("extensions")
                                             ? info["extensions"]["KHR_texture_transform"]
                                             : nlohmann::json::object();
        const std::vector<double> offset = transform.value("offset", std::vector<double>{0, 0});
        const std::vector<double> scale = transform.value("scale", std::vector<double>{1, 1});
        const double rotation = transform.value("rotation", 0.0);
        std::vector<double> uvs = doc.accessor(primitive["attributes"]["TEXCOORD_0"].get<size_t>());
        for (size_t v = 0; v < uvs.size(); v += 2) {
            const double u = uvs[v] * scale[0], t = uvs[v + 1] * scale[1];
            uvs[v] = std::cos(rotation) * u - std::sin(rotation) * t + offset[0];
            uvs[v + 1] = std::sin(rotation) * u + std::cos(rotation) * t + offset[1];
        }
        return uvs;
    };
    const auto uv_type = [](const gltf::Document& doc, size_t mesh) {
        const nlohmann::json& primitive = doc.json()["meshes"][mesh]["primitives"][0];
        return doc.json()["accessors"][primitive["attributes"]["TEXCOORD_0"].get<size_t>()]["componentType"]
            .get<int>();
    };
    const double extents[] = {7, 7, 4 * 3, 4}; // the largest lookup range per mesh (v' = 1 - v; scale 3)
    for (size_t m = 0; m < 4; ++m) {
        BOOST_TEST_CONTEXT("mesh " << m) {
            BOOST_TEST(uv_type(small_doc, m) == (m == 3 ? 5126 : 5123)); // the rotated set stays float
            const std::vector<double> want = lookups(plain_doc, m), got = lookups(small_doc, m);
            BOOST_TEST_REQUIRE(got.size() == want.size());
            for (size_t k = 0; k < got.size(); ++k)
                BOOST_TEST(std::abs(got[k] - want[k]) <= extents[m] / 4095, // one 12-bit step
                           k << ": " << got[k] << " vs " << want[k]);
        }
    }
}

// Khronos's glTF-Validator reports no error and no warning on any fixture, as .glb, as .gltf,
// quantized, and quantized with EXT_meshopt_compression (which it reads but does not decode); and
// with key_error (reduced tracks of their own times, rotations as normalized 16-bit components).
BOOST_AUTO_TEST_CASE(the_validator_passes_every_fixture, *may_skip()) {
    const std::filesystem::path script = std::filesystem::path(ASSBIN_GLTF_DIR) / "validate.js";
    if (!std::filesystem::exists(std::filesystem::path(ASSBIN_GLTF_DIR) /
                                 "node_modules/gltf-validator/package.json"))
        skip_check("Khronos's glTF-Validator needs `npm ci` in tests/gltf");
    if (std::system("node --version > /dev/null 2>&1") != 0)
        skip_check("Khronos's glTF-Validator needs node");
    const TempDir temp;
    std::string command = "node '" + script.string() + "'";
    size_t files = 0;
    for (const std::string& name : full_fixtures()) {
        const assbin::Scene scene = assbin::read_scene(fixture_bytes(name));
        struct Variant {
            OutputFormat format;
            bool quantize, meshopt;
            double key_error;
        };
        for (const Variant& variant :
             {Variant{OutputFormat::Glb, false, false, 0}, Variant{OutputFormat::Gltf, false, false, 0},
              Variant{OutputFormat::Glb, true, false, 0}, Variant{OutputFormat::Glb, true, true, 0},
              Variant{OutputFormat::Glb, false, false, 1e-4}, Variant{OutputFormat::Glb, true, true, 1e-3}}) {
            const OutputFormat format = variant.format;
            ConvertOptions options;
            options.format = format;
            options.quantize = variant.quantize;
            options.meshopt = variant.meshopt;
            options.key_error = variant.key_error;
            options.texture_stem = "f" + std::to_string(files);
            options.source_folder = fixture_path(name).parent_path();
            try {
                const auto result = assbin::converter::convert(scene, options);
                const auto path =
                    temp.path() / (options.texture_stem + assbin::converter::format_extension(format));
                assbin::converter::write_output(result, path);
                command += " '" + path.string() + "'";
                ++files;
            } catch (const assbin::converter::ConvertError&) {
            }
        }
    }
    FILE* pipe = popen(command.c_str(), "r");
    BOOST_TEST_REQUIRE(pipe != nullptr);
    std::string output;
    char buffer[4096];
    for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;)
        output.append(buffer, n);
    BOOST_TEST(pclose(pipe) == 0);
    std::istringstream lines(output);
    size_t reports = 0;
    for (std::string line; std::getline(lines, line);) {
        const nlohmann::json report = nlohmann::json::parse(line);
        ++reports;
        BOOST_TEST_CONTEXT(report.dump()) {
            BOOST_TEST(!report.contains("failure"));
            BOOST_TEST(report.value("errors", 1) == 0);
            BOOST_TEST(report.value("warnings", 1) == 0);
        }
    }
    BOOST_TEST(reports == files);
    BOOST_TEST(files >= 80u);
}

// --meshopt (EXT_meshopt_compression) is lossless: every view, decoded by meshoptimizer's own
// decoders where compressed, holds the bytes of the same view of the plain file (a triangle may
// start at another of its corners: the index codec rotates them, winding kept).
BOOST_AUTO_TEST_CASE(meshopt_views_decode_to_the_plain_files_bytes) {
    size_t compressed_views = 0;
    for (const std::string& name : full_fixtures()) {
        BOOST_TEST_CONTEXT(name) {
            const assbin::Scene scene = assbin::read_scene(fixture_bytes(name));
            ConvertOptions options;
            options.format = OutputFormat::Glb;
            options.quantize = name.find("huesitos") != std::string::npos; // quantized and float views alike
            std::vector<std::byte> plain, packed;
            try {
                plain = assbin::converter::convert(scene, options).encoded;
                options.meshopt = true;
                packed = assbin::converter::convert(scene, options).encoded;
            } catch (const assbin::converter::ConvertError&) {
                continue;
            }
            const auto split = [](const std::vector<std::byte>& glb, nlohmann::json& json,
                                  const std::byte*& bin) {
                uint32_t length = 0;
                std::memcpy(&length, glb.data() + 12, 4);
                json = nlohmann::json::parse(reinterpret_cast<const char*>(glb.data()) + 20,
                                             reinterpret_cast<const char*>(glb.data()) + 20 + length);
                bin = glb.data() + 20 + length + 8;
            };
            nlohmann::json plain_json, packed_json;
            const std::byte *plain_bin = nullptr, *packed_bin = nullptr;
            split(plain, plain_json, plain_bin);
            split(packed, packed_json, packed_bin);
            BOOST_TEST_REQUIRE(plain_json["bufferViews"].size() == packed_json["bufferViews"].size());
            for (size_t v = 0; v < plain_json["bufferViews"].size(); ++v) {
                const nlohmann::json& want = plain_json["bufferViews"][v];
                const nlohmann::json& got = packed_json["bufferViews"][v];
                const size_t length = want["byteLength"].get<size_t>();
                const std::byte* expected = plain_bin + want.value("byteOffset", size_t{0});
                std::vector<std::byte> bytes(length);
                if (got.contains("extensions")) {
                    const nlohmann::json& m = got["extensions"]["EXT_meshopt_compression"];
                    const auto* source =
                        reinterpret_cast<const unsigned char*>(packed_bin + m["byteOffset"].get<size_t>());
                    const size_t size = m["byteLength"].get<size_t>(), count = m["count"].get<size_t>(),
                                 stride = m["byteStride"].get<size_t>();
                    const std::string mode = m["mode"].get<std::string>();
                    int status = -1;
                    if (mode == "ATTRIBUTES")
                        status = meshopt_decodeVertexBuffer(bytes.data(), count, stride, source, size);
                    else if (mode == "TRIANGLES")
                        status = meshopt_decodeIndexBuffer(bytes.data(), count, stride, source, size);
                    else
                        status = meshopt_decodeIndexSequence(bytes.data(), count, stride, source, size);
                    BOOST_TEST(status == 0);
                    BOOST_TEST(got["buffer"].get<int>() == 1); // the fallback buffer, without data
                    ++compressed_views;
                } else {
                    std::memcpy(bytes.data(), packed_bin + got.value("byteOffset", size_t{0}), length);
                }
                if (got.contains("extensions") &&
                    got["extensions"]["EXT_meshopt_compression"]["mode"].get<std::string>() == "TRIANGLES") {
                    // The index codec may start a triangle at another corner (same winding).
                    const size_t size =
                        got["extensions"]["EXT_meshopt_compression"]["byteStride"].get<size_t>();
                    const auto index = [&](const std::byte* at, size_t i) {
                        uint32_t value = 0;
                        std::memcpy(&value, at + i * size, size); // little-endian
                        return value;
                    };
                    bool same = true;
                    for (size_t t = 0; t + 3 <= length / size; t += 3) {
                        const uint32_t a = index(expected, t), b = index(expected, t + 1),
                                       c = index(expected, t + 2);
                        const uint32_t x = index(bytes.data(), t), y = index(bytes.data(), t + 1),
                                       z = index(bytes.data(), t + 2);
                        same = same && ((x == a && y == b && z == c) || (x == b && y == c && z == a) ||
                                        (x == c && y == a && z == b));
                    }
                    BOOST_TEST(same, "view " << v << ": triangles differ beyond a rotation of their corners");
                } else {
                    BOOST_TEST((std::memcmp(bytes.data(), expected, length) == 0), "view " << v);
                }
            }
            const auto required = packed_json["extensionsRequired"].get<std::vector<std::string>>();
            BOOST_TEST(
                (std::find(required.begin(), required.end(), "EXT_meshopt_compression") != required.end()));
        }
    }
    BOOST_TEST(compressed_views >= 50u);
}

// Accessors of one kind share a view (gltfpack's layout): vertex attributes by element size, with
// that byteStride; indices by size; keys and inverse bind matrices apart (the validator wants one use
// per view). Images keep views of their own. Whatever the view, each accessor reads what the dump
// holds (every_fixture_holds_what_the_dump_holds_and_poses_as_assimp reads them through the offsets).
BOOST_AUTO_TEST_CASE(accessors_of_one_kind_share_a_buffer_view) {
    size_t most_accessors = 0, their_views = 0;
    for (const std::string& name : full_fixtures()) {
        const assbin::Scene scene = assbin::read_file(fixture_path(name));
        for (const bool quantize : {false, true}) {
            assbin::converter::ConvertResult result;
            try {
                result = to_glb(scene, quantize);
            } catch (const assbin::converter::ConvertError&) {
                continue; // refused alike by every format (every_fixture_holds_what_the_dump_holds...)
            }
            const gltf::Document doc = gltf::Document::from_glb(result.encoded);
            const nlohmann::json& j = doc.json();
            const size_t accessors = j.value("accessors", nlohmann::json::array()).size();
            const size_t views = j.value("bufferViews", nlohmann::json::array()).size();
            const size_t images = j.value("images", nlohmann::json::array()).size();
            // Kinds: a handful of vertex element sizes, 2 index sizes x (triangles or not), key and
            // matrix element sizes; far fewer than the accessors of a big file.
            BOOST_TEST(views <= images + 16, name << ": " << views << " views, " << images << " images");
            std::map<size_t, std::set<size_t>> sizes_in_view; // vertex view -> its accessors' element sizes
            for (const nlohmann::json& accessor : j.value("accessors", nlohmann::json::array())) {
                const nlohmann::json& view = j["bufferViews"][accessor["bufferView"].get<size_t>()];
                if (view.value("target", 0) != 34962) continue;
                const size_t component = accessor["componentType"].get<int>() <= 5121   ? 1
                                         : accessor["componentType"].get<int>() <= 5123 ? 2
                                                                                        : 4;
                const std::string type = accessor["type"].get<std::string>();
                const size_t count = type == "SCALAR" ? 1 : type == "VEC2" ? 2 : type == "VEC3" ? 3 : 4;
                sizes_in_view[accessor["bufferView"].get<size_t>()].insert((component * count + 3) / 4 * 4);
            }
            for (const auto& [view, sizes] : sizes_in_view) {
                BOOST_TEST(sizes.size() == 1u, name << ": vertex view " << view << " mixes element sizes");
                const nlohmann::json& v = j["bufferViews"][view];
                BOOST_TEST(v.value("byteStride", *sizes.begin()) == *sizes.begin(), name);
            }
            if (accessors > most_accessors) most_accessors = accessors, their_views = views;
        }
    }
    BOOST_TEST(most_accessors >= 50u);
    BOOST_TEST(their_views * 5 < most_accessors,
               their_views << " views for " << most_accessors << " accessors");
}

BOOST_AUTO_TEST_CASE(the_output_name_chooses_the_format) {
    const TempDir temp;
    const std::string skin =
        fixture_path("assimp-5.2.5/glTF2__simple_skin__simple_skin.gltf.assbin").string();
    const auto glb = run_cli({"convert", skin, "-o", (temp.path() / "a.glb").string()});
    BOOST_TEST(glb.exit_code == 0, glb.err);
    std::ifstream in(temp.path() / "a.glb", std::ios::binary);
    char magic[4] = {};
    in.read(magic, 4);
    BOOST_TEST(std::string(magic, 4) == "glTF");
    BOOST_TEST(glb.out.find("2 bones, 1 animation") != std::string::npos, glb.out);
    const auto gltf =
        run_cli({"convert", skin, "--out-dir", (temp.path() / "t").string(), "--format", "gltf"});
    BOOST_TEST(gltf.exit_code == 0, gltf.err);
    BOOST_TEST(std::filesystem::exists(temp.path() / "t/glTF2__simple_skin__simple_skin.gltf.gltf"));
    BOOST_TEST(std::filesystem::exists(temp.path() / "t/glTF2__simple_skin__simple_skin.gltf.bin"));
    // An extension convert does not write is refused, as is a --format that contradicts -o.
    const auto unknown = run_cli({"convert", skin, "-o", (temp.path() / "a.obj").string()});
    BOOST_TEST(unknown.exit_code == 2);
    BOOST_TEST(
        unknown.err.find("the extension .obj names no format convert writes; use .aem, .glb or .gltf") !=
            std::string::npos,
        unknown.err);
    BOOST_TEST(!std::filesystem::exists(temp.path() / "a.obj"));
    const auto contradiction =
        run_cli({"convert", skin, "-o", (temp.path() / "b.glb").string(), "--format", "aem"});
    BOOST_TEST(contradiction.err.find("is a glb file, but --format says aem") != std::string::npos,
               contradiction.err);
    // AEM's options are refused for glTF, naming why.
    const auto idle = run_cli({"convert", skin, "-o", (temp.path() / "c.glb").string(), "--uv-channel", "1"});
    BOOST_TEST(idle.exit_code == 2);
    BOOST_TEST(idle.err.find("--uv-channel is an AEM option; glTF keeps every UV channel") !=
                   std::string::npos,
               idle.err);
    // --skip-existing and --json hold for glTF too.
    const auto again = run_cli({"convert", skin, "-o", (temp.path() / "d.glb").string(), "--skip-existing"});
    BOOST_TEST(again.exit_code == 0);
    const auto skipped =
        run_cli({"convert", skin, "-o", (temp.path() / "d.glb").string(), "--skip-existing", "--json"});
    const nlohmann::json report = nlohmann::json::parse(skipped.out);
    BOOST_TEST(report["files"][0]["status"].get<std::string>() == "up to date");
    const auto as_aem = run_cli({"convert", skin, "-o", (temp.path() / "d.glb").string(), "--skip-existing",
                                 "--json", "--no-optimize"});
    const nlohmann::json converted = nlohmann::json::parse(as_aem.out);
    BOOST_TEST(converted["files"][0]["status"].get<std::string>() == "converted"); // other options: again
    BOOST_TEST(converted["files"][0]["format"].get<std::string>() == "glb");
}

BOOST_AUTO_TEST_SUITE_END()
