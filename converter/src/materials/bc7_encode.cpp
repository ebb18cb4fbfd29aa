// BC7 blocks for the 2025 layout's RGBA textures, written from the format's public description (the
// tables and bit layout: bc7_format.hpp). Per block, chosen by measurement on the corpus textures
// against bc7enc (scripts/bench-bc7.sh; the figures are in the README):
//   1. flat blocks: mode 6 exactly, through a single-colour table;
//   2. mode 6 (one subset, RGBA, 4-bit indices) fitted;
//   3. candidates estimated without fitting: the two-subset modes (1 and 3 for opaque blocks, 7 with
//      alpha) on the partitions whose subsets lie nearest their means, and modes 4 and 5 (one channel
//      on its own indices: alpha, or for opaque blocks a colour channel rotated into its place);
//      the two estimated lowest are fitted;
//   4. opaque blocks still costly after that (an RMS error above 2): the three-subset modes 2 and 0
//      the same way, the best one fitted;
//   5. the winner polished: refitted from its own endpoints, each texel's index checked against its
//      neighbours by exact error, every p-bit choice tried.
// A fit: the principal axis, endpoints at the extreme projections, each p-bit choice, indices by
// projection on the quantized endpoints' line, then endpoints refitted by least squares to those
// indices and tried again. What did not pay for itself (measured): fitting more candidates, three
// subsets for every block, exact index search in every fit — each bought < 0.1 dB for 10-30% of the time.
#include "materials/bc7_format.hpp"
#include "materials/textures_2025.hpp"

#include "run_tasks.hpp"

#include <aem/format.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>

