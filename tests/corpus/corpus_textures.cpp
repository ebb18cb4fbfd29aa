// corpus_textures: the 2025 layout's texture pipeline on every dump of the corpus whose material
// names an image that assimp-5.2.5-textures/ holds (TEXTURES.tsv: dump, name in the dump, file).
// Each dump is converted with the file's folder as --texture-dir; it passes when the model
// validates (so every MIP chain has the page's size and lies in the image buffer) and holds a
// texture of exactly the size the image's own header gives (stb_image's info, read separately).
// Images a material holds only in a slot the layout does not use (specular, ...) are counted apart.
// Each is converted again with --compress: that model validates too (so every BC5 and BC7 level has
// libaem's size, ceil(w/4) x ceil(h/4) x 16 bytes), keeps the same texture sizes, stores every
// 4-channel texture as BC7 and every 2-channel one as BC5, and its BC7 level 0 decodes within 30 dB
// PSNR of the uncompressed texels (the worst texture is printed); over the whole set the compressed
// image buffers must be at most 0.3 x the uncompressed ones.
// Prints one line per failure, then "textures: N passed, M failed"; exits 1 when M > 0.
#include "materials/bc7_format.hpp"
#include "support/texture_table.hpp"

#include <aem/format.hpp>
#include <aem/validate.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#define STBI_NO_STDIO
#include <stb/stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// The size the image file's header declares, or {0, 0}.
std::pair<uint32_t, uint32_t> image_size(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    int width = 0, height = 0, channels = 0;
    if (!stbi_info_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), int(bytes.size()), &width,
                               &height, &channels))
        return {0, 0};
    return {uint32_t(width), uint32_t(height)};
}

// Whether a material names `name` in a slot the 2025 layout's textures draw from (diffuse, emissive,
// normals, lightmap, base colour, normal camera, emission colour, metalness, roughness, occlusion).
bool used_by_a_slot(const assbin::Scene& scene, const std::string& name) {
    const uint32_t used[] = {1, 4, 6, 10, 12, 13, 14, 15, 16, 17};
    for (const assbin::Material& material : scene.materials) {
        for (const assbin::MaterialProperty& property : material.properties) {
            if (property.key != "$tex.file" || property.string_value().value_or("").find(name) != 0) continue;
            if (std::find(std::begin(used), std::end(used), property.semantic) != std::end(used)) return true;
        }
    }
    return false;
}

// Byte totals of the image buffers, plain and compressed, and the worst BC7 texture seen.
struct Totals {
    size_t plain = 0, compressed = 0;
    double worst_psnr = 99;
    std::string worst;
};

// The PSNR (RGBA) of a BC7 level 0 against the texels it was made from.
double bc7_psnr(const uint8_t* blocks, const uint8_t* texels, uint32_t width, uint32_t height) {
    double squared = 0;
    const uint32_t blocks_wide = (width + 3) / 4;
    for (uint32_t by = 0; by < (height + 3) / 4; ++by)
        for (uint32_t bx = 0; bx < blocks_wide; ++bx) {
            uint8_t decoded[64];
            assbin::converter::detail::bc7::decode_block(blocks + (size_t{by} * blocks_wide + bx) * 16,
                                                         decoded);
            for (uint32_t t = 0; t < 16; ++t) {
                const uint32_t x = bx * 4 + t % 4, y = by * 4 + t / 4;
                if (x >= width || y >= height) continue;
                for (uint32_t ch = 0; ch < 4; ++ch) {
                    const double d = double(decoded[4 * t + ch]) - texels[(size_t{y} * width + x) * 4 + ch];
                    squared += d * d;
                }
            }
        }
    return squared == 0 ? 99 : 10 * std::log10(255.0 * 255.0 * double(width) * height * 4 / squared);
}

