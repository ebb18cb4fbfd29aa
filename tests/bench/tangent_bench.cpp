// MikkTSpace tangent generation (converter/src/mikktspace.cpp) on the largest output mesh of a
// dump, per triangle corner, beside a memcpy of the same surface data (the baseline measured in the
// same run). The dump is converted in source order with record_vertex_origins, and the mesh is
// exactly what the converter hands to MikkTSpace. By hand:
//   build/bin/assbin_tangent_bench [--runs N] [--write-request FILE] [DUMP]
// --write-request writes the mesh as a request for tests/tangents/mikktspace_reference.js, so the
// reference can be timed on the very same triangles.
#include "best_time.hpp"
#include "geometry/mikktspace.hpp"
#include "pipeline.hpp"
#include "support/fixtures.hpp"
#include "tangent_reference.hpp"

#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

using assbin::converter::detail::SurfacePoint;

struct Args {
    int runs = 9;
    std::string dump = assbin_test::fixture_path("assimp-5.2.5/COB__dwarf.cob.assbin").string();
    std::string request;
};

Args parse(int argc, char** argv) {
    Args args;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--runs" && i + 1 < argc) {
            args.runs = std::max(1, std::atoi(argv[++i]));
        } else if (arg == "--write-request" && i + 1 < argc) {
            args.request = argv[++i];
        } else {
            args.dump = arg;
        }
    }
    return args;
}

} // namespace

int main(int argc, char** argv) {
    const Args args = parse(argc, argv);
    const assbin::Scene scene = assbin::read_file(args.dump);
    assbin::converter::ConvertOptions options;
    options.optimize = false;
    options.record_vertex_origins = true;
    const assbin::converter::ConvertResult result = assbin::converter::convert(scene, options);
    const auto corners = assbin_test::tangents::generated_corners(scene, result);
    size_t largest = 0;
    for (size_t m = 0; m < corners.size(); ++m)
        if (corners[m].size() > corners[largest].size()) largest = m;
    if (corners.empty() || corners[largest].empty()) {
        std::fprintf(stderr, "%s: no mesh with generated tangents\n", args.dump.c_str());
        return 2;
    }
    std::vector<SurfacePoint> points(result.model.vertices.size());
    for (size_t v = 0; v < points.size(); ++v) {
        const aem::Vertex& vertex = result.model.vertices[v];
        points[v] = {vertex.position, vertex.normal, vertex.uv};
    }
    const std::vector<uint32_t>& mesh = corners[largest];
    std::vector<SurfacePoint> copy(points.size());
    const double ours = assbin_test::bench::best_seconds(args.runs, [&] {
        const auto frames = assbin::converter::detail::mikktspace_frames(points, mesh);
        if (frames.corner_frame.size() != mesh.size()) std::abort();
    });
    // The converter's whole step: frames, written into the vertex records, split vertices appended.
    const std::vector<uint8_t> wanted(result.model.vertices.size(), 1);
    const double written = assbin_test::bench::best_seconds(args.runs, [&] {
        std::vector<aem::Vertex> vertices = result.model.vertices;
        std::vector<uint32_t> triangles = mesh;
        assbin::converter::detail::write_tangent_frames(vertices, triangles, wanted, true);
    });
    const double record_copy = assbin_test::bench::best_seconds(args.runs, [&] {
        std::vector<aem::Vertex> vertices = result.model.vertices;
        std::vector<uint32_t> triangles = mesh;
        if (vertices.size() + triangles.size() == 0) std::abort();
    });
    const double baseline = assbin_test::bench::best_seconds(args.runs, [&] {
        std::memcpy(static_cast<void*>(copy.data()), points.data(), points.size() * sizeof(SurfacePoint));
        if (copy.back().uv != points.back().uv) std::abort();
    });
    const double per_corner = ours * 1e9 / static_cast<double>(mesh.size());
    std::printf("%s: mesh %zu, %zu corners over %zu vertices\n", args.dump.c_str(), largest, mesh.size(),
                points.size());
    std::printf("mikktspace frames: %.3f ms, %.1f ns/corner; memcpy of the surface data %.3f ms (%.0fx)\n",
                ours * 1e3, per_corner, baseline * 1e3, ours / baseline);
    std::printf("written into the vertices (the converter's step): %.1f ns/corner (copying the records "
                "first costs %.1f of it)\n",
                written * 1e9 / static_cast<double>(mesh.size()),
                record_copy * 1e9 / static_cast<double>(mesh.size()));
    if (!args.request.empty()) {
        assbin_test::tangents::write_request(args.request, result.model, {mesh});
        std::printf("request written to %s\n", args.request.c_str());
    }
    return 0;
}
