// BC7 held against Mesa's decoder, an implementation written by others: our format tables and
// decoder (bc7_format) must decode every mode and every partition exactly as Mesa does, and blocks
// our encoder writes must decode in Mesa to what our decoder says — so the partition and anchor
// tables, the bit layout and the encoder's packing are all checked by someone else's reading of the
// specification.
#include "materials/bc7_format.hpp"
#include "materials/textures_2025.hpp"

#include "support/fixtures.hpp"
#include "support/mesa_bptc.hpp"
#include "support/skip.hpp"

#include "algorithms.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

namespace bc7 = assbin::converter::detail::bc7;
using assbin::converter::detail::encode_bc7_block;

namespace {

constexpr size_t kBlocksPerRow = 64;

// Each block's 16 texels (RGBA, row by row) as Mesa decodes them, or the test case skips saying why.
// The blocks are laid out kBlocksPerRow to a row (the last row padded with copies of the first).
std::vector<std::array<uint8_t, 64>> mesa_decode(std::vector<uint8_t> blocks) {
    const size_t count = blocks.size() / 16, rows = (count + kBlocksPerRow - 1) / kBlocksPerRow;
    for (size_t b = count; b < rows * kBlocksPerRow; ++b)
        blocks.insert(blocks.end(), blocks.begin(), blocks.begin() + 16);
    std::string why;
    const uint32_t width = uint32_t(kBlocksPerRow * 4), height = uint32_t(rows * 4);
    const auto rgba = assbin_test::decode_bc7_with_mesa(blocks.data(), width, height, &why);
    if (!rgba) assbin_test::skip_check("no OpenGL BPTC decoder: " + why);
    std::vector<std::array<uint8_t, 64>> out(count);
    for (size_t b = 0; b < count; ++b)
        for (size_t t = 0; t < 16; ++t)
            for (size_t ch = 0; ch < 4; ++ch) {
                const size_t x = (b % kBlocksPerRow) * 4 + t % 4, y = (b / kBlocksPerRow) * 4 + t / 4;
                out[b][4 * t + ch] = (*rgba)[(y * width + x) * 4 + ch];
            }
    return out;
}

std::vector<std::array<uint8_t, 64>> our_decode(const std::vector<uint8_t>& blocks) {
    std::vector<std::array<uint8_t, 64>> out(blocks.size() / 16);
    for (size_t b = 0; b < out.size(); ++b)
        bc7::decode_block(blocks.data() + 16 * b, out[b].data());
    return out;
}

// Random bits with the mode's prefix and, where the mode has them, the partition bits set to `partition`.
std::vector<uint8_t> random_block(std::mt19937& random, int mode, int partition) {
    std::vector<uint8_t> block(16);
    for (uint8_t& byte : block)
        byte = uint8_t(random());
    uint64_t low = 0;
    for (int i = 0; i < 8; ++i)
        low |= uint64_t(block[size_t(i)]) << (8 * i);
    const int partition_bits = bc7::kModes[size_t(mode)].partition_bits;
    const uint64_t prefix = (uint64_t(partition) << (mode + 1)) | (uint64_t{1} << mode);
    const uint64_t mask = (uint64_t{1} << (mode + 1 + partition_bits)) - 1;
    low = (low & ~mask) | prefix;
    for (int i = 0; i < 8; ++i)
        block[size_t(i)] = uint8_t(low >> (8 * i));
    return block;
}

} // namespace

BOOST_AUTO_TEST_CASE(our_decoder_reads_every_mode_and_partition_as_mesa_does, *assbin_test::may_skip()) {
    std::mt19937 random(29);
    std::vector<uint8_t> blocks;
    std::vector<std::string> names;
    for (int mode = 0; mode < 8; ++mode) {
        const int partitions = 1 << bc7::kModes[size_t(mode)].partition_bits;
        // Every partition four times (random endpoints, indices, p-bits, rotations); 64 blocks of
        // the modes without partitions.
        for (int k = 0; k < (partitions == 1 ? 64 : 4 * partitions); ++k) {
            const std::vector<uint8_t> block = random_block(random, mode, k % partitions);
            blocks.insert(blocks.end(), block.begin(), block.end());
            names.push_back("mode " + std::to_string(mode) + " partition " + std::to_string(k % partitions));
        }
    }
    const auto theirs = mesa_decode(blocks), ours = our_decode(blocks);
    BOOST_TEST_REQUIRE(theirs.size() == names.size());
    size_t wrong = 0;
    for (size_t b = 0; b < names.size(); ++b)
        if (theirs[b] != ours[b] && ++wrong <= 10)
            BOOST_ERROR(names[b] << ": our decoding differs from Mesa's");
    BOOST_TEST(wrong == 0u);
    BOOST_TEST(names.size() == 3u * 64 + 16 * 4 + 4 * 64 * 4); // every partition of every mode was drawn
}

