// assbin::compare: one mutation at a time is reported exactly once at the right path; tolerances;
// full against shortened; layout variants that are not differences; the report's limits.
#include "support/data_test_case.hpp"
#include "support/fixtures.hpp"

#include <assbin/compare.hpp>
#include <assbin/reader.hpp>
#include <assbin/shortened.hpp>
#include <assbin/writer.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using assbin_test::fixture_bytes;

namespace {

const char* const kHuesitos = "assimp-5.2.5/FBX__huesitos.fbx.assbin";

assbin::Scene fixture(const std::string& name) {
    return assbin::read_scene(fixture_bytes(name));
}

// The one difference compare() must find.
void expect_single(const assbin::CompareResult& result, const std::string& path, const std::string& expected,
                   const std::string& actual) {
    for (const assbin::Difference& d : result.differences) {
        BOOST_TEST_MESSAGE(d.path << ": expected " << d.expected << ", actual " << d.actual);
    }
    BOOST_TEST_REQUIRE(result.total == 1u);
    BOOST_TEST_REQUIRE(result.differences.size() == 1u);
    BOOST_TEST(result.differences[0].path == path);
    BOOST_TEST(result.differences[0].expected == expected);
    BOOST_TEST(result.differences[0].actual == actual);
}

assbin::CompareOptions with_epsilon(double epsilon) {
    assbin::CompareOptions options;
    options.epsilon = epsilon;
    return options;
}

// Two one-mesh scenes with a single float to compare.
std::pair<assbin::Scene, assbin::Scene> one_value(float actual, float expected) {
    assbin::Scene a;
    a.nodes.resize(1);
    a.meshes.resize(1);
    a.meshes[0].vertex_count = 1;
    assbin::VertexStream<assbin::Vec3> stream;
    stream.values = {assbin::Vec3(actual, 0, 0)};
    stream.bounds.min = stream.bounds.max = assbin::Vec3::Zero(); // Eigen leaves them uninitialised
    a.meshes[0].positions = stream;
    assbin::Scene e = a;
    e.meshes[0].positions->values[0].x() = expected;
    return {a, e};
}

size_t count_differences(float actual, float expected, const assbin::CompareOptions& options) {
    const auto [a, e] = one_value(actual, expected);
    return assbin::compare(a, e, options).total;
}

} // namespace

BOOST_AUTO_TEST_SUITE(compare)

BOOST_DATA_TEST_CASE(a_scene_equals_itself, assbin_test::fixtures(assbin_test::all_assbin_fixtures()), name) {
    const assbin::Scene scene = fixture(name);
    const assbin::CompareResult result = assbin::compare(scene, scene, with_epsilon(0));
    BOOST_TEST(result.same());
    BOOST_TEST(result.values_compared > 0u);
    BOOST_TEST(result.shortened == scene.is_shortened());
}

// ---- one mutation, one difference

BOOST_AUTO_TEST_CASE(a_float_beyond_the_tolerance_is_reported_at_its_path_and_within_it_not) {
    const assbin::Scene expected = fixture(kHuesitos);
    assbin::Scene actual = expected;
    actual.meshes[0].positions->values[17].y() += 0.5f;
    const assbin::CompareResult result = assbin::compare(actual, expected);
    const float before = expected.meshes[0].positions->values[17].y();
    const float after = actual.meshes[0].positions->values[17].y();
    BOOST_TEST_REQUIRE(result.total == 1u);
    BOOST_TEST(result.differences[0].path == "scene/mesh[0]/positions[17].y");
    BOOST_TEST(std::stof(result.differences[0].expected) == before);
    BOOST_TEST(std::stof(result.differences[0].actual) == after);
    BOOST_TEST_REQUIRE(result.differences[0].delta.has_value());
    BOOST_TEST(*result.differences[0].delta == double(after) - double(before));

    assbin::Scene close = expected;
    close.meshes[0].positions->values[17].y() += 0.05f; // within cmpdump's 0.1
    BOOST_TEST(assbin::compare(close, expected, with_epsilon(0.1)).same());
    BOOST_TEST(assbin::compare(close, expected).total == 1u); // exact by default
    BOOST_TEST(assbin::compare(close, expected, with_epsilon(0)).total == 1u);
}

BOOST_AUTO_TEST_CASE(a_changed_matrix_entry_is_reported_under_the_node_path_of_names) {
    const assbin::Scene expected = fixture(kHuesitos);
    assbin::Scene actual = expected;
    actual.nodes[1].transform(1, 3) += 2.0f; // RootNode/Armature
    const assbin::CompareResult result = assbin::compare(actual, expected);
    BOOST_TEST_REQUIRE(result.total == 1u);
    BOOST_TEST(result.differences[0].path == "scene/node[RootNode/Armature]/transform[1][3]");
}

