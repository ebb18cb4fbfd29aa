// What the converter's concern files hand each other. Each struct is a side table over the
// unchanged assbin::Scene (gltfpack's NodeInfo/MaterialInfo approach): nothing edits the input.
#pragma once

#include "algorithms.hpp"
#include "counting.hpp"
#include "geometry/mikktspace.hpp"
#include <assbin/converter/convert.hpp>

#include <assbin/types.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace assbin::converter::detail {

// Warnings in the order they arise; each one sentence naming what it is about.
class Report {
  public:
    // A report of warnings only (a task's, merged into the conversion's later).
    explicit Report(std::vector<std::string>& warnings) : warnings_(warnings) {}
    Report(std::vector<std::string>& warnings, std::vector<ImageLookup>& lookups)
        : warnings_(warnings), lookups_(&lookups) {}
    void warn(std::string sentence) { warnings_.push_back(std::move(sentence)); }
    // An external image looked for by `name`: the file found (empty: none) and the bytes read from
    // it (nullptr: not read).
    void looked_for(const std::string& name, const std::filesystem::path& found,
                    const std::vector<std::byte>* bytes);

  private:
    std::vector<std::string>& warnings_;
    std::vector<ImageLookup>* lookups_ = nullptr;
};

// A thread-count option: itself, or one per core for 0.
inline unsigned thread_count(unsigned asked) {
    return asked > 0 ? asked : std::max(1u, std::thread::hardware_concurrency());
}

// "mesh 3", "node 2 'Bone.001'": how messages name things.
std::string mesh_label(uint32_t mesh);
std::string node_label(const assbin::Scene& scene, uint32_t node);
std::string quote_name(std::string_view name);

// ---- convert.cpp ----

// The last step: throws ConvertError (Internal, "a converter bug") naming the first AEM invariant
// the converted model breaks. `vertices_valid` says whether emit_geometry found every vertex within
// the vertex rules (checked there, block by block, as they were written).
void check_model(const aem::Model& model, bool vertices_valid);

// Why a scene has nothing to draw, for the no-triangles refusal: no meshes, no node placing one,
// or the faces that were dropped (from `stats`).
std::string nothing_to_draw(const assbin::Scene& scene, const struct NodeGraph& graph,
                            const ConvertStats& stats);

// ---- flatten.cpp: the node hierarchy and geometry baked into model space ----

struct MeshReference {
    uint32_t node = 0;
    uint32_t mesh = 0;
};

struct NodeGraph {
    std::vector<Eigen::Matrix4d> global;   // bind global transform per node (root down)
    std::vector<MeshReference> references; // every (node, mesh) pair, in node order
    std::unordered_map<std::string_view, std::vector<uint32_t>> by_name; // views into scene names

    // Nodes with this name (empty when none).
    const std::vector<uint32_t>& nodes_named(std::string_view name) const;
};

// Throws ConvertError (BadReference) naming the first node mesh index, mesh material index or
// bone-weight vertex index outside its array (references.cpp).
void refuse_broken_references(const assbin::Scene& scene);

// Global transforms in double and the (node, mesh) references, which refuse_broken_references has
// checked. Throws ConvertError (Internal) when a parent does not precede its child, which the
// reader guarantees.
NodeGraph flatten_nodes(const assbin::Scene& scene);

// What baking and skinning read per vertex, wherever it lives (see PreparedMesh).
struct VertexView {
    size_t count = 0;
    const Eigen::Vector3f* positions = nullptr;
    const Eigen::Vector3f* normals = nullptr;
    const Eigen::Vector3f* tangents = nullptr;
    const Eigen::Vector3f* bitangents = nullptr;
    const Eigen::Vector2f* uvs = nullptr;        // prepared UVs, or
    const Eigen::Vector3f* source_uvs = nullptr; // the dump's channel, read in place
    bool one_component_uvs = false;              // source_uvs hold u only: v = 0
    const uint32_t* source_vertex = nullptr;     // nullptr: vertex v is the dump's vertex first_source + v
    uint32_t first_source = 0;

    uint32_t source_of(size_t v) const {
        return source_vertex ? source_vertex[v] : first_source + static_cast<uint32_t>(v);
    }

    // Vertices [first, first + count) as a view of their own.
    VertexView slice(size_t first, size_t length) const {
        VertexView part = *this;
        part.count = length;
        const auto advance = [first](auto*& pointer) {
            if (pointer) pointer += first;
        };
        advance(part.positions);
        advance(part.normals);
        advance(part.tangents);
        advance(part.bitangents);
        advance(part.uvs);
        advance(part.source_uvs);
        advance(part.source_vertex);
        if (!source_vertex) part.first_source = first_source + static_cast<uint32_t>(first);
        return part;
    }
};

