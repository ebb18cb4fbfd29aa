// Dump meshes as glTF meshes, in their own space: faces sorted into triangles (polygons ear-clipped
// as for AEM), lines and points; every UV channel as TEXCOORD_n (v' = 1 - v, glTF's top-left
// origin), every colour set as COLOR_n, normals made unit, MikkTSpace tangents in glTF's UV space
// where the material has a normal map, the four heaviest bone weights per vertex summing to 1.
// With options.optimize the triangles are welded (identical vertices over every attribute become
// one) and put in vertex-cache, overdraw and fetch order by meshoptimizer, as AEM geometry is.
// Cost: linear in the mesh's vertices and indices (ear clipping on its linear budget, MikkTSpace
// and the orders as in AEM's stages).
#include "gltf/gltf_convert.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <unordered_map>

namespace assbin::converter::gltf {

namespace {

using Vec2 = std::array<float, 2>;
using Vec3 = std::array<float, 3>;
using Vec4 = std::array<float, 4>;
using Joints = std::array<uint16_t, 4>;

// Per-vertex streams of one primitive; empty vectors are attributes it does not have.
struct Streams {
    std::vector<Vec3> positions, normals;
    std::vector<Vec4> tangents;
    std::vector<std::vector<Vec2>> uvs;
    std::vector<std::vector<Vec4>> colors;
    std::vector<Joints> joints;
    std::vector<Vec4> weights;
    std::vector<uint32_t> origin; // per vertex: the dump vertex it came from (not welded on)

    size_t size() const { return positions.size(); }

    // Appends a copy of vertex `v`.
    void duplicate(size_t v) {
        positions.push_back(positions[v]);
        if (!normals.empty()) normals.push_back(normals[v]);
        if (!tangents.empty()) tangents.push_back(tangents[v]);
        for (auto& set : uvs)
            set.push_back(set[v]);
        for (auto& set : colors)
            set.push_back(set[v]);
        if (!joints.empty()) joints.push_back(joints[v]);
        if (!weights.empty()) weights.push_back(weights[v]);
        origin.push_back(origin[v]);
    }

