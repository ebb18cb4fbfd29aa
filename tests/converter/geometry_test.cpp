// Rules 1, 2 and 8: geometry baked into model space per node reference, row-major ASSBIN matrices
// becoming column-major AEM matrices through their types, normals by the inverse-transpose, UVs.
#include "scene_maker.hpp"
#include "support/fixtures.hpp"

#include <aem/io.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstring>

namespace {

using assbin::converter::ConvertOptions;
using assbin_test::convert_in_source_order;
using assbin_test::rows;
using assbin_test::SceneMaker;

constexpr float kTolerance = 1e-5f;

bool near(const Eigen::Vector3f& a, const Eigen::Vector3f& b, float tolerance = kTolerance) {
    return (a - b).norm() <= tolerance;
}

// An asymmetric affine matrix: translation (10, 20, 30), shear and unequal scales. Its transpose
// moves (1, 2, 3) somewhere else entirely, so a transposition bug cannot pass.
const assbin::Matrix4 kAsymmetric =
    rows({{2, 0.5f, 0, 10}, {0, 3, 0.25f, 20}, {0.1f, 0, 4, 30}, {0, 0, 0, 1}});

float read_float(const std::vector<std::byte>& bytes, size_t offset) {
    float value;
    std::memcpy(&value, bytes.data() + offset, 4);
    return value;
}

} // namespace

BOOST_AUTO_TEST_SUITE(geometry)

BOOST_AUTO_TEST_CASE(positions_are_baked_by_the_row_major_matrix_as_the_file_writes_it) {
    SceneMaker s;
    s.mesh({{1, 2, 3}, {0, 0, 0}, {1, 0, 0}}, {{0, 1, 2}});
    s.material();
    s.node("root", -1, kAsymmetric, {0});
    const aem::Model model = convert_in_source_order(s.scene).model;
    // Row by row: (2·1 + 0.5·2 + 0·3 + 10, 0·1 + 3·2 + 0.25·3 + 20, 0.1·1 + 0·2 + 4·3 + 30).
    BOOST_TEST(near(model.vertices[0].position, Eigen::Vector3f(13, 26.75f, 42.1f)));
    BOOST_TEST(near(model.vertices[1].position, Eigen::Vector3f(10, 20, 30)));
}

BOOST_AUTO_TEST_CASE(global_transforms_compose_parent_first) {
    SceneMaker s;
    s.mesh({{1, 0, 0}, {0, 0, 0}, {0, 1, 0}}, {{0, 1, 2}});
    s.material();
    // Parent rotates 90 degrees about z; the child translates by (5, 0, 0) in the parent's frame.
    const uint32_t parent =
        s.node("parent", -1, rows({{0, -1, 0, 0}, {1, 0, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}));
    s.node("child", static_cast<int32_t>(parent), assbin_test::translation(5, 0, 0), {0});
    const aem::Model model = convert_in_source_order(s.scene).model;
    // parent · child · (1, 0, 0) = R · (6, 0, 0) = (0, 6, 0); child · parent would give (5, 1, 0).
    BOOST_TEST(near(model.vertices[0].position, Eigen::Vector3f(0, 6, 0)));
}

BOOST_AUTO_TEST_CASE(normals_take_the_inverse_transpose_tangents_the_matrix_itself) {
    // A slanted surface under non-uniform scale: the tangent lies in the surface, the normal across it.
    SceneMaker s;
    s.mesh({{0, 0, 0}, {1, 1, 0}, {0, 0, 1}}, {{0, 1, 2}});
    const Eigen::Vector3f across = Eigen::Vector3f(1, -1, 0).normalized();
    const Eigen::Vector3f along = Eigen::Vector3f(1, 1, 0).normalized();
    assbin::Mesh& mesh = s.last_mesh();
    mesh.normals = assbin_test::stream({across, across, across});
    mesh.tangents = assbin_test::stream({along, along, along});
    mesh.bitangents =
        assbin_test::stream({Eigen::Vector3f::UnitZ(), Eigen::Vector3f::UnitZ(), Eigen::Vector3f::UnitZ()});
    s.material();
    s.node("root", -1, rows({{2, 0, 0, 7}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}), {0});
    const aem::Model model = convert_in_source_order(s.scene).model;
    // Rule 1: the inverse-transpose of diag(2, 1, 1) is diag(0.5, 1, 1): (1, -1, 0) -> (0.5, -1, 0);
    // the tangent goes by diag(2, 1, 1) itself: (1, 1, 0) -> (2, 1, 0), still in the surface (the
    // inverse-transpose would give (0.5, 1, 0), 37 degrees off it).
    const aem::Vertex& v = model.vertices[0];
    BOOST_TEST(near(v.normal, Eigen::Vector3f(0.5f, -1, 0).normalized()));
    BOOST_TEST(near(v.tangent, Eigen::Vector3f(2, 1, 0).normalized()));
    BOOST_TEST(near(v.bitangent, Eigen::Vector3f::UnitZ()));
    BOOST_TEST(std::abs(v.tangent.dot(v.normal)) < kTolerance);
    BOOST_TEST(std::abs(v.normal.norm() - 1) < kTolerance);
}

BOOST_AUTO_TEST_CASE(a_stored_tangent_off_the_surface_is_made_perpendicular_to_the_baked_normal) {
    SceneMaker s;
    s.mesh({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}});
    const Eigen::Vector3f tilted = Eigen::Vector3f(1, 0, 1).normalized(); // 45 degrees off the surface
    assbin::Mesh& mesh = s.last_mesh();
    mesh.normals =
        assbin_test::stream({Eigen::Vector3f::UnitZ(), Eigen::Vector3f::UnitZ(), Eigen::Vector3f::UnitZ()});
    mesh.tangents = assbin_test::stream({tilted, tilted, tilted});
    mesh.bitangents =
        assbin_test::stream({Eigen::Vector3f::UnitY(), Eigen::Vector3f::UnitY(), Eigen::Vector3f::UnitY()});
    s.material();
    s.node("root", -1, assbin_test::translation(0, 0, 0), {0});
    const aem::Vertex v = convert_in_source_order(s.scene).model.vertices[0];
    BOOST_TEST(near(v.tangent, Eigen::Vector3f::UnitX()));
}

