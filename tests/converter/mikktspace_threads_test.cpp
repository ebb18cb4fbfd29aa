// MikkTSpace on several threads (mikktspace.cpp): the edge buckets counted and filled by ranges of
// triangles, and the frames of the groups computed while later groups are still being built
// (build_groups_and_frames: without a kept run, on more than one thread, above 16,384 healthy
// triangles) must give every corner, and every frame in the list, bit for bit what one thread gives.
// The frames written into the vertices by ranges of vertices (output_tangents.cpp: on more than one
// thread, from 262,144 corners) must give the vertices, their copies and the corners what one
// thread gives.
#include "mikktspace_fixtures.hpp"

#include "pipeline.hpp"

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <string>
#include <unordered_map>

namespace {

using assbin::converter::detail::MeshFrames;
using assbin::converter::detail::mikktspace_frames;
using assbin::converter::detail::SurfacePoints;
using mikktspace_test::same_frame;

// Every fixture's output vertices and triangles (source order, as MikkTSpace is given them without
// optimisation), repeated `copies` times, each copy moved apart so that no two copies share a
// vertex identity: one mesh of many blocks of groups.
struct TiledMesh {
    std::vector<aem::Vertex> vertices;
    std::vector<uint32_t> triangles;
};

TiledMesh tiled_fixtures(int copies) {
    TiledMesh tiled;
    for (const char* fixture : mikktspace_test::kFixtures) {
        const aem::Model model = mikktspace_test::source_order_model(fixture);
        for (int copy = 0; copy < copies; ++copy) {
            const uint32_t first = static_cast<uint32_t>(tiled.vertices.size());
            for (aem::Vertex vertex : model.vertices) {
                vertex.position.x() += 1000.0f * static_cast<float>(copy + 1);
                tiled.vertices.push_back(vertex);
            }
            for (const uint32_t index : model.indices)
                tiled.triangles.push_back(first + index);
        }
    }
    return tiled;
}

// Three triangles on one edge AB (the reference pairs the first with the lowest-numbered free one
// of the other two, so the order decides the groups): ABC and BAE first in the list, BAD last, so
// that they fall into different ranges of the neighbour search on any number of threads. On one
// thread ABC pairs with BAE; a bucket filled in another order than the triangles' pairs it with BAD.
void add_three_on_an_edge(TiledMesh& mesh) {
    const struct {
        float x, y, z, u, v;
    } corners[] = {{0, 0, 0, 0, 0},
                   {1, 0, 0, 1, 0.5f},
                   {0.5f, 1, 0, 0.5f, 1},
                   {0.5f, -1, 0, 0.5f, -1},
                   {0.5f, -0.5f, 1, 0.2f, -0.5f}};
    const uint32_t a = static_cast<uint32_t>(mesh.vertices.size());
    for (const auto& corner : corners) {
        aem::Vertex vertex{};
        vertex.position = Eigen::Vector3f(corner.x - 1000.0f, corner.y, corner.z);
        vertex.normal = Eigen::Vector3f(0, 0, 1);
        vertex.uv = Eigen::Vector2f(corner.u, corner.v);
        mesh.vertices.push_back(vertex);
    }
    const uint32_t b = a + 1, c = a + 2, d = a + 3, e = a + 4;
    mesh.triangles.insert(mesh.triangles.begin(), {a, b, c, b, a, e});
    mesh.triangles.insert(mesh.triangles.end(), {b, a, d});
}

bool same_bits(const std::vector<aem::Vertex>& a, const std::vector<aem::Vertex>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(aem::Vertex)) == 0;
}

// The triangles in another order (a fixed stride through them), so that the corners of vertices far
// apart in the numbering, and the copies they make, alternate.
std::vector<uint32_t> strided(const std::vector<uint32_t>& triangles) {
    const size_t count = triangles.size() / 3, stride = 7919; // prime, not a factor of the count
    BOOST_TEST_REQUIRE(count % stride != 0);
    std::vector<uint32_t> out;
    out.reserve(triangles.size());
    for (size_t k = 0, t = 0; k < count; ++k, t = (t + stride) % count)
        out.insert(out.end(), triangles.begin() + 3 * t, triangles.begin() + 3 * t + 3);
    return out;
}

size_t frames_differing(const MeshFrames& a, const MeshFrames& b) {
    if (a.frames.size() != b.frames.size()) return std::max(a.frames.size(), b.frames.size());
    size_t differing = 0;
    for (size_t f = 0; f < a.frames.size(); ++f)
        differing += !same_frame(a.frames[f], b.frames[f]);
    return differing;
}

} // namespace

