// How well a model's index and vertex buffers suit a GPU, per mesh and in total, measured with
// meshoptimizer's analyzers: for any AEM model, ours or another exporter's (`assbin aem-info`).
#pragma once

#include <aem/model.hpp>

#include <cstddef>
#include <vector>

namespace assbin::converter {

// The FIFO post-transform cache the ACMR and ATVR figures simulate.
inline constexpr unsigned kMetricsCacheSize = 16;

struct MeshMetrics {
    bool measured = false; // false: the mesh's range or indices are broken (see aem::validate)
    size_t vertices = 0;   // distinct vertices the mesh's triangles use
    size_t triangles = 0;
    size_t vertices_transformed = 0; // by a 16-entry FIFO cache, drawing the triangles in order
    size_t pixels_covered = 0;       // meshoptimizer's overdraw rasteriser (three axis views)
    size_t pixels_shaded = 0;
    size_t bytes_fetched = 0; // vertex bytes read through a simulated fetch cache
    size_t weldable = 0;      // used vertices a lossless weld would remove (identical records)

    // Vertices transformed per triangle: 3 when no vertex is ever reused, about 0.5 at best.
    double acmr() const { return triangles ? double(vertices_transformed) / double(triangles) : 0.0; }
    // Vertices transformed per vertex used: 1 at best.
    double atvr() const { return vertices ? double(vertices_transformed) / double(vertices) : 0.0; }
    // Pixels shaded per pixel covered: 1 at best.
    double overdraw() const { return pixels_covered ? double(pixels_shaded) / double(pixels_covered) : 0.0; }
    // Vertex bytes fetched per byte of the vertices used: 1 at best.
    double overfetch() const { return vertices ? double(bytes_fetched) / (double(vertices) * 92.0) : 0.0; }
};

struct ModelMetrics {
    std::vector<MeshMetrics> meshes; // one per mesh record, in order
    // Sums over the measured meshes (ratios follow from the sums), except the pixels: those are the
    // whole model's, every mesh drawn in order into one picture, as a game draws it.
    MeshMetrics total;
};

// Measures every mesh of `model`. Never throws on a broken model: a mesh whose range leaves the
// index section, or whose indices reach past the vertices, is left unmeasured. A model of more than
// 1,024 meshes gets no per-mesh overdraw (0 pixels; each costs about a millisecond), only the total.
ModelMetrics measure_meshes(const aem::Model& model);

} // namespace assbin::converter
