#include "scene_facts.hpp"

#include <run_tasks.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>

namespace assbin::cli {

namespace {

std::string primitive_names(uint32_t types) {
    static constexpr std::pair<uint32_t, const char*> kNames[] = {
        {kPrimitivePoint, "point"},           {kPrimitiveLine, "line"},
        {kPrimitiveTriangle, "tri"},          {kPrimitivePolygon, "polygon"},
        {kPrimitiveNgonEncoding, "ngon-enc"},
    };
    std::string names;
    for (const auto& [bit, name] : kNames) {
        if (!(types & bit)) continue;
        if (!names.empty()) names += '|';
        names += name;
    }
    return names.empty() ? std::string("0") : names;
}

MeshFacts mesh_facts(const Mesh& mesh, bool shortened) {
    MeshFacts facts;
    for (const Bone& bone : mesh.bones)
        facts.bone_weights += bone.weight_count;
    facts.primitive_names = primitive_names(mesh.primitive_types);
    facts.has_face_data = !shortened;
    if (shortened) return facts;
    // One pass over the faces (copied, or left in the file by ReadOptions::array_views): sizes
    // counted in an array and named once at the end, and the largest index.
    uint64_t sizes[5] = {};
    uint32_t max_index = 0;
    bool any_index = false;
    if (const std::optional<FaceList::Uniform> uniform = mesh.faces.uniform()) {
        sizes[std::min<size_t>(uniform->size, 4)] = uniform->count; // faces of one size: no visit each
        max_index = uniform->max_index;
        any_index = uniform->size > 0;
    } else {
        mesh.faces.for_each([&](size_t, std::span<const uint32_t> face) {
            ++sizes[std::min<size_t>(face.size(), 4)];
            for (const uint32_t index : face)
                max_index = std::max(max_index, index);
            any_index = any_index || !face.empty();
        });
    }
    for (uint32_t size = 0; size < 5; ++size) {
        if (sizes[size] != 0)
            facts.face_sizes[size == 4 ? std::string("n") : std::to_string(size)] = sizes[size];
    }
    if (any_index) facts.max_index = max_index;
    return facts;
}

void grow(std::optional<Bounds<Vec3>>& bounds, const Vec3& point) {
    if (!point.allFinite()) return;
    if (!bounds) {
        bounds = Bounds<Vec3>{point, point};
        return;
    }
    bounds->min = bounds->min.cwiseMin(point);
    bounds->max = bounds->max.cwiseMax(point);
}

Vec3 transform_point(const Eigen::Matrix4f& m, const Vec3& p) {
    return (m * p.homogeneous()).head<3>();
}

// The points that grow the world bounds by one placed mesh: its positions' own box (two corners),
// or in a shortened dump the eight corners of its stored bounds; none when it has no positions.
std::vector<Vec3> placed_mesh_points(const Mesh& mesh, const Eigen::Matrix4f& global) {
    if (!mesh.positions) return {};
    const FileRecords<Vec3> positions = mesh.positions->records(); // copied or left in the file
    if (!positions.empty()) {
        // The mesh's own box in a tight loop; merged later in node order with the others: the same
        // minimum and maximum (even of signed zeros: a later equal value never replaces an earlier
        // one either way).
        const float infinity = std::numeric_limits<float>::infinity();
        Vec3 low = Vec3::Constant(infinity), high = Vec3::Constant(-infinity);
        bool any = false;
        for (size_t v = 0; v < positions.size(); ++v) {
            const Vec3 p = transform_point(global, positions[v]);
            if (!p.allFinite()) continue;
            low = low.cwiseMin(p);
            high = high.cwiseMax(p);
            any = true;
        }
        if (!any) return {};
        return {low, high};
    }
    if (mesh.vertex_count == 0) return {};
    const Bounds<Vec3>& box = mesh.positions->bounds;
    std::vector<Vec3> corners;
    for (int corner = 0; corner < 8; ++corner) {
        const Vec3 p((corner & 1) ? box.max.x() : box.min.x(), (corner & 2) ? box.max.y() : box.min.y(),
                     (corner & 4) ? box.max.z() : box.min.z());
        corners.push_back(transform_point(global, p));
    }
    return corners;
}

struct Placement {
    uint32_t mesh;
    size_t node;
};

} // namespace

SceneFacts compute_facts(const Scene& scene, unsigned threads) {
    SceneFacts facts;
    for (const Mesh& mesh : scene.meshes) {
        facts.vertices += mesh.vertex_count;
        facts.faces += mesh.face_count;
        facts.bones += mesh.bones.size();
    }
    for (const Animation& animation : scene.animations)
        facts.animation_channels += animation.channels.size();
    // Nodes are pre-order, so a parent's global transform and depth are known before its children's.
    std::vector<Eigen::Matrix4f> globals(scene.nodes.size());
    std::vector<unsigned> depths(scene.nodes.size());
    std::vector<Placement> placements;
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        const Node& node = scene.nodes[n];
        const Eigen::Matrix4f local = node.transform;
        const bool has_parent = node.parent >= 0;
        globals[n] = has_parent ? Eigen::Matrix4f(globals[static_cast<size_t>(node.parent)] * local) : local;
        depths[n] = has_parent ? depths[static_cast<size_t>(node.parent)] + 1 : 1;
        facts.max_node_depth = std::max(facts.max_node_depth, depths[n]);
        facts.metadata_entries += node.metadata.size();
        for (const MetadataEntry& entry : node.metadata)
            ++facts.metadata_types[entry.type];
        for (uint32_t mesh : node.meshes) {
            if (mesh < scene.meshes.size()) placements.push_back({mesh, n});
        }
    }
    // The per-element work, one task per mesh and one per placed mesh, merged in order after.
    const size_t mesh_count = scene.meshes.size();
    facts.meshes.resize(mesh_count);
    std::vector<std::vector<Vec3>> placed_points(placements.size());
    assbin_common::run_tasks(mesh_count + placements.size(), threads, [&](size_t task) {
        if (task < mesh_count) {
            facts.meshes[task] = mesh_facts(scene.meshes[task], scene.is_shortened());
        } else {
            const Placement& placed = placements[task - mesh_count];
            placed_points[task - mesh_count] =
                placed_mesh_points(scene.meshes[placed.mesh], globals[placed.node]);
        }
    });
    for (const std::vector<Vec3>& points : placed_points) {
        for (const Vec3& point : points)
            grow(facts.world_bounds, point);
    }
    return facts;
}

