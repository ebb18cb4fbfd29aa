// The state one write shares between the chunk writers (the chunk path for error messages, full or
// shortened); the bytes go through byte_writer.hpp.
#pragma once

#include "byte_writer.hpp"

#include <assbin/types.hpp>
#include <assbin/writer.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace assbin::detail {

struct WriteContext {
    bool shortened = false; // write the §5 shortened form
    bool from_full = true;  // the scene holds full arrays (bounds and hashes are computed from them)
    std::vector<std::string> path{"scene"}; // chunk path segments, for error messages
    ByteWriter out{*this};

    std::string path_string() const;
    [[noreturn]] void fail(const std::string& message) const { throw WriteError(path_string(), message); }
    // Fails unless `actual` == `expected`; `what` names the array, `count` the count it must match.
    void require_size(uint64_t actual, uint64_t expected, const char* what, const char* count) const;
};

// Pushes one chunk path segment for the lifetime of the scope.
class WritePathScope {
  public:
    WritePathScope(WriteContext& context, std::string segment) : context_(context) {
        context_.path.push_back(std::move(segment));
    }
    ~WritePathScope() { context_.path.pop_back(); }
    WritePathScope(const WritePathScope&) = delete;
    WritePathScope& operator=(const WritePathScope&) = delete;

  private:
    WriteContext& context_;
};

// "mesh[3]"
std::string indexed_segment(const char* name, size_t index);

// One writer per chunk type, mirroring chunk_parsers.hpp. Each writes one whole chunk.
void write_node_tree(WriteContext& context, const std::vector<Node>& nodes);
void write_mesh(WriteContext& context, const Mesh& mesh, size_t index);
void write_material(WriteContext& context, const Material& material, size_t index);
void write_animation(WriteContext& context, const Animation& animation, size_t index);
void write_texture(WriteContext& context, const Texture& texture, size_t index);
void write_light(WriteContext& context, const Light& light, size_t index);
void write_camera(WriteContext& context, const Camera& camera, size_t index);

// The 512-byte header (write_header.cpp).
std::vector<std::byte> header_bytes(const WriteOptions& options, bool shortened);
// `u32 body length` + zlib stream of the body (write_compression.cpp).
std::vector<std::byte> compress_body(std::span<const std::byte> body, int level);

} // namespace assbin::detail