BOOST_AUTO_TEST_CASE(a_changed_name_is_reported_once) {
    const assbin::Scene expected = fixture(kHuesitos);
    assbin::Scene actual = expected;
    actual.nodes[2].name = "Bone.renamed"; // RootNode/Armature/Bone; its subtree keeps EXPECTED's names
    expect_single(assbin::compare(actual, expected), "scene/node[RootNode/Armature/Bone]/name", "\"Bone\"",
                  "\"Bone.renamed\"");
    assbin::Scene material = expected;
    material.meshes[0].bones[3].name = "other";
    BOOST_TEST(assbin::compare(material, expected).differences.at(0).path ==
               "scene/mesh[0]/bone[3 'Bone.004']/name");
}

BOOST_AUTO_TEST_CASE(a_changed_count_is_reported_once_without_element_noise) {
    const assbin::Scene expected = fixture(kHuesitos);
    assbin::Scene actual = expected;
    assbin::KeyTrack<assbin::Quaternion>& track = actual.animations[0].channels[2].rotations;
    track.keys.pop_back();
    track.count -= 1;
    expect_single(assbin::compare(actual, expected),
                  "scene/animation[0]/channel[2 'Bone.001']/rotations.count", std::to_string(track.count + 1),
                  std::to_string(track.count));

    assbin::Scene fewer_weights = expected;
    assbin::Bone& bone = fewer_weights.meshes[0].bones[0];
    bone.weights.resize(10);
    bone.weight_count = 10;
    const assbin::CompareResult result = assbin::compare(fewer_weights, expected);
    BOOST_TEST_REQUIRE(result.total == 1u);
    BOOST_TEST(result.differences[0].path == "scene/mesh[0]/bone[0 'Bone']/weight_count");
    BOOST_TEST(*result.differences[0].delta == 10.0 - double(expected.meshes[0].bones[0].weight_count));
}

BOOST_AUTO_TEST_CASE(a_changed_face_index_is_reported_at_face_and_slot) {
    const assbin::Scene expected = fixture(kHuesitos);
    assbin::Scene actual = expected;
    uint32_t& index = actual.meshes[0].faces.indices[actual.meshes[0].faces.offsets[5] + 1];
    const uint32_t before = index;
    index = (index + 1) % 256;
    expect_single(assbin::compare(actual, expected), "scene/mesh[0]/faces[5][1]", std::to_string(before),
                  std::to_string(index));
}

BOOST_AUTO_TEST_CASE(shortened_dumps_differ_by_bound_component_and_face_hash) {
    const assbin::Scene expected = fixture("assimp-5.2.5/FBX__huesitos.fbx.assbin.regress");
    assbin::Scene actual = expected;
    actual.meshes[0].normals->bounds.max.y() += 1.0f;
    BOOST_TEST(assbin::compare(actual, expected).differences.at(0).path == "scene/mesh[0]/normals.max.y");
    assbin::Scene hashed = expected;
    hashed.meshes[0].face_hashes[0] ^= 1;
    const assbin::CompareResult hash_result = assbin::compare(hashed, expected);
    BOOST_TEST_REQUIRE(hash_result.total == 1u);
    BOOST_TEST(hash_result.differences[0].path == "scene/mesh[0]/face_hashes[0]");
    BOOST_TEST(hash_result.differences[0].expected.rfind("0x", 0) == 0u); // hashes are shown in hex
    assbin::Scene keys = expected;
    keys.animations[0].channels[0].positions.bounds->max.time += 1.0;
    BOOST_TEST(assbin::compare(keys, expected).differences.at(0).path ==
               "scene/animation[0]/channel[0 'Armature']/positions.max.time");
    assbin::Scene weights = expected;
    weights.meshes[0].bones[1].weight_bounds.min.vertex += 1;
    BOOST_TEST(assbin::compare(weights, expected).differences.at(0).path ==
               "scene/mesh[0]/bone[1 'Bone.001']/weights.min.vertex");
}

// ---- full against shortened