// Why the compressed conversion of the same scene is wrong, or empty.
std::string check_compressed(const assbin::Scene& scene, assbin::converter::ConvertOptions options,
                             const aem::Model& plain, const std::string& dump, Totals& totals) {
    options.compress_textures = true;
    const aem::Model model = assbin::converter::convert(scene, options).model;
    const std::vector<aem::Violation> violations = aem::validate(model);
    if (!violations.empty()) return "invalid compressed model: " + aem::to_string(violations.front());
    if (model.textures.size() != plain.textures.size())
        return "a different number of textures with --compress";
    for (size_t i = 0; i < model.textures.size(); ++i) {
        const aem::Texture &t = model.textures[i], &u = plain.textures[i];
        if (t.width != u.width || t.height != u.height || t.channels != u.channels)
            return "texture " + std::to_string(i) + " changes size or channels with --compress";
        const uint32_t expected = t.channels == 4   ? aem::kCompressionBc7
                                  : t.channels == 2 ? aem::kCompressionBc5
                                                    : 0;
        if (t.compression != expected) return "texture " + std::to_string(i) + " is not block-compressed";
        if (t.compression != aem::kCompressionBc7) continue;
        const double psnr = bc7_psnr(model.image_buffer.data() + t.image_offset,
                                     plain.image_buffer.data() + u.image_offset, t.width, t.height);
        if (psnr < totals.worst_psnr) {
            totals.worst_psnr = psnr;
            totals.worst = dump + " texture " + std::to_string(i) + " (" + std::to_string(t.width) + " x " +
                           std::to_string(t.height) + ")";
        }
        if (psnr < 30) return "texture " + std::to_string(i) + " decodes at " + std::to_string(psnr) + " dB";
    }
    totals.plain += plain.image_buffer.size();
    totals.compressed += model.image_buffer.size();
    return {};
}

// Why the dump fails, "unused" when the image is in a slot the layout does not use, or empty.
std::string check(const fs::path& dump, const std::string& name, const fs::path& image, Totals& totals) {
    const auto [width, height] = image_size(image);
    if (width == 0) return "the image's header cannot be read";
    const assbin::Scene scene = assbin::read_file(dump);
    if (!used_by_a_slot(scene, name)) return "unused";
    assbin::converter::ConvertOptions options;
    options.layout = aem::Layout::Edition2025;
    options.texture_folders = {image.parent_path()};
    const aem::Model model = assbin::converter::convert(scene, options).model;
    const std::vector<aem::Violation> violations = aem::validate(model);
    if (!violations.empty()) return "invalid model: " + aem::to_string(violations.front());
    const bool found = std::any_of(model.textures.begin(), model.textures.end(), [&](const aem::Texture& t) {
        return t.width == width && t.height == height;
    });
    if (!found) return "no texture of the image's " + std::to_string(width) + " x " + std::to_string(height);
    return check_compressed(scene, options, model, dump.filename().string(), totals);
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2 || !fs::is_regular_file(fs::path(argv[1]) / "assimp-5.2.5-textures/TEXTURES.tsv")) {
        std::fprintf(stderr, "usage: corpus_textures CORPUS (the folder holding assimp-5.2.5-textures/)\n");
        return 2;
    }
    const fs::path corpus = argv[1];
    size_t passed = 0, failed = 0, unused = 0;
    Totals totals;
    for (const auto& [dump, name, file] : assbin_test::texture_table(corpus)) {
        std::string problem;
        try {
            problem = check(corpus / dump, name, corpus / "assimp-5.2.5-textures" / file, totals);
        } catch (const std::exception& error) {
            problem = error.what();
        }
        if (problem == "unused") {
            ++unused;
        } else if (problem.empty()) {
            ++passed;
        } else {
            std::printf("FAILED   %s (%s): %s\n", dump.c_str(), name.c_str(), problem.c_str());
            ++failed;
        }
    }
    std::printf("(%zu images sit in slots the 2025 layout does not use, such as specular)\n", unused);
    const double ratio = totals.plain == 0 ? 0 : double(totals.compressed) / double(totals.plain);
    std::printf(
        "--compress: image buffers %zu -> %zu bytes (%.3f x; at most 0.3); worst BC7 texture %.2f dB: %s\n",
        totals.plain, totals.compressed, ratio, totals.worst_psnr, totals.worst.c_str());
    if (ratio > 0.3) {
        std::printf("FAILED   compressed image buffers are %.3f x the uncompressed ones\n", ratio);
        ++failed;
    }
    std::printf("textures: %zu passed, %zu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
