// The BC7 encoder on real images: per image, RGB and alpha PSNR of level 0 encoded and decoded
// again (mode 6 decoded as the format describes it), the worst block, and megapixels per second on
// one thread; with --png-dir, each image is also written there as an RGBA PNG for bc7enc, the
// reference encoder scripts/bench-bc7.sh runs on the same pixels.
//   build/bin/assbin_bc7_bench [--png-dir DIR] IMAGE...
#include "algorithms.hpp"
#include "materials/textures_2025.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace assbin::converter;
using assbin::converter::detail::encode_bc7_block;

namespace {

// One mode-6 block (the only mode the encoder writes) decoded into 16 RGBA texels.
void decode_mode6(const uint8_t* block, uint8_t out[64]) {
    int at = 0;
    const auto take = [&](int count) {
        uint32_t value = 0;
        for (int i = 0; i < count; ++i, ++at)
            value |= uint32_t(block[at >> 3] >> (at & 7) & 1) << i;
        return int(value);
    };
    take(7);
    int e0[4], e1[4];
    for (int ch = 0; ch < 4; ++ch) {
        e0[ch] = take(7);
        e1[ch] = take(7);
    }
    const int p0 = take(1), p1 = take(1);
    static const int weights[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};
    for (int t = 0; t < 16; ++t) {
        const int w = weights[take(t == 0 ? 3 : 4)];
        for (int ch = 0; ch < 4; ++ch)
            out[4 * t + ch] = uint8_t(((64 - w) * (e0[ch] << 1 | p0) + w * (e1[ch] << 1 | p1) + 32) >> 6);
    }
}

double psnr(double squared, double count) {
    return squared == 0 ? 99.0 : 10 * std::log10(255.0 * 255.0 * count / squared);
}

} // namespace

int main(int argc, char** argv) {
    fs::path png_dir;
    std::vector<fs::path> images;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--png-dir" && i + 1 < argc)
            png_dir = argv[++i];
        else
            images.emplace_back(arg);
    }
    std::printf("%-48s %11s %9s %9s %12s %8s\n", "image (RGBA, level 0)", "size", "RGB dB", "alpha dB",
                "worst block", "MP/s");
    double total_rgb = 0, total_seconds = 0, total_pixels = 0;
    int measured = 0;
    for (const fs::path& path : images) {
        std::ifstream in(path, std::ios::binary);
        const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::optional<Image> image = decode_image(std::as_bytes(std::span(bytes.data(), bytes.size())));
        if (!image || image->width < 16 || image->height < 16) continue;
        const uint32_t w = image->width, h = image->height;
        if (!png_dir.empty()) {
            const std::vector<std::byte> png = encode_png(*image);
            std::ofstream(png_dir / (path.filename().string() + ".png"), std::ios::binary)
                .write(reinterpret_cast<const char*>(png.data()), std::streamsize(png.size()));
        }
        // Level 0 alone (bc7enc makes no MIP levels): a 1 x 1 "chain" would add nothing to compare.
        std::vector<uint8_t> level0(image->rgba.begin(), image->rgba.end());
        double best = 1e9;
        std::vector<uint8_t> blocks;
        for (int run = 0; run < 3; ++run) {
            const auto start = std::chrono::steady_clock::now();
            blocks.clear();
            const uint32_t bw = (w + 3) / 4, bh = (h + 3) / 4;
            blocks.resize(size_t{bw} * bh * 16);
            for (uint32_t by = 0; by < bh; ++by)
                for (uint32_t bx = 0; bx < bw; ++bx) {
                    uint8_t rgba[64];
                    for (uint32_t t = 0; t < 16; ++t) {
                        const uint32_t x = std::min(bx * 4 + t % 4, w - 1), y = std::min(by * 4 + t / 4, h - 1);
                        std::copy_n(level0.data() + (size_t{y} * w + x) * 4, 4, rgba + 4 * t);
                    }
                    encode_bc7_block(rgba, blocks.data() + (size_t{by} * bw + bx) * 16);
                }
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        double rgb = 0, alpha = 0, worst = 0;
        const uint32_t bw = (w + 3) / 4;
        for (size_t b = 0; b < blocks.size() / 16; ++b) {
            uint8_t decoded[64];
            decode_mode6(blocks.data() + 16 * b, decoded);
            double block_squared = 0;
            for (uint32_t t = 0; t < 16; ++t) {
                const uint32_t x = uint32_t(b % bw) * 4 + t % 4, y = uint32_t(b / bw) * 4 + t / 4;
                if (x >= w || y >= h) continue;
                const uint8_t* source = level0.data() + (size_t{y} * w + x) * 4;
                for (int ch = 0; ch < 4; ++ch) {
                    const double d = double(decoded[4 * t + ch]) - source[ch];
                    (ch < 3 ? rgb : alpha) += d * d;
                    if (ch < 3) block_squared += d * d;
                }
            }
            worst = std::max(worst, block_squared);
        }
        const double pixels = double(w) * h;
        const double rgb_db = psnr(rgb, pixels * 3);
        std::printf("%-48s %5u x %-5u %9.2f %9.2f %9.2f dB %8.2f\n", path.filename().string().c_str(), w, h, rgb_db,
                    psnr(alpha, pixels), psnr(worst, 48), pixels / 1e6 / best);
        total_rgb += rgb_db;
        total_seconds += best;
        total_pixels += pixels;
        ++measured;
    }
    if (measured > 0) {
        std::printf("mean RGB PSNR %.2f dB over %d images; %.2f MP/s on one thread\n", total_rgb / measured, measured,
                    total_pixels / 1e6 / total_seconds);
    }
    return 0;
}
