// MIP chains (a box filter, in linear light for colour), power-of-two resizing (stb_image_resize)
// and BC5 compression of normal maps (libsquish) for the 2025 layout's textures.
#include "materials/textures_2025.hpp"

#include <squish.h>
#include <stb/stb_image_resize.h>

#include <array>
#include <bit>
#include <cmath>

namespace assbin::converter::detail {

namespace {

// sRGB byte -> linear [0, 1], and back.
const std::array<float, 256>& linear_of_srgb() {
    static const std::array<float, 256> table = [] {
        std::array<float, 256> t{};
        for (int i = 0; i < 256; ++i) {
            const double c = i / 255.0;
            t[i] = static_cast<float>(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
        }
        return t;
    }();
    return table;
}

// Linear [0, 1] -> sRGB byte through a table of 8192 steps: finer than any 8-bit sRGB step (the
// smallest, near black, is 1/3295 in linear light), and no pow() per texel.
constexpr int kLinearSteps = 8192;

const std::array<uint8_t, kLinearSteps + 1>& srgb_of_linear_table() {
    static const std::array<uint8_t, kLinearSteps + 1> table = [] {
        std::array<uint8_t, kLinearSteps + 1> t{};
        for (int i = 0; i <= kLinearSteps; ++i) {
            const double c = double(i) / kLinearSteps;
            const double s = c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
            t[i] = static_cast<uint8_t>(std::lround(s * 255.0));
        }
        return t;
    }();
    return table;
}

uint8_t srgb_of_linear(float linear) {
    return srgb_of_linear_table()[static_cast<size_t>(std::clamp(linear, 0.0f, 1.0f) * kLinearSteps + 0.5f)];
}

// The next level: each texel averages the (up to) 2 x 2 texels it covers.
Pixels halve(const Pixels& level, bool srgb) {
    Pixels next{std::max(1u, level.width >> 1), std::max(1u, level.height >> 1), level.channels, {}};
    next.data.resize(size_t{next.width} * next.height * next.channels);
    const auto& linear = linear_of_srgb();
    for (uint32_t y = 0; y < next.height; ++y) {
        const uint32_t y0 = std::min(2 * y, level.height - 1), y1 = std::min(2 * y + 1, level.height - 1);
        for (uint32_t x = 0; x < next.width; ++x) {
            const uint32_t x0 = std::min(2 * x, level.width - 1), x1 = std::min(2 * x + 1, level.width - 1);
            for (uint32_t c = 0; c < level.channels; ++c) {
                const uint8_t a = level.at(x0, y0, c), b = level.at(x1, y0, c), d = level.at(x0, y1, c),
                              e = level.at(x1, y1, c);
                uint8_t& out = next.data[(size_t{y} * next.width + x) * next.channels + c];
                if (srgb && c < 3) {
                    out = srgb_of_linear((linear[a] + linear[b] + linear[d] + linear[e]) * 0.25f);
                } else {
                    out = static_cast<uint8_t>((unsigned{a} + b + d + e + 2) / 4);
                }
            }
        }
    }
    return next;
}

uint32_t power_of_two_at_most(uint32_t size, uint32_t limit) {
    return std::bit_floor(std::max(1u, std::min(size, limit)));
}

} // namespace

std::vector<uint8_t> mip_chain(const Pixels& level0, bool srgb) {
    std::vector<uint8_t> chain = level0.data;
    Pixels level = level0;
    while (level.width > 1 || level.height > 1) {
        level = halve(level, srgb);
        chain.insert(chain.end(), level.data.begin(), level.data.end());
    }
    return chain;
}

std::vector<uint8_t> compress_bc5(const std::vector<uint8_t>& chain, uint32_t width, uint32_t height) {
    std::vector<uint8_t> out;
    size_t at = 0;
    for (uint32_t level = 0; level < aem::mip_level_count(width, height); ++level) {
        const uint32_t w = std::max(1u, width >> level), h = std::max(1u, height >> level);
        std::vector<uint8_t> rgba(size_t{w} * h * 4, 0); // libsquish reads R and G of RGBA texels
        for (size_t i = 0; i < size_t{w} * h; ++i) {
            rgba[4 * i] = chain[at + 2 * i];
            rgba[4 * i + 1] = chain[at + 2 * i + 1];
            rgba[4 * i + 3] = 255;
        }
        at += size_t{w} * h * 2;
        const size_t first = out.size();
        out.resize(first + static_cast<size_t>(squish::GetStorageRequirements(int(w), int(h), squish::kBc5)));
        squish::CompressImage(rgba.data(), int(w), int(h), out.data() + first, squish::kBc5);
    }
    return out;
}

Pixels limit_size(const Pixels& image, uint32_t max_size, bool srgb) {
    const uint32_t width = power_of_two_at_most(image.width, max_size);
    const uint32_t height = power_of_two_at_most(image.height, max_size);
    if (width == image.width && height == image.height) return image;
    Pixels out{width, height, image.channels, std::vector<uint8_t>(size_t{width} * height * image.channels)};
    const int channels = static_cast<int>(image.channels);
    if (srgb) {
        stbir_resize_uint8_srgb(image.data.data(), int(image.width), int(image.height), 0, out.data.data(),
                                int(width), int(height), 0, channels,
                                channels == 4 ? 3 : STBIR_ALPHA_CHANNEL_NONE, 0);
    } else {
        stbir_resize_uint8(image.data.data(), int(image.width), int(image.height), 0, out.data.data(),
                           int(width), int(height), 0, channels);
    }
    return out;
}

} // namespace assbin::converter::detail