    template <class F>
    void for_each_stream(F&& f) {
        f(positions);
        f(normals);
        f(tangents);
        for (auto& set : uvs)
            f(set);
        for (auto& set : colors)
            f(set);
        f(joints);
        f(weights);
    }
};

// What one dump mesh offers per source vertex, sanitised for glTF's rules.
struct SourceVertices {
    std::vector<Vec3> positions;
    std::vector<Vec3> normals;       // unit; empty without normals
    std::vector<uint8_t> bad_normal; // per vertex: the dump's normal was zero or not finite
    std::vector<std::vector<Vec2>> uvs;
    std::vector<std::vector<Vec4>> colors;
    std::vector<Joints> joints;
    std::vector<Vec4> weights;
};

struct Tally {
    size_t bad_normals = 0, non_finite_values = 0, clamped_colours = 0, lost_influences = 0, unweighted = 0;
};

// The skin of one mesh: joint slots for the bones that bind a node (the prepared scene's match, as
// AEM's bones; a node bound by two bones is one joint: glTF joints are unique), and one slot for the
// placing node when a vertex has no weight left.
void skin_mesh(Build& build, uint32_t m, SourceVertices& source, MeshOut& out, Tally& tally) {
    const assbin::Mesh& mesh = build.scene.meshes[m];
    if (mesh.bones.empty()) return;
    const std::vector<detail::BoneTarget>& targets = build.prepared.bone_targets[m];
    std::vector<int32_t> slot_of_bone(mesh.bones.size(), -1);
    std::unordered_map<int32_t, int32_t> slot_of_node; // joints are unique nodes
    std::vector<std::string> unmatched;
    for (uint32_t b = 0; b < mesh.bones.size(); ++b) {
        if (targets[b].node < 0) {
            unmatched.push_back(detail::quote_name(mesh.bones[b].name) + " " +
                                detail::bone_miss_phrase(targets[b]));
            continue;
        }
        const int32_t node = targets[b].node;
        const auto [found, fresh] = slot_of_node.emplace(node, static_cast<int32_t>(out.joint_node.size()));
        if (!fresh) {
            slot_of_bone[b] = found->second;
            if (!mesh.bones[b].offset.cast<double>().isApprox(
                    out.inverse_bind[static_cast<size_t>(found->second)])) {
                build.report.warn(
                    detail::mesh_label(m) + ": two bones bind node " +
                    detail::quote_name(mesh.bones[b].name) +
                    " with different offsets; glTF joints are unique, the first offset is kept");
            }
            continue;
        }
        slot_of_bone[b] = static_cast<int32_t>(out.joint_node.size());
        out.joint_node.push_back(node);
        out.inverse_bind.push_back(mesh.bones[b].offset.cast<double>());
    }
    if (!unmatched.empty()) {
        std::string list;
        for (size_t k = 0; k < unmatched.size() && k < 4; ++k)
            list += (k ? ", " : "") + unmatched[k];
        if (unmatched.size() > 4) list += ", ...";
        build.report.warn(detail::mesh_label(m) + ": " +
                          detail::count_of(unmatched.size(), "bone binds", "bones bind") + " no node (" +
                          list + "); their weights go to the vertices' other bones");
    }
    if (out.joint_node.empty()) return; // no bone to skin with: placed by its node like any mesh
    out.skinned = true;
    const size_t n = source.positions.size();
    const detail::VertexWeights& grouped = *build.weights[m]; // the mesh has bones and vertices
    source.joints.assign(n, Joints{0, 0, 0, 0});
    source.weights.assign(n, Vec4{0, 0, 0, 0});
    int32_t placing_slot = -1;
    std::vector<Influence> influences;
    for (uint32_t v = 0; v < n; ++v) {
        influences.clear();
        for (const detail::VertexWeights::Entry& entry : grouped.of(v))
            influences.push_back({slot_of_bone[entry.slot], entry.weight});
        const LimitedWeights limited = limit_influences(influences);
        tally.lost_influences += limited.lost_influences;
        if (limited.bones[0] < 0) {
            if (placing_slot < 0) {
                placing_slot = static_cast<int32_t>(out.joint_node.size());
                out.joint_node.push_back(-1);
            }
            ++tally.unweighted;
            source.joints[v] = {static_cast<uint16_t>(placing_slot), 0, 0, 0};
            source.weights[v] = {1, 0, 0, 0};
            continue;
        }
        for (int k = 0; k < 4; ++k) {
            source.joints[v][k] = static_cast<uint16_t>(std::max(0, limited.bones[k]));
            source.weights[v][k] = limited.weights[k];
        }
    }
}

// The UV channels glTF gets: channels are contiguous, so one whose length is not the vertex count
// ends them.
std::span<const assbin::UvChannel> usable_uv_channels(const assbin::Mesh& mesh) {
    const size_t n = mesh.positions ? mesh.positions->values.size() : 0;
    size_t usable = 0;
    while (usable < mesh.uv_channels.size() && mesh.uv_channels[usable].values.size() == n)
        ++usable;
    return std::span<const assbin::UvChannel>(mesh.uv_channels.data(), usable);
}

// A dump UV as glTF holds it: v' = 1 - v (glTF's top-left origin), a value not finite as 0.
Vec2 gltf_uv(const assbin::UvChannel& channel, size_t v) {
    const auto finite = [](float value) { return std::isfinite(value) ? value : 0.0f; };
    const float t = channel.component_count >= 2 ? finite(channel.values[v].y()) : 0.0f;
    return {finite(channel.values[v].x()), 1.0f - t};
}

// --quantize: the range of each UV set over the meshes of each dump material (what the material
// writer composes into the textures' transforms before any mesh is written).
void measure_uv_ranges(Build& build) {
    build.uv_ranges.assign(build.scene.materials.size(), {});
    for (const assbin::Mesh& mesh : build.scene.meshes) {
        if (mesh.material_index >= build.uv_ranges.size()) continue; // refused before: never here
        const std::span<const assbin::UvChannel> channels = usable_uv_channels(mesh);
        for (size_t s = 0; s < channels.size() && s < assbin::kMaxUvChannels; ++s) {
            UvRange& range = build.uv_ranges[mesh.material_index][s];
            for (size_t v = 0; v < channels[s].values.size(); ++v) {
                const Vec2 uv = gltf_uv(channels[s], v);
                for (size_t c = 0; c < 2; ++c) {
                    range.lo[c] = std::min(range.lo[c], uv[c]);
                    range.hi[c] = std::max(range.hi[c], uv[c]);
                }
            }
        }
    }
}

SourceVertices read_source(Build& build, uint32_t m, Tally& tally) {
    const assbin::Mesh& mesh = build.scene.meshes[m];
    SourceVertices source;
    const std::vector<Eigen::Vector3f>& positions = mesh.positions->values;
    const size_t n = positions.size();
    source.positions.resize(n);
    for (size_t v = 0; v < n; ++v)
        source.positions[v] = {positions[v].x(), positions[v].y(), positions[v].z()};
    if (mesh.normals && mesh.normals->values.size() == n) {
        source.normals.resize(n);
        source.bad_normal.assign(n, 0);
        for (size_t v = 0; v < n; ++v) {
            const Eigen::Vector3d normal = mesh.normals->values[v].cast<double>();
            const double length = normal.norm();
            if (!std::isfinite(length) || length < 1e-20) {
                source.bad_normal[v] = 1;
                source.normals[v] = {0, 0, 1};
                continue;
            }
            const Eigen::Vector3f unit = (normal / length).cast<float>();
            source.normals[v] = {unit.x(), unit.y(), unit.z()};
        }
    }
    const auto clean = [&](float value) {
        if (std::isfinite(value)) return value;
        ++tally.non_finite_values;
        return 0.0f;
    };
    for (const assbin::UvChannel& channel : usable_uv_channels(mesh)) {
        std::vector<Vec2>& uvs = source.uvs.emplace_back(n);
        for (size_t v = 0; v < n; ++v) {
            clean(channel.values[v].x()); // counted; gltf_uv makes it 0
            if (channel.component_count >= 2) clean(channel.values[v].y());
            uvs[v] = gltf_uv(channel, v);
        }
    }
    for (const assbin::VertexStream<assbin::Color4>& set : mesh.color_sets) {
        if (set.values.size() != n) break;
        std::vector<Vec4>& colors = source.colors.emplace_back(n);
        for (size_t v = 0; v < n; ++v) {
            for (int c = 0; c < 4; ++c) {
                const float value = clean(set.values[v][c]);
                const float kept = std::clamp(value, 0.0f, 1.0f);
                tally.clamped_colours += kept != value;
                colors[v][static_cast<size_t>(c)] = kept;
            }
        }
    }
    return source;
}

struct Faces {
    std::vector<uint32_t> triangles, lines, points; // source vertex indices
};

// The mesh's sorted faces (sort_faces.cpp, the triangles AEM gets too), taken from the prepared
// scene; a mesh of vertices without faces (a point cloud) is drawn as its finite vertices' points.
Faces take_faces(Build& build, uint32_t m, const SourceVertices& source) {
    detail::MeshFaces& sorted = build.faces[m];
    Faces faces;
    if (sorted.faceless) {
        for (uint32_t v = 0; v < source.positions.size(); ++v) {
            const Vec3& p = source.positions[v];
            if (std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2])) faces.points.push_back(v);
        }
        return faces;
    }
    const detail::FaceTally& tally = sorted.tally;
    build.stats.empty_faces += tally.empty;
    build.stats.faces_out_of_range += tally.out_of_range + tally.small_out_of_range;
    build.stats.faces_non_finite += tally.non_finite + tally.small_non_finite;
    build.stats.polygons_triangulated += tally.polygons;
    faces.triangles = sorted.take_triangles();
    faces.lines = std::move(sorted.lines);
    faces.points = std::move(sorted.points);
    sorted = detail::MeshFaces{};
    return faces;
}

