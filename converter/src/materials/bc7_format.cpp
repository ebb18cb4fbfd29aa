// BC7's tables and decoder (see bc7_format.hpp). The partition tables are the specification's,
// written as one mask per two-subset partition (bit t: texel t in subset 1) and one string of
// subset digits per three-subset partition, texels row by row.
#include "materials/bc7_format.hpp"

#include <algorithm>
#include <cstring>

namespace assbin::converter::detail::bc7 {

namespace {

constexpr std::array<uint16_t, 64> kTwoSubsetMasks = {
    0xCCCC, 0x8888, 0xEEEE, 0xECC8, 0xC880, 0xFEEC, 0xFEC8, 0xEC80, 0xC800, 0xFFEC, 0xFE80, 0xE800, 0xFFE8,
    0xFF00, 0xFFF0, 0xF000, 0xF710, 0x008E, 0x7100, 0x08CE, 0x008C, 0x7310, 0x3100, 0x8CCE, 0x088C, 0x3110,
    0x6666, 0x366C, 0x17E8, 0x0FF0, 0x718E, 0x399C, 0xAAAA, 0xF0F0, 0x5A5A, 0x33CC, 0x3C3C, 0x55AA, 0x9696,
    0xA55A, 0x73CE, 0x13C8, 0x324C, 0x3BDC, 0x6996, 0xC33C, 0x9966, 0x0660, 0x0272, 0x04E4, 0x4E40, 0x2720,
    0xC936, 0x936C, 0x39C6, 0x639C, 0x9336, 0x9CC6, 0x817E, 0xE718, 0xCCF0, 0x0FCC, 0x7744, 0xEE22,
};

constexpr std::array<const char*, 64> kThreeSubsets = {
    "0011001102212222", "0001001122112221", "0000200122112211", "0222002200110111", "0000000011221122",
    "0011001100220022", "0022002211111111", "0011001122112211", "0000000011112222", "0000111111112222",
    "0000111122222222", "0012001200120012", "0112011201120112", "0122012201220122", "0011011211221222",
    "0011200122002220", "0001001101121122", "0111001120012200", "0000112211221122", "0022002200221111",
    "0111011102220222", "0001000122212221", "0000001101220122", "0000110022102210", "0122012200110000",
    "0012001211222222", "0110122112210110", "0000011012211221", "0022110211020022", "0110011020022222",
    "0011012201220011", "0000200022112221", "0000000211221222", "0222002200120011", "0011001200220222",
    "0120012001200120", "0000111122220000", "0120120120120120", "0120201212010120", "0011220011220011",
    "0011112222000011", "0101010122222222", "0000000021212121", "0022112200221122", "0022001100220011",
    "0220122102201221", "0101222222220101", "0000212121212121", "0101010101012222", "0222011102220111",
    "0002111200021112", "0000211221122112", "0222011101110222", "0002111211120002", "0110011001102222",
    "0000000021122112", "0110011022222222", "0022001100110022", "0022112211220022", "0000000000002112",
    "0002000100020001", "0222122202221222", "0101222222222222", "0111201122012220",
};

constexpr std::array<uint8_t, 64> kTwoSubsetAnchors = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2,  8, 2,  2, 8,
    8,  15, 2,  8,  2,  2,  8,  8,  2,  2,  15, 15, 6,  8,  2,  8,  15, 15, 2, 8,  2, 2,
    2,  15, 15, 6,  6,  2,  6,  8,  15, 15, 2,  2,  15, 15, 15, 15, 15, 2,  2, 15,
};

constexpr std::array<uint8_t, 64> kThreeSubsetSecondAnchors = {
    3,  3,  15, 15, 8, 3,  15, 15, 8,  8,  6, 6,  6, 5,  3, 3,  3,  3,  8,  15, 3,  3,
    6,  10, 5,  8,  8, 6,  8,  5,  15, 15, 8, 15, 3, 5,  6, 10, 8,  15, 15, 3,  15, 5,
    15, 15, 15, 15, 3, 15, 5,  5,  5,  8,  5, 10, 5, 10, 8, 13, 15, 12, 3,  3,
};

constexpr std::array<uint8_t, 64> kThreeSubsetThirdAnchors = {
    15, 8, 8, 3,  15, 15, 3,  8,  15, 15, 15, 15, 15, 15, 15, 8,  15, 8,  15, 3,  15, 8,
    15, 8, 3, 15, 6,  10, 15, 15, 10, 8,  15, 3,  15, 10, 10, 8,  9,  10, 6,  15, 8,  15,
    3,  6, 6, 8,  15, 3,  15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3,  15, 15, 8,
};

constexpr uint8_t kWeights2[4] = {0, 21, 43, 64};
constexpr uint8_t kWeights3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
constexpr uint8_t kWeights4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

// Bits of a block, least significant first.
struct BitReader {
    const uint8_t* block;
    int at = 0;
    int take(int count) {
        int value = 0;
        for (int i = 0; i < count; ++i, ++at)
            value |= (block[at >> 3] >> (at & 7) & 1) << i;
        return value;
    }
};

} // namespace