// Writes the vertices of `view` baked by `global` into `out` (rule 1: positions by the matrix,
// normals by its inverse-transpose, tangents and bitangents by the matrix itself, all renormalised,
// the tangent made perpendicular to the normal; UVs copied). Without tangents in the view, tangents
// and bitangents are written as zero (output_tangents.cpp fills them). Returns how many normals,
// tangents, bitangents or UVs held NaN or infinity and were written as zero.
size_t bake_vertices(const VertexView& view, const Eigen::Matrix4d& global, std::span<aem::Vertex> out);

// Writes `triangles` offset by `first_vertex` into `out` (as many indices); the corner order is
// reversed when `global` mirrors (negative determinant), so front faces stay counter-clockwise.
void place_triangles(const std::vector<uint32_t>& triangles, const Eigen::Matrix4d& global,
                     uint32_t first_vertex, std::span<uint32_t> out);

// ---- ear_clipping.cpp ----

// The two triangles of quad `q` (corner numbers), without allocating: the fan from corner 0 when
// every corner is convex, else the fan from the first reflex or collinear corner.
std::pair<std::array<uint32_t, 3>, std::array<uint32_t, 3>> split_quad(std::span<const Eigen::Vector3f> q);

// ---- key_tracks.cpp: the channels' keys in seconds, the same for every writer ----

// A key in seconds: a translation or scale (w 0), or a unit rotation as (x, y, z, w).
struct TimedKey {
    float time = 0;
    Eigen::Vector4f value = Eigen::Vector4f::Zero();
};

struct KeyTally {
    size_t kept = 0;            // keys of the tracks made (after any reduction)
    size_t removed = 0;         // keys the reduction removed (options.key_error)
    size_t dropped = 0;         // keys with a non-finite time or value, or a zero quaternion
    size_t reordered = 0;       // tracks whose keys were not in time order
    size_t equal_time_runs = 0; // times that carry several keys
    double measured_error =
        0; // with options.key_error: the largest error measured, a fraction of the model's size
};
// Adds the counts of `from` to `into` (the measured errors are not counts: each writer takes their largest).
inline void add_tally(KeyTally& into, const KeyTally& from) {
    into.kept += from.kept;
    into.removed += from.removed;
    into.dropped += from.dropped;
    into.reordered += from.reordered;
    into.equal_time_runs += from.equal_time_runs;
}

// A channel's key tracks.
enum class KeyTrack { Translation, Rotation, Scale };

// ---- sort_faces.cpp: a mesh's faces by kind, the same for every writer ----

// What sorting a mesh's faces met, counted.
struct FaceTally {
    size_t empty = 0;                                    // faces without an index
    size_t points = 0, lines = 0;                        // faces of one and of two indices, all of them
    size_t small_out_of_range = 0, small_non_finite = 0; // of those, dropped (see below)
    size_t out_of_range = 0, non_finite = 0;             // triangles and polygons dropped: an index not
                                                         // below the vertex count, a non-finite corner
    size_t polygons = 0, fanned = 0; // faces of four or more corners triangulated; of them, fanned
                                     // from a corner once the mesh's ear-clipping budget was spent
};

// One mesh's faces over its source vertex indices: triangles (quads split by split_quad, larger
// polygons ear-clipped), lines and points, each kind in face order. A mesh whose faces are all
// sound triangles lends the dump's own index array instead of a copy.
struct MeshFaces {
    std::vector<uint32_t> triangles, lines, points;
    const std::vector<uint32_t>* lent_triangles = nullptr; // the mesh's faces.indices, all triangles
    bool uses_every_vertex = false;                        // with lent_triangles: every vertex a corner
    bool faceless = false;                                 // vertices but no faces (a point cloud)
    FaceTally tally;

    // The triangles as a list of one's own (a copy of lent ones); the list here is left empty.
    std::vector<uint32_t> take_triangles() {
        if (lent_triangles) return *lent_triangles;
        return std::move(triangles);
    }
};

// The faces of a mesh with positions (nothing for one without).
MeshFaces sort_faces(const assbin::Mesh& mesh);

// ---- prepare_mesh.cpp (the AEM writer's vertices), normals.cpp and mesh_tangents.cpp: per source
// mesh, in mesh space ----

