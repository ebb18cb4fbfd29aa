// The BC7 encoder: hand-made blocks decoded back by a decoder written here from the format's
// description (Khronos Data Format Specification, BC7 / BPTC), independently of the encoder; every
// level size valid; the same bytes for any thread count. (`--compress` storing base colour and PBR
// as BC7: textures_2025_test; Mesa's own decoding: render_tests, which draws a BC7 model.)
#include "materials/textures_2025.hpp"

#include <aem/format.hpp>

#include <boost/test/unit_test.hpp>

#include <array>
#include <cmath>
#include <random>
#include <vector>

using assbin::converter::detail::compress_bc7;
using assbin::converter::detail::encode_bc7_block;

namespace {

// Bits of a block, least significant first, as BC7 stores them.
struct BitReader {
    const uint8_t* block;
    int at = 0;
    uint32_t take(int count) {
        uint32_t value = 0;
        for (int i = 0; i < count; ++i, ++at)
            value |= uint32_t(block[at >> 3] >> (at & 7) & 1) << i;
        return value;
    }
};

// Decodes a mode 6 block (the mode this encoder writes) into 16 RGBA texels; fails on another mode.
std::array<std::array<int, 4>, 16> decode_mode6(const uint8_t* block) {
    BitReader bits{block};
    int mode = 0;
    while (mode < 8 && bits.take(1) == 0)
        ++mode;
    BOOST_TEST_REQUIRE(mode == 6);
    std::array<int, 4> e0{}, e1{};
    for (int ch = 0; ch < 4; ++ch) {
        e0[ch] = int(bits.take(7));
        e1[ch] = int(bits.take(7));
    }
    const int p0 = int(bits.take(1)), p1 = int(bits.take(1));
    static const int weights[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};
    std::array<std::array<int, 4>, 16> texels{};
    for (int t = 0; t < 16; ++t) {
        const int index = int(bits.take(t == 0 ? 3 : 4)); // the anchor's top bit is implicit 0
        for (int ch = 0; ch < 4; ++ch) {
            const int a = e0[ch] << 1 | p0, b = e1[ch] << 1 | p1;
            texels[t][ch] = ((64 - weights[index]) * a + weights[index] * b + 32) >> 6;
        }
    }
    BOOST_TEST(bits.at == 128);
    return texels;
}

// Encodes one block and returns its peak signal-to-noise ratio (dB, RGBA) after decoding.
double block_psnr(const std::array<uint8_t, 64>& rgba) {
    uint8_t block[16];
    encode_bc7_block(rgba.data(), block);
    const auto decoded = decode_mode6(block);
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
            const auto texels = decode_mode6(blocks.data() + b);
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

BOOST_AUTO_TEST_SUITE_END()
