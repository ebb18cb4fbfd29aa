// Rule 7 over the converter's own output: tangents must equal what MikkTSpace's genTangSpaceDefault
// gives for the baked triangles, positions, normals and UVs of each output mesh as written. MikkTSpace
// joins corners by value and, in a few places, depends on the order of the triangles (which group
// reaches a triangle without usable UVs first; which healthy corner lends its frame to a degenerate
// one), so it runs on each output mesh in its final triangle order: optimize_geometry calls
// write_tangent_frames once a group's triangles are ordered; without optimisation,
// generate_baked_tangents runs it on the meshes in source order.
#include "geometry/mikktspace.hpp"
#include "geometry/vertex_groups.hpp"
#include "pipeline.hpp"
#include "run_tasks.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <unordered_map>

namespace assbin::converter::detail {

namespace {

constexpr uint32_t kNoCopy = ~0u;
// From this many corners, on more than one thread, the frames are written by ranges of vertices
// (RangeFrameWriter); below, starting threads costs more than the pass. Each range reads every
// corner, so there are at most kMaxFrameRanges of them, whatever the thread count.
constexpr size_t kCornersWrittenOnThreads = size_t{1} << 18;
constexpr unsigned kMaxFrameRanges = 4;

// The tangent pair of frame `frame` at a vertex of `normal`: a function of the two alone.
TangentPair pair_at(const CornerFrame& frame, const Eigen::Vector3f& normal, bool positive_zeros) {
    TangentPair value = tangent_pair(frame, normal);
    if (positive_zeros) { // one bit pattern per value for the weld, as emit_geometry does
        value.tangent.array() += 0.0f;
        value.bitangent.array() += 0.0f;
    }
    return value;
}

// A vertex's copies are chained (the vertex first, then its copies in the order made) and a corner
// goes to the first whose tangent pair equals its own, a new copy appended when none does. Walking
// the chain for each new frame is quadratic in a vertex's copies: a book's hinge, one group (and so
// one copy) per page, took 37 s for 100,000 pages. A chain's values are all unequal (a copy is made
// only when none equals), so the first equal entry is the only one, and once a chain is longer than
// kWalkedCopies a table from (vertex, value) finds it at once. Values are keyed as they compare:
// -0 as +0, and a value holding a NaN (equal to nothing, itself included) is neither entered nor
// found. Cost: at most kWalkedCopies steps and one look-up per corner that changes frame.
constexpr uint32_t kWalkedCopies = 16;

class CopyIndex {
  public:
    // The entry of v's chain equal to `value`, or one made by chain.append(tail, value). `chain` gives
    // value_of(entry), source_of(entry) (the chain's vertex), next_of(entry) and
    // append(tail, value) -> the new entry.
    template <class Chain>
    uint32_t find_or_append(uint32_t v, const TangentPair& value, Chain& chain) {
        if (const auto tail = tails_.find(v); tail != tails_.end()) {
            const std::optional<uint64_t> hash = hash_of(v, value);
            if (hash) {
                if (const uint32_t found = find(v, *hash, value, chain); found != kNoCopy) return found;
            }
            const uint32_t copy = chain.append(tail->second, value);
            tail->second = copy;
            if (hash) insert(*hash, copy, chain);
            return copy;
        }
        uint32_t at = v, steps = 0;
        while (!(chain.value_of(at) == value) && chain.next_of(at) != kNoCopy) {
            at = chain.next_of(at);
            ++steps;
        }
        if (chain.value_of(at) == value) return at;
        const uint32_t copy = chain.append(at, value);
        if (steps + 2 > kWalkedCopies) { // the chain holds steps + 2 entries now: indexed from here on
            for (uint32_t entry = v; entry != kNoCopy; entry = chain.next_of(entry)) {
                if (const std::optional<uint64_t> hash = hash_of(v, chain.value_of(entry)))
                    insert(*hash, entry, chain);
            }
            tails_.emplace(v, copy);
        }
        return copy;
    }

  private:
    // Open addressing with linear probing, at most half full, 8 bytes a slot (the table is read at
    // random, a cache miss a look-up: a book's hinge puts a slot per page in it). A slot holds the
    // hash's high half and the entry; a match is confirmed by the entry's vertex and value (two
    // values may share a hash); growing recomputes each entry's hash from its vertex and value.
    struct Slot {
        uint32_t tag = 0;
        uint32_t entry = kNoCopy; // kNoCopy: empty
    };

