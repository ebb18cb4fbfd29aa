// Game-ready geometry (issue "welded, cache-optimised, one mesh per material"): after baking and
// skinning, each output mesh is welded (identical 92-byte vertex records become one vertex: weld.cpp,
// numbered as meshoptimizer numbers them), its triangles are put in vertex-cache order and then
// overdraw order, and its vertices in first-use order, with meshoptimizer, the library behind gltfpack.
// Nothing is dropped: every triangle keeps its corners and winding, only the order of triangles and the
// numbering of vertices change.
// Cost: the weld is linear (weld.cpp); Forsyth's vertex-cache order is linear while the live
// triangles per index stay under kForsythWorkPerIndex, and Tipsify (linear whatever the valence)
// takes over above it (fans, stacked copies, a book's hinge); overdraw order sorts clusters of
// triangles (n log n in the clusters) and the first-use renumbering is one pass. Tangent frames are
// written per corner (output_tangents.cpp: a vertex's copies found through a table once many).
#include "geometry/mikktspace.hpp"
#include "geometry/vertex_groups.hpp"
#include "pipeline.hpp"
#include "run_tasks.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

namespace assbin::converter::detail {

// The weld compares whole records as bytes: the record must be exactly the file's 92 bytes, with
// no padding whose contents would differ between equal vertices.
static_assert(sizeof(aem::Vertex) == 92, "aem::Vertex must have no padding");
static_assert(offsetof(aem::Vertex, position) == 0);

namespace {

// meshopt_optimizeVertexCache (Forsyth's scores) costs, for each triangle it emits, the live
// triangles of every vertex in its cache: about the sum of valence squared over the vertices. Below
// this many units per index that is linear in practice (a grid: ~6 per index); above it (a fan
// around one vertex, stacked duplicates welded into one) the mesh is ordered by
// meshopt_optimizeVertexCacheFifo (Tipsify: linear whatever the valence, a few percent more cache
// misses).
constexpr uint64_t kForsythWorkPerIndex = 64;
// Scratch indices kept from group to group up to this many (a big mesh's are given back at once).
constexpr size_t kKeptScratch = size_t{1} << 20;
// From this many indices, a second thread makes what does not depend on the triangles' order while
// meshoptimizer orders them (below, starting the thread costs more than it saves).
constexpr size_t kSpareThreadIndices = size_t{3} << 16;
// A mesh of at least twice this many triangles whose triangles keep their neighbours together is
// ordered span by span: contiguous runs of kSpanTriangles to 1.5 x kSpanTriangles triangles, in the
// order they come, each renumbered to its own vertices and given its own cache and overdraw orders,
// on the converter's threads. Whole, the two orders are serial, a fifth of a big mesh's one-thread
// time; the grid's (977k triangles, meshoptimizer 0.18) took 185 ms whole, 140 ms by spans on one
// thread (a span's per-vertex arrays stay in cache) and 80 ms on two, for an ACMR of 0.658 instead
// of 0.656 (only the vertices on a span's border load twice). Spans of 65,536 took as long and lost
// more. The spans depend on the mesh alone, never on the thread count: the output is the same on any.
constexpr size_t kSpanTriangles = size_t{1} << 17;

size_t vertices_transformed(std::span<const uint32_t> indices, size_t vertex_count) {
    if (indices.empty()) return 0;
    return meshopt_analyzeVertexCache(indices.data(), indices.size(), vertex_count, kCacheSize, 0, 0)
        .vertices_transformed;
}

size_t degenerate_triangles(std::span<const uint32_t> indices) {
    size_t count = 0;
    for (size_t t = 0; t + 2 < indices.size(); t += 3) {
        const uint32_t a = indices[t], b = indices[t + 1], c = indices[t + 2];
        count += (a == b) | (b == c) | (a == c);
    }
    return count;
}

// Welds, reorders and compacts the groups one after the other, rewriting the vertex section in
// place: welding shrinks a group, so its output rarely reaches past its own input; where vertices
// split for tangents make it grow, the input not yet read is moved up first (make_room).
class GeometryOptimizer {
  public:
    GeometryOptimizer(const EmitResult& emitted, const ConvertOptions& options, ConvertResult& result)
        : emitted_(emitted), options_(options), result_(result) {}