// The vertices `indices` use, in first-use order, with `indices` renumbered to them.
// `bad`, when the source has bad normals, is set per gathered vertex.
Streams gather(const SourceVertices& source, std::vector<uint32_t>& indices, bool with_normals,
               std::vector<uint8_t>* bad) {
    std::vector<uint32_t> local(source.positions.size(), UINT32_MAX);
    std::vector<uint32_t> used;
    for (uint32_t& index : indices) {
        if (local[index] == UINT32_MAX) {
            local[index] = static_cast<uint32_t>(used.size());
            used.push_back(index);
        }
        index = local[index];
    }
    Streams out;
    const auto pick = [&](const auto& from, auto& to) {
        if (from.empty()) return;
        to.resize(used.size());
        for (size_t k = 0; k < used.size(); ++k)
            to[k] = from[used[k]];
    };
    pick(source.positions, out.positions);
    if (with_normals) pick(source.normals, out.normals);
    out.uvs.resize(source.uvs.size());
    for (size_t s = 0; s < source.uvs.size(); ++s)
        pick(source.uvs[s], out.uvs[s]);
    out.colors.resize(source.colors.size());
    for (size_t s = 0; s < source.colors.size(); ++s)
        pick(source.colors[s], out.colors[s]);
    pick(source.joints, out.joints);
    pick(source.weights, out.weights);
    out.origin = used;
    bad->clear();
    if (with_normals &&
        std::find(source.bad_normal.begin(), source.bad_normal.end(), uint8_t{1}) != source.bad_normal.end())
        pick(source.bad_normal, *bad);
    return out;
}

// A unit normal for the vertices whose dump normal was zero or not finite: the sum of the
// area-weighted normals of the triangles using them (else +Z). Counted.
void repair_normals(Streams& streams, const std::vector<uint32_t>& triangles, const std::vector<uint8_t>& bad,
                    size_t& repaired) {
    if (std::find(bad.begin(), bad.end(), uint8_t{1}) == bad.end()) return;
    std::vector<Eigen::Vector3d> sums(streams.size(), Eigen::Vector3d::Zero());
    const auto at = [&](uint32_t i) {
        return Eigen::Vector3d(streams.positions[i][0], streams.positions[i][1], streams.positions[i][2]);
    };
    for (size_t t = 0; t + 2 < triangles.size(); t += 3) {
        const Eigen::Vector3d normal =
            (at(triangles[t + 1]) - at(triangles[t])).cross(at(triangles[t + 2]) - at(triangles[t]));
        for (size_t k = 0; k < 3; ++k)
            sums[triangles[t + k]] += normal;
    }
    for (size_t v = 0; v < streams.size(); ++v) {
        if (!bad[v]) continue;
        ++repaired;
        const double length = sums[v].norm();
        const Eigen::Vector3d unit = std::isfinite(length) && length > 0 ? Eigen::Vector3d(sums[v] / length)
                                                                         : Eigen::Vector3d::UnitZ();
        streams.normals[v] = {float(unit.x()), float(unit.y()), float(unit.z())};
    }
}

