// The part of a conversion every format shares (pipeline.hpp, PreparedScene): the refusals no format
// converts past, the node tree, the channels' nodes, every mesh's faces.
// Cost: linear in the nodes, channels and indices.
#include "pipeline.hpp"

namespace assbin::converter::detail {

namespace {

void refuse_shortened(const assbin::Scene& scene) {
    if (scene.is_shortened()) {
        throw ConvertError(Refusal::Shortened,
                           "the dump is shortened (a regression-test dump): it holds value bounds and face "
                           "hashes instead of vertices and faces, so there is no geometry to convert");
    }
}

} // namespace

PreparedScene prepare_scene(const assbin::Scene& scene, Report& report) {
    refuse_shortened(scene);
    refuse_broken_references(scene);
    PreparedScene prepared;
    prepared.graph = flatten_nodes(scene);
    prepared.channels = match_channels(scene, prepared.graph, report);
    prepared.faces.reserve(scene.meshes.size());
    for (const assbin::Mesh& mesh : scene.meshes)
        prepared.faces.push_back(sort_faces(mesh));
    return prepared;
}

} // namespace assbin::converter::detail
