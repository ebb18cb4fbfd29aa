// Rule 7: missing normals (area-weighted, split at creases) and tangents (MikkTSpace's way).
#include "scene_maker.hpp"
#include "support/fixtures.hpp"

#include "algorithms.hpp"
#include "geometry/mikktspace.hpp"
#include "pipeline.hpp"
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <set>

namespace {

using assbin::converter::TriangleMesh;

constexpr float kTolerance = 1e-5f;

// A unit cube over 8 shared corners, 12 outward triangles.
TriangleMesh indexed_cube() {
    TriangleMesh mesh;
    for (int i = 0; i < 8; ++i) {
        mesh.positions.emplace_back(static_cast<float>(i & 1), static_cast<float>((i >> 1) & 1),
                                    static_cast<float>((i >> 2) & 1));
        mesh.source_vertex.push_back(static_cast<uint32_t>(i));
    }
    mesh.triangles = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                      2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5};
    return mesh;
}

Eigen::Vector3f face_normal(const TriangleMesh& mesh, size_t t) {
    const Eigen::Vector3f& a = mesh.positions[mesh.triangles[3 * t]];
    return (mesh.positions[mesh.triangles[3 * t + 1]] - a)
        .cross(mesh.positions[mesh.triangles[3 * t + 2]] - a)
        .normalized();
}

// Two triangles making the unit square in z = 0, with UVs (u, v) = (sx · x, y).
TriangleMesh square(float u_scale) {
    TriangleMesh mesh;
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    mesh.normals.assign(4, Eigen::Vector3f::UnitZ());
    for (const auto& p : mesh.positions)
        mesh.uvs.emplace_back(u_scale * p.x(), p.y());
    mesh.source_vertex = {0, 1, 2, 3};
    mesh.triangles = {0, 1, 2, 0, 2, 3};
    return mesh;
}

} // namespace

BOOST_AUTO_TEST_SUITE(normals_tangents)

BOOST_AUTO_TEST_CASE(normals_are_split_at_creases_sharper_than_the_crease_angle) {
    TriangleMesh mesh = indexed_cube();
    assbin::converter::generate_normals(mesh, 60.0f);
    BOOST_TEST(mesh.vertex_count() == 24u); // every corner of the cube serves three faces
    BOOST_TEST(mesh.source_vertex.size() == 24u);
    for (size_t t = 0; t < mesh.triangles.size() / 3; ++t) {
        for (size_t k = 0; k < 3; ++k)
            BOOST_TEST((mesh.normals[mesh.triangles[3 * t + k]] - face_normal(mesh, t)).norm() < kTolerance);
    }
}

BOOST_AUTO_TEST_CASE(normals_are_smooth_below_the_crease_angle) {
    TriangleMesh mesh = indexed_cube();
    assbin::converter::generate_normals(mesh, 180.0f);
    BOOST_TEST(mesh.vertex_count() == 8u);
    for (size_t v = 0; v < 8; ++v) {
        // Area-weighted: each corner touches two triangles of one face and one of each other face
        // (or the other way round), so the normal leans; it points away from the centre.
        const Eigen::Vector3f outward = (mesh.positions[v] - Eigen::Vector3f::Constant(0.5f)).normalized();
        BOOST_TEST(mesh.normals[v].dot(outward) > 0.9f);
        BOOST_TEST(std::abs(mesh.normals[v].norm() - 1) < kTolerance);
    }
}

BOOST_AUTO_TEST_CASE(normals_are_weighted_by_triangle_area) {
    // Two triangles share vertex 0 and meet at 45 degrees; the first has four times the other's area.
    const float c = std::sqrt(0.5f);
    TriangleMesh mesh;
    mesh.positions = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {1, 0, 0}, {0, c, c}};
    mesh.source_vertex = {0, 1, 2, 3, 4};
    mesh.triangles = {0, 1, 2, 0, 3, 4};
    assbin::converter::generate_normals(mesh, 90.0f);
    const Eigen::Vector3f big(0, 0, 4), small(0, -c, c); // twice the areas, along the face normals
    BOOST_TEST((mesh.normals[0] - (big + small).normalized()).norm() < kTolerance);
    BOOST_TEST((mesh.normals[1] - (big + small).normalized()).norm() > 0.01f); // vertex 1 sees only the first
}

BOOST_AUTO_TEST_CASE(tangents_follow_u_and_bitangents_follow_v) {
    TriangleMesh mesh = square(1.0f);
    assbin::converter::generate_tangents(mesh);
    BOOST_TEST(mesh.vertex_count() == 4u);
    for (size_t v = 0; v < 4; ++v) {
        BOOST_TEST((mesh.tangents[v] - Eigen::Vector3f::UnitX()).norm() < kTolerance);
        BOOST_TEST((mesh.bitangents[v] - Eigen::Vector3f::UnitY()).norm() < kTolerance);
    }
}