const char* light_type_name(uint32_t type) {
    switch (static_cast<LightType>(type)) {
    case LightType::Undefined:
        return "undefined";
    case LightType::Directional:
        return "directional";
    case LightType::Point:
        return "point";
    case LightType::Spot:
        return "spot";
    case LightType::Ambient:
        return "ambient";
    case LightType::Area:
        return "area";
    }
    return "unknown";
}

namespace {

std::string flag_names(uint32_t flags, std::initializer_list<std::pair<uint32_t, const char*>> names) {
    std::string text;
    for (const auto& [bit, name] : names) {
        if (!(flags & bit)) continue;
        if (!text.empty()) text += ", ";
        text += name;
    }
    return text;
}

} // namespace

std::string compile_flag_names(uint32_t flags) {
    return flag_names(flags, {{kCompileShared, "shared"},
                              {kCompileStlport, "stlport"},
                              {kCompileDebug, "debug"},
                              {kCompileBoostWorkaround, "no-boost"},
                              {kCompileSingleThreaded, "single-threaded"},
                              {kCompileDoublePrecision, "double"}});
}

std::string scene_flag_names(uint32_t flags) {
    return flag_names(flags, {{kSceneIncomplete, "incomplete"},
                              {kSceneValidated, "validated"},
                              {kSceneValidationWarning, "validation-warning"},
                              {kSceneNonVerboseFormat, "non-verbose"},
                              {kSceneTerrain, "terrain"},
                              {kSceneAllowShared, "allow-shared"}});
}

std::string hex(uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

} // namespace assbin::cli