// A source mesh after triangulation. Its vertices are copied into `mesh` (renumbered to those the
// triangles use, in source order; normals and tangents generated where missing), except when the
// triangles use every vertex and the dump already holds every attribute AEM needs, or all but the
// tangents (with finite normals and UVs; the tangents are then made after baking): then they are
// read in place (`in_place`), which spares copying the largest arrays. Likewise a mesh whose faces
// are all good triangles lends its index array (`source_triangles`) instead of copying it.
struct PreparedMesh {
    TriangleMesh mesh; // vertex arrays only when !in_place; triangles unless lent
    bool in_place = false;
    // The mesh has UVs but no tangents: MikkTSpace runs on its baked triangles (output_tangents.cpp),
    // as rule 7 asks, not in mesh space.
    bool tangents_after_baking = false;
    const std::vector<uint32_t>* source_triangles = nullptr;

    const std::vector<uint32_t>& triangles() const {
        return source_triangles ? *source_triangles : mesh.triangles;
    }
    bool has_triangles() const { return !triangles().empty(); }
};

// The mesh's triangles from `faces` (points, lines and the dropped faces said and counted) with the
// chosen UV channel and the normals and tangents the dump holds.
PreparedMesh triangulate_mesh(const assbin::Mesh& mesh, MeshFaces& faces, uint32_t mesh_index,
                              const ConvertOptions& options, Report& report, ConvertStats& stats);

// Generates what is missing: normals (crease-split), then, for a mesh without UVs, tangents and
// bitangents around the normal; a mesh with UVs is marked tangents_after_baking.
void complete_normals_tangents(PreparedMesh& mesh, const ConvertOptions& options, ConvertStats& stats);

// Where the prepared mesh's vertices are read from.
VertexView view_of(const PreparedMesh& prepared, const assbin::Mesh& source, const ConvertOptions& options);

// ---- animation.cpp: which channel drives which node ----

struct ChannelTargets {
    // [animation]: node -> the channel that drives it (nodes no channel drives are absent)
    std::vector<std::unordered_map<uint32_t, int32_t>> channel_of_node;
    std::vector<bool> animated; // per node: driven in some animation
};

// Matches channels to nodes by name; a channel naming no node is reported and skipped, and of two
// channels naming one node the first drives it (the Assimp viewer's rule).
ChannelTargets match_channels(const assbin::Scene& scene, const NodeGraph& graph, Report& report);

// ---- skeleton.cpp: bones from the hierarchy; weights.cpp: per-vertex weights ----

// The node a mesh bone binds, decided once for every writer: the one node of the bone's name, when
// its offset matrix is finite; else none, and why (each writer says it in its own words, and gives
// the bone's weights to the vertices' other bones). AEM makes its bones from these nodes, glTF its
// joints.
struct BoneTarget {
    enum class Miss : uint8_t { None, NonFiniteOffset, NoNode, SeveralNodes }; // checked in this order
    int32_t node = -1;
    Miss miss = Miss::None;
    size_t nodes_named = 0; // how many nodes carry the bone's name
};
std::vector<BoneTarget> match_bones(const assbin::Mesh& mesh, const NodeGraph& graph);
// Why a bone binds no node, as a phrase after its name: "names no node", "names 2 nodes", "has a
// non-finite offset matrix".
std::string bone_miss_phrase(const BoneTarget& target);

struct Skeleton {
    std::vector<aem::Bone> bones;
    std::vector<uint32_t> bone_node;            // per AEM bone: the node it stands for
    std::vector<RestPose> rest;                 // per AEM bone: its node's local transform
    std::vector<std::vector<int32_t>> bone_map; // per reference: mesh bone slot -> AEM bone or -1
    std::vector<int32_t> extra_bone;            // per reference: mesh bone or -1
};

// Skeletal, mesh and hierarchy bones, parents first (AEM-FORMAT.md rule 3). Throws ConvertError
// (NonFinite) when a node that becomes a bone has a non-finite transform.
Skeleton build_skeleton(const assbin::Scene& scene, const NodeGraph& graph, const ChannelTargets& channels,
                        const std::vector<std::vector<BoneTarget>>& bone_targets,
                        const std::vector<PreparedMesh>& meshes, Report& report);

// One source mesh's weights, grouped by vertex: up to four (bone slot, weight) entries inline per
// vertex, and every entry of a vertex that has more in `overflow` (built in one pass over the bones).
struct VertexWeights {
    struct Entry {
        uint32_t slot; // the mesh's bone
        float weight;
    };
    // Left uninitialised on allocation (only the first count[v] entries of a vertex are read).
    std::unique_ptr<std::array<Entry, 4>[]> inline_entries;
    std::vector<uint32_t> count; // entries per vertex
    std::unordered_map<uint32_t, std::vector<Entry>> overflow;

    std::span<const Entry> of(uint32_t vertex) const {
        if (count[vertex] <= 4) return {inline_entries[vertex].data(), count[vertex]};
        return overflow.at(vertex);
    }
};
VertexWeights group_weights(const assbin::Mesh& mesh, uint32_t mesh_index, Report& report);

