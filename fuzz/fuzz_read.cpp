// The ASSBIN reader on hostile bytes, built three times (FUZZ_VARIANT): full dumps, shortened
// dumps, and compressed dumps. Anything read must also validate, write in the current layout, read
// back, and compare equal to itself: the reader never accepts what the rest of the library chokes on.
// A read that decodes meshes on two threads must end exactly as the read on one does.
#include "fuzz_input.hpp"

#include <assbin/compare.hpp>
#include <assbin/validate.hpp>
#include <assbin/writer.hpp>

#include <zlib.h>

#include <stdexcept>

#define FUZZ_FULL 0
#define FUZZ_SHORTENED 1
#define FUZZ_COMPRESSED 2

namespace {

using assbin_fuzz::invariant_broken;

#if FUZZ_VARIANT == FUZZ_COMPRESSED
// Input with the compressed flag already set goes in as it is (corrupt and lying streams); any
// other input is a plain dump whose body is compressed here, so the reader sees valid streams whose
// content the fuzzer controls. Bit 0 of header byte 43 picks the prefix: the body length (5.0+) or
// the compressed length (3.0 - 4.1.0, which the reader inflates without knowing the size).
std::vector<std::byte> make_input(const uint8_t* data, size_t size) {
    const bool shortened = size > 60 && (data[60] & 1) != 0;
    if (size >= 64 && data[62] == 1 && data[63] == 0)
        return assbin_fuzz::with_variant(data, size, shortened, true);
    std::vector<std::byte> plain = assbin_fuzz::with_variant(data, size, shortened, false);
    const size_t body_size = plain.size() - assbin::kHeaderSize;
    uLongf stream_size = compressBound(body_size);
    std::vector<std::byte> out(assbin::kHeaderSize + 4 + stream_size);
    if (compress2(reinterpret_cast<Bytef*>(out.data() + assbin::kHeaderSize + 4), &stream_size,
                  reinterpret_cast<const Bytef*>(plain.data() + assbin::kHeaderSize), body_size, 1) != Z_OK)
        invariant_broken("compress2 failed");
    out.resize(assbin::kHeaderSize + 4 + stream_size);
    std::memcpy(out.data(), plain.data(), assbin::kHeaderSize);
    out[62] = std::byte{1};
    const uint32_t prefix = (plain[43] & std::byte{1}) != std::byte{0} ? static_cast<uint32_t>(stream_size)
                                                                       : static_cast<uint32_t>(body_size);
    std::memcpy(out.data() + assbin::kHeaderSize, &prefix, 4);
    return out;
}
#else
std::vector<std::byte> make_input(const uint8_t* data, size_t size) {
    return assbin_fuzz::with_variant(data, size, FUZZ_VARIANT == FUZZ_SHORTENED, false);
}
#endif

void check_round_trip(const assbin::Scene& scene) {
    assbin::WriteOptions write_options;
    write_options.shortened = scene.header.is_shortened();
    write_options.time = std::chrono::system_clock::time_point{};
    std::vector<std::byte> written;
    try {
        written = assbin::write(scene, write_options);
    } catch (const assbin::WriteError&) {
        return; // a documented precondition the read scene does not meet (checked, not crashed)
    }
    assbin::Scene again;
    try {
        again = assbin::read_scene(written, assbin_fuzz::fuzz_read_options());
    } catch (const assbin::ParseError& error) {
        std::fprintf(stderr, "%s\n", error.what());
        invariant_broken("the writer's output of a scene the reader accepted does not read back");
    }
    assbin::CompareOptions exact;
    exact.epsilon = 0;
    const assbin::CompareResult result = assbin::compare(again, scene, exact);
    if (!result.same()) {
        for (const assbin::Difference& difference : result.differences)
            std::fprintf(stderr, "%s: %s vs %s\n", difference.path.c_str(), difference.actual.c_str(),
                         difference.expected.c_str());
        invariant_broken("a scene written and read back differs from the scene read");
    }
}

// `assbin info` reads with array_views (arrays left in the input): the same read must succeed and
// validate() must find the same problems as on the copied arrays.
void check_views_validate_the_same(const std::vector<std::byte>& input,
                                   const std::vector<assbin::Problem>& problems) {
    assbin::ReadOptions options = assbin_fuzz::fuzz_read_options();
    options.array_views = true;
    assbin::Scene viewed;
    try {
        viewed = assbin::read_scene(input, options);
    } catch (const assbin::ParseError& error) {
        std::fprintf(stderr, "%s\n", error.what());
        invariant_broken("a read with array_views refuses what a full read accepts");
    }
    const std::vector<assbin::Problem> found = assbin::validate(viewed);
    if (found.size() != problems.size()) invariant_broken("array_views: validate finds other problems");
    for (size_t p = 0; p < found.size(); ++p) {
        if (found[p].message != problems[p].message || found[p].path != problems[p].path)
            invariant_broken("array_views: validate words a problem differently");
    }
}

// Meshes decoded on two threads (at any size) must give exactly the one-thread read's scene, or
// its error: the same code, offset, chunk path and message.
void check_parallel_read(const std::vector<std::byte>& input, const assbin::Scene* scene,
                         const assbin::ParseError* error) {
    assbin::ReadOptions options = assbin_fuzz::fuzz_read_options();
    options.threads = 2;
    options.parallel_mesh_bytes = 0;
    assbin::Scene parallel;
    try {
        parallel = assbin::read_scene(input, options);
    } catch (const assbin::ParseError& parallel_error) {
        if (!error) invariant_broken("a read on two threads refuses what a read on one accepts");
        if (parallel_error.code() != error->code() || parallel_error.offset() != error->offset() ||
            parallel_error.chunk_path() != error->chunk_path() ||
            parallel_error.message() != error->message())
            invariant_broken("a read on two threads fails otherwise than a read on one");
        return;
    }
    if (!scene) invariant_broken("a read on two threads accepts what a read on one refuses");
    assbin::CompareOptions exact;
    exact.epsilon = 0;
    if (!assbin::compare(parallel, *scene, exact).same())
        invariant_broken("a read on two threads gives another scene than a read on one");
    if (parallel.skipped_chunks.size() != scene->skipped_chunks.size())
        invariant_broken("a read on two threads skips other chunks than a read on one");
    for (size_t i = 0; i < parallel.skipped_chunks.size(); ++i) {
        const assbin::SkippedChunk &a = parallel.skipped_chunks[i], &b = scene->skipped_chunks[i];
        if (a.id != b.id || a.offset != b.offset || a.length != b.length || a.path != b.path)
            invariant_broken("a read on two threads records a skipped chunk otherwise than a read on one");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::vector<std::byte> input = make_input(data, size);
    assbin::Scene scene;
    try {
        scene = assbin::read_scene(input, assbin_fuzz::fuzz_read_options());
    } catch (const assbin::ParseError& error) {
        assbin_fuzz::ReadOutcomes::count(&error);
        check_parallel_read(input, nullptr, &error);
        return 0; // the expected outcome for almost every input
    }
    assbin_fuzz::ReadOutcomes::count(nullptr);
    check_parallel_read(input, &scene, nullptr);
    check_views_validate_the_same(input, assbin::validate(scene));
    check_round_trip(scene);
    return 0;
}
