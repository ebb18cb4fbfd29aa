// Facts about a loaded scene that `info` shows in text and JSON alike, computed once.
#pragma once

#include <assbin/types.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace assbin::cli {

struct MeshFacts {
    uint64_t bone_weights = 0;
    std::string primitive_names;                // "tri|polygon", "0" when no bit is set
    bool has_face_data = false;                 // false in shortened dumps
    std::map<std::string, uint64_t> face_sizes; // "0", "1", "2", "3", "n" (4 or more) -> count
    int64_t max_index = -1;                     // -1 without indices
};

struct SceneFacts {
    uint64_t vertices = 0, faces = 0, bones = 0, animation_channels = 0, metadata_entries = 0;
    unsigned max_node_depth = 0;
    std::map<uint16_t, uint64_t> metadata_types; // type -> entries
    std::vector<MeshFacts> meshes;
    std::optional<Bounds<Vec3>> world_bounds; // positions (or their bounds) through the node transforms
};

// Each mesh's facts and each placed mesh's box are gathered on up to `threads` threads; the facts
// are the same for any number.
SceneFacts compute_facts(const Scene& scene, unsigned threads);

const char* light_type_name(uint32_t type);
std::string compile_flag_names(uint32_t flags);
std::string scene_flag_names(uint32_t flags);
std::string hex(uint64_t value);

} // namespace assbin::cli