    // The value's hash as it compares (-0 as +0), or nothing when it holds a NaN.
    static std::optional<uint64_t> hash_of(uint32_t v, const TangentPair& value) {
        const float floats[6] = {value.tangent.x(),   value.tangent.y(),   value.tangent.z(),
                                 value.bitangent.x(), value.bitangent.y(), value.bitangent.z()};
        uint64_t h = 0x9E3779B97F4A7C15ull ^ v;
        for (const float f : floats) {
            if (std::isnan(f)) return std::nullopt;
            const float canonical = f == 0.0f ? 0.0f : f;
            uint32_t bits;
            std::memcpy(&bits, &canonical, sizeof bits);
            h = (h ^ bits) * 0xFF51AFD7ED558CCDull; // a multiply per word, then a final mix
            h ^= h >> 32;
        }
        h ^= h >> 29;
        return h * 0xC4CEB9FE1A85EC53ull;
    }
    static uint32_t tag_of(uint64_t hash) { return static_cast<uint32_t>(hash >> 32); }

    template <class Chain>
    uint32_t find(uint32_t v, uint64_t hash, const TangentPair& value, const Chain& chain) const {
        if (slots_.empty()) return kNoCopy;
        const size_t mask = slots_.size() - 1;
        const uint32_t tag = tag_of(hash);
        for (size_t at = hash & mask; slots_[at].entry != kNoCopy; at = (at + 1) & mask) {
            const Slot& slot = slots_[at];
            if (slot.tag == tag && chain.source_of(slot.entry) == v && chain.value_of(slot.entry) == value)
                return slot.entry;
        }
        return kNoCopy;
    }

    template <class Chain>
    void insert(uint64_t hash, uint32_t entry, const Chain& chain) {
        if (2 * (used_ + 1) > slots_.size()) {
            std::vector<Slot> old = std::move(slots_);
            slots_.assign(std::max<size_t>(64, 2 * old.size()), Slot{});
            for (const Slot& slot : old) {
                if (slot.entry == kNoCopy) continue;
                // Entries with a NaN are never entered, so every entry has a hash.
                place(*hash_of(chain.source_of(slot.entry), chain.value_of(slot.entry)), slot.entry);
            }
        }
        place(hash, entry);
        ++used_;
    }

    void place(uint64_t hash, uint32_t entry) {
        const size_t mask = slots_.size() - 1;
        size_t at = hash & mask;
        while (slots_[at].entry != kNoCopy)
            at = (at + 1) & mask;
        slots_[at] = {tag_of(hash), entry};
    }

    std::unordered_map<uint32_t, uint32_t> tails_; // indexed vertices: their chain's last entry
    std::vector<Slot> slots_;                      // a power of two of them
    size_t used_ = 0;
};

// The frames given to the vertices: the first corner to reach a vertex sets it; a corner whose frame
// matches none of the vertex's copies gets a new copy, appended. A frame shared by corners is shared
// by corners of one normal (mikktspace.hpp; up to the sign of a zero, which is why the normal is
// compared before a made pair is reused), so its tangent pair is made once; the default frame's
// (index 0) depends on each corner's normal.
class FrameWriter {
  public:
    FrameWriter(std::vector<aem::Vertex>& vertices, const MeshFrames& frames, bool positive_zeros)
        : vertices_(vertices), frames_(frames), positive_zeros_(positive_zeros),
          assigned_(vertices.size(), 0), next_copy_(vertices.size(), kNoCopy), pairs_(frames.frames.size()),
          normals_(frames.frames.size()), paired_(frames.frames.size(), 0),
          last_frame_(vertices.size(), kNoCopy), last_at_(vertices.size(), kNoCopy) {}

    void write(uint32_t& index, uint32_t frame) {
        const uint32_t v = index;
        // A vertex's corners mostly share one frame: the vertex (or copy) the last corner of this
        // vertex and frame went to is where this one goes (the pair depends on the frame and the
        // vertex's normal only), without making the pair or comparing it again.
        if (v < last_frame_.size() && last_frame_[v] == frame) {
            index = last_at_[v];
            return;
        }
        if (v < last_frame_.size()) last_frame_[v] = frame;
        index = place(v, frame);
        if (v < last_at_.size()) last_at_[v] = index;
    }

    std::vector<uint32_t> take_copy_sources() { return std::move(copy_sources_); }

