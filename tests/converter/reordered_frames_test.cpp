// MikkTSpace's frames for reordered triangles (ReorderableFrames, KeptTangentRun): what the
// optimiser takes instead of a second MikkTSpace run must be bit for bit what that run gives, for
// every corner, in every case the kept run allows (groups that split, triangles without usable UVs,
// degenerate triangles), and a run must decline where the order decides more than the sums.
#include "mikktspace_fixtures.hpp"
#include "scene_maker.hpp"

#include "geometry/mikktspace.hpp"
#include "geometry/vertex_groups.hpp"
#include "pipeline.hpp"
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <string>

namespace {

using assbin::converter::detail::KeptTangentRun;
using assbin::converter::detail::MeshFrames;
using assbin::converter::detail::mikktspace_frames;
using assbin::converter::detail::ReorderableFrames;
using assbin::converter::detail::reordered_frames;
using assbin::converter::detail::SurfacePoints;
using mikktspace_test::kFixtures;
using mikktspace_test::same_frame;
using mikktspace_test::source_order_model;

size_t corners_differing(const MeshFrames& a, const MeshFrames& b) {
    if (a.corner_frame.size() != b.corner_frame.size())
        return std::max(a.corner_frame.size(), b.corner_frame.size());
    size_t differing = 0;
    for (size_t c = 0; c < a.corner_frame.size(); ++c)
        differing += !same_frame(a.of(c), b.of(c));
    return differing;
}

// The triangles at new positions: triangle k of the result is from[k] of `triangles`.
std::vector<uint32_t> reordered(std::span<const uint32_t> triangles, const std::vector<uint32_t>& from) {
    std::vector<uint32_t> out;
    out.reserve(triangles.size());
    for (const uint32_t t : from)
        out.insert(out.end(), triangles.begin() + 3 * t, triangles.begin() + 3 * t + 3);
    return out;
}

std::vector<uint32_t> shuffled_triangles(size_t count, std::mt19937& random) {
    std::vector<uint32_t> from(count);
    std::iota(from.begin(), from.end(), 0u);
    std::shuffle(from.begin(), from.end(), random);
    return from;
}

struct Coverage {
    size_t usable = 0, declined = 0, split = 0, without_uv_area = 0, degenerate = 0;
};

// Checks one mesh: keeping changes nothing, and a usable run's frames for a shuffled order are a
// full run's on that order.
void check_reordering(SurfacePoints points, std::span<const uint32_t> triangles, std::mt19937& random,
                      Coverage& coverage, const std::string& what) {
    ReorderableFrames kept;
    const MeshFrames first = mikktspace_frames(points, triangles, 1, &kept);
    BOOST_TEST(corners_differing(first, mikktspace_frames(points, triangles)) == 0u, what);
    if (!kept.usable) {
        ++coverage.declined;
        return;
    }
    ++coverage.usable;
    coverage.split += !kept.split_group.empty();
    coverage.degenerate += !kept.degenerate.empty();
    coverage.without_uv_area += std::any_of(kept.group.begin(), kept.group.end(), [](uint32_t code) {
        return code != ReorderableFrames::kUngrouped && (code & ReorderableFrames::kNoTerm) != 0;
    });
    for (int round = 0; round < 3; ++round) {
        const std::vector<uint32_t> from = shuffled_triangles(triangles.size() / 3, random);
        const std::vector<uint32_t> moved = reordered(triangles, from);
        BOOST_TEST(corners_differing(reordered_frames(kept, from), mikktspace_frames(points, moved)) == 0u,
                   what << " shuffled");
    }
}

// Three triangles on one edge: which two pair up depends on their order, so the groups do too. The
// third triangle leaves the plane and its UVs turn, so that its term differs from the second's.
std::vector<assbin::converter::detail::SurfacePoint> three_on_an_edge_points() {
    return {
        {{0, 0, 0}, {0, 0, 1}, {0, 0}},               // A
        {{1, 0, 0}, {0, 0, 1}, {1, 0.5f}},            // B
        {{0.5f, 1, 0}, {0, 0, 1}, {0.5f, 1}},         // C
        {{0.5f, -1, 0}, {0, 0, 1}, {0.5f, -1}},       // D
        {{0.5f, -0.5f, 1}, {0, 0, 1}, {0.2f, -0.5f}}, // E
    };
}
const std::vector<uint32_t> kThreeOnAnEdge = {0, 1, 2, 1, 0, 3, 1, 0, 4}; // ABC, BAD, BAE

} // namespace

BOOST_AUTO_TEST_SUITE(reordered_frames_suite)

