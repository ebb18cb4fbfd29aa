// Independent checks of the optimised geometry, shared by the unit tests and the corpus programs:
// the weld is exact (no two identical records in one mesh) and reordering loses no triangle (the
// same corners, by value, in the same cyclic order, drawn with the same material).
#pragma once

#include <aem/model.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace assbin_test {

// Whether tangents and bitangents take part. MikkTSpace runs on each output mesh in its final
// triangle order, so the same triangle's frame may differ in the last bits between a merged and a
// kept mesh, or an optimised and a source-order one (the reference check, tests/tangents, covers
// the frames in every mode).
enum class Frames { Included, Excluded };

// FNV-1a over the record's bytes with -0.0 read as +0.0 (the weld's notion of equality).
inline uint64_t record_hash(const aem::Vertex& vertex, Frames frames = Frames::Included) {
    aem::Vertex v = vertex;
    if (frames == Frames::Excluded) v.tangent = v.bitangent = Eigen::Vector3f::Zero();
    const auto fix = [](auto& values) {
        for (auto& value : values)
            value += 0.0f;
    };
    fix(v.position), fix(v.normal), fix(v.tangent), fix(v.bitangent), fix(v.uv), fix(v.bone_weights);
    unsigned char bytes[sizeof(aem::Vertex)];
    std::memcpy(bytes, &v, sizeof bytes);
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char b : bytes)
        h = (h ^ b) * 1099511628211ull;
    return h;
}

// One fingerprint per triangle: its material and its three corners' record hashes, rotated so the
// smallest comes first (the cyclic order, hence the winding, is kept). Sorted, so two models hold
// the same triangles exactly when their fingerprint lists are equal.
inline std::vector<std::array<uint64_t, 4>> triangle_fingerprints(const aem::Model& model,
                                                                  Frames frames = Frames::Included) {
    std::vector<uint64_t> hashes(model.vertices.size());
    for (size_t v = 0; v < hashes.size(); ++v)
        hashes[v] = record_hash(model.vertices[v], frames);
    std::vector<std::array<uint64_t, 4>> out;
    out.reserve(model.indices.size() / 3);
    for (const aem::Mesh& mesh : model.meshes) {
        for (uint32_t i = mesh.first_index; i + 2 < mesh.first_index + mesh.index_count; i += 3) {
            std::array<uint64_t, 3> c = {hashes[model.indices[i]], hashes[model.indices[i + 1]],
                                         hashes[model.indices[i + 2]]};
            std::rotate(c.begin(), std::min_element(c.begin(), c.end()), c.end());
            out.push_back({mesh.material, c[0], c[1], c[2]});
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The first mesh holding two vertices with identical records among those its triangles use.
inline std::optional<size_t> mesh_with_unwelded_vertices(const aem::Model& model) {
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const aem::Mesh& mesh = model.meshes[m];
        std::set<uint32_t> used(model.indices.begin() + mesh.first_index,
                                model.indices.begin() + mesh.first_index + mesh.index_count);
        std::set<uint64_t> seen;
        for (const uint32_t v : used) {
            if (!seen.insert(record_hash(model.vertices[v])).second) return m;
        }
    }
    return std::nullopt;
}

// The diagonal of the model's vertex bounds (at least 1e-6): the scale pose tolerances are given in.
inline double model_size(const aem::Model& model) {
    Eigen::Vector3f low = Eigen::Vector3f::Constant(std::numeric_limits<float>::max()), high = -low;
    for (const aem::Vertex& v : model.vertices) {
        low = low.cwiseMin(v.position);
        high = high.cwiseMax(v.position);
    }
    return std::max(1e-6, static_cast<double>((high - low).norm()));
}

// Distinct materials the model's meshes draw with.
inline size_t materials_used(const aem::Model& model) {
    std::set<uint32_t> materials;
    for (const aem::Mesh& mesh : model.meshes)
        materials.insert(mesh.material);
    return materials.size();
}

} // namespace assbin_test
