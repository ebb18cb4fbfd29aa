// The conversion as a list of steps, one concern file each (AEM-FORMAT.md "How a scene becomes AEM").
#include "pipeline.hpp"
#include <counting.hpp>

#include <aem/validate.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstring>

namespace assbin::converter {

const char* refusal_name(Refusal refusal) {
    switch (refusal) {
    case Refusal::Shortened:
        return "shortened";
    case Refusal::NoTriangles:
        return "no-triangles";
    case Refusal::NameTooLong:
        return "name-too-long";
    case Refusal::NonFinite:
        return "non-finite";
    case Refusal::BadReference:
        return "bad-reference";
    case Refusal::Internal:
        return "internal";
    }
    return "unknown";
}

namespace {

struct FormatNames {
    OutputFormat format;
    const char* name;
    const char* extension;
};
constexpr FormatNames kFormats[] = {{OutputFormat::Aem, "aem", ".aem"},
                                    {OutputFormat::Glb, "glb", ".glb"},
                                    {OutputFormat::Gltf, "gltf", ".gltf"}};

const FormatNames& names_of(OutputFormat format) {
    for (const FormatNames& names : kFormats)
        if (names.format == format) return names;
    return kFormats[0];
}

} // namespace

std::optional<OutputFormat> format_of_file_name(const std::filesystem::path& name) {
    std::string extension = name.extension().string();
    for (char& c : extension)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const FormatNames& names : kFormats)
        if (extension == names.extension) return names.format;
    return std::nullopt;
}

const char* format_name(OutputFormat format) {
    return names_of(format).name;
}
const char* format_extension(OutputFormat format) {
    return names_of(format).extension;
}

namespace {

using namespace detail;

// Appends (stage, seconds since the previous lap) to the result.
class StageClock {
  public:
    explicit StageClock(std::vector<std::pair<std::string, double>>& stages) : stages_(stages) {}
    void lap(const char* stage) {
        const auto now = std::chrono::steady_clock::now();
        stages_.emplace_back(stage, std::chrono::duration<double>(now - last_).count());
        last_ = now;
    }

