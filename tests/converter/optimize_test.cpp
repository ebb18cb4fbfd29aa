// Game-ready geometry: the weld is exact (identical records merge, anything else stays apart),
// meshes of one material become one, triangles are reordered without loss, and the options that
// turn it off give the source-order output.
#include "geometry_checks.hpp"
#include "scene_maker.hpp"
#include "support/data_test_case.hpp"
#include "support/fixtures.hpp"

#include <aem/io.hpp>
#include <aem/validate.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/converter/mesh_metrics.hpp>
#include <assbin/reader.hpp>

#include "geometry/vertex_groups.hpp"

#include <boost/test/unit_test.hpp>
#include <meshoptimizer.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>

namespace {

using assbin::converter::convert;
using assbin::converter::ConvertOptions;
using assbin::converter::ConvertResult;
using assbin_test::convert_in_source_order;
using assbin_test::SceneMaker;

// A unit quad as two triangles over six vertices (every corner its own vertex, as many importers
// write), with normals and UVs, so nothing is generated that could split vertices.
SceneMaker unwelded_quad() {
    SceneMaker s;
    s.mesh({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0, 1, 2}, {3, 4, 5}});
    s.last_mesh().normals = assbin_test::stream(std::vector<assbin::Vec3>(6, assbin::Vec3(0, 0, 1)));
    s.last_mesh().uv_channels.push_back(
        assbin_test::uv_channel({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 0, 0}, {1, 1, 0}, {0, 1, 0}}));
    s.material();
    s.node("root", -1, assbin::Matrix4::Identity(), {0});
    return s;
}

ConvertResult convert_fixture(const std::string& name, const ConvertOptions& options = {}) {
    return convert(assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/" + name)), options);
}

} // namespace

BOOST_AUTO_TEST_SUITE(optimize)

BOOST_AUTO_TEST_CASE(identical_records_weld_into_one_vertex) {
    const ConvertResult result = convert(unwelded_quad().scene);
    BOOST_TEST(result.model.vertices.size() == 4u);
    BOOST_TEST(result.model.indices.size() == 6u);
    BOOST_TEST(result.stats.source_vertices == 6u);
    BOOST_TEST(result.stats.vertices == 4u);
    BOOST_TEST(!assbin_test::mesh_with_unwelded_vertices(result.model));
    BOOST_TEST(assbin_test::triangle_fingerprints(result.model) ==
               assbin_test::triangle_fingerprints(convert_in_source_order(unwelded_quad().scene).model));
}

BOOST_AUTO_TEST_CASE(vertices_differing_in_any_attribute_stay_apart) {
    SceneMaker s = unwelded_quad();
    s.last_mesh().uv_channels[0].values[3] = {0.5f, 0, 0};          // a UV seam at corner (0, 0, 0)
    s.last_mesh().normals->values[4] = assbin::Vec3(0, 0.6f, 0.8f); // a crease at corner (1, 1, 0)
    const ConvertResult result = convert(s.scene);
    BOOST_TEST(result.model.vertices.size() == 6u);
    // Flat-shaded cube without normals: 36 corners, 24 distinct (position, face normal) records.
    SceneMaker cube;
    std::vector<assbin::Vec3> corners;
    std::vector<std::vector<uint32_t>> faces;
    const int quads[6][4] = {{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1},
                             {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}};
    for (const auto& quad : quads) {
        for (const int tri : {0, 1}) {
            for (const int k : {0, tri + 1, tri + 2}) {
                const int c = quad[k];
                corners.emplace_back(float(c & 1), float((c >> 1) & 1), float((c >> 2) & 1));
            }
            const auto n = static_cast<uint32_t>(corners.size());
            faces.push_back({n - 3, n - 2, n - 1});
        }
    }
    cube.mesh(corners, faces);
    cube.material();
    cube.node("root", -1, assbin::Matrix4::Identity(), {0});
    const ConvertResult flat = convert(cube.scene);
    BOOST_TEST(flat.stats.source_vertices == 36u);
    BOOST_TEST(flat.model.vertices.size() == 24u);
    BOOST_TEST(!assbin_test::mesh_with_unwelded_vertices(flat.model));
}

