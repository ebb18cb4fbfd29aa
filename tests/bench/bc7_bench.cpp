// The BC7 encoder on real images. Per image (level 0, RGBA): RGB and alpha PSNR of the blocks as
// Mesa decodes them (an implementation independent of ours; our own decoder when no OpenGL context
// can be made, and the summary says which), the worst block's PSNR, and megapixels per second on one
// thread (the best of five runs). Then whole MIP chains, as `convert --compress` encodes them, on one
// and on two threads: the scaling. With --png-dir, each image is also written there as an RGBA PNG
// for bc7enc, the reference encoder scripts/bench-bc7.sh runs on the same pixels; a hash of every
// level-0 block tells whether a change to the encoder kept its bytes.
//   build/bin/assbin_bc7_bench [--png-dir DIR] IMAGE...
// The conversion's measure (issue 51): every dump the corpus's TEXTURES.tsv names, converted to the
// 2025 layout on one thread with its images' folders as --texture-dir, with and without --compress
// (best of --runs each): the time --compress adds, and every BC7 texture of at least 16 x 16 it
// writes, level 0 as Mesa decodes it against the uncompressed conversion's texels (RGB PSNR); with
// --png-dir, those texels as PNGs for bc7enc.
//   build/bin/assbin_bc7_bench --conversions CORPUS [--runs N] [--png-dir DIR]
#include "algorithms.hpp"
#include "materials/bc7_format.hpp"
#include "materials/textures_2025.hpp"
#include "support/mesa_bptc.hpp"
#include "support/texture_table.hpp"

#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
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

// The dumps TEXTURES.tsv names (each once), with the folders of their images.
std::map<fs::path, std::set<fs::path>> textured_dumps(const fs::path& corpus) {
    std::map<fs::path, std::set<fs::path>> dumps;
    for (const assbin_test::TextureRow& row : assbin_test::texture_table(corpus))
        if (!row.file.empty())
            dumps[corpus / row.dump].insert((corpus / "assimp-5.2.5-textures" / row.file).parent_path());
    return dumps;
}

// Seconds of the best of `runs` conversions.
double best_conversion(const assbin::Scene& scene, const assbin::converter::ConvertOptions& options, int runs,
                       aem::Model& model) {
    double best = 1e9;
    for (int run = 0; run < runs; ++run) {
        const auto start = std::chrono::steady_clock::now();
        assbin::converter::ConvertResult result = assbin::converter::convert(scene, options);
        best = std::min(best, seconds_since(start));
        model = std::move(result.model);
    }
    return best;
}