  private:
    std::vector<std::pair<std::string, double>>& stages_;
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// A UV channel past channel 0 was asked for (channel 0 is the default, and a mesh without UVs is
// ordinary): one warning naming the meshes that lack it and the channels they have.
void report_missing_uv_channel(const assbin::Scene& scene, const ConvertOptions& options, Report& report) {
    if (options.uv_channel == 0) return;
    std::vector<uint32_t> lacking;
    size_t most_channels = 0;
    for (uint32_t m = 0; m < scene.meshes.size(); ++m) {
        const assbin::Mesh& mesh = scene.meshes[m];
        if (!mesh.positions || mesh.positions->values.empty() || options.uv_channel < mesh.uv_channels.size())
            continue;
        lacking.push_back(m);
        most_channels = std::max(most_channels, mesh.uv_channels.size());
    }
    if (lacking.empty()) return;
    std::string meshes;
    for (size_t k = 0; k < lacking.size() && k < 8; ++k)
        meshes += (k ? ", " : "") + std::to_string(lacking[k]);
    if (lacking.size() > 8) meshes += ", ...";
    const std::string have = most_channels == 0 ? "they have no UVs"
                             : most_channels == 1
                                 ? "they have channel 0 only"
                                 : "they have at most channels 0.." + std::to_string(most_channels - 1);
    report.warn("UV channel " + std::to_string(options.uv_channel) + " is missing from " +
                std::to_string(lacking.size()) + " of " +
                assbin_common::counted(scene.meshes.size(), "mesh", "meshes") + " (" + meshes + "; " + have +
                "): their vertices are written without UVs");
}

// "3 meshes (0, 4, 7)": which meshes, the first eight named.
std::string mesh_list(const std::vector<uint32_t>& meshes) {
    std::string list = std::to_string(meshes.size()) + (meshes.size() == 1 ? " mesh (" : " meshes (");
    for (size_t k = 0; k < meshes.size() && k < 8; ++k)
        list += (k ? ", " : "") + std::to_string(meshes[k]);
    return list + (meshes.size() > 8 ? ", ...)" : ")");
}

// What an AEM vertex cannot hold, said with counts (nothing is dropped silently): vertex colours,
// UV channels other than the one converted, and the scene's cameras and lights. Counted over the
// meshes with vertices, each once however many nodes place it.
void report_dropped_streams(const assbin::Scene& scene, const ConvertOptions& options, Report& report,
                            ConvertStats& stats) {
    std::vector<uint32_t> coloured, more_uvs;
    for (uint32_t m = 0; m < scene.meshes.size(); ++m) {
        const assbin::Mesh& mesh = scene.meshes[m];
        if (!mesh.positions || mesh.positions->values.empty()) continue;
        if (!mesh.color_sets.empty()) {
            coloured.push_back(m);
            stats.colour_sets_dropped += mesh.color_sets.size();
        }
        const size_t kept = options.uv_channel < mesh.uv_channels.size() ? 1 : 0;
        if (mesh.uv_channels.size() > kept) {
            more_uvs.push_back(m);
            stats.uv_channels_dropped += mesh.uv_channels.size() - kept;
        }
    }
    if (!coloured.empty()) {
        report.warn(std::to_string(stats.colour_sets_dropped) +
                    (stats.colour_sets_dropped == 1 ? " vertex colour set" : " vertex colour sets") +
                    " dropped from " + mesh_list(coloured) + ": AEM vertices have no colours");
    }
    if (!more_uvs.empty()) {
        report.warn(std::to_string(stats.uv_channels_dropped) +
                    (stats.uv_channels_dropped == 1 ? " UV channel" : " UV channels") +
                    " other than channel " + std::to_string(options.uv_channel) + " dropped from " +
                    mesh_list(more_uvs) + ": AEM vertices hold one UV (--uv-channel chooses which)");
    }
    stats.cameras_dropped = scene.cameras.size();
    stats.lights_dropped = scene.lights.size();
    const auto say = [&](size_t count, const char* one, const char* many, const char* why) {
        if (count > 0) report.warn(count_of(count, one, many) + " dropped: " + why);
    };
    if (!options.warn_cameras_and_lights_dropped) return;
    say(stats.cameras_dropped, "camera", "cameras", "AEM has no cameras");
    say(stats.lights_dropped, "light", "lights", "AEM has no lights");
}

std::vector<PreparedMesh> prepare_meshes(const assbin::Scene& scene, std::vector<MeshFaces>& faces,
                                         const ConvertOptions& options, Report& report, ConvertStats& stats) {
    report_missing_uv_channel(scene, options, report);
    report_dropped_streams(scene, options, report, stats);
    std::vector<PreparedMesh> meshes;
    meshes.reserve(scene.meshes.size());
    for (uint32_t m = 0; m < scene.meshes.size(); ++m) {
        meshes.push_back(triangulate_mesh(scene.meshes[m], faces[m], m, options, report, stats));
        faces[m] = MeshFaces{}; // taken
    }
    return meshes;
}

void complete_meshes(std::vector<PreparedMesh>& meshes, const ConvertOptions& options, ConvertStats& stats) {
    for (PreparedMesh& mesh : meshes)
        complete_normals_tangents(mesh, options, stats);
}

// "70,051 points and 3 lines": the faces that were dropped, for the refusal message.
std::string dropped_faces(const ConvertStats& stats) {
    std::string list;
    const auto add = [&](size_t count, const char* one, const char* many) {
        if (count == 0) return;
        list += (list.empty() ? "" : ", ") + count_of(count, one, many);
    };
    add(stats.points_dropped, "point", "points");
    add(stats.lines_dropped, "line", "lines");
    add(stats.empty_faces, "empty face", "empty faces");
    add(stats.faces_out_of_range, "face with out-of-range indices", "faces with out-of-range indices");
    add(stats.faces_non_finite, "face over non-finite positions", "faces over non-finite positions");
    return list;
}

void refuse_without_triangles(const assbin::Scene& scene, const NodeGraph& graph,
                              const std::vector<PreparedMesh>& meshes, const ConvertStats& stats) {
    for (const MeshReference& reference : graph.references) {
        if (meshes[reference.mesh].has_triangles()) return;
    }
    throw ConvertError(Refusal::NoTriangles,
                       "no triangles left to convert: " + nothing_to_draw(scene, graph, stats));
}

} // namespace

namespace detail {

std::string nothing_to_draw(const assbin::Scene& scene, const NodeGraph& graph, const ConvertStats& stats) {
    const std::string count =
        std::to_string(scene.meshes.size()) + (scene.meshes.size() == 1 ? " mesh" : " meshes");
    std::string why;
    if (scene.meshes.empty()) {
        why = "the scene has no meshes";
    } else if (graph.references.empty()) {
        why = "no node refers to the scene's " + count;
    } else if (const std::string dropped = dropped_faces(stats); !dropped.empty()) {
        why = "the " + count + (scene.meshes.size() == 1 ? " holds" : " hold") +
              " no triangle or polygon, only " + dropped;
    } else {
        why = "the " + count + (scene.meshes.size() == 1 ? " holds" : " hold") + " no faces";
    }
    return why;
}

} // namespace detail

namespace {

void fill_stats(const aem::Model& model, ConvertStats& stats) {
    stats.vertices = model.vertices.size();
    stats.triangles = model.indices.size() / 3;
    stats.meshes = model.meshes.size();
    stats.bones = model.bones.size();
    stats.animations = model.animations.size();
}

} // namespace

namespace {

// The vertices were checked block by block as they were written (emit_geometry).
bool indices_are_valid(const aem::Model& model) {
    unsigned valid = model.indices.size() % 3 == 0;
    uint32_t largest = 0;
    for (const uint32_t index : model.indices)
        largest = std::max(largest, index);
    valid &= model.indices.empty() || largest < model.vertices.size();
    for (const aem::Mesh& mesh : model.meshes) {
        valid &= uint64_t{mesh.first_index} + mesh.index_count <= model.indices.size() &&
                 mesh.index_count % 3 == 0 && mesh.material < model.materials.size();
    }
    return valid != 0;
}

} // namespace

namespace detail {

// The safety net: a model that breaks an AEM invariant is a converter bug, never written. The
// vertices were checked as they were written, the indices and meshes are checked here in one pass,
// every other section by aem::validate itself. A fault is reported in aem::validate's words.
void check_model(const aem::Model& model, bool vertices_valid) {
    aem::Model rest; // every section but the geometry (cheap to copy)
    rest.layout = model.layout;
    rest.image_buffer = model.image_buffer;
    rest.textures = model.textures;
    rest.materials = model.materials;
    rest.bones = model.bones;
    rest.animations = model.animations;
    rest.sequences = model.sequences;
    rest.keyframes = model.keyframes;
    std::vector<aem::Violation> violations = aem::validate(rest);
    const bool indices_valid = indices_are_valid(model);
    if (violations.empty() && vertices_valid && indices_valid) return;
    violations = aem::validate(model);
    const std::string first = !violations.empty() ? aem::to_string(violations.front())
                              : !vertices_valid   ? "(none named; the vertex check failed)"
                              : !indices_valid    ? "(none named; the index check failed)"
                                                  : "(none named)";
    throw ConvertError(Refusal::Internal, "the converted model breaks " + std::to_string(violations.size()) +
                                              " AEM invariants (a converter bug); first: " + first);
}

} // namespace detail

namespace {

// The AEM writer (both layouts): the prepared triangles completed, baked into model space by their
// nodes and skinned, the node tree flattened into bones, then ordered, animated and given materials.
// `owned`, when given, is `scene` itself, whose meshes may be released once baked.
void write_aem(const assbin::Scene& scene, PreparedScene& prepared, const ConvertOptions& options,
               assbin::Scene* owned, ConvertResult& result, Report& report, StageClock& clock) {
    const NodeGraph& graph = prepared.graph;
    std::vector<PreparedMesh> meshes = prepare_meshes(scene, prepared.faces, options, report, result.stats);
    clock.lap("triangulate");
    refuse_without_triangles(scene, graph, meshes, result.stats);
    complete_meshes(meshes, options, result.stats);
    clock.lap("normals");
    const Skeleton skeleton =
        build_skeleton(scene, graph, prepared.channels, prepared.bone_targets, meshes, report);
    result.model.bones = skeleton.bones;
    clock.lap("skeleton");
    EmitResult emitted = emit_geometry(scene, prepared, meshes, skeleton, options, result, report);
    std::vector<PreparedMesh>().swap(meshes); // baked into the model: their copies go before the tangents
    std::vector<std::optional<VertexWeights>>().swap(prepared.weights);    // and so do the weights
    if (owned != nullptr) std::vector<assbin::Mesh>().swap(owned->meshes); // and so do the source arrays
    clock.lap("bake+skin");
    if (!options.optimize) generate_baked_tangents(emitted, options, result);
    optimize_geometry(emitted, options, result, report);
    clock.lap("tangents+optimize");
    const KeyTally keys = convert_animations(scene, skeleton, prepared, options, result.model, report);
    result.stats.keys = keys.kept;
    result.stats.keys_removed = keys.removed;
    result.stats.key_error_measured = keys.measured_error;
    clock.lap("animation");
    if (options.layout == aem::Layout::Edition2025) {
        convert_to_layout_2025(scene, prepared.materials, skeleton, options, result, report);
    } else {
        convert_materials(scene, prepared.materials, options, result.model, result.textures, report);
    }
    report_unused_texture_slots(prepared.materials, options, report, result.stats);
    result.stats.textures_written = result.textures.size();
    clock.lap("materials+textures");
    check_model(result.model, emitted.vertices_valid);
    clock.lap("validate");
    fill_stats(result.model, result.stats);
}

// One prepared scene, then the writer of the format asked for.
ConvertResult convert_scene(const assbin::Scene& scene, const ConvertOptions& options, assbin::Scene* owned) {
    ConvertResult result;
    Report report(result.warnings, result.image_lookups);
    StageClock clock(result.stage_seconds);
    PreparedScene prepared = prepare_scene(scene, options, report);
    clock.lap("prepare");
    result.format = options.format;
    if (options.format == OutputFormat::Aem) {
        write_aem(scene, prepared, options, owned, result, report, clock);
        return result;
    }
    gltf::convert_scene_to_gltf(scene, options, prepared, result, report);
    report_unused_texture_slots(prepared.materials, options, report, result.stats);
    clock.lap("gltf");
    return result;
}

} // namespace

ConvertResult convert(const assbin::Scene& scene, const ConvertOptions& options) {
    if (assbin::holds_file_records(scene)) { // read with array_views: converted from a copy
        assbin::Scene copy = scene;
        assbin::copy_file_records(copy);
        return convert_scene(copy, options, &copy);
    }
    return convert_scene(scene, options, nullptr);
}

ConvertResult convert(assbin::Scene&& scene, const ConvertOptions& options) {
    if (assbin::holds_file_records(scene)) assbin::copy_file_records(scene);
    return convert_scene(scene, options, &scene);
}

} // namespace assbin::converter