// aiTextureType values the texture slots draw from.
enum TextureType : uint32_t {
    kDiffuse = 1,
    kEmissive = 4,
    kNormals = 6,
    kOpacity = 8,
    kLightmap = 10,
    kBaseColor = 12,
    kNormalCamera = 13,
    kEmissionColor = 14,
    kMetalness = 15,
    kDiffuseRoughness = 16,
    kAmbientOcclusion = 17,
    kUnknown = 18,
};

// ---- material_keys.cpp: each dump material's keys read once, for every writer ----

// One texture slot of a material (index 0 of an aiTextureType): the keys Assimp keeps beside its
// $tex.file. Numbers are read as Assimp's aiGetMaterialFloat does, from floats, doubles or integers.
struct TextureSlot {
    std::string path;                                  // up to the first NUL; empty: no file
    uint32_t type = 0;                                 // aiTextureType
    uint32_t uv_set = 0;                               // $tex.uvwsrc; 0 when absent, negative or not finite
    std::optional<int32_t> map_mode_u, map_mode_v;     // $tex.mapmodeu/v: aiTextureMapMode
    std::optional<std::array<double, 5>> uv_transform; // $tex.uvtrafo (translation, scaling, rotation),
                                                       // when finite and not the identity
    std::optional<double> scale;                       // $tex.scale (a normal map's), when finite
    std::optional<double> strength;                    // $tex.strength (occlusion's), when finite
    std::optional<int32_t> mag_filter, min_filter;     // $tex.mappingfiltermag/min (glTF importer):
                                                       // glTF's own sampler filter numbers
};

// A dump material as every writer reads it: its factors as stored (empty when absent; values that
// are not finite kept, for each writer's own rule) and its texture slots. The writers differ in what
// they make of it (docs/gltf.md, AEM-FORMAT.md); none reads the dump's keys itself.
struct MaterialKeys {
    std::string name;
    std::vector<double> base_colour;  // $clr.base (glTF importers)
    std::vector<double> diffuse;      // $clr.diffuse
    std::vector<double> emissive;     // $clr.emissive
    std::vector<double> opacity;      // $mat.opacity
    std::vector<double> metallic;     // $mat.metallicFactor
    std::vector<double> roughness;    // $mat.roughnessFactor
    std::vector<double> shininess;    // $mat.shininess (Phong exponent)
    std::vector<double> alpha_cutoff; // $mat.gltf.alphaCutoff
    std::vector<double> two_sided;    // $mat.twosided
    std::string alpha_mode;           // $mat.gltf.alphaMode: "OPAQUE", "MASK", "BLEND" or ""
    // Every type with a $tex key at index 0, by type; a slot without a file keeps its settings.
    std::map<uint32_t, TextureSlot> slots;
    // Every $tex.file the material names, at any index: (type, path), for what a target drops.
    std::vector<std::pair<uint32_t, std::string>> files;
    // How many UV sets the slots read: the largest uv_set + 1, at least 1 when it names any file.
    uint32_t uv_sets_read = 0;

    // The slot of `type` when it names a file, else nullptr.
    const TextureSlot* texture(uint32_t type) const;
    // texture(preferred), else texture(fallback).
    const TextureSlot* first_of(uint32_t preferred, uint32_t fallback) const;
    // The slot of a texture already packed as ORM (glTF's metallic-roughness texture, which Assimp
    // 5.x stores as UNKNOWN and again as METALNESS and DIFFUSE_ROUGHNESS, or one file serving as both
    // metalness and roughness), else nullptr. Separate files are not packed here.
    const TextureSlot* orm() const;
    // The settings of `type` whether or not it names a file (defaults when it has none).
    const TextureSlot& settings(uint32_t type) const;
};

MaterialKeys read_material_keys(const assbin::Material& material);

// ---- prepare_scene.cpp: what every writer starts from ----

// key_tolerances.cpp: per animation, per channel, how far its translation, rotation (radians) and
// scale tracks may stray so that no vertex moves more than key_error x model_size at a source key
// time (0: keep every key of that track). Empty when key_error is 0 or the model has no vertex.
struct KeyErrorProbe; // key_error_measure.cpp

struct KeyTolerances {
    std::vector<std::vector<std::array<double, 3>>> of_channel;
    double model_size = 0; // the diagonal of the model's bounding box at rest
    size_t chain = 0;      // the most animated nodes on one chain (the budget is shared among them)
    double key_error = 0;  // the bound, as a fraction of model_size
};