// MikkTSpace frames (the same code as AEM's, output_tangents.cpp) over the normal map's UV set, in
// glTF's UV space; a vertex whose corners fall in different MikkTSpace groups is split.
void add_tangents(Streams& streams, std::vector<uint32_t>& triangles, size_t set, size_t& split) {
    std::vector<aem::Vertex> vertices(streams.size());
    for (size_t v = 0; v < streams.size(); ++v) {
        vertices[v].position = Eigen::Vector3f(streams.positions[v].data());
        vertices[v].normal = Eigen::Vector3f(streams.normals[v].data());
        vertices[v].uv = Eigen::Vector2f(streams.uvs[set][v][0], streams.uvs[set][v][1]);
    }
    const std::vector<uint8_t> wanted(vertices.size(), 1);
    const std::vector<uint32_t> copies = detail::write_tangent_frames(vertices, triangles, wanted, true);
    for (const uint32_t source : copies)
        streams.duplicate(source);
    split += copies.size();
    streams.tangents.resize(vertices.size());
    for (size_t v = 0; v < vertices.size(); ++v) {
        const aem::Vertex& vertex = vertices[v];
        Eigen::Vector3f tangent = vertex.tangent;
        const float length = tangent.norm();
        if (!std::isfinite(length) || length < 1e-6f) {
            tangent = any_perpendicular(vertex.normal);
        } else {
            tangent /= length;
        }
        // MikkTSpace ran on glTF's flipped UVs (v' = 1 - v), where its bitangent points down the
        // image; glTF's normal textures are +Y up (bitangent = cross(normal, tangent) * w pointing up
        // the image), so w is the opposite of MikkTSpace's sign, as glTF-Transform's tangents() writes
        // it (glTF-Sample-Models issue 174; tests/gltf/tangents.js holds every corner to it).
        const float w = vertex.normal.cross(tangent).dot(vertex.bitangent) < 0 ? 1.0f : -1.0f;
        streams.tangents[v] = {tangent.x(), tangent.y(), tangent.z(), w};
    }
}

// Positions moved and scaled into the unit cube, for meshoptimizer's overdraw order (which works
// in float on raw values, where huge coordinates would overflow).
std::vector<float> unit_cube(const std::vector<Vec3>& positions) {
    Eigen::Vector3d lo = Eigen::Vector3d::Constant(std::numeric_limits<double>::max());
    Eigen::Vector3d hi = -lo;
    for (const Vec3& p : positions) {
        for (int c = 0; c < 3; ++c) {
            lo[c] = std::min(lo[c], double(p[static_cast<size_t>(c)]));
            hi[c] = std::max(hi[c], double(p[static_cast<size_t>(c)]));
        }
    }
    const double extent = std::max((hi - lo).maxCoeff(), 1e-30);
    std::vector<float> out(positions.size() * 3);
    for (size_t v = 0; v < positions.size(); ++v) {
        for (size_t c = 0; c < 3; ++c)
            out[3 * v + c] = float((double(positions[v][c]) - lo[static_cast<int>(c)]) / extent);
    }
    return out;
}

