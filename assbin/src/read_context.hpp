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
    // Bytes the scene (and trace) being built will hold, counted before each allocation, against
    // `allocation_cap` (ReadLimits::max_allocation_ratio x body + max_allocation_allowance).
    uint64_t allocated = 0;
    uint64_t allocation_cap = UINT64_MAX;
    uint64_t body_bytes = 0;

    std::string path_string() const;
    [[noreturn]] void fail(ErrorCode code, uint64_t offset, const std::string& message,
                           Limit limit = Limit::None) const;

    // Counts `bytes` about to be allocated at `offset`; fails naming the limit when over the cap.
    void charge(uint64_t bytes, uint64_t offset) {
        allocated += bytes;
        if (allocated > allocation_cap) fail_allocation(offset);
    }
    // Whether `bytes` more can be allocated within the cap (for reads that try a fast way first).
    bool fits(uint64_t bytes) const { return bytes <= allocation_cap - allocated; }
    // Counts `count` elements of T (overflow-safe: a count is at most 2^32).
    template <class T>
    void charge_array(uint64_t count, uint64_t offset) {
        charge(count * sizeof(T), offset);
    }
    // A heap string of `length` characters (short ones live inside the std::string).
    void charge_string(uint64_t length, uint64_t offset) {
        if (length > 15) charge(length + 1, offset);
    }
    [[noreturn]] void fail_allocation(uint64_t offset) const;

    // Size in bytes of the compound types, which grow in the 5.2.5+ double layout (§0).
    size_t vec3_bytes() const { return mixed_double ? 16 : 12; }
    size_t color3_bytes() const { return mixed_double ? 16 : 12; }
    // ReadOptions::structure_only: vertex streams, faces and weights are checked and stepped over.
    bool structure_only() const { return options->structure_only; }
    // ReadOptions::array_views: plain-record arrays are left in the data (FileRecords).
    bool array_views() const { return options->array_views; }
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
