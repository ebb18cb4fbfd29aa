// Content checks on a loaded scene. Real dumps carry broken data that Assimp wrote anyway
// (ASSBIN-FORMAT.md §9): they are reported here, never refused by the reader.
#include <assbin/validate.hpp>
#include <counting.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_set>

namespace assbin {

namespace {

class Report {
  public:
    explicit Report(std::vector<Problem>& problems) : problems_(problems) {}
    void warning(std::string path, std::string message) {
        problems_.push_back({Severity::Warning, std::move(path), std::move(message)});
    }
    void error(std::string path, std::string message) {
        problems_.push_back({Severity::Error, std::move(path), std::move(message)});
    }

  private:
    std::vector<Problem>& problems_;
};

std::string mesh_path(size_t index) {
    return "scene/mesh[" + std::to_string(index) + "]";
}

// Counts faces breaking a rule, and remembers the first, so one message covers them all.
struct FaceTally {
    size_t count = 0;
    size_t first_face = 0;
    uint32_t first_value = 0;
    void add(size_t face, uint32_t value) {
        if (count++ == 0) {
            first_face = face;
            first_value = value;
        }
    }
};

uint32_t primitive_bit(uint32_t face_size) {
    if (face_size == 1) return kPrimitivePoint;
    if (face_size == 2) return kPrimitiveLine;
    if (face_size == 3) return kPrimitiveTriangle;
    return kPrimitivePolygon;
}

void check_faces(const Mesh& mesh, const std::string& path, Report& report) {
    FaceTally empty, out_of_range, wrong_type;
    const std::optional<FaceList::Uniform> uniform = mesh.faces.uniform();
    if (uniform && uniform->max_index < mesh.vertex_count) {
        // Faces of one size, every index in range: the tallies without a visit per face.
        const FaceTally all{uniform->count, 0, uniform->size};
        if (uniform->size == 0)
            empty = all;
        else if (!(mesh.primitive_types & primitive_bit(uniform->size)))
            wrong_type = all;
    } else {
        // One pass over the faces, copied or left in the file (ReadOptions::array_views).
        mesh.faces.for_each([&](size_t f, std::span<const uint32_t> face) {
            const auto size = static_cast<uint32_t>(face.size());
            if (size == 0) {
                empty.add(f, 0);
                return;
            }
            if (!(mesh.primitive_types & primitive_bit(size))) wrong_type.add(f, size);
            uint32_t largest = 0;
            for (const uint32_t index : face)
                largest = std::max(largest, index);
            if (largest < mesh.vertex_count) return;
            for (const uint32_t index : face) {
                if (index >= mesh.vertex_count) {
                    out_of_range.add(f, index);
                    break;
                }
            }
        });
    }
    if (empty.count) {
        report.warning(path + "/faces", assbin_common::counted(empty.count, "face has", "faces have") +
                                            " no indices (first: face " + std::to_string(empty.first_face) +
                                            ")");
    }
    if (out_of_range.count) {
        report.error(path + "/faces", assbin_common::counted(out_of_range.count, "face uses", "faces use") +
                                          " vertex indices >= the vertex count " +
                                          std::to_string(mesh.vertex_count) + " (first: face " +
                                          std::to_string(out_of_range.first_face) + ", index " +
                                          std::to_string(out_of_range.first_value) + ")");
    }
    if (wrong_type.count) {
        report.warning(path + "/faces", assbin_common::counted(wrong_type.count, "face has", "faces have") +
                                            " a size the primitive types do not list (first: face " +
                                            std::to_string(wrong_type.first_face) + " with " +
                                            std::to_string(wrong_type.first_value) + " indices)");
    }
}

void check_bones(const Mesh& mesh, const std::string& path, Report& report) {
    for (size_t b = 0; b < mesh.bones.size(); ++b) {
        const Bone& bone = mesh.bones[b];
        const std::string bone_path = path + "/bone[" + std::to_string(b) + "]";
        size_t out_of_range = 0, not_finite = 0;
        const FileRecords<VertexWeight> weights = bone.weight_records();
        for (size_t w = 0; w < weights.size(); ++w) {
            const VertexWeight weight = weights[w];
            out_of_range += weight.vertex >= mesh.vertex_count;
            not_finite += !std::isfinite(weight.weight);
        }
        if (out_of_range) {
            report.error(bone_path, "bone '" + bone.name + "' weights " + std::to_string(out_of_range) +
                                        " vertices past the vertex count " +
                                        std::to_string(mesh.vertex_count));
        }
        if (not_finite)
            report.error(bone_path,
                         std::to_string(not_finite) + (not_finite == 1 ? " weight is not a finite number"
                                                                       : " weights are not finite numbers"));
        if (bone.weight_count == 0) report.warning(bone_path, "bone '" + bone.name + "' has no weights");
    }
}

void check_vertices(const Mesh& mesh, const std::string& path, Report& report) {
    size_t not_finite = 0;
    if (mesh.positions) {
        const FileRecords<Vec3> positions = mesh.positions->records();
        for (size_t v = 0; v < positions.size(); ++v)
            not_finite += !positions[v].allFinite();
    }
    if (not_finite)
        report.warning(path + "/positions",
                       std::to_string(not_finite) +
                           (not_finite == 1 ? " position is not finite" : " positions are not finite"));
    for (size_t c = 0; c < mesh.uv_channels.size(); ++c) {
        const uint32_t components = mesh.uv_channels[c].component_count;
        if (components < 1 || components > 3) {
            report.warning(path + "/uv[" + std::to_string(c) + "]", "UV channel declares " +
                                                                        std::to_string(components) +
                                                                        " components (1 to 3 expected)");
        }
    }
}

void check_mesh(const Scene& scene, size_t index, Report& report) {
    const Mesh& mesh = scene.meshes[index];
    const std::string path = mesh_path(index);
    if (mesh.vertex_count == 0)
        report.warning(path, "mesh has no vertices");
    else if (!mesh.positions)
        report.error(path, "mesh has vertices but no positions");
    if (mesh.material_index >= scene.materials.size()) {
        report.error(path, "material index " + std::to_string(mesh.material_index) + " is past the scene's " +
                               assbin_common::counted(scene.materials.size(), "material"));
    }
    if (scene.is_shortened()) return; // arrays are bounds and hashes there
    check_vertices(mesh, path, report);
    check_faces(mesh, path, report);
    check_bones(mesh, path, report);
}

void check_nodes(const Scene& scene, Report& report) {
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        const Node& node = scene.nodes[n];
        for (uint32_t mesh : node.meshes) {
            if (mesh >= scene.meshes.size()) {
                report.error("scene/node[" + std::to_string(n) + "]",
                             "node '" + node.name + "' refers to mesh " + std::to_string(mesh) +
                                 ", past the scene's " +
                                 assbin_common::counted(scene.meshes.size(), "mesh", "meshes"));
            }
        }
        if (!node.transform.allFinite()) {
            report.error("scene/node[" + std::to_string(n) + "]",
                         "node '" + node.name + "' has a non-finite transform");
        }
    }
}

void check_materials(const Scene& scene, Report& report) {
    for (size_t m = 0; m < scene.materials.size(); ++m) {
        for (const MaterialProperty& property : scene.materials[m].properties) {
            if (property.key != "$tex.file") continue;
            const std::optional<std::string> file = property.string_value();
            if (!file || file->size() < 2 || (*file)[0] != '*') continue;
            const unsigned long texture = std::strtoul(file->c_str() + 1, nullptr, 10);
            if (texture >= scene.textures.size()) {
                report.error("scene/material[" + std::to_string(m) + "]",
                             "texture reference '" + *file + "' is past the " +
                                 std::to_string(scene.textures.size()) + " embedded textures");
            }
        }
    }
}

template <class T>
bool strictly_increasing(const std::vector<Key<T>>& keys) {
    for (size_t k = 1; k < keys.size(); ++k) {
        if (!(keys[k - 1].time < keys[k].time)) return false;
    }
    return true;
}

void check_animations(const Scene& scene, Report& report) {
    std::unordered_set<std::string> node_names;
    for (const Node& node : scene.nodes)
        node_names.insert(node.name);
    for (size_t a = 0; a < scene.animations.size(); ++a) {
        const Animation& animation = scene.animations[a];
        for (size_t c = 0; c < animation.channels.size(); ++c) {
            const NodeChannel& channel = animation.channels[c];
            const std::string path =
                "scene/animation[" + std::to_string(a) + "]/channel[" + std::to_string(c) + "]";
            if (!node_names.count(channel.node_name)) {
                report.warning(path, "channel animates node '" + channel.node_name +
                                         "', which the scene does not have");
            }
            if (!strictly_increasing(channel.positions.keys) ||
                !strictly_increasing(channel.rotations.keys) || !strictly_increasing(channel.scalings.keys)) {
                report.warning(path, "key times are not strictly increasing");
            }
        }
    }
}

} // namespace

