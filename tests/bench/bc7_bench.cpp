// The BC7 encoder on real images. Per image (level 0, RGBA): RGB and alpha PSNR of the blocks as
// Mesa decodes them (an implementation independent of ours; our own decoder when no OpenGL context
// can be made, and the summary says which), the worst block's PSNR, and megapixels per second on one
// thread (the best of five runs). Then whole MIP chains, as `convert --compress` encodes them, on one
// and on two threads: the scaling. With --png-dir, each image is also written there as an RGBA PNG
// for bc7enc, the reference encoder scripts/bench-bc7.sh runs on the same pixels.
//   build/bin/assbin_bc7_bench [--png-dir DIR] IMAGE...
#include "algorithms.hpp"
#include "materials/bc7_format.hpp"
#include "materials/textures_2025.hpp"
#include "support/mesa_bptc.hpp"

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
using namespace assbin::converter::detail;

namespace {

double psnr(double squared, double count) {
    return squared == 0 ? 99.0 : 10 * std::log10(255.0 * 255.0 * count / squared);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Level 0's blocks, row by row, on this thread.
std::vector<uint8_t> encode_level0(const std::vector<uint8_t>& rgba, uint32_t w, uint32_t h) {
    const uint32_t bw = (w + 3) / 4, bh = (h + 3) / 4;
    std::vector<uint8_t> blocks(size_t{bw} * bh * 16);
    for (uint32_t by = 0; by < bh; ++by)
        for (uint32_t bx = 0; bx < bw; ++bx) {
            uint8_t texels[64];
            for (uint32_t t = 0; t < 16; ++t) {
                const uint32_t x = std::min(bx * 4 + t % 4, w - 1), y = std::min(by * 4 + t / 4, h - 1);
                std::copy_n(rgba.data() + (size_t{y} * w + x) * 4, 4, texels + 4 * t);
            }
            encode_bc7_block(texels, blocks.data() + (size_t{by} * bw + bx) * 16);
        }
    return blocks;
}

// The decoded image: Mesa's when it can, else ours (`*by_mesa` says which).
std::vector<uint8_t> decode_level0(const std::vector<uint8_t>& blocks, uint32_t w, uint32_t h,
                                   bool* by_mesa) {
    std::string why;
    if (auto rgba = assbin_test::decode_bc7_with_mesa(blocks.data(), w, h, &why)) {
        *by_mesa = true;
        return *rgba;
    }
    *by_mesa = false;
    std::vector<uint8_t> rgba(size_t{w} * h * 4);
    const uint32_t bw = (w + 3) / 4;
    for (size_t b = 0; b < blocks.size() / 16; ++b) {
        uint8_t texels[64];
        bc7::decode_block(blocks.data() + 16 * b, texels);
        for (uint32_t t = 0; t < 16; ++t) {
            const uint32_t x = uint32_t(b % bw) * 4 + t % 4, y = uint32_t(b / bw) * 4 + t / 4;
            if (x < w && y < h) std::copy_n(texels + 4 * t, 4, rgba.data() + (size_t{y} * w + x) * 4);
        }
    }
    return rgba;
}

} // namespace

int main(int argc, char** argv) {
    fs::path png_dir;
    std::vector<fs::path> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--png-dir" && i + 1 < argc)
            png_dir = argv[++i];
        else
            paths.emplace_back(arg);
    }
    std::printf("%-48s %11s %9s %9s %12s %8s\n", "image (RGBA, level 0)", "size", "RGB dB", "alpha dB",
                "worst block", "MP/s");
    double total_rgb = 0, total_alpha = 0, total_seconds = 0, total_pixels = 0;
    int measured = 0;
    bool all_by_mesa = true;
    std::vector<Pixels> images;
    for (const fs::path& path : paths) {
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
        // Level 0 alone (bc7enc makes no MIP levels).
        const std::vector<uint8_t> level0(image->rgba.begin(), image->rgba.end());
        double best = 1e9;
        std::vector<uint8_t> blocks;
        for (int run = 0; run < 5; ++run) {
            const auto start = std::chrono::steady_clock::now();
            blocks = encode_level0(level0, w, h);
            best = std::min(best, seconds_since(start));
        }
        bool by_mesa = false;
        const std::vector<uint8_t> decoded = decode_level0(blocks, w, h, &by_mesa);
        all_by_mesa = all_by_mesa && by_mesa;
        double rgb = 0, alpha = 0, worst = 0;
        const uint32_t bw = (w + 3) / 4;
        for (size_t b = 0; b < blocks.size() / 16; ++b) {
            double block_squared = 0;
            for (uint32_t t = 0; t < 16; ++t) {
                const uint32_t x = uint32_t(b % bw) * 4 + t % 4, y = uint32_t(b / bw) * 4 + t / 4;
                if (x >= w || y >= h) continue;
                const size_t at = (size_t{y} * w + x) * 4;
                for (size_t ch = 0; ch < 4; ++ch) {
                    const double d = double(decoded[at + ch]) - level0[at + ch];
                    (ch < 3 ? rgb : alpha) += d * d;
                    if (ch < 3) block_squared += d * d;
                }
            }
            worst = std::max(worst, block_squared);
        }
        const double pixels = double(w) * h;
        const double rgb_db = psnr(rgb, pixels * 3), alpha_db = psnr(alpha, pixels);
        std::printf("%-48s %5u x %-5u %9.2f %9.2f %9.2f dB %8.2f\n", path.filename().string().c_str(), w, h,
                    rgb_db, alpha_db, psnr(worst, 48), pixels / 1e6 / best);
        total_rgb += rgb_db;
        total_alpha += alpha_db;
        total_seconds += best;
        total_pixels += pixels;
        ++measured;
        images.push_back({w, h, 4, level0});
    }
    if (measured == 0) return 0;
    std::printf(
        "mean RGB PSNR %.2f dB (alpha %.2f dB) over %d images, decoded by %s; %.2f MP/s on one thread\n",
        total_rgb / measured, total_alpha / measured, measured,
        all_by_mesa ? "Mesa" : "our decoder (no OpenGL context)", total_pixels / 1e6 / total_seconds);
    // Whole chains as convert encodes them: the same bytes on any number of threads, so the time is
    // all that differs.
    std::vector<std::vector<uint8_t>> chains;
    double chain_pixels = 0;
    for (const Pixels& image : images) {
        chains.push_back(mip_chain(image, true));
        chain_pixels += double(chains.back().size()) / 4;
    }
    double seconds[2] = {1e9, 1e9};
    for (int run = 0; run < 3; ++run)
        for (unsigned threads = 1; threads <= 2; ++threads) {
            const auto start = std::chrono::steady_clock::now();
            for (size_t i = 0; i < images.size(); ++i)
                compress_bc7(chains[i], images[i].width, images[i].height, threads);
            seconds[threads - 1] = std::min(seconds[threads - 1], seconds_since(start));
        }
    std::printf("MIP chains (%.2f MP): %.2f MP/s on one thread, %.2f MP/s on two: %.2fx\n",
                chain_pixels / 1e6, chain_pixels / 1e6 / seconds[0], chain_pixels / 1e6 / seconds[1],
                seconds[0] / seconds[1]);
    return 0;
}
