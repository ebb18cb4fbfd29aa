// The shapes that once made convert superlinear — a fan around one vertex, copies of a grid stacked
// at one spot, one star polygon of thousands of corners — converted: a valid model, every source
// triangle kept (counted from the shape, and the same triangles as the source-order output), the
// vertex-cache order's linear fallback taken where the valence calls for it and not elsewhere. How
// long they take is the convert benchmark's business (scripts/bench-convert.sh), not a test's.
#include "geometry_checks.hpp"
#include "scene_maker.hpp"
#include "support/heavy_shapes.hpp"

#include <aem/validate.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace {

using assbin::converter::convert;
using assbin::converter::ConvertOptions;
using assbin::converter::ConvertResult;
namespace shapes = assbin_test::shapes;

assbin::Scene read_shape(const assbin_test::SceneSpec& spec) {
    return assbin::read_scene(assbin_test::build_dump(spec, assbin_test::WriterProfile::p5()).bytes);
}

// The optimised conversion: valid, `triangles` triangles, no degenerate one, and the same triangles
// (positions, normals, UVs, winding; frames aside) as the conversion in source order.
ConvertResult convert_and_check(const assbin::Scene& scene, size_t triangles) {
    ConvertResult result = convert(scene);
    const std::vector<aem::Violation> violations = aem::validate(result.model);
    BOOST_TEST(violations.empty(), (violations.empty() ? "" : aem::to_string(violations.front())));
    BOOST_TEST(result.model.indices.size() == 3 * triangles);
    BOOST_TEST(result.stats.degenerate_triangles == 0u);
    const ConvertResult source_order = assbin_test::convert_in_source_order(scene);
    BOOST_TEST(source_order.model.indices.size() == 3 * triangles);
    BOOST_TEST((assbin_test::triangle_fingerprints(result.model, assbin_test::Frames::Excluded) ==
                assbin_test::triangle_fingerprints(source_order.model, assbin_test::Frames::Excluded)));
    return result;
}

// The triangles [0, count) of a one-mesh model, as triangle_fingerprints gives them (sorted).
std::vector<std::array<uint64_t, 4>> first_triangles(const aem::Model& model, uint32_t count) {
    aem::Model prefix = model;
    prefix.meshes.at(0).index_count = 3 * count;
    return assbin_test::triangle_fingerprints(prefix, assbin_test::Frames::Excluded);
}

// A grid of 364 x 364 vertices: 263,538 triangles, past the 2 x 131,072 from which a mesh whose
// triangles keep their neighbours together is ordered by spans (two here: 131,769 triangles each).
constexpr uint32_t kSpansGridSide = 364;
constexpr uint32_t kSpansGridTriangles = 2 * (kSpansGridSide - 1) * (kSpansGridSide - 1);

} // namespace

BOOST_AUTO_TEST_SUITE(heavy_shapes)

BOOST_AUTO_TEST_CASE(a_fan_around_one_vertex_keeps_every_triangle_in_linear_order) {
    constexpr uint32_t kTriangles = 20'000;
    const ConvertResult result = convert_and_check(read_shape(shapes::fan_disc(kTriangles)), kTriangles);
    // The centre carries every triangle: Forsyth's order would be quadratic, Tipsify is taken.
    BOOST_TEST(result.stats.meshes_ordered_linearly == 1u);
    // One vertex per rim point, one centre (normals generated flat, one UV each): nothing split.
    BOOST_TEST(result.model.vertices.size() == kTriangles + 1u);
    size_t around_centre = 0;
    for (const uint32_t index : result.model.indices)
        around_centre += result.model.vertices[index].position.isZero();
    BOOST_TEST(around_centre == kTriangles);
    // Still cache-friendly: a fan needs one new vertex per triangle, plus the centre again each
    // time the 16-entry cache has let it go (Tipsify's order measures 1.063).
    BOOST_TEST(double(result.stats.vertices_transformed) / kTriangles < 1.1);
}

BOOST_AUTO_TEST_CASE(stacked_copies_weld_into_one_grid_and_keep_every_triangle) {
    constexpr uint32_t kSide = 24, kCopies = 48;
    constexpr size_t kTriangles = size_t{kCopies} * 2 * (kSide - 1) * (kSide - 1);
    const ConvertResult result =
        convert_and_check(read_shape(shapes::stacked_grids(kSide, kCopies)), kTriangles);
    BOOST_TEST(result.model.meshes.size() == 1u); // one material: one mesh
    // The copies weld: about as many vertices as one grid alone, not 48 times as many. (MikkTSpace
    // may split a vertex or two more where identical triangles reach it in another order: 577
    // against 576 here.)
    const ConvertResult one = convert(read_shape(shapes::stacked_grids(kSide, 1)));
    BOOST_TEST(one.model.vertices.size() >= size_t{kSide} * kSide);
    BOOST_TEST(result.model.vertices.size() >= one.model.vertices.size());
    BOOST_TEST(result.model.vertices.size() <= one.model.vertices.size() + 8);
    BOOST_TEST(result.stats.meshes_ordered_linearly == 1u);
}

