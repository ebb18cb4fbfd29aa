// Walking chunks: finding the next expected chunk (stepping over unknown ids), checking each
// length against the parent, and recording the walk for `assbin tree`.
#pragma once

#include "byte_reader.hpp"
#include "read_context.hpp"

#include <cstdint>
#include <string>

namespace assbin::detail {

struct ChunkHead {
    uint32_t id = 0;
    uint32_t length = 0;
    uint64_t offset = 0; // of the 8-byte head in the file image
};

// Reads the next chunk head, which must be `expected_id`. Unknown ids are stepped over and
// reported (scene.skipped_chunks and the trace); a known but different id is an error. Unless
// `length_may_be_short` (old MESH/SCENE lengths, §3), the length must fit in the parent.
ChunkHead next_chunk(ByteReader& parent, uint32_t expected_id, bool length_may_be_short = false);

// After a chunk's known content: what is left must be unknown chunks, which are stepped over and
// reported; anything else is a layout mismatch or damage and fails.
void skip_trailing_chunks(ByteReader& chunk, const char* chunk_label);

// Trace bookkeeping without a scope, for parsers that keep their own stack (the node tree).
// trace_enter returns the record index, or SIZE_MAX when not tracing.
size_t trace_enter(ReadContext& context, const ChunkHead& head);
void trace_field(ReadContext& context, size_t record, const char* key, std::string value);
void trace_leave(ReadContext& context, size_t record, uint64_t payload_bytes);

// One chunk being read: pushes its path segment and, when tracing, its ChunkRecord.
class ChunkScope {
  public:
    ChunkScope(ReadContext& context, std::string segment, const ChunkHead& head);
    ~ChunkScope() = default;
    ChunkScope(const ChunkScope&) = delete;
    ChunkScope& operator=(const ChunkScope&) = delete;

    bool tracing() const { return record_ != SIZE_MAX; }
    void field(const char* key, std::string value);
    void field(const char* key, uint64_t value) {
        if (tracing()) field(key, std::to_string(value));
    }
    // Marks the chunk read completely, `payload_bytes` after its head.
    void finish(uint64_t payload_bytes);

  private:
    ReadContext& context_;
    PathScope path_;
    size_t record_ = SIZE_MAX;
};

} // namespace assbin::detail