BOOST_AUTO_TEST_CASE(a_full_dump_and_its_own_shortened_twin_have_no_difference) {
    for (const char* stem : {"assimp-5.2.5/FBX__huesitos.fbx", "assimp-5.2.5/SMD__triangle.smd",
                             "assimp-5.2.5/generated__node_extras_metadata.gltf",
                             "assimp-5.2.5/glTF2__simple_skin__simple_skin.gltf"}) {
        BOOST_TEST_CONTEXT(stem) {
            const assbin::Scene full = fixture(std::string(stem) + ".assbin");
            const assbin::Scene twin = fixture(std::string(stem) + ".assbin.regress");
            const assbin::CompareResult forward = assbin::compare(full, twin, with_epsilon(0));
            BOOST_TEST(forward.same());
            BOOST_TEST(forward.shortened);
            BOOST_TEST(forward.derived_actual);
            const assbin::CompareResult backward = assbin::compare(twin, full, with_epsilon(0));
            BOOST_TEST(backward.same());
            BOOST_TEST(backward.derived_expected);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_full_dump_against_a_shortened_one_finds_the_changed_vertex_through_its_bounds) {
    const assbin::Scene twin = fixture("assimp-5.2.5/FBX__huesitos.fbx.assbin.regress");
    assbin::Scene full = fixture(kHuesitos);
    full.meshes[0].normals->values[0].x() = 50.0f; // beyond every normal: the max moves
    const assbin::CompareResult result = assbin::compare(full, twin);
    BOOST_TEST_REQUIRE(result.total == 1u);
    BOOST_TEST(result.differences[0].path == "scene/mesh[0]/normals.max.x");
    BOOST_TEST(result.differences[0].actual == "50");
}

// ---- layout variants are not differences

BOOST_AUTO_TEST_CASE(compression_is_not_a_difference) {
    BOOST_TEST(assbin::compare(fixture("assimp-5.2.5/Collada__lights.dae.z.assbin"),
                               fixture("assimp-5.2.5/Collada__lights.dae.assbin"), with_epsilon(0))
                   .same());
}

BOOST_DATA_TEST_CASE(older_layouts_are_not_differences,
                     assbin_test::fixtures(assbin_test::all_assbin_fixtures()), name) {
    const assbin::Scene old = fixture(name);
    assbin::WriteOptions options;
    options.shortened = old.is_shortened();
    const assbin::Scene current = assbin::read_scene(assbin::write(old, options));
    BOOST_TEST(assbin::compare(current, old, with_epsilon(0)).same());
    BOOST_TEST(assbin::compare(old, current, with_epsilon(0)).same());
}

BOOST_AUTO_TEST_CASE(metadata_and_light_placement_count_only_where_both_layouts_store_them) {
    const assbin::Scene expected = fixture(kHuesitos);
    assbin::Scene old = expected; // as a 3.x dump of the same scene would read
    old.layout.node_metadata = false;
    old.layout.light_placement = false;
    for (assbin::Node& node : old.nodes)
        node.metadata.clear();
    for (assbin::Light& light : old.lights)
        light.position = light.direction = light.up = assbin::Vec3::Zero();
    BOOST_TEST(assbin::compare(old, expected).same());
    BOOST_TEST(assbin::compare(expected, old).same());

    assbin::Scene changed = expected;
    changed.nodes[1].metadata[0].value = std::get<std::string>(changed.nodes[1].metadata[0].value) + "x";
    const assbin::CompareResult result = assbin::compare(changed, expected);
    BOOST_TEST_REQUIRE(result.total == 1u);
    BOOST_TEST(result.differences[0].path ==
               "scene/node[RootNode/Armature]/metadata[" + expected.nodes[1].metadata[0].key + "]");
    assbin::Scene moved = expected;
    moved.lights[0].position.z() += 1;
    BOOST_TEST(assbin::compare(moved, expected).differences.at(0).path == "scene/light[0]/position.z");
}

BOOST_AUTO_TEST_CASE(a_4_byte_hint_equals_the_start_of_an_8_byte_one) {
    const assbin::Scene expected =
        fixture("assimp-5.2.5/glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin");
    BOOST_TEST_REQUIRE(!expected.textures.empty());
    assbin::Scene old = expected;
    old.layout.texture_hint_bytes = 4;
    old.textures[0].format_hint = expected.textures[0].format_hint.substr(0, 4);
    BOOST_TEST(assbin::compare(old, expected).same());
    old.layout.texture_hint_bytes = 8;
    old.textures[0].format_hint = "jpg";
    BOOST_TEST(assbin::compare(old, expected).differences.at(0).path == "scene/texture[0]/format_hint");
}

// ---- materials and nodes

BOOST_AUTO_TEST_CASE(material_properties_are_matched_by_key_semantic_and_index) {
    const assbin::Scene expected = fixture(kHuesitos);
    assbin::Scene reordered = expected;
    auto& properties = reordered.materials[0].properties;
    std::reverse(properties.begin(), properties.end());
    BOOST_TEST(assbin::compare(reordered, expected).same());

    assbin::Scene missing = expected;
    const assbin::MaterialProperty* diffuse = expected.materials[0].find("$clr.diffuse");
    BOOST_TEST_REQUIRE(diffuse != nullptr);
    auto& list = missing.materials[0].properties;
    list.erase(std::find_if(list.begin(), list.end(), [](const auto& p) { return p.key == "$clr.diffuse"; }));
    const assbin::CompareResult result = assbin::compare(missing, expected);
    BOOST_TEST_REQUIRE(result.total == 1u);
    BOOST_TEST(result.differences[0].path == "scene/material[0]/property[$clr.diffuse]");
    BOOST_TEST(result.differences[0].actual == "(absent)");

    assbin::Scene value = expected;
    for (auto& p : value.materials[0].properties) {
        if (p.key != "$clr.diffuse") continue;
        float green; // the second float
        std::memcpy(&green, p.data.data() + 4, 4);
        green += 1.0f;
        std::memcpy(p.data.data() + 4, &green, 4);
    }
    BOOST_TEST(assbin::compare(value, expected).differences.at(0).path ==
               "scene/material[0]/property[$clr.diffuse][1]");

    assbin::Scene terminator = expected; // a string's stored terminator byte is not part of its value
    for (auto& p : terminator.materials[0].properties) {
        if (p.key == "?mat.name") p.data.back() = 0x41;
    }
    BOOST_TEST(assbin::compare(terminator, expected, with_epsilon(0)).same());
}

BOOST_AUTO_TEST_CASE(nodes_with_empty_or_repeated_names_are_named_by_position) {
    assbin::Scene expected;
    expected.nodes.resize(4);
    expected.nodes[0].name = "root";
    expected.nodes[0].children = {1, 2, 3};
    expected.nodes[1].name = "twin";
    expected.nodes[2].name = "twin";
    expected.nodes[3].name = "";
    for (uint32_t i = 1; i < 4; ++i)
        expected.nodes[i].parent = 0;
    assbin::Scene actual = expected;
    actual.nodes[2].transform(0, 0) = 5;
    actual.nodes[3].transform(0, 0) = 5;
    const assbin::CompareResult result = assbin::compare(actual, expected);
    BOOST_TEST_REQUIRE(result.total == 2u);
    BOOST_TEST(result.differences[0].path == "scene/node[root/twin#1]/transform[0][0]");
    BOOST_TEST(result.differences[1].path == "scene/node[root/#2]/transform[0][0]");

    assbin::Scene fewer = expected;
    fewer.nodes[0].children.pop_back();
    expect_single(assbin::compare(fewer, expected), "scene/node[root]/children.count", "3", "2");
}

// ---- tolerances

BOOST_AUTO_TEST_CASE(tolerances_absolute_relative_and_ulps) {
    const float one = 1.0f;
    const float next = std::nextafter(one, 2.0f);
    BOOST_TEST(count_differences(next, one, with_epsilon(0)) == 1u);
    BOOST_TEST(count_differences(next, one, {}) == 1u);                 // exact by default
    BOOST_TEST(count_differences(1.09f, one, with_epsilon(0.1)) == 0u); // cmpdump's 0.1
    BOOST_TEST(count_differences(1.2f, one, with_epsilon(0.1)) == 1u);

    assbin::CompareOptions ulps = with_epsilon(0);
    ulps.ulps = 1;
    BOOST_TEST(count_differences(next, one, ulps) == 0u);
    BOOST_TEST(count_differences(std::nextafter(next, 2.0f), one, ulps) == 1u);
    BOOST_TEST(count_differences(-0.0f, std::numeric_limits<float>::denorm_min(), ulps) == 0u);

    assbin::CompareOptions relative = with_epsilon(0);
    relative.relative = 1e-3;
    BOOST_TEST(count_differences(1000.5f, 1000.0f, relative) == 0u);
    BOOST_TEST(count_differences(1.5f, 1.0f, relative) == 1u);

    const float nan = std::numeric_limits<float>::quiet_NaN();
    BOOST_TEST(count_differences(nan, nan, with_epsilon(0)) == 0u);
    BOOST_TEST(count_differences(nan, 0.0f, {}) == 1u); // unlike cmpdump, NaN against a number differs
    BOOST_TEST(count_differences(-0.0f, 0.0f, with_epsilon(0)) == 0u);
    const float inf = std::numeric_limits<float>::infinity();
    BOOST_TEST(count_differences(inf, inf, with_epsilon(0)) == 0u);
    BOOST_TEST(count_differences(inf, -inf, {}) == 1u);

    // Key times are f64: ulps count in double precision.
    assbin::Scene a = fixture(kHuesitos);
    assbin::Scene e = a;
    size_t channel = 0;
    while (a.animations[0].channels.at(channel).positions.keys.size() < 4)
        ++channel;
    double& time = a.animations[0].channels[channel].positions.keys.at(3).time;
    time = std::nextafter(time, 1e9);
    BOOST_TEST(assbin::compare(a, e, with_epsilon(0)).total == 1u);
    BOOST_TEST(assbin::compare(a, e, ulps).total == 0u);
}

BOOST_AUTO_TEST_CASE(invalid_tolerances_are_refused) {
    const assbin::Scene scene = fixture(kHuesitos);
    BOOST_CHECK_THROW(assbin::compare(scene, scene, with_epsilon(-1)), std::invalid_argument);
    BOOST_CHECK_THROW(assbin::compare(scene, scene, with_epsilon(std::nan(""))), std::invalid_argument);
    assbin::CompareOptions relative;
    relative.relative = -0.5;
    BOOST_CHECK_THROW(assbin::compare(scene, scene, relative), std::invalid_argument);
}

// ---- the report

BOOST_AUTO_TEST_CASE(every_difference_is_counted_and_the_first_max_diffs_kept_in_scene_order) {
    const assbin::Scene expected = fixture(kHuesitos);
    assbin::Scene actual = expected;
    for (assbin::Vec3& v : actual.meshes[0].positions->values)
        v.x() += 1.0f;                   // 256 differences
    actual.cameras[0].clip_far += 10.0f; // one more, later in the scene
    assbin::CompareOptions options;
    options.max_diffs = 10;
    const assbin::CompareResult result = assbin::compare(actual, expected, options);
    BOOST_TEST(result.total == 257u);
    BOOST_TEST_REQUIRE(result.differences.size() == 10u);
    for (size_t i = 0; i < 10; ++i) {
        BOOST_TEST(result.differences[i].path == "scene/mesh[0]/positions[" + std::to_string(i) + "].x");
    }
    options.max_diffs = 1000;
    BOOST_TEST(assbin::compare(actual, expected, options).differences.back().path ==
               "scene/camera[0]/clip_far");
}

BOOST_AUTO_TEST_CASE(ignore_patterns_skip_matching_paths) {
    const assbin::Scene expected = fixture(kHuesitos);
    assbin::Scene actual = expected;
    for (assbin::Vec3& v : actual.meshes[0].tangents->values)
        v.y() += 1.0f;
    actual.cameras[0].clip_far += 10.0f;
    assbin::CompareOptions options;
    options.ignore = {"*/tangents*"};
    const assbin::CompareResult result = assbin::compare(actual, expected, options);
    BOOST_TEST(result.ignored == 256u);
    BOOST_TEST_REQUIRE(result.total == 1u);
    BOOST_TEST(result.differences[0].path == "scene/camera[0]/clip_far");
    options.ignore.push_back("scene/camera[?]/*");
    BOOST_TEST(assbin::compare(actual, expected, options).same());
}

BOOST_AUTO_TEST_CASE(glob_patterns_match_stars_and_question_marks_literally_otherwise) {
    BOOST_TEST(assbin::glob_match("*/tangents*", "scene/mesh[2]/tangents[5].x"));
    BOOST_TEST(assbin::glob_match("*/tangents*", "scene/mesh[2]/tangents.max.y"));
    BOOST_TEST(!assbin::glob_match("*/tangents*", "scene/mesh[2]/bitangents[5].x"));
    BOOST_TEST(assbin::glob_match("scene/mesh[?]/*", "scene/mesh[2]/normals.max.y"));
    BOOST_TEST(!assbin::glob_match("scene/mesh[?]/*", "scene/mesh[12]/normals.max.y"));
    BOOST_TEST(assbin::glob_match("*", ""));
    BOOST_TEST(assbin::glob_match("a*b*c", "a-b-b-c"));
    BOOST_TEST(!assbin::glob_match("a*b*c", "a-b-b-d"));
    BOOST_TEST(assbin::glob_match("scene/node[*]/metadata*", "scene/node[RootNode/Arm]/metadata[x].type"));
}

BOOST_AUTO_TEST_SUITE_END()