BOOST_AUTO_TEST_CASE(mirrored_uvs_flip_the_bitangent_sign) {
    TriangleMesh mesh = square(-1.0f); // u runs along -x: a mirrored mapping
    assbin::converter::generate_tangents(mesh);
    for (size_t v = 0; v < 4; ++v) {
        BOOST_TEST((mesh.tangents[v] + Eigen::Vector3f::UnitX()).norm() < kTolerance);
        // bitangent = -1 · n × t = -(z × -x) = +y: still along +v.
        BOOST_TEST((mesh.bitangents[v] - Eigen::Vector3f::UnitY()).norm() < kTolerance);
    }
}

BOOST_AUTO_TEST_CASE(a_vertex_shared_by_both_uv_orientations_is_split) {
    // Two triangles sharing the edge 0-2: the second one's UVs are mirrored.
    TriangleMesh mesh;
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    mesh.normals.assign(4, Eigen::Vector3f::UnitZ());
    mesh.uvs = {{0, 0}, {1, 0}, {1, 1}, {2, 1}};
    mesh.source_vertex = {0, 1, 2, 3};
    mesh.triangles = {0, 1, 2, 0, 2, 3};
    assbin::converter::generate_tangents(mesh);
    BOOST_TEST(mesh.vertex_count() == 6u);                           // vertices 0 and 2 are copied
    BOOST_TEST(mesh.source_vertex[4] + mesh.source_vertex[5] == 2u); // the copies of 0 and 2
    std::set<float> signs;
    for (size_t v = 0; v < mesh.vertex_count(); ++v)
        signs.insert(mesh.normals[v].cross(mesh.tangents[v]).dot(mesh.bitangents[v]) > 0 ? 1.0f : -1.0f);
    BOOST_TEST(signs.size() == 2u);
}

// MikkTSpace pools a vertex's corners only across shared edges: two triangles that touch at one
// vertex (same position, normal and UV there) but map u along different directions keep their own
// tangents there, and the vertex is split. (Pooling by value alone gives both the 45-degree average.)
BOOST_AUTO_TEST_CASE(corners_that_share_no_edge_keep_their_own_tangent) {
    TriangleMesh mesh;
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}};
    mesh.normals.assign(5, Eigen::Vector3f::UnitZ());
    // First triangle: u along +x. Second (the opposite quadrant): u along -y, v along +x.
    mesh.uvs = {{0, 0}, {1, 0}, {0, 1}, {0, -1}, {1, 0}};
    mesh.source_vertex = {0, 1, 2, 3, 4};
    mesh.triangles = {0, 1, 2, 0, 3, 4};
    assbin::converter::generate_tangents(mesh);
    BOOST_TEST(mesh.vertex_count() == 6u); // vertex 0 is split
    BOOST_TEST((mesh.tangents[mesh.triangles[0]] - Eigen::Vector3f::UnitX()).norm() < kTolerance);
    BOOST_TEST((mesh.tangents[mesh.triangles[3]] - Eigen::Vector3f(0, -1, 0)).norm() < kTolerance);
}

// A triangle whose UVs have no area has no tangent of its own: it takes the frame of the group that
// reaches it across an edge (MikkTSpace's "group with any"), not an arbitrary one.
BOOST_AUTO_TEST_CASE(a_triangle_without_uv_area_joins_its_neighbours_frame) {
    TriangleMesh mesh;
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    mesh.normals.assign(4, Eigen::Vector3f::UnitZ());
    mesh.uvs = {{0, 0}, {1, 0}, {0, 1}, {0, 1}}; // the second triangle's UVs lie on one line
    mesh.source_vertex = {0, 1, 2, 3};
    mesh.triangles = {0, 1, 2, 1, 3, 2};
    assbin::converter::generate_tangents(mesh);
    BOOST_TEST(mesh.vertex_count() == 4u); // its corners on the shared edge take the same frame
    for (const size_t corner : {3, 5})     // (vertices 1 and 2)
        BOOST_TEST((mesh.tangents[mesh.triangles[corner]] - Eigen::Vector3f::UnitX()).norm() < kTolerance);
}

BOOST_AUTO_TEST_CASE(without_uvs_the_frame_is_built_around_the_normal) {
    TriangleMesh mesh = square(1.0f);
    mesh.uvs.clear();
    mesh.normals.assign(4, Eigen::Vector3f(1, 2, 3).normalized());
    assbin::converter::generate_tangents(mesh);
    for (size_t v = 0; v < 4; ++v) {
        BOOST_TEST(std::abs(mesh.tangents[v].dot(mesh.normals[v])) < kTolerance);
        BOOST_TEST(std::abs(mesh.tangents[v].norm() - 1) < kTolerance);
        BOOST_TEST((mesh.bitangents[v] - mesh.normals[v].cross(mesh.tangents[v])).norm() < kTolerance);
    }
}