  private:
    uint32_t place(uint32_t v, uint32_t frame) {
        const TangentPair value = frame == 0 ? pair_of(0, v) : cached_pair(frame, v);

        if (!assigned_[v]) {
            assigned_[v] = 1;
            set(v, value);
            return v;
        }
        return copies_.find_or_append(v, value, *this);
    }

  public: // the chain, for CopyIndex
    TangentPair value_of(uint32_t v) const { return {vertices_[v].tangent, vertices_[v].bitangent}; }
    uint32_t next_of(uint32_t v) const { return next_copy_[v]; }
    uint32_t source_of(uint32_t v) const { return v < copy_base_ ? v : copy_sources_[v - copy_base_]; }
    uint32_t append(uint32_t tail, const TangentPair& value) {
        const uint32_t copy = static_cast<uint32_t>(vertices_.size());
        const uint32_t source = source_of(tail);
        vertices_.push_back(vertices_[source]);
        copy_sources_.push_back(source);
        next_copy_.push_back(kNoCopy);
        next_copy_[tail] = copy;
        set(copy, value);
        return copy;
    }

  private:
    TangentPair pair_of(uint32_t frame, uint32_t v) const {
        return pair_at(frames_.frames[frame], vertices_[v].normal, positive_zeros_);
    }
    TangentPair cached_pair(uint32_t frame, uint32_t v) {
        const Eigen::Vector3f& normal = vertices_[v].normal;
        if (paired_[frame] &&
            std::memcmp(normals_[frame].data(), normal.data(), sizeof(Eigen::Vector3f)) == 0)
            return pairs_[frame];
        pairs_[frame] = pair_of(frame, v);
        normals_[frame] = normal;
        paired_[frame] = 1;
        return pairs_[frame];
    }

    void set(uint32_t v, const TangentPair& value) {
        vertices_[v].tangent = value.tangent;
        vertices_[v].bitangent = value.bitangent;
    }

    std::vector<aem::Vertex>& vertices_;
    const MeshFrames& frames_;
    bool positive_zeros_;
    std::vector<uint8_t> assigned_;
    std::vector<uint32_t> next_copy_;
    std::vector<uint32_t> copy_sources_;
    std::vector<TangentPair> pairs_; // per frame, once made, and the normal it was made for
    std::vector<Eigen::Vector3f> normals_;
    std::vector<uint8_t> paired_;
    std::vector<uint32_t> last_frame_, last_at_; // per vertex given: the last frame seen, where it went
    uint32_t copy_base_ = static_cast<uint32_t>(vertices_.size()); // the first copy's number
    CopyIndex copies_;
};

// FrameWriter's result on several threads, for big meshes (the grid's 2.9 million corners: a serial
// step both threads waited for). Each thread owns a range of the vertices and goes through every
// corner in order, placing those of its own vertices exactly as FrameWriter would: the first corner
// to reach a vertex sets it, a corner whose frame matches none of the vertex's copies makes one. A
// vertex and its copies are only ever seen by their owner, so the owners' steps are FrameWriter's
// steps, taken apart. Only the copies' numbers depend on the other ranges (FrameWriter numbers them
// in the order of the corners that make them): each owner keeps its copies with the corner that made
// them, and once all are done the copies are numbered in corner order and appended, and the
// corners sent to a copy are pointed at its number. No pair is cached across vertices (FrameWriter's
// cache only saves recomputing the same pair: the values are the same).
class RangeFrameWriter {
  public:
    struct Copy {
        uint32_t source; // the original vertex
        uint32_t next;   // the next copy of the same vertex (its local number + first_copy), or kNoCopy
        uint32_t corner; // the corner that made it
        TangentPair value;
    };
    struct Redirect {
        uint32_t corner;
        uint32_t copy; // local number + first_copy
    };

    // `assigned`, `next_copy`, `last_frame` and `last_at` are shared arrays of one entry per vertex,
    // of which this writer touches only [first, last).
    RangeFrameWriter(std::vector<aem::Vertex>& vertices, const MeshFrames& frames, bool positive_zeros,
                     uint32_t first, uint32_t last, uint8_t* assigned, uint32_t* next_copy,
                     uint32_t* last_frame, uint32_t* last_at)
        : vertices_(vertices), frames_(frames), positive_zeros_(positive_zeros),
          first_copy_(static_cast<uint32_t>(vertices.size())), first_(first), last_(last),
          assigned_(assigned), next_copy_(next_copy), last_frame_(last_frame), last_at_(last_at) {}

