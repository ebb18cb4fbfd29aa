// MikkTSpace's construction (see mikktspace.hpp), step by step as the reference takes it:
// identities, triangle derivatives, neighbours across edges, groups around each vertex, one frame
// per group. Written anew from the algorithm (the reference is not packaged for C++ in Debian); the
// arithmetic follows the reference's own order, in float, so that results agree to the last bits
// wherever the reference is well defined. Where the reference is slow (quicksorts, recursion,
// quadratic scans of degenerate triangles) this uses counting sorts, an explicit stack and tables.
// Cost, linear in the corners whatever the shape (the shapes that test it: scripts/bench-shapes.sh):
// identities by a hash of each corner; edges by counting sort into buckets, each edge's run paired
// in one pass (link_buckets: a book's hinge of 100,000 pages is one run); groups grown with an
// explicit stack, each corner entering one group; a group's frame linear in its faces (a sort by
// radix from 65,536), except the pair test of groups up to kLargestPairCheck faces (a constant per
// face); degenerate corners lent a frame through a table per identity.
#include "geometry/mikktspace.hpp"

#include "geometry/mikktspace_arithmetic.hpp"
#include "geometry/vertex_groups.hpp"
#include "run_tasks.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

namespace assbin::converter::detail {

namespace {

using namespace mikktspace_arithmetic;

constexpr uint32_t kNone = ~0u;

// What init_triangles finds, fixed from then on.
enum TriangleKind : uint8_t {
    kDegenerate = 1,   // two corners share a position: no derivatives, no neighbours
    kGroupWithAny = 2, // UVs without area: takes the orientation of the first group to reach it
};
// What build_groups may change. A byte apart from the kind: the frames of the groups already built
// are computed while later groups are built (build_groups_and_frames), reading the kind of
// triangles whose state the grouping writes.
enum TriangleState : uint8_t {
    kPreserving = 1, // UV orientation agrees with the winding
    kGrouped = 2,    // kGrouped << i: corner i belongs to a group (3 bits)
};

struct Triangle {
    Vec3 os{0, 0, 0}; // unit tangent and bitangent directions, signed by the UV orientation
    Vec3 ot{0, 0, 0};
    uint8_t kind = 0;
    uint8_t state = 0;

    bool any() const { return (kind & kGroupWithAny) != 0; }
    bool grouped(uint32_t i) const { return (state & (kGrouped << i)) != 0; }
    bool any_grouped() const { return (state & (7 * kGrouped)) != 0; }
    bool preserving() const { return (state & kPreserving) != 0; }
};

struct Group {
    uint32_t identity = 0; // of the vertex the group is around
    bool preserving = false;
    uint32_t first = 0; // in the member list
    uint32_t count = 0;
};

// Everything the steps share.
struct Work {
    unsigned threads = 1;
    SurfacePoints points;
    // The points' positions side by side (read for every corner of every group: from records of
    // 92 bytes each, most reads would miss the cache).
    std::vector<Vec3> positions;
    std::span<const uint32_t> corners;
    std::vector<uint32_t> identity; // per corner: equal position, normal and UV, equal identity
    uint32_t identity_count = 0;
    std::vector<Triangle> triangles;
    // Per triangle, the triangle across edge i (corner i to corner i + 1) or -1; needed until the
    // groups are built only, so kept apart from `triangles` and given back then.
    std::vector<std::array<int32_t, 3>> neighbours;
    size_t healthy = 0; // triangles without kDegenerate
    // Asked to keep what a reordering needs (mikktspace.hpp); an edge of three or more triangles,
    // whose pairing depends on the order, rules that out.
    ReorderableFrames* keep = nullptr;
    std::atomic<bool> crowded_edge{false};

    bool is_healthy(uint32_t t) const { return (triangles[t].kind & kDegenerate) == 0; }
    std::vector<Group> groups;
    std::vector<uint32_t> members; // triangles, group after group

