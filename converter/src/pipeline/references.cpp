// Before any work: every index the converter will follow must point inside its array. Faces are
// the exception (rule 6: out-of-range faces are dropped and counted, in prepare_mesh.cpp); a mesh,
// material or bone-weight vertex index outside its array means the scene is broken, and the
// converter refuses it with a sentence naming the first one, rather than guess. ("*N" texture
// references are checked where materials are converted.)
#include "pipeline.hpp"

namespace assbin::converter::detail {

namespace {

std::string of_count(size_t count, const char* one, const char* many) {
    return assbin_common::counted(count, one, many);
}

} // namespace

void refuse_broken_references(const assbin::Scene& scene) {
    for (uint32_t n = 0; n < scene.nodes.size(); ++n) {
        for (const uint32_t mesh : scene.nodes[n].meshes) {
            if (mesh >= scene.meshes.size()) {
                throw ConvertError(Refusal::BadReference,
                                   node_label(scene, n) + " refers to mesh " + std::to_string(mesh) +
                                       ", but the scene has " +
                                       of_count(scene.meshes.size(), "mesh", "meshes"));
            }
        }
    }
    for (uint32_t m = 0; m < scene.meshes.size(); ++m) {
        const assbin::Mesh& mesh = scene.meshes[m];
        if (mesh.material_index >= scene.materials.size()) {
            throw ConvertError(Refusal::BadReference,
                               mesh_label(m) + " uses material " + std::to_string(mesh.material_index) +
                                   ", but the scene has " +
                                   of_count(scene.materials.size(), "material", "materials"));
        }
        for (const assbin::Bone& bone : mesh.bones) {
            for (const assbin::VertexWeight& weight : bone.weights) {
                if (weight.vertex >= mesh.vertex_count) {
                    throw ConvertError(Refusal::BadReference,
                                       mesh_label(m) + ": bone " + quote_name(bone.name) +
                                           " weights vertex " + std::to_string(weight.vertex) +
                                           ", but the mesh has " +
                                           of_count(mesh.vertex_count, "vertex", "vertices"));
                }
            }
        }
    }
}

} // namespace assbin::converter::detail