// Without UVs, vertices in a row with one normal share its frame, made once for the run: every
// vertex still holds the frame of its own normal bit for bit, where normals repeat, change, differ
// only in the sign of a zero (a different frame), or come back after a vertex no triangle uses
// (which keeps the unused frame).
BOOST_AUTO_TEST_CASE(without_uvs_each_vertex_holds_its_own_normals_frame_bit_for_bit) {
    using assbin::converter::detail::CornerFrame;
    using assbin::converter::detail::tangent_pair;
    const Eigen::Vector3f tilted = Eigen::Vector3f(1, 2, 3).normalized(), up = Eigen::Vector3f::UnitZ(),
                          up_minus_zero(-0.0f, 0.0f, 1.0f);
    TriangleMesh mesh;
    mesh.normals = {tilted, tilted, up, up_minus_zero, tilted, tilted, up, tilted};
    for (uint32_t v = 0; v < mesh.normals.size(); ++v) {
        mesh.positions.emplace_back(static_cast<float>(v), static_cast<float>(v * v), 0.0f);
        mesh.source_vertex.push_back(v);
    }
    mesh.triangles = {0, 1, 2, 2, 3, 5, 5, 6, 7}; // vertex 4 is unused
    assbin::converter::generate_tangents(mesh);
    BOOST_TEST(mesh.vertex_count() == 8u);
    const auto same_bits = [](const Eigen::Vector3f& a, const Eigen::Vector3f& b) {
        return std::memcmp(a.data(), b.data(), sizeof(Eigen::Vector3f)) == 0;
    };
    const auto unused = tangent_pair(CornerFrame{}, Eigen::Vector3f::UnitZ());
    BOOST_TEST(!same_bits(tangent_pair(CornerFrame{}, up).tangent,
                          tangent_pair(CornerFrame{}, up_minus_zero).tangent)); // the case is real
    for (size_t v = 0; v < mesh.vertex_count(); ++v) {
        const auto expected = v == 4 ? unused : tangent_pair(CornerFrame{}, mesh.normals[v]);
        BOOST_TEST(same_bits(mesh.tangents[v], expected.tangent), "vertex " << v);
        BOOST_TEST(same_bits(mesh.bitangents[v], expected.bitangent), "vertex " << v);
    }
}

BOOST_AUTO_TEST_CASE(the_converter_generates_what_the_dump_lacks) {
    const assbin::Scene scene = assbin::read_file(
        assbin_test::fixture_path("assimp-5.2.5/glTF2__simple_skin__simple_skin.gltf.assbin"));
    BOOST_TEST_REQUIRE(!scene.meshes[0].normals.has_value());
    const assbin::converter::ConvertResult result = assbin::converter::convert(scene);
    BOOST_TEST(result.stats.meshes_normals_generated == 1u);
    BOOST_TEST(result.stats.meshes_tangents_generated == 1u);
    for (const aem::Vertex& v : result.model.vertices) {
        BOOST_TEST(std::abs(v.normal.norm() - 1) < kTolerance);
        BOOST_TEST(std::abs(v.tangent.dot(v.normal)) < kTolerance);
        BOOST_TEST(std::abs(v.bitangent.norm() - 1) < kTolerance);
    }
}

BOOST_AUTO_TEST_CASE(generated_tangents_match_the_ones_assimp_stored_for_a_clean_mesh) {
    // huesitos.fbx was dumped with tangents; regenerate them and compare vertex by vertex.
    const assbin::Scene scene =
        assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/FBX__huesitos.fbx.assbin"));
    const assbin::Mesh& source = scene.meshes[0];
    BOOST_TEST_REQUIRE(source.tangents.has_value());
    TriangleMesh mesh;
    mesh.positions = source.positions->values;
    mesh.normals = source.normals->values;
    for (const auto& uv : source.uv_channels[0].values)
        mesh.uvs.emplace_back(uv.x(), uv.y());
    for (uint32_t v = 0; v < mesh.positions.size(); ++v)
        mesh.source_vertex.push_back(v);
    for (size_t f = 0; f < source.faces.size(); ++f) {
        const auto face = source.faces.face(f);
        std::vector<Eigen::Vector3f> corners;
        for (const uint32_t i : face)
            corners.push_back(mesh.positions[i]);
        for (const auto& t : assbin::converter::triangulate_polygon(corners)) {
            for (const uint32_t c : t)
                mesh.triangles.push_back(face[c]);
        }
    }
    assbin::converter::generate_tangents(mesh);
    size_t within_one_degree = 0;
    for (size_t v = 0; v < mesh.vertex_count(); ++v) {
        const Eigen::Vector3f stored = source.tangents->values[mesh.source_vertex[v]].normalized();
        within_one_degree += stored.dot(mesh.tangents[v]) > std::cos(std::numbers::pi_v<float> / 180) ? 1 : 0;
    }
    BOOST_TEST(within_one_degree == mesh.vertex_count());
}

