// State shared by every chunk parser of one read: options, the chunk path for error messages,
// the layout facts found so far, and the optional chunk trace.
#pragma once

#include <assbin/error.hpp>
#include <assbin/reader.hpp>
#include <assbin/types.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace assbin::detail {

struct ReadContext {
    const ReadOptions* options = nullptr;
    bool shortened = false;
    bool mixed_double = false;         // 5.2.5+ double layout: wider vectors and matrices
    bool node_metadata = true;         // the layout being read has node metadata counts
    bool exact_lengths = true;         // MESH/SCENE lengths can be trusted
    uint64_t scene_length_deficit = 0; // how much shorter old MESH lengths were than their content
    std::vector<std::string> path;     // chunk path segments: "scene", "mesh[3]", ...
    std::vector<ChunkRecord>* trace = nullptr;
    std::vector<SkippedChunk>* skipped = nullptr;
    Layout* layout = nullptr;

    std::string path_string() const;
    [[noreturn]] void fail(ErrorCode code, uint64_t offset, const std::string& message) const;

    // Size in bytes of the compound types, which grow in the 5.2.5+ double layout (§0).
    size_t vec3_bytes() const { return mixed_double ? 16 : 12; }
    size_t color3_bytes() const { return mixed_double ? 16 : 12; }
    size_t color4_bytes() const { return mixed_double ? 20 : 16; }
    size_t quat_bytes() const { return mixed_double ? 20 : 16; }
    size_t matrix_bytes() const { return mixed_double ? 128 : 64; }
};

// Pushes one chunk path segment for the lifetime of the scope.
class PathScope {
  public:
    PathScope(ReadContext& context, std::string segment) : context_(context) {
        context_.path.push_back(std::move(segment));
    }
    ~PathScope() { context_.path.pop_back(); }
    PathScope(const PathScope&) = delete;
    PathScope& operator=(const PathScope&) = delete;

  private:
    ReadContext& context_;
};

// "mesh[3]"
inline std::string indexed(const char* name, size_t index) {
    return std::string(name) + "[" + std::to_string(index) + "]";
}

} // namespace assbin::detail
