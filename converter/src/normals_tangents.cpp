// Rule 7: missing normals (area-weighted, split at creases) and missing tangents and bitangents
// (MikkTSpace's construction) are generated per source mesh, in mesh space, before baking.
#include "context.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace assbin::converter {

namespace {

template <size_t N>
using Bits = std::array<uint32_t, N>;

uint32_t float_bits(float value) {
    if (value == 0.0f) return 0; // -0 and +0 are one position
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    return bits;
}

template <size_t N>
uint64_t hash_bits(const Bits<N>& bits) {
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (const uint32_t b : bits) {
        h ^= b;
        h *= 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
    }
    return h;
}

// Numbers the distinct keys: vertices with bit-identical keys get the same group, numbered in
// order of first appearance. Open addressing over a power-of-two table.
template <size_t N, class KeyOf>
std::vector<uint32_t> group_equal(size_t count, KeyOf key_of) {
    size_t capacity = 16;
    while (capacity < count * 2)
        capacity *= 2;
    std::vector<uint32_t> table(capacity, 0); // vertex + 1 of the group's first member; 0 = empty
    std::vector<uint32_t> group(count);
    uint32_t groups = 0;
    for (uint32_t v = 0; v < count; ++v) {
        const Bits<N> key = key_of(v);
        size_t slot = hash_bits(key) & (capacity - 1);
        while (true) {
            if (table[slot] == 0) {
                table[slot] = v + 1;
                group[v] = groups++;
                break;
            }
            const uint32_t first = table[slot] - 1;
            if (key_of(first) == key) {
                group[v] = group[first];
                break;
            }
            slot = (slot + 1) & (capacity - 1);
        }
    }
    return group;
}

// Appends a copy of vertex v (every attribute the mesh has so far) and returns its index.
uint32_t duplicate_vertex(TriangleMesh& mesh, uint32_t v) {
    const auto copy = [v](auto& values) {
        if (v < values.size()) values.push_back(values[v]);
    };
    copy(mesh.positions);
    copy(mesh.normals);
    copy(mesh.tangents);
    copy(mesh.bitangents);
    copy(mesh.uvs);
    copy(mesh.source_vertex);
    return static_cast<uint32_t>(mesh.positions.size() - 1);
}

// Gives every corner its value through its vertex. The first corner to reach a vertex sets it; a
// corner whose value matches none of the vertex's copies gets a new copy of the vertex. Returns
// the value per vertex (copies included); vertices no corner uses hold `unused`.
template <class Value>
std::vector<Value> assign_corner_values(TriangleMesh& mesh, const std::vector<Value>& corner_values,
                                        const Value& unused) {
    std::vector<Value> values(mesh.vertex_count(), unused);
    std::vector<uint8_t> assigned(mesh.vertex_count(), 0);
    std::vector<int32_t> next_copy(mesh.vertex_count(), -1);
    for (size_t c = 0; c < mesh.triangles.size(); ++c) {
        const uint32_t v = mesh.triangles[c];
        const Value& value = corner_values[c];
        if (!assigned[v]) {
            values[v] = value;
            assigned[v] = 1;
            continue;
        }
        uint32_t at = v;
        while (!(values[at] == value) && next_copy[at] >= 0)
            at = static_cast<uint32_t>(next_copy[at]);
        if (!(values[at] == value)) {
            const uint32_t copy = duplicate_vertex(mesh, v);
            values.push_back(value);
            assigned.push_back(1);
            next_copy.push_back(-1);
            next_copy[at] = static_cast<int32_t>(copy);
            at = copy;
        }
        mesh.triangles[c] = at;
    }
    return values;
}

// Triangles of each group, grouped (offsets into `list`).
struct GroupTriangles {
    std::vector<uint32_t> first;
    std::vector<uint32_t> list;
};

GroupTriangles triangles_by_group(const TriangleMesh& mesh, const std::vector<uint32_t>& group) {
    const uint32_t groups = group.empty() ? 0 : *std::max_element(group.begin(), group.end()) + 1;
    GroupTriangles out;
    out.first.assign(groups + 1, 0);
    for (const uint32_t v : mesh.triangles)
        ++out.first[group[v] + 1];
    for (uint32_t g = 0; g < groups; ++g)
        out.first[g + 1] += out.first[g];
    out.list.resize(mesh.triangles.size());
    std::vector<uint32_t> fill(out.first.begin(), out.first.end() - 1);
    for (size_t c = 0; c < mesh.triangles.size(); ++c)
        out.list[fill[group[mesh.triangles[c]]]++] = static_cast<uint32_t>(c / 3);
    return out;
}

Eigen::Vector3f normalized_or_zero(const Eigen::Vector3f& v) {
    const float length = v.norm();
    return length > 0 && std::isfinite(length) ? Eigen::Vector3f(v / length) : Eigen::Vector3f::Zero();
}

} // namespace