namespace assbin::converter::detail {

namespace {

using bc7::PBits;
using Pixel = std::array<int, 4>;
using Block4x4 = std::array<Pixel, 16>; // a block's texels, RGBA, 0..255, row by row

struct Endpoints {
    std::array<std::array<int, 4>, 2> q{}; // stored values, without the p-bit
    std::array<int, 2> p{};
};

struct Encoded {
    int mode = 6, partition = 0, rotation = 0, index_selection = 0;
    std::array<Endpoints, 3> subsets{};                 // modes 4 and 5: channel 3 is the alpha endpoint
    std::array<uint8_t, 16> indices{}, alpha_indices{}; // alpha_indices: modes 4 and 5
    uint64_t error = UINT64_MAX;
};

// How one fit's endpoints are stored (channels in `bits` bits plus p-bits) and indexed (indices of
// `index_bits` bits); the channels are the fit's template arguments.
struct FitSpec {
    int bits;
    PBits pbits;
    int index_bits;
    // Thorough: each texel's index checked against its neighbours by exact error, and every refit
    // tries every p-bit choice; for the block's final encoding.
    bool thorough = false;
};

struct SubsetFit {
    Endpoints ends;
    std::array<uint8_t, 16> index{}; // per member, in member order
    uint32_t error = UINT32_MAX;
};

// The stored value (of `bits` bits, under p-bit `p`, -1 for none) that expands nearest each 8-bit value.
const std::array<uint8_t, 256>& quantizer(int bits, int p) {
    static const auto tables = [] {
        std::array<std::array<uint8_t, 256>, 15> out{};
        for (int b = 4; b <= 8; ++b) {
            for (int pbit = -1; pbit <= (b < 8 ? 1 : -1); ++pbit) { // 8 bits come without a p-bit
                auto& table = out[size_t((b - 4) * 3 + pbit + 1)];
                for (int value = 0; value < 256; ++value) {
                    int best = 0, best_error = 1 << 30;
                    for (int q = 0; q < 1 << b; ++q) {
                        const int expanded = pbit < 0 ? bc7::expand(q, b) : bc7::expand(q << 1 | pbit, b + 1);
                        if (std::abs(expanded - value) < best_error) {
                            best_error = std::abs(expanded - value);
                            best = q;
                        }
                    }
                    table[size_t(value)] = uint8_t(best);
                }
            }
        }
        return out;
    }();
    return tables[size_t((bits - 4) * 3 + p + 1)];
}

int expanded(int q, int bits, PBits pbits, int p) {
    return pbits == PBits::None ? bc7::expand(q, bits) : bc7::expand(q << 1 | p, bits + 1);
}

using Color = std::array<float, 4>;

// A subset's texels channel by channel, in 16 lanes (those past `count` repeat texel 0): the loops
// over lanes are what the compiler vectorizes.
template <int Count>
struct Lanes {
    int count = 0;
    alignas(16) std::array<std::array<int32_t, 16>, Count> x{};
};

template <int First, int Count>
Lanes<Count> gather(const Block4x4& px, const uint8_t* members, int count) {
    Lanes<Count> lanes;
    lanes.count = count;
    for (size_t m = 0; m < 16; ++m)
        for (size_t ch = 0; ch < size_t(Count); ++ch)
            lanes.x[ch][m] = px[members[m < size_t(count) ? m : 0]][size_t(First) + ch];
    return lanes;
}

// Quantizes real endpoints under each p-bit choice (or only `fixed_pbits` when given), gives each
// texel the index whose weight is nearest its projection on the endpoints' line, and keeps the choice
// of least error. Channels are the template arguments (First is where the fit's channels start in
// Endpoints).
template <int First, int Count>
void try_endpoints(const Lanes<Count>& lanes, const FitSpec& spec, const Color& low, const Color& high,
                   SubsetFit& best, const std::array<int, 2>* fixed_pbits = nullptr) {
    constexpr std::array<std::array<int, 2>, 4> kUnique = {{{0, 0}, {0, 1}, {1, 0}, {1, 1}}};
    constexpr std::array<std::array<int, 2>, 2> kShared = {{{0, 0}, {1, 1}}};
    constexpr std::array<std::array<int, 2>, 1> kNone = {{{-1, -1}}};
    const std::array<int, 2>* choices = spec.pbits == PBits::Unique   ? kUnique.data()
                                        : spec.pbits == PBits::Shared ? kShared.data()
                                                                      : kNone.data();
    int choice_count = spec.pbits == PBits::Unique ? 4 : spec.pbits == PBits::Shared ? 2 : 1;
    if (fixed_pbits != nullptr && spec.pbits != PBits::None) {
        choices = fixed_pbits;
        choice_count = 1;
    }
    const uint8_t* weights = bc7::weights(spec.index_bits);
    for (int c = 0; c < choice_count; ++c) {
        SubsetFit fit;
        int32_t ends[2][Count];
        for (int e = 0; e < 2; ++e) {
            const int p = choices[c][e];
            fit.ends.p[size_t(e)] = std::max(p, 0);
            const Color& value = e == 0 ? low : high;
            const std::array<uint8_t, 256>& quantize = quantizer(spec.bits, p);
            for (int ch = 0; ch < Count; ++ch) {
                const int q = quantize[size_t(value[size_t(First + ch)] + 0.5f)];
                fit.ends.q[size_t(e)][size_t(First + ch)] = q;
                ends[e][ch] = expanded(q, spec.bits, spec.pbits, p);
            }
        }
        float direction[Count], length = 0;
        for (int ch = 0; ch < Count; ++ch) {
            direction[ch] = float(ends[1][ch] - ends[0][ch]);
            length += direction[ch] * direction[ch];
        }
        // Weights are round(64 i / steps), so the nearest index is the projection scaled to steps,
        // rounded, and its weight follows arithmetically: no table look-up breaks the vector loop.
        const int steps = (1 << spec.index_bits) - 1;
        const float scale = length > 0 ? float(steps) / length : 0.0f, to_weight = 64.0f / float(steps);
        alignas(16) int32_t index[16], weight[16], error[16] = {};
        for (size_t m = 0; m < 16; ++m) {
            float along = 0;
            for (size_t ch = 0; ch < size_t(Count); ++ch)
                along += float(lanes.x[ch][m] - ends[0][ch]) * direction[ch];
            index[m] = std::clamp(int32_t(along * scale + 0.5f), 0, steps);
            weight[m] = int32_t(float(index[m]) * to_weight + 0.5f);
        }
        for (size_t ch = 0; ch < size_t(Count); ++ch)
            for (size_t m = 0; m < 16; ++m) {
                const int32_t d =
                    lanes.x[ch][m] - (((64 - weight[m]) * ends[0][ch] + weight[m] * ends[1][ch] + 32) >> 6);
                error[m] += d * d;
            }
        if (spec.thorough) {
            // The palette's rounding puts it slightly off the line: the index on either side may be nearer.
            for (size_t m = 0; m < size_t(lanes.count); ++m)
                for (const int step : {-1, 1}) {
                    const int i = index[m] + step;
                    if (i < 0 || i >= 1 << spec.index_bits) continue;
                    int32_t e = 0;
                    for (size_t ch = 0; ch < size_t(Count); ++ch) {
                        const int32_t d =
                            lanes.x[ch][m] - bc7::interpolate(ends[0][ch], ends[1][ch], weights[i]);
                        e += d * d;
                    }
                    if (e < error[m]) {
                        error[m] = e;
                        index[m] = i;
                    }
                }
        }
        uint32_t total = 0;
        for (int m = 0; m < lanes.count; ++m)
            total += uint32_t(error[m]);
        if (total < best.error) {
            fit.error = total;
            for (size_t m = 0; m < 16; ++m)
                fit.index[m] = uint8_t(index[m]);
            best = fit;
        }
    }
}

// Endpoints minimising the squared error for the indices `fit` chose (least squares per channel).
template <int First, int Count>
bool refit(const Lanes<Count>& lanes, const FitSpec& spec, const SubsetFit& fit, Color& low, Color& high) {
    const uint8_t* weights = bc7::weights(spec.index_bits);
    float aa = 0, ab = 0, bb = 0;
    float ax[Count] = {}, bx[Count] = {};
    for (int m = 0; m < lanes.count; ++m) {
        const float w = float(weights[fit.index[size_t(m)]]) * (1.0f / 64.0f);
        aa += (1 - w) * (1 - w);
        ab += (1 - w) * w;
        bb += w * w;
        for (size_t ch = 0; ch < size_t(Count); ++ch) {
            ax[ch] += (1 - w) * float(lanes.x[ch][size_t(m)]);
            bx[ch] += w * float(lanes.x[ch][size_t(m)]);
        }
    }
    const float det = aa * bb - ab * ab;
    if (std::abs(det) < 1e-6f) return false;
    const float inverse = 1.0f / det;
    for (size_t ch = 0; ch < size_t(Count); ++ch) {
        low[First + ch] = std::clamp((bb * ax[ch] - ab * bx[ch]) * inverse, 0.0f, 255.0f);
        high[First + ch] = std::clamp((aa * bx[ch] - ab * ax[ch]) * inverse, 0.0f, 255.0f);
    }
    return true;
}

// Endpoints at the extreme projections of the texels on their principal axis.
template <int First, int Count>
void principal_endpoints(const Lanes<Count>& lanes, Color& low, Color& high) {
    const int count = lanes.count;
    float mean[Count] = {};
    for (size_t ch = 0; ch < size_t(Count); ++ch) {
        for (int m = 0; m < count; ++m)
            mean[ch] += float(lanes.x[ch][size_t(m)]);
        mean[ch] /= float(count);
    }
    float cov[Count][Count] = {};
    for (int m = 0; m < count; ++m) {
        float d[Count];
        for (size_t ch = 0; ch < size_t(Count); ++ch)
            d[ch] = float(lanes.x[ch][size_t(m)]) - mean[ch];
        for (size_t i = 0; i < size_t(Count); ++i)
            for (size_t j = 0; j < size_t(Count); ++j)
                cov[i][j] += d[i] * d[j];
    }
    // The principal axis by power iteration, from the column of the channel that varies most.
    size_t widest = 0;
    for (size_t ch = 0; ch < size_t(Count); ++ch)
        if (cov[ch][ch] > cov[widest][widest]) widest = ch;
    float axis[Count];
    for (size_t ch = 0; ch < size_t(Count); ++ch)
        axis[ch] = cov[ch][widest];
    // Two steps: as good as four on the corpus textures (the least-squares refits correct the rest).
    for (int iteration = 0; iteration < 2; ++iteration) {
        float next[Count] = {}, length = 0;
        for (size_t i = 0; i < size_t(Count); ++i) {
            for (size_t j = 0; j < size_t(Count); ++j)
                next[i] += cov[i][j] * axis[j];
            length += next[i] * next[i];
        }
        if (length < 1e-12f) break;
        const float scale = 1.0f / std::sqrt(length);
        for (size_t i = 0; i < size_t(Count); ++i)
            axis[i] = next[i] * scale;
    }
    float axis_length = 0;
    for (size_t ch = 0; ch < size_t(Count); ++ch)
        axis_length += axis[ch] * axis[ch];
    float low_t = 0, high_t = 0;
    if (axis_length > 1e-12f) {
        const float scale = 1.0f / std::sqrt(axis_length);
        for (size_t ch = 0; ch < size_t(Count); ++ch)
            axis[ch] *= scale;
        for (int m = 0; m < count; ++m) {
            float projection = 0;
            for (size_t ch = 0; ch < size_t(Count); ++ch)
                projection += (float(lanes.x[ch][size_t(m)]) - mean[ch]) * axis[ch];
            low_t = std::min(low_t, projection);
            high_t = std::max(high_t, projection);
        }
    }
    for (size_t ch = 0; ch < size_t(Count); ++ch) {
        low[First + ch] = std::clamp(mean[ch] + axis[ch] * low_t, 0.0f, 255.0f);
        high[First + ch] = std::clamp(mean[ch] + axis[ch] * high_t, 0.0f, 255.0f);
    }
}

// The best endpoints and indices found for the member texels under `spec`, from the principal axis
// or from `start`'s endpoints (polishing an encoding found before); the indices in `index` follow
// the members' order.
template <int First, int Count>
SubsetFit fit_subset(const Block4x4& px, const uint8_t* members, int count, const FitSpec& spec,
                     const Endpoints* start = nullptr) {
    const Lanes<Count> lanes = gather<First, Count>(px, members, count);
    Color low{}, high{};
    if (start != nullptr) {
        for (size_t e = 0; e < 2; ++e)
            for (size_t ch = First; ch < size_t(First + Count); ++ch)
                (e == 0 ? low : high)[ch] =
                    float(expanded(start->q[e][ch], spec.bits, spec.pbits, start->p[e]));
    } else {
        principal_endpoints<First, Count>(lanes, low, high);
    }
    SubsetFit best;
    try_endpoints<First, Count>(lanes, spec, low, high, best, start != nullptr ? &start->p : nullptr);
    // The refits keep the p-bits the first fit chose.
    for (int round = 0; round < 2 && best.error > 0; ++round) {
        const uint32_t before = best.error;
        if (!refit<First, Count>(lanes, spec, best, low, high)) break;
        const std::array<int, 2> pbits = best.ends.p;
        try_endpoints<First, Count>(lanes, spec, low, high, best, &pbits);
        if (best.error >= before) break;
    }
    return best;
}

// --- Mode 6's single colour: every 8-bit value exact with endpoints of different p-bits and a
// middle index. Per (p-bit pair, index) and value: the 7-bit endpoints and the error left.
struct SingleColour {
    uint8_t low7, high7, error;
};
constexpr std::array<int, 4> kSingleColourIndices = {5, 6, 7, 8}; // weights 21, 26, 30, 34

const auto& single_colour_table() {
    static const auto table = [] {
        const uint8_t* weights = bc7::weights(4);
        std::array<std::array<std::array<SingleColour, 256>, kSingleColourIndices.size()>, 4> out{};
        for (int pair = 0; pair < 4; ++pair) {
            const int low_p = pair >> 1, high_p = pair & 1;
            for (size_t k = 0; k < kSingleColourIndices.size(); ++k) {
                const int w = weights[kSingleColourIndices[k]];
                for (int value = 0; value < 256; ++value) {
                    SingleColour best{0, 0, 255};
                    for (int low = 0; low < 128 && best.error > 0; ++low) {
                        const int a = low << 1 | low_p;
                        // The high endpoint that brings the weighted value nearest, and its neighbours.
                        const int guess = ((value * 64 - (64 - w) * a) / w - high_p) / 2;
                        for (int high = std::max(0, guess - 1); high <= std::min(127, guess + 1); ++high) {
                            const int error = std::abs(bc7::interpolate(a, high << 1 | high_p, w) - value);
                            if (error < best.error) best = {uint8_t(low), uint8_t(high), uint8_t(error)};
                        }
                    }
                    out[size_t(pair)][k][size_t(value)] = best;
                }
            }
        }
        return out;
    }();
    return table;
}

Encoded encode_single_colour(const Pixel& colour) {
    const auto& table = single_colour_table();
    Encoded best;
    for (int pair = 0; pair < 4; ++pair) {
        for (size_t k = 0; k < kSingleColourIndices.size(); ++k) {
            Encoded c;
            c.subsets[0].p = {pair >> 1, pair & 1};
            uint64_t error = 0;
            for (size_t ch = 0; ch < 4; ++ch) {
                const SingleColour& entry = table[size_t(pair)][k][size_t(colour[ch])];
                c.subsets[0].q[0][ch] = entry.low7;
                c.subsets[0].q[1][ch] = entry.high7;
                error += uint64_t(entry.error) * entry.error * 16;
            }
            c.indices.fill(uint8_t(kSingleColourIndices[k]));
            c.error = error;
            if (c.error < best.error) best = c;
        }
    }
    return best;
}

// --- Partition estimates. Every partition is ranked first by how near each subset's texels are to
// their mean (the covariance's trace; the texels' own squares are the same for every partition, so
// ranking needs only each subset's channel sums, computed for the 64 partitions at once), and the
// best of those by their line fits.

// The texels of each subset of each partition, and 1 where texel t of partition p is in subset 1 (two
// subsets) or 1 and 2 (three), as factors, so the sums over the 64 partitions are plain multiply-adds.
struct PartitionTables {
    std::array<std::array<std::array<std::array<uint8_t, 16>, 3>, 64>, 2> members{}; // [subsets - 2]
    std::array<std::array<std::array<uint8_t, 3>, 64>, 2> counts{};
    std::array<std::array<std::array<float, 64>, 16>, 3> selectors{};     // two: [0]; three: [1], [2]
    std::array<std::array<std::array<float, 64>, 3>, 2> inverse_counts{}; // [subsets - 2][subset][p]
    PartitionTables() {
        for (int subsets = 2; subsets <= 3; ++subsets)
            for (int p = 0; p < 64; ++p)
                for (int t = 0; t < 16; ++t) {
                    const int s = bc7::subset_of(subsets, p, t);
                    auto& count = counts[size_t(subsets - 2)][size_t(p)][size_t(s)];
                    members[size_t(subsets - 2)][size_t(p)][size_t(s)][count++] = uint8_t(t);
                    if (s > 0) selectors[size_t(subsets - 2 + s - 1)][size_t(t)][size_t(p)] = 1.0f;
                }
        for (size_t k = 0; k < 2; ++k)
            for (size_t p = 0; p < 64; ++p)
                for (size_t s = 0; s < 3; ++s)
                    inverse_counts[k][s][p] = counts[k][p][s] > 0 ? 1.0f / float(counts[k][p][s]) : 0.0f;
    }
};

const PartitionTables& partition_tables() {
    static const PartitionTables tables;
    return tables;
}

// Per partition, the sum over its subsets of (sum of a channel)^2 / texels: the larger, the nearer
// the subsets' texels to their means.
template <int C>
std::array<float, 64> partition_scores(const Block4x4& px, int subsets) {
    const PartitionTables& tables = partition_tables();
    std::array<std::array<std::array<float, 64>, C>, 3> sums{};
    float total[C] = {};
    for (size_t t = 0; t < 16; ++t)
        for (size_t ch = 0; ch < C; ++ch)
            total[ch] += float(px[t][ch]);
    for (int s = 1; s < subsets; ++s) {
        const auto& selector = tables.selectors[size_t(subsets - 2 + s - 1)];
        for (size_t t = 0; t < 16; ++t)
            for (size_t ch = 0; ch < C; ++ch) {
                const float value = float(px[t][ch]);
                for (size_t p = 0; p < 64; ++p)
                    sums[size_t(s)][ch][p] += selector[t][p] * value;
            }
    }
    std::array<float, 64> out{};
    const auto& inverse = tables.inverse_counts[size_t(subsets - 2)];
    for (size_t ch = 0; ch < C; ++ch) {
        std::array<float, 64> rest;
        rest.fill(total[ch]);
        for (int s = 1; s < subsets; ++s)
            for (size_t p = 0; p < 64; ++p) {
                const float sum = sums[size_t(s)][ch][p];
                rest[p] -= sum;
                out[p] += sum * sum * inverse[size_t(s)][p];
            }
        for (size_t p = 0; p < 64; ++p)
            out[p] += rest[p] * rest[p] * inverse[0][p];
    }
    return out;
}

// How texels spread about their mean: the residual off the best line through them (the
// covariance's trace less its largest eigenvalue) and the spread along it (that eigenvalue), both
// summed over the texels.
struct LineFit {
    float residual, spread; // no initializers: a table of them is filled only where used
};

// The line fit of an N x N covariance, the largest eigenvalue by power iteration (which can only
// underestimate it: the residual errs high).
template <size_t N>
LineFit fit_line(const float (&cov)[N][N]) {
    float trace = 0;
    size_t widest = 0;
    for (size_t i = 0; i < N; ++i) {
        trace += cov[i][i];
        if (cov[i][i] > cov[widest][widest]) widest = i;
    }
    if (trace <= 0) return {0, 0};
    float v[N];
    for (size_t i = 0; i < N; ++i)
        v[i] = cov[i][widest];
    // One step: it only ranks candidates, and ranks them as well as three (measured).
    for (int iteration = 0; iteration < 1; ++iteration) {
        float next[N] = {}, length = 0;
        for (size_t i = 0; i < N; ++i) {
            for (size_t j = 0; j < N; ++j)
                next[i] += cov[i][j] * v[j];
            length += next[i] * next[i];
        }
        if (length < 1e-20f) return {trace, 0};
        const float scale = 1.0f / std::sqrt(length);
        for (size_t i = 0; i < N; ++i)
            v[i] = next[i] * scale;
    }
    float rayleigh = 0;
    for (size_t i = 0; i < N; ++i)
        for (size_t j = 0; j < N; ++j)
            rayleigh += v[i] * cov[i][j] * v[j];
    return {std::max(0.0f, trace - rayleigh), rayleigh};
}

// The line fit of some texels in the first C channels, from their sums and sums of products.
template <size_t C>
LineFit fit_line(const Block4x4& px, const uint8_t* members, int count) {
    float sum[C] = {}, products[C][C] = {};
    for (int m = 0; m < count; ++m) {
        float x[C];
        for (size_t ch = 0; ch < C; ++ch)
            x[ch] = float(px[members[m]][ch]);
        for (size_t i = 0; i < C; ++i) {
            sum[i] += x[i];
            for (size_t j = i; j < C; ++j)
                products[i][j] += x[i] * x[j];
        }
    }
    float cov[C][C];
    const float inverse = 1.0f / float(count);
    for (size_t i = 0; i < C; ++i)
        for (size_t j = i; j < C; ++j)
            cov[i][j] = cov[j][i] = products[i][j] - sum[i] * sum[j] * inverse;
    return fit_line(cov);
}

// One mode on one partition: each subset fitted on its own; the error of channels the mode does
// not store (alpha in modes 0 to 3: 255) is added.
Encoded encode_partitioned(const Block4x4& px, int mode, int partition, uint64_t bound,
                           const Encoded* polish = nullptr) {
    const bc7::Mode& m = bc7::kModes[size_t(mode)];
    Encoded out;
    out.mode = mode;
    out.partition = partition;
    out.error = 0;
    const FitSpec spec{m.color_bits, m.pbits, m.index_bits, polish != nullptr};
    if (m.alpha_bits == 0)
        for (const Pixel& texel : px)
            out.error += uint64_t((255 - texel[3]) * (255 - texel[3]));
    static constexpr uint8_t kAll[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    for (int s = 0; s < m.subsets && out.error < bound; ++s) {
        const uint8_t* members = kAll;
        int count = 16;
        if (m.subsets > 1) {
            members = partition_tables().members[size_t(m.subsets - 2)][size_t(partition)][size_t(s)].data();
            count = partition_tables().counts[size_t(m.subsets - 2)][size_t(partition)][size_t(s)];
        }
        const Endpoints* start = polish ? &polish->subsets[size_t(s)] : nullptr;
        const SubsetFit fit = m.alpha_bits > 0 ? fit_subset<0, 4>(px, members, count, spec, start)
                                               : fit_subset<0, 3>(px, members, count, spec, start);
        out.subsets[size_t(s)].q = fit.ends.q;
        out.subsets[size_t(s)].p = fit.ends.p;
        for (int k = 0; k < count; ++k)
            out.indices[members[k]] = fit.index[size_t(k)];
        out.error += fit.error;
    }
    return out;
}

// Modes 4 and 5: colour and alpha on separate indices, alpha swapped with channel `rotation` - 1
// first (rotation 0 keeps the channels).
Encoded encode_separate_alpha(Block4x4 px, int mode, int rotation, int index_selection,
                              const Encoded* polish = nullptr) {
    const bc7::Mode& m = bc7::kModes[size_t(mode)];
    if (rotation > 0)
        for (Pixel& texel : px)
            std::swap(texel[3], texel[size_t(rotation - 1)]);
    constexpr uint8_t kAll[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    const int color_index_bits = index_selection == 0 ? m.index_bits : m.alpha_index_bits;
    const int alpha_index_bits = index_selection == 0 ? m.alpha_index_bits : m.index_bits;
    const bool thorough = polish != nullptr;
    const Endpoints* start = polish ? &polish->subsets[0] : nullptr;
    const SubsetFit color =
        fit_subset<0, 3>(px, kAll, 16, {m.color_bits, PBits::None, color_index_bits, thorough}, start);
    const SubsetFit alpha =
        fit_subset<3, 1>(px, kAll, 16, {m.alpha_bits, PBits::None, alpha_index_bits, thorough}, start);
    Encoded out;
    out.mode = mode;
    out.rotation = rotation;
    out.index_selection = index_selection;
    out.subsets[0].q = color.ends.q;
    for (size_t e = 0; e < 2; ++e)
        out.subsets[0].q[e][3] = alpha.ends.q[e][3];
    out.indices = color.index;
    out.alpha_indices = alpha.index;
    out.error = uint64_t(color.error) + alpha.error;
    return out;
}

// --- Choosing modes: each candidate (mode and partition, or mode, rotation and index selection)
// gets an estimate of its error before any fit: per subset, the residual off its line, the spread
// along it over the squared number of index steps (uniform quantization along the line), and the
// endpoints' rounding at the mode's precision. The candidates estimated lowest are fitted.

struct Candidate {
    float estimate;
    int mode, partition, rotation, selection;
};

// A block's candidates: at most 2 modes x kLineRanked partitions and 4 rotations x 3 variants.
struct Candidates {
    std::array<Candidate, 24> items;
    size_t size = 0;
    void push_back(const Candidate& c) { items[size++] = c; }
};

// The estimated error of a subset of `count` texels in `channels` channels, with indices of
// `index_bits` bits and endpoints of `endpoint_bits` bits (p-bit included). The spread's weight (0.3
// rather than the 1 of a uniform spread) is measured: it ranks best on the corpus textures.
float estimate(const LineFit& line, int count, int channels, int index_bits, int endpoint_bits) {
    const float steps = float((1 << index_bits) - 1);
    const float rounding = 255.0f / float((1 << endpoint_bits) - 1);
    return line.residual + 0.3f * line.spread / (steps * steps) +
           float(count * channels) * rounding * rounding / 24.0f;
}

constexpr int kLineRanked = 3; // partitions per subset count whose line fits are estimated
constexpr uint64_t kThreeSubsetThreshold = 16 * 3 * 4; // (an RMS error of 2 a channel)
constexpr int kCandidatesFitted = 2;                   // candidates fitted in full, lowest estimates first

// The partitions (of the first `partitions`) whose subsets are nearest their means.
std::array<int, kLineRanked> nearest_partitions(const std::array<float, 64>& score, int partitions) {
    // Kept sorted, highest score first; ties keep the lower partition.
    std::array<int, kLineRanked> out;
    int kept = 0;
    for (int p = 0; p < partitions; ++p) {
        if (kept == kLineRanked && score[size_t(p)] <= score[size_t(out[kLineRanked - 1])]) continue;
        int at = std::min(kept, kLineRanked - 1);
        while (at > 0 && score[size_t(out[size_t(at - 1)])] < score[size_t(p)]) {
            out[size_t(at)] = out[size_t(at - 1)];
            --at;
        }
        out[size_t(at)] = p;
        kept = std::min(kept + 1, kLineRanked);
    }
    return out;
}

template <size_t C>
void partitioned_candidates(const Block4x4& px, int subsets, Candidates& out) {
    const PartitionTables& tables = partition_tables();
    const std::array<float, 64> score = partition_scores<C>(px, subsets);
    // The modes of this subset count for these channels: 1 and 3, or 7; 2, and 0 on the first 16.
    const std::array<int, 2> modes = C == 4         ? std::array{subsets == 2 ? 7 : -1, -1}
                                     : subsets == 2 ? std::array{1, 3}
                                                    : std::array{2, 0};
    std::array<std::array<LineFit, 3>, 64> lines;
    uint64_t fitted = 0; // partitions whose subsets' line fits are in `lines`
    const std::array<int, kLineRanked> nearest = nearest_partitions(score, 64);
    for (const int mode : modes) {
        if (mode < 0) continue;
        const bc7::Mode& m = bc7::kModes[size_t(mode)];
        const int endpoint_bits = m.color_bits + (m.pbits == PBits::None ? 0 : 1);
        for (const int p :
             m.partition_bits == 6 ? nearest : nearest_partitions(score, 1 << m.partition_bits)) {
            const auto& members = tables.members[size_t(subsets - 2)][size_t(p)];
            const auto& counts = tables.counts[size_t(subsets - 2)][size_t(p)];
            if (!(fitted >> p & 1)) {
                for (size_t s = 0; s < size_t(subsets); ++s)
                    lines[size_t(p)][s] = fit_line<C>(px, members[s].data(), counts[s]);
                fitted |= uint64_t{1} << p;
            }
            float total = 0;
            for (size_t s = 0; s < size_t(subsets); ++s)
                total += estimate(lines[size_t(p)][s], counts[s], int(C), m.index_bits, endpoint_bits);
            out.push_back({total, mode, p, 0, 0});
        }
    }
}

// Modes 4 and 5: the colour's line (three channels: RGB, or with one swapped for alpha) and the
// fourth channel alone.
void separate_alpha_candidates(const Block4x4& px, bool opaque, Candidates& out) {
    float mean[4] = {}, cov[4][4] = {};
    for (const Pixel& t : px)
        for (size_t i = 0; i < 4; ++i)
            mean[i] += float(t[i]) / 16.0f;
    for (const Pixel& t : px)
        for (size_t i = 0; i < 4; ++i)
            for (size_t j = 0; j < 4; ++j)
                cov[i][j] += (float(t[i]) - mean[i]) * (float(t[j]) - mean[j]);
    for (int rotation = opaque ? 1 : 0; rotation < 4; ++rotation) {
        const size_t alone = rotation == 0 ? 3 : size_t(rotation - 1);
        float rest[3][3];
        for (size_t i = 0, ri = 0; i < 4; ++i) {
            if (i == alone) continue;
            for (size_t j = 0, rj = 0; j < 4; ++j)
                if (j != alone) rest[ri][rj++] = cov[i][j];
            ++ri;
        }
        const LineFit color = fit_line(rest);
        const LineFit scalar{0, cov[alone][alone]};
        for (const auto& [mode, selection] : {std::pair{5, 0}, std::pair{4, 0}, std::pair{4, 1}}) {
            const bc7::Mode& m = bc7::kModes[size_t(mode)];
            const int color_index_bits = selection == 0 ? m.index_bits : m.alpha_index_bits;
            const int alpha_index_bits = selection == 0 ? m.alpha_index_bits : m.index_bits;
            out.push_back({estimate(color, 16, 3, color_index_bits, m.color_bits) +
                               estimate(scalar, 16, 1, alpha_index_bits, m.alpha_bits),
                           mode, 0, rotation, selection});
        }
    }
}

Encoded encode_block(const Block4x4& px) {
    if (std::all_of(px.begin(), px.end(), [&](const Pixel& t) { return t == px[0]; }))
        return encode_single_colour(px[0]);
    const bool opaque = std::all_of(px.begin(), px.end(), [](const Pixel& t) { return t[3] == 255; });
    Encoded best = encode_partitioned(px, 6, 0, UINT64_MAX);
    if (best.error == 0) return best;
    Candidates candidates;
    const auto fit_best_candidates = [&](size_t fitted) {
        fitted = std::min(candidates.size, fitted);
        const auto begin = candidates.items.begin();
        std::partial_sort(begin, begin + ptrdiff_t(fitted), begin + ptrdiff_t(candidates.size),
                          [](const Candidate& a, const Candidate& b) { return a.estimate < b.estimate; });
        for (size_t k = 0; k < fitted; ++k) {
            const Candidate& c = candidates.items[k];
            const Encoded e = c.mode == 4 || c.mode == 5
                                  ? encode_separate_alpha(px, c.mode, c.rotation, c.selection)
                                  : encode_partitioned(px, c.mode, c.partition, best.error);
            if (e.error < best.error) best = e;
        }
    };
    if (opaque)
        partitioned_candidates<3>(px, 2, candidates);
    else
        partitioned_candidates<4>(px, 2, candidates);
    separate_alpha_candidates(px, opaque, candidates);
    fit_best_candidates(kCandidatesFitted);
    // Three subsets (opaque blocks only) where the error left is still large: those blocks are few,
    // and the ones where three colours meet.
    if (opaque && best.error > kThreeSubsetThreshold) {
        candidates.size = 0;
        partitioned_candidates<3>(px, 3, candidates);
        fit_best_candidates(1);
    }
    // The winner fitted again, thoroughly.
    const Encoded polished =
        best.mode == 4 || best.mode == 5
            ? encode_separate_alpha(px, best.mode, best.rotation, best.index_selection, &best)
            : encode_partitioned(px, best.mode, best.partition, best.error, &best);
    if (polished.error < best.error) best = polished;
    return best;
}

// --- Packing.

// A block's 128 bits, filled from the least significant.
struct BitWriter {
    uint64_t low = 0, high = 0;
    int at = 0;
    void put(uint32_t value, int count) {
        if (count == 0) return;
        const uint64_t bits = value & ((uint64_t{1} << count) - 1);
        if (at < 64) {
            low |= bits << at;
            if (at + count > 64) high |= bits >> (64 - at);
        } else {
            high |= bits << (at - 64);
        }
        at += count;
    }
    void store(uint8_t* block) const {
        for (int i = 0; i < 8; ++i) {
            block[i] = uint8_t(low >> (8 * i));
            block[8 + i] = uint8_t(high >> (8 * i));
        }
    }
};

// The anchor texels' indices must have a top bit of 0: where one does not, that subset's endpoints
// swap and its indices count from the other end. `channels` are the channels those indices serve.
void fix_anchor(Encoded& c, std::array<uint8_t, 16>& indices, int index_bits, int subsets, int s,
                int first_channel, int channel_count) {
    const int anchor = bc7::anchor_of(subsets, c.partition, s);
    if ((indices[size_t(anchor)] >> (index_bits - 1)) == 0) return;
    Endpoints& e = c.subsets[size_t(s)];
    for (int ch = first_channel; ch < first_channel + channel_count; ++ch)
        std::swap(e.q[0][size_t(ch)], e.q[1][size_t(ch)]);
    if (channel_count > 1) std::swap(e.p[0], e.p[1]);
    for (int t = 0; t < 16; ++t)
        if (bc7::subset_of(subsets, c.partition, t) == s)
            indices[size_t(t)] = uint8_t((1 << index_bits) - 1 - indices[size_t(t)]);
}

void pack(Encoded c, uint8_t* block) {
    const bc7::Mode& m = bc7::kModes[size_t(c.mode)];
    const bool separate_alpha = m.alpha_index_bits > 0;
    const int color_index_bits = c.index_selection == 0 ? m.index_bits : m.alpha_index_bits;
    const int alpha_index_bits = c.index_selection == 0 ? m.alpha_index_bits : m.index_bits;
    if (separate_alpha) {
        fix_anchor(c, c.indices, color_index_bits, 1, 0, 0, 3);
        fix_anchor(c, c.alpha_indices, alpha_index_bits, 1, 0, 3, 1);
    } else {
        for (int s = 0; s < m.subsets; ++s)
            fix_anchor(c, c.indices, m.index_bits, m.subsets, s, 0, 4);
    }
    BitWriter bits;
    bits.put(1u << c.mode, c.mode + 1);
    bits.put(uint32_t(c.partition), m.partition_bits);
    bits.put(uint32_t(c.rotation), m.rotation_bits);
    bits.put(uint32_t(c.index_selection), m.index_selection_bits);
    for (size_t ch = 0; ch < (m.alpha_bits > 0 ? 4u : 3u); ++ch)
        for (int s = 0; s < m.subsets; ++s)
            for (size_t e = 0; e < 2; ++e)
                bits.put(uint32_t(c.subsets[size_t(s)].q[e][ch]), ch < 3 ? m.color_bits : m.alpha_bits);
    for (int s = 0; s < m.subsets; ++s) {
        if (m.pbits == PBits::Unique) {
            bits.put(uint32_t(c.subsets[size_t(s)].p[0]), 1);
            bits.put(uint32_t(c.subsets[size_t(s)].p[1]), 1);
        } else if (m.pbits == PBits::Shared) {
            bits.put(uint32_t(c.subsets[size_t(s)].p[0]), 1);
        }
    }
    // The first index field is the colour's unless mode 4's selection bit gives it to alpha.
    const auto& first = separate_alpha && c.index_selection == 1 ? c.alpha_indices : c.indices;
    for (int t = 0; t < 16; ++t) {
        const int s = bc7::subset_of(m.subsets, c.partition, t);
        bits.put(first[size_t(t)], m.index_bits - (bc7::anchor_of(m.subsets, c.partition, s) == t ? 1 : 0));
    }
    if (separate_alpha) {
        const auto& second = c.index_selection == 1 ? c.indices : c.alpha_indices;
        for (int t = 0; t < 16; ++t)
            bits.put(second[size_t(t)], m.alpha_index_bits - (t == 0 ? 1 : 0));
    }
    bits.store(block);
}

} // namespace

void encode_bc7_block(const uint8_t rgba[64], uint8_t block[16]) {
    Block4x4 px;
    for (size_t t = 0; t < 16; ++t)
        for (size_t ch = 0; ch < 4; ++ch)
            px[t][ch] = rgba[4 * t + ch];
    pack(encode_block(px), block);
}

std::vector<uint8_t> compress_bc7(const std::vector<uint8_t>& chain, uint32_t width, uint32_t height,
                                  unsigned threads) {
    // Every block of every level, in order; levels smaller than 4 x 4 repeat their edge texels.
    struct Block {
        size_t level_at;
        uint32_t w, h, x, y;
    };
    std::vector<Block> blocks;
    size_t level_at = 0;
    for (uint32_t level = 0; level < aem::mip_level_count(width, height); ++level) {
        const uint32_t w = std::max(1u, width >> level), h = std::max(1u, height >> level);
        for (uint32_t y = 0; y < h; y += 4)
            for (uint32_t x = 0; x < w; x += 4)
                blocks.push_back({level_at, w, h, x, y});
        level_at += size_t{w} * h * 4;
    }
    std::vector<uint8_t> out(blocks.size() * 16);
    constexpr size_t kBlocksPerTask = 256; // tasks of a few milliseconds
    assbin_common::run_tasks(
        (blocks.size() + kBlocksPerTask - 1) / kBlocksPerTask, std::max(1u, threads), [&](size_t task) {
            const size_t end = std::min(blocks.size(), (task + 1) * kBlocksPerTask);
            for (size_t b = task * kBlocksPerTask; b < end; ++b) {
                const Block& k = blocks[b];
                uint8_t rgba[64];
                for (uint32_t t = 0; t < 16; ++t) {
                    const uint32_t x = std::min(k.x + t % 4, k.w - 1);
                    const uint32_t y = std::min(k.y + t / 4, k.h - 1);
                    std::memcpy(rgba + 4 * t, chain.data() + k.level_at + (size_t{y} * k.w + x) * 4, 4);
                }
                encode_bc7_block(rgba, out.data() + 16 * b);
            }
        });
    return out;
}

} // namespace assbin::converter::detail
