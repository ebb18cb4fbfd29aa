#include "chunk_walker.hpp"
#include <counting.hpp>

#include <assbin/format.hpp>

#include <cstdio>

namespace assbin::detail {

namespace {

std::string describe_id(uint32_t id) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%x", id);
    const char* name = chunk_name(id);
    return name ? std::string(name) + " (" + hex + ")" : std::string("unknown id ") + hex;
}

void record_skipped(ByteReader& parent, const ChunkHead& head) {
    ReadContext& context = parent.context();
    // Each record holds its chunk path, which grows with the nesting depth: counted, or a deep
    // chain of empty unknown chunks would turn 8 bytes of input into kilobytes of paths.
    const std::string path = context.path_string();
    if (context.skipped) {
        context.charge(sizeof(SkippedChunk), head.offset);
        context.charge_string(path.size(), head.offset);
        context.skipped->push_back({head.id, head.offset, head.length, path});
    }
    if (context.trace) {
        ChunkRecord record;
        record.id = head.id;
        record.offset = head.offset;
        record.declared_length = head.length;
        record.actual_length = head.length;
        record.depth = static_cast<unsigned>(context.path.size());
        record.skipped = true;
        record.complete = true;
        record.path = path + "/?";
        context.charge(sizeof(ChunkRecord), head.offset);
        context.charge_string(record.path.size(), head.offset);
        context.trace->push_back(std::move(record));
    }
}

} // namespace

ChunkHead next_chunk(ByteReader& parent, uint32_t expected_id, bool length_may_be_short) {
    for (;;) {
        ChunkHead head;
        head.offset = parent.offset();
        if (parent.remaining() < kChunkHeadSize) {
            parent.fail(ErrorCode::Truncated, "expected a " + describe_id(expected_id) + " chunk, but only " +
                                                  std::to_string(parent.remaining()) +
                                                  " bytes are left where its 8-byte head should be");
        }
        head.id = parent.u32("chunk id");
        head.length = parent.u32("chunk length");
        const bool known = chunk_name(head.id) != nullptr;
        if (known && head.id != expected_id) {
            parent.context().fail(ErrorCode::BadChunk, head.offset,
                                  "expected a " + describe_id(expected_id) + " chunk here, found " +
                                      describe_id(head.id) +
                                      ": the counts before it disagree with the chunks");
        }
        if (head.length > parent.remaining() && !(known && length_may_be_short)) {
            std::string message = describe_id(head.id) + " chunk declares " + assbin_common::with_thousands(head.length) +
                                  " bytes, but its parent has only " + assbin_common::with_thousands(parent.remaining()) +
                                  " left";
            if (head.length == head.id) {
                message += " (the length still holds the writer's placeholder, its chunk id: the writer "
                           "stopped before finishing this chunk)";
            }
            parent.context().fail(known ? ErrorCode::BadLength : ErrorCode::Truncated, head.offset, message);
        }
        if (known) return head;
        record_skipped(parent, head);
        parent.skip(head.length, "unknown chunk");
    }
}

void skip_trailing_chunks(ByteReader& chunk, const char* chunk_label) {
    while (!chunk.at_end()) {
        const size_t left = chunk.remaining();
        ChunkHead head;
        head.offset = chunk.offset();
        if (left >= kChunkHeadSize) {
            head.id = chunk.peek_u32(0);
            head.length = chunk.peek_u32(4);
        }
        if (left < kChunkHeadSize || chunk_name(head.id) != nullptr || head.length > left - kChunkHeadSize) {
            chunk.fail(ErrorCode::BadLength,
                       assbin_common::counted(left, "byte") + (left == 1 ? " is" : " are") +
                           " left over at the end of the " + chunk_label +
                           " chunk: its length disagrees with its content (another layout, or damage)");
        }
        chunk.skip(kChunkHeadSize, "chunk head");
        record_skipped(chunk, head);
        chunk.skip(head.length, "unknown chunk");
    }
}

size_t trace_enter(ReadContext& context, const ChunkHead& head) {
    if (!context.trace) return SIZE_MAX;
    ChunkRecord record;
    record.id = head.id;
    record.offset = head.offset;
    record.declared_length = head.length;
    record.depth = static_cast<unsigned>(context.path.size() - 1);
    record.path = context.path_string();
    context.charge(sizeof(ChunkRecord), head.offset);
    context.charge_string(record.path.size(), head.offset);
    context.trace->push_back(std::move(record));
    return context.trace->size() - 1;
}

void trace_field(ReadContext& context, size_t record, const char* key, std::string value) {
    if (record == SIZE_MAX) return;
    context.charge(sizeof(std::pair<std::string, std::string>), (*context.trace)[record].offset);
    context.charge_string(value.size(), (*context.trace)[record].offset);
    (*context.trace)[record].fields.emplace_back(key, std::move(value));
}

void trace_leave(ReadContext& context, size_t record, uint64_t payload_bytes) {
    if (record == SIZE_MAX) return;
    ChunkRecord& entry = (*context.trace)[record];
    entry.actual_length = payload_bytes;
    entry.complete = true;
}

ChunkScope::ChunkScope(ReadContext& context, std::string segment, const ChunkHead& head)
    : context_(context), path_(context, std::move(segment)), record_(trace_enter(context, head)) {}

void ChunkScope::field(const char* key, std::string value) {
    trace_field(context_, record_, key, std::move(value));
}

void ChunkScope::finish(uint64_t payload_bytes) {
    trace_leave(context_, record_, payload_bytes);
}

} // namespace assbin::detail
