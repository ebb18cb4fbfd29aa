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

namespace assbin_test::tangents {

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
    size_t order_defects = 0;      // over 1 degree, but within 0.1 when the reference is given the
                                   // same triangles in reverse order (its edge-sort defect)
    double max_degrees = 0;        // over the comparable corners
    void add(const Agreement& other);
};

// Per mesh and corner, a flag; used for the corners to count as order_defects.
using CornerMask = std::vector<std::vector<uint8_t>>;

// `degrees`, when given, receives per corner the angle to the reference for comparable corners and
// -1 for the others.
Agreement compare(const aem::Model& model, const std::vector<std::vector<uint32_t>>& corners,
                  const std::vector<std::vector<Eigen::Vector4f>>& reference,
                  const CornerMask* order_defects = nullptr,
                  std::vector<std::vector<double>>* degrees = nullptr);

// The same triangles in reverse order, each keeping its corner order; and the reference's answer to
// that request mapped back to the corners of `corners`.
std::vector<std::vector<uint32_t>> reversed_triangles(const std::vector<std::vector<uint32_t>>& corners);
std::vector<std::vector<Eigen::Vector4f>>
unreversed_answer(const std::vector<std::vector<Eigen::Vector4f>>& answer);

// Corners more than 1 degree from the reference in `degrees` that are within 0.1 degree of the
// reference's answer for the reversed triangles (`reversed_reference`, already mapped back). The
// reference pairs triangles across edges by a sort whose last run it leaves unsorted, so which fans
// it splits depends on how triangles are numbered; another numbering shows its intent.
CornerMask order_defects(const aem::Model& model, const std::vector<std::vector<uint32_t>>& corners,
                         const std::vector<std::vector<double>>& degrees,
                         const std::vector<std::vector<Eigen::Vector4f>>& reversed_reference);

} // namespace assbin_test::tangents
