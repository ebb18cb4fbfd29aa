// Pose equality: for skinned, node-animated and static fixtures, the AEM model posed by the aem
// library and the source scene posed by an independent Assimp-semantics evaluator put every vertex
// at the same world position (within 1e-4 x the model's size), at several times of every animation
// and in the bind pose; and from the source's side, every triangle of every placed mesh is emitted.
#include "assimp_oracle.hpp"
#include "geometry_checks.hpp"
#include "support/data_test_case.hpp"
#include "support/fixtures.hpp"

#include <aem/pose.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace {

using assbin::converter::ConvertOptions;
using assbin::converter::ConvertResult;

struct Comparison {
    double worst_error = 0; // largest distance between AEM and oracle positions
    std::string worst_where;
    double largest_motion = 0; // largest distance of a vertex from its bind position (not vacuous)
    size_t samples = 0;
};

void compare_at(const ConvertResult& result, const assbin_test::oracle::SceneEvaluator& evaluator,
                std::optional<uint32_t> animation, float seconds, Comparison& comparison) {
    const aem::Model& model = result.model;
    const aem::Pose pose = aem::evaluate_pose(model, animation, seconds);
    const assbin_test::oracle::SceneEvaluator::Pose expected_pose =
        evaluator.pose(animation ? std::optional<size_t>(*animation) : std::nullopt, seconds);
    for (uint32_t v = 0; v < model.vertices.size(); ++v) {
        const assbin::converter::VertexOrigin& origin = result.vertex_origins[v];
        const Eigen::Vector3d expected =
            evaluator.vertex_position(expected_pose, origin.node, origin.mesh, origin.vertex);
        const Eigen::Vector3d actual = aem::skinned_position(model, pose, v).cast<double>();
        if ((expected - actual).norm() > comparison.worst_error) {
            comparison.worst_error = (expected - actual).norm();
            comparison.worst_where = "vertex " + std::to_string(v) + " (mesh " + std::to_string(origin.mesh) +
                                     " vertex " + std::to_string(origin.vertex) + ") in animation " +
                                     (animation ? std::to_string(*animation) : "none") + " at " +
                                     std::to_string(seconds) + " s";
        }
        comparison.largest_motion =
            std::max(comparison.largest_motion, (actual - model.vertices[v].position.cast<double>()).norm());
        ++comparison.samples;
    }
}

// From the source's side: every triangle face of every mesh a node places appears in the output, and
// every other output triangle lies within one polygon of that placement, at most n - 2 of them for
// an n-gon. Checked on the source-order conversion (no weld: an output vertex stands for exactly the
// source vertex its origin names, and compare_at holds those origins to their positions); the
// optimised model keeps the same triangles (optimize_test's fingerprints).
void check_every_source_triangle_is_emitted(const assbin::Scene& scene) {
    ConvertOptions options;
    options.optimize = false;
    options.record_vertex_origins = true;
    const ConvertResult result = assbin::converter::convert(scene, options);
    const aem::Model& model = result.model;
    const assbin_test::oracle::SceneEvaluator evaluator(scene);
    const std::vector<Eigen::Matrix4d> globals = evaluator.pose(std::nullopt, 0.0).globals;
    using Triple = std::array<uint32_t, 3>;
    const auto canonical = [](Triple t) {
        std::rotate(t.begin(), std::min_element(t.begin(), t.end()), t.end());
        return t;
    };
    // Per placement (node, mesh): the source triangles, and each vertex's polygons.
    std::map<std::pair<uint32_t, uint32_t>, std::multiset<Triple>> triangles;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<std::vector<uint32_t>>> polygons;
    for (uint32_t n = 0; n < scene.nodes.size(); ++n) {
        const bool mirrored = globals[n].topLeftCorner<3, 3>().determinant() < 0;
        for (const uint32_t m : scene.nodes[n].meshes) {
            const assbin::Mesh& mesh = scene.meshes[m];
            const auto& positions = mesh.positions->values;
            mesh.faces.for_each([&](size_t, std::span<const uint32_t> face) {
                if (face.size() < 3) return; // points and lines are dropped (rule 6)
                for (const uint32_t v : face)
                    if (v >= positions.size() || !positions[v].allFinite()) return; // dropped, counted
                if (face.size() == 3) {
                    Triple t{face[0], face[1], face[2]};
                    if (mirrored) std::swap(t[1], t[2]);
                    triangles[{n, m}].insert(canonical(t));
                } else {
                    polygons[{n, m}].emplace_back(face.begin(), face.end());
                }
            });
        }
    }
    std::map<std::tuple<uint32_t, uint32_t, size_t>, size_t> from_polygon; // triangles per polygon
    size_t unexplained = 0;
    for (size_t i = 0; i + 2 < model.indices.size(); i += 3) {
        const assbin::converter::VertexOrigin* o[3];
        for (int k = 0; k < 3; ++k)
            o[k] = &result.vertex_origins[model.indices[i + k]];
        const std::pair<uint32_t, uint32_t> placement{o[0]->node, o[0]->mesh};
        BOOST_TEST_REQUIRE((o[1]->node == o[0]->node && o[1]->mesh == o[0]->mesh &&
                            o[2]->node == o[0]->node && o[2]->mesh == o[0]->mesh));
        std::multiset<Triple>& expected = triangles[placement];
        const auto found = expected.find(canonical({o[0]->vertex, o[1]->vertex, o[2]->vertex}));
        if (found != expected.end()) {
            expected.erase(found);
            continue;
        }
        const std::vector<std::vector<uint32_t>>& faces = polygons[placement];
        const auto within = [&](const std::vector<uint32_t>& face) {
            return std::all_of(o, o + 3, [&](const auto* origin) {
                return std::find(face.begin(), face.end(), origin->vertex) != face.end();
            });
        };
        const auto polygon = std::find_if(faces.begin(), faces.end(), within);
        if (polygon == faces.end()) {
            ++unexplained;
            continue;
        }
        const size_t count =
            ++from_polygon[{placement.first, placement.second, size_t(polygon - faces.begin())}];
        BOOST_TEST(count <= polygon->size() - 2);
    }
    BOOST_TEST(unexplained == 0u);
    for (const auto& [placement, missing] : triangles)
        BOOST_TEST(missing.empty(), "node " << placement.first << " mesh " << placement.second << ": "
                                            << missing.size() << " source triangles not emitted");
    size_t source_polygons = 0;
    for (const auto& [placement, faces] : polygons)
        source_polygons += faces.size();
    BOOST_TEST(from_polygon.size() == source_polygons); // every polygon gave at least one triangle
}