std::vector<Problem> validate(const Scene& scene) {
    std::vector<Problem> problems;
    Report report(problems);
    if (scene.flags & kSceneIncomplete)
        report.warning("scene", "the scene is flagged incomplete by its importer");
    if (scene.nodes.empty()) report.error("scene", "the scene has no root node");
    if (scene.trailing_bytes > 0) {
        report.warning(
            "file", assbin_common::counted(scene.trailing_bytes, "byte") +
                        (scene.trailing_bytes == 1 ? " follows" : " follow") + " the SCENE chunk, at byte " +
                        std::to_string(scene.trailing_offset) +
                        " (not part of the scene; Assimp's loader ignores them too; --strict refuses them)");
    }
    if (scene.bytes_after_stream > 0) {
        report.warning("file", assbin_common::counted(scene.bytes_after_stream, "byte") +
                                   (scene.bytes_after_stream == 1 ? " follows" : " follow") +
                                   " the end of the zlib stream, at byte " +
                                   std::to_string(scene.bytes_after_stream_offset) +
                                   " of the file (not part of the scene; Assimp's loader ignores them too; "
                                   "--strict refuses them)");
    }
    check_nodes(scene, report);
    for (size_t m = 0; m < scene.meshes.size(); ++m)
        check_mesh(scene, m, report);
    check_materials(scene, report);
    check_animations(scene, report);
    return problems;
}

} // namespace assbin
