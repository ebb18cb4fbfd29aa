// Every invariant ../shared/AEM-FORMAT.md lists for a valid AEM file, checked on a loaded model.
#pragma once

#include <aem/model.hpp>

#include <string>
#include <vector>

namespace aem {

// Weights of a skinned vertex must sum to 1 within this (AEM-FORMAT.md).
inline constexpr float kWeightSumTolerance = 1e-5f;
// A rotation key is a unit quaternion when | |q| - 1 | is at most this. The page gives no number;
// this admits float rounding of a normalised quaternion and rejects anything a user could see.
inline constexpr float kUnitQuaternionTolerance = 1e-4f;

// One rule per invariant; rule_name() gives the stable kebab-case name tools print.
enum class Rule {
    IndexOutOfRange,               // an index is not below the vertex count
    IndexCountNotTriangles,        // the index count is not a multiple of 3
    MeshRangeOutOfBounds,          // [first, first + count) leaves the index section
    MeshCountNotTriangles,         // a mesh's index count is not a multiple of 3
    MeshMaterialOutOfRange,        // a mesh's material is not below the material count
    MaterialTextureOutOfRange,     // a texture slot is neither -1 nor below the texture count
    VertexBoneOutOfRange,          // a used bone slot's index is not below the bone count
    BoneSlotWeight,                // an unused slot (-1) has a weight, or a used slot a weight <= 0
    WeightSum,                     // a skinned vertex's weights do not sum to 1
    ExtraBoneOutOfRange,           // the extra bone index is neither -1 nor below the bone count
    BoneParentNotEarlier,          // a parent index is neither -1 nor an earlier bone
    SequenceCount,                 // sequences != animations × bones
    AnimationSequencesOutOfBounds, // an animation's `bones` sequences leave the sequence section
    AnimationSequencesOverlap,     // two animations claim the same sequence
    KeyRangeOutOfBounds,           // a channel's keyframes leave the keyframe section
    EmptyChannel,                  // a channel has no keyframe, so it cannot be sampled
    KeyTimesNotIncreasing,         // a channel's key times are not strictly increasing
    RotationNotUnit,               // a rotation key is not a unit quaternion
    VectorKeyWNotZero,             // a position or scale key has w != 0
    NonFiniteFloat,                // a NaN or infinity in any float field
    BadName,                       // a name too long for its 128-byte field, or holding a NUL
    // The 2025 layout's own invariants (AEM-FORMAT.md "The 2025 layout"):
    TextureFormat,           // a size of 0, a wrap mode past 2, channels not 2 or 4, a bad compression
    TextureChainOutOfBounds, // the texture's MIP chain leaves the image buffer
    MaterialTextureMissing,  // a texture slot is not a texture (the layout has no "none")
    MaterialType,            // a material type other than 0 (opaque) and 1 (transparent)
    ExtraBoneInLayout,       // a vertex has an extra bone index, which the layout cannot store
    TrackNotContiguous,      // a track's rotation or scale keys do not follow its other keys
    TrackStart,              // an animation's tracks do not start at animation × joints
};

// A short stable name: "index-out-of-range", "bone-parent-not-earlier", ...
const char* rule_name(Rule rule);

struct Violation {
    Rule rule;
    std::string location; // where in the model: "indices[7]", "sequences[3].rotation[1]", ...
    std::string message;  // one sentence with the offending values
};

// Every violation in `model`, in section order; empty when the model is valid. Never throws on
// bad content (only std::bad_alloc). Checks that need a reference to be in range (for example
// the keys of a channel whose range leaves the keyframe section) are skipped for that element,
// so one fault is reported once.
std::vector<Violation> validate(const Model& model);

// "location: message [rule-name]".
std::string to_string(const Violation& violation);

} // namespace aem