// Converts the fixture and compares the bind pose and eight times of every animation, including
// before the first key and after the last.
Comparison compare_poses(const std::string& fixture) {
    const assbin::Scene scene = assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/" + fixture));
    check_every_source_triangle_is_emitted(scene);
    ConvertOptions options;
    options.record_vertex_origins = true;
    const ConvertResult result = assbin::converter::convert(scene, options);
    BOOST_TEST_REQUIRE(result.vertex_origins.size() == result.model.vertices.size());
    const assbin_test::oracle::SceneEvaluator evaluator(scene);
    Comparison comparison;
    compare_at(result, evaluator, std::nullopt, 0.0f, comparison);
    for (uint32_t a = 0; a < result.model.animations.size(); ++a) {
        const float d = result.model.animations[a].duration;
        for (const float t : {-0.5f, 0.0f, 0.13f * d, 0.37f * d, 0.5f * d, 0.81f * d, d, d + 1.0f})
            compare_at(result, evaluator, a, t, comparison);
    }
    const double tolerance = 1e-4 * assbin_test::model_size(result.model);
    BOOST_TEST_MESSAGE(fixture << ": " << comparison.samples << " vertex positions, worst error "
                               << comparison.worst_error << " at " << comparison.worst_where << " (tolerance "
                               << tolerance << "), largest motion " << comparison.largest_motion);
    BOOST_TEST(comparison.worst_error <= tolerance);
    return comparison;
}

bool has_extra_bones(const aem::Model& model) {
    return std::any_of(model.vertices.begin(), model.vertices.end(),
                       [](const aem::Vertex& v) { return v.extra_bone != aem::kNone; });
}

bool has_skinned_vertices(const aem::Model& model) {
    return std::any_of(model.vertices.begin(), model.vertices.end(),
                       [](const aem::Vertex& v) { return v.bone_indices[0] != aem::kNone; });
}

aem::Model convert_fixture(const std::string& fixture) {
    return assbin::converter::convert(assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/" + fixture)))
        .model;
}

} // namespace

BOOST_AUTO_TEST_SUITE(pose_equality)

BOOST_DATA_TEST_CASE(
    skinned_fixtures_pose_like_assimp_at_every_sampled_time,
    assbin_test::fixtures({"SMD__triangle.smd.assbin", "glTF2__simple_skin__simple_skin.gltf.assbin",
                           "FBX__huesitos.fbx.assbin", "X__anim_test.x.assbin",
                           "MDL__MDL-HL1__duplicate_submodels.mdl.assbin",
                           "glTF2__simple_skin__quad_skin.glb.assbin", "SMD__triangle.smd.z.assbin"}),
    fixture) {
    BOOST_TEST(has_skinned_vertices(convert_fixture(fixture)));
    compare_poses(fixture);
}

BOOST_DATA_TEST_CASE(skinned_animations_really_move_vertices,
                     assbin_test::fixtures({"glTF2__simple_skin__simple_skin.gltf.assbin",
                                            "FBX__huesitos.fbx.assbin", "X__anim_test.x.assbin"}),
                     fixture) {
    BOOST_TEST(compare_poses(fixture).largest_motion > 0.01);
}

BOOST_DATA_TEST_CASE(node_animated_fixtures_pose_like_assimp_through_mesh_bones,
                     assbin_test::fixtures({"Collada__box_nested_animation.dae.assbin",
                                            "3DS__RotatingCube.3DS.assbin", "LWS__move_x.lws.assbin",
                                            "ASE__anim.ASE.assbin"}),
                     fixture) {
    const aem::Model model = convert_fixture(fixture);
    BOOST_TEST(!model.animations.empty());
    BOOST_TEST((has_extra_bones(model) || has_skinned_vertices(model)));
    BOOST_TEST(compare_poses(fixture).largest_motion > 0.01);
}

BOOST_DATA_TEST_CASE(static_fixtures_pose_like_assimp,
                     assbin_test::fixtures({"OBJ__box.obj.tri.assbin", "Collada__lights.dae.assbin",
                                            "LWO__LWO2__box_2vc_1unused.lwo.z.assbin",
                                            "OpenGEX__camera.ogex.assbin",
                                            "STL__triangle_with_empty_solid.stl.assbin",
                                            "glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin",
                                            "generated__uv1d_scalar_texcoord.gltf.assbin",
                                            "OFF__invalid.off.assbin", "PLY__payload_JVN42386607.assbin"}),
                     fixture) {
    const aem::Model model = convert_fixture(fixture);
    BOOST_TEST(model.animations.empty());
    BOOST_TEST(!has_extra_bones(model));
    compare_poses(fixture);
}

BOOST_AUTO_TEST_SUITE_END()