// Weld (identical vertices over every stream become one), then vertex-cache order (Forsyth, or
// Tipsify where Forsyth would not stay linear), overdraw order and first-use vertex order.
void optimize(Streams& streams, std::vector<uint32_t>& indices, ConvertStats& stats) {
    std::vector<meshopt_Stream> described;
    streams.for_each_stream([&](auto& stream) {
        if (stream.empty()) return;
        using Element = typename std::decay_t<decltype(stream)>::value_type;
        described.push_back({stream.data(), sizeof(Element), sizeof(Element)});
    });
    const size_t count = streams.size();
    stats.source_vertices_transformed +=
        meshopt_analyzeVertexCache(indices.data(), indices.size(), count, detail::kCacheSize, 0, 0)
            .vertices_transformed;
    std::vector<uint32_t> remap(count);
    const size_t welded = meshopt_generateVertexRemapMulti(remap.data(), indices.data(), indices.size(),
                                                           count, described.data(), described.size());
    meshopt_remapIndexBuffer(indices.data(), indices.data(), indices.size(), remap.data());
    const auto apply = [&](auto& stream, size_t new_count) {
        if (stream.empty()) return;
        using Element = typename std::decay_t<decltype(stream)>::value_type;
        std::vector<Element> out(new_count);
        meshopt_remapVertexBuffer(out.data(), stream.data(), stream.size(), sizeof(Element), remap.data());
        stream.swap(out);
    };
    streams.for_each_stream([&](auto& stream) { apply(stream, welded); });
    apply(streams.origin, welded); // one of the welded vertices' origins: they are equal in every attribute
    std::vector<uint32_t> ordered(indices.size()), valence;
    if (detail::forsyth_order_is_linear(indices, welded, valence)) {
        meshopt_optimizeVertexCache(ordered.data(), indices.data(), indices.size(), welded);
    } else {
        meshopt_optimizeVertexCacheFifo(ordered.data(), indices.data(), indices.size(), welded,
                                        detail::kCacheSize);
        ++stats.meshes_ordered_linearly;
    }
    const std::vector<float> cube = unit_cube(streams.positions);
    meshopt_optimizeOverdraw(indices.data(), ordered.data(), ordered.size(), cube.data(), welded,
                             3 * sizeof(float), detail::kOverdrawThreshold);
    remap.resize(welded);
    const size_t used =
        meshopt_optimizeVertexFetchRemap(remap.data(), indices.data(), indices.size(), welded);
    meshopt_remapIndexBuffer(indices.data(), indices.data(), indices.size(), remap.data());
    streams.for_each_stream([&](auto& stream) { apply(stream, used); });
    apply(streams.origin, used);
}

// A box of finite positions (empty while lo > hi).
struct Box {
    Eigen::Vector3d lo = Eigen::Vector3d::Constant(std::numeric_limits<double>::max());
    Eigen::Vector3d hi = -lo;
    void add(const Box& other) {
        lo = lo.cwiseMin(other.lo);
        hi = hi.cwiseMax(other.hi);
    }
    bool empty() const { return !(lo.array() <= hi.array()).all(); }
};

Box finite_box(const assbin::Mesh& mesh) {
    Box box;
    if (!mesh.positions) return box;
    for (const assbin::Vec3& p : mesh.positions->values) {
        const Eigen::Vector3d v = p.cast<double>();
        if (!v.allFinite()) continue;
        box.lo = box.lo.cwiseMin(v);
        box.hi = box.hi.cwiseMax(v);
    }
    return box;
}

// --quantize: the box each dump mesh's positions are quantized on. A skin folds its mesh's
// dequantization into its inverse bind matrices, so two skins that share a joint would give it two
// matrices (Blender's import, guessing the bind pose from them, then moves vertices at every frame):
// meshes that share a joint node — a bone's, or the placing node of their unweighted vertices — are
// quantized on the union of their boxes, and their folded matrices agree. Union-find over the meshes
// by joint node: linear in the bones and references.
std::vector<Box> quantization_boxes(const Build& build) {
    const assbin::Scene& scene = build.scene;
    std::vector<uint32_t> parent(scene.meshes.size());
    for (uint32_t m = 0; m < parent.size(); ++m)
        parent[m] = m;
    const auto find = [&](uint32_t m) {
        while (parent[m] != m)
            m = parent[m] = parent[parent[m]];
        return m;
    };
    std::unordered_map<uint32_t, uint32_t> mesh_of_joint;
    const auto share = [&](uint32_t node, uint32_t m) {
        const auto [seen, fresh] = mesh_of_joint.emplace(node, m);
        if (!fresh) parent[find(m)] = find(seen->second);
    };
    std::vector<uint8_t> skinned(scene.meshes.size(), 0);
    for (uint32_t m = 0; m < scene.meshes.size(); ++m) {
        for (const detail::BoneTarget& target : build.prepared.bone_targets[m]) {
            if (target.node < 0) continue;
            skinned[m] = 1;
            share(static_cast<uint32_t>(target.node), m);
        }
    }
    for (const detail::MeshReference& reference : build.graph.references)
        if (reference.mesh < skinned.size() && skinned[reference.mesh]) share(reference.node, reference.mesh);
    std::vector<Box> own(scene.meshes.size()), group(scene.meshes.size());
    for (uint32_t m = 0; m < scene.meshes.size(); ++m) {
        own[m] = finite_box(scene.meshes[m]);
        group[find(m)].add(own[m]);
    }
    for (uint32_t m = 0; m < scene.meshes.size(); ++m)
        own[m] = group[find(m)];
    return own;
}

// The grid positions are quantized on: the box (quantization_boxes), one step for every axis (a
// uniform scale keeps normals and skins right), 2^14 - 1 steps across its longest side.
void set_dequantization(const Box& box, MeshOut& out) {
    if (box.empty()) return;
    const double extent = (box.hi - box.lo).maxCoeff();
    out.dequantize_offset = box.lo;
    out.dequantize_scale = extent > 0 ? extent / ((1 << 14) - 1) : 1.0;
}

