// BC7 (BPTC) blocks for the 2025 layout's RGBA textures, written from the format's public
// description (Khronos Data Format Specification, "BC7"; Microsoft's BC7 format page). This first
// encoder uses mode 6 only: one subset, RGBA endpoints of 7 bits plus a p-bit each, 4-bit indices.
// It represents every flat block exactly (single-colour table) and smooth ones closely; the modes with
// partitions (for sharp edges between colours) are not written yet. Per block: the principal axis of the
// texels in RGBA, endpoints at the extreme projections, each of the four p-bit pairs tried, indices chosen by
// least error, then the endpoints refitted by least squares to those indices and tried again.
#include "materials/textures_2025.hpp"

#include "run_tasks.hpp"

#include <aem/format.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

namespace assbin::converter::detail {

namespace {

constexpr std::array<int, 16> kWeights4 = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

using Texels = std::array<std::array<int, 4>, 16>; // RGBA, 0..255
using Color = std::array<float, 4>;

struct Candidate {
    std::array<int, 4> low7{}, high7{}; // 7-bit endpoints
    int low_p = 0, high_p = 0;
    std::array<uint8_t, 16> indices{};
    uint64_t error = UINT64_MAX;
};

int interpolate(int a, int b, int weight) {
    return ((64 - weight) * a + weight * b + 32) >> 6;
}

// Chooses each texel's index for the endpoints in `c` and sums the squared error.
void assign_indices(const Texels& texels, Candidate& c) {
    std::array<std::array<int, 4>, 16> palette;
    for (int i = 0; i < 16; ++i) {
        for (int ch = 0; ch < 4; ++ch) {
            const int a = c.low7[ch] << 1 | c.low_p, b = c.high7[ch] << 1 | c.high_p;
            palette[i][ch] = interpolate(a, b, kWeights4[i]);
        }
    }
    uint64_t total = 0;
    for (int t = 0; t < 16; ++t) {
        int best = 0;
        uint32_t best_error = UINT32_MAX;
        for (int i = 0; i < 16; ++i) {
            uint32_t e = 0;
            for (int ch = 0; ch < 4; ++ch) {
                const int d = texels[t][ch] - palette[i][ch];
                e += uint32_t(d * d);
            }
            if (e < best_error) {
                best_error = e;
                best = i;
            }
        }
        c.indices[t] = uint8_t(best);
        total += best_error;
    }
    c.error = total;
}

// 8-bit endpoints as 7 bits under a p-bit: the nearest representable value.
std::array<int, 4> quantize(const Color& color, int p) {
    std::array<int, 4> out;
    for (int ch = 0; ch < 4; ++ch)
        out[ch] = std::clamp(int(std::lround((color[ch] - float(p)) / 2.0f)), 0, 127);
    return out;
}

// The best of the four p-bit pairs for these (real-valued) endpoints.
Candidate fit(const Texels& texels, const Color& low, const Color& high) {
    Candidate best;
    for (int low_p = 0; low_p < 2; ++low_p) {
        for (int high_p = 0; high_p < 2; ++high_p) {
            Candidate c;
            c.low_p = low_p;
            c.high_p = high_p;
            c.low7 = quantize(low, low_p);
            c.high7 = quantize(high, high_p);
            assign_indices(texels, c);
            if (c.error < best.error) best = c;
        }
    }
    return best;
}

// Endpoints that minimise the squared error for the indices `c` chose (least squares per channel).
bool refit(const Texels& texels, const Candidate& c, Color& low, Color& high) {
    double aa = 0, ab = 0, bb = 0;
    std::array<double, 4> ax{}, bx{};
    for (int t = 0; t < 16; ++t) {
        const double w = kWeights4[c.indices[t]] / 64.0;
        aa += (1 - w) * (1 - w);
        ab += (1 - w) * w;
        bb += w * w;
        for (int ch = 0; ch < 4; ++ch) {
            ax[ch] += (1 - w) * texels[t][ch];
            bx[ch] += w * texels[t][ch];
        }
    }
    const double det = aa * bb - ab * ab;
    if (std::abs(det) < 1e-9) return false;
    for (int ch = 0; ch < 4; ++ch) {
        low[ch] = float(std::clamp((bb * ax[ch] - ab * bx[ch]) / det, 0.0, 255.0));
        high[ch] = float(std::clamp((aa * bx[ch] - ab * ax[ch]) / det, 0.0, 255.0));
    }
    return true;
}

// A single colour is exact in mode 6 even though one p-bit serves all four channels of an
// endpoint: with endpoints of different p-bits and a middle index, every 8-bit value is reached.
// Per (p-bit pair, index) and value: the 7-bit endpoints and the error left (0 for nearly all).
struct SingleColour {
    uint8_t low7, high7, error;
};
constexpr std::array<int, 4> kSingleColourIndices = {5, 6, 7, 8}; // weights 21, 26, 30, 34

const auto& single_colour_table() {
    static const auto table = [] {
        std::array<std::array<std::array<SingleColour, 256>, kSingleColourIndices.size()>, 4> out{};
        for (int pair = 0; pair < 4; ++pair) {
            const int low_p = pair >> 1, high_p = pair & 1;
            for (size_t k = 0; k < kSingleColourIndices.size(); ++k) {
                const int w = kWeights4[kSingleColourIndices[k]];
                for (int value = 0; value < 256; ++value) {
                    SingleColour best{0, 0, 255};
                    for (int low = 0; low < 128 && best.error > 0; ++low) {
                        const int a = low << 1 | low_p;
                        // The high endpoint that brings the weighted value nearest, and its neighbours.
                        const int guess = ((value * 64 - (64 - w) * a) / w - high_p) / 2;
                        for (int high = std::max(0, guess - 1); high <= std::min(127, guess + 1); ++high) {
                            const int error = std::abs(interpolate(a, high << 1 | high_p, w) - value);
                            if (error < best.error) best = {uint8_t(low), uint8_t(high), uint8_t(error)};
                        }
                    }
                    out[pair][k][value] = best;
                }
            }
        }
        return out;
    }();
    return table;
}

// Every texel the same: the table's best (p-bit pair, index) over the four channels.
Candidate encode_single_colour(const std::array<int, 4>& colour) {
    const auto& table = single_colour_table();
    Candidate best;
    for (int pair = 0; pair < 4; ++pair) {
        for (size_t k = 0; k < kSingleColourIndices.size(); ++k) {
            uint64_t error = 0;
            Candidate c;
            c.low_p = pair >> 1;
            c.high_p = pair & 1;
            for (int ch = 0; ch < 4; ++ch) {
                const SingleColour& entry = table[pair][k][colour[ch]];
                c.low7[ch] = entry.low7;
                c.high7[ch] = entry.high7;
                error += uint64_t(entry.error) * entry.error * 16;
            }
            c.indices.fill(uint8_t(kSingleColourIndices[k]));
            c.error = error;
            if (c.error < best.error) best = c;
        }
    }
    return best;
}

Candidate encode_block(const Texels& texels) {
    if (std::all_of(texels.begin(), texels.end(), [&](const auto& t) { return t == texels[0]; }))
        return encode_single_colour(texels[0]);
    Color mean{};
    for (const auto& t : texels)
        for (int ch = 0; ch < 4; ++ch)
            mean[ch] += float(t[ch]) / 16.0f;
    // The principal axis by power iteration on the covariance.
    float cov[4][4] = {};
    for (const auto& t : texels) {
        float d[4];
        for (int ch = 0; ch < 4; ++ch)
            d[ch] = float(t[ch]) - mean[ch];
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j)
                cov[i][j] += d[i] * d[j];
    }
    Color axis{1, 1, 1, 1};
    for (int iteration = 0; iteration < 8; ++iteration) {
        Color next{};
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j)
                next[i] += cov[i][j] * axis[j];
        const float length =
            std::sqrt(next[0] * next[0] + next[1] * next[1] + next[2] * next[2] + next[3] * next[3]);
        if (length < 1e-6f) break;
        for (int i = 0; i < 4; ++i)
            axis[i] = next[i] / length;
    }
    float low_t = 0, high_t = 0;
    for (const auto& t : texels) {
        float projection = 0;
        for (int ch = 0; ch < 4; ++ch)
            projection += (float(t[ch]) - mean[ch]) * axis[ch];
        low_t = std::min(low_t, projection);
        high_t = std::max(high_t, projection);
    }
    Color low, high;
    for (int ch = 0; ch < 4; ++ch) {
        low[ch] = std::clamp(mean[ch] + axis[ch] * low_t, 0.0f, 255.0f);
        high[ch] = std::clamp(mean[ch] + axis[ch] * high_t, 0.0f, 255.0f);
    }
    Candidate best = fit(texels, low, high);
    for (int round = 0; round < 2 && best.error > 0; ++round) {
        if (!refit(texels, best, low, high)) break;
        const Candidate refined = fit(texels, low, high);
        if (refined.error >= best.error) break;
        best = refined;
    }
    return best;
}