// The target-neutral part of a conversion, made once whatever the format: the node tree's bind
// transforms and (node, mesh) references, the animation channels matched to nodes, every mesh's
// faces sorted, every skinned mesh's bone weights grouped by vertex and its bones' nodes, the
// animations' timing (with track_keys, every channel's keys in seconds), and every material's keys.
// Each writer (AEM 2024 and 2025 in convert.cpp, glTF in gltf/) takes what it needs from here: AEM
// bakes the triangles into model space and flattens the tree into bones; glTF keeps the tree and
// writes the lines and points too. Welding and ordering stay with the writers: AEM orders its baked,
// merged meshes, glTF each mesh in its own space. So do the materials' rules: each format maps the
// same keys to what its materials hold, and finds its images through TextureSources (the 2024 layout
// keeps names and finds none).
struct PreparedScene {
    NodeGraph graph;
    ChannelTargets channels;
    std::vector<MeshFaces> faces; // per dump mesh; a writer takes (moves out) what it uses
    // Per dump mesh: its weights grouped by vertex (group_weights), for a mesh with bones and vertices.
    std::vector<std::optional<VertexWeights>> weights;
    // Per dump mesh, per bone: the node it binds (match_bones).
    std::vector<std::vector<BoneTarget>> bone_targets;
    // Per dump material: its keys (read_material_keys).
    std::vector<MaterialKeys> materials;
    // Per dump animation: its ticks per second (its own, or options.default_ticks_per_second). The
    // keys themselves are made track by track as a writer lays them out (track_keys), so that they
    // are never all held twice beside the dump's and the output's.
    std::vector<double> ticks_per_second;
    // With options.key_error: how far each track may stray (key_tolerances), and the boxes its
    // measure plays (make_key_error_probe).
    KeyTolerances key_tolerances;
    std::shared_ptr<const KeyErrorProbe> key_probe;
};

// Refuses what no format converts (a shortened dump: ConvertError Shortened; an index outside its
// array: BadReference), then prepares; the weights on options.threads threads where there are
// enough vertices to pay for them (the same result whatever the count).
PreparedScene prepare_scene(const assbin::Scene& scene, const ConvertOptions& options, Report& report);

struct SkinTally {
    size_t lost_influences = 0; // vertices that had more than four weights
    size_t unweighted = 0;      // vertices of a skinned mesh left without any bone
};

// Fills the bone slots of `out` (one vertex per mesh vertex) from the mesh's weights through
// `bone_map` (empty for a mesh without skin), and sets `extra_bone` on every vertex.
SkinTally skin_vertices(const VertexWeights& weights, const VertexView& view,
                        std::span<const int32_t> bone_map, int32_t extra_bone, std::span<aem::Vertex> out);

// ---- emit_geometry.cpp: the vertex and index sections ----

struct VertexRange {
    uint32_t first = 0;
    uint32_t count = 0;
};

struct EmitResult {
    bool vertices_valid = true;             // every vertex keeps aem::validate's vertex rules
    std::vector<VertexRange> mesh_vertices; // per AEM mesh: the vertices its indices use
    std::vector<uint8_t> tangents_missing;  // per AEM mesh: its source's tangents_after_baking
};

// Every reference with triangles becomes one AEM mesh, in reference order (with options.optimize and
// not keep_meshes: grouped by material, in order of each material's first reference, so that the
// meshes optimize_geometry merges are neighbours): its vertices baked by
// the node's global transform, skinned and checked, its triangles placed. Large scenes are split in
// blocks over options.threads threads; the model is the same whatever the thread count. Throws
// ConvertError (NonFinite) for a mesh node whose global transform is not finite.
EmitResult emit_geometry(const assbin::Scene& scene, const PreparedScene& prepared,
                         const std::vector<PreparedMesh>& meshes, const Skeleton& skeleton,
                         const ConvertOptions& options, ConvertResult& result, Report& report);

// ---- output_tangents.cpp: MikkTSpace over the baked output meshes (rule 7) ----

// An output mesh: a run of neighbouring emitted meshes (one material, when `merge`) whose vertices
// and indices are contiguous, as emit_geometry placed them.
struct MeshGroup {
    uint32_t material = 0;
    uint32_t first_mesh = 0; // emitted meshes [first_mesh, first_mesh + mesh_count)
    uint32_t mesh_count = 0;
    uint32_t first_vertex = 0;
    uint32_t vertex_count = 0;
    uint32_t first_index = 0;
    uint32_t index_count = 0;
};
std::vector<MeshGroup> output_mesh_groups(const aem::Model& model, const std::vector<VertexRange>& ranges,
                                          bool merge);

