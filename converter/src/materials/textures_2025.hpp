// The 2025 layout's texture pipeline (AEM-FORMAT.md "The 2025 layout"): images found and decoded
// (embedded files, embedded texels, external files), turned into the three textures a material
// needs (base colour RGBA, normal RG, PBR RGBA), given full MIP chains, optionally BC5-compressed.
#pragma once

#include "pipeline.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace assbin::converter::detail {

// An image with 1 to 4 channels of 8 bits, rows top first.
struct Pixels {
    uint32_t width = 0;
    uint32_t height = 0;
    uint32_t channels = 4;
    std::vector<uint8_t> data; // width · height · channels

    uint8_t at(uint32_t x, uint32_t y, uint32_t c) const {
        return data[(size_t{y} * width + x) * channels + c];
    }
};

// Finds and decodes the images a scene's materials name: "*N" embedded textures (files, or
// ARGB8888 texels), and external names resolved against the dump's folder and the texture folders
// (as given, then by file name ignoring case: real dumps carry Windows separators and other
// cases). Every image is decoded once; what cannot be had is reported once, with the material.
class TextureSources {
  public:
    TextureSources(const assbin::Scene& scene, const ConvertOptions& options, Report& report)
        : scene_(scene), options_(options), report_(report), aliases_(embedded_texture_aliases(scene)) {}

    // The image `path` names, as RGBA, or nullopt (reported) when it is missing, unreadable, or
    // larger than options.max_texture_pixels (refused before decoding).
    const Pixels* rgba(const std::string& path, const std::string& material);

    // The image file `path` names, byte for byte (an embedded compressed texture or an external
    // file), for a writer that carries files as they are (glTF's PNG and JPEG). nullopt when it is
    // an embedded texel array (`*texels` set to the "*N" it is: rgba() of that gives it, said once)
    // or cannot be had (reported).
    std::optional<std::vector<std::byte>> file_bytes(const std::string& path, const std::string& material,
                                                     std::string* texels);
    // Decodes an image file to RGBA; nullopt (reported, naming `what`) when it is not one.
    std::optional<Pixels> decode(std::span<const std::byte> file, const std::string& what,
                                 const std::string& material);

  private:
    std::optional<Pixels> load(const std::string& path, const std::string& material);
    std::optional<Pixels> embedded(const std::string& path, const std::string& material);
    std::optional<std::filesystem::path> find_file(const std::string& name) const;
    // The external file `path` names, found and read (`label` names it for messages), or nullopt
    // (reported).
    std::optional<std::vector<std::byte>> external_file(const std::string& path, const std::string& material,
                                                        std::string& label);
    // N of a "*N" reference, or nullopt when it names no embedded texture.
    std::optional<size_t> embedded_index(const std::string& reference) const;

    const assbin::Scene& scene_;
    const ConvertOptions& options_;
    Report& report_;
    std::map<std::string, std::optional<Pixels>> decoded_;
    std::map<std::string, uint32_t> aliases_; // external names that mean an embedded texture
};

// The texture as it will be stored: level 0 first, down to 1 x 1, each level
// max(1, w >> i) x max(1, h >> i); `srgb` averages the first three channels in linear light.
std::vector<uint8_t> mip_chain(const Pixels& level0, bool srgb);

// BC5 blocks (libsquish) for every level of a 2-channel chain made by mip_chain.
std::vector<uint8_t> compress_bc5(const std::vector<uint8_t>& chain, uint32_t width, uint32_t height);

// BC7 blocks (bc7_encode.cpp) for every level of a 4-channel chain made by mip_chain, on `threads`
// threads (the same bytes for any count).
std::vector<uint8_t> compress_bc7(const std::vector<uint8_t>& chain, uint32_t width, uint32_t height,
                                  unsigned threads);

// One 4 x 4 block of RGBA texels (row by row) as a 16-byte BC7 block: by the AVX2 build of the
// encoder where the processor has AVX2, else the portable one (the same bytes either way).
void encode_bc7_block(const uint8_t rgba[64], uint8_t block[16]);
// Each build on its own, for the test that they agree: the AVX2 one returns false (and writes
// nothing) where it was not built or the processor lacks AVX2.
void encode_bc7_block_portable(const uint8_t rgba[64], uint8_t block[16]);
bool encode_bc7_block_avx2(const uint8_t rgba[64], uint8_t block[16]);
bool bc7_avx2_available();

// The image scaled (stb_image_resize; gamma-correct when `srgb`) to powers of two no larger than
// `max_size` on either side; the image itself when it already fits and is a power of two.
Pixels limit_size(const Pixels& image, uint32_t max_size, bool srgb);

// Every material's three textures, built from its images where it has them and from its factors
// otherwise, identical textures stored once; replaces the model's materials and textures.
void build_materials_2025(const assbin::Scene& scene, const std::vector<MaterialKeys>& materials,
                          const ConvertOptions& options, aem::Model& model, Report& report);

} // namespace assbin::converter::detail