// KHR_mesh_quantization's forms (gltfpack's bit counts): each returns the attribute's accessor.
template <size_t N>
std::vector<int8_t> signed_bytes(const std::vector<std::array<float, N>>& values) {
    std::vector<int8_t> out(values.size() * N);
    for (size_t e = 0; e < values.size(); ++e)
        for (size_t c = 0; c < N; ++c)
            out[e * N + c] = static_cast<int8_t>(std::lround(std::clamp(values[e][c], -1.0f, 1.0f) * 127.0f));
    return out;
}

uint32_t quantized_positions(Document& doc, const std::vector<Vec3>& positions, const MeshOut& mesh) {
    std::vector<uint16_t> q(positions.size() * 3);
    for (size_t v = 0; v < positions.size(); ++v)
        for (size_t c = 0; c < 3; ++c) {
            const double value =
                (positions[v][c] - mesh.dequantize_offset[static_cast<int>(c)]) / mesh.dequantize_scale;
            q[3 * v + c] = static_cast<uint16_t>(std::clamp<long>(std::lround(value), 0, (1 << 14) - 1));
        }
    return doc.add_padded_accessor(std::span<const uint16_t>(q), kUnsignedShort, "VEC3", 3, true, false);
}

// UVs as 12-bit steps in normalized shorts: across 0..1, or across the (material, set) range its
// textures' transforms carry (`range`); nullopt (kept as floats) when neither holds every UV.
std::optional<uint32_t> quantized_uvs(Document& doc, const std::vector<Vec2>& uvs, const UvRange* range) {
    std::vector<uint16_t> q(uvs.size() * 2);
    for (size_t v = 0; v < uvs.size(); ++v)
        for (size_t c = 0; c < 2; ++c) {
            double u = uvs[v][c];
            if (range) u = std::clamp((u - range->lo[c]) / range->extent(c), 0.0, 1.0); // within it
            if (!(u >= 0.0 && u <= 1.0)) return std::nullopt;
            q[2 * v + c] = static_cast<uint16_t>(std::lround(std::lround(u * 4095.0) / 4095.0 * 65535.0));
        }
    return doc.add_accessor(std::span<const uint16_t>(q), kUnsignedShort, "VEC2", 2, kArrayBuffer, false,
                            true);
}

// Weights as normalized 16-bit values that still sum to exactly 65,535 (the rounding's remainder on
// the largest; 8 bits, gltfpack's choice, moves skinned vertices by up to 1e-3 of a model's size).
// A joint whose weight rounds to 0 is set to joint 0 (the validator asks for no joint without weight).
uint32_t quantized_weights(Document& doc, const std::vector<Vec4>& weights, std::vector<Joints>& joints) {
    std::vector<uint16_t> q(weights.size() * 4);
    for (size_t v = 0; v < weights.size(); ++v) {
        long sum = 0;
        size_t largest = 0;
        for (size_t k = 0; k < 4; ++k) {
            q[4 * v + k] =
                static_cast<uint16_t>(std::lround(std::clamp(weights[v][k], 0.0f, 1.0f) * 65535.0f));
            sum += q[4 * v + k];
            if (weights[v][k] > weights[v][largest]) largest = k;
        }
        q[4 * v + largest] = static_cast<uint16_t>(q[4 * v + largest] + 65535 - sum);
        for (size_t k = 0; k < 4; ++k)
            if (q[4 * v + k] == 0) joints[v][k] = 0;
    }
    return doc.add_accessor(std::span<const uint16_t>(q), kUnsignedShort, "VEC4", 4, kArrayBuffer, false,
                            true);
}