Eigen::Vector3f any_perpendicular(const Eigen::Vector3f& normal) {
    const Eigen::Vector3f n = normalized_or_zero(normal);
    if (n.isZero()) return Eigen::Vector3f::UnitX();
    // Duff et al., "Building an Orthonormal Basis, Revisited" (2017).
    const float sign = std::copysign(1.0f, n.z());
    const float a = -1.0f / (sign + n.z());
    const float b = n.x() * n.y() * a;
    return Eigen::Vector3f(1.0f + sign * n.x() * n.x() * a, sign * b, -sign * n.x()).normalized();
}

void generate_normals(TriangleMesh& mesh, float crease_degrees) {
    const size_t triangle_count = mesh.triangles.size() / 3;
    std::vector<Eigen::Vector3f> area(triangle_count), unit(triangle_count);
    for (size_t t = 0; t < triangle_count; ++t) {
        const Eigen::Vector3f& p0 = mesh.positions[mesh.triangles[3 * t]];
        const Eigen::Vector3f& p1 = mesh.positions[mesh.triangles[3 * t + 1]];
        const Eigen::Vector3f& p2 = mesh.positions[mesh.triangles[3 * t + 2]];
        area[t] = (p1 - p0).cross(p2 - p0); // twice the area, along the face normal
        if (!area[t].allFinite()) area[t].setZero();
        unit[t] = normalized_or_zero(area[t]);
    }
    const std::vector<uint32_t> group = group_equal<3>(mesh.vertex_count(), [&](uint32_t v) {
        const Eigen::Vector3f& p = mesh.positions[v];
        return Bits<3>{float_bits(p.x()), float_bits(p.y()), float_bits(p.z())};
    });
    const GroupTriangles around = triangles_by_group(mesh, group);
    const float cos_crease = std::cos(crease_degrees * std::numbers::pi_v<float> / 180.0f);

    // Per position group, its triangles' face directions with equal ones merged (areas summed): a
    // corner then weighs its group's directions, not every triangle around it, which would cost
    // the square of the valence (a 65,535-triangle fan: 4e9 steps). A group with more than
    // kMaxDirections distinct directions, which only hostile or pathological meshes have, is
    // smoothed without crease splitting, so the cost stays linear in the mesh size.
    constexpr uint32_t kMaxDirections = 64;
    struct Direction {
        Eigen::Vector3f unit, area;
    };
    const size_t groups = around.first.size() - 1;
    std::vector<uint32_t> first_direction(groups + 1, 0);
    std::vector<Direction> directions;
    std::vector<Eigen::Vector3f> group_area(groups, Eigen::Vector3f::Zero());
    std::vector<uint8_t> smooth_only(groups, 0);
    for (size_t g = 0; g < groups; ++g) {
        first_direction[g] = static_cast<uint32_t>(directions.size());
        for (uint32_t k = around.first[g]; k < around.first[g + 1]; ++k) {
            const uint32_t t = around.list[k];
            group_area[g] += area[t];
            if (smooth_only[g]) continue;
            const auto begin = directions.begin() + first_direction[g];
            const auto same =
                std::find_if(begin, directions.end(), [&](const Direction& d) { return d.unit == unit[t]; });
            if (same != directions.end()) {
                same->area += area[t];
            } else if (directions.end() - begin < kMaxDirections) {
                directions.push_back({unit[t], area[t]});
            } else {
                smooth_only[g] = 1;
                directions.resize(first_direction[g]);
            }
        }
    }
    first_direction[groups] = static_cast<uint32_t>(directions.size());

    std::vector<Eigen::Vector3f> corner_normals(mesh.triangles.size());
    for (size_t c = 0; c < mesh.triangles.size(); ++c) {
        const size_t t = c / 3;
        const uint32_t g = group[mesh.triangles[c]];
        const Eigen::Vector3f& all = group_area[g];
        Eigen::Vector3f sum = smooth_only[g] ? all : Eigen::Vector3f::Zero();
        for (uint32_t d = first_direction[g]; d < first_direction[g + 1]; ++d) {
            if (unit[t].dot(directions[d].unit) >= cos_crease) sum += directions[d].area;
        }
        Eigen::Vector3f normal = normalized_or_zero(sum);
        if (normal.isZero()) normal = normalized_or_zero(all); // a degenerate face takes its neighbours'
        corner_normals[c] = normal.isZero() ? Eigen::Vector3f::UnitZ() : normal;
    }
    mesh.normals = assign_corner_values<Eigen::Vector3f>(mesh, corner_normals, Eigen::Vector3f::UnitZ());
}

