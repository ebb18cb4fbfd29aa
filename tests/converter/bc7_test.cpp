// The BC7 encoder: hand-made blocks (flat colours, gradients, edges between two and three colours,
// alpha edges, a channel apart from the others, noise) decoded back within stated errors, and by the
// mode each needs; every level size valid; the same bytes for any thread count. The decoder is
// bc7_format's, which render_tests holds equal to Mesa's on every mode and partition, and on blocks
// this encoder writes. (`--compress` storing base colour and PBR as BC7: textures_2025_test.) Its
// AVX2 build writes the same bytes as the portable one, block for block, on real textures.
#include "algorithms.hpp"
#include "materials/bc7_format.hpp"
#include "materials/textures_2025.hpp"
#include "support/fixtures.hpp"
#include "support/skip.hpp"

#include <aem/format.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using assbin::converter::detail::compress_bc7;
using assbin::converter::detail::encode_bc7_block;

namespace {

// Decodes one block into 16 RGBA texels with our decoder (bc7_format.cpp), which render_tests
// holds equal to Mesa's on every mode and partition.
std::array<std::array<int, 4>, 16> decode(const uint8_t* block) {
    uint8_t rgba[64];
    assbin::converter::detail::bc7::decode_block(block, rgba);
    std::array<std::array<int, 4>, 16> texels{};
    for (size_t t = 0; t < 16; ++t)
        for (size_t ch = 0; ch < 4; ++ch)
            texels[t][ch] = rgba[4 * t + ch];
    return texels;
}

int mode_of(const uint8_t* block) {
    int mode = 0;
    while (mode < 8 && !(block[0] >> mode & 1))
        ++mode;
    return mode;
}

// Encodes one block and returns its peak signal-to-noise ratio (dB, RGBA) after decoding.
double block_psnr(const std::array<uint8_t, 64>& rgba) {
    uint8_t block[16];
    encode_bc7_block(rgba.data(), block);
    const auto decoded = decode(block);
    double squared = 0;
    for (int t = 0; t < 16; ++t)
        for (int ch = 0; ch < 4; ++ch) {
            const double d = decoded[t][ch] - rgba[4 * t + ch];
            squared += d * d;
        }
    if (squared == 0) return INFINITY;
    return 10 * std::log10(255.0 * 255.0 / (squared / 64));
}

std::array<uint8_t, 64> block_of(auto texel) {
    std::array<uint8_t, 64> rgba{};
    for (int t = 0; t < 16; ++t) {
        const std::array<int, 4> c = texel(t % 4, t / 4);
        for (int ch = 0; ch < 4; ++ch)
            rgba[4 * t + ch] = uint8_t(c[ch]);
    }
    return rgba;
}

} // namespace

BOOST_AUTO_TEST_SUITE(bc7)

BOOST_AUTO_TEST_CASE(a_flat_block_of_any_colour_decodes_exactly) {
    std::mt19937 random(7);
    for (int trial = 0; trial < 200; ++trial) {
        const std::array<int, 4> c = {int(random() % 256), int(random() % 256), int(random() % 256),
                                      int(random() % 256)};
        BOOST_TEST(std::isinf(block_psnr(block_of([&](int, int) { return c; }))),
                   "colour " << c[0] << " " << c[1] << " " << c[2] << " " << c[3]);
    }
}

BOOST_AUTO_TEST_CASE(gradients_and_two_colour_edges_decode_closely) {
    // A gradient along one line of colour space: mode 6's 16 levels follow it within a unit or two.
    BOOST_TEST(block_psnr(block_of([](int x, int y) {
                   const int t = x + 4 * y;
                   return std::array<int, 4>{40 + 9 * t, 200 - 5 * t, 30 + 3 * t, 255};
               })) > 42.0);
    // A gradient over two directions is off any one line: close, not exact.
    BOOST_TEST(block_psnr(block_of([](int x, int y) {
                   return std::array<int, 4>{40 + 10 * x + 5 * y, 80 + 6 * x, 200 - 8 * y, 255};
               })) > 33.0);
    // Two colours on one line through RGB space: both ends representable.
    BOOST_TEST(block_psnr(block_of([](int x, int) {
                   return x < 2 ? std::array<int, 4>{10, 20, 30, 255} : std::array<int, 4>{210, 180, 90, 255};
               })) > 40.0);
    // An alpha edge (0 against 255) beside constant colour.
    BOOST_TEST(block_psnr(block_of([](int x, int y) {
                   return std::array<int, 4>{120, 60, 30, (x + y) % 2 ? 255 : 0};
               })) > 40.0);
}