BOOST_AUTO_TEST_CASE(our_encoded_blocks_decode_in_mesa_as_intended, *assbin_test::may_skip()) {
    // A real texture (the corpus's 3DS test.png) and blocks made to need each kind of mode: sharp
    // two- and three-colour edges, alpha edges, decorrelated channels, noise.
    std::ifstream in(assbin_test::fixture_path("textures/3DS/test.png"), std::ios::binary);
    const std::vector<char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto image = assbin::converter::decode_image(std::as_bytes(std::span(file.data(), file.size())));
    BOOST_TEST_REQUIRE(image.has_value());
    std::vector<std::array<uint8_t, 64>> sources;
    for (uint32_t by = 0; by + 4 <= image->height; by += 4)
        for (uint32_t bx = 0; bx + 4 <= image->width; bx += 4) {
            std::array<uint8_t, 64> texels;
            for (uint32_t t = 0; t < 16; ++t)
                for (uint32_t ch = 0; ch < 4; ++ch)
                    texels[4 * t + ch] =
                        uint8_t(image->rgba[((by + t / 4) * image->width + bx + t % 4) * 4 + ch]);
            sources.push_back(texels);
        }
    std::mt19937 random(7);
    for (int k = 0; k < 512; ++k) {
        std::array<uint8_t, 64> texels;
        const int kind = k % 5;
        for (size_t t = 0; t < 16; ++t) {
            const uint8_t edge = uint8_t(random() % 2 == 0 ? 0 : 255);
            // Three gradients, each along its own channel: columns 0 | 1, 2 | 3.
            const size_t stripe = t % 4 == 0 ? 0 : t % 4 == 3 ? 2 : 1;
            for (size_t ch = 0; ch < 4; ++ch) {
                const uint8_t noise = uint8_t(random());
                texels[4 * t + ch] = kind == 0   ? uint8_t(t % 4 < 2 ? 30 * ch : 255 - 20 * ch)     // edge
                                     : kind == 1 ? uint8_t(ch == 3 ? edge : (t / 4) * 60 + ch * 10) // alpha
                                     : kind == 2 ? uint8_t(ch == 3   ? 255
                                                           : ch == 0 ? 255 - 16 * t
                                                                     : noise % 8) // chroma
                                     : kind == 3 ? uint8_t(ch == 3        ? 255
                                                           : ch == stripe ? 40 + 50 * (t / 4)
                                                                          : 100 + 40 * stripe) // three
                                                 : noise;                                      // noise
            }
        }
        sources.push_back(texels);
    }
    std::vector<uint8_t> blocks(sources.size() * 16);
    for (size_t b = 0; b < sources.size(); ++b)
        encode_bc7_block(sources[b].data(), blocks.data() + 16 * b);
    const auto theirs = mesa_decode(blocks), ours = our_decode(blocks);
    BOOST_TEST((theirs == ours));
    // Which modes the encoder used: the test means something only if it wrote every kind.
    std::array<int, 8> used{};
    for (size_t b = 0; b < sources.size(); ++b) {
        int mode = 0;
        while (mode < 8 && !(blocks[16 * b] >> mode & 1))
            ++mode;
        BOOST_TEST_REQUIRE(mode < 8);
        ++used[size_t(mode)];
    }
    for (const int mode : {1, 3, 4, 5, 6, 7})
        BOOST_TEST(used[size_t(mode)] > 0, "mode " << mode << " never chosen");
    BOOST_TEST(used[0] + used[2] > 0, "no three-subset mode chosen");
    // And what Mesa decodes is near the source: the texture's blocks within 40 dB PSNR.
    double squared = 0;
    for (size_t b = 0; b < sources.size() - 512; ++b)
        for (size_t k = 0; k < 64; ++k) {
            const double d = double(theirs[b][k]) - sources[b][k];
            squared += d * d;
        }
    const double mse = squared / double((sources.size() - 512) * 64);
    BOOST_TEST(10 * std::log10(255.0 * 255.0 / std::max(mse, 1e-9)) > 40.0);
}
