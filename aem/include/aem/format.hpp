// AEM version 1 on disk: magic, version, record sizes and the file size the header's counts imply.
// ../shared/AEM-FORMAT.md is the reference; every constant here is a number from its layout table.
#pragma once

#include <cstddef>
#include <cstdint>

namespace aem {

inline constexpr char kMagic[3] = {'A', 'E', 'M'};
inline constexpr uint8_t kVersion = 1;

inline constexpr size_t kHeaderSize = 40; // magic, version byte, nine uint32 counts
inline constexpr size_t kVertexSize = 92;
inline constexpr size_t kIndexSize = 4;
inline constexpr size_t kTextureSize = 128;
inline constexpr size_t kMeshSize = 12;
inline constexpr size_t kMaterialSize = 12;
inline constexpr size_t kBoneSize = 80;
inline constexpr size_t kAnimationSize = 136;
inline constexpr size_t kSequenceSize = 24;
inline constexpr size_t kKeyframeSize = 20;

// The 2025 layout (AEM-FORMAT.md "The 2025 layout"): same magic and version byte, other sections.
inline constexpr size_t kHeaderSize2025 = 52; // magic, version, u32 V, u32 I, u64 image bytes, 7 u32, pad
inline constexpr size_t kVertexSize2025 = 88; // no extra bone index
inline constexpr size_t kTextureSize2025 = 32;
inline constexpr size_t kMaterialSize2025 = 16;
inline constexpr size_t kJointSize2025 = 196;
inline constexpr size_t kAnimationSize2025 = 132;
inline constexpr size_t kTrackSize2025 = 16;

// Texture file names and animation names live in 128-byte NUL-terminated fields.
inline constexpr size_t kNameFieldSize = 128;
inline constexpr size_t kMaxNameLength = kNameFieldSize - 1;

// The bones record ends in 12 bytes of zero padding after the matrix and the parent index.
inline constexpr size_t kBonePaddingSize = 12;

// The reader maps material texture slot 255 to "none" when the file has at most this many
// textures: the original specification's table says 255 means undefined (its code uses -1).
inline constexpr uint32_t kLegacyNoTexture = 255;

// The nine counts of the header, in file order.
struct Counts {
    uint32_t vertices = 0;
    uint32_t indices = 0;
    uint32_t textures = 0;
    uint32_t meshes = 0;
    uint32_t materials = 0;
    uint32_t bones = 0;
    uint32_t animations = 0;
    uint32_t sequences = 0;
    uint32_t keyframes = 0;

    friend bool operator==(const Counts&, const Counts&) = default;
};

// 40 + 92·V + 4·I + 128·T + 12·M + 12·Mat + 80·B + 136·A + 24·S + 20·K, computed in 64 bits.
// Never overflows: nine 32-bit counts times records of at most 136 bytes stay below 2^44.
uint64_t file_size_for(const Counts& counts) noexcept;

// 2025 textures: a w x h level-0 texture has 1 + floor(log2(max(w, h))) levels, level i being
// max(1, w >> i) x max(1, h >> i); uncompressed a level takes width·height·channels bytes, BC5 and
// BC7 ceil(width/4)·ceil(height/4)·16. 0 for a zero width or height.
uint32_t mip_level_count(uint32_t width, uint32_t height) noexcept;
uint64_t mip_level_bytes(uint32_t width, uint32_t height, uint32_t channels, uint32_t compression) noexcept;
uint64_t mip_chain_bytes(uint32_t width, uint32_t height, uint32_t channels, uint32_t compression) noexcept;

// The 2025 header's counts, in file order (the image buffer's size is 64-bit).
struct Counts2025 {
    uint32_t vertices = 0;
    uint32_t indices = 0;
    uint64_t image_bytes = 0;
    uint32_t textures = 0;
    uint32_t meshes = 0;
    uint32_t materials = 0;
    uint32_t joints = 0;
    uint32_t animations = 0;
    uint32_t tracks = 0;
    uint32_t keyframes = 0;
    uint32_t padding = 0; // 0 in a well-formed file

    friend bool operator==(const Counts2025&, const Counts2025&) = default;
};

// 52 + 88·V + 4·I + B + 32·T + 12·M + 16·Mat + 196·J + 132·A + 16·Tr + 20·K; UINT64_MAX when the
// image-buffer size makes the sum overflow 64 bits (no file is that long).
uint64_t file_size_for(const Counts2025& counts) noexcept;

} // namespace aem
