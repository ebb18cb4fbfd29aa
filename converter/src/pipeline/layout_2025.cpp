// The 2025 layout (AEM-FORMAT.md "What changes for a converter writing this layout"), made from
// the model the rules of the 2024 layout built: the geometry, skeleton and keys are the same
// scene, only expressed the way today's AEM runtime reads them.
#include "materials/textures_2025.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace assbin::converter::detail {

std::string cut_name(std::string name, size_t limit) {
    if (name.size() <= limit) return name;
    size_t end = limit;
    // Back up over continuation bytes (10xxxxxx) to the start of the character the cut splits.
    while (end > 0 && (static_cast<unsigned char>(name[end]) & 0xC0) == 0x80)
        --end;
    name.resize(end);
    return name;
}

namespace {

// Joints are the bones, named after the nodes they stand for.
void name_joints(const assbin::Scene& scene, const Skeleton& skeleton, aem::Model& model, Report& report) {
    size_t cut = 0;
    for (size_t b = 0; b < model.bones.size(); ++b) {
        std::string name = scene.nodes[skeleton.bone_node[b]].name;
        name.resize(std::min(name.size(), name.find('\0')));
        cut += name.size() > aem::kMaxNameLength ? 1 : 0;
        model.bones[b].name = cut_name(std::move(name));
    }
    if (cut > 0) {
        report.warn(count_of(cut, "joint name was", "joint names were") +
                    " longer than 127 bytes and cut (at a character boundary)");
    }
}

// Mesh animation becomes a joint with weight 1; UVs flip to a top-left origin, and the bitangent,
// which points along +v, follows the flip (the tangent, along +u, does not change).
void convert_vertices(aem::Model& model) {
    for (aem::Vertex& v : model.vertices) {
        if (v.extra_bone != aem::kNone) { // rule 3: only vertices without a skin carry one
            v.bone_indices = {v.extra_bone, aem::kNone, aem::kNone, aem::kNone};
            v.bone_weights = {1, 0, 0, 0};
            v.extra_bone = aem::kNone;
        }
        v.uv.y() = 1.0f - v.uv.y();
        v.bitangent = -v.bitangent;
    }
}

// Each track's translation, rotation and scale keys back to back (the 2024 model shares rest keys
// between animations), animations starting at animation × joints.
void lay_out_tracks(aem::Model& model) {
    std::vector<aem::Keyframe> keys;
    keys.reserve(model.keyframes.size());
    for (aem::Sequence& track : model.sequences) {
        for (aem::KeyRange* range : {&track.position, &track.rotation, &track.scale}) {
            const auto first = model.keyframes.begin() + range->first;
            range->first = static_cast<uint32_t>(keys.size());
            keys.insert(keys.end(), first, first + range->count);
        }
    }
    model.keyframes = std::move(keys);
    for (size_t a = 0; a < model.animations.size(); ++a)
        model.animations[a].first_sequence = static_cast<uint32_t>(a * model.bones.size());
}

} // namespace

void convert_to_layout_2025(const assbin::Scene& scene, const std::vector<MaterialKeys>& materials,
                            const Skeleton& skeleton, const ConvertOptions& options, ConvertResult& result,
                            Report& report) {
    aem::Model& model = result.model;
    model.layout = aem::Layout::Edition2025;
    name_joints(scene, skeleton, model, report);
    convert_vertices(model);
    lay_out_tracks(model);
    build_materials_2025(scene, materials, options, model, report);
}

} // namespace assbin::converter::detail