namespace {

// MikkTSpace's per-triangle data (InitTriInfo): unit tangent and bitangent directions signed by
// the UV orientation, and whether the UV mapping is usable at all.
struct TriangleFrame {
    Eigen::Vector3f os = Eigen::Vector3f::Zero();
    Eigen::Vector3f ot = Eigen::Vector3f::Zero();
    bool preserving = false;
    bool usable = false;
};

TriangleFrame triangle_frame(const TriangleMesh& mesh, size_t t) {
    const uint32_t i0 = mesh.triangles[3 * t], i1 = mesh.triangles[3 * t + 1], i2 = mesh.triangles[3 * t + 2];
    const Eigen::Vector3f d1 = mesh.positions[i1] - mesh.positions[i0];
    const Eigen::Vector3f d2 = mesh.positions[i2] - mesh.positions[i0];
    const Eigen::Vector2f t21 = mesh.uvs[i1] - mesh.uvs[i0];
    const Eigen::Vector2f t31 = mesh.uvs[i2] - mesh.uvs[i0];
    const float signed_area = t21.x() * t31.y() - t21.y() * t31.x();
    const Eigen::Vector3f os = t31.y() * d1 - t21.y() * d2;
    const Eigen::Vector3f ot = -t31.x() * d1 + t21.x() * d2;
    TriangleFrame frame;
    frame.preserving = signed_area > 0;
    if (std::fabs(signed_area) > std::numeric_limits<float>::min()) {
        const float sign = frame.preserving ? 1.0f : -1.0f;
        frame.os = sign * normalized_or_zero(os);
        frame.ot = sign * normalized_or_zero(ot);
        frame.usable = !frame.os.isZero() && !frame.ot.isZero();
    }
    return frame;
}

Eigen::Vector3f project_to_plane(const Eigen::Vector3f& v, const Eigen::Vector3f& normal) {
    return normalized_or_zero(v - normal.dot(v) * normal);
}

// The angle at corner `corner` of triangle `t`, measured in the plane of `normal` (EvalTspace).
float corner_angle(const TriangleMesh& mesh, size_t t, size_t corner, const Eigen::Vector3f& normal) {
    const Eigen::Vector3f& p = mesh.positions[mesh.triangles[3 * t + corner]];
    const Eigen::Vector3f& prev = mesh.positions[mesh.triangles[3 * t + (corner + 2) % 3]];
    const Eigen::Vector3f& next = mesh.positions[mesh.triangles[3 * t + (corner + 1) % 3]];
    const Eigen::Vector3f a = project_to_plane(prev - p, normal);
    const Eigen::Vector3f b = project_to_plane(next - p, normal);
    return std::acos(std::clamp(a.dot(b), -1.0f, 1.0f));
}

void frames_without_uvs(TriangleMesh& mesh) {
    mesh.tangents.resize(mesh.vertex_count());
    mesh.bitangents.resize(mesh.vertex_count());
    for (size_t v = 0; v < mesh.vertex_count(); ++v) {
        const Eigen::Vector3f n = normalized_or_zero(mesh.normals[v]);
        mesh.tangents[v] = any_perpendicular(n);
        mesh.bitangents[v] =
            n.isZero() ? Eigen::Vector3f::UnitY() : Eigen::Vector3f(n.cross(mesh.tangents[v]));
    }
}

} // namespace