BOOST_AUTO_TEST_CASE(a_star_polygon_of_many_corners_becomes_every_triangle) {
    constexpr uint32_t kCorners = 5'001;
    const ConvertResult result = convert_and_check(read_shape(shapes::star_polygon(kCorners)), kCorners - 2);
    BOOST_TEST(result.stats.polygons_triangulated == 1u);
    BOOST_TEST(result.model.vertices.size() == kCorners);
}

BOOST_AUTO_TEST_CASE(an_ordinary_grid_keeps_the_forsyth_order) {
    constexpr uint32_t kSide = 64;
    const ConvertResult result =
        convert_and_check(read_shape(shapes::grid(kSide)), size_t{2} * (kSide - 1) * (kSide - 1));
    BOOST_TEST(result.stats.meshes_ordered_linearly == 0u);
    BOOST_TEST(double(result.stats.vertices_transformed) / double(result.stats.triangles) < 0.75);
}

// MikkTSpace's per-triangle steps and group frames, and baking, split into chunks of 16,384 on
// several threads, and the work done beside meshoptimizer's ordering: the model must be the same
// bytes as on one thread. A 260 x 260 grid has 134,162 triangles and 67,600 vertices: over the
// chunk size in triangles, buckets and groups, over the 65,536 triangles from which a second thread
// makes MikkTSpace's identities while the triangles are ordered, and over the 131,072 up to which a
// run is kept for a reordering (above, the groups' frames are computed while the groups are built).
// Its 402,486 corners are also over the 262,144 from which the frames are written by ranges of
// vertices and the 393,216 from which the corners are renumbered in ranges; the cache statistics,
// computed beside the weld and the vertices' move, must be one thread's too.
// Its UVs, jittered so that every triangle's tangent direction differs, and its missing tangents
// make every frame depend on every triangle's part.
BOOST_AUTO_TEST_CASE(more_threads_give_the_same_model) {
    assbin_test::SceneSpec spec = shapes::grid(260);
    uint32_t state = 12345;
    for (assbin_test::F3& uv : spec.meshes[0].uvs[0].coords) {
        state = state * 1664525u + 1013904223u; // a fixed sequence: the same scene every run
        uv[0] += 0.002f * static_cast<float>(state >> 24) / 256.0f;
        state = state * 1664525u + 1013904223u;
        uv[1] += 0.002f * static_cast<float>(state >> 24) / 256.0f;
    }
    const assbin::Scene scene = read_shape(spec);
    assbin::converter::ConvertOptions one, three;
    three.threads = 3;
    const ConvertResult a = convert(scene, one), b = convert(scene, three);
    BOOST_TEST(a.stats.meshes_tangents_generated == 1u);
    BOOST_TEST_REQUIRE(a.model.vertices.size() == b.model.vertices.size());
    BOOST_TEST(std::memcmp(a.model.vertices.data(), b.model.vertices.data(),
                           a.model.vertices.size() * sizeof(aem::Vertex)) == 0);
    BOOST_TEST((a.model.indices == b.model.indices));
    BOOST_TEST(a.stats.source_vertices_transformed == b.stats.source_vertices_transformed);
    BOOST_TEST(a.stats.vertices_transformed == b.stats.vertices_transformed);
    BOOST_TEST(a.stats.degenerate_triangles == b.stats.degenerate_triangles);
    BOOST_TEST(a.stats.vertices_transformed < a.stats.source_vertices_transformed);
}

// Row by row, the grid's triangles keep their neighbours together: each half is ordered as a mesh
// of its own (the first 131,769 triangles out are the first 131,769 in), on any thread count alike,
// and the border the halves share costs little (the whole grid's order measures 0.66 too).
BOOST_AUTO_TEST_CASE(a_big_mesh_in_coherent_order_is_ordered_by_spans_alike_on_any_thread_count) {
    const assbin::Scene scene = read_shape(shapes::grid(kSpansGridSide));
    const ConvertResult one = convert_and_check(scene, kSpansGridTriangles);
    const ConvertResult source_order = assbin_test::convert_in_source_order(scene);
    constexpr uint32_t kFirstSpan = kSpansGridTriangles / 2;
    BOOST_TEST((first_triangles(one.model, kFirstSpan) == first_triangles(source_order.model, kFirstSpan)));
    BOOST_TEST(one.stats.meshes_ordered_linearly == 0u);
    BOOST_TEST(double(one.stats.vertices_transformed) / double(one.stats.triangles) < 0.67);

    assbin::converter::ConvertOptions three;
    three.threads = 3;
    const ConvertResult other = convert(scene, three);
    BOOST_TEST_REQUIRE(other.model.vertices.size() == one.model.vertices.size());
    BOOST_TEST(std::memcmp(other.model.vertices.data(), one.model.vertices.data(),
                           one.model.vertices.size() * sizeof(aem::Vertex)) == 0);
    BOOST_TEST((other.model.indices == one.model.indices));
}