// MikkTSpace's frames (mikktspace.hpp) written into `vertices` for the triangles of `triangles`
// (indices into `vertices`) whose first corner's vertex is `wanted`; a vertex whose corners get
// different frames is split: its copies are appended to `vertices`, the corners pointed at them, and
// the returned list names each copy's source vertex. `positive_zeros` writes -0.0 as +0.0.
// MikkTSpace's per-triangle steps and group frames run on up to `threads` threads (same result).
// With `keep`, what a reordering of the same triangles needs is kept there (see KeptTangentRun);
// with `previous`, a run kept on these triangles in another order is used instead of a new one
// where it can be (the result is the same either way). `identities`, when given, is
// point_identities of `vertices` (mikktspace.hpp), made ahead; used where every triangle is wanted.
struct KeptTangentRun;
std::vector<uint32_t> write_tangent_frames(std::vector<aem::Vertex>& vertices, std::span<uint32_t> triangles,
                                           std::span<const uint8_t> wanted, bool positive_zeros,
                                           unsigned threads = 1, KeptTangentRun* keep = nullptr,
                                           const KeptTangentRun* previous = nullptr,
                                           const std::vector<uint32_t>* identities = nullptr);

// MikkTSpace's run on an output mesh, kept so that the same triangles reordered (with the copies of
// the vertices the run split, numbered as the run left them) get their frames by summing its terms
// again in the new order (ReorderableFrames) rather than by a second run. The triangles are found
// again by their corners. Kept for meshes of up to kMaxKeptTriangles triangles, where the cost is a
// few MB, and only where the run split vertices (only then is the mesh ordered again).
struct KeptTangentRun {
    static constexpr size_t kMaxKeptTriangles = size_t{1} << 17;
    ReorderableFrames frames;
    std::vector<uint32_t> triangles; // as the run left them, split copies included
    std::vector<uint32_t> slots;     // triangle + 1 by the hash of its corners; 0 = empty
    bool usable() const { return frames.usable; }
    void clear() { *this = KeptTangentRun{}; }
};

// Without options.optimize: fills the tangents of every emitted mesh marked tangents_missing, mesh by
// mesh in source order; the copies of split vertices follow their mesh's vertices, and
// `emitted.mesh_vertices`, the indices and vertex_origins follow. (With options.optimize,
// optimize_geometry does this for each output mesh once its triangles are in their final order.)
void generate_baked_tangents(EmitResult& emitted, const ConvertOptions& options, ConvertResult& result);

// ---- optimize.cpp: weld, one mesh per material, vertex-cache / overdraw / fetch order ----

// With options.optimize: per output mesh (neighbouring meshes of one material merged, unless
// keep_meshes), identical vertex records become one vertex, triangles are reordered for the vertex
// cache and then for overdraw, and vertices are put in first-use order; the vertex section shrinks
// in place and vertex_origins follow. Every triangle is kept with its corners and winding. The
// meshes marked tangents_missing get MikkTSpace's frames once their triangles are in their final
// order (write_tangent_frames). Fills the before/after figures of result.stats.
void optimize_geometry(const EmitResult& emitted, const ConvertOptions& options, ConvertResult& result,
                       Report& report);

// The FIFO cache size ACMR is measured with, and how much cache efficiency overdraw order may cost.
inline constexpr unsigned kCacheSize = 16;
inline constexpr float kOverdrawThreshold = 1.05f;

// Whether meshoptimizer's Forsyth vertex-cache order stays linear on these triangles: the sum of
// squared valences, counted without overflow and stopped once it passes 64 per index (above it,
// fans and stacked copies, Tipsify orders the mesh instead). `valence` is scratch.
bool forsyth_order_is_linear(std::span<const uint32_t> indices, size_t vertex_count,
                             std::vector<uint32_t>& valence);

// -0.0 becomes +0.0 in every float of the vertex (x + 0 does exactly that and changes nothing
// else), so that the weld, which compares bytes, sees equal values as equal.
inline void positive_zeros(aem::Vertex& v) {
    const auto fix = [](auto& values) {
        for (auto& value : values)
            value += 0.0f;
    };
    fix(v.position);
    fix(v.normal);
    fix(v.tangent);
    fix(v.bitangent);
    fix(v.uv);
    fix(v.bone_weights);
}

// mesh_metrics.cpp: the positions moved and scaled into the unit cube (computed in double; non-finite
// ones become 0): meshoptimizer's overdraw code works in float on the raw values, where huge but
// finite coordinates would overflow.
std::vector<float> unit_cube_positions(std::span<const aem::Vertex> vertices);
// The same for the vertices `which` names, in that order, in their own unit cube.
std::vector<float> unit_cube_positions(std::span<const aem::Vertex> vertices,
                                       std::span<const uint32_t> which);

