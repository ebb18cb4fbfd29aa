// Rule 4: per-vertex weights: grouped by vertex, limited to the four largest and renormalised, and
// written to the vertices through each reference's bone map.
// Cost: linear in the weights but for a vertex's own sort. Up to four per vertex live inline; a
// vertex of more (200 bones on every vertex: scripts/bench-shapes.sh) keeps its list apart, sorted
// once to pick the four largest (w log w for its w weights).
#include "pipeline.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

namespace assbin::converter {

namespace {

// Heavier first; equal weights: lower bone index first. (A function object, so sorts inline it.)
constexpr auto ranks_before = [](const Influence& a, const Influence& b) {
    return a.weight != b.weight ? a.weight > b.weight : a.bone < b.bone;
};

// Sorts a handful of influences in place (insertion sort: the usual vertex has one to four).
template <class Less>
void sort_small(std::span<Influence> values, Less less) {
    if (values.size() > 16) {
        std::sort(values.begin(), values.end(), less);
        return;
    }
    for (size_t i = 1; i < values.size(); ++i) {
        const Influence value = values[i];
        size_t j = i;
        for (; j > 0 && less(value, values[j - 1]); --j)
            values[j] = values[j - 1];
        values[j] = value;
    }
}

} // namespace

namespace {

// The usual vertex: at most four distinct bones, every weight positive and finite. All of them are
// kept (so their order does not matter) and renormalised; nullopt for anything else.
std::optional<LimitedWeights> limit_few(std::span<const Influence> influences) {
    const size_t count = influences.size();
    if (count > 4) return std::nullopt;
    double total = 0;
    for (size_t i = 0; i < count; ++i) {
        const Influence& a = influences[i];
        if (a.bone < 0 || !(a.weight > 0) || !std::isfinite(a.weight)) return std::nullopt;
        for (size_t j = 0; j < i; ++j) {
            if (influences[j].bone == a.bone) return std::nullopt;
        }
        total += a.weight;
    }
    const double scale = 1.0 / total;
    LimitedWeights out;
    for (size_t i = 0; i < count; ++i) {
        out.bones[i] = influences[i].bone;
        out.weights[i] = static_cast<float>(influences[i].weight * scale);
        if (!(out.weights[i] > 0)) return std::nullopt; // underflow: the careful path drops it
    }
    return out;
}

} // namespace

LimitedWeights limit_influences(std::span<Influence> influences) {
    if (const std::optional<LimitedWeights> few = limit_few(influences)) return *few;
    size_t count = 0;
    for (const Influence& influence : influences) {
        if (influence.bone >= 0 && std::isfinite(influence.weight) && influence.weight > 0)
            influences[count++] = influence;
    }
    // Repeated bones add up (two aiBones of one mesh naming one node).
    sort_small(influences.first(count),
               [](const Influence& a, const Influence& b) { return a.bone < b.bone; });
    size_t merged = 0;
    for (size_t i = 0; i < count; ++i) {
        if (merged > 0 && influences[merged - 1].bone == influences[i].bone) {
            influences[merged - 1].weight += influences[i].weight;
        } else {
            influences[merged++] = influences[i];
        }
    }
    sort_small(influences.first(merged), ranks_before);
    LimitedWeights out;
    out.lost_influences = merged > 4;
    size_t kept = std::min<size_t>(merged, 4);
    double total = 0;
    for (size_t i = 0; i < kept; ++i)
        total += influences[i].weight;
    // A weight too small to survive the division would leave a used slot at 0: drop it first.
    while (kept > 0 && static_cast<float>(influences[kept - 1].weight / total) <= 0.0f) {
        total -= influences[--kept].weight;
    }
    for (size_t i = 0; i < kept; ++i) {
        out.bones[i] = influences[i].bone;
        out.weights[i] = static_cast<float>(influences[i].weight / total);
    }
    return out;
}

namespace detail {

VertexWeights group_weights(const assbin::Mesh& mesh, uint32_t mesh_index, Report& report) {
    VertexWeights out;
    const size_t vertex_count = mesh.positions ? mesh.positions->values.size() : 0;
    out.inline_entries.reset(new std::array<VertexWeights::Entry, 4>[vertex_count]);
    out.count.assign(vertex_count, 0);
    size_t outside = 0;
    for (uint32_t slot = 0; slot < mesh.bones.size(); ++slot) {
        for (const assbin::VertexWeight& w : mesh.bones[slot].weights) {
            if (w.vertex >= vertex_count) {
                ++outside;
                continue;
            }
            const uint32_t n = out.count[w.vertex]++;
            if (n < 4) {
                out.inline_entries[w.vertex][n] = {slot, w.weight};
                continue;
            }
            std::vector<VertexWeights::Entry>& all = out.overflow[w.vertex];
            if (n == 4) all.assign(out.inline_entries[w.vertex].begin(), out.inline_entries[w.vertex].end());
            all.push_back({slot, w.weight});
        }
    }
    if (outside > 0) {
        report.warn(mesh_label(mesh_index) + ": " + count_of(outside, "bone weight", "bone weights") +
                    (outside == 1 ? " names a vertex past the vertex count and is dropped"
                                  : " name a vertex past the vertex count and are dropped"));
    }
    return out;
}

namespace {

// limit_influences' fast path written straight into the vertex: at most four distinct mapped
// bones with positive finite weights, all kept and renormalised. False (vertex untouched) otherwise.
bool skin_few(const VertexWeights& weights, uint32_t source, std::span<const int32_t> bone_map,
              aem::Vertex& vertex) {
    const uint32_t count = weights.count[source];
    if (count == 0 || count > 4) return false;
    const std::array<VertexWeights::Entry, 4>& entries = weights.inline_entries[source];
    std::array<int32_t, 4> bones = {aem::kNone, aem::kNone, aem::kNone, aem::kNone};
    std::array<float, 4> values = {0, 0, 0, 0};
    unsigned ok = 1;
    double total = 0;
    for (uint32_t i = 0; i < count; ++i) {
        bones[i] = bone_map[entries[i].slot];
        values[i] = entries[i].weight;
        // Branch-free on purpose (this runs per vertex): bools widened to unsigned, then and-ed.
        ok &= unsigned{bones[i] >= 0} & unsigned{values[i] > 0} &
              unsigned{values[i] < std::numeric_limits<float>::infinity()};
        for (uint32_t j = 0; j < i; ++j)
            ok &= bones[j] != bones[i];
        total += values[i];
    }
    if (!ok) return false;
    const double scale = 1.0 / total;
    for (uint32_t i = 0; i < count; ++i) {
        values[i] = static_cast<float>(values[i] * scale);
        if (!(values[i] > 0)) return false; // underflow: the careful path drops it
    }
    vertex.bone_indices = bones;
    vertex.bone_weights = values;
    return true;
}

} // namespace

SkinTally skin_vertices(const VertexWeights& weights, const VertexView& view,
                        std::span<const int32_t> bone_map, int32_t extra_bone, std::span<aem::Vertex> out) {
    SkinTally tally;
    std::array<Influence, 16> small;
    std::vector<Influence> large;
    for (size_t v = 0; v < view.count; ++v) {
        aem::Vertex& vertex = out[v];
        vertex.extra_bone = extra_bone;
        if (bone_map.empty()) continue;
        const uint32_t source = view.source_of(v);
        if (skin_few(weights, source, bone_map, vertex)) continue;
        const std::span<const VertexWeights::Entry> entries = weights.of(source);
        std::span<Influence> influences(small.data(), entries.size());
        if (entries.size() > small.size()) {
            large.resize(entries.size());
            influences = large;
        }
        for (size_t e = 0; e < entries.size(); ++e)
            influences[e] = {bone_map[entries[e].slot], entries[e].weight};
        const LimitedWeights limited = limit_influences(influences);
        vertex.bone_indices = limited.bones;
        vertex.bone_weights = limited.weights;
        tally.lost_influences += limited.lost_influences ? 1 : 0;
        tally.unweighted += limited.bones[0] == aem::kNone ? 1 : 0;
    }
    return tally;
}

} // namespace detail

} // namespace assbin::converter