// The usual dump holds normals and UVs but no tangents (Assimp writes them only when asked to
// compute them): its arrays are read in place, the tangents made after baking, and the model is the
// one the copying path makes (that path is taken here by one vertex no face uses).
BOOST_AUTO_TEST_CASE(a_mesh_lacking_only_tangents_is_read_in_place_and_converts_as_a_copy_would) {
    namespace detail = assbin::converter::detail;
    assbin::Scene scene =
        assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/FBX__huesitos.fbx.assbin"));
    assbin::Mesh& mesh = scene.meshes[0];
    mesh.tangents.reset();
    mesh.bitangents.reset();
    BOOST_TEST_REQUIRE(mesh.normals.has_value());
    BOOST_TEST_REQUIRE(!mesh.uv_channels.empty());

    std::vector<std::string> warnings;
    detail::Report report(warnings);
    assbin::converter::ConvertStats stats;
    const assbin::converter::ConvertOptions options;
    const auto triangulate = [&](const assbin::Mesh& source) { // as convert() does: faces sorted first
        detail::MeshFaces faces = detail::sort_faces(source);
        return detail::triangulate_mesh(source, faces, 0, options, report, stats);
    };
    const detail::PreparedMesh prepared = triangulate(mesh);
    BOOST_TEST(prepared.in_place);
    BOOST_TEST(prepared.tangents_after_baking);
    BOOST_TEST(prepared.source_triangles == nullptr); // polygons among its faces: triangles of its own
    const detail::VertexView view = detail::view_of(prepared, mesh, options);
    BOOST_TEST(view.normals == mesh.normals->values.data());
    BOOST_TEST(view.tangents == nullptr);

    assbin::Scene copied = scene;
    assbin::Mesh& extended = copied.meshes[0];
    extended.positions->values.emplace_back(0.5f, 0.5f, 0.5f);
    extended.normals->values.push_back(assbin::Vec3::UnitZ());
    for (assbin::UvChannel& channel : extended.uv_channels)
        channel.values.push_back(assbin::Vec3::Zero());
    for (auto& colours : extended.color_sets)
        colours.values.push_back(colours.values.front());
    ++extended.vertex_count;
    const detail::PreparedMesh copy = triangulate(extended);
    BOOST_TEST(!copy.in_place);

    const assbin::converter::ConvertResult in_place = assbin::converter::convert(scene);
    const assbin::converter::ConvertResult by_copy = assbin::converter::convert(copied);
    BOOST_TEST(in_place.stats.meshes_tangents_generated == 1u);
    BOOST_TEST(by_copy.stats.meshes_tangents_generated == 1u);
    BOOST_TEST(in_place.warnings == by_copy.warnings, boost::test_tools::per_element());
    BOOST_TEST(in_place.model.indices == by_copy.model.indices, boost::test_tools::per_element());
    BOOST_TEST_REQUIRE(in_place.model.vertices.size() == by_copy.model.vertices.size());
    BOOST_TEST(std::memcmp(in_place.model.vertices.data(), by_copy.model.vertices.data(),
                           in_place.model.vertices.size() * sizeof(aem::Vertex)) == 0);
    for (const aem::Vertex& v : in_place.model.vertices)
        BOOST_TEST(std::abs(v.tangent.norm() - 1) < kTolerance);

    // Plain triangles lend their indices as well.
    const assbin::Scene triangle =
        assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin"));
    const assbin::Mesh& plain = triangle.meshes[0];
    BOOST_TEST_REQUIRE(!plain.tangents.has_value());
    const detail::PreparedMesh lent = triangulate(plain);
    BOOST_TEST(lent.in_place);
    BOOST_TEST(lent.tangents_after_baking);
    BOOST_TEST(lent.source_triangles == &plain.faces.indices);

    // A NaN normal is copied, zeroed and reported, as before: reading it in place would bake it.
    mesh.normals->values[0].x() = std::numeric_limits<float>::quiet_NaN();
    BOOST_TEST(!triangulate(mesh).in_place);
    BOOST_TEST(warnings.size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