// How many distinct records (-0.0 taken as +0.0) the vertices that `indices` use hold.
size_t distinct_records(std::span<const aem::Vertex> vertices, std::span<const uint32_t> indices);

// ---- animation.cpp: sequences and keyframes ----

// Appends every animation (name, duration, bones × sequences) and its keyframes to `model`.
// Throws ConvertError (NameTooLong) for an animation name the AEM field cannot hold.
// Returns the keys made and removed by the reduction (KeyTally's kept and removed), summed.
KeyTally convert_animations(const assbin::Scene& scene, const Skeleton& skeleton,
                            const PreparedScene& prepared, const ConvertOptions& options, aem::Model& model,
                            Report& report);

// key_tolerances.cpp: the tolerances for ConvertOptions::key_error (see KeyTolerances).
KeyTolerances key_tolerances(const assbin::Scene& scene, const PreparedScene& prepared, double key_error);
// No rotation track is given more than this (radians), scaled or not: well inside slerp's half turn.
inline constexpr double kLargestRotationTolerance = 0.5;

// key_error_measure.cpp: the boxes of the vertices each node carries, in its own space (made once per
// scene); an animation's driven nodes as the measure plays them (made once per animation); and the
// error the written tracks of the animation make against its tracks with every key: the farthest any
// box corner goes apart at any of the animation's source key times (world units). `full` and
// `written` hold each channel's three tracks, by channel index (a channel that drives no node may be
// left empty); `times` are the animation's source key times, sorted and distinct.
std::shared_ptr<const KeyErrorProbe> make_key_error_probe(const assbin::Scene& scene,
                                                          const PreparedScene& prepared);
struct KeyErrorPlay;
std::shared_ptr<const KeyErrorPlay> make_key_error_play(const KeyErrorProbe& probe,
                                                        const assbin::Scene& scene,
                                                        const PreparedScene& prepared, size_t animation);
double measure_key_error(const KeyErrorProbe& probe, const KeyErrorPlay& play,
                         const std::vector<std::array<std::vector<TimedKey>, 3>>& full,
                         const std::vector<std::array<std::vector<TimedKey>, 3>>& written,
                         const std::vector<float>& times);

// key_budget.cpp: an animation's tracks reduced for one writer, with the tolerances scaled as far as
// the measured error allows (options.key_error; see key_error_measure.cpp).
struct KeyWriting {
    bool shares_times =
        false; // tracks with equal times share a time array (glTF), else each key has its time (AEM)
    bool short_rotations = false; // rotations may be written as normalized 16-bit components (glTF)
};
struct ChannelKeys {
    std::array<std::vector<TimedKey>, 3> tracks; // translation, rotation, scale
    bool short_rotation = false;                 // the rotations are to be written as 16-bit components
    KeyTally tally; // what making them met (add it once per node the channel drives)
};
struct AnimationKeys {
    std::vector<ChannelKeys> of_channel; // by channel index (empty for a channel that drives no node)
    double error = 0;                    // the error measured on them, in world units
    double scale = 1;                    // how far the tolerances were scaled
    // Tracks keyed at so many distinct times that measuring would not be linear in the keys: the
    // node poses a measure would have played (0: measured), and the times. Then `error` is the
    // bound the unscaled shares hold by analysis.
    size_t unmeasured_poses = 0;
    size_t distinct_times = 0;
};
AnimationKeys budget_animation_keys(const assbin::Scene& scene, const PreparedScene& prepared,
                                    size_t animation, const KeyWriting& writing);
// The warning for an animation whose key error was not measured (AnimationKeys::unmeasured_poses),
// or nothing.
std::string unmeasured_keys_warning(const assbin::Scene& scene, size_t animation, const AnimationKeys& keys);
// A quaternion (x, y, z, w) made unit as a writer stores it in floats (the identity for a zero or
// non-finite one); a unit one as glTF's normalized 16-bit components, and what a reader decodes.
Eigen::Vector4f unit_rotation(const Eigen::Vector4d& q);
std::array<int16_t, 4> rotation_as_shorts(const Eigen::Vector4f& q);
Eigen::Vector4f rotation_from_shorts(const std::array<int16_t, 4>& shorts);

// key_reduction.cpp: removes keys from `keys` (strictly increasing times) while each removed key's
// value stays within `tolerance` (a distance; for rotations, unit quaternions as (x, y, z, w), an
// angle in radians) of what the kept keys interpolate at its time, as glTF and AEM play them (lerp;
// shortest-path slerp). The first and last keys stay; a track within the tolerance of its first
// value becomes that key alone. Returns how many keys went. Linear in the keys.
size_t reduce_keys(std::vector<TimedKey>& keys, double tolerance, bool rotation);
// The same for tracks keyed at the same times (a channel's translation, rotation and scale), each
// with its tolerance (0: exact) and kind: a key goes only when every track lets it go, so the tracks
// keep sharing their times (glTF writes one time accessor for them).
size_t reduce_keys_together(std::span<std::vector<TimedKey>* const> tracks,
                            std::span<const double> tolerances, std::span<const bool> rotations);