BOOST_AUTO_TEST_CASE(minus_zero_welds_with_plus_zero_and_is_written_as_plus_zero) {
    SceneMaker s = unwelded_quad();
    s.last_mesh().positions->values[3] = assbin::Vec3(-0.0f, -0.0f, 0);
    const ConvertResult result = convert(s.scene);
    BOOST_TEST(result.model.vertices.size() == 4u);
    for (const aem::Vertex& v : result.model.vertices) {
        for (int a = 0; a < 3; ++a)
            BOOST_TEST(!std::signbit(v.position[a]));
    }
}

BOOST_AUTO_TEST_CASE(meshes_sharing_a_material_become_one_mesh) {
    SceneMaker s;
    s.triangle(0);
    s.triangle(1);
    s.triangle(0);
    s.material();
    s.material();
    const uint32_t root = s.node("root", -1, assbin::Matrix4::Identity(), {0, 1});
    s.node("moved", static_cast<int32_t>(root), assbin_test::translation(5, 0, 0), {2});
    const ConvertResult merged = convert(s.scene);
    BOOST_TEST_REQUIRE(merged.model.meshes.size() == 2u);
    BOOST_TEST(merged.model.meshes[0].material == 0u); // materials in order of first use
    BOOST_TEST(merged.model.meshes[0].index_count == 6u);
    BOOST_TEST(merged.model.meshes[1].material == 1u);
    BOOST_TEST(merged.stats.source_meshes == 3u);
    BOOST_TEST(aem::validate(merged.model).empty());
    ConvertOptions keep;
    keep.keep_meshes = true;
    const ConvertResult kept = convert(s.scene, keep);
    BOOST_TEST(kept.model.meshes.size() == 3u);
    BOOST_TEST(assbin_test::triangle_fingerprints(kept.model, assbin_test::Frames::Excluded) ==
               assbin_test::triangle_fingerprints(merged.model, assbin_test::Frames::Excluded));
}

BOOST_AUTO_TEST_CASE(node_animated_meshes_of_one_material_merge_and_still_move) {
    ConvertOptions keep;
    keep.keep_meshes = true;
    const ConvertResult merged = convert_fixture("ASE__anim.ASE.assbin");
    const ConvertResult kept = convert_fixture("ASE__anim.ASE.assbin", keep);
    BOOST_TEST(merged.model.meshes.size() < kept.model.meshes.size());
    BOOST_TEST(merged.model.meshes.size() == assbin_test::materials_used(kept.model));
    // Vertices of different mesh bones share the merged mesh.
    std::set<int32_t> extra_bones;
    const aem::Mesh& first = merged.model.meshes[0];
    for (uint32_t i = first.first_index; i < first.first_index + first.index_count; ++i)
        extra_bones.insert(merged.model.vertices[merged.model.indices[i]].extra_bone);
    BOOST_TEST(extra_bones.size() > 1u); // the pose oracle (pose_equality) checks that they move right
}

BOOST_DATA_TEST_CASE(every_fixture_keeps_every_triangle_and_welds_exactly,
                     assbin_test::fixtures({"FBX__huesitos.fbx.assbin", "X__anim_test.x.assbin",
                                            "MDL__MDL-HL1__duplicate_submodels.mdl.assbin",
                                            "glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin",
                                            "OBJ__box.obj.tri.assbin", "ASE__anim.ASE.assbin",
                                            "3DS__RotatingCube.3DS.assbin"}),
                     fixture) {
    const assbin::Scene scene = assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/" + fixture));
    const ConvertResult optimised = convert(scene);
    const ConvertResult plain = convert_in_source_order(scene);
    BOOST_TEST(assbin_test::triangle_fingerprints(optimised.model, assbin_test::Frames::Excluded) ==
               assbin_test::triangle_fingerprints(plain.model, assbin_test::Frames::Excluded));
    BOOST_TEST(!assbin_test::mesh_with_unwelded_vertices(optimised.model));
    BOOST_TEST(optimised.model.vertices.size() <= plain.model.vertices.size());
    BOOST_TEST(optimised.stats.vertices_transformed <= optimised.stats.source_vertices_transformed);
    BOOST_TEST(aem::validate(optimised.model).empty());
}

