// The converter downstream of a hostile dump (AEM-FORMAT.md rule 6 and issue "hostile input"): faces
// whose indices exceed the vertex count are dropped and reported; every other index outside its
// array (a node's mesh, a mesh's material, an embedded "*N" texture, a bone weight's vertex) is a
// clear refusal; a 65,535-corner face converts in bounded time.
#include "attack_scenes.hpp"
#include "support/dump_builder.hpp"
#include "support/refusal_check.hpp"

#include <aem/validate.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

using namespace assbin_test;
using namespace assbin_test::attack_scenes;
using assbin::converter::ConvertResult;
using assbin::converter::Refusal;

namespace {

assbin::Scene read(const SceneSpec& spec) {
    return assbin::read_scene(build_dump(spec, WriterProfile::p5()).bytes);
}

// convert() refuses the dump of `spec` with `refusal` and a message holding `words` (the
// message is logged, so a failure shows what was said instead).
void expect_refusal(const SceneSpec& spec, Refusal refusal, const std::string& words) {
    BOOST_TEST(refused_with(read(spec), refusal, words));
}

bool mentions(const std::vector<std::string>& warnings, const std::string& words) {
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const std::string& w) { return w.find(words) != std::string::npos; });
}

} // namespace

BOOST_AUTO_TEST_SUITE(converter_attacks)

BOOST_AUTO_TEST_CASE(faces_past_the_vertex_count_are_dropped_and_reported) {
    SceneSpec s = one_triangle();
    s.meshes[0].faces = {{0, 1, 2}, {0, 1, 3}, {65535, 0, 1}};
    const ConvertResult result = assbin::converter::convert(read(s));
    BOOST_TEST(result.stats.faces_out_of_range == 2u);
    BOOST_TEST(result.stats.triangles == 1u);
    BOOST_TEST(mentions(result.warnings, "mesh 0: 2 faces dropped: an index is not below the vertex count"));
    for (const uint32_t index : result.model.indices)
        BOOST_TEST(index < result.model.vertices.size());
    BOOST_TEST(aem::validate(result.model).empty());
}

BOOST_AUTO_TEST_CASE(a_node_mesh_index_past_the_meshes_is_refused) {
    SceneSpec s = one_triangle();
    s.root.meshes = {0, 5};
    expect_refusal(s, Refusal::BadReference, "node 0 'root' refers to mesh 5, but the scene has 1 mesh");
}

BOOST_AUTO_TEST_CASE(a_material_index_past_the_materials_is_refused) {
    SceneSpec s = one_triangle();
    s.meshes[0].material_index = 9;
    expect_refusal(s, Refusal::BadReference, "mesh 0 uses material 9, but the scene has 1 material");
}

BOOST_AUTO_TEST_CASE(a_bone_weight_past_the_vertices_is_refused) {
    SceneSpec s = one_triangle();
    s.root.children = {make_node("bone")};
    s.meshes[0].bones = {BoneSpec{"bone", kIdentity, {{0, 1.0f}, {7, 0.5f}}, std::nullopt}};
    expect_refusal(s, Refusal::BadReference,
                   "mesh 0: bone 'bone' weights vertex 7, but the mesh has 3 vertices");
}

BOOST_AUTO_TEST_CASE(an_embedded_texture_reference_past_the_textures_is_refused) {
    SceneSpec s = one_triangle();
    s.materials[0].properties.push_back(prop_string("$tex.file", "*3", 0, 1)); // semantic 1: diffuse
    expect_refusal(s, Refusal::BadReference, "names embedded texture 3, but the scene has 0");
}

BOOST_AUTO_TEST_CASE(nan_and_infinity_in_a_mesh_node_matrix_are_refused) {
    for (const float bad :
         {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
        SceneSpec s = one_triangle();
        s.root.transform[3] = bad;
        expect_refusal(s, Refusal::NonFinite, "node 0 'root' holds mesh 0");
    }
}

BOOST_AUTO_TEST_CASE(a_65535_corner_face_converts_in_bounded_time) {
    // Ear clipping is quadratic in the corners; the mesh's work budget fans what is left once it
    // is spent, so this face costs milliseconds, not hours. (The time guard catches hangs only.)
    SceneSpec s = one_triangle();
    std::vector<F3> circle(65535);
    std::vector<uint32_t> corners(65535);
    for (uint32_t i = 0; i < 65535; ++i) {
        const double angle = 2 * M_PI * i / 65535;
        circle[i] = {static_cast<float>(std::cos(angle)), static_cast<float>(std::sin(angle)), 0};
        corners[i] = i;
    }
    s.meshes[0].positions = circle;
    s.meshes[0].faces = {corners};
    const assbin::Scene scene = read(s);
    const auto start = std::chrono::steady_clock::now();
    const ConvertResult result = assbin::converter::convert(scene);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    BOOST_TEST_MESSAGE("65535-corner face: " << seconds << " s");
    BOOST_TEST(seconds < 20.0);
    BOOST_TEST(result.stats.triangles == 65533u);
    BOOST_TEST(mentions(result.warnings, "mesh 0: 1 polygon too large to ear-clip"));
    for (const uint32_t index : result.model.indices)
        BOOST_TEST_REQUIRE(index < result.model.vertices.size());
    BOOST_TEST(aem::validate(result.model).empty());
}

BOOST_AUTO_TEST_SUITE_END()