BOOST_AUTO_TEST_CASE(edges_between_colours_off_one_line_take_the_modes_with_partitions) {
    // Three colours in two regions, one of them a two-colour edge: no one line holds them (mode 6
    // cannot), two subsets do — each region's colours are on its own line.
    const auto three_colours = block_of([](int x, int y) {
        return x < 2 ? std::array<int, 4>{200, 30, 30, 255}
                     : (y < 2 ? std::array<int, 4>{30, 200, 40, 255} : std::array<int, 4>{40, 40, 210, 255});
    });
    uint8_t block[16];
    encode_bc7_block(three_colours.data(), block);
    BOOST_TEST((mode_of(block) == 1 || mode_of(block) == 3 || mode_of(block) == 7));
    BOOST_TEST(block_psnr(three_colours) > 44.0);
    // Three gradients, each along its own channel, in three columns: only three subsets follow them.
    const auto three_gradients = block_of([](int x, int y) {
        const int stripe = x == 0 ? 0 : x == 3 ? 2 : 1;
        std::array<int, 4> c{100 + 40 * stripe, 100 + 40 * stripe, 100 + 40 * stripe, 255};
        c[size_t(stripe)] = 40 + 50 * y;
        return c;
    });
    encode_bc7_block(three_gradients.data(), block);
    BOOST_TEST((mode_of(block) == 0 || mode_of(block) == 2));
    BOOST_TEST(block_psnr(three_gradients) > 36.0);
}

BOOST_AUTO_TEST_CASE(a_channel_apart_from_the_others_takes_its_own_indices) {
    // Red falls across the block while green and blue rise down it: two directions, which modes 4
    // and 5 keep apart (one channel rotated into alpha's place, on its own indices).
    const auto apart = block_of([](int x, int y) {
        return std::array<int, 4>{250 - 60 * x, 20 + 50 * y, 30 + 45 * y, 255};
    });
    uint8_t block[16];
    encode_bc7_block(apart.data(), block);
    BOOST_TEST((mode_of(block) == 4 || mode_of(block) == 5));
    BOOST_TEST(block_psnr(apart) > 35.0); // 37.4 dB: four levels of 7-bit colour and 8-bit alpha
    // The same with real alpha: transparency falling across, colour rising down.
    const auto alpha_apart = block_of([](int x, int y) {
        return std::array<int, 4>{20 + 50 * y, 40 + 40 * y, 60 + 30 * y, 255 - 80 * x};
    });
    encode_bc7_block(alpha_apart.data(), block);
    BOOST_TEST((mode_of(block) == 4 || mode_of(block) == 5));
    BOOST_TEST(block_psnr(alpha_apart) > 35.0);
}

BOOST_AUTO_TEST_CASE(noise_gives_a_valid_block_with_bounded_error) {
    std::mt19937 random(11);
    for (int trial = 0; trial < 50; ++trial) {
        std::array<uint8_t, 64> rgba;
        for (uint8_t& byte : rgba)
            byte = uint8_t(random() % 256);
        BOOST_TEST(block_psnr(rgba) > 12.0); // one line through 4-D noise: poor, but a valid block
    }
}

BOOST_AUTO_TEST_CASE(every_level_of_any_size_gets_its_blocks) {
    for (const auto& [w, h] :
         std::vector<std::pair<uint32_t, uint32_t>>{{1, 1}, {2, 2}, {5, 3}, {16, 16}, {33, 7}}) {
        std::vector<uint8_t> chain(aem::mip_chain_bytes(w, h, 4, aem::kCompressionNone), 77);
        const std::vector<uint8_t> blocks = compress_bc7(chain, w, h, 1);
        BOOST_TEST(blocks.size() == aem::mip_chain_bytes(w, h, 4, aem::kCompressionBc7), w << "x" << h);
        for (size_t b = 0; b < blocks.size(); b += 16) {
            const auto texels = decode(blocks.data() + b);
            BOOST_TEST(texels[5][2] == 77); // the edge texels repeated into a small level's block
        }
    }
}

BOOST_AUTO_TEST_CASE(the_bytes_are_the_same_for_any_thread_count) {
    std::mt19937 random(3);
    const uint32_t w = 100, h = 60;
    std::vector<uint8_t> chain(aem::mip_chain_bytes(w, h, 4, aem::kCompressionNone));
    for (size_t i = 0; i < chain.size(); ++i)
        chain[i] = uint8_t((i / 4 % w) * 2 + random() % 8);
    const std::vector<uint8_t> one = compress_bc7(chain, w, h, 1);
    BOOST_TEST((compress_bc7(chain, w, h, 2) == one));
    BOOST_TEST((compress_bc7(chain, w, h, 5) == one));
}