BOOST_AUTO_TEST_CASE(vertices_come_in_first_use_order) {
    const aem::Model model = convert_fixture("FBX__huesitos.fbx.assbin").model;
    uint32_t next = 0;
    for (const uint32_t index : model.indices) {
        BOOST_TEST_REQUIRE(index <= next);
        if (index == next) ++next;
    }
    BOOST_TEST(next == model.vertices.size());
}

BOOST_AUTO_TEST_CASE(optimisation_lowers_acmr_on_a_welded_skinned_model) {
    const ConvertResult result = convert_fixture("FBX__huesitos.fbx.assbin");
    const auto metrics = assbin::converter::measure_meshes(result.model);
    BOOST_TEST(metrics.total.weldable == 0u);
    BOOST_TEST(metrics.total.vertices_transformed == result.stats.vertices_transformed);
    BOOST_TEST(metrics.total.acmr() < 1.2);
    const auto source = assbin::converter::measure_meshes(
        convert_in_source_order(
            assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/FBX__huesitos.fbx.assbin")))
            .model);
    BOOST_TEST(source.total.acmr() > 2.0); // mostly unwelded: little reuse
    BOOST_TEST(source.total.weldable == source.total.vertices - metrics.total.vertices);
}

// What optimize = false writes is the converter's output from before optimisation existed: these
// files were written by that converter (tests/data/README.md).
BOOST_DATA_TEST_CASE(without_optimisation_the_output_is_the_source_order_one_byte_for_byte,
                     assbin_test::fixtures({"FBX__huesitos.fbx", "Collada__box_nested_animation.dae"}),
                     fixture) {
    ConvertOptions options;
    options.optimize = false;
    const aem::Model model = convert_fixture(fixture + ".assbin", options).model;
    const auto expected = assbin_test::fixture_bytes("source-order/" + fixture + ".aem");
    BOOST_TEST((aem::to_bytes(model) == expected));
}

// Every file of tests/data/source-order is compared by the case above.
BOOST_AUTO_TEST_CASE(every_source_order_golden_is_compared) {
    const std::set<std::string> compared{"FBX__huesitos.fbx.aem", "Collada__box_nested_animation.dae.aem"};
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(assbin_test::fixture_path("source-order"))) {
        ++files;
        BOOST_TEST(compared.count(entry.path().filename().string()) == 1u, entry.path().filename());
    }
    BOOST_TEST(files == compared.size());
}

BOOST_AUTO_TEST_CASE(degenerate_triangles_are_kept_and_counted) {
    SceneMaker s;
    // A zero-area (collinear) triangle, one whose two corners weld into one vertex, and a good one.
    s.mesh(
        {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 1, 0}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
        {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}});
    s.last_mesh().normals = assbin_test::stream(std::vector<assbin::Vec3>(9, assbin::Vec3(0, 0, 1)));
    s.material();
    s.node("root", -1, assbin::Matrix4::Identity(), {0});
    const ConvertResult result = convert(s.scene);
    BOOST_TEST(result.model.indices.size() == 9u);
    BOOST_TEST(result.stats.degenerate_triangles == 1u);
    BOOST_TEST(std::any_of(result.warnings.begin(), result.warnings.end(), [](const std::string& w) {
        return w.find("1 triangle has two corners on one vertex (zero area); it is kept as it is") == 0;
    }));
    BOOST_TEST(aem::validate(result.model).empty());
}

BOOST_AUTO_TEST_CASE(huge_coordinates_and_tiny_meshes_convert) {
    SceneMaker s;
    s.mesh({{-3e38f, 0, 0}, {3e38f, 0, 0}, {0, 3e38f, 1e-30f}}, {{0, 1, 2}});
    s.triangle();
    s.material();
    s.node("root", -1, assbin::Matrix4::Identity(), {0, 1});
    const ConvertResult result = convert(s.scene);
    BOOST_TEST(result.model.indices.size() == 6u);
    BOOST_TEST(result.model.meshes.size() == 1u);
    BOOST_TEST(aem::validate(result.model).empty());
    BOOST_TEST(assbin::converter::measure_meshes(result.model).total.measured);
}