BOOST_AUTO_TEST_CASE(summing_a_kept_run_again_gives_a_new_runs_frames_on_every_corner) {
    std::mt19937 random(2026);
    Coverage coverage;
    for (const char* fixture : kFixtures) {
        const aem::Model model = source_order_model(fixture);
        const SurfacePoints points(std::span<const aem::Vertex>(model.vertices));
        for (size_t m = 0; m < model.meshes.size(); ++m) {
            const aem::Mesh& mesh = model.meshes[m];
            const std::span<const uint32_t> triangles(model.indices.data() + mesh.first_index,
                                                      mesh.index_count);
            check_reordering(points, triangles, random, coverage,
                             std::string(fixture) + " mesh " + std::to_string(m));
        }
    }
    BOOST_TEST_MESSAGE("usable " << coverage.usable << ", declined " << coverage.declined << ", split "
                                 << coverage.split << ", without UV area " << coverage.without_uv_area
                                 << ", degenerate " << coverage.degenerate);
    // Every case was met, or the comparison proved less than it claims.
    BOOST_TEST(coverage.usable > 0u);
    BOOST_TEST(coverage.split > 0u);
    BOOST_TEST(coverage.without_uv_area > 0u);
    BOOST_TEST(coverage.degenerate > 0u);
}

// The optimiser's use (optimize.cpp): a run that split vertices is kept, the triangles (with the
// copies) are reordered, and the frames written again from the kept run must leave the vertices and
// triangles exactly as a second MikkTSpace run leaves them.
BOOST_AUTO_TEST_CASE(frames_written_again_from_a_kept_run_are_a_second_runs) {
    std::mt19937 random(26);
    size_t reused = 0;
    for (const char* fixture : kFixtures) {
        const aem::Model model = source_order_model(fixture);
        for (const aem::Mesh& mesh : model.meshes) {
            // Welded without tangents, as the optimiser welds what gets frames: where corners of a
            // vertex get different frames, the run splits it.
            std::vector<aem::Vertex> unwelded = model.vertices;
            for (aem::Vertex& vertex : unwelded)
                vertex.tangent = vertex.bitangent = Eigen::Vector3f::Zero();
            std::vector<uint32_t> triangles(model.indices.begin() + mesh.first_index,
                                            model.indices.begin() + mesh.first_index + mesh.index_count);
            std::vector<uint32_t> remap(unwelded.size());
            std::vector<aem::Vertex> vertices(assbin::converter::detail::weld_records(
                remap, triangles, unwelded.data(), unwelded.size(), sizeof(aem::Vertex)));
            for (size_t v = 0; v < unwelded.size(); ++v)
                if (remap[v] != assbin::converter::detail::kNoVertex) vertices[remap[v]] = unwelded[v];
            for (uint32_t& index : triangles)
                index = remap[index];
            KeptTangentRun kept;
            const std::vector<uint8_t> all(vertices.size(), 1);
            const size_t copies =
                assbin::converter::detail::write_tangent_frames(vertices, triangles, all, true, 1, &kept)
                    .size();
            BOOST_TEST((kept.usable() ? copies > 0 : true)); // kept only where the mesh is ordered again
            if (!kept.usable()) continue;
            ++reused;
            triangles = reordered(triangles, shuffled_triangles(triangles.size() / 3, random));
            std::vector<aem::Vertex> from_kept = vertices, from_run = vertices;
            std::vector<uint32_t> kept_triangles = triangles, run_triangles = triangles;
            const std::vector<uint8_t> wanted(vertices.size(), 1);
            assbin::converter::detail::write_tangent_frames(from_kept, kept_triangles, wanted, true, 1,
                                                            nullptr, &kept);
            assbin::converter::detail::write_tangent_frames(from_run, run_triangles, wanted, true, 1);
            BOOST_TEST(kept_triangles == run_triangles, fixture);
            BOOST_TEST(
                (from_kept.size() == from_run.size() &&
                 std::memcmp(from_kept.data(), from_run.data(), from_kept.size() * sizeof(aem::Vertex)) == 0),
                fixture);
        }
    }
    BOOST_TEST(reused > 0u);
}

// The order decides which two of three triangles on an edge are neighbours: a run must decline to
// be reordered, and the frames of the orders do differ (or this would prove nothing).
BOOST_AUTO_TEST_CASE(a_run_with_three_triangles_on_an_edge_is_not_reordered) {
    const std::vector<assbin::converter::detail::SurfacePoint> points = three_on_an_edge_points();
    ReorderableFrames kept;
    const MeshFrames first = mikktspace_frames(SurfacePoints(points), kThreeOnAnEdge, 1, &kept);
    BOOST_TEST(!kept.usable);
    const std::vector<uint32_t> swapped = reordered(kThreeOnAnEdge, {0, 2, 1}); // ABC, BAE, BAD
    const MeshFrames other = mikktspace_frames(SurfacePoints(points), swapped);
    BOOST_TEST(!same_frame(first.of(0), other.of(0))); // corner A of ABC: grouped with BAD, then BAE
}

BOOST_AUTO_TEST_SUITE_END()
