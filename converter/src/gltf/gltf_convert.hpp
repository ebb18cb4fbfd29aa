// What the glTF writer's concern files hand each other (docs/gltf.md says what goes where and why).
// Unlike AEM, glTF keeps the node tree: meshes stay in their own space, one glTF mesh per dump mesh,
// placed by the nodes that name it; skinned meshes hang from the scene root (glTF ignores a skinned
// mesh's own node transform), their joints the bone nodes, their inverse bind matrices the bones'
// offsets, so that glTF's skinning gives Assimp's pose.
#pragma once

#include "gltf/gltf_document.hpp"
#include "pipeline.hpp"

#include <Eigen/Geometry>

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace assbin::converter::gltf {

using detail::NodeGraph;
using detail::Report;

// One dump mesh as written: its glTF mesh, and for a skinned one the node each joint slot stands for.
struct MeshOut {
    int32_t mesh = -1;               // glTF mesh index; -1: nothing drawable was left
    bool skinned = false;            // its primitives carry JOINTS_0 / WEIGHTS_0
    std::vector<int32_t> joint_node; // per joint slot: the dump node, or -1 for the node placing the mesh
                                     // (vertices no bone weighs stay where that node puts them)
    std::vector<Eigen::Matrix4d> inverse_bind; // per joint slot with a node (the bone's offset)
    // options.quantize: positions are stored as integers q, the mesh's vertex is offset + scale · q;
    // identity otherwise. Applied by the node holding the mesh (or folded into a skin's matrices).
    Eigen::Vector3d dequantize_offset = Eigen::Vector3d::Zero();
    double dequantize_scale = 1;
};

// --quantize: the range of one UV set over every mesh a dump material draws. Where it leaves 0..1,
// that set is stored as 12-bit steps across the range and every texture of the material on the set
// carries the dequantization in its KHR_texture_transform (`carried`, set by the material writer; a
// set whose textures are rotated, or whose images are all missing, stays float).
struct UvRange {
    std::array<float, 2> lo = {std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
    std::array<float, 2> hi = {std::numeric_limits<float>::lowest(), std::numeric_limits<float>::lowest()};
    bool carried = false;
    bool leaves_unit_square() const { return lo[0] < 0 || lo[1] < 0 || hi[0] > 1 || hi[1] > 1; }
    double extent(size_t axis) const { return hi[axis] > lo[axis] ? double(hi[axis]) - lo[axis] : 1.0; }
};

// A glTF node before it is written (children are known only once every node is made).
struct Node {
    std::string name;
    Eigen::Vector3d translation = Eigen::Vector3d::Zero();
    Eigen::Quaterniond rotation = Eigen::Quaterniond::Identity();
    Eigen::Vector3d scale = Eigen::Vector3d::Ones();
    int32_t mesh = -1, skin = -1, camera = -1, light = -1;
    std::vector<uint32_t> children;
    int64_t source = -1; // the dump node it stands for (or places a mesh, camera or light of)
};

struct Build {
    Build(const assbin::Scene& s, const ConvertOptions& o, Report& r, ConvertStats& st,
          detail::PreparedScene& p)
        : scene(s), options(o), report(r), stats(st), graph(p.graph), channels(p.channels), faces(p.faces),
          weights(p.weights), prepared(p) {}

    const assbin::Scene& scene;
    const ConvertOptions& options;
    Report& report;
    ConvertStats& stats;
    const NodeGraph& graph;
    Document doc;
    const detail::ChannelTargets& channels;
    std::vector<detail::MeshFaces>& faces; // per dump mesh, sorted (write_meshes takes them)
    const std::vector<std::optional<detail::VertexWeights>>& weights; // per dump mesh with bones
    const detail::PreparedScene& prepared; // the whole of it (channel_keys reads the timing)
    std::vector<Node> nodes;               // glTF nodes, written last
    std::vector<MeshOut> meshes;           // per dump mesh
    // options.quantize: per dump material, per UV set (empty otherwise).
    std::vector<std::array<UvRange, assbin::kMaxUvChannels>> uv_ranges;
    std::vector<uint32_t> node_of;    // per dump node: its glTF node (TRS, or the outer of two)
    std::vector<uint32_t> content_of; // per dump node: the glTF node its children and meshes hang from
    std::vector<TextureFile>* files = nullptr; // .gltf: images beside it (nullptr: inside the .glb)
    std::string file_stem;                     // names of files beside a .gltf
    size_t inconsistent_skins = 0;             // skinned placements whose rest pose is not the bind pose
    // options.record_vertex_origins: per glTF mesh, per primitive, per vertex: the dump vertex.
    std::vector<std::vector<std::vector<uint32_t>>> origins;
    std::vector<uint32_t> mesh_sources;      // per glTF mesh: the dump mesh
    std::vector<uint32_t> animation_sources; // per glTF animation: the dump animation

    // Appends a node (as a child of glTF node `parent`, or a scene root for -1); returns its index.
    uint32_t add_node(Node node, int64_t parent) {
        nodes.push_back(std::move(node));
        const auto index = static_cast<uint32_t>(nodes.size() - 1);
        if (parent < 0)
            doc.scene_nodes.push_back(index);
        else
            nodes[static_cast<size_t>(parent)].children.push_back(index);
        return index;
    }
};

// A transform as a glTF node's translation, rotation and scale (the rotation in double, unit).
void set_transform(Node& node, const Eigen::Matrix4d& matrix);

// The one dump node of this name, or nullopt (none, or several: said by the caller).
std::optional<uint32_t> node_named(const Build& build, const std::string& name);

// gltf_meshes.cpp: every dump mesh as one glTF mesh (triangles, lines and points primitives),
// welded and ordered as AEM geometry is (with options.optimize). Fills build.meshes.
void write_meshes(Build& build);

// gltf_materials.cpp: the glTF material for dump material `material` as drawn by a primitive with
// `texcoord_sets` TEXCOORD attributes (a texture on a set the primitive lacks is left out, said once).
// Materials, textures and images are written on first use.
class Materials {
  public:
    explicit Materials(Build& build);
    ~Materials();
    uint32_t for_primitive(uint32_t material, uint32_t texcoord_sets);
    // The UV set of the dump material's normal map, or nullopt without one (its primitives get
    // tangents over that set).
    std::optional<uint32_t> normal_map_uv_set(uint32_t material) const;
    // Writes every dump material in order, as for a primitive with every UV set it uses: glTF material
    // m is dump material m (nothing is lost, and a viewer's material order is the dump's); the
    // copies for primitives that lack a set follow.
    void write_every_material();

  private:
    struct State;
    State* state_;
};

// gltf_animations.cpp: one glTF animation per dump animation.
void write_animations(Build& build);

// gltf_placement.cpp: cameras and lights (KHR_lights_punctual) on the nodes that name them.
void write_cameras_and_lights(Build& build);

} // namespace assbin::converter::gltf