    void run(const std::vector<MeshGroup>& groups) {
        aem::Model& model = result_.model;
        std::vector<aem::Mesh> meshes;
        meshes.reserve(groups.size());
        for (const MeshGroup& group : groups) {
            optimize_group(group);
            meshes.push_back({group.first_index, group.index_count, group.material});
        }
        model.meshes = std::move(meshes);
        model.vertices.resize(written_);
        if (options_.record_vertex_origins) result_.vertex_origins.resize(written_);
    }

  private:
    void optimize_group(const MeshGroup& group) {
        aem::Model& model = result_.model;
        const uint32_t first = group.first_vertex + static_cast<uint32_t>(shift_);
        const std::span<const aem::Vertex> source(model.vertices.data() + first, group.vertex_count);
        const std::span<uint32_t> indices(model.indices.data() + group.first_index, group.index_count);
        local_ = indices; // numbered within the group while it is optimised, in place
        for (uint32_t& index : local_)
            index -= group.first_vertex;
        // The source order's cache statistic (the report's "source order" ACMR) reads the triangles
        // as the weld does, before the weld renumbers them: beside it, on a thread to spare.
        size_t source_transformed = 0;
        const auto source_statistic = [&] {
            source_transformed = vertices_transformed(local_, source.size());
        };

        // When this group's source records are all the vertex section still holds (one big mesh),
        // they are welded in the section's own array, which becomes `welded_`, or else given back
        // now that `welded_` has them, before the tangent frames' arrays arrive.
        const bool released = written_ == 0 && first + group.vertex_count == model.vertices.size();
        size_t unique = weld(source, first, released && first == 0, source_statistic);
        result_.stats.source_vertices_transformed += source_transformed;
        if (released) {
            std::vector<aem::Vertex>().swap(model.vertices);
            if (options_.record_vertex_origins) std::vector<VertexOrigin>().swap(result_.vertex_origins);
        }
        ordered_linearly_ = false;
        const bool wants_frames = mark_wanted_tangents(group, unique);
        // MikkTSpace's point identities depend on the welded vertices only: made, on a thread to
        // spare, while the triangles are ordered.
        std::vector<uint32_t> identities;
        order_triangles(unique, [&] {
            if (wants_frames)
                identities = point_identities(std::span<const aem::Vertex>(welded_.data(), unique));
        });
        // Frames on the final triangle order, which they depend on in a few places. Where vertices
        // split, the triangles are ordered again with the copies (so the cache order counts them),
        // and the frames are written again on that order.
        // The second time, the first run's terms are summed again in the new order where MikkTSpace
        // allows (KeptTangentRun): the same frames as a second run.
        if (wants_frames) {
            const size_t with_copies =
                add_tangent_frames(unique, &first_run_, nullptr, identities.empty() ? nullptr : &identities);
            std::vector<uint32_t>().swap(identities);
            if (with_copies > unique) {
                order_triangles(with_copies);
                wanted_.resize(with_copies, 1);
                unique = reweld(add_tangent_frames(with_copies, nullptr, &first_run_));
            } else {
                unique = with_copies;
            }
            first_run_.clear();
        }
        if (released) {
            if (options_.record_vertex_origins) result_.vertex_origins.resize(unique);
        } else {
            make_room(first + group.vertex_count, unique);
        }
        // The written order's statistics read the final triangles only: beside the vertices' move.
        order_vertices(unique, released, [&] {
            result_.stats.vertices_transformed += vertices_transformed(local_, unique);
            result_.stats.degenerate_triangles += degenerate_triangles(local_);
        });
        for (uint32_t& index : local_)
            index += static_cast<uint32_t>(written_);
        result_.stats.meshes_ordered_linearly += ordered_linearly_;
        written_ += unique;
    }

    // Runs `main` and `beside` at once where a thread is to spare and the group is big enough to
    // repay starting one (both are memory-bound passes over the triangles or the vertices); else
    // one after the other. Neither may write what the other reads.
    void run_beside(const std::function<void()>& main, const std::function<void()>& beside) const {
        if (thread_count(options_.threads) > 1 && local_.size() >= kSpareThreadIndices) {
            assbin_common::run_tasks(2, 2, [&](size_t task) { task == 0 ? main() : beside(); });
        } else {
            main();
            beside();
        }
    }