BOOST_AUTO_TEST_CASE(a_mesh_referenced_by_two_nodes_is_emitted_once_per_reference) {
    SceneMaker s;
    s.triangle();
    s.material();
    const uint32_t root = s.node("root", -1);
    s.node("left", static_cast<int32_t>(root), assbin_test::translation(-10, 0, 0), {0});
    s.node("right", static_cast<int32_t>(root), assbin_test::translation(10, 0, 0), {0});
    const aem::Model model = convert_in_source_order(s.scene).model;
    BOOST_TEST_REQUIRE(model.meshes.size() == 2u);
    BOOST_TEST(model.vertices.size() == 6u);
    BOOST_TEST(model.meshes[0].first_index == 0u);
    BOOST_TEST(model.meshes[1].first_index == 3u);
    BOOST_TEST(model.meshes[1].index_count == 3u);
    BOOST_TEST(model.indices[3] >= 3u); // the second copy uses its own vertices
    BOOST_TEST(near(model.vertices[0].position, Eigen::Vector3f(-10, 0, 0)));
    BOOST_TEST(near(model.vertices[3].position, Eigen::Vector3f(10, 0, 0)));
}

BOOST_AUTO_TEST_CASE(mirroring_nodes_keep_front_faces_counter_clockwise) {
    SceneMaker s;
    s.triangle();
    const Eigen::Vector3f up(0, 0, 1);
    s.last_mesh().normals = assbin_test::stream({up, up, up});
    s.material();
    s.node("mirror", -1, rows({{-1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}), {0});
    const aem::Model model = convert_in_source_order(s.scene).model;
    BOOST_TEST((model.indices == std::vector<uint32_t>{0, 2, 1}));
    const Eigen::Vector3f& a = model.vertices[model.indices[0]].position;
    const Eigen::Vector3f& b = model.vertices[model.indices[1]].position;
    const Eigen::Vector3f& c = model.vertices[model.indices[2]].position;
    // The winding's normal agrees with the baked vertex normal.
    BOOST_TEST((b - a).cross(c - a).dot(model.vertices[0].normal) > 0);
}

BOOST_AUTO_TEST_CASE(inverse_bind_matrices_are_stored_column_major) {
    SceneMaker s;
    s.triangle();
    s.material();
    const uint32_t root = s.node("root", -1, assbin::Matrix4::Identity(), {0});
    s.node("bone", static_cast<int32_t>(root));
    assbin::Bone bone;
    bone.name = "bone";
    bone.offset = kAsymmetric;
    bone.weights = {{0, 1.0f}, {1, 1.0f}, {2, 1.0f}};
    s.last_mesh().bones.push_back(bone);
    const assbin::converter::ConvertResult result = convert_in_source_order(s.scene);
    const aem::Model& model = result.model;
    BOOST_TEST_REQUIRE(model.bones.size() == 2u);
    const Eigen::Matrix4f& ibm = model.bones[1].inverse_bind; // offset · identity⁻¹
    BOOST_TEST(ibm(0, 3) == 10.0f);
    BOOST_TEST(ibm(1, 2) == 0.25f);
    BOOST_TEST(ibm(2, 0) == 0.1f);
    // On disk: element (row r, column c) at float c*4 + r of the 80-byte record.
    const std::vector<std::byte> bytes = aem::to_bytes(model);
    const size_t bones_at = 40 + 92 * model.vertices.size() + 4 * model.indices.size() +
                            128 * model.textures.size() + 12 * model.meshes.size() +
                            12 * model.materials.size();
    const size_t record = bones_at + 80;
    BOOST_TEST(read_float(bytes, record + 4 * (3 * 4 + 0)) == 10.0f); // (0, 3): translation x
    BOOST_TEST(read_float(bytes, record + 4 * (3 * 4 + 1)) == 20.0f); // (1, 3)
    BOOST_TEST(read_float(bytes, record + 4 * (2 * 4 + 1)) == 0.25f); // (1, 2)
    BOOST_TEST(read_float(bytes, record + 4 * (0 * 4 + 2)) == 0.1f);  // (2, 0)
    BOOST_TEST(read_float(bytes, record + 4 * (0 * 4 + 3)) == 0.0f);  // (3, 0): bottom row
}

BOOST_AUTO_TEST_CASE(uvs_come_from_the_chosen_channel_as_they_are) {
    SceneMaker s;
    s.triangle();
    s.last_mesh().uv_channels = {assbin_test::uv_channel({{0.25f, 0.75f, 0}, {1, 0, 0}, {0, 1, 0}}),
                                 assbin_test::uv_channel({{0.5f, 0.125f, 0}, {1, 1, 0}, {0, 0, 0}})};
    s.material();
    s.node("root", -1, assbin::Matrix4::Identity(), {0});
    BOOST_TEST((convert_in_source_order(s.scene).model.vertices[0].uv == Eigen::Vector2f(0.25f, 0.75f)));
    ConvertOptions options;
    options.uv_channel = 1;
    BOOST_TEST(
        (convert_in_source_order(s.scene, options).model.vertices[0].uv == Eigen::Vector2f(0.5f, 0.125f)));
    options.uv_channel = 5; // absent: (0, 0)
    BOOST_TEST((convert_in_source_order(s.scene, options).model.vertices[0].uv == Eigen::Vector2f(0, 0)));
}

BOOST_AUTO_TEST_CASE(a_one_component_uv_channel_gets_v_zero) {
    const assbin::Scene scene = assbin::read_file(
        assbin_test::fixture_path("assimp-5.2.5/generated__uv1d_scalar_texcoord.gltf.assbin"));
    BOOST_TEST_REQUIRE(scene.meshes[0].uv_channels[0].component_count == 1u);
    const aem::Model model = convert_in_source_order(scene).model;
    bool some_u = false;
    for (const aem::Vertex& v : model.vertices) {
        BOOST_TEST(v.uv.y() == 0.0f);
        some_u = some_u || v.uv.x() != 0.0f;
    }
    BOOST_TEST(some_u);
}

BOOST_AUTO_TEST_CASE(non_finite_attributes_are_zeroed_and_reported) {
    SceneMaker s;
    s.triangle();
    const Eigen::Vector3f up(0, 0, 1), bad(std::nanf(""), 0, 1);
    s.last_mesh().normals = assbin_test::stream({up, bad, up});
    s.material();
    s.node("root", -1, assbin::Matrix4::Identity(), {0});
    const assbin::converter::ConvertResult result = convert_in_source_order(s.scene);
    BOOST_TEST(result.model.vertices[1].normal.isZero());
    BOOST_TEST_REQUIRE(result.warnings.size() == 1u);
    BOOST_TEST(result.warnings[0].find("mesh 0") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(geometry_threads)

BOOST_AUTO_TEST_CASE(the_model_is_the_same_on_one_thread_and_on_many) {
    // A skinned 300 x 300 grid (90,000 vertices: over the threshold where threads are used).
    constexpr uint32_t kSide = 300;
    std::vector<assbin::Vec3> positions;
    std::vector<std::vector<uint32_t>> faces;
    for (uint32_t y = 0; y < kSide; ++y) {
        for (uint32_t x = 0; x < kSide; ++x) {
            positions.emplace_back(static_cast<float>(x), static_cast<float>(y), 0.0f);
            if (x + 1 < kSide && y + 1 < kSide) {
                const uint32_t i = y * kSide + x;
                faces.push_back({i, i + 1, i + kSide + 1, i + kSide}); // quads: triangulated too
            }
        }
    }
    SceneMaker s;
    s.mesh(std::move(positions), faces);
    s.material();
    const uint32_t root = s.node("root", -1, kAsymmetric, {0});
    s.node("left", static_cast<int32_t>(root));
    s.node("right", static_cast<int32_t>(root), assbin_test::translation(1, 2, 3));
    assbin::Bone left, right;
    left.name = "left";
    right.name = "right";
    right.offset = assbin_test::translation(-1, -2, -3);
    for (uint32_t v = 0; v < kSide * kSide; ++v) {
        left.weights.push_back({v, static_cast<float>(v % kSide) + 1.0f});
        if (v % 3 != 0) right.weights.push_back({v, static_cast<float>(v / kSide) + 1.0f});
    }
    s.last_mesh().bones = {left, right};
    ConvertOptions one, many;
    one.threads = 1;
    many.threads = 4;
    const assbin::converter::ConvertResult serial = convert_in_source_order(s.scene, one);
    const assbin::converter::ConvertResult parallel = convert_in_source_order(s.scene, many);
    BOOST_TEST(serial.model.vertices.size() == kSide * kSide);
    BOOST_TEST((serial.model == parallel.model));
    BOOST_TEST((serial.warnings == parallel.warnings));
}

BOOST_AUTO_TEST_SUITE_END()
