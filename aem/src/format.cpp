// Counts and sizes: what the header says about the rest of the file.
#include <aem/format.hpp>
#include <aem/io.hpp>
#include <aem/model.hpp>

#include <limits>
#include <string>

namespace aem {

static_assert(kHeaderSize == 3 + 1 + 9 * 4);
static_assert(kVertexSize == (3 + 3 + 3 + 3 + 2) * 4 + 4 * 4 + 4 * 4 + 4);
static_assert(kBoneSize == 16 * 4 + 4 + kBonePaddingSize);
static_assert(kAnimationSize == kNameFieldSize + 4 + 4);
static_assert(kSequenceSize == 6 * 4);
static_assert(kKeyframeSize == 5 * 4);

uint64_t file_size_for(const Counts& counts) noexcept {
    // Each product is below 2^32 · 136 < 2^40 and there are nine of them: no 64-bit overflow.
    return kHeaderSize + uint64_t{counts.vertices} * kVertexSize + uint64_t{counts.indices} * kIndexSize +
           uint64_t{counts.textures} * kTextureSize + uint64_t{counts.meshes} * kMeshSize +
           uint64_t{counts.materials} * kMaterialSize + uint64_t{counts.bones} * kBoneSize +
           uint64_t{counts.animations} * kAnimationSize + uint64_t{counts.sequences} * kSequenceSize +
           uint64_t{counts.keyframes} * kKeyframeSize;
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
    }
    return "unknown";
}

} // namespace aem