    // The triangles' corners renumbered through remap_, in ranges on the converter's threads when
    // the group is big (each corner on its own: any split gives the same numbers).
    void renumber_triangles() {
        constexpr size_t kRange = size_t{3} << 16; // whole triangles (meshoptimizer asks for them)
        const unsigned threads = thread_count(options_.threads);
        if (threads == 1 || local_.size() < 2 * kRange) {
            meshopt_remapIndexBuffer(local_.data(), local_.data(), local_.size(), remap_.data());
            return;
        }
        const size_t ranges = (local_.size() + kRange - 1) / kRange;
        assbin_common::run_tasks(ranges, threads, [&](size_t r) {
            const size_t begin = r * kRange, count = std::min(kRange, local_.size() - begin);
            meshopt_remapIndexBuffer(local_.data() + begin, local_.data() + begin, count, remap_.data());
        });
    }

    // Identical records become one vertex (numbered in order of first use); the welded vertices go
    // to `welded_`, their origins to `welded_origins_`.
    // With `whole_section` (the group is the whole vertex section: one big mesh, or a model of one
    // material) and few records dropped, the welded records are moved within the section's own
    // array, which then becomes `welded_`: a new array as large would be faulted in page by page
    // only to be copied into (the grid: 45 MB, 33 of the weld's 60 ms). Where the weld drops more
    // than an eighth, copying the few records kept costs less than moving them all (a corpus model
    // of 141,312 records keeps 35,818), and the section's array would hold the dropped ones' memory
    // up to the output (the 64 stacked grids' peak 124 -> 155 MB).
    // `beside` runs at the same time as the records are compared, reading the triangles only.
    size_t weld(std::span<const aem::Vertex> source, uint32_t first_vertex, bool whole_section,
                const std::function<void()>& beside) {
        remap_.resize(source.size());
        size_t unique = 0;
        run_beside(
            [&] { unique = weld_records(remap_, local_, source.data(), source.size(), sizeof(aem::Vertex)); },
            beside);
        renumber_triangles();
        keep_welded_origins(source.size(), first_vertex, unique);
        if (whole_section && source.size() - unique <= source.size() / 8) {
            move_welded_in_place(unique);
        } else {
            welded_.resize(unique);
            meshopt_remapVertexBuffer(welded_.data(), source.data(), source.size(), sizeof(aem::Vertex),
                                      remap_.data());
        }
        return unique;
    }

    // Each welded vertex's first record goes to its number; the others, equal to a first one or used
    // by no triangle, go past the welded ones, to be cut off. The section's array becomes `welded_`.
    void move_welded_in_place(size_t unique) {
        std::vector<aem::Vertex>& records = result_.model.vertices;
        std::vector<uint32_t> new_index(records.size());
        std::vector<uint8_t> placed(unique, 0);
        uint32_t spare = static_cast<uint32_t>(unique);
        for (size_t v = 0; v < records.size(); ++v) {
            const uint32_t number = remap_[v];
            if (number != kNoVertex && !placed[number]) {
                placed[number] = 1;
                new_index[v] = number;
            } else {
                new_index[v] = spare++;
            }
        }
        permute_in_place(records, new_index);
        welded_ = std::move(records);
        records.clear();
        welded_.resize(unique);
    }

    // A welded vertex keeps the origin of its first source vertex (all of them pose alike: their
    // records, bones and weights included, are the same).
    void keep_welded_origins(size_t count, uint32_t first_vertex, size_t unique) {
        if (!options_.record_vertex_origins) return;
        welded_origins_.assign(unique, VertexOrigin{});
        for (size_t v = count; v-- > 0;) {
            if (remap_[v] != kNoVertex) welded_origins_[remap_[v]] = result_.vertex_origins[first_vertex + v];
        }
    }

    // Marks the welded vertices of the group's meshes marked tangents_missing; false when none is.
    bool mark_wanted_tangents(const MeshGroup& group, size_t unique) {
        wanted_.assign(unique, 0);
        bool any = false;
        for (uint32_t m = group.first_mesh; m < group.first_mesh + group.mesh_count; ++m) {
            if (!emitted_.tangents_missing[m]) continue;
            any = true;
            const VertexRange range = emitted_.mesh_vertices[m];
            for (uint32_t v = range.first - group.first_vertex;
                 v < range.first - group.first_vertex + range.count; ++v)
                if (remap_[v] != kNoVertex) wanted_[remap_[v]] = 1;
        }
        return any;
    }

