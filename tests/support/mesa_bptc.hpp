// BC7 (BPTC) blocks decoded by Mesa, an implementation written independently of ours: uploaded
// with glCompressedTexImage2D on a headless EGL context and read back with glGetTexImage. For the
// tests that hold our tables and decoder against it, and the BC7 benchmark's PSNR.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace assbin_test {

// The RGBA8 texels of a width x height BC7 image (blocks row by row), or nullopt with `*why` saying
// what is missing (no OpenGL context; no BPTC support).
std::optional<std::vector<uint8_t>> decode_bc7_with_mesa(const uint8_t* blocks, uint32_t width,
                                                         uint32_t height, std::string* why);

} // namespace assbin_test