int measure_conversions(const fs::path& corpus, const fs::path& png_dir, int runs) {
    const auto dumps = textured_dumps(corpus);
    if (dumps.empty()) {
        std::fprintf(stderr, "no TEXTURES.tsv under %s/assimp-5.2.5-textures\n", corpus.c_str());
        return 2;
    }
    std::printf("%-56s %11s %9s\n", "BC7 texture (level 0 as Mesa decodes it)", "size", "RGB dB");
    double added = 0, plain_total = 0, total_db = 0, level0_pixels = 0, chain_pixels = 0;
    double bc7_seconds = 0, bc5_seconds = 0; // the same chains encoded again, apart
    int measured = 0, bc5 = 0;
    bool all_by_mesa = true;
    for (const auto& [dump, folders] : dumps) {
        const assbin::Scene scene = assbin::read_file(dump);
        assbin::converter::ConvertOptions options;
        options.layout = aem::Layout::Edition2025;
        options.texture_folders.assign(folders.begin(), folders.end());
        options.threads = 1;
        options.texture_threads = 1;
        aem::Model plain, compressed;
        const double plain_seconds = best_conversion(scene, options, runs, plain);
        options.compress_textures = true;
        const double compressed_seconds = best_conversion(scene, options, runs, compressed);
        added += compressed_seconds - plain_seconds;
        plain_total += plain_seconds;
        for (size_t i = 0; i < compressed.textures.size() && i < plain.textures.size(); ++i) {
            const aem::Texture &t = compressed.textures[i], &u = plain.textures[i];
            const uint32_t w = t.width, h = t.height;
            if (t.compression == aem::kCompressionBc5 || t.compression == aem::kCompressionBc7) {
                size_t chain_bytes = 0;
                for (uint32_t level = 0; level < aem::mip_level_count(w, h); ++level)
                    chain_bytes += size_t{std::max(1u, w >> level)} * std::max(1u, h >> level) * u.channels;
                const uint8_t* first = plain.image_buffer.data() + u.image_offset;
                const std::vector<uint8_t> chain(first, first + chain_bytes);
                const auto start = std::chrono::steady_clock::now();
                if (t.compression == aem::kCompressionBc5) {
                    (void)compress_bc5(chain, w, h);
                    bc5_seconds += seconds_since(start);
                } else {
                    (void)compress_bc7(chain, w, h, 1);
                    bc7_seconds += seconds_since(start);
                }
            }
            if (t.compression == aem::kCompressionBc5) ++bc5;
            if (t.compression != aem::kCompressionBc7) continue;
            for (uint32_t lw = w, lh = h;; lw = std::max(1u, lw / 2), lh = std::max(1u, lh / 2)) {
                chain_pixels += double(lw) * lh;
                if (lw == 1 && lh == 1) break;
            }
            if (w < 16 || h < 16) continue;
            const uint8_t* blocks = compressed.image_buffer.data() + t.image_offset;
            const std::vector<uint8_t> encoded(blocks, blocks + size_t{(w + 3) / 4} * ((h + 3) / 4) * 16);
            const uint8_t* texels = plain.image_buffer.data() + u.image_offset;
            bool by_mesa = false;
            const std::vector<uint8_t> decoded = decode_level0(encoded, w, h, &by_mesa);
            all_by_mesa = all_by_mesa && by_mesa;
            double rgb = 0;
            for (size_t p = 0; p < size_t{w} * h; ++p)
                for (size_t ch = 0; ch < 3; ++ch) {
                    const double d = double(decoded[4 * p + ch]) - texels[4 * p + ch];
                    rgb += d * d;
                }
            const double db = psnr(rgb, double(w) * h * 3);
            const std::string name = dump.filename().string() + " #" + std::to_string(i);
            std::printf("%-56s %5u x %-5u %9.2f\n", name.c_str(), w, h, db);
            if (!png_dir.empty()) {
                Image image;
                image.width = w;
                image.height = h;
                image.rgba.assign(texels, texels + size_t{w} * h * 4);
                const std::vector<std::byte> png = encode_png(image);
                char number[16]; // a running number first: dumps of one name sit in different folders
                std::snprintf(number, sizeof number, "%03d-", measured);
                std::ofstream(png_dir /
                                  (number + dump.filename().string() + "." + std::to_string(i) + ".png"),
                              std::ios::binary)
                    .write(reinterpret_cast<const char*>(png.data()), std::streamsize(png.size()));
            }
            total_db += db;
            level0_pixels += double(w) * h;
            ++measured;
        }
    }
    if (measured == 0) return 0;
    std::printf("mean RGB PSNR %.2f dB over %d BC7 textures (%.2f MP at level 0, their chains %.2fx that), "
                "decoded by %s\n",
                total_db / measured, measured, level0_pixels / 1e6, chain_pixels / level0_pixels,
                all_by_mesa ? "Mesa" : "our decoder (no OpenGL context)");
    std::printf("--compress adds %.3f s to the %zu conversions (%.3f s without it), one thread, best of %d; "
                "their chains encoded again: BC7 %.3f s, BC5 %.3f s (%d normal maps, libsquish)\n",
                added, dumps.size(), plain_total, runs, bc7_seconds, bc5_seconds, bc5);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    fs::path png_dir, corpus;
    int runs = 3;
    std::vector<fs::path> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--png-dir" && i + 1 < argc)
            png_dir = argv[++i];
        else if (arg == "--conversions" && i + 1 < argc)
            corpus = argv[++i];
        else if (arg == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else
            paths.emplace_back(arg);
    }
    if (!corpus.empty()) return measure_conversions(corpus, png_dir, runs);
    std::printf("%-48s %11s %9s %9s %12s %8s\n", "image (RGBA, level 0)", "size", "RGB dB", "alpha dB",
                "worst block", "MP/s");
    double total_rgb = 0, total_alpha = 0, total_seconds = 0, total_pixels = 0;
    int measured = 0;
    bool all_by_mesa = true;
    uint64_t blocks_hash = 14695981039346656037ull; // FNV-1a 64 over every image's level-0 blocks
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
        for (const uint8_t byte : blocks)
            blocks_hash = (blocks_hash ^ byte) * 1099511628211ull;
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
    std::printf("level 0's blocks, all images: FNV-1a %016llx (a change that keeps every byte keeps it)\n",
                static_cast<unsigned long long>(blocks_hash));
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