    // MikkTSpace's frames for the marked vertices, on the triangles in their present order (the
    // frames depend on it in a few places, so this runs once the order is final); returns the
    // vertex count with the split copies. Welding took the wanted vertices without tangents.
    // With `keep`, the run is kept for a reordering; with `previous`, such a run is used.
    // `identities`: point_identities of the `count` vertices, when made ahead.
    size_t add_tangent_frames(size_t count, KeptTangentRun* keep, const KeptTangentRun* previous,
                              const std::vector<uint32_t>* identities = nullptr) {
        welded_.resize(count);
        if (options_.record_vertex_origins) welded_origins_.resize(count);
        const std::vector<uint32_t> copies = write_tangent_frames(
            welded_, local_, wanted_, true, thread_count(options_.threads), keep, previous, identities);
        if (options_.record_vertex_origins) {
            for (const uint32_t source : copies)
                welded_origins_.push_back(welded_origins_[source]);
        }
        result_.stats.vertices_split_for_tangents += copies.size();
        // In a group that also holds stored tangents, a generated frame can make a vertex equal to
        // one that kept its stored frame: weld those.
        if (std::find(wanted_.begin(), wanted_.end(), 0) != wanted_.end()) {
            const size_t before = welded_.size(), after = reweld(before);
            if (keep && after != before) keep->clear(); // renumbered: its triangles are not found again
            return after;
        }
        return welded_.size();
    }

    size_t reweld(size_t count) {
        remap_.resize(count);
        const size_t unique = weld_records(remap_, local_, welded_.data(), count, sizeof(aem::Vertex));
        if (unique == count) return count;
        renumber_triangles();
        std::vector<aem::Vertex> kept(unique);
        meshopt_remapVertexBuffer(kept.data(), welded_.data(), count, sizeof(aem::Vertex), remap_.data());
        welded_ = std::move(kept);
        if (options_.record_vertex_origins) {
            std::vector<VertexOrigin> origins(unique);
            for (size_t v = count; v-- > 0;)
                if (remap_[v] != kNoVertex) origins[remap_[v]] = welded_origins_[v];
            welded_origins_ = std::move(origins);
        }
        return unique;
    }

    // The group's output goes to [written_, written_ + count); the input not yet read starts at
    // `unread`. Where the output would reach it, that input moves up (rare: only split vertices
    // make a group grow).
    void make_room(size_t unread, size_t count) {
        if (written_ + count <= unread) return;
        const size_t grow = written_ + count - unread;
        aem::Model& model = result_.model;
        model.vertices.insert(model.vertices.begin() + static_cast<std::ptrdiff_t>(unread), grow,
                              aem::Vertex{});
        if (options_.record_vertex_origins) {
            result_.vertex_origins.insert(
                result_.vertex_origins.begin() + static_cast<std::ptrdiff_t>(unread), grow, VertexOrigin{});
        }
        shift_ += grow;
    }

    // Vertex-cache order, then overdraw order. The cache order is serial (meshoptimizer): on big
    // meshes with a thread to spare, the overdraw pass's positions and `on_spare_thread` (not run
    // otherwise) are made meanwhile. The biggest are ordered by spans (kSpanTriangles).
    void order_triangles(size_t vertex_count, const std::function<void()>& on_spare_thread = {}) {
        if (local_.empty()) return;
        if (local_.size() / 3 >= 2 * kSpanTriangles && spans_share_few_vertices(vertex_count)) {
            order_triangles_by_spans(vertex_count, on_spare_thread);
            return;
        }
        scratch_.resize(local_.size());
        const auto cache_order = [&] {
            if (forsyth_order_is_linear(local_, vertex_count, valence_)) {
                meshopt_optimizeVertexCache(scratch_.data(), local_.data(), local_.size(), vertex_count);
            } else {
                meshopt_optimizeVertexCacheFifo(scratch_.data(), local_.data(), local_.size(), vertex_count,
                                                kCacheSize);
                ordered_linearly_ = true;
            }
        };
        std::vector<float> positions;
        const auto overdraw_positions = [&] {
            positions = unit_cube_positions(std::span(welded_.data(), vertex_count));
        };
        if (thread_count(options_.threads) > 1 && local_.size() >= kSpareThreadIndices) {
            assbin_common::run_tasks(2, 2, [&](size_t task) {
                if (task == 0) {
                    cache_order();
                } else {
                    overdraw_positions();
                    if (on_spare_thread) on_spare_thread();
                }
            });
        } else {
            cache_order();
            overdraw_positions();
        }
        meshopt_optimizeOverdraw(local_.data(), scratch_.data(), scratch_.size(), positions.data(),
                                 vertex_count, 3 * sizeof(float), kOverdrawThreshold);
        if (scratch_.size() > kKeptScratch)
            std::vector<uint32_t>().swap(scratch_); // not held through the frames
    }