    Vec3 position(uint32_t corner) const { return positions[corners[corner]]; }
    // The corner of triangle t around the vertex of identity `id` (3 if none).
    uint32_t corner_of(uint32_t t, uint32_t id) const {
        uint32_t i = 0;
        while (i < 3 && identity[3 * t + i] != id)
            ++i;
        return i;
    }
};

// Items (triangles, identities) per task: below this, a thread costs more than it saves.
constexpr size_t kChunk = 16384;

// Runs body(first, last) over [0, count) in chunks on work.threads threads (one chunk, on the
// calling thread, when the work is small or there is one thread).
template <class Body>
void in_chunks(const Work& work, size_t count, Body&& body) {
    if (work.threads <= 1 || count <= kChunk) {
        body(size_t{0}, count);
        return;
    }
    const size_t chunks = (count + kChunk - 1) / kChunk;
    assbin_common::run_tasks(chunks, work.threads,
                             [&](size_t k) { body(k * kChunk, std::min(count, (k + 1) * kChunk)); });
}

// Each corner's identity: its point's (point_identities, or `given`, made ahead).
void number_identities(Work& work, const std::vector<uint32_t>* given) {
    std::vector<uint32_t> made;
    if (given == nullptr) made = point_identities(work.points);
    const std::vector<uint32_t>& group = given ? *given : made;
    work.identity.resize(work.corners.size());
    std::atomic<uint32_t> count{0};
    in_chunks(work, work.corners.size(), [&](size_t first, size_t last) {
        uint32_t most = 0;
        for (size_t c = first; c < last; ++c) {
            work.identity[c] = group[work.corners[c]];
            most = std::max(most, work.identity[c] + 1);
        }
        for (uint32_t seen = count.load(); most > seen && !count.compare_exchange_weak(seen, most);) {
        }
    });
    work.identity_count = count.load();
}

// First-order UV derivatives of one healthy triangle (the reference's InitTriInfo).
void init_triangle(Work& work, uint32_t t) {
    Triangle& tri = work.triangles[t];
    const uint32_t a = work.corners[3 * t], b = work.corners[3 * t + 1], c = work.corners[3 * t + 2];
    const Eigen::Vector2f uv_a = work.points.uv(a), uv_b = work.points.uv(b), uv_c = work.points.uv(c);
    const float t21x = uv_b.x() - uv_a.x(), t21y = uv_b.y() - uv_a.y();
    const float t31x = uv_c.x() - uv_a.x(), t31y = uv_c.y() - uv_a.y();
    const Vec3 pa = work.positions[a];
    const Vec3 d1 = sub(work.positions[b], pa);
    const Vec3 d2 = sub(work.positions[c], pa);
    const float signed_area = t21x * t31y - t21y * t31x;
    const Vec3 os = sub(scale(t31y, d1), scale(t21y, d2));
    const Vec3 ot = add(scale(-t31x, d1), scale(t21x, d2));
    tri.kind |= kGroupWithAny;
    if (signed_area > 0) tri.state |= kPreserving;
    if (!not_zero(signed_area)) return;
    const float area = std::fabs(signed_area);
    const float length_s = length(os), length_t = length(ot);
    const float sign = tri.preserving() ? 1.0f : -1.0f;
    if (not_zero(length_s)) tri.os = scale(sign / length_s, os);
    if (not_zero(length_t)) tri.ot = scale(sign / length_t, ot);
    if (not_zero(length_s / area) && not_zero(length_t / area)) tri.kind &= ~kGroupWithAny;
}

void init_triangles(Work& work) {
    const uint32_t count = static_cast<uint32_t>(work.corners.size() / 3);
    work.triangles.resize(count);
    std::atomic<size_t> healthy{0};
    in_chunks(work, count, [&](size_t first, size_t last) {
        size_t degenerate = 0;
        for (uint32_t t = static_cast<uint32_t>(first); t < last; ++t) {
            const Vec3 p0 = work.position(3 * t), p1 = work.position(3 * t + 1),
                       p2 = work.position(3 * t + 2);
            if (same(p0, p1) || same(p0, p2) || same(p1, p2)) {
                work.triangles[t].kind = kDegenerate;
                ++degenerate;
                continue;
            }
            init_triangle(work, t);
        }
        healthy += last - first - degenerate;
    });
    work.healthy = healthy.load();
}

struct EdgeEntry {
    uint32_t high;   // the larger identity of the edge (entries are bucketed by the smaller)
    uint32_t corner; // 3 * triangle + edge: the edge from that corner to the next
    uint32_t triangle() const { return corner / 3; }
    uint32_t edge() const { return corner % 3; }
};

// Stable sort by a 32-bit key in two passes of 16 bits (LSD radix): linear, for the huge runs a
// fan around one vertex makes (its centre's edges all fall in one bucket, its triangles in one group).
constexpr size_t kRadixFrom = size_t{1} << 16;
template <class Item, class KeyOf>
void radix_sort(Item* first, size_t count, KeyOf key_of) {
    std::vector<Item> other(count);
    Item* from = first;
    Item* to = other.data();
    for (const uint32_t shift : {0u, 16u}) {
        std::vector<size_t> start(65537, 0);
        for (size_t i = 0; i < count; ++i)
            ++start[((key_of(from[i]) >> shift) & 0xFFFF) + 1];
        for (size_t d = 0; d < 65536; ++d)
            start[d + 1] += start[d];
        for (size_t i = 0; i < count; ++i)
            to[start[(key_of(from[i]) >> shift) & 0xFFFF]++] = from[i];
        std::swap(from, to);
    }
    // Two passes: the sorted items are back in `first`.
}

// Stable, and without the allocation std::stable_sort makes: almost every bucket holds a few edges.
void sort_by_high(EdgeEntry* first, EdgeEntry* last) {
    if (static_cast<size_t>(last - first) >= kRadixFrom) {
        radix_sort(first, static_cast<size_t>(last - first), [](const EdgeEntry& e) { return e.high; });
        return;
    }
    if (last - first > 32) {
        std::stable_sort(first, last, [](const EdgeEntry& a, const EdgeEntry& b) { return a.high < b.high; });
        return;
    }
    for (auto i = first + (first != last); i < last; ++i) {
        const EdgeEntry entry = *i;
        auto j = i;
        for (; j != first && (j - 1)->high > entry.high; --j)
            *j = *(j - 1);
        *j = entry;
    }
}

void link_buckets(Work& work, EdgeEntry* entries, const std::vector<uint32_t>& start, uint32_t first_bucket,
                  uint32_t last_bucket);

// The edges are counted and placed into their buckets by up to this many ranges of triangles at
// once, each keeping a cursor per bucket (4 bytes per identity): more would cost more memory than
// the counting pass is worth.
constexpr size_t kMaxEdgeRanges = 4;

// Pairs triangles across shared edges walked in opposite directions (consistent winding); of
// several candidates the lowest-numbered free one, as the reference's sorted edge list gives.
void link_neighbours(Work& work) {
    const auto low_high = [&](uint32_t t, uint32_t e) {
        const uint32_t a = work.identity[3 * t + e], b = work.identity[3 * t + (e + 1) % 3];
        return std::pair(std::min(a, b), std::max(a, b));
    };
    const uint32_t triangle_count = static_cast<uint32_t>(work.triangles.size());
    // Contiguous ranges of triangles, each on its own thread. Every bucket takes the edges of the
    // first range, then of the second, and so on, each range's in triangle order: the buckets are
    // filled exactly as one pass in triangle order fills them, whatever the number of ranges.
    const size_t ranges =
        std::clamp<size_t>(std::min<size_t>(work.threads, triangle_count / kChunk), 1, kMaxEdgeRanges);
    const auto first_triangle = [&](size_t k) {
        return static_cast<uint32_t>(uint64_t{triangle_count} * k / ranges);
    };
    const auto for_each_edge = [&](size_t k, auto&& body) {
        const uint32_t first = first_triangle(k), last = first_triangle(k + 1); // once, not per triangle
        for (uint32_t t = first; t < last; ++t)
            for (uint32_t e = 0; e < 3 && work.is_healthy(t); ++e)
                body(t, e);
    };
    // cursor[k][b]: first how many edges range k gives bucket b, then where its next one goes.
    std::vector<std::vector<uint32_t>> cursor(ranges);
    assbin_common::run_tasks(ranges, work.threads, [&](size_t k) {
        cursor[k].assign(work.identity_count, 0);
        for_each_edge(k, [&](uint32_t t, uint32_t e) { ++cursor[k][low_high(t, e).first]; });
    });
    std::vector<uint32_t> start(work.identity_count + 1);
    uint32_t placed = 0;
    for (uint32_t bucket = 0; bucket < work.identity_count; ++bucket) {
        start[bucket] = placed;
        for (std::vector<uint32_t>& range : cursor)
            placed += std::exchange(range[bucket], placed);
    }
    start[work.identity_count] = placed;
    work.neighbours.assign(work.triangles.size(), {-1, -1, -1});
    // Left uninitialised: every entry is written by the ranges, each touching its pages first.
    const std::unique_ptr<EdgeEntry[]> entries(new EdgeEntry[placed]);
    assbin_common::run_tasks(ranges, work.threads, [&](size_t k) {
        for_each_edge(k, [&](uint32_t t, uint32_t e) {
            const auto [low, high] = low_high(t, e);
            entries[cursor[k][low]++] = {high, 3 * t + e};
        });
    });
    std::vector<std::vector<uint32_t>>().swap(cursor);
    // Buckets are independent: each edge of a triangle lies in one bucket only, so threads that take
    // different buckets write different neighbour slots.
    in_chunks(work, work.identity_count, [&](size_t first_bucket, size_t last_bucket) {
        link_buckets(work, entries.get(), start, static_cast<uint32_t>(first_bucket),
                     static_cast<uint32_t>(last_bucket));
    });
}

// Cost: linear in the entries. Within a run of one edge (same low and high identity), the reference
// pairs each free entry, in order, with the first later free entry walked the other way; scanning
// for it is quadratic in the edge's multiplicity (100,000 pages of a book on one hinge: 37 s). The
// same pairs come from one pass: the free entries of a run are all walked one way (two free entries
// walked opposite ways would have been paired), so they wait in a queue, and an entry walked the
// other way takes the queue's first, the earliest, as the reference's scan would have.
void link_buckets(Work& work, EdgeEntry* entries, const std::vector<uint32_t>& start, uint32_t first_bucket,
                  uint32_t last_bucket) {
    std::vector<const EdgeEntry*> waiting; // one run's free entries, all walked the same way
    for (uint32_t bucket = first_bucket; bucket < last_bucket; ++bucket) {
        EdgeEntry* const first = entries + start[bucket];
        EdgeEntry* const last = entries + start[bucket + 1];
        sort_by_high(first, last);
        for (auto a = first; work.keep && a + 2 < last; ++a)
            if ((a + 2)->high == a->high) work.crowded_edge.store(true, std::memory_order_relaxed);
        for (auto run = first; run != last;) {
            waiting.clear();
            size_t next_waiting = 0;      // the queue's head
            bool waiting_forward = false; // the way the waiting entries are walked: from low to high
            auto b = run;
            for (; b != last && b->high == run->high; ++b) {
                // A healthy triangle's corners lie apart, so an edge's two identities differ.
                const uint32_t from = work.identity[b->corner];
                const bool forward = from < work.identity[3 * b->triangle() + (b->edge() + 1) % 3];
                if (next_waiting < waiting.size() && forward != waiting_forward) {
                    const EdgeEntry* a = waiting[next_waiting++];
                    work.neighbours[a->triangle()][a->edge()] = static_cast<int32_t>(b->triangle());
                    work.neighbours[b->triangle()][b->edge()] = static_cast<int32_t>(a->triangle());
                    continue;
                }
                if (next_waiting == waiting.size()) {
                    waiting.clear();
                    next_waiting = 0;
                    waiting_forward = forward;
                }
                waiting.push_back(&*b);
            }
            run = b;
        }
    }
}

// Grows group g from its first triangle across the edges around its vertex (the reference's
// AssignRecur, with an explicit stack: a fan of any size cannot overflow the call stack).
void grow_group(Work& work, uint32_t g, std::vector<int32_t>& stack) {
    Group& group = work.groups[g];
    while (!stack.empty()) {
        const uint32_t t = static_cast<uint32_t>(stack.back());
        stack.pop_back();
        Triangle& tri = work.triangles[t];
        const uint32_t i = work.corner_of(t, group.identity);
        if (i == 3 || tri.grouped(i)) continue;
        if (tri.any() && !tri.any_grouped())
            tri.state =
                static_cast<uint8_t>((tri.state & ~kPreserving) | (group.preserving ? kPreserving : 0));
        if (tri.preserving() != group.preserving) continue;
        tri.state = static_cast<uint8_t>(tri.state | (kGrouped << i));
        work.members.push_back(t);
        ++group.count;
        const std::array<int32_t, 3>& neighbour = work.neighbours[t];
        for (const int32_t next : {neighbour[(i + 2) % 3], neighbour[i]}) // left is taken first
            if (next >= 0) stack.push_back(next);
    }
}

// How far build_groups has come, for threads that take the groups it has completed
// (build_groups_and_frames): a group, its members and their triangles' kinds are not written again
// once it is complete, and the arrays never move (reserved). Those threads sleep until a block of
// kChunk groups is complete (spinning would take the builder's core where threads outnumber cores).
struct GroupProgress {
    std::atomic<size_t> built{0};
    std::atomic<bool> finished{false};
    std::mutex mutex;
    std::condition_variable advanced;