    void run(std::span<const uint32_t> corners) {
        for (size_t c = 0; c < corners.size(); ++c) {
            const uint32_t v = corners[c];
            if (v < first_ || v >= last_) continue;
            const uint32_t frame = frames_.corner_frame[c];
            uint32_t at;
            if (last_frame_[v] == frame) {
                at = last_at_[v];
            } else {
                last_frame_[v] = frame;
                at = place(v, frame, static_cast<uint32_t>(c));
                last_at_[v] = at;
            }
            if (at >= first_copy_) redirects_.push_back({static_cast<uint32_t>(c), at});
        }
    }

    const std::vector<Copy>& copies() const { return copies_; }
    const std::vector<Redirect>& redirects() const { return redirects_; }

  private:
    uint32_t place(uint32_t v, uint32_t frame, uint32_t corner) {
        const TangentPair value = pair_at(frames_.frames[frame], vertices_[v].normal, positive_zeros_);
        if (!assigned_[v]) {
            assigned_[v] = 1;
            vertices_[v].tangent = value.tangent;
            vertices_[v].bitangent = value.bitangent;
            return v;
        }
        corner_ = corner;
        return index_.find_or_append(v, value, *this);
    }

  public: // the chain, for CopyIndex
    uint32_t append(uint32_t tail, const TangentPair& value) {
        const uint32_t copy = first_copy_ + static_cast<uint32_t>(copies_.size());
        const uint32_t source = source_of(tail);
        (tail < first_copy_ ? next_copy_[tail] : copies_[tail - first_copy_].next) = copy;
        copies_.push_back({source, kNoCopy, corner_, value});
        return copy;
    }
    TangentPair value_of(uint32_t at) const {
        if (at >= first_copy_) return copies_[at - first_copy_].value;
        return {vertices_[at].tangent, vertices_[at].bitangent};
    }
    uint32_t next_of(uint32_t at) const {
        return at >= first_copy_ ? copies_[at - first_copy_].next : next_copy_[at];
    }
    uint32_t source_of(uint32_t at) const { return at < first_copy_ ? at : copies_[at - first_copy_].source; }