// A texture of repeated blocks (a tile, exactly and once shifted by one texel so that blocks
// straddle it, and hash-alike neighbours differing in one byte): each distinct block is encoded once
// and copied to its repeats, so every block must still be what encoding it alone writes.
BOOST_AUTO_TEST_CASE(repeated_blocks_get_the_bytes_of_their_own_encoding) {
    std::mt19937 random(5);
    const uint32_t w = 64, h = 40;
    std::array<uint8_t, 8 * 8 * 4> tile;
    for (uint8_t& byte : tile)
        byte = uint8_t(random() % 256);
    std::vector<uint8_t> chain(aem::mip_chain_bytes(w, h, 4, aem::kCompressionNone));
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x)
            for (uint32_t ch = 0; ch < 4; ++ch) {
                const uint32_t shift = y >= 24 ? 1 : 0; // the last rows' tiles start a texel later
                chain[(size_t{y} * w + x) * 4 + ch] = tile[((y % 8) * 8 + (x + shift) % 8) * 4 + ch];
            }
    chain[(size_t{17} * w + 9) * 4 + 2] ^= 1;                 // one block differs from its repeats by one bit
    for (size_t i = size_t{w} * h * 4; i < chain.size(); ++i) // the smaller levels: repeats too
        chain[i] = uint8_t(i % 48);
    const std::vector<uint8_t> blocks = compress_bc7(chain, w, h, 2);
    size_t at = 0, block = 0;
    for (uint32_t level = 0; level < aem::mip_level_count(w, h); ++level) {
        const uint32_t lw = std::max(1u, w >> level), lh = std::max(1u, h >> level);
        for (uint32_t y = 0; y < lh; y += 4)
            for (uint32_t x = 0; x < lw; x += 4, ++block) {
                uint8_t rgba[64], alone[16];
                for (uint32_t t = 0; t < 16; ++t) {
                    const uint32_t tx = std::min(x + t % 4, lw - 1), ty = std::min(y + t / 4, lh - 1);
                    std::memcpy(rgba + 4 * t, chain.data() + at + (size_t{ty} * lw + tx) * 4, 4);
                }
                encode_bc7_block(rgba, alone);
                BOOST_TEST(std::memcmp(alone, blocks.data() + 16 * block, 16) == 0,
                           "level " << level << ", block at " << x << "," << y);
            }
        at += size_t{lw} * lh * 4;
    }
    BOOST_TEST(block * 16 == blocks.size());
}

// Every 4 x 4 block of the fixtures' images (photographic texture, rendered pictures with edges
// and flat areas; opaque, and again with a varying alpha), and of noise, encoded by both builds.
BOOST_AUTO_TEST_CASE(the_avx2_build_writes_the_portable_builds_bytes, *assbin_test::may_skip()) {
    if (!assbin::converter::detail::bc7_avx2_available())
        assbin_test::skip_check(
            "the AVX2 build of the BC7 encoder: not built here, or no AVX2 on this processor");
    std::vector<std::array<uint8_t, 64>> blocks;
    for (const char* name : {"textures/3DS/test.png", "render/box_textured.png", "render/huesitos_t03.png",
                             "render/concave_arrow.png"}) {
        const auto image = assbin::converter::decode_image(assbin_test::fixture_bytes(name));
        BOOST_REQUIRE_MESSAGE(image, name);
        for (int with_alpha = 0; with_alpha < 2; ++with_alpha)
            for (uint32_t y = 0; y + 4 <= image->height; y += 4)
                for (uint32_t x = 0; x + 4 <= image->width; x += 4) {
                    std::array<uint8_t, 64> rgba{};
                    for (uint32_t t = 0; t < 16; ++t) {
                        std::memcpy(&rgba[4 * t], &image->rgba[((y + t / 4) * image->width + x + t % 4) * 4],
                                    4);
                        if (with_alpha) rgba[4 * t + 3] = uint8_t((x * 7 + y * 3 + t * 17) & 255);
                    }
                    blocks.push_back(rgba);
                }
    }
    std::mt19937 random(7);
    for (int n = 0; n < 4096; ++n) {
        std::array<uint8_t, 64> rgba{};
        for (uint8_t& value : rgba)
            value = uint8_t(random() & 255);
        blocks.push_back(rgba);
    }
    size_t different = 0;
    std::string first;
    for (size_t b = 0; b < blocks.size(); ++b) {
        uint8_t portable[16], avx2[16];
        assbin::converter::detail::encode_bc7_block_portable(blocks[b].data(), portable);
        BOOST_REQUIRE(assbin::converter::detail::encode_bc7_block_avx2(blocks[b].data(), avx2));
        if (std::memcmp(portable, avx2, 16) != 0 && different++ == 0) first = "block " + std::to_string(b);
    }
    BOOST_TEST_MESSAGE(blocks.size() << " blocks compared");
    BOOST_TEST(blocks.size() > 40000u);
    BOOST_TEST(different == 0u,
               different << " of " << blocks.size() << " blocks differ; the first: " << first);
}

BOOST_AUTO_TEST_SUITE_END()