int subset_of(int subsets, int partition, int texel) {
    if (subsets == 2) return kTwoSubsetMasks[size_t(partition)] >> texel & 1;
    if (subsets == 3) return kThreeSubsets[size_t(partition)][texel] - '0';
    return 0;
}

int anchor_of(int subsets, int partition, int subset) {
    if (subset == 0) return 0;
    if (subsets == 2) return kTwoSubsetAnchors[size_t(partition)];
    return subset == 1 ? kThreeSubsetSecondAnchors[size_t(partition)]
                       : kThreeSubsetThirdAnchors[size_t(partition)];
}

const uint8_t* weights(int index_bits) {
    return index_bits == 2 ? kWeights2 : index_bits == 3 ? kWeights3 : kWeights4;
}

void decode_block(const uint8_t block[16], uint8_t rgba[64]) {
    BitReader bits{block};
    int mode = 0;
    while (mode < 8 && bits.take(1) == 0)
        ++mode;
    if (mode == 8) {
        std::memset(rgba, 0, 64);
        return;
    }
    const Mode& m = kModes[size_t(mode)];
    const int partition = bits.take(m.partition_bits);
    const int rotation = bits.take(m.rotation_bits);
    const int index_selection = bits.take(m.index_selection_bits);
    int endpoints[3][2][4] = {};
    const int channels = m.alpha_bits > 0 ? 4 : 3;
    for (int ch = 0; ch < channels; ++ch)
        for (int s = 0; s < m.subsets; ++s)
            for (int e = 0; e < 2; ++e)
                endpoints[s][e][ch] = bits.take(ch < 3 ? m.color_bits : m.alpha_bits);
    for (int s = 0; s < m.subsets; ++s) {
        int p[2] = {0, 0};
        if (m.pbits == PBits::Unique) {
            p[0] = bits.take(1);
            p[1] = bits.take(1);
        } else if (m.pbits == PBits::Shared) {
            p[0] = p[1] = bits.take(1);
        }
        for (int e = 0; e < 2; ++e) {
            for (int ch = 0; ch < 4; ++ch) {
                if (ch == 3 && channels == 3) {
                    endpoints[s][e][3] = 255;
                    continue;
                }
                int value = endpoints[s][e][ch], width = ch < 3 ? m.color_bits : m.alpha_bits;
                if (m.pbits != PBits::None) {
                    value = value << 1 | p[e];
                    ++width;
                }
                endpoints[s][e][ch] = expand(value, width);
            }
        }
    }
    int indices[16], second[16] = {};
    for (int t = 0; t < 16; ++t) {
        const int subset = subset_of(m.subsets, partition, t);
        indices[t] = bits.take(m.index_bits - (anchor_of(m.subsets, partition, subset) == t ? 1 : 0));
    }
    if (m.alpha_index_bits > 0) {
        for (int t = 0; t < 16; ++t)
            second[t] = bits.take(m.alpha_index_bits - (t == 0 ? 1 : 0));
    }
    for (int t = 0; t < 16; ++t) {
        const int s = subset_of(m.subsets, partition, t);
        int color_index = indices[t], color_bits = m.index_bits;
        int alpha_index = indices[t], alpha_bits = m.index_bits;
        if (m.alpha_index_bits > 0) {
            alpha_index = second[t];
            alpha_bits = m.alpha_index_bits;
            if (index_selection == 1) {
                std::swap(color_index, alpha_index);
                std::swap(color_bits, alpha_bits);
            }
        }
        uint8_t* out = rgba + 4 * t;
        for (int ch = 0; ch < 4; ++ch) {
            const int w = ch < 3 ? weights(color_bits)[color_index] : weights(alpha_bits)[alpha_index];
            out[ch] = uint8_t(interpolate(endpoints[s][0][ch], endpoints[s][1][ch], w));
        }
        if (rotation > 0) std::swap(out[3], out[rotation - 1]);
    }
}

} // namespace assbin::converter::detail::bc7
