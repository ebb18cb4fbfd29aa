// Rule 6: polygons ear-clipped in their best-fit plane (convex, concave, collinear corners),
// points and lines dropped with a warning naming the mesh, broken faces dropped and reported, and
// meshes left without triangles omitted.
#include "scene_maker.hpp"
#include "support/fixtures.hpp"

#include "algorithms.hpp"
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>

namespace {

using assbin::converter::triangulate_polygon;
using Triangles = std::vector<std::array<uint32_t, 3>>;

std::vector<Eigen::Vector3f> flat(std::initializer_list<std::pair<float, float>> points) {
    std::vector<Eigen::Vector3f> out;
    for (const auto& [x, y] : points)
        out.emplace_back(x, y, 0);
    return out;
}

// Signed area of the polygon's triangles about +z (positive: counter-clockwise).
double signed_area(const std::vector<Eigen::Vector3f>& p, const std::array<uint32_t, 3>& t) {
    return 0.5 * static_cast<double>((p[t[1]] - p[t[0]]).cross(p[t[2]] - p[t[0]]).z());
}

double polygon_area(const std::vector<Eigen::Vector3f>& p) {
    double area = 0;
    for (size_t i = 0; i < p.size(); ++i)
        area += 0.5 * static_cast<double>(p[i].x() * p[(i + 1) % p.size()].y() -
                                          p[(i + 1) % p.size()].x() * p[i].y());
    return area;
}

// A valid triangulation of a simple counter-clockwise polygon: n - 2 triangles, every one
// counter-clockwise with a positive area, and together exactly the polygon's area (a triangle
// outside the polygon, or overlapping another, would break the sum or the orientation).
void check_covers(const std::vector<Eigen::Vector3f>& polygon, const Triangles& triangles) {
    BOOST_TEST(triangles.size() == polygon.size() - 2);
    double total = 0;
    for (const auto& t : triangles) {
        BOOST_TEST(signed_area(polygon, t) > 1e-9);
        total += signed_area(polygon, t);
    }
    BOOST_TEST(std::abs(total - polygon_area(polygon)) < 1e-6);
}

assbin::converter::ConvertResult convert_fixture(const std::string& name) {
    return assbin::converter::convert(assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/" + name)));
}

bool mentions(const std::vector<std::string>& warnings, const std::string& a, const std::string& b) {
    return std::any_of(warnings.begin(), warnings.end(), [&](const std::string& w) {
        return w.find(a) != std::string::npos && w.find(b) != std::string::npos;
    });
}

} // namespace

BOOST_AUTO_TEST_SUITE(triangulate)

BOOST_AUTO_TEST_CASE(a_convex_pentagon_gives_three_triangles_covering_it) {
    const auto pentagon = flat({{0, 0}, {2, 0}, {3, 1.5f}, {1, 3}, {-1, 1.5f}});
    check_covers(pentagon, triangulate_polygon(pentagon));
}

BOOST_AUTO_TEST_CASE(a_concave_polygon_is_covered_without_leaving_it) {
    // An arrow head whose notch (3, 1) is the reflex corner: a fan from corner 0 would leave it.
    const auto arrow = flat({{0, 0}, {6, 0}, {6, 4}, {3, 1}, {0, 4}});
    check_covers(arrow, triangulate_polygon(arrow));
    // An L shape and a comb with several reflex corners.
    const auto l_shape = flat({{0, 0}, {4, 0}, {4, 1}, {1, 1}, {1, 4}, {0, 4}});
    check_covers(l_shape, triangulate_polygon(l_shape));
    const auto comb = flat({{0, 0}, {7, 0}, {7, 3}, {6, 3}, {5, 1}, {4, 3}, {3, 1}, {2, 3}, {1, 1}, {0, 3}});
    check_covers(comb, triangulate_polygon(comb));
}

BOOST_AUTO_TEST_CASE(a_collinear_corner_never_becomes_a_zero_area_triangle) {
    const auto with_collinear = flat({{0, 0}, {1, 0}, {2, 0}, {2, 1}, {0, 1}}); // (1, 0) lies on an edge
    check_covers(with_collinear, triangulate_polygon(with_collinear));
    const auto two_collinear = flat({{0, 0}, {1, 0}, {2, 0}, {3, 0}, {3, 2}, {0, 2}});
    check_covers(two_collinear, triangulate_polygon(two_collinear));
}

BOOST_AUTO_TEST_CASE(quads_split_on_the_diagonal_that_stays_inside) {
    check_covers(flat({{0, 0}, {2, 0}, {2, 2}, {0, 2}}),
                 triangulate_polygon(flat({{0, 0}, {2, 0}, {2, 2}, {0, 2}})));
    const auto dart = flat({{0, 0}, {4, 2}, {0, 4}, {1, 2}}); // reflex at (1, 2)
    check_covers(dart, triangulate_polygon(dart));
    const auto collinear = flat({{0, 0}, {1, 0}, {2, 0}, {1, 1}}); // really a triangle
    for (const auto& t : triangulate_polygon(collinear))
        BOOST_TEST(signed_area(collinear, t) > 1e-9);
}

BOOST_AUTO_TEST_CASE(polygons_are_clipped_in_their_own_plane_and_keep_their_winding) {
    // The arrow rotated out of the xy plane: 45 degrees about x.
    const Eigen::Matrix3f tilt = Eigen::AngleAxisf(0.785398f, Eigen::Vector3f::UnitX()).toRotationMatrix();
    std::vector<Eigen::Vector3f> arrow = flat({{0, 0}, {6, 0}, {6, 4}, {3, 1}, {0, 4}});
    const Eigen::Vector3f normal = tilt * Eigen::Vector3f::UnitZ();
    std::vector<Eigen::Vector3f> tilted;
    for (const auto& p : arrow)
        tilted.push_back(tilt * p);
    const Triangles triangles = triangulate_polygon(tilted);
    check_covers(arrow, triangles); // same corner numbers cover the flat original
    for (const auto& t : triangles)
        BOOST_TEST((tilted[t[1]] - tilted[t[0]]).cross(tilted[t[2]] - tilted[t[0]]).dot(normal) > 0);
}

BOOST_AUTO_TEST_CASE(meshes_with_polygons_come_out_as_triangle_lists) {
    const assbin::converter::ConvertResult result = convert_fixture("FBX__huesitos.fbx.assbin");
    // From the corpus tables, not from the converter's own counters: MESHES.tsv lists this mesh's
    // face sizes as "3:16;n:52" — 16 triangles and 52 quads — so 16 + 2 x 52 = 120 triangles.
    BOOST_TEST(result.stats.polygons_triangulated == 52u);
    BOOST_TEST(result.model.indices.size() == 3u * 120u);
}

BOOST_AUTO_TEST_CASE(points_and_lines_are_dropped_with_a_warning_naming_the_mesh) {
    const assbin::converter::ConvertResult result = convert_fixture("OFF__invalid.off.assbin");
    BOOST_TEST(result.stats.lines_dropped > 0u);
    BOOST_TEST(mentions(result.warnings, "mesh 0", "dropped (AEM draws triangles only)"));
}

BOOST_AUTO_TEST_CASE(faces_with_out_of_range_indices_are_dropped_and_reported) {
    const assbin::converter::ConvertResult result = convert_fixture("PLY__payload_JVN42386607.assbin");
    BOOST_TEST(result.stats.faces_out_of_range == 1u);
    BOOST_TEST(mentions(result.warnings, "mesh 0", "not below the vertex count"));
    for (const uint32_t i : result.model.indices)
        BOOST_TEST(i < result.model.vertices.size());
}

BOOST_AUTO_TEST_CASE(a_mesh_without_triangles_is_omitted_and_the_ranges_stay_exact) {
    const assbin::converter::ConvertResult result =
        convert_fixture("STL__triangle_with_empty_solid.stl.assbin");
    BOOST_TEST(result.stats.meshes_omitted == 1u);
    BOOST_TEST(mentions(result.warnings, "mesh 1", "omitted"));
    BOOST_TEST_REQUIRE(result.model.meshes.size() == 1u);
    BOOST_TEST(result.model.meshes[0].index_count == result.model.indices.size());
}

BOOST_AUTO_TEST_CASE(the_mesh_pipeline_triangulates_concave_faces_correctly) {
    assbin_test::SceneMaker s;
    s.mesh({{0, 0, 0}, {6, 0, 0}, {6, 4, 0}, {3, 1, 0}, {0, 4, 0}, {9, 9, 9}}, {{0, 1, 2, 3, 4}, {5}});
    s.material();
    s.node("root", -1, assbin::Matrix4::Identity(), {0});
    // Source order: the check below reads the vertices as the polygon's corners.
    const assbin::converter::ConvertResult result = assbin_test::convert_in_source_order(s.scene);
    BOOST_TEST(result.stats.polygons_triangulated == 1u);
    BOOST_TEST(result.stats.points_dropped == 1u);
    BOOST_TEST(result.model.vertices.size() == 5u); // the point's vertex is not kept
    std::vector<Eigen::Vector3f> positions;
    for (const aem::Vertex& v : result.model.vertices)
        positions.push_back(v.position);
    Triangles triangles;
    for (size_t i = 0; i < result.model.indices.size(); i += 3)
        triangles.push_back(
            {result.model.indices[i], result.model.indices[i + 1], result.model.indices[i + 2]});
    check_covers(positions, triangles);
}

BOOST_AUTO_TEST_SUITE_END()