BOOST_AUTO_TEST_SUITE(mikktspace_threads)

BOOST_AUTO_TEST_CASE(frames_on_threads_are_one_threads_bit_for_bit) {
    TiledMesh mesh = tiled_fixtures(24);
    add_three_on_an_edge(mesh);
    const size_t triangle_count = mesh.triangles.size() / 3;
    // Several blocks of 16,384 groups (about one group per vertex), so that some are taken while the
    // groups are built and some after.
    BOOST_TEST_REQUIRE(triangle_count > size_t{4} * 16384);
    size_t degenerate = 0, without_uv_area = 0;
    for (size_t t = 0; t < triangle_count; ++t) {
        const aem::Vertex& a = mesh.vertices[mesh.triangles[3 * t]];
        const aem::Vertex& b = mesh.vertices[mesh.triangles[3 * t + 1]];
        const aem::Vertex& c = mesh.vertices[mesh.triangles[3 * t + 2]];
        degenerate += a.position == b.position || b.position == c.position || a.position == c.position;
        const Eigen::Vector2f ab = b.uv - a.uv, ac = c.uv - a.uv;
        without_uv_area += ab.x() * ac.y() - ab.y() * ac.x() == 0.0f;
    }
    BOOST_TEST(degenerate > 0u);
    BOOST_TEST(without_uv_area > 0u);

    const SurfacePoints points{std::span<const aem::Vertex>(mesh.vertices)};
    const MeshFrames one = mikktspace_frames(points, mesh.triangles, 1);
    BOOST_TEST(one.frames.size() > size_t{4} * 16384);
    for (const unsigned threads : {2u, 3u, 4u}) {
        for (int round = 0; round < 3; ++round) { // the overlap's timing differs from run to run
            const MeshFrames many = mikktspace_frames(points, mesh.triangles, threads);
            BOOST_TEST(frames_differing(one, many) == 0u, threads << " threads, round " << round);
            BOOST_TEST((one.corner_frame == many.corner_frame), threads << " threads, round " << round);
        }
    }
}

// The mesh's vertices without tangents, equal records made one: the vertices the converter's
// output had split for their frames are joined again, so that writing the frames splits them anew.
TiledMesh without_frames(const TiledMesh& mesh) {
    TiledMesh out;
    std::unordered_map<std::string, uint32_t> number;
    std::vector<uint32_t> renumbered(mesh.vertices.size());
    for (size_t v = 0; v < mesh.vertices.size(); ++v) {
        aem::Vertex vertex = mesh.vertices[v];
        vertex.tangent.setZero();
        vertex.bitangent.setZero();
        const std::string bytes(reinterpret_cast<const char*>(&vertex), sizeof vertex);
        const auto [at, fresh] = number.emplace(bytes, static_cast<uint32_t>(out.vertices.size()));
        if (fresh) out.vertices.push_back(vertex);
        renumbered[v] = at->second;
    }
    for (const uint32_t index : mesh.triangles)
        out.triangles.push_back(renumbered[index]);
    return out;
}

BOOST_AUTO_TEST_CASE(frames_written_by_ranges_of_vertices_are_one_threads_bit_for_bit) {
    const TiledMesh mesh = without_frames(tiled_fixtures(40));
    BOOST_TEST_REQUIRE(mesh.triangles.size() >= size_t{1} << 18); // the size from which threads write
    const std::vector<uint8_t> wanted(mesh.vertices.size(), 1);
    for (const std::vector<uint32_t>& order : {mesh.triangles, strided(mesh.triangles)}) {
        std::vector<aem::Vertex> one_vertices = mesh.vertices;
        std::vector<uint32_t> one_triangles = order;
        const std::vector<uint32_t> one_copies =
            assbin::converter::detail::write_tangent_frames(one_vertices, one_triangles, wanted, true, 1);
        BOOST_TEST(one_copies.size() > 100u);              // seams and mirrored islands split vertices
        for (const unsigned threads : {2u, 3u, 4u, 16u}) { // 16: four ranges, the most there are
            std::vector<aem::Vertex> vertices = mesh.vertices;
            std::vector<uint32_t> triangles = order;
            const std::vector<uint32_t> copies =
                assbin::converter::detail::write_tangent_frames(vertices, triangles, wanted, true, threads);
            BOOST_TEST((copies == one_copies), threads << " threads");
            BOOST_TEST((triangles == one_triangles), threads << " threads");
            BOOST_TEST(same_bits(vertices, one_vertices), threads << " threads");
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
