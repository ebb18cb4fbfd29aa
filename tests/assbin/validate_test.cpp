// validate(): broken data that real dumps carry is loaded, then reported with its location.
#include "support/fixtures.hpp"

#include <assbin/reader.hpp>
#include <assbin/validate.hpp>

#include <boost/test/unit_test.hpp>

#include <cstring>

using assbin_test::fixture_path;

namespace {

// The problems whose path starts with `path` and whose message contains `words`.
size_t count_problems(const std::vector<assbin::Problem>& problems, assbin::Severity severity,
                      const std::string& path, const std::string& words) {
    size_t count = 0;
    for (const assbin::Problem& problem : problems) {
        count += problem.severity == severity && problem.path.rfind(path, 0) == 0 &&
                 problem.message.find(words) != std::string::npos;
    }
    return count;
}

} // namespace

BOOST_AUTO_TEST_SUITE(validation)

BOOST_AUTO_TEST_CASE(a_clean_dump_has_no_problems) {
    const assbin::Scene scene = assbin::read_file(fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin"));
    BOOST_TEST(assbin::validate(scene).empty());
}

BOOST_AUTO_TEST_CASE(reports_out_of_range_face_indices_and_empty_faces_that_were_loaded) {
    // PLY/payload_JVN42386607 (MESHES.tsv: faces 0:1;n:2, largest index 32767 for 7 vertices).
    const assbin::Scene scene =
        assbin::read_file(fixture_path("assimp-5.2.5/PLY__payload_JVN42386607.assbin"));
    BOOST_TEST(scene.meshes.at(0).faces.size() == 3u);
    const auto problems = assbin::validate(scene);
    BOOST_TEST(
        count_problems(problems, assbin::Severity::Error, "scene/mesh[0]/faces", "vertex indices >=") == 1u);
    BOOST_TEST(count_problems(problems, assbin::Severity::Warning, "scene/mesh[0]/faces",
                              "1 face has no indices") == 1u);
}

BOOST_AUTO_TEST_CASE(reports_faces_the_primitive_types_do_not_list) {
    const assbin::Scene scene =
        assbin::read_file(fixture_path("assimp-5.2.5/PLY__cube_binary_starts_with_nl.ply.assbin"));
    const auto problems = assbin::validate(scene);
    BOOST_TEST(count_problems(problems, assbin::Severity::Warning, "scene/mesh[0]/faces",
                              "5 faces have no indices") == 1u);
}

BOOST_AUTO_TEST_CASE(reports_meshes_without_vertices_and_bones_without_weights) {
    const auto empty_mesh = assbin::validate(
        assbin::read_file(fixture_path("assimp-5.2.5/STL__triangle_with_empty_solid.stl.assbin")));
    BOOST_TEST(count_problems(empty_mesh, assbin::Severity::Warning, "scene/mesh[1]", "no vertices") == 1u);
    const auto bones =
        assbin::validate(assbin::read_file(fixture_path("assimp-5.2.5/FBX__huesitos.fbx.assbin")));
    BOOST_TEST(count_problems(bones, assbin::Severity::Warning, "scene/mesh[0]/bone[4]", "no weights") == 1u);
}

BOOST_AUTO_TEST_CASE(reports_references_past_their_arrays) {
    assbin::Scene scene = assbin::read_file(fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin"));
    scene.nodes[0].meshes.push_back(7);
    scene.meshes[0].material_index = 3;
    scene.meshes[0].bones[0].weights[0].vertex = 99;
    assbin::MaterialProperty texture;
    texture.key = "$tex.file";
    texture.type = 3;
    const std::string file = "*2";
    texture.data.resize(4 + file.size() + 1);
    const uint32_t length = static_cast<uint32_t>(file.size());
    std::memcpy(texture.data.data(), &length, 4);
    std::memcpy(texture.data.data() + 4, file.data(), file.size());
    scene.materials[0].properties.push_back(texture);
    const auto problems = assbin::validate(scene);
    BOOST_TEST(count_problems(problems, assbin::Severity::Error, "scene/node[0]", "refers to mesh 7") == 1u);
    BOOST_TEST(count_problems(problems, assbin::Severity::Error, "scene/mesh[0]", "material index 3") == 1u);
    BOOST_TEST(count_problems(problems, assbin::Severity::Error, "scene/mesh[0]/bone[0]",
                              "past the vertex count") == 1u);
    BOOST_TEST(count_problems(problems, assbin::Severity::Error, "scene/material[0]", "'*2'") == 1u);
}

BOOST_AUTO_TEST_CASE(shortened_dumps_skip_the_array_checks) {
    const assbin::Scene scene =
        assbin::read_file(fixture_path("assimp-5.2.5/FBX__huesitos.fbx.assbin.regress"));
    const auto problems = assbin::validate(scene);
    BOOST_TEST(count_problems(problems, assbin::Severity::Error, "scene/mesh", "") == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