void generate_tangents(TriangleMesh& mesh) {
    if (mesh.normals.size() != mesh.vertex_count())
        throw std::invalid_argument("generate_tangents needs normals");
    if (mesh.uvs.size() != mesh.vertex_count()) return frames_without_uvs(mesh);

    const size_t triangle_count = mesh.triangles.size() / 3;
    std::vector<TriangleFrame> frames(triangle_count);
    for (size_t t = 0; t < triangle_count; ++t)
        frames[t] = triangle_frame(mesh, t);
    // MikkTSpace identifies vertices by value (position, normal, UV), not by index.
    const std::vector<uint32_t> group = group_equal<8>(mesh.vertex_count(), [&](uint32_t v) {
        const Eigen::Vector3f& p = mesh.positions[v];
        const Eigen::Vector3f& n = mesh.normals[v];
        const Eigen::Vector2f& uv = mesh.uvs[v];
        return Bits<8>{float_bits(p.x()), float_bits(p.y()), float_bits(p.z()),  float_bits(n.x()),
                       float_bits(n.y()), float_bits(n.z()), float_bits(uv.x()), float_bits(uv.y())};
    });
    const size_t groups = group.empty() ? 0 : *std::max_element(group.begin(), group.end()) + 1;

    // Angle-weighted sums per (group, orientation): slot 2g + 1 preserving, 2g mirrored.
    std::vector<Eigen::Vector3f> sum(2 * groups, Eigen::Vector3f::Zero());
    for (size_t c = 0; c < mesh.triangles.size(); ++c) {
        const TriangleFrame& frame = frames[c / 3];
        if (!frame.usable) continue;
        const uint32_t v = mesh.triangles[c];
        const Eigen::Vector3f n = normalized_or_zero(mesh.normals[v]);
        const float angle = corner_angle(mesh, c / 3, c % 3, n);
        sum[2 * group[v] + (frame.preserving ? 1 : 0)] += angle * project_to_plane(frame.os, n);
    }
    // A triangle without usable UVs joins whichever orientation its corner's vertex has (MikkTSpace's
    // GROUP_WITH_ANY), preserving first.
    std::vector<uint32_t> corner_slot(mesh.triangles.size());
    for (size_t c = 0; c < mesh.triangles.size(); ++c) {
        const TriangleFrame& frame = frames[c / 3];
        const uint32_t g = group[mesh.triangles[c]];
        const bool preserving =
            frame.usable ? frame.preserving : !sum[2 * g + 1].isZero() || sum[2 * g].isZero();
        corner_slot[c] = 2 * g + (preserving ? 1 : 0);
    }
    const std::vector<uint32_t> slot = assign_corner_values<uint32_t>(mesh, corner_slot, UINT32_MAX);

    mesh.tangents.resize(mesh.vertex_count());
    mesh.bitangents.resize(mesh.vertex_count());
    for (size_t v = 0; v < mesh.vertex_count(); ++v) {
        const Eigen::Vector3f n = normalized_or_zero(mesh.normals[v]);
        Eigen::Vector3f tangent =
            normalized_or_zero(slot[v] < sum.size() ? sum[slot[v]] : Eigen::Vector3f::Zero());
        if (tangent.isZero()) tangent = any_perpendicular(n);
        const float sign = slot[v] % 2 == 1 ? 1.0f : -1.0f;
        mesh.tangents[v] = tangent;
        mesh.bitangents[v] = n.isZero() ? Eigen::Vector3f(any_perpendicular(tangent))
                                        : Eigen::Vector3f(sign * n.cross(tangent));
    }
}

namespace detail {

void complete_normals_tangents(PreparedMesh& prepared, const ConvertOptions& options, ConvertStats& stats) {
    if (prepared.in_place || !prepared.has_triangles()) return; // in place: nothing is missing
    TriangleMesh& mesh = prepared.mesh;
    if (mesh.normals.empty()) {
        generate_normals(mesh, options.crease_angle_degrees);
        ++stats.meshes_normals_generated;
    }
    if (mesh.tangents.empty()) {
        generate_tangents(mesh);
        ++stats.meshes_tangents_generated;
    }
}

} // namespace detail

} // namespace assbin::converter
