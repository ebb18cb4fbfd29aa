// The BC7 (BPTC) block format as the Khronos Data Format Specification ("BC7") and Microsoft's BC7
// format page describe it: the eight modes' field widths, the partition and anchor tables, the
// interpolation weights, endpoint expansion, and a decoder. Shared by the encoder (bc7_encode.cpp),
// the tests and the benchmark; render_tests checks this decoder against Mesa's on every mode and
// partition, so the tables typed here are held by an implementation written by others.
#pragma once

#include <array>
#include <cstdint>

namespace assbin::converter::detail::bc7 {

enum class PBits : uint8_t { None, Shared, Unique }; // Shared: one per subset; Unique: one per endpoint

struct Mode {
    int subsets, partition_bits, rotation_bits, index_selection_bits;
    int color_bits, alpha_bits; // per stored endpoint channel, without the p-bit; alpha 0: none (255)
    PBits pbits;
    int index_bits, alpha_index_bits; // alpha_index_bits: modes 4 and 5's second index set
};

inline constexpr std::array<Mode, 8> kModes = {{
    {3, 4, 0, 0, 4, 0, PBits::Unique, 3, 0},
    {2, 6, 0, 0, 6, 0, PBits::Shared, 3, 0},
    {3, 6, 0, 0, 5, 0, PBits::None, 2, 0},
    {2, 6, 0, 0, 7, 0, PBits::Unique, 2, 0},
    {1, 0, 2, 1, 5, 6, PBits::None, 2, 3},
    {1, 0, 2, 0, 7, 8, PBits::None, 2, 2},
    {1, 0, 0, 0, 7, 7, PBits::Unique, 4, 0},
    {2, 6, 0, 0, 5, 5, PBits::Unique, 2, 0},
}};

// The subset (0 .. subsets-1) of texel 0..15 (row by row) in a partition.
int subset_of(int subsets, int partition, int texel);

// The texel whose index is stored one bit short (its top bit is 0) for a subset: 0 for subset 0.
int anchor_of(int subsets, int partition, int subset);

// The interpolation weights (of 64) for 2-, 3- and 4-bit indices.
const uint8_t* weights(int index_bits);

inline int interpolate(int a, int b, int weight) {
    return ((64 - weight) * a + weight * b + 32) >> 6;
}

// A stored endpoint channel of `bits` bits (p-bit included) as 8 bits: the top bits repeated below.
inline int expand(int value, int bits) {
    value <<= 8 - bits;
    return value | value >> bits;
}

// Decodes one block into 16 RGBA texels, row by row; an invalid mode (a first byte of 0) decodes as
// transparent black, as the specification says.
void decode_block(const uint8_t block[16], uint8_t rgba[64]);

} // namespace assbin::converter::detail::bc7
