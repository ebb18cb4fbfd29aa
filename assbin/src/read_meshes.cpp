// The scene's MESH chunks, in one thread or several. Exact chunk lengths give every mesh's extent
// before any is decoded, so large scenes spread their meshes over ReadOptions::threads threads.
// A parallel read either yields exactly what the one-thread read yields or gives way to it: on any
// error, on the allocation cap, or on anything but a plain run of MESH chunks, the meshes are read
// again in one thread, which then fails (or not) as it always has, at the same byte with the same
// message. What threads change is only how long the read takes.
#include "chunk_parsers.hpp"
#include "run_tasks.hpp"

#include <assbin/format.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <iterator>
#include <numeric>
#include <optional>
#include <thread>

namespace assbin::detail {

namespace {

struct MeshExtent {
    size_t position = 0; // of the MESH head, from the scene reader's position
    size_t bytes = 0;    // head and content
};

// The extents of the next `count` chunks when they are all MESH chunks that fit; empty otherwise
// (unknown chunks between meshes, a short or damaged run: the one-thread read handles those).
std::vector<MeshExtent> mesh_extents(const ByteReader& scene, uint32_t count) {
    std::vector<MeshExtent> extents;
    const std::byte* data = scene.current();
    const size_t available = scene.remaining();
    size_t at = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (available - at < kChunkHeadSize) return {};
        uint32_t id, length;
        std::memcpy(&id, data + at, 4);
        std::memcpy(&length, data + at + 4, 4);
        if (id != kChunkMesh || length > available - at - kChunkHeadSize) return {};
        extents.push_back({at, kChunkHeadSize + size_t{length}});
        at += extents.back().bytes;
    }
    return extents;
}

unsigned thread_count(const ReadOptions& options) {
    if (options.threads != 0) return options.threads;
    return std::max(1u, std::thread::hardware_concurrency());
}

void read_meshes_in_order(ByteReader& scene, ReadContext& context, uint32_t count, std::vector<Mesh>& out) {
    context.charge_array<Mesh>(count, scene.offset());
    out.reserve(count);
    for (uint32_t i = 0; i < count; ++i)
        out.push_back(read_mesh(scene, context, i));
}

// Thrown by a worker to stop the parallel read: the one-thread read decides.
struct GiveWay {};

// Decodes every mesh of `extents` on up to `threads` threads, each mesh with a context of its own.
// Returns the bytes they charged against the allocation cap (unknown chunks' records included), or
// nothing when the one-thread read must decide: a mesh failed, or all together pass the cap.
std::optional<uint64_t> read_meshes_in_parallel(const ByteReader& scene, const ReadContext& context,
                                                const std::vector<MeshExtent>& extents, unsigned threads,
                                                std::vector<Mesh>& out,
                                                std::vector<std::vector<SkippedChunk>>& skipped) {
    // Largest first, so no thread is left with a big mesh at the end.
    std::vector<size_t> order(extents.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return extents[a].bytes > extents[b].bytes; });
    const uint64_t cap_left = context.allocation_cap - context.allocated;
    std::atomic<uint64_t> allocated{0};
    Layout unused_layout; // meshes record no layout facts; a place to write them if one ever did
    try {
        assbin_common::run_tasks(order.size(), threads, [&](size_t k) {
            const size_t i = order[k];
            ReadContext own = context;
            own.trace = nullptr;
            own.skipped = &skipped[i];
            own.layout = &unused_layout;
            own.allocated = 0;
            own.allocation_cap = cap_left;
            ByteReader reader(scene.current() + extents[i].position, extents[i].bytes,
                              scene.offset() + extents[i].position, own);
            try {
                out[i] = read_mesh(reader, own, i);
            } catch (const ParseError&) {
                throw GiveWay{}; // the one-thread read gives the error, in file order
            }
            if ((allocated += own.allocated) > cap_left) throw GiveWay{};
        });
    } catch (const GiveWay&) {
        return std::nullopt;
    }
    return allocated.load();
}

} // namespace

void read_meshes(ByteReader& scene, ReadContext& context, uint32_t count, std::vector<Mesh>& out) {
    const unsigned threads = thread_count(*context.options);
    // Traced reads keep their file-order trace; old short lengths give no extents.
    const uint64_t enough_bytes = context.options->parallel_mesh_bytes;
    if (threads > 1 && count > 1 && context.exact_lengths && !context.trace &&
        scene.remaining() >= enough_bytes) {
        const std::vector<MeshExtent> extents = mesh_extents(scene, count);
        const size_t bytes = extents.empty() ? 0 : extents.back().position + extents.back().bytes;
        if (!extents.empty() && bytes >= enough_bytes) {
            const uint64_t allocated_before = context.allocated;
            context.charge_array<Mesh>(count, scene.offset());
            std::vector<std::vector<SkippedChunk>> skipped(count);
            out.resize(count);
            if (const std::optional<uint64_t> charged =
                    read_meshes_in_parallel(scene, context, extents, threads, out, skipped)) {
                context.allocated += *charged; // within the cap: the workers checked the sum
                if (context.options->report) context.options->report->meshes_read_in_parallel = count;
                for (std::vector<SkippedChunk>& found : skipped) {
                    if (context.skipped)
                        context.skipped->insert(context.skipped->end(),
                                                std::make_move_iterator(found.begin()),
                                                std::make_move_iterator(found.end()));
                }
                scene.skip(bytes, "meshes");
                return;
            }
            out = {};
            context.allocated = allocated_before;
            if (context.options->report) context.options->report->parallel_read_gave_way = true;
        }
    }
    read_meshes_in_order(scene, context, count, out);
}

} // namespace assbin::detail
