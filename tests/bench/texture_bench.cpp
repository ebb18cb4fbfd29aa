// assbin_texture_bench: the 2025 layout's texture pipeline. A skinned model (the huesitos fixture's
// skin, or any dump given) whose four materials each name a 2048 x 2048 PNG (smooth noise,
// embedded), converted to the 2025 layout on 1 and on 2 threads; then the MIP and packing steps
// alone per megapixel, beside decoding the same PNG and a memcpy of its pixels (the baselines
// measured in the same run).
#include "best_time.hpp"
#include "materials/textures_2025.hpp"
#include "support/fixtures.hpp"

#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#define STBI_NO_STDIO
#define STBI_WRITE_NO_STDIO
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using assbin::converter::detail::Pixels;
using assbin_test::bench::best_seconds;

constexpr uint32_t kSize = 2048;
constexpr double kMegapixels = double(kSize) * kSize / 1e6;

Pixels noise(uint32_t seed) {
    Pixels image{kSize, kSize, 4, std::vector<uint8_t>(size_t{kSize} * kSize * 4)};
    for (uint32_t y = 0; y < kSize; ++y) {
        for (uint32_t x = 0; x < kSize; ++x) {
            uint8_t* p = &image.data[(size_t{y} * kSize + x) * 4];
            p[0] = uint8_t(128 + 127 * std::sin(x * 0.013 + seed));
            p[1] = uint8_t(128 + 127 * std::sin(y * 0.021 + seed));
            p[2] = uint8_t((x ^ y ^ seed) & 0xFF);
            p[3] = 255;
        }
    }
    return image;
}

std::vector<uint8_t> png_of(const Pixels& image) {
    std::vector<uint8_t> out;
    stbi_write_png_to_func(
        [](void* context, void* data, int size) {
            auto* bytes = static_cast<std::vector<uint8_t>*>(context);
            bytes->insert(bytes->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
        },
        &out, int(image.width), int(image.height), 4, image.data.data(), int(image.width * 4));
    return out;
}

// The skinned fixture with four materials, each naming its own embedded 2048² PNG as base colour
// (materials 0, 1), normal map (2) and roughness (3), and a mesh per material.
assbin::Scene textured_scene(const std::string& dump) {
    assbin::Scene scene = assbin::read_file(dump);
    const assbin::Material material = scene.materials.at(0);
    scene.materials.clear();
    const uint32_t slots[4] = {1, 12, 6, 16};
    for (uint32_t m = 0; m < 4; ++m) {
        assbin::Texture texture;
        texture.data = png_of(noise(m));
        texture.width = uint32_t(texture.data.size());
        texture.height = 0;
        texture.format_hint = "png";
        scene.textures.push_back(std::move(texture));
        assbin::Material copy = material;
        assbin::MaterialProperty path;
        path.key = "$tex.file";
        path.semantic = slots[m];
        path.type = 3;          // string: u32 length, bytes, NUL
        std::string name = "*"; // appended, not `"*" + ...`: GCC 12's -Wrestrict misfires on that
        name += std::to_string(m);
        const uint32_t length = uint32_t(name.size());
        path.data.resize(4 + name.size() + 1);
        std::memcpy(path.data.data(), &length, 4);
        std::memcpy(path.data.data() + 4, name.data(), name.size());
        copy.properties.push_back(path);
        scene.materials.push_back(copy);
    }
    for (size_t m = 0; m < scene.meshes.size(); ++m)
        scene.meshes[m].material_index = uint32_t(m % 4);
    return scene;
}

} // namespace

int main(int argc, char** argv) {
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    const std::string dump =
        argc > 2 ? argv[2] : assbin_test::fixture_path("assimp-5.2.5/FBX__huesitos.fbx.assbin").string();
    const assbin::Scene scene = textured_scene(dump);
    for (const unsigned threads : {1u, 2u}) {
        assbin::converter::ConvertOptions options;
        options.layout = aem::Layout::Edition2025;
        options.texture_threads = threads;
        size_t bytes = 0;
        const double seconds = best_seconds(
            runs, [&] { bytes = assbin::converter::convert(scene, options).model.image_buffer.size(); });
        std::printf("convert, four 2048^2 PNG textures, %u thread%s: %.1f ms (%.1f MB of texels)\n", threads,
                    threads == 1 ? "" : "s", seconds * 1e3, bytes / 1e6);
    }
    const Pixels image = noise(7);
    const std::vector<uint8_t> png = png_of(image);
    std::vector<uint8_t> copy(image.data.size());
    const double memcpy_s =
        best_seconds(runs, [&] { std::memcpy(copy.data(), image.data.data(), copy.size()); });
    const double decode_s = best_seconds(runs, [&] {
        int w, h, c;
        stbi_image_free(stbi_load_from_memory(png.data(), int(png.size()), &w, &h, &c, 4));
    });
    const double srgb_s = best_seconds(runs, [&] { assbin::converter::detail::mip_chain(image, true); });
    const double linear_s = best_seconds(runs, [&] { assbin::converter::detail::mip_chain(image, false); });
    Pixels rg{kSize, kSize, 2, std::vector<uint8_t>(size_t{kSize} * kSize * 2, 128)};
    const std::vector<uint8_t> rg_chain = assbin::converter::detail::mip_chain(rg, false);
    const double bc5_s =
        best_seconds(1, [&] { assbin::converter::detail::compress_bc5(rg_chain, kSize, kSize); });
    const auto per_mp = [](double s) { return s * 1e3 / kMegapixels; };
    std::printf("per megapixel: memcpy %.2f ms, PNG decode %.2f ms, MIP chain sRGB %.2f ms (%.1fx memcpy), "
                "linear %.2f ms, BC5 of an RG chain %.2f ms\n",
                per_mp(memcpy_s), per_mp(decode_s), per_mp(srgb_s), srgb_s / memcpy_s, per_mp(linear_s),
                per_mp(bc5_s));
    return 0;
}
