// BC7 blocks for the 2025 layout's RGBA textures, written from the format's public description (the
// tables and bit layout: bc7_format.hpp). Per block, chosen by measurement on the corpus textures
// against bc7enc (scripts/bench-bc7.sh; the figures are in docs/benchmarks.md):
//   1. flat blocks: mode 6 exactly, through a single-colour table;
//   2. mode 6 (one subset, RGBA, 4-bit indices) fitted;
//   3. candidates estimated without fitting: the two-subset modes (1 and 3 for opaque blocks, 7 with
//      alpha) on the partitions whose subsets lie nearest their means, and modes 4 and 5 (one channel
//      on its own indices: alpha, or a colour channel rotated into its place; for an opaque
//      block, alpha kept exact beside the colour's line); the three estimated lowest are fitted;
//   4. opaque blocks still costly after that (an RMS error above 2): the three-subset modes 2 and 0
//      the same way, the best one fitted;
//   5. the winner polished: refitted from its own endpoints, each texel's index checked against its
//      neighbours by exact error, every p-bit choice tried, then each endpoint channel moved a step
//      either way where that lowers the error.
// A fit: the principal axis, endpoints at the extreme projections, each p-bit choice, indices by
// projection on the quantized endpoints' line, then endpoints refitted by least squares to those
// indices and tried again. What did not pay for itself (measured): fitting more candidates (all of
// them: 0.14 dB more than three, for 2.5x the time), more partitions ranked, three subsets for every
// block, exact index search in every fit, a second pass of the endpoint search.
//
// A MIP chain's blocks that repeat one before them (tiles, atlases, patterned areas: 5% of the
// corpus textures' blocks that are not flat) are copied from it, not encoded again.
//
// The body (bc7_block_encoder.inc) is compiled twice: for AVX2, chosen at run time where the
// processor has it (its 16-lane loops run 8 lanes at a time: 1.3x), and for any processor. Both
// are the same code without FMA or reassociation, so they write the same bytes (bc7_test compares
// them block for block on fixture images and noise).
#include "materials/bc7_format.hpp"
#include "materials/textures_2025.hpp"

#include "run_tasks.hpp"

#include <aem/format.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace assbin::converter::detail {

// GCC on x86-64 compiles the body a second time for AVX2 (#pragma GCC target: the functions defined
// after it, not the standard headers included before, so nothing shared with other files is built
// for AVX2).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define ASSBIN_BC7_AVX2 1
#else
#define ASSBIN_BC7_AVX2 0
#endif

namespace {

namespace portable {
#include "materials/bc7_block_encoder.inc"
} // namespace portable

#if ASSBIN_BC7_AVX2
#pragma GCC push_options
#pragma GCC target("avx2")
namespace avx2 {
#include "materials/bc7_block_encoder.inc"
} // namespace avx2
#pragma GCC pop_options
#endif

} // namespace

bool bc7_avx2_available() {
#if ASSBIN_BC7_AVX2
    static const bool available = __builtin_cpu_supports("avx2");
    return available;
#else
    return false;
#endif
}

void encode_bc7_block_portable(const uint8_t rgba[64], uint8_t block[16]) {
    portable::encode(rgba, block);
}

bool encode_bc7_block_avx2(const uint8_t rgba[64], uint8_t block[16]) {
#if ASSBIN_BC7_AVX2
    if (!bc7_avx2_available()) return false;
    avx2::encode(rgba, block);
    return true;
#else
    (void)rgba;
    (void)block;
    return false;
#endif
}

void encode_bc7_block(const uint8_t rgba[64], uint8_t block[16]) {
#if ASSBIN_BC7_AVX2
    if (bc7_avx2_available()) {
        avx2::encode(rgba, block);
        return;
    }
#endif
    portable::encode(rgba, block);
}