    std::vector<aem::Vertex>& vertices_;
    const MeshFrames& frames_;
    bool positive_zeros_;
    uint32_t first_copy_; // local copy k is numbered first_copy_ + k until all are numbered
    uint32_t first_, last_;
    uint8_t* assigned_;
    uint32_t *next_copy_, *last_frame_, *last_at_;
    std::vector<Copy> copies_;
    std::vector<Redirect> redirects_;
    uint32_t corner_ = 0; // the corner being placed (a copy it makes records it)
    CopyIndex index_;
};

// Every corner of `corners` given its frame (frames.corner_frame[c]) as FrameWriter gives it, on
// `threads` threads; returns the copies' sources.
std::vector<uint32_t> write_frames_by_ranges(std::vector<aem::Vertex>& vertices, const MeshFrames& frames,
                                             std::span<uint32_t> corners, bool positive_zeros,
                                             unsigned threads) {
    const size_t count = vertices.size();
    std::vector<uint8_t> assigned(count, 0);
    std::vector<uint32_t> next_copy(count, kNoCopy), last_frame(count, kNoCopy), last_at(count, kNoCopy);
    std::vector<RangeFrameWriter> writers;
    writers.reserve(threads);
    for (unsigned k = 0; k < threads; ++k)
        writers.emplace_back(vertices, frames, positive_zeros, static_cast<uint32_t>(count * k / threads),
                             static_cast<uint32_t>(count * (k + 1) / threads), assigned.data(),
                             next_copy.data(), last_frame.data(), last_at.data());
    assbin_common::run_tasks(threads, threads, [&](size_t k) { writers[k].run(corners); });

    // The copies numbered in the order of the corners that made them (each writer's are in that
    // order already: a merge), appended; then the corners sent to them.
    std::vector<std::vector<uint32_t>> number(threads);
    std::vector<size_t> taken(threads, 0);
    size_t total = 0;
    for (unsigned k = 0; k < threads; ++k) {
        number[k].resize(writers[k].copies().size());
        total += writers[k].copies().size();
    }
    std::vector<uint32_t> copy_sources;
    copy_sources.reserve(total);
    vertices.reserve(count + total);
    for (size_t n = 0; n < total; ++n) {
        unsigned from = threads;
        for (unsigned k = 0; k < threads; ++k) {
            if (taken[k] == writers[k].copies().size()) continue;
            if (from == threads ||
                writers[k].copies()[taken[k]].corner < writers[from].copies()[taken[from]].corner)
                from = k;
        }
        const RangeFrameWriter::Copy& copy = writers[from].copies()[taken[from]];
        number[from][taken[from]++] = static_cast<uint32_t>(vertices.size());
        vertices.push_back(vertices[copy.source]);
        vertices.back().tangent = copy.value.tangent;
        vertices.back().bitangent = copy.value.bitangent;
        copy_sources.push_back(copy.source);
    }
    for (unsigned k = 0; k < threads; ++k)
        for (const RangeFrameWriter::Redirect& redirect : writers[k].redirects())
            corners[redirect.corner] = number[k][redirect.copy - count];
    return copy_sources;
}

template <class T>
void permute(std::vector<T>& values, const std::vector<uint32_t>& new_index) {
    std::vector<T> placed(values.size());
    for (size_t i = 0; i < values.size(); ++i)
        placed[new_index[i]] = std::move(values[i]);
    values = std::move(placed);
}

// ---- finding a kept run's triangles again, by their corners

uint64_t corners_hash(const uint32_t* corners) {
    return hash_bits(Bits<3>{corners[0], corners[1], corners[2]});
}

bool same_corners(const uint32_t* a, const uint32_t* b) {
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

// Indexes the kept triangles by their corners; false when two are the same triangle (a reordering
// could not tell which is which).
bool index_kept_triangles(KeptTangentRun& kept) {
    const size_t count = kept.triangles.size() / 3;
    size_t capacity = 16;
    while (capacity < 2 * count)
        capacity *= 2;
    kept.slots.assign(capacity, 0);
    for (uint32_t t = 0; t < count; ++t) {
        const uint32_t* corners = kept.triangles.data() + 3 * size_t{t};
        size_t slot = corners_hash(corners) & (capacity - 1);
        for (; kept.slots[slot] != 0; slot = (slot + 1) & (capacity - 1))
            if (same_corners(kept.triangles.data() + 3 * size_t{kept.slots[slot] - 1}, corners)) return false;
        kept.slots[slot] = t + 1;
    }
    return true;
}

// from[k]: the kept triangle that the k-th of `triangles` is; nothing when `triangles` are not the
// kept ones reordered.
std::optional<std::vector<uint32_t>> find_kept_triangles(const KeptTangentRun& kept,
                                                         std::span<const uint32_t> triangles) {
    if (triangles.size() != kept.triangles.size() || kept.slots.empty()) return std::nullopt;
    const size_t count = triangles.size() / 3, mask = kept.slots.size() - 1;
    std::vector<uint32_t> from(count);
    std::vector<uint8_t> seen(count, 0);
    for (size_t k = 0; k < count; ++k) {
        const uint32_t* corners = triangles.data() + 3 * k;
        for (size_t slot = corners_hash(corners) & mask;; slot = (slot + 1) & mask) {
            const uint32_t entry = kept.slots[slot];
            if (entry == 0) return std::nullopt;
            if (!same_corners(kept.triangles.data() + 3 * size_t{entry - 1}, corners)) continue;
            if (seen[entry - 1]) return std::nullopt;
            seen[entry - 1] = 1;
            from[k] = entry - 1;
            break;
        }
    }
    return from;
}

} // namespace

std::vector<uint32_t> write_tangent_frames(std::vector<aem::Vertex>& vertices, std::span<uint32_t> triangles,
                                           std::span<const uint8_t> wanted, bool positive_zeros,
                                           unsigned threads, KeptTangentRun* keep,
                                           const KeptTangentRun* previous,
                                           const std::vector<uint32_t>* identities) {
    if (keep) keep->clear();
    const size_t whole = triangles.size() - triangles.size() % 3;
    size_t wanted_triangles = 0;
    for (size_t i = 0; i < whole; i += 3)
        wanted_triangles += wanted[triangles[i]] != 0;
    if (wanted_triangles == 0) return {};
    const SurfacePoints points(std::span<const aem::Vertex>(vertices.data(), vertices.size()));
    if (3 * wanted_triangles == whole) { // the usual case: every triangle, read where it is
        std::optional<std::vector<uint32_t>> from;
        if (previous && previous->usable()) from = find_kept_triangles(*previous, triangles.first(whole));
        const bool keeping = keep && !from && whole / 3 <= KeptTangentRun::kMaxKeptTriangles;
        const MeshFrames frames = from ? reordered_frames(previous->frames, *from)
                                       : mikktspace_frames(points, triangles.first(whole), threads,
                                                           keeping ? &keep->frames : nullptr, identities);
        std::vector<uint32_t> copies;
        if (threads > 1 && whole >= kCornersWrittenOnThreads) {
            copies = write_frames_by_ranges(vertices, frames, triangles.first(whole), positive_zeros,
                                            std::min(threads, kMaxFrameRanges));
        } else {
            FrameWriter writer(vertices, frames, positive_zeros);
            for (size_t c = 0; c < whole; ++c)
                writer.write(triangles[c], frames.corner_frame[c]);
            copies = writer.take_copy_sources();
        }
        if (keeping && keep->usable()) {
            keep->triangles.assign(triangles.begin(), triangles.begin() + static_cast<std::ptrdiff_t>(whole));
            if (copies.empty() || !index_kept_triangles(*keep)) keep->clear(); // not ordered again
        }
        return copies;
    }
    std::vector<uint32_t> taken; // the positions in `triangles` of the wanted triangles' corners
    taken.reserve(3 * wanted_triangles);
    for (uint32_t i = 0; i < whole; i += 3) {
        if (wanted[triangles[i]]) taken.insert(taken.end(), {i, i + 1, i + 2});
    }
    std::vector<uint32_t> corners(taken.size());
    for (size_t c = 0; c < taken.size(); ++c)
        corners[c] = triangles[taken[c]];
    const MeshFrames frames = mikktspace_frames(points, corners, threads);
    FrameWriter writer(vertices, frames, positive_zeros);
    for (size_t c = 0; c < taken.size(); ++c)
        writer.write(triangles[taken[c]], frames.corner_frame[c]);
    return writer.take_copy_sources();
}

// Without optimisation every emitted mesh is an output mesh, in source order. Each is handed to
// write_tangent_frames with its own vertices; the copies of split vertices are then placed right
// after their mesh's vertices, and the indices, ranges and origins follow.
void generate_baked_tangents(EmitResult& emitted, const ConvertOptions& options, ConvertResult& result) {
    aem::Model& model = result.model;
    std::vector<std::vector<aem::Vertex>> copies(model.meshes.size());
    std::vector<std::vector<uint32_t>> copy_sources(model.meshes.size());
    size_t total_copies = 0;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        if (!emitted.tangents_missing[m]) continue;
        const VertexRange range = emitted.mesh_vertices[m];
        const aem::Mesh& mesh = model.meshes[m];
        std::vector<aem::Vertex> vertices(model.vertices.begin() + range.first,
                                          model.vertices.begin() + range.first + range.count);
        const std::span<uint32_t> indices(model.indices.data() + mesh.first_index, mesh.index_count);
        for (uint32_t& index : indices)
            index -= range.first;
        const std::vector<uint8_t> wanted(vertices.size(), 1);
        copy_sources[m] =
            write_tangent_frames(vertices, indices, wanted, false, thread_count(options.threads));
        std::copy(vertices.begin(), vertices.begin() + range.count, model.vertices.begin() + range.first);
        copies[m].assign(vertices.begin() + range.count, vertices.end());
        for (uint32_t& index : indices) // copies are numbered past the end of the vertex section for now
            index = index < range.count
                        ? index + range.first
                        : static_cast<uint32_t>(model.vertices.size() + total_copies + index - range.count);
        total_copies += copies[m].size();
    }
    result.stats.vertices_split_for_tangents = total_copies;
    if (total_copies == 0) return;
    const size_t original_count = model.vertices.size();
    std::vector<uint32_t> new_index(original_count + total_copies);
    uint32_t next = 0;
    size_t copy = original_count;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        VertexRange& range = emitted.mesh_vertices[m];
        for (uint32_t v = range.first; v < range.first + range.count; ++v)
            new_index[v] = next++;
        for (size_t j = 0; j < copies[m].size(); ++j) {
            model.vertices.push_back(copies[m][j]);
            if (options.record_vertex_origins)
                result.vertex_origins.push_back(result.vertex_origins[range.first + copy_sources[m][j]]);
            new_index[copy++] = next++;
        }
        range.first = new_index[range.first];
        range.count += static_cast<uint32_t>(copies[m].size());
    }
    permute(model.vertices, new_index);
    if (options.record_vertex_origins) permute(result.vertex_origins, new_index);
    for (uint32_t& index : model.indices)
        index = new_index[index];
}

} // namespace assbin::converter::detail