    void publish(size_t count) {
        built.store(count, std::memory_order_release);
        if (count % kChunk != 0) return;
        const std::lock_guard lock(mutex); // a waiter is either asleep already or sees the count
        advanced.notify_all();
    }
    void finish() {
        {
            const std::lock_guard lock(mutex);
            finished.store(true, std::memory_order_release);
        }
        advanced.notify_all();
    }
    // Until block b's groups are complete, or every group is built.
    void wait_for_block(size_t b) {
        std::unique_lock lock(mutex);
        advanced.wait(lock, [&] {
            return finished.load(std::memory_order_acquire) ||
                   built.load(std::memory_order_acquire) >= (b + 1) * kChunk;
        });
    }
};

// One group per (vertex, fan of edge-connected triangles of one UV orientation); with `progress`,
// each complete group is published there.
void build_groups(Work& work, GroupProgress* progress = nullptr) {
    // At most one group and one member per healthy corner: reserved once, since growing these
    // arrays by doubling would hold two copies at once (pages never touched cost no memory).
    work.groups.reserve(3 * work.healthy);
    work.members.reserve(3 * work.healthy);
    std::vector<int32_t> stack;
    for (uint32_t t = 0; t < work.triangles.size(); ++t) {
        for (uint32_t i = 0; i < 3 && work.is_healthy(t); ++i) {
            const Triangle& tri = work.triangles[t];
            if (tri.any() || tri.grouped(i)) continue;
            const uint32_t g = static_cast<uint32_t>(work.groups.size());
            work.groups.push_back(
                {work.identity[3 * t + i], tri.preserving(), static_cast<uint32_t>(work.members.size()), 0});
            stack.assign(1, static_cast<int32_t>(t));
            grow_group(work, g, stack);
            if (progress) progress->publish(g + 1);
        }
    }
}

// The angle-weighted sum of the projected face tangents of `faces` (sorted by triangle number, the
// order the reference adds them in) at the vertex of identity `id` (the reference's EvalTspace);
// `os[k]` is face k's tangent direction projected at `n`. `edges` is scratch: the two edges from the
// vertex of up to kEdgeBlock faces at a time, projected in one pass (project_all); a block, not the
// whole group, so that a fan of millions of faces holds no more than before.
// With `kept`, each face's term is kept at the face's corner.
constexpr size_t kEdgeBlock = 256;
Vec3 group_tangent(const Work& work, std::span<const uint32_t> faces, std::span<const Vec3> os, uint32_t id,
                   Vec3 n, std::vector<Vec3>& edges, ReorderableFrames* kept = nullptr) {
    Vec3 sum{0, 0, 0};
    for (size_t begin = 0; begin < faces.size(); begin += kEdgeBlock) {
        const size_t end = std::min(faces.size(), begin + kEdgeBlock);
        edges.resize(2 * (end - begin));
        for (size_t k = begin; k < end; ++k) {
            const uint32_t f = faces[k];
            if (work.triangles[f].any()) continue; // adds no term (below): its entries stay unread
            const uint32_t i = work.corner_of(f, id);
            const Vec3 p0 = work.position(3 * f + (i + 2) % 3), p1 = work.position(3 * f + i),
                       p2 = work.position(3 * f + (i + 1) % 3);
            edges[2 * (k - begin)] = sub(p0, p1);
            edges[2 * (k - begin) + 1] = sub(p2, p1);
        }
        project_all(edges, n);
        for (size_t k = begin; k < end; ++k) {
            const uint32_t f = faces[k];
            if (work.triangles[f].any()) continue;
            const Vec3 v1 = edges[2 * (k - begin)], v2 = edges[2 * (k - begin) + 1];
            const float cosine = std::clamp(dot(v1, v2), -1.0f, 1.0f);
            const float angle = static_cast<float>(std::acos(static_cast<double>(cosine)));
            const Vec3 term = scale(angle, os[k]);
            sum = add(sum, term);
            if (kept) kept->term[3 * f + work.corner_of(f, id)] = {term.x, term.y, term.z};
        }
    }
    return normalized_if_not_zero(sum);
}

// With genTangSpaceDefault's 180-degree threshold, a group splits only where two of its faces'
// projected directions are exactly opposite; that test is quadratic, so it is made for fans of up
// to this many faces (larger fans, poles of very fine spheres, are taken as one). Cost: at most
// kLargestPairCheck pair tests per face, and a group that splits (m faces, m <= kLargestPairCheck)
// costs O(m^2 log m): at most a constant per face, however the faces are arranged.
constexpr uint32_t kLargestPairCheck = 1024;

// Buffers reused from group to group (most groups hold a handful of faces: allocating per group
// would cost more than the arithmetic).
struct GroupScratch {
    std::vector<Vec3> os, ot;
    std::vector<uint32_t> faces, order;
    std::vector<Vec3> sorted_os;
    std::vector<Vec3> edges; // group_tangent's
};

// Whether any two faces of the group are joined by the reference's subgroup test (projected
// directions not exactly opposite, or either face without usable UVs).
bool group_is_whole(const Work& work, std::span<const uint32_t> members, const GroupScratch& scratch) {
    if (members.size() > kLargestPairCheck) return true;
    for (size_t a = 0; a < members.size(); ++a) {
        if (work.triangles[members[a]].any()) continue;
        for (size_t b = a + 1; b < members.size(); ++b) {
            if (work.triangles[members[b]].any()) continue;
            if (!(dot(scratch.os[a], scratch.os[b]) > -1.0f && dot(scratch.ot[a], scratch.ot[b]) > -1.0f))
                return false;
        }
    }
    return true;
}

CornerFrame frame_of(Vec3 tangent, bool preserving) {
    CornerFrame frame;
    frame.tangent = Eigen::Vector3f(tangent.x, tangent.y, tangent.z);
    frame.orientation_preserving = preserving;
    frame.from_group = true;
    return frame;
}

// Each member's projected tangent and bitangent directions at the group's normal (in `scratch`),
// and that normal.
Vec3 project_members(const Work& work, const Group& group, GroupScratch& scratch) {
    const std::span<const uint32_t> members(work.members.data() + group.first, group.count);
    const uint32_t first = members[0];
    const Vec3 n = vec(work.points.normal(work.corners[3 * first + work.corner_of(first, group.identity)]));
    scratch.os.resize(members.size());
    scratch.ot.resize(members.size());
    for (size_t k = 0; k < members.size(); ++k) {
        scratch.os[k] = work.triangles[members[k]].os;
        scratch.ot[k] = work.triangles[members[k]].ot;
    }
    project_all(scratch.os, n);
    project_all(scratch.ot, n);
    return n;
}

// The tangent of a group of one face: the path below's arithmetic, in its order, on one face,
// without its scratch arrays, its pair test (one face always joins) and its sort. Groups of one face
// are a corner each: every page's tip and unpaired hinge corner in a book (2.5 groups a triangle,
// against a grid's 0.5), the rim of a fan; they would spend more on the general path's set-up than
// on the arithmetic.
Vec3 single_face_tangent(const Work& work, const Group& group) {
    const uint32_t f = work.members.data()[group.first];
    const Triangle& tri = work.triangles[f];
    if (tri.any()) return {0, 0, 0}; // adds no term: the sum stays zero
    const uint32_t i = work.corner_of(f, group.identity);
    const Vec3 n = vec(work.points.normal(work.corners[3 * f + i]));
    const Vec3 os = projected(tri.os, n);
    const Vec3 p0 = work.position(3 * f + (i + 2) % 3), p1 = work.position(3 * f + i),
               p2 = work.position(3 * f + (i + 1) % 3);
    const Vec3 v1 = projected(sub(p0, p1), n), v2 = projected(sub(p2, p1), n);
    const float cosine = std::clamp(dot(v1, v2), -1.0f, 1.0f);
    const float angle = static_cast<float>(std::acos(static_cast<double>(cosine)));
    const Vec3 term = scale(angle, os);
    if (work.keep) work.keep->term[3 * f + i] = {term.x, term.y, term.z};
    return normalized_if_not_zero(add(Vec3{0, 0, 0}, term));
}

// The one tangent of a group whose faces all join (the usual case), or nothing when the group splits.
std::optional<Vec3> whole_group_tangent(const Work& work, uint32_t g, GroupScratch& scratch) {
    // Through data(): while the groups are still being built (build_groups_and_frames), the vector's
    // size changes; its start, reserved once, does not (a checked operator[] would read the size).
    const Group& group = work.groups.data()[g];
    if (group.count == 1) return single_face_tangent(work, group);
    const std::span<const uint32_t> members(work.members.data() + group.first, group.count);
    const Vec3 n = project_members(work, group, scratch);
    if (!group_is_whole(work, members, scratch)) return std::nullopt;
    // The members in triangle order, with the directions project_members made for them.
    scratch.order.resize(members.size());
    for (uint32_t k = 0; k < members.size(); ++k)
        scratch.order[k] = k;
    if (members.size() >= kRadixFrom)
        radix_sort(scratch.order.data(), scratch.order.size(), [&](uint32_t k) { return members[k]; });
    else
        std::sort(scratch.order.begin(), scratch.order.end(),
                  [&](uint32_t a, uint32_t b) { return members[a] < members[b]; });
    scratch.faces.resize(members.size());
    scratch.sorted_os.resize(members.size());
    for (size_t k = 0; k < members.size(); ++k) {
        scratch.faces[k] = members[scratch.order[k]];
        scratch.sorted_os[k] = scratch.os[scratch.order[k]];
    }
    return group_tangent(work, scratch.faces, scratch.sorted_os, group.identity, n, scratch.edges, work.keep);
}

// A group that splits into subgroups (faces whose projected directions are exactly opposite): one
// frame per distinct subgroup, appended to `out`, in member order.
// With work.keep, each member's subgroup is kept (ReorderableFrames::split_corners).
void frames_of_split_group(const Work& work, uint32_t g, GroupScratch& scratch, MeshFrames& out) {
    const Group& group = work.groups[g];
    const std::span<const uint32_t> members(work.members.data() + group.first, group.count);
    const Vec3 n = project_members(work, group, scratch);
    const auto joined = [&](size_t a, size_t b) {
        return a == b || work.triangles[members[a]].any() || work.triangles[members[b]].any() ||
               (dot(scratch.os[a], scratch.os[b]) > -1.0f && dot(scratch.ot[a], scratch.ot[b]) > -1.0f);
    };
    // Sorted faces -> their frame; found by a search tree, not a scan of every subgroup made, which
    // would compare face lists of m faces with up to m subgroups for each of m members: m^3.
    std::map<std::vector<uint32_t>, uint32_t> subgroups;
    for (size_t k = 0; k < members.size(); ++k) {
        std::vector<uint32_t> faces;
        for (size_t j = 0; j < members.size(); ++j)
            if (joined(k, j)) faces.push_back(members[j]);
        std::sort(faces.begin(), faces.end());
        auto found = subgroups.find(faces);
        if (found == subgroups.end()) {
            std::vector<Vec3> os(faces.size());
            for (size_t j = 0; j < faces.size(); ++j)
                os[j] = projected(work.triangles[faces[j]].os, n);
            out.frames.push_back(
                frame_of(group_tangent(work, faces, os, group.identity, n, scratch.edges, work.keep),
                         group.preserving));
            found = subgroups.emplace(std::move(faces), static_cast<uint32_t>(out.frames.size() - 1)).first;
        }
        const uint32_t corner = 3 * members[k] + work.corner_of(members[k], group.identity);
        out.corner_frame[corner] = found->second;
        if (!work.keep) continue;
        ReorderableFrames& keep = *work.keep;
        keep.group[corner] = ReorderableFrames::kSplit | static_cast<uint32_t>(keep.split_group.size());
        keep.split_group.push_back(g);
        for (const uint32_t f : found->first) // the faces whose terms its frame sums
            if (!work.triangles[f].any())
                keep.split_corners.push_back(3 * f + work.corner_of(f, group.identity));
        keep.split_first.push_back(static_cast<uint32_t>(keep.split_corners.size()));
    }
}

// The frames of the groups whose faces all join (whole_group_tangent): group g's at frames[1 + g]
// (frames[0] is the default frame) when whole[g].
struct WholeGroupFrames {
    std::vector<CornerFrame> frames;
    std::vector<uint8_t> whole;