std::string write_primitive(Build& build, Streams& streams, const std::vector<uint32_t>& indices, int mode,
                            uint32_t material, uint32_t dump_material, const MeshOut& mesh) {
    Document& doc = build.doc;
    const bool quantize = build.options.quantize;
    const auto floats = [](const auto& stream) {
        return std::span<const float>(stream.front().data(), stream.size() * stream.front().size());
    };
    std::string attributes =
        "\"POSITION\":" + std::to_string(quantize ? quantized_positions(doc, streams.positions, mesh)
                                                  : doc.add_accessor(floats(streams.positions), kFloat,
                                                                     "VEC3", 3, kArrayBuffer, true));
    if (quantize) {
        if (!streams.normals.empty()) {
            const std::vector<int8_t> q = signed_bytes(streams.normals);
            attributes += ",\"NORMAL\":" + std::to_string(doc.add_padded_accessor(
                                               std::span<const int8_t>(q), kByte, "VEC3", 3, false, true));
        }
        if (!streams.tangents.empty()) {
            const std::vector<int8_t> q = signed_bytes(streams.tangents);
            attributes +=
                ",\"TANGENT\":" + std::to_string(doc.add_accessor(std::span<const int8_t>(q), kByte, "VEC4",
                                                                  4, kArrayBuffer, false, true));
        }
        for (size_t s = 0; s < streams.uvs.size(); ++s) {
            const UvRange* range = s < assbin::kMaxUvChannels && build.uv_ranges[dump_material][s].carried
                                       ? &build.uv_ranges[dump_material][s]
                                       : nullptr;
            const std::optional<uint32_t> q = quantized_uvs(doc, streams.uvs[s], range);
            attributes +=
                ",\"TEXCOORD_" + std::to_string(s) + "\":" +
                std::to_string(q ? *q
                                 : doc.add_accessor(floats(streams.uvs[s]), kFloat, "VEC2", 2, kArrayBuffer));
        }
        for (size_t s = 0; s < streams.colors.size(); ++s) {
            std::vector<uint8_t> q(streams.colors[s].size() * 4);
            for (size_t v = 0; v < streams.colors[s].size(); ++v)
                for (size_t k = 0; k < 4; ++k)
                    q[4 * v + k] = static_cast<uint8_t>(std::lround(streams.colors[s][v][k] * 255.0f));
            attributes += ",\"COLOR_" + std::to_string(s) + "\":" +
                          std::to_string(doc.add_accessor(std::span<const uint8_t>(q), kUnsignedByte, "VEC4",
                                                          4, kArrayBuffer, false, true));
        }
    }
    if (!quantize) {
        if (!streams.normals.empty())
            attributes += ",\"NORMAL\":" + std::to_string(doc.add_accessor(floats(streams.normals), kFloat,
                                                                           "VEC3", 3, kArrayBuffer));
        if (!streams.tangents.empty())
            attributes += ",\"TANGENT\":" + std::to_string(doc.add_accessor(floats(streams.tangents), kFloat,
                                                                            "VEC4", 4, kArrayBuffer));
        for (size_t s = 0; s < streams.uvs.size(); ++s)
            attributes +=
                ",\"TEXCOORD_" + std::to_string(s) + "\":" +
                std::to_string(doc.add_accessor(floats(streams.uvs[s]), kFloat, "VEC2", 2, kArrayBuffer));
        for (size_t s = 0; s < streams.colors.size(); ++s)
            attributes +=
                ",\"COLOR_" + std::to_string(s) + "\":" +
                std::to_string(doc.add_accessor(floats(streams.colors[s]), kFloat, "VEC4", 4, kArrayBuffer));
    }
    if (!streams.joints.empty()) {
        const uint32_t weights =
            quantize ? quantized_weights(doc, streams.weights, streams.joints)
                     : doc.add_accessor(floats(streams.weights), kFloat, "VEC4", 4, kArrayBuffer);
        uint16_t largest = 0;
        for (const Joints& j : streams.joints)
            largest = std::max({largest, j[0], j[1], j[2], j[3]});
        uint32_t accessor = 0;
        if (largest < 256) {
            std::vector<uint8_t> narrow(streams.joints.size() * 4);
            for (size_t v = 0; v < streams.joints.size(); ++v)
                for (size_t k = 0; k < 4; ++k)
                    narrow[4 * v + k] = static_cast<uint8_t>(streams.joints[v][k]);
            accessor =
                doc.add_accessor(std::span<const uint8_t>(narrow), kUnsignedByte, "VEC4", 4, kArrayBuffer);
        } else {
            accessor = doc.add_accessor(
                std::span<const uint16_t>(streams.joints.front().data(), streams.joints.size() * 4),
                kUnsignedShort, "VEC4", 4, kArrayBuffer);
        }
        attributes +=
            ",\"JOINTS_0\":" + std::to_string(accessor) + ",\"WEIGHTS_0\":" + std::to_string(weights);
    }
    std::string primitive = "\"attributes\":{" + attributes + "}";
    if (streams.size() < 65536) { // 65,535 is primitive restart: never an index here
        std::vector<uint16_t> narrow(indices.begin(), indices.end());
        primitive += ",\"indices\":" +
                     std::to_string(doc.add_accessor(std::span<const uint16_t>(narrow), kUnsignedShort,
                                                     "SCALAR", 1, kElementArrayBuffer));
    } else {
        primitive += ",\"indices\":" +
                     std::to_string(doc.add_accessor(std::span<const uint32_t>(indices), kUnsignedInt,
                                                     "SCALAR", 1, kElementArrayBuffer));
    }
    if (mode == 4) build.doc.mark_last_view_triangles(); // the index view just written
    if (build.options.record_vertex_origins) build.origins.back().push_back(streams.origin);
    primitive += ",\"material\":" + std::to_string(material);
    if (mode != 4) primitive += ",\"mode\":" + std::to_string(mode);
    return primitive;
}

} // namespace

