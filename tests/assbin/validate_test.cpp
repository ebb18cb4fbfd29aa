// validate(): broken data that real dumps carry is loaded, then reported with its location.
#include "support/fixtures.hpp"

#include <assbin/reader.hpp>
#include <assbin/validate.hpp>

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <vector>

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

// A scene of one mesh of `vertex_count` vertices and `faces` (copied, or left as file records of
// u16 or u32 indices, as ReadOptions::array_views leaves them).
struct FaceScene {
    assbin::Scene scene;
    std::vector<std::byte> records; // the file's face records, when the faces are left there
};

FaceScene face_scene(const std::vector<std::vector<uint32_t>>& faces, uint32_t vertex_count, uint32_t types,
                     int records_index_bytes = 0) {
    FaceScene out;
    out.scene.materials.resize(1);
    assbin::Mesh& mesh = out.scene.meshes.emplace_back();
    mesh.vertex_count = vertex_count;
    mesh.face_count = uint32_t(faces.size());
    mesh.primitive_types = types;
    mesh.positions.emplace();
    mesh.positions->values.assign(vertex_count, assbin::Vec3::Zero());
    if (records_index_bytes == 0) {
        mesh.faces.offsets.push_back(0);
        for (const auto& face : faces) {
            mesh.faces.indices.insert(mesh.faces.indices.end(), face.begin(), face.end());
            mesh.faces.offsets.push_back(uint32_t(mesh.faces.indices.size()));
        }
        return out;
    }
    for (const auto& face : faces) {
        const uint16_t count = uint16_t(face.size());
        const auto* count_bytes = reinterpret_cast<const std::byte*>(&count);
        out.records.insert(out.records.end(), count_bytes, count_bytes + 2);
        for (const uint32_t index : face) {
            const uint16_t narrow = uint16_t(index);
            const auto* bytes = records_index_bytes == 4 ? reinterpret_cast<const std::byte*>(&index)
                                                         : reinterpret_cast<const std::byte*>(&narrow);
            out.records.insert(out.records.end(), bytes, bytes + records_index_bytes);
        }
    }
    mesh.faces.file_records = out.records;
    mesh.faces.file_wide_indices = records_index_bytes == 4;
    return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(validation)

// Faces of one size are checked without a visit per face (FaceList::uniform); the reports must be
// those of the face-by-face walk, in every form the faces come in.
BOOST_AUTO_TEST_CASE(faces_of_one_size_are_reported_as_face_by_face) {
    using assbin::Severity;
    for (const int form : {0, 2, 4}) { // copied, file records of u16 and of u32 indices
        BOOST_TEST_CONTEXT("form " << form) {
            const std::vector<std::vector<uint32_t>> triangles = {{0, 1, 2}, {2, 1, 3}, {3, 4, 0}};
            FaceScene clean = face_scene(triangles, 5, assbin::kPrimitiveTriangle, form);
            const auto uniform = clean.scene.meshes[0].faces.uniform();
            BOOST_REQUIRE(uniform.has_value());
            BOOST_TEST(uniform->size == 3u);
            BOOST_TEST(uniform->count == 3u);
            BOOST_TEST(uniform->max_index == 4u);
            for (const assbin::Problem& problem : assbin::validate(clean.scene))
                BOOST_TEST(problem.path.rfind("scene/mesh[0]/faces", 0) != 0, problem.message);

            // One index past the vertex count: the face-by-face walk names the face and index.
            FaceScene past =
                face_scene({{0, 1, 2}, {2, 1, 3}, {3, 7, 0}, {9, 1, 2}}, 5, assbin::kPrimitiveTriangle, form);
            BOOST_TEST(
                count_problems(assbin::validate(past.scene), Severity::Error, "scene/mesh[0]/faces",
                               "2 faces use vertex indices >= the vertex count 5 (first: face 2, index 7)") ==
                1u);

            // Quads where only triangles are declared: every face, the first face 0.
            FaceScene quads = face_scene({{0, 1, 2, 3}, {1, 2, 3, 4}}, 5, assbin::kPrimitiveTriangle, form);
            BOOST_TEST(count_problems(assbin::validate(quads.scene), Severity::Warning, "scene/mesh[0]/faces",
                                      "2 faces have a size the primitive types do not list (first: face 0 "
                                      "with 4 indices)") == 1u);

            // Empty faces only.
            FaceScene empty = face_scene({{}, {}, {}}, 5, assbin::kPrimitiveTriangle, form);
            BOOST_TEST(count_problems(assbin::validate(empty.scene), Severity::Warning, "scene/mesh[0]/faces",
                                      "3 faces have no indices (first: face 0)") == 1u);

            // Sizes that differ: no uniform answer, and the walk reports what it finds.
            FaceScene mixed = face_scene({{0, 1, 2}, {0, 1}, {2, 3, 4}}, 5, assbin::kPrimitiveTriangle, form);
            BOOST_TEST(!mixed.scene.meshes[0].faces.uniform().has_value());
            BOOST_TEST(count_problems(assbin::validate(mixed.scene), Severity::Warning, "scene/mesh[0]/faces",
                                      "1 face has a size the primitive types do not list (first: face 1 with "
                                      "2 indices)") == 1u);
        }
    }
}

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