    explicit WholeGroupFrames(size_t groups = 0) : frames(1 + groups), whole(groups) {}
};

// The frames of groups [first, last) into frames[0 .. last - first) and whole[...].
void frames_of_range(const Work& work, size_t first, size_t last, CornerFrame* frames, uint8_t* whole,
                     GroupScratch& scratch) {
    for (size_t g = first; g < last; ++g) {
        const std::optional<Vec3> t = whole_group_tangent(work, static_cast<uint32_t>(g), scratch);
        whole[g - first] = t.has_value();
        if (t) frames[g - first] = frame_of(*t, work.groups.data()[g].preserving); // see whole_group_tangent
    }
}

// The whole groups' frames, on the threads, once the groups are built.
WholeGroupFrames frames_of_whole_groups(const Work& work) {
    const size_t groups = work.groups.size();
    WholeGroupFrames out(groups);
    in_chunks(work, groups, [&](size_t first, size_t last) {
        GroupScratch scratch;
        frames_of_range(work, first, last, out.frames.data() + 1 + first, out.whole.data() + first, scratch);
    });
    return out;
}

// build_groups and frames_of_whole_groups overlapped (the grouping is serial): one thread builds the
// groups while the others compute the frames of blocks of kChunk groups already built; once all are
// built, every thread takes the blocks left. Until then the number of groups is unknown, so the
// blocks taken early keep their frames apart, copied in at the end (an array for the most groups
// there could be, one per healthy corner, would hold six times a grid's). Only without `keep`
// (whose terms are kept in a step that follows the grouping) and on more than one thread.
WholeGroupFrames build_groups_and_frames(Work& work) {
    GroupProgress progress;
    std::atomic<size_t> next_block{0};
    WholeGroupFrames out;
    struct EarlyBlock {
        size_t block = 0;
        WholeGroupFrames frames; // its kChunk groups' frames at 1 + k
    };
    std::mutex early_mutex;
    std::vector<EarlyBlock> early;
    // Takes blocks in order as their groups are complete, until every group is built and taken.
    const auto take_blocks = [&] {
        GroupScratch scratch;
        while (true) {
            const bool all_built = progress.finished.load(std::memory_order_acquire);
            const size_t groups = progress.built.load(std::memory_order_acquire);
            size_t b = next_block.load(std::memory_order_relaxed);
            if (b * kChunk >= groups || (!all_built && (b + 1) * kChunk > groups)) {
                if (all_built) return;
                progress.wait_for_block(b); // the next block is still being built
                continue;
            }
            if (!next_block.compare_exchange_weak(b, b + 1, std::memory_order_relaxed)) continue;
            const size_t first = b * kChunk, last = std::min(groups, first + kChunk);
            if (all_built && out.whole.size() == groups) { // straight into the whole array
                frames_of_range(work, first, last, out.frames.data() + 1 + first, out.whole.data() + first,
                                scratch);
                continue;
            }
            EarlyBlock block{b, WholeGroupFrames(last - first)};
            frames_of_range(work, first, last, block.frames.frames.data() + 1, block.frames.whole.data(),
                            scratch);
            const std::lock_guard lock(early_mutex);
            early.push_back(std::move(block));
        }
    };
    // Task 0 builds, then takes blocks; the others only take them. On fewer threads than tasks, the
    // tasks run in that order, so nothing waits for a grouping that is not running.
    assbin_common::run_tasks(work.threads, work.threads, [&](size_t task) {
        if (task == 0) {
            struct Finish { // whatever happens, the other tasks stop waiting
                GroupProgress& progress;
                ~Finish() { progress.finish(); }
            } finish{progress};
            build_groups(work, &progress);
            // The largest array goes before the frames' array is made (the others never read it).
            std::vector<std::array<int32_t, 3>>().swap(work.neighbours);
            out = WholeGroupFrames(work.groups.size());
        }
        take_blocks();
    });
    for (EarlyBlock& block : early) {
        const size_t first = block.block * kChunk, count = block.frames.whole.size();
        std::copy_n(block.frames.frames.begin() + 1, count,
                    out.frames.begin() + 1 + static_cast<std::ptrdiff_t>(first));
        std::copy_n(block.frames.whole.begin(), count,
                    out.whole.begin() + static_cast<std::ptrdiff_t>(first));
        block.frames = WholeGroupFrames();
    }
    return out;
}

// Every group's frame: the whole groups' from `whole`, numbered in group order (a split group's
// subgroups in place), so the result does not depend on the threads.
void frames_of_groups(const Work& work, WholeGroupFrames& whole, MeshFrames& out) {
    const size_t groups = work.groups.size();
    const bool all_whole = std::find(whole.whole.begin(), whole.whole.end(), 0) == whole.whole.end();
    if (work.keep) {
        work.keep->usable = true;
        work.keep->preserving.resize(groups);
        for (size_t g = 0; g < groups; ++g)
            work.keep->preserving[g] = work.groups[g].preserving;
    }
    // Group g's members' corners take frame `index`.
    const auto assign = [&](size_t g, uint32_t index) {
        const Group& group = work.groups[g];
        for (uint32_t k = group.first; k < group.first + group.count; ++k) {
            const uint32_t f = work.members[k];
            const uint32_t corner = 3 * f + work.corner_of(f, group.identity);
            out.corner_frame[corner] = index;
            if (work.keep) // a face without usable UVs is a member that adds no term
                work.keep->group[corner] =
                    static_cast<uint32_t>(g) | (work.triangles[f].any() ? ReorderableFrames::kNoTerm : 0);
        }
    };
    if (all_whole) { // group g's frame is frames[1 + g]: the groups in chunks, on the threads
        out.frames = std::move(whole.frames);
        in_chunks(work, groups, [&](size_t first, size_t last) { // a corner is in one group only
            for (size_t g = first; g < last; ++g)
                assign(g, static_cast<uint32_t>(1 + g));
        });
        return;
    }
    GroupScratch scratch; // numbered again, split groups' frames in place
    for (size_t g = 0; g < groups; ++g) {
        if (!whole.whole[g]) {
            frames_of_split_group(work, static_cast<uint32_t>(g), scratch, out);
            continue;
        }
        out.frames.push_back(whole.frames[1 + g]);
        assign(g, static_cast<uint32_t>(out.frames.size() - 1));
    }
}

// A corner of a degenerate triangle takes the frame of the first healthy corner of its identity.
void frames_of_degenerate(const Work& work, MeshFrames& out) {
    if (work.healthy == work.triangles.size()) return;
    std::vector<uint32_t> first_good(work.identity_count, kNone);
    for (uint32_t t = 0; t < work.triangles.size(); ++t)
        for (uint32_t i = 0; i < 3 && work.is_healthy(t); ++i)
            if (first_good[work.identity[3 * t + i]] == kNone)
                first_good[work.identity[3 * t + i]] = 3 * t + i;
    for (uint32_t t = 0; t < work.triangles.size(); ++t) {
        if (work.is_healthy(t)) continue;
        for (uint32_t c = 3 * t; c < 3 * t + 3; ++c)
            if (const uint32_t source = first_good[work.identity[c]]; source != kNone)
                out.corner_frame[c] = out.corner_frame[source];
    }
}

// Whether the frames of this run can be summed again in another order (mikktspace.hpp): known
// once the groups are built, except for groups that split (frames_of_groups tells).
// A triangle without usable UVs takes the orientation of the first group to reach it, and groups
// reach it from the triangles with usable UVs next to its patch of such triangles (joined across
// edges): when those all have one orientation, it takes that one in every order.
bool order_matters_beyond_sums(const Work& work) {
    if (work.crowded_edge.load()) return true;
    std::vector<uint8_t> seen(work.triangles.size(), 0);
    std::vector<uint32_t> patch;
    for (uint32_t t = 0; t < work.triangles.size(); ++t) {
        if (!work.is_healthy(t) || !work.triangles[t].any() || seen[t]) continue;
        int orientation = -1; // of the patch's neighbours with usable UVs, once one is met
        seen[t] = 1;
        patch.assign(1, t);
        while (!patch.empty()) {
            const uint32_t u = patch.back();
            patch.pop_back();
            for (const int32_t next : work.neighbours[u]) {
                if (next < 0) continue;
                const Triangle& n = work.triangles[next];
                if (n.any()) {
                    if (!seen[next]) patch.push_back(static_cast<uint32_t>(next));
                    seen[next] = 1;
                } else if (orientation < 0) {
                    orientation = n.preserving();
                } else if (orientation != static_cast<int>(n.preserving())) {
                    return true;
                }
            }
        }
    }
    return false;
}

// What a reordering needs besides the terms and groups, filled in frames_of_groups: the
// degenerate triangles' identities, so that the first healthy corner of each can be found again.
void prepare_keep(const Work& work) {
    ReorderableFrames& keep = *work.keep;
    keep.term.resize(work.corners.size());
    keep.group.assign(work.corners.size(), ReorderableFrames::kUngrouped);
    keep.split_first.assign(1, 0);
    if (work.healthy == work.triangles.size()) return;
    keep.identity = work.identity;
    keep.identity_count = work.identity_count;
    keep.degenerate.resize(work.triangles.size());
    for (uint32_t t = 0; t < work.triangles.size(); ++t)
        keep.degenerate[t] = !work.is_healthy(t);
}

} // namespace

MeshFrames mikktspace_frames(SurfacePoints points, std::span<const uint32_t> triangles, unsigned threads,
                             ReorderableFrames* keep, const std::vector<uint32_t>* identities) {
    if (identities && identities->size() != points.size())
        throw std::invalid_argument("mikktspace_frames: the identities given are not the points'");
    if (keep) *keep = ReorderableFrames{};
    Work work;
    work.keep = keep;
    work.threads = std::max(1u, threads);
    work.points = points;
    work.corners = triangles.first(triangles.size() - triangles.size() % 3);
    MeshFrames out;
    out.frames.assign(1, CornerFrame{}); // index 0: the default frame
    if (work.corners.empty()) return out;
    work.positions.resize(points.size());
    in_chunks(work, points.size(), [&](size_t first, size_t last) {
        for (size_t v = first; v < last; ++v)
            work.positions[v] = vec(points.position(v));
    });
    number_identities(work, identities);
    init_triangles(work);
    link_neighbours(work);
    WholeGroupFrames whole;
    if (work.keep || work.threads == 1 || work.healthy <= kChunk) {
        build_groups(work);
        if (work.keep && order_matters_beyond_sums(work)) work.keep = nullptr;
        std::vector<std::array<int32_t, 3>>().swap(
            work.neighbours); // the largest array goes before the frames
        if (work.keep) prepare_keep(work);
        whole = frames_of_whole_groups(work);
    } else {
        whole = build_groups_and_frames(work);
    }
    out.corner_frame.assign(work.corners.size(), 0);
    frames_of_groups(work, whole, out);
    frames_of_degenerate(work, out);
    if (keep && !keep->usable) *keep = ReorderableFrames{};
    return out;
}

// The reference welds corners whose position, normal and UV compare equal (so -0 equals +0).
// The numbers themselves do not matter (every later step compares identities or orders by
// triangle), so the points are numbered in their own order, without a first-use pass.
std::vector<uint32_t> point_identities(SurfacePoints points) {
    return group_equal<8>(points.size(), [&](uint32_t v) {
        const Eigen::Vector3f position = points.position(v), normal = points.normal(v);
        const Eigen::Vector2f uv = points.uv(v);
        return Bits<8>{float_bits(position.x()), float_bits(position.y()), float_bits(position.z()),
                       float_bits(normal.x()),   float_bits(normal.y()),   float_bits(normal.z()),
                       float_bits(uv.x()),       float_bits(uv.y())};
    });
}

void project_onto_plane(std::span<std::array<float, 3>> directions, const std::array<float, 3>& normal) {
    std::vector<Vec3> v(directions.size());
    for (size_t k = 0; k < v.size(); ++k)
        v[k] = {directions[k][0], directions[k][1], directions[k][2]};
    project_all(v, Vec3{normal[0], normal[1], normal[2]});
    for (size_t k = 0; k < v.size(); ++k)
        directions[k] = {v[k].x, v[k].y, v[k].z};
}

MeshFrames reordered_frames(const ReorderableFrames& kept, std::span<const uint32_t> from) {
    MeshFrames out;
    const size_t groups = kept.preserving.size();
    std::vector<Vec3> sums(groups, Vec3{0, 0, 0});
    out.corner_frame.resize(3 * from.size());
    for (size_t k = 0; k < from.size(); ++k) { // in the new order: each group's sum in that order
        for (uint32_t i = 0; i < 3; ++i) {
            const size_t corner = 3 * size_t{from[k]} + i;
            const uint32_t code = kept.group[corner];
            if (code == ReorderableFrames::kUngrouped) continue; // the default frame, for now
            if (code & ReorderableFrames::kSplit) continue;      // below
            const uint32_t g = code & ~ReorderableFrames::kNoTerm;
            if ((code & ReorderableFrames::kNoTerm) == 0) {
                const std::array<float, 3>& term = kept.term[corner];
                sums[g] = add(sums[g], Vec3{term[0], term[1], term[2]});
            }
            out.corner_frame[3 * k + i] = 1 + g;
        }
    }
    out.frames.resize(1 + groups);
    for (size_t g = 0; g < groups; ++g)
        out.frames[1 + g] = frame_of(normalized_if_not_zero(sums[g]), kept.preserving[g] != 0);
    if (!kept.split_group.empty()) {
        // A member of a split group: the sum of its subgroup's terms, faces taken in the new order.
        std::vector<uint32_t> position(from.size()); // of each kept triangle in the new order
        for (size_t k = 0; k < from.size(); ++k)
            position[from[k]] = static_cast<uint32_t>(k);
        std::vector<uint32_t> faces;
        for (size_t c = 0; c < out.corner_frame.size(); ++c) {
            const uint32_t code = kept.group[3 * size_t{from[c / 3]} + c % 3];
            if (code == ReorderableFrames::kUngrouped || (code & ReorderableFrames::kSplit) == 0) continue;
            const uint32_t entry = code & ~ReorderableFrames::kSplit;
            faces.assign(kept.split_corners.begin() + kept.split_first[entry],
                         kept.split_corners.begin() + kept.split_first[entry + 1]);
            std::sort(faces.begin(), faces.end(),
                      [&](uint32_t a, uint32_t b) { return position[a / 3] < position[b / 3]; });
            Vec3 sum{0, 0, 0};
            for (const uint32_t corner : faces) {
                const std::array<float, 3>& term = kept.term[corner];
                sum = add(sum, Vec3{term[0], term[1], term[2]});
            }
            out.frames.push_back(
                frame_of(normalized_if_not_zero(sum), kept.preserving[kept.split_group[entry]] != 0));
            out.corner_frame[c] = static_cast<uint32_t>(out.frames.size() - 1);
        }
    }
    if (kept.degenerate.empty()) return out;
    // As frames_of_degenerate, in the new order: a degenerate triangle's corner takes the frame of
    // the first healthy corner of its identity.
    std::vector<uint32_t> first_good(kept.identity_count, kNone);
    for (size_t k = 0; k < from.size(); ++k) {
        for (uint32_t i = 0; i < 3 && !kept.degenerate[from[k]]; ++i) {
            uint32_t& first = first_good[kept.identity[3 * size_t{from[k]} + i]];
            if (first == kNone) first = static_cast<uint32_t>(3 * k + i);
        }
    }
    for (size_t k = 0; k < from.size(); ++k) {
        for (uint32_t i = 0; i < 3 && kept.degenerate[from[k]]; ++i)
            if (const uint32_t source = first_good[kept.identity[3 * size_t{from[k]} + i]]; source != kNone)
                out.corner_frame[3 * k + i] = out.corner_frame[source];
    }
    return out;
}

} // namespace assbin::converter::detail
