// The glTF checks (gltf_checks.hpp).
#include "gltf_checks.hpp"
#include "assimp_oracle.hpp"

#include <algorithm>
#include <set>

namespace assbin_test {

using assbin::converter::ConvertResult;

namespace {

// What the dump holds, counted from the scene alone.
struct Expected {
    size_t triangles_min = 0, triangles_max = 0, lines = 0, points = 0;
};

Expected expected_faces(const assbin::Mesh& mesh) {
    Expected e;
    const size_t n = mesh.positions ? mesh.positions->values.size() : 0;
    if (mesh.faces.size() == 0) {
        for (size_t v = 0; v < n; ++v)
            e.points += mesh.positions->values[v].allFinite();
        return e;
    }
    for (size_t f = 0; f < mesh.faces.size(); ++f) {
        const auto face = mesh.faces.face(f);
        bool good = !face.empty();
        for (const uint32_t i : face)
            good = good && i < n && mesh.positions->values[i].allFinite();
        if (!good) continue;
        if (face.size() == 1) ++e.points;
        if (face.size() == 2) ++e.lines;
        if (face.size() == 3) ++e.triangles_min, ++e.triangles_max;
        if (face.size() > 3) e.triangles_max += face.size() - 2, e.triangles_min += 1;
    }
    return e;
}

double scene_size(const gltf::Document& doc, const gltf::Document::Pose& pose) {
    Eigen::Vector3d low = Eigen::Vector3d::Constant(1e300), high = -low;
    const nlohmann::json& nodes = doc.list("nodes");
    for (size_t n = 0; n < nodes.size(); ++n) {
        if (!nodes[n].contains("mesh")) continue;
        const size_t primitives = doc.json()["meshes"][nodes[n]["mesh"].get<size_t>()]["primitives"].size();
        for (size_t p = 0; p < primitives; ++p)
            for (const Eigen::Vector3d& v : doc.posed_vertices(pose, n, p)) {
                low = low.cwiseMin(v);
                high = high.cwiseMax(v);
            }
    }
    return std::max(1e-6, (high - low).norm());
}

} // namespace

// Why the glTF document does not hold what the dump holds, or empty.
std::string gltf_counts_differ(const assbin::Scene& scene, const ConvertResult& result,
                               const gltf::Document& doc) {
    const nlohmann::json& j = doc.json();
    const nlohmann::json meshes = j.value("meshes", nlohmann::json::array());
    if (meshes.size() != result.gltf_mesh_sources.size())
        return "mesh count differs from the writer's record";
    for (size_t g = 0; g < meshes.size(); ++g) {
        const assbin::Mesh& mesh = scene.meshes[result.gltf_mesh_sources[g]];
        const Expected want = expected_faces(mesh);
        Expected got;
        for (const nlohmann::json& p : meshes[g]["primitives"]) {
            const size_t indices = doc.accessor_count(p["indices"].get<size_t>());
            const int mode = p.value("mode", 4);
            (mode == 4   ? got.triangles_min
             : mode == 1 ? got.lines
                         : got.points) += indices / (mode == 4   ? 3
                                                     : mode == 1 ? 2
                                                                 : 1);
            const nlohmann::json& a = p["attributes"];
            size_t uvs = 0, colours = 0;
            while (a.contains("TEXCOORD_" + std::to_string(uvs)))
                ++uvs;
            while (a.contains("COLOR_" + std::to_string(colours)))
                ++colours;
            size_t want_uvs = 0, want_colours = 0;
            for (const auto& channel : mesh.uv_channels)
                want_uvs += channel.values.size() == mesh.positions->values.size();
            for (const auto& set : mesh.color_sets)
                want_colours += set.values.size() == mesh.positions->values.size();
            if (uvs != want_uvs || colours != want_colours)
                return "mesh " + std::to_string(result.gltf_mesh_sources[g]) + ": " + std::to_string(uvs) +
                       " TEXCOORD and " + std::to_string(colours) + " COLOR sets for the dump's " +
                       std::to_string(want_uvs) + " and " + std::to_string(want_colours);
        }
        if (got.triangles_min < want.triangles_min || got.triangles_min > want.triangles_max ||
            got.lines != want.lines || got.points != want.points)
            return "mesh " + std::to_string(result.gltf_mesh_sources[g]) + ": " +
                   std::to_string(got.triangles_min) + " triangles, " + std::to_string(got.lines) +
                   " lines, " + std::to_string(got.points) + " points for the dump's " +
                   std::to_string(want.triangles_min) + ".." + std::to_string(want.triangles_max) + ", " +
                   std::to_string(want.lines) + ", " + std::to_string(want.points);
    }
    // Every dump material, in order (glTF material m is dump material m; copies for primitives that
    // lack a UV set follow).
    const nlohmann::json materials = j.value("materials", nlohmann::json::array());
    if (materials.size() < scene.materials.size())
        return std::to_string(materials.size()) + " materials for the dump's " +
               std::to_string(scene.materials.size());
    for (size_t m = 0; m < scene.materials.size(); ++m) {
        const std::string name = scene.materials[m].name();
        const bool ascii = std::all_of(name.begin(), name.end(), [](char c) { return c > 0 && c < 0x7f; });
        if (ascii && materials[m].value("name", std::string()) != name) // other names: UTF-8 rules apply
            return "material " + std::to_string(m) + " is named '" +
                   materials[m].value("name", std::string()) + "', the dump's '" + name + "'";
    }
    // Joints: each skin's are distinct nodes.
    for (const nlohmann::json& skin : j.value("skins", nlohmann::json::array())) {
        std::set<size_t> joints;
        for (const nlohmann::json& joint : skin["joints"])
            joints.insert(joint.get<size_t>());
        if (joints.size() != skin["joints"].size()) return "a skin names one node twice";
    }
    size_t punctual = 0, cameras = 0;
    for (const assbin::Light& light : scene.lights)
        punctual += light.type >= 1 && light.type <= 3;
    for (const assbin::Camera& camera : scene.cameras)
        cameras += camera.horizontal_fov > 0 && camera.horizontal_fov < 3.14159f;
    const size_t lights =
        j.contains("extensions") ? j["extensions"]["KHR_lights_punctual"]["lights"].size() : size_t{0};
    if (lights != punctual)
        return std::to_string(lights) + " lights for the dump's " + std::to_string(punctual);
    if (j.value("cameras", nlohmann::json::array()).size() != cameras)
        return "cameras: " + std::to_string(j.value("cameras", nlohmann::json::array()).size()) +
               " for the dump's " + std::to_string(cameras);
    // Every dump node by name, in order (the writer may add nodes placing meshes, cameras, lights).
    const nlohmann::json nodes = j.value("nodes", nlohmann::json::array());
    size_t next = 0;
    for (const assbin::Node& node : scene.nodes) {
        while (next < nodes.size() && nodes[next].value("name", std::string()) != node.name)
            ++next;
        if (next == nodes.size()) return "dump node '" + node.name + "' is not among the glTF nodes in order";
        ++next;
    }
    // One channel per key track of each channel that drives a node (the first naming it).
    size_t want_channels = 0;
    for (const assbin::Animation& animation : scene.animations) {
        std::set<std::string> driven;
        for (const assbin::NodeChannel& channel : animation.channels) {
            const bool exists =
                std::any_of(scene.nodes.begin(), scene.nodes.end(),
                            [&](const assbin::Node& n) { return n.name == channel.node_name; });
            if (!exists || !driven.insert(channel.node_name).second) continue;
            want_channels += !channel.positions.keys.empty() + !channel.rotations.keys.empty() +
                             !channel.scalings.keys.empty();
        }
    }
    size_t channels = 0;
    for (const nlohmann::json& animation : j.value("animations", nlohmann::json::array()))
        channels += animation["channels"].size();
    if (channels != want_channels)
        return std::to_string(channels) + " animation channels for the dump's " +
               std::to_string(want_channels) + " key tracks";
    return {};
}

// The largest distance between the glTF pose and the oracle's, relative to the model's size, over
// the rest pose (skins acting: what a glTF viewer shows) and eight times of each animation.
std::string gltf_pose_differs(const assbin::Scene& scene, const ConvertResult& result,
                              const gltf::Document& doc) {
    const assbin_test::oracle::SceneEvaluator oracle(scene);
    const nlohmann::json& nodes = doc.list("nodes");
    const double size = scene_size(doc, doc.pose(std::nullopt, 0));
    std::string worst_where;
    double worst = 0;
    const auto compare = [&](std::optional<size_t> animation, double seconds) {
        // glTF viewers always skin: the rest pose is the oracle's with skins acting at the nodes'
        // rest transforms (the bind pose itself where a dump's offsets agree with them; the writer
        // warns where they do not).
        std::optional<size_t> gltf_animation;
        for (size_t g = 0; animation && g < result.gltf_animation_sources.size(); ++g)
            if (result.gltf_animation_sources[g] == *animation) gltf_animation = g;
        const auto pose = doc.pose(gltf_animation, seconds);
        auto expected = oracle.pose(animation, seconds);
        expected.animated = true;
        for (size_t n = 0; n < nodes.size(); ++n) {
            if (!nodes[n].contains("mesh")) continue;
            const size_t g = nodes[n]["mesh"].get<size_t>();
            const uint32_t mesh = result.gltf_mesh_sources[g];
            const auto node = static_cast<uint32_t>(result.gltf_node_sources[n]);
            for (size_t p = 0; p < result.gltf_origins[g].size(); ++p) {
                const std::vector<Eigen::Vector3d> posed = doc.posed_vertices(pose, n, p);
                for (size_t v = 0; v < posed.size(); ++v) {
                    const Eigen::Vector3d want =
                        oracle.vertex_position(expected, node, mesh, result.gltf_origins[g][p][v]);
                    const double error = (want - posed[v]).norm() / size;
                    if (error > worst) {
                        worst = error;
                        worst_where = "mesh " + std::to_string(mesh) + " vertex " +
                                      std::to_string(result.gltf_origins[g][p][v]) + " in " +
                                      (animation ? "animation " + std::to_string(*animation)
                                                 : std::string("the rest pose")) +
                                      " at " + std::to_string(seconds) + " s";
                    }
                }
            }
        }
    };
    compare(std::nullopt, 0);
    for (size_t a = 0; a < scene.animations.size(); ++a) {
        const double tps =
            scene.animations[a].ticks_per_second > 0 ? scene.animations[a].ticks_per_second : 25.0;
        const double d = scene.animations[a].duration / tps;
        for (const double t : {0.0, 0.15 * d, 0.3 * d, 0.5 * d, 0.7 * d, 0.9 * d, d, d + 0.5})
            compare(a, t);
    }
    if (worst <= 1e-4) return {};
    return "pose differs by " + std::to_string(worst) + " of the model's size at " + worst_where;
}

} // namespace assbin_test