    // A worker's scratch for ordering spans: `number` maps the mesh's vertices to the span's
    // (kNoVertex outside it; reset after each span, so that a span costs its own size only).
    struct SpanScratch {
        explicit SpanScratch(size_t vertex_count) : number(vertex_count, kNoVertex) {}
        std::vector<uint32_t> number, vertices, local, ordered, valence;
    };

    // Whether ordering by spans would load few vertices more than once: the vertices the spans
    // share add at most 1/64 of a vertex per triangle (0.016) to the ACMR. Meshes whose triangles
    // come in an order that keeps neighbours together (a scan, a grid, meshes one after another)
    // pass (the grid: 0.004); shuffled triangles, or stacked copies each span holds some of, are
    // ordered whole.
    bool spans_share_few_vertices(size_t vertex_count) const {
        const size_t triangles = local_.size() / 3, spans = triangles / kSpanTriangles;
        std::vector<uint32_t> last_span(vertex_count, 0); // the last span using a vertex, plus one
        size_t loads = 0;
        for (size_t span = 0; span < spans; ++span) {
            const uint32_t stamp = static_cast<uint32_t>(span + 1);
            for (size_t i = 3 * (triangles * span / spans); i < 3 * (triangles * (span + 1) / spans); ++i) {
                uint32_t& last = last_span[local_[i]];
                loads += last != stamp;
                last = stamp;
            }
        }
        size_t used = 0;
        for (const uint32_t last : last_span)
            used += last != 0;
        return (loads - used) * 64 <= triangles;
    }

    // The mesh's triangles ordered span by span (kSpanTriangles), each span as a mesh of its own;
    // `on_spare_thread` runs first, beside the spans, when there are threads to share.
    void order_triangles_by_spans(size_t vertex_count, const std::function<void()>& on_spare_thread) {
        const size_t triangles = local_.size() / 3, spans = triangles / kSpanTriangles;
        const unsigned threads = thread_count(options_.threads);
        const bool spare = on_spare_thread && threads > 1;
        const size_t items = spans + (spare ? 1 : 0);
        std::vector<uint8_t> took_tipsify(spans, 0);
        std::atomic<size_t> next{0};
        assbin_common::run_tasks(std::min<size_t>(threads, items), threads, [&](size_t) {
            SpanScratch scratch(vertex_count);
            for (size_t item = next++; item < items; item = next++) {
                if (spare && item == 0) {
                    on_spare_thread();
                    continue;
                }
                const size_t span = item - (spare ? 1 : 0);
                const size_t begin = 3 * (triangles * span / spans),
                             end = 3 * (triangles * (span + 1) / spans);
                took_tipsify[span] = order_span(local_.subspan(begin, end - begin), scratch);
            }
        });
        ordered_linearly_ = std::find(took_tipsify.begin(), took_tipsify.end(), 1) != took_tipsify.end();
    }