namespace {

// A block of a MIP chain: its level's place in the chain, size, and the block's corner.
struct ChainBlock {
    size_t level_at;
    uint32_t w, h, x, y;
};

// A block's 16 texels, RGBA, row by row; texels past the level's edge repeat its last row or column.
void gather_block(const std::vector<uint8_t>& chain, const ChainBlock& k, uint8_t rgba[64]) {
    for (uint32_t t = 0; t < 16; ++t) {
        const uint32_t x = std::min(k.x + t % 4, k.w - 1);
        const uint32_t y = std::min(k.y + t / 4, k.h - 1);
        std::memcpy(rgba + 4 * t, chain.data() + k.level_at + (size_t{y} * k.w + x) * 4, 4);
    }
}

uint64_t hash_block(const uint8_t rgba[64]) {
    uint64_t hash = 0;
    for (size_t i = 0; i < 64; i += 8) {
        uint64_t word;
        std::memcpy(&word, rgba + i, 8);
        hash = (std::rotl(hash, 29) ^ word) * 0x9e3779b97f4a7c15ull;
    }
    return hash ^ hash >> 32;
}

// For each block, the first block of the same texels (itself when it is the first): textures
// repeat blocks (tiles, atlases, flat or patterned areas), and each distinct block is encoded once.
// A table of block numbers keyed by a hash of the texels, open addressing; a hit is confirmed on
// the texels themselves.
std::vector<uint32_t> first_of_same(const std::vector<uint8_t>& chain,
                                    const std::vector<ChainBlock>& blocks) {
    std::vector<uint32_t> first(blocks.size());
    const size_t slots = std::bit_ceil(std::max<size_t>(16, blocks.size() * 2));
    std::vector<uint32_t> table(slots, UINT32_MAX);
    std::vector<uint64_t> hashes(blocks.size());
    for (uint32_t b = 0; b < blocks.size(); ++b) {
        uint8_t rgba[64], other[64];
        gather_block(chain, blocks[b], rgba);
        hashes[b] = hash_block(rgba);
        first[b] = b;
        for (size_t slot = hashes[b] & (slots - 1);; slot = (slot + 1) & (slots - 1)) {
            const uint32_t held = table[slot];
            if (held == UINT32_MAX) {
                table[slot] = b;
                break;
            }
            if (hashes[held] != hashes[b]) continue;
            gather_block(chain, blocks[held], other);
            if (std::memcmp(rgba, other, 64) == 0) {
                first[b] = held;
                break;
            }
        }
    }
    return first;
}

} // namespace

std::vector<uint8_t> compress_bc7(const std::vector<uint8_t>& chain, uint32_t width, uint32_t height,
                                  unsigned threads) {
    // Every block of every level, in order; levels smaller than 4 x 4 repeat their edge texels.
    std::vector<ChainBlock> blocks;
    size_t level_at = 0;
    for (uint32_t level = 0; level < aem::mip_level_count(width, height); ++level) {
        const uint32_t w = std::max(1u, width >> level), h = std::max(1u, height >> level);
        for (uint32_t y = 0; y < h; y += 4)
            for (uint32_t x = 0; x < w; x += 4)
                blocks.push_back({level_at, w, h, x, y});
        level_at += size_t{w} * h * 4;
    }
    const std::vector<uint32_t> first = first_of_same(chain, blocks);
    std::vector<uint8_t> out(blocks.size() * 16);
    constexpr size_t kBlocksPerTask = 256; // tasks of a few milliseconds
    const auto encode_task = [&](size_t task) {
        const size_t end = std::min(blocks.size(), (task + 1) * kBlocksPerTask);
        for (size_t b = task * kBlocksPerTask; b < end; ++b) {
            if (first[b] != b) continue; // a repeat: copied below
            uint8_t rgba[64];
            gather_block(chain, blocks[b], rgba);
            encode_bc7_block(rgba, out.data() + 16 * b);
        }
    };
    assbin_common::run_tasks((blocks.size() + kBlocksPerTask - 1) / kBlocksPerTask, std::max(1u, threads),
                             encode_task);
    for (size_t b = 0; b < blocks.size(); ++b) // a repeat's first comes before it: already encoded
        if (first[b] != b) std::memcpy(out.data() + 16 * b, out.data() + 16 * size_t{first[b]}, 16);
    return out;
}

} // namespace assbin::converter::detail
