// A small glTF 2.0 reader and evaluator for the tests, sharing no code with the writer: reads a .glb
// (or a .gltf with its .bin beside it) with nlohmann-json, gives accessors as doubles, and poses the
// scene the way the glTF specification says a viewer does: node T·R·S (or matrix) sampled from the
// animation at a time (LINEAR: lerp and slerp, STEP, clamped at the ends), then skinning with
// JOINTS_0 / WEIGHTS_0 and the inverse bind matrices, a skinned mesh's own node transform ignored.
#pragma once

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <vector>

namespace assbin_test::gltf {

class Document {
  public:
    // Throws std::runtime_error naming what is wrong.
    static Document from_glb(std::span<const std::byte> bytes);
    static Document from_file(const std::filesystem::path& path);

    const nlohmann::json& json() const { return json_; }
    // The top-level array `key` ("nodes", "accessors", ...), empty where the file has none (a file
    // with nothing to draw has no meshes or accessors; a const json's operator[] must not be asked
    // for a key it lacks).
    const nlohmann::json& list(const char* key) const {
        static const nlohmann::json kNone = nlohmann::json::array();
        return json_.contains(key) ? json_[key] : kNone;
    }
    // Accessor `index` as doubles, `*components` per element (normalized integers scaled to 0..1).
    std::vector<double> accessor(size_t index, size_t* components = nullptr) const;
    size_t accessor_count(size_t index) const { return json_["accessors"][index]["count"].get<size_t>(); }

    struct Pose {
        std::vector<Eigen::Matrix4d> globals; // per node
    };
    // Every node's global transform with animation `animation` at `seconds` applied (none: the rest pose).
    Pose pose(std::optional<size_t> animation, double seconds) const;
    // The last key time of an animation (its length).
    double animation_length(size_t animation) const;

    // Where each vertex of primitive `primitive` of the mesh node `node` holds lands in `pose`.
    std::vector<Eigen::Vector3d> posed_vertices(const Pose& pose, size_t node, size_t primitive) const;

  private:
    std::vector<std::byte> bytes_of_view(size_t view) const;
    nlohmann::json json_;
    std::vector<std::byte> bin_;
    std::vector<int64_t> parent_;
};

} // namespace assbin_test::gltf