    // One span's triangles in cache then overdraw order, in place; whether it took Tipsify's order.
    bool order_span(std::span<uint32_t> indices, SpanScratch& s) const {
        s.vertices.clear();
        s.local.resize(indices.size());
        for (size_t i = 0; i < indices.size(); ++i) {
            uint32_t& number = s.number[indices[i]];
            if (number == kNoVertex) {
                number = static_cast<uint32_t>(s.vertices.size());
                s.vertices.push_back(indices[i]);
            }
            s.local[i] = number;
        }
        for (const uint32_t v : s.vertices)
            s.number[v] = kNoVertex;
        const size_t count = s.vertices.size();
        s.ordered.resize(indices.size());
        const bool forsyth = forsyth_order_is_linear(s.local, count, s.valence);
        if (forsyth)
            meshopt_optimizeVertexCache(s.ordered.data(), s.local.data(), s.local.size(), count);
        else
            meshopt_optimizeVertexCacheFifo(s.ordered.data(), s.local.data(), s.local.size(), count,
                                            kCacheSize);
        const std::vector<float> positions = unit_cube_positions(welded_, s.vertices);
        meshopt_optimizeOverdraw(s.local.data(), s.ordered.data(), s.ordered.size(), positions.data(), count,
                                 3 * sizeof(float), kOverdrawThreshold);
        for (size_t i = 0; i < indices.size(); ++i)
            indices[i] = s.vertices[s.local[i]];
        return !forsyth;
    }

    // Vertices in first-use order, written to their final place in the vertex section. With
    // `whole_section` (the vertex section was given back: this group is all of it), the welded
    // records become the vertex section, ordered in place: a new array as large would be zeroed and
    // faulted in page by page only to be overwritten (45 MB for the grid).
    // `beside` runs once the triangles are final, at the same time as the vertices are moved.
    void order_vertices(size_t vertex_count, bool whole_section, const std::function<void()>& beside) {
        remap_.resize(vertex_count);
        meshopt_optimizeVertexFetchRemap(remap_.data(), local_.data(), local_.size(), vertex_count);
        renumber_triangles();
        run_beside([&] { place_vertices(vertex_count, whole_section); }, beside);
    }

    // The welded vertices to their first-use numbers (remap_), in the vertex section.
    void place_vertices(size_t vertex_count, bool whole_section) {
        if (options_.record_vertex_origins) {
            for (size_t v = 0; v < vertex_count; ++v) {
                if (remap_[v] != kNoVertex) result_.vertex_origins[written_ + remap_[v]] = welded_origins_[v];
            }
        }
        welded_.resize(vertex_count);
        const bool all_used = std::find(remap_.begin(), remap_.end(), kNoVertex) == remap_.end();
        if (whole_section && all_used) { // the welded vertices are all used: remap_ is a permutation
            permute_in_place(welded_, remap_);
            result_.model.vertices = std::move(welded_);
            return;
        }
        if (whole_section) result_.model.vertices.resize(vertex_count);
        aem::Vertex* out = result_.model.vertices.data() + written_;
        meshopt_remapVertexBuffer(out, welded_.data(), vertex_count, sizeof(aem::Vertex), remap_.data());
    }

    // Moves record v to new_index[v], one cycle of the permutation after another (new_index is
    // used up: each entry is set to its own index once its record is placed). Each step of a cycle
    // lands on a record far from the last one, a cache miss; the records kAhead steps further along
    // the cycle are fetched meanwhile (the grid: most of this pass's time was those misses).
    static void permute_in_place(std::vector<aem::Vertex>& records, std::vector<uint32_t>& new_index) {
        constexpr int kAhead = 8;
        const auto fetch = [&](uint32_t v) {
            const char* record = reinterpret_cast<const char*>(&records[v]);
            __builtin_prefetch(record, 1);
            __builtin_prefetch(record + 64, 1); // a record spans two or three lines
            __builtin_prefetch(record + sizeof(aem::Vertex) - 1, 1);
        };
        for (uint32_t start = 0; start < records.size(); ++start) {
            if (new_index[start] == start) continue;
            aem::Vertex carried = records[start];
            uint32_t to = new_index[start];
            new_index[start] = start;
            uint32_t ahead = to; // kAhead steps along the cycle from `to`, or back at `start`
            for (int k = 0; k < kAhead && ahead != start; ++k) {
                ahead = new_index[ahead];
                fetch(ahead);
            }
            while (to != start) {
                std::swap(carried, records[to]);
                const uint32_t next = new_index[to];
                new_index[to] = to;
                to = next;
                if (ahead != start) {
                    ahead = new_index[ahead];
                    fetch(ahead);
                }
            }
            records[start] = carried;
        }
    }

