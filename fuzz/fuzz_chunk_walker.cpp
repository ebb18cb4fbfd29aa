// The chunk walker as `assbin tree` drives it: any variant, with the chunk trace on. Whatever the
// read's outcome, the trace must describe chunks that lie inside the file image, in file order, with
// depths that step down by at most one.
#include "fuzz_input.hpp"

#include <optional>

namespace {

void check_trace(const std::vector<assbin::ChunkRecord>& trace, uint64_t image_size) {
    uint64_t previous_offset = 0;
    unsigned previous_depth = 0;
    for (size_t i = 0; i < trace.size(); ++i) {
        const assbin::ChunkRecord& record = trace[i];
        if (record.offset < assbin::kHeaderSize || record.offset + 8 > image_size)
            assbin_fuzz::invariant_broken("a traced chunk head lies outside the file image");
        if (record.complete && record.offset + 8 + record.actual_length > image_size)
            assbin_fuzz::invariant_broken("a complete traced chunk runs past the file image");
        if (i > 0 && record.offset <= previous_offset)
            assbin_fuzz::invariant_broken("the trace is not in file order");
        if (i > 0 && record.depth > previous_depth + 1)
            assbin_fuzz::invariant_broken("a traced chunk is nested two levels below its predecessor");
        if (i == 0 && record.depth != 0) assbin_fuzz::invariant_broken("the trace does not start at SCENE");
        previous_offset = record.offset;
        previous_depth = record.depth;
    }
}

// `assbin tree` reads with structure_only (arrays checked, not copied): it must meet the same chunks
// and the same outcome as a full read, except where the full read alone hits the allocation limit.
void check_structure_only_read(const uint8_t* data, size_t size,
                               const std::vector<assbin::ChunkRecord>& trace,
                               const std::optional<assbin::ParseError>& error) {
    if (error && error->code() == assbin::ErrorCode::LimitExceeded) return;
    std::vector<assbin::ChunkRecord> walk;
    assbin::ReadOptions options = assbin_fuzz::fuzz_read_options();
    options.chunk_trace = &walk;
    options.structure_only = true;
    std::optional<assbin::ParseError> walk_error;
    try {
        (void)assbin::read_scene(assbin_fuzz::as_bytes(data, size), options);
    } catch (const assbin::ParseError& e) {
        walk_error = e;
    }
    if (error.has_value() != walk_error.has_value())
        assbin_fuzz::invariant_broken("a structure-only read and a full read disagree on success");
    if (error && (error->code() != walk_error->code() || error->offset() != walk_error->offset() ||
                  error->chunk_path() != walk_error->chunk_path()))
        assbin_fuzz::invariant_broken("a structure-only read fails elsewhere than a full read");
    if (walk.size() != trace.size())
        assbin_fuzz::invariant_broken("a structure-only read walks other chunks than a full read");
    for (size_t i = 0; i < walk.size(); ++i) {
        if (walk[i].offset != trace[i].offset || walk[i].id != trace[i].id || walk[i].path != trace[i].path ||
            walk[i].actual_length != trace[i].actual_length || walk[i].complete != trace[i].complete ||
            walk[i].fields != trace[i].fields)
            assbin_fuzz::invariant_broken("a structure-only read records a chunk differently");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<assbin::ChunkRecord> trace;
    assbin::ReadOptions options = assbin_fuzz::fuzz_read_options();
    options.chunk_trace = &trace;
    uint64_t image_size = 0;
    std::optional<assbin::ParseError> error;
    try {
        const assbin::Scene scene = assbin::read_scene(assbin_fuzz::as_bytes(data, size), options);
        image_size = assbin::kHeaderSize + scene.body_bytes;
    } catch (const assbin::ParseError& e) {
        error = e;
        // The image size is not known after a failed inflate; the plain file bounds the rest.
        if (size >= 64 && data[62] == 0 && data[63] == 0) image_size = size;
    }
    check_structure_only_read(data, size, trace, error);
    if (image_size != 0) check_trace(trace, image_size);
    return 0;
}