// Writes `count` bits of `value` at bit `at` (little-endian bit order, as BC7 stores them).
void put_bits(uint8_t* block, int& at, uint32_t value, int count) {
    for (int i = 0; i < count; ++i, ++at) {
        if (value >> i & 1) block[at >> 3] |= uint8_t(1 << (at & 7));
    }
}

void pack_mode6(Candidate c, uint8_t* block) {
    if (c.indices[0] >= 8) { // the anchor index's top bit is implicit 0: swap the endpoints
        std::swap(c.low7, c.high7);
        std::swap(c.low_p, c.high_p);
        for (uint8_t& index : c.indices)
            index = uint8_t(15 - index);
    }
    std::memset(block, 0, 16);
    int at = 0;
    put_bits(block, at, 1u << 6, 7); // mode 6
    for (int ch = 0; ch < 4; ++ch) {
        put_bits(block, at, uint32_t(c.low7[ch]), 7);
        put_bits(block, at, uint32_t(c.high7[ch]), 7);
    }
    put_bits(block, at, uint32_t(c.low_p), 1);
    put_bits(block, at, uint32_t(c.high_p), 1);
    put_bits(block, at, c.indices[0], 3);
    for (int t = 1; t < 16; ++t)
        put_bits(block, at, c.indices[t], 4);
}

} // namespace

void encode_bc7_block(const uint8_t rgba[64], uint8_t block[16]) {
    Texels texels;
    for (int t = 0; t < 16; ++t)
        for (int ch = 0; ch < 4; ++ch)
            texels[t][ch] = rgba[4 * t + ch];
    pack_mode6(encode_block(texels), block);
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
    constexpr size_t kBlocksPerTask = 256; // tasks of a few hundred microseconds
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
