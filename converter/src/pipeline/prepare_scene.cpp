// The part of a conversion every format shares (pipeline.hpp, PreparedScene): the refusals no format
// converts past, the node tree, the channels' nodes, every mesh's faces, weights and bones' nodes, the
// animations' timing, the materials' keys. Cost: linear in the nodes, channels, indices and bone weights.
#include "pipeline.hpp"
#include <run_tasks.hpp>

namespace assbin::converter::detail {

namespace {

void refuse_shortened(const assbin::Scene& scene) {
    if (scene.is_shortened()) {
        throw ConvertError(Refusal::Shortened,
                           "the dump is shortened (a regression-test dump): it holds value bounds and face "
                           "hashes instead of vertices and faces, so there is no geometry to convert");
    }
}

// Below this many vertices over the skinned meshes, threads cost more than they save.
constexpr size_t kParallelVertices = size_t{1} << 16;

// Each skinned mesh's weights grouped by vertex, in parallel over meshes; the warnings are kept per
// mesh and said in mesh order.
std::vector<std::optional<VertexWeights>> group_all_weights(const assbin::Scene& scene,
                                                            const ConvertOptions& options, Report& report) {
    std::vector<std::optional<VertexWeights>> weights(scene.meshes.size());
    std::vector<uint32_t> skinned;
    size_t vertices = 0;
    for (uint32_t m = 0; m < scene.meshes.size(); ++m) {
        const assbin::Mesh& mesh = scene.meshes[m];
        if (mesh.bones.empty() || !mesh.positions || mesh.positions->values.empty()) continue;
        skinned.push_back(m);
        vertices += mesh.positions->values.size();
    }
    const unsigned threads =
        options.threads == 1 || vertices < kParallelVertices ? 1 : thread_count(options.threads);
    std::vector<std::vector<std::string>> warnings(skinned.size());
    assbin_common::run_tasks(skinned.size(), threads, [&](size_t i) {
        Report local(warnings[i]);
        weights[skinned[i]] = group_weights(scene.meshes[skinned[i]], skinned[i], local);
    });
    for (const std::vector<std::string>& list : warnings) {
        for (const std::string& warning : list)
            report.warn(warning);
    }
    return weights;
}

} // namespace

PreparedScene prepare_scene(const assbin::Scene& scene, const ConvertOptions& options, Report& report) {
    refuse_shortened(scene);
    refuse_broken_references(scene);
    PreparedScene prepared;
    prepared.graph = flatten_nodes(scene);
    prepared.channels = match_channels(scene, prepared.graph, report);
    prepared.faces.reserve(scene.meshes.size());
    for (const assbin::Mesh& mesh : scene.meshes)
        prepared.faces.push_back(sort_faces(mesh));
    prepared.weights = group_all_weights(scene, options, report);
    prepared.bone_targets.reserve(scene.meshes.size());
    for (const assbin::Mesh& mesh : scene.meshes)
        prepared.bone_targets.push_back(match_bones(mesh, prepared.graph));
    prepared.materials.reserve(scene.materials.size());
    for (const assbin::Material& material : scene.materials)
        prepared.materials.push_back(read_material_keys(material));
    for (const assbin::Animation& animation : scene.animations) {
        prepared.ticks_per_second.push_back(
            effective_ticks_per_second(animation.ticks_per_second, options.default_ticks_per_second));
    }
    if (options.key_error > 0) {
        prepared.key_tolerances = key_tolerances(scene, prepared, options.key_error);
        prepared.key_probe = make_key_error_probe(scene, prepared);
    }
    return prepared;
}

} // namespace assbin::converter::detail