BOOST_AUTO_TEST_CASE(a_mesh_of_four_million_vertices_converts) {
    // A 2000 x 2000 grid, indexed (every inner vertex used by six triangles): 8 M triangles.
    constexpr uint32_t kSide = 2000;
    SceneMaker s;
    std::vector<assbin::Vec3> positions;
    positions.reserve(kSide * kSide);
    for (uint32_t y = 0; y < kSide; ++y) {
        for (uint32_t x = 0; x < kSide; ++x)
            positions.emplace_back(float(x), float(y), 0.0f);
    }
    std::vector<std::vector<uint32_t>> faces;
    faces.reserve(size_t{2} * (kSide - 1) * (kSide - 1));
    for (uint32_t y = 0; y + 1 < kSide; ++y) {
        for (uint32_t x = 0; x + 1 < kSide; ++x) {
            const uint32_t v = y * kSide + x;
            faces.push_back({v, v + 1, v + kSide + 1});
            faces.push_back({v, v + kSide + 1, v + kSide});
        }
    }
    s.mesh(std::move(positions), faces);
    s.last_mesh().normals =
        assbin_test::stream(std::vector<assbin::Vec3>(kSide * kSide, assbin::Vec3(0, 0, 1)));
    s.material();
    s.node("root", -1, assbin::Matrix4::Identity(), {0});
    const ConvertResult result = convert(s.scene);
    BOOST_TEST(result.model.vertices.size() == size_t{kSide} * kSide);
    BOOST_TEST(result.model.indices.size() == faces.size() * 3);
    BOOST_TEST(result.stats.vertices_transformed < result.stats.source_vertices_transformed);
    BOOST_TEST(result.stats.vertices_transformed < result.stats.triangles); // ACMR below 1
}

// The weld (weld.cpp) must number vertices exactly as meshopt_generateVertexRemap does (the order
// of first use; unused vertices left out), or outputs would change: held against it on records
// drawn from a pool of a thousand (many exact duplicates), some with a zero made -0 (bytes that
// differ only in a zero's sign stay apart: the weld compares bytes), and vertices no index uses.
BOOST_AUTO_TEST_CASE(the_weld_numbers_vertices_as_meshoptimizer_does) {
    struct Record {
        float values[23];
    };
    static_assert(sizeof(Record) == 92);
    std::mt19937 random(26);
    for (const uint32_t count : {1u, 7u, 1000u, 60000u}) {
        std::vector<Record> pool(1000), records(count);
        for (Record& record : pool)
            for (float& value : record.values)
                value = static_cast<float>(random() % 3);
        for (Record& record : records) {
            record = pool[random() % pool.size()];
            if (random() % 5 == 0) record.values[random() % 23] = -0.0f;
        }
        std::vector<uint32_t> indices(3 * static_cast<size_t>(count));
        for (uint32_t& index : indices)
            index = static_cast<uint32_t>(random() % count) & ~1u; // odd vertices stay unused
        std::vector<uint32_t> ours(count), theirs(count);
        const size_t our_unique =
            assbin::converter::detail::weld_records(ours, indices, records.data(), count, sizeof(Record));
        const size_t their_unique = meshopt_generateVertexRemap(theirs.data(), indices.data(), indices.size(),
                                                                records.data(), count, sizeof(Record));
        BOOST_TEST(our_unique == their_unique);
        BOOST_TEST(ours == theirs, boost::test_tools::per_element());
        if (count == 60000) BOOST_TEST(our_unique < count / 4); // the draw made duplicates
    }
}

// Grouping by value (normals' positions, MikkTSpace's identities): equal keys (-0 as +0) share a
// group, groups numbered in order of first appearance.
BOOST_AUTO_TEST_CASE(grouping_by_value_numbers_groups_in_order_of_first_appearance) {
    const std::vector<float> xs{3, -0.0f, 1, 3, 0, 2, 1, -0.0f};
    const std::vector<uint32_t> group = assbin::converter::detail::group_equal<1>(xs.size(), [&](uint32_t v) {
        return assbin::converter::detail::Bits<1>{assbin::converter::detail::float_bits(xs[v])};
    });
    BOOST_TEST(group == (std::vector<uint32_t>{0, 1, 2, 0, 1, 3, 2, 1}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
