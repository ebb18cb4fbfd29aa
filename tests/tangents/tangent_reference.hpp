// The reference check of the converter's tangents (issue "Tangent frames that are MikkTSpace's"):
// the triangles the converter ran MikkTSpace over, written as a request for
// mikktspace_reference.js (the original MikkTSpace in WebAssembly), and the per-corner comparison
// of the converter's tangents with the reference's answer.
#pragma once

#include <assbin/converter/convert.hpp>
#include <assbin/types.hpp>

#include <Eigen/Core>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace assbin_tests::tangents {

// Per AEM mesh, the vertex indices (three per triangle) of its triangles whose tangents the
// converter generated: those from source meshes with UVs and without stored tangents. Needs a
// result converted with record_vertex_origins.
std::vector<std::vector<uint32_t>> generated_corners(const assbin::Scene& scene,
                                                     const assbin::converter::ConvertResult& result);

void write_request(const std::filesystem::path& path, const aem::Model& model,
                   const std::vector<std::vector<uint32_t>>& corners);

// Per mesh, per corner: tangent xyz and bitangent sign. Throws std::runtime_error when the file does
// not answer `corners`.
std::vector<std::vector<Eigen::Vector4f>> read_response(const std::filesystem::path& path,
                                                        const std::vector<std::vector<uint32_t>>& corners);

// Runs `node script request response`; throws std::runtime_error when it fails.
void run_reference(const std::string& node, const std::filesystem::path& script,
                   const std::filesystem::path& request, const std::filesystem::path& response);

// How the converter's tangents agree with the reference, corner by corner.
struct Agreement {
    size_t corners = 0;
    size_t comparable = 0;         // corners of healthy triangles where the reference has a tangent
    size_t within_0_1 = 0;         // of those: within 0.1 degree
    size_t within_1 = 0;           // within 1 degree
    size_t within_5 = 0;           // within 5 degrees
    size_t handedness_agrees = 0;  // of the comparable: same bitangent sign
    size_t degenerate_corners = 0; // of triangles the reference calls degenerate (equal positions,
                                   // or UVs without area): counted apart
    size_t degenerate_over_5 = 0;  // of those, further than 5 degrees
    size_t zero_reference = 0;     // the reference's tangent is zero (its sum vanished)
    size_t reference_failed = 0;   // the reference gave up on the mesh (NaN answers)
    size_t zero_normal = 0;        // the vertex has no normal (a NaN the converter zeroed)
    double max_degrees = 0;        // over the comparable corners
    void add(const Agreement& other);
};

Agreement compare(const aem::Model& model, const std::vector<std::vector<uint32_t>>& corners,
                  const std::vector<std::vector<Eigen::Vector4f>>& reference);

} // namespace assbin_tests::tangents
