// Counts and sizes: what the header says about the rest of the file.
#include <aem/format.hpp>
#include <aem/io.hpp>
#include <aem/model.hpp>

#include <algorithm>
#include <bit>
#include <limits>
#include <string>

namespace aem {

static_assert(kHeaderSize == 3 + 1 + 9 * 4);
static_assert(kVertexSize == (3 + 3 + 3 + 3 + 2) * 4 + 4 * 4 + 4 * 4 + 4);
static_assert(kBoneSize == 16 * 4 + 4 + kBonePaddingSize);
static_assert(kAnimationSize == kNameFieldSize + 4 + 4);
static_assert(kSequenceSize == 6 * 4);
static_assert(kKeyframeSize == 5 * 4);
static_assert(kHeaderSize2025 == 4 + 4 + 4 + 8 + 7 * 4 + 4);
static_assert(kVertexSize2025 == kVertexSize - 4);
static_assert(kTextureSize2025 == 8 + 6 * 4);
static_assert(kJointSize2025 == kNameFieldSize + 16 * 4 + 4);
static_assert(kAnimationSize2025 == kNameFieldSize + 4);

uint64_t file_size_for(const Counts& counts) noexcept {
    // Each product is below 2^32 · 136 < 2^40 and there are nine of them: no 64-bit overflow.
    return kHeaderSize + uint64_t{counts.vertices} * kVertexSize + uint64_t{counts.indices} * kIndexSize +
           uint64_t{counts.textures} * kTextureSize + uint64_t{counts.meshes} * kMeshSize +
           uint64_t{counts.materials} * kMaterialSize + uint64_t{counts.bones} * kBoneSize +
           uint64_t{counts.animations} * kAnimationSize + uint64_t{counts.sequences} * kSequenceSize +
           uint64_t{counts.keyframes} * kKeyframeSize;
}

uint64_t file_size_for(const Counts2025& counts) noexcept {
    const uint64_t sections =
        kHeaderSize2025 + uint64_t{counts.vertices} * kVertexSize2025 +
        uint64_t{counts.indices} * kIndexSize + uint64_t{counts.textures} * kTextureSize2025 +
        uint64_t{counts.meshes} * kMeshSize + uint64_t{counts.materials} * kMaterialSize2025 +
        uint64_t{counts.joints} * kJointSize2025 + uint64_t{counts.animations} * kAnimationSize2025 +
        uint64_t{counts.tracks} * kTrackSize2025 + uint64_t{counts.keyframes} * kKeyframeSize;
    const uint64_t most = std::numeric_limits<uint64_t>::max();
    return counts.image_bytes > most - sections ? most : sections + counts.image_bytes;
}

uint32_t mip_level_count(uint32_t width, uint32_t height) noexcept {
    if (width == 0 || height == 0) return 0;
    return static_cast<uint32_t>(std::bit_width(std::max(width, height)));
}

uint64_t mip_level_bytes(uint32_t width, uint32_t height, uint32_t channels, uint32_t compression) noexcept {
    if (compression == 0) return uint64_t{width} * height * channels;
    return ((uint64_t{width} + 3) / 4) * ((uint64_t{height} + 3) / 4) * 16;
}

uint64_t mip_chain_bytes(uint32_t width, uint32_t height, uint32_t channels, uint32_t compression) noexcept {
    uint64_t total = 0; // at most 2^64 / 3 for 2^32 x 2^32 x 4: no overflow
    const uint32_t levels = mip_level_count(width, height);
    for (uint32_t level = 0; level < levels; ++level) {
        total += mip_level_bytes(std::max(1u, width >> level), std::max(1u, height >> level), channels,
                                 compression);
    }
    return total;
}

namespace {

uint32_t checked_count(size_t size, const char* section) {
    if (size > std::numeric_limits<uint32_t>::max()) {
        throw Error(ErrorCode::CountTooLarge, std::string("the model has ") + std::to_string(size) + " " +
                                                  section + "; an AEM count holds at most 4,294,967,295");
    }
    return static_cast<uint32_t>(size);
}

} // namespace

Counts counts_of(const Model& model) {
    Counts counts;
    counts.vertices = checked_count(model.vertices.size(), "vertices");
    counts.indices = checked_count(model.indices.size(), "indices");
    counts.textures = checked_count(model.textures.size(), "textures");
    counts.meshes = checked_count(model.meshes.size(), "meshes");
    counts.materials = checked_count(model.materials.size(), "materials");
    counts.bones = checked_count(model.bones.size(), "bones");
    counts.animations = checked_count(model.animations.size(), "animations");
    counts.sequences = checked_count(model.sequences.size(), "sequences");
    counts.keyframes = checked_count(model.keyframes.size(), "keyframes");
    return counts;
}

Counts2025 counts_2025_of(const Model& model) {
    Counts2025 counts;
    counts.vertices = checked_count(model.vertices.size(), "vertices");
    counts.indices = checked_count(model.indices.size(), "indices");
    counts.image_bytes = model.image_buffer.size();
    counts.textures = checked_count(model.textures.size(), "textures");
    counts.meshes = checked_count(model.meshes.size(), "meshes");
    counts.materials = checked_count(model.materials.size(), "materials");
    counts.joints = checked_count(model.bones.size(), "joints");
    counts.animations = checked_count(model.animations.size(), "animations");
    counts.tracks = checked_count(model.sequences.size(), "tracks");
    counts.keyframes = checked_count(model.keyframes.size(), "keyframes");
    return counts;
}

uint64_t file_size_of(const Model& model) {
    return model.layout == Layout::Edition2025 ? file_size_for(counts_2025_of(model))
                                               : file_size_for(counts_of(model));
}

const char* error_code_name(ErrorCode code) {
    switch (code) {
    case ErrorCode::Io:
        return "io";
    case ErrorCode::NotAem:
        return "not-aem";
    case ErrorCode::UnsupportedVersion:
        return "unsupported-version";
    case ErrorCode::Truncated:
        return "truncated";
    case ErrorCode::TrailingBytes:
        return "trailing-bytes";
    case ErrorCode::TooLarge:
        return "too-large";
    case ErrorCode::CountTooLarge:
        return "count-too-large";
    case ErrorCode::NameTooLong:
        return "name-too-long";
    case ErrorCode::LayoutMismatch:
        return "layout-mismatch";
    }
    return "unknown";
}

} // namespace aem