void write_meshes(Build& build) {
    if (build.options.quantize) measure_uv_ranges(build);
    Materials materials(build);
    materials.write_every_material();
    Tally tally;
    size_t split = 0;
    build.meshes.assign(build.scene.meshes.size(), MeshOut{});
    const std::vector<Box> boxes = build.options.quantize ? quantization_boxes(build) : std::vector<Box>{};
    for (uint32_t m = 0; m < build.scene.meshes.size(); ++m) {
        const assbin::Mesh& mesh = build.scene.meshes[m];
        MeshOut& out = build.meshes[m];
        if (!mesh.positions || mesh.positions->values.empty()) continue;
        SourceVertices source = read_source(build, m, tally);
        skin_mesh(build, m, source, out, tally);
        Faces faces = take_faces(build, m, source);
        if (build.options.quantize) set_dequantization(boxes[m], out);
        const uint32_t material = mesh.material_index; // checked by refuse_broken_references
        std::vector<std::string> primitives;
        if (build.options.record_vertex_origins) build.origins.emplace_back();
        if (!faces.triangles.empty()) {
            std::vector<uint8_t> bad;
            Streams streams = gather(source, faces.triangles, true, &bad);
            if (!bad.empty()) repair_normals(streams, faces.triangles, bad, tally.bad_normals);
            build.stats.source_vertices += streams.size();
            build.stats.triangles += faces.triangles.size() / 3;
            const std::optional<uint32_t> normal_set = materials.normal_map_uv_set(material);
            if (!streams.normals.empty() && normal_set && *normal_set < streams.uvs.size())
                add_tangents(streams, faces.triangles, *normal_set, split);
            if (build.options.optimize) {
                optimize(streams, faces.triangles, build.stats);
            } else {
                const size_t transformed =
                    meshopt_analyzeVertexCache(faces.triangles.data(), faces.triangles.size(), streams.size(),
                                               detail::kCacheSize, 0, 0)
                        .vertices_transformed;
                build.stats.source_vertices_transformed += transformed;
            }
            build.stats.vertices_transformed +=
                meshopt_analyzeVertexCache(faces.triangles.data(), faces.triangles.size(), streams.size(),
                                           detail::kCacheSize, 0, 0)
                    .vertices_transformed;
            build.stats.vertices += streams.size();
            primitives.push_back(write_primitive(
                build, streams, faces.triangles, 4,
                materials.for_primitive(material, static_cast<uint32_t>(streams.uvs.size())), material, out));
        }
        for (auto [indices, mode] : {std::pair{&faces.lines, 1}, std::pair{&faces.points, 0}}) {
            if (indices->empty()) continue;
            std::vector<uint8_t> bad;
            Streams streams = gather(source, *indices, !source.normals.empty(), &bad);
            if (!bad.empty()) repair_normals(streams, {}, bad, tally.bad_normals);
            build.stats.vertices += streams.size();
            build.stats.source_vertices += streams.size();
            (mode == 1 ? build.stats.lines : build.stats.points) += indices->size() / (mode == 1 ? 2 : 1);
            primitives.push_back(write_primitive(
                build, streams, *indices, mode,
                materials.for_primitive(material, static_cast<uint32_t>(streams.uvs.size())), material, out));
        }
        if (primitives.empty()) {
            ++build.stats.meshes_omitted;
            if (build.options.record_vertex_origins) build.origins.pop_back();
            continue;
        }
        std::string object = "\"primitives\":[";
        for (size_t p = 0; p < primitives.size(); ++p)
            object += (p ? ",{" : "{") + primitives[p] + "}";
        object += "]";
        out.mesh = static_cast<int32_t>(build.doc.add(build.doc.meshes, object));
        build.mesh_sources.push_back(m);
        ++build.stats.meshes;
        build.stats.source_meshes += 1;
    }
    build.stats.vertices_split_for_tangents = split;
    build.stats.vertices_lost_influences = tally.lost_influences;
    const auto say = [&](size_t count, const std::string& text) {
        if (count > 0) build.report.warn(text);
    };
    say(tally.bad_normals, detail::count_of(tally.bad_normals, "normal", "normals") +
                               " of zero length or not finite replaced by the normal of the triangles "
                               "around the vertex (glTF normals are unit length)");
    say(tally.non_finite_values,
        detail::count_of(tally.non_finite_values, "UV or colour value", "UV or colour values") +
            " not finite written as 0");
    say(tally.clamped_colours,
        detail::count_of(tally.clamped_colours, "vertex colour component", "vertex colour components") +
            " outside 0..1 clamped (glTF colours are 0..1)");
    say(tally.lost_influences, detail::count_of(tally.lost_influences, "vertex had", "vertices had") +
                                   " more than four bone weights: the four largest are kept and renormalised "
                                   "(glTF's JOINTS_0/WEIGHTS_0)");
    say(tally.unweighted, detail::count_of(tally.unweighted, "skinned vertex has", "skinned vertices have") +
                              " no bone weight: such a vertex follows the node that places its mesh");
}

} // namespace assbin::converter::gltf