// The same grid with its triangles shuffled: each half would hold nearly every vertex, loaded once
// per half (an ACMR near 1.15), so the mesh is ordered whole, and its order is as good as the grid's.
BOOST_AUTO_TEST_CASE(a_big_mesh_in_shuffled_order_is_ordered_whole) {
    assbin_test::SceneSpec spec = shapes::grid(kSpansGridSide);
    auto& faces = spec.meshes[0].faces;
    uint32_t state = 2463534242u;
    for (size_t i = faces.size(); i > 1; --i) { // Fisher-Yates on a fixed sequence
        state ^= state << 13, state ^= state >> 17, state ^= state << 5;
        std::swap(faces[i - 1], faces[state % i]);
    }
    const ConvertResult result = convert_and_check(read_shape(spec), kSpansGridTriangles);
    BOOST_TEST(double(result.stats.vertices_transformed) / double(result.stats.triangles) < 0.75);
}

// The family built to break each stage's bound (scripts/bench-shapes.sh times them at two sizes):
// here, small ones convert to valid models that keep what they should.
BOOST_AUTO_TEST_CASE(a_book_of_pages_on_one_edge_keeps_every_page) {
    const ConvertResult result = convert_and_check(read_shape(shapes::book(2'000)), 2'000);
    BOOST_TEST(result.model.vertices.size() > 2'000u); // each page's own frame at the hinge
}

BOOST_AUTO_TEST_CASE(one_triangle_repeated_keeps_every_copy_over_three_vertices) {
    const ConvertResult result = convert_and_check(read_shape(shapes::repeated_triangle(5'000)), 5'000);
    BOOST_TEST(result.model.vertices.size() == 3u);
}

BOOST_AUTO_TEST_CASE(zero_area_triangles_are_kept_and_counted) {
    const ConvertResult result = convert(read_shape(shapes::zero_area(3'000)));
    BOOST_TEST(aem::validate(result.model).empty());
    BOOST_TEST(result.model.indices.size() == 3u * 3'000u);
    BOOST_TEST(result.stats.degenerate_triangles == 1'500u); // two corners at one place: every other one
}

BOOST_AUTO_TEST_CASE(a_long_strip_keeps_every_triangle) {
    convert_and_check(read_shape(shapes::long_strip(20'000)), 20'000);
}

BOOST_AUTO_TEST_CASE(deep_and_wide_trees_place_every_reference) {
    const ConvertResult deep = convert(read_shape(shapes::deep_chain(500)));
    BOOST_TEST(deep.model.indices.size() == 3u * 500u);
    // The last node sits 500 steps of 0.001 along x.
    float far = 0;
    for (const aem::Vertex& v : deep.model.vertices)
        far = std::max(far, v.position.x());
    BOOST_TEST(std::abs(far - 1.5f) < 1e-3f); // the triangle's own x of 1, plus 0.5
    const ConvertResult wide = convert(read_shape(shapes::wide_tree(2'000)));
    BOOST_TEST(wide.model.indices.size() == 3u * 2'000u);
}

BOOST_AUTO_TEST_CASE(vertices_of_hundreds_of_weights_keep_four) {
    const ConvertResult result = convert(read_shape(shapes::heavy_weights(8, 200)));
    BOOST_TEST(aem::validate(result.model).empty());
    BOOST_TEST(result.stats.vertices_lost_influences == result.model.vertices.size());
}

// The key budget on a skeleton: tracks that share their times are measured (the report's error is
// within 0.9 x the bound, a tenth left to float players), tracks that share none are too costly to
// measure in linear time: the shares that hold by analysis, a warning, and the bound reported.
BOOST_AUTO_TEST_CASE(a_skeletons_keys_are_measured_where_they_share_their_times) {
    ConvertOptions options;
    options.key_error = 1e-4;
    const ConvertResult shared = convert(read_shape(shapes::skeleton_animation(20, 300)), options);
    BOOST_TEST(aem::validate(shared.model).empty());
    BOOST_TEST(shared.stats.keys_removed > shared.stats.keys);
    BOOST_TEST(shared.stats.key_error_measured > 0.0);
    BOOST_TEST(shared.stats.key_error_measured <= 0.9e-4);
    BOOST_TEST(shared.warnings.empty());
    const ConvertResult scattered = convert(read_shape(shapes::skeleton_animation(20, 3'000, true)), options);
    BOOST_TEST(aem::validate(scattered.model).empty());
    BOOST_TEST(scattered.stats.keys_removed > 0u);
    BOOST_TEST(scattered.stats.key_error_measured == 1e-4);
    BOOST_TEST_REQUIRE(scattered.warnings.size() == 1u);
    BOOST_TEST(scattered.warnings[0].find("its keys fall at 60,000 different times, too many to measure") !=
                   std::string::npos,
               scattered.warnings[0]);
}

BOOST_AUTO_TEST_CASE(an_animation_of_many_keys_keeps_them) {
    const ConvertResult result = convert(read_shape(shapes::long_animation(20'000)));
    BOOST_TEST(aem::validate(result.model).empty());
    BOOST_TEST_REQUIRE(result.model.animations.size() == 1u);
    BOOST_TEST(result.model.keyframes.size() >= 3u * 20'000u);
}

BOOST_AUTO_TEST_SUITE_END()