// key_tracks.cpp: one track of channel `channel` of animation `animation` as every writer plays it,
// in strictly increasing times (empty: no usable key); what making it met is added to `tally`.
std::vector<TimedKey> track_keys(const assbin::Scene& scene, const PreparedScene& prepared, size_t animation,
                                 size_t channel, KeyTrack track, KeyTally& tally);
// A channel's three tracks (translation, rotation, scale) by track_keys; with options.key_error, keys
// removed while each track stays within its tolerance less `reserve` (what the writer's own rounding
// takes: glTF's 16-bit rotations). Each track on its own (AEM stores a time with every key), or, for
// a writer whose tracks share a time array when their times are equal (`value_bytes`: glTF's bytes
// per value of each track), the three together when they share their times and that writes fewer
// bytes.
std::array<std::vector<TimedKey>, 3> channel_keys(const assbin::Scene& scene, const PreparedScene& prepared,
                                                  size_t animation, size_t channel, KeyTally& tally,
                                                  const std::array<double, 3>& reserve = {0, 0, 0},
                                                  const std::array<size_t, 3>& value_bytes = {0, 0, 0},
                                                  double scale = 1.0);
// The tolerance key_tolerances gave a track (0: its keys are all kept).
double track_tolerance(const PreparedScene& prepared, size_t animation, size_t channel, KeyTrack track);

// "animation 2 'Walk'": how messages name an animation.
std::string animation_label(const assbin::Scene& scene, size_t animation);

// ---- layout_2025.cpp: the 2025 layout from the converted model ----

// `name` cut to at most `limit` bytes at a UTF-8 character boundary.
std::string cut_name(std::string name, size_t limit = aem::kMaxNameLength);

// Turns the converted (2024-shaped) model into the 2025 layout: joints named after their nodes
// (cut at 127 bytes, with a warning), mesh bones as joints with weight 1, v' = 1 - v with the
// bitangent following the flipped v, each track's keys laid back to back, and every material's
// three textures with MIP chains (textures_2025.hpp).
void convert_to_layout_2025(const assbin::Scene& scene, const std::vector<MaterialKeys>& materials,
                            const Skeleton& skeleton, const ConvertOptions& options, ConvertResult& result,
                            Report& report);

// "1 triangle" or "3 triangles": a count and its noun, for warnings (`many` is the plural).
inline std::string count_of(size_t count, const char* one, const char* many) {
    return assbin_common::counted(count, one, many); // "79,728 vertices", as every report prints counts
}

// ---- materials_2024.cpp ----

// "material 2 ('Skin')".
std::string material_label(const assbin::Scene& scene, size_t m);

// ---- embedded_aliases.cpp ----

// External texture names that mean an embedded texture (the index), where the dump lost the link
// (ASSBIN keeps no aiTexture::mFilename): only when the embedded textures no material names as "*N"
// and the distinct external names pair one to one, formats agreeing. Empty otherwise.
std::map<std::string, uint32_t> embedded_texture_aliases(const assbin::Scene& scene);

// The warning that says a name was taken for embedded texture n.
std::string alias_note(const std::string& name, uint32_t n);

// One AEM material per scene material (same index); textures resolved, embedded ones extracted
// into `files`. Throws ConvertError naming the material: NameTooLong for a texture name over 127
// bytes, BadReference for a "*N" path past the embedded textures.
void convert_materials(const assbin::Scene& scene, const std::vector<MaterialKeys>& materials,
                       const ConvertOptions& options, aem::Model& model, std::vector<TextureFile>& files,
                       Report& report);

// unused_slots.cpp: a warning counting the texture files the materials name in slots the target (the
// AEM layout, or glTF) has no place for (stats.texture_slots_dropped).
void report_unused_texture_slots(const std::vector<MaterialKeys>& materials, const ConvertOptions& options,
                                 Report& report, ConvertStats& stats);

} // namespace assbin::converter::detail

namespace assbin::converter::gltf {
// gltf/gltf_convert.cpp: the scene as a glTF file (options.format Glb or Gltf) into result.encoded,
// with a .gltf's .bin and images in result.textures.
void convert_scene_to_gltf(const assbin::Scene& scene, const ConvertOptions& options,
                           detail::PreparedScene& prepared, ConvertResult& result, detail::Report& report);
} // namespace assbin::converter::gltf