    const EmitResult& emitted_;
    const ConvertOptions& options_;
    ConvertResult& result_;
    size_t written_ = 0; // vertices of the optimised groups so far
    size_t shift_ = 0;   // how far make_room moved the input not yet read
    std::vector<uint8_t> wanted_;
    std::span<uint32_t> local_; // the group's indices in the model, numbered within the group
    std::vector<uint32_t> scratch_, remap_, valence_;
    bool ordered_linearly_ = false; // the group being optimised took the Tipsify order
    std::vector<aem::Vertex> welded_;
    std::vector<VertexOrigin> welded_origins_;
    KeptTangentRun first_run_; // MikkTSpace's run on the group's first order
};

} // namespace

// Whether Forsyth's ordering stays linear on these triangles (see kForsythWorkPerIndex): the sum
// of squared valences, counted without overflow and stopped as soon as it passes the bound.
bool forsyth_order_is_linear(std::span<const uint32_t> indices, size_t vertex_count,
                             std::vector<uint32_t>& valence) {
    valence.assign(vertex_count, 0);
    for (const uint32_t index : indices)
        ++valence[index];
    const uint64_t budget = kForsythWorkPerIndex * indices.size();
    uint64_t work = 0;
    for (const uint32_t d : valence) {
        work += uint64_t{d} * d;
        if (work > budget) return false;
    }
    return true;
}

std::vector<MeshGroup> output_mesh_groups(const aem::Model& model, const std::vector<VertexRange>& ranges,
                                          bool merge) {
    std::vector<MeshGroup> groups;
    for (uint32_t m = 0; m < model.meshes.size(); ++m) {
        const aem::Mesh& mesh = model.meshes[m];
        if (merge && !groups.empty() && groups.back().material == mesh.material) {
            ++groups.back().mesh_count;
            groups.back().vertex_count += ranges[m].count;
            groups.back().index_count += mesh.index_count;
            continue;
        }
        groups.push_back(
            {mesh.material, m, 1, ranges[m].first, ranges[m].count, mesh.first_index, mesh.index_count});
    }
    return groups;
}

void optimize_geometry(const EmitResult& emitted, const ConvertOptions& options, ConvertResult& result,
                       Report& report) {
    const std::vector<VertexRange>& mesh_vertices = emitted.mesh_vertices;
    ConvertStats& stats = result.stats;
    stats.source_vertices = result.model.vertices.size();
    stats.source_meshes = result.model.meshes.size();
    if (!options.optimize) {
        std::vector<uint32_t> local;
        for (size_t m = 0; m < result.model.meshes.size(); ++m) {
            const aem::Mesh& mesh = result.model.meshes[m];
            local.assign(result.model.indices.begin() + mesh.first_index,
                         result.model.indices.begin() + mesh.first_index + mesh.index_count);
            for (uint32_t& index : local)
                index -= mesh_vertices[m].first;
            stats.source_vertices_transformed += vertices_transformed(local, mesh_vertices[m].count);
        }
        stats.vertices_transformed = stats.source_vertices_transformed;
        return;
    }
    GeometryOptimizer(emitted, options, result)
        .run(output_mesh_groups(result.model, mesh_vertices, !options.keep_meshes));
    if (stats.meshes_ordered_linearly > 0) {
        report.warn(std::to_string(stats.meshes_ordered_linearly) +
                    (stats.meshes_ordered_linearly == 1 ? " mesh has" : " meshes have") +
                    " vertices shared by so many triangles (a fan, stacked copies) that " +
                    (stats.meshes_ordered_linearly == 1 ? "its" : "their") +
                    " triangles were put in Tipsify's vertex-cache order, which takes linear time, "
                    "instead of Forsyth's, which would take quadratic time there");
    }
    if (stats.degenerate_triangles > 0) {
        const bool one = stats.degenerate_triangles == 1;
        report.warn(count_of(stats.degenerate_triangles, "triangle", "triangles") +
                    (one ? " has two corners on one vertex (zero area); it is kept as it is"
                         : " have two corners on one vertex (zero area); they are kept as they are"));
    }
}

} // namespace assbin::converter::detail
