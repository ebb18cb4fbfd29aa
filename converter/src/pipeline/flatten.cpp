// Rule 1 and 2: the node hierarchy's global bind transforms, every (node, mesh) reference
// (instancing flattened), and geometry baked into model space. ASSBIN matrices arrive as
// assbin::Matrix4 (row-major storage) and leave as Eigen::Matrix4d/4f (column-major storage):
// assignment between the two types converts storage and keeps the mathematical matrix.
// Cost: each node's global transform from its parent's, in pre-order, so deep chains and wide trees
// are linear in the nodes (scripts/bench-shapes.sh: deep, wide); each reference bakes its vertices once.
#include "pipeline.hpp"

#include <quoting.hpp>

#include <cmath>
#include <limits>

namespace assbin::converter::detail {

std::string quote_name(std::string_view name) {
    return assbin_common::printable(name, 80, '\'');
}

std::string mesh_label(uint32_t mesh) {
    return "mesh " + std::to_string(mesh);
}

std::string node_label(const assbin::Scene& scene, uint32_t node) {
    return "node " + std::to_string(node) + " " + quote_name(scene.nodes[node].name);
}

const std::vector<uint32_t>& NodeGraph::nodes_named(std::string_view name) const {
    static const std::vector<uint32_t> kNone;
    const auto found = by_name.find(name);
    return found == by_name.end() ? kNone : found->second;
}

NodeGraph flatten_nodes(const assbin::Scene& scene) {
    NodeGraph graph;
    graph.global.resize(scene.nodes.size());
    for (uint32_t n = 0; n < scene.nodes.size(); ++n) {
        const assbin::Node& node = scene.nodes[n];
        const Eigen::Matrix4d local = node.transform.cast<double>(); // row-major in, column-major out
        if (node.parent < 0) {
            graph.global[n] = local;
        } else if (static_cast<uint32_t>(node.parent) < n) {
            graph.global[n] = graph.global[static_cast<size_t>(node.parent)] * local;
        } else {
            throw ConvertError(Refusal::Internal, node_label(scene, n) + "'s parent " +
                                                      std::to_string(node.parent) + " does not precede it");
        }
        graph.by_name[node.name].push_back(n);
        for (const uint32_t mesh : node.meshes) // refuse_broken_references checked each index
            graph.references.push_back({n, mesh});
    }
    return graph;
}

namespace {

// The matrix that carries normals: the inverse-transpose of the upper 3x3, taken as the cofactor
// matrix times the determinant's sign (equal after normalisation, and defined when singular).
Eigen::Matrix3f normal_matrix(const Eigen::Matrix4d& global) {
    const Eigen::Matrix3d a = global.topLeftCorner<3, 3>();
    Eigen::Matrix3d cofactor;
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) {
            const int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
            cofactor(r, c) = a(r1, c1) * a(r2, c2) - a(r1, c2) * a(r2, c1);
        }
    }
    const double sign = a.determinant() < 0 ? -1.0 : 1.0;
    return (sign * cofactor).cast<float>();
}

// matrix · v renormalised; zero when that has no length or is not finite (counted in `repaired`
// when v itself was not finite).
inline Eigen::Vector3f transform_direction(const Eigen::Matrix3f& matrix, const Eigen::Vector3f& v,
                                           size_t& repaired) {
    const Eigen::Vector3f out = matrix * v;
    const float squared = out.squaredNorm();
    if (!(squared > 0) || !(squared < std::numeric_limits<float>::infinity())) {
        repaired += v.allFinite() ? 0 : 1;
        return Eigen::Vector3f::Zero();
    }
    return out * (1.0f / std::sqrt(squared));
}

// A tangent baked (rule 1): carried by the matrix itself, as a direction in the surface (the
// inverse-transpose would tilt it off the surface under non-uniform scale), renormalised, then made
// perpendicular to the baked normal. Left as carried where it lies along the normal.
inline Eigen::Vector3f surface_direction(const Eigen::Matrix3f& linear, const Eigen::Vector3f& tangent,
                                         const Eigen::Vector3f& normal, size_t& repaired) {
    const Eigen::Vector3f carried = transform_direction(linear, tangent, repaired);
    const Eigen::Vector3f in_plane = carried - normal.dot(carried) * normal;
    const float squared = in_plane.squaredNorm();
    return squared > 1e-12f ? Eigen::Vector3f(in_plane / std::sqrt(squared)) : carried;
}

inline float finite_or_zero(float value, size_t& repaired) {
    if (std::isfinite(value)) return value;
    ++repaired;
    return 0.0f;
}

} // namespace

size_t bake_vertices(const VertexView& view, const Eigen::Matrix4d& global, std::span<aem::Vertex> out) {
    const Eigen::Matrix3f linear = global.topLeftCorner<3, 3>().cast<float>();
    const Eigen::Vector3f translation = global.topRightCorner<3, 1>().cast<float>();
    const Eigen::Matrix3f normals = normal_matrix(global);
    size_t repaired = 0;
    for (size_t v = 0; v < view.count; ++v) {
        aem::Vertex& vertex = out[v];
        vertex.position = linear * view.positions[v] + translation;
        vertex.normal = transform_direction(normals, view.normals[v], repaired);
        if (view.tangents) {
            vertex.tangent = surface_direction(linear, view.tangents[v], vertex.normal, repaired);
            vertex.bitangent = transform_direction(linear, view.bitangents[v], repaired);
        } else { // generated after baking (output_tangents.cpp)
            vertex.tangent = vertex.bitangent = Eigen::Vector3f::Zero();
        }
        if (view.uvs) {
            vertex.uv = view.uvs[v];
        } else if (view.source_uvs) {
            const Eigen::Vector3f& uv = view.source_uvs[v];
            vertex.uv = Eigen::Vector2f(finite_or_zero(uv.x(), repaired),
                                        view.one_component_uvs ? 0.0f : finite_or_zero(uv.y(), repaired));
        }
    }
    return repaired;
}

void place_triangles(const std::vector<uint32_t>& triangles, const Eigen::Matrix4d& global,
                     uint32_t first_vertex, std::span<uint32_t> out) {
    const bool mirrored = global.topLeftCorner<3, 3>().determinant() < 0;
    for (size_t t = 0; t < triangles.size(); t += 3) {
        out[t] = triangles[t] + first_vertex;
        out[t + 1] = triangles[mirrored ? t + 2 : t + 1] + first_vertex;
        out[t + 2] = triangles[mirrored ? t + 1 : t + 2] + first_vertex;
    }
}

} // namespace assbin::converter::detail
