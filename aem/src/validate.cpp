// The validator: one check per invariant of AEM-FORMAT.md, every violation reported with where it
// is, section by section. A reference that is out of range is reported once, and the checks that
// would need to follow it are skipped.
#include "layouts.hpp"

#include <aem/validate.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <optional>
#include <utility>

namespace aem {

namespace {

// "vertices[3]", or "vertices[3].normal" with a field. Built only when a violation is reported:
// validation runs over millions of elements.
std::string indexed(std::string_view section, uint64_t index, std::string_view field = {}) {
    return std::string(section) + "[" + std::to_string(index) + "]" + std::string(field);
}

std::string number(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.9g", value);
    return buffer;
}

std::string numbers(const float* values, size_t count) {
    std::string text = "(";
    for (size_t i = 0; i < count; ++i)
        text += (i > 0 ? ", " : "") + number(values[i]);
    return text + ")";
}

bool all_finite(const float* values, size_t count) {
    return std::all_of(values, values + count, [](float v) { return std::isfinite(v); });
}

// True when `index` is -1 or names one of `count` elements.
bool is_none_or_below(int64_t index, uint64_t count) {
    return index == kNone || (index >= 0 && static_cast<uint64_t>(index) < count);
}

// For each fault a key can have, table[k] is the first keyframe index >= k with that fault, or
// the keyframe count when there is none (the tables have one more entry than there are keys).
// A channel then visits only its faulty keys. Keys with a NaN or infinity are not judged here:
// the per-keyframe finiteness check reports them.
struct KeyFaults {
    std::vector<size_t> time_not_after_previous; // keyframes[k].time <= keyframes[k-1].time
    std::vector<size_t> not_unit;                // not a unit quaternion (matters for rotation keys)
    std::vector<size_t> w_not_zero;              // w != 0 (matters for position and scale keys)

    KeyFaults() = default;

    explicit KeyFaults(const std::vector<Keyframe>& keys) {
        const auto finite = [&](size_t k) {
            return std::isfinite(keys[k].time) && all_finite(keys[k].value.data(), 4);
        };
        time_not_after_previous = next_fault(keys.size(), [&](size_t k) {
            return k > 0 && finite(k) && std::isfinite(keys[k - 1].time) && keys[k].time <= keys[k - 1].time;
        });
        not_unit = next_fault(keys.size(), [&](size_t k) {
            return finite(k) &&
                   std::abs(keys[k].value.cast<double>().norm() - 1.0) > kUnitQuaternionTolerance;
        });
        w_not_zero = next_fault(keys.size(), [&](size_t k) { return finite(k) && keys[k].value.w() != 0; });
    }

    template <class IsFault>
    static std::vector<size_t> next_fault(size_t count, IsFault is_fault) {
        std::vector<size_t> next(count + 1, count);
        for (size_t k = count; k-- > 0;)
            next[k] = is_fault(k) ? k : next[k + 1];
        return next;
    }
};

class Checker {
  public:
    explicit Checker(const Model& model) : model_(model) {}

    std::vector<Violation> run() {
        for (size_t v = 0; v < model_.vertices.size(); ++v)
            check_vertex(v);
        check_indices();
        for (size_t t = 0; t < model_.textures.size(); ++t) {
            check_name(model_.textures[t].file_name, "textures", t, ".file_name");
        }
        for (size_t m = 0; m < model_.meshes.size(); ++m)
            check_mesh(m);
        for (size_t m = 0; m < model_.materials.size(); ++m)
            check_material(m);
        for (size_t b = 0; b < model_.bones.size(); ++b) {
            check_bone(b);
            check_name(model_.bones[b].name, "bones", b, ".name");
        }
        check_animations();
        check_sequences();
        for (size_t k = 0; k < model_.keyframes.size(); ++k)
            check_keyframe_finite(k);
        return std::move(violations_);
    }

  private:
    void report(Rule rule, std::string location, std::string message) {
        violations_.push_back({rule, std::move(location), std::move(message)});
    }

    void check_finite(const float* values, size_t count, std::string_view section, uint64_t index,
                      std::string_view field) {
        if (!all_finite(values, count)) {
            report(Rule::NonFiniteFloat, indexed(section, index, field),
                   "holds a NaN or infinity: " + numbers(values, count));
        }
    }

    void check_name(const std::string& name, std::string_view section, uint64_t index,
                    std::string_view field) {
        if (name.size() > kMaxNameLength) {
            report(Rule::BadName, indexed(section, index, field),
                   "is " + std::to_string(name.size()) +
                       " bytes; the 128-byte field holds at most 127 and a NUL");
        } else if (name.find('\0') != std::string::npos) {
            report(Rule::BadName, indexed(section, index, field), "contains a NUL byte before its end");
        }
    }

    void check_vertex(size_t v) {
        const Vertex& vertex = model_.vertices[v];
        check_finite(vertex.position.data(), 3, "vertices", v, ".position");
        check_finite(vertex.normal.data(), 3, "vertices", v, ".normal");
        check_finite(vertex.tangent.data(), 3, "vertices", v, ".tangent");
        check_finite(vertex.bitangent.data(), 3, "vertices", v, ".bitangent");
        check_finite(vertex.uv.data(), 2, "vertices", v, ".uv");
        check_finite(vertex.bone_weights.data(), 4, "vertices", v, ".bone_weights");
        check_bone_slots(v, vertex);
        if (!is_none_or_below(vertex.extra_bone, model_.bones.size())) {
            report(Rule::ExtraBoneOutOfRange, indexed("vertices", v, ".extra_bone"),
                   "is " + std::to_string(vertex.extra_bone) + "; it must be -1 or below the bone count " +
                       std::to_string(model_.bones.size()));
        }
    }

    void check_bone_slots(size_t v, const Vertex& vertex) {
        bool has_bone = false;
        bool weights_finite = true;
        double sum = 0;
        for (size_t s = 0; s < 4; ++s) {
            const int32_t bone = vertex.bone_indices[s];
            const float weight = vertex.bone_weights[s];
            if (!std::isfinite(weight)) { // reported by check_finite
                weights_finite = false;
                continue;
            }
            const auto slot = [&](const char* field) {
                return indexed("vertices", v, "." + std::string(field) + "[" + std::to_string(s) + "]");
            };
            if (bone == kNone) {
                if (weight != 0) {
                    report(Rule::BoneSlotWeight, slot("bone_weights"),
                           "is " + number(weight) +
                               " in an unused slot (bone index -1); unused slots weigh 0");
                }
                continue;
            }
            has_bone = true;
            sum += weight;
            if (!is_none_or_below(bone, model_.bones.size())) {
                report(Rule::VertexBoneOutOfRange, slot("bone_indices"),
                       "is " + std::to_string(bone) + "; a used slot's bone must be below the bone count " +
                           std::to_string(model_.bones.size()));
            }
            if (weight <= 0) {
                report(Rule::BoneSlotWeight, slot("bone_weights"),
                       "is " + number(weight) + " for bone " + std::to_string(bone) +
                           "; a used slot weighs more than 0 (an unused one has index -1)");
            }
        }
        if (has_bone && weights_finite && std::abs(sum - 1.0) > kWeightSumTolerance) {
            report(Rule::WeightSum, indexed("vertices", v, ".bone_weights"),
                   "sum to " + number(sum) +
                       ", not 1 (tolerance 1e-5): " + numbers(vertex.bone_weights.data(), 4));
        }
    }

    void check_indices() {
        const uint64_t vertex_count = model_.vertices.size();
        for (size_t i = 0; i < model_.indices.size(); ++i) {
            if (model_.indices[i] >= vertex_count) {
                report(Rule::IndexOutOfRange, indexed("indices", i),
                       "is " + std::to_string(model_.indices[i]) + "; the model has " +
                           std::to_string(vertex_count) + " vertices");
            }
        }
        if (model_.indices.size() % 3 != 0) {
            report(Rule::IndexCountNotTriangles, "indices",
                   "count " + std::to_string(model_.indices.size()) +
                       " is not a multiple of 3 (triangle lists only)");
        }
    }

    void check_mesh(size_t m) {
        const Mesh& mesh = model_.meshes[m];
        const uint64_t end = uint64_t{mesh.first_index} + mesh.index_count;
        if (end > model_.indices.size()) {
            report(Rule::MeshRangeOutOfBounds, indexed("meshes", m),
                   "index range [" + std::to_string(mesh.first_index) + ", " + std::to_string(end) +
                       ") leaves the index section of " + std::to_string(model_.indices.size()) + " indices");
        }
        if (mesh.index_count % 3 != 0) {
            report(Rule::MeshCountNotTriangles, indexed("meshes", m),
                   "index count " + std::to_string(mesh.index_count) + " is not a multiple of 3");
        }
        if (mesh.material >= model_.materials.size()) {
            report(Rule::MeshMaterialOutOfRange, indexed("meshes", m, ".material"),
                   "is " + std::to_string(mesh.material) + "; the model has " +
                       std::to_string(model_.materials.size()) + " materials");
        }
    }

    void check_material(size_t m) {
        const Material& material = model_.materials[m];
        const std::pair<const char*, int32_t> slots[] = {{"base_color_texture", material.base_color_texture},
                                                         {"normal_texture", material.normal_texture},
                                                         {"orm_texture", material.orm_texture}};
        for (const auto& [slot, texture] : slots) {
            if (!is_none_or_below(texture, model_.textures.size())) {
                report(Rule::MaterialTextureOutOfRange, indexed("materials", m, "." + std::string(slot)),
                       "is " + std::to_string(texture) + "; it must be -1 or below the texture count " +
                           std::to_string(model_.textures.size()));
            }
        }
    }

    void check_bone(size_t b) {
        const Bone& bone = model_.bones[b];
        check_finite(bone.inverse_bind.data(), 16, "bones", b, ".inverse_bind");
        if (is_none_or_below(bone.parent, b)) return;
        std::string why;
        if (bone.parent == static_cast<int64_t>(b)) {
            why = "is the bone itself";
        } else if (bone.parent >= 0 && static_cast<uint64_t>(bone.parent) < model_.bones.size()) {
            why = "comes after its child; parents must precede children";
        } else {
            why = "is not a bone (the model has " + std::to_string(model_.bones.size()) + ")";
        }
        report(Rule::BoneParentNotEarlier, indexed("bones", b, ".parent"),
               std::to_string(bone.parent) + " " + why);
    }

    // Sequence ranges of animations, and which (animation, bone) each sequence belongs to.
    void check_animations() {
        const uint64_t bones = model_.bones.size();
        const uint64_t expected = model_.animations.size() * bones;
        if (model_.sequences.size() != expected) {
            report(Rule::SequenceCount, "sequences",
                   "count " + std::to_string(model_.sequences.size()) +
                       " is not animations × bones = " + std::to_string(model_.animations.size()) + " × " +
                       std::to_string(bones) + " = " + std::to_string(expected));
        }
        std::vector<std::pair<uint32_t, size_t>> starts; // (first sequence, animation) of in-bounds ones
        for (size_t a = 0; a < model_.animations.size(); ++a) {
            const Animation& animation = model_.animations[a];
            check_name(animation.name, "animations", a, ".name");
            check_finite(&animation.duration, 1, "animations", a, ".duration");
            const uint64_t end = uint64_t{animation.first_sequence} + bones;
            if (end > model_.sequences.size()) {
                report(Rule::AnimationSequencesOutOfBounds, indexed("animations", a),
                       "sequences [" + std::to_string(animation.first_sequence) + ", " + std::to_string(end) +
                           ") leave the sequence section of " + std::to_string(model_.sequences.size()));
            } else if (bones > 0) {
                starts.emplace_back(animation.first_sequence, a);
            }
        }
        std::sort(starts.begin(), starts.end());
        check_overlaps(starts, bones);
        assign_owners(starts, bones);
    }

    // All ranges have the same length, so once sorted only neighbours can overlap.
    void check_overlaps(const std::vector<std::pair<uint32_t, size_t>>& starts, uint64_t bones) {
        for (size_t i = 1; i < starts.size(); ++i) {
            const auto [first, a] = starts[i];
            const auto [previous_first, previous] = starts[i - 1];
            if (first < previous_first + bones) {
                report(Rule::AnimationSequencesOverlap, indexed("animations", a),
                       "sequences [" + std::to_string(first) + ", " + std::to_string(first + bones) +
                           ") overlap those of animation " + std::to_string(previous) + " [" +
                           std::to_string(previous_first) + ", " + std::to_string(previous_first + bones) +
                           ")");
            }
        }
    }

    // Which (animation, bone) each sequence belongs to, for messages. Each sequence is assigned
    // once, so overlapping animations cannot make this cost animations × bones.
    void assign_owners(const std::vector<std::pair<uint32_t, size_t>>& starts, uint64_t bones) {
        owner_.assign(model_.sequences.size(), std::nullopt);
        uint64_t covered = 0;
        for (const auto& [first, a] : starts) {
            for (uint64_t s = std::max<uint64_t>(first, covered); s < first + bones; ++s) {
                owner_[s] = std::make_pair(a, static_cast<uint32_t>(s - first));
            }
            covered = std::max<uint64_t>(covered, first + bones);
        }
    }

    std::string owner_of(size_t s) const {
        if (!owner_[s]) return "";
        const auto [a, b] = *owner_[s];
        return " (animation " + std::to_string(a) + " \"" + model_.animations[a].name + "\", bone " +
               std::to_string(b) + ")";
    }

    void check_sequences() {
        faults_ = KeyFaults(model_.keyframes);
        for (size_t s = 0; s < model_.sequences.size(); ++s) {
            const Sequence& sequence = model_.sequences[s];
            check_channel(s, ".position", sequence.position, Rule::VectorKeyWNotZero);
            check_channel(s, ".rotation", sequence.rotation, Rule::RotationNotUnit);
            check_channel(s, ".scale", sequence.scale, Rule::VectorKeyWNotZero);
        }
    }

    // `value_rule` is the check this kind of channel's values need (unit or w = 0).
    void check_channel(size_t s, std::string_view channel, const KeyRange& range, Rule value_rule) {
        const uint64_t end = uint64_t{range.first} + range.count;
        if (end > model_.keyframes.size()) {
            report(Rule::KeyRangeOutOfBounds, indexed("sequences", s, channel),
                   "keyframes [" + std::to_string(range.first) + ", " + std::to_string(end) +
                       ") leave the keyframe section of " + std::to_string(model_.keyframes.size()) +
                       owner_of(s));
            return;
        }
        if (range.count == 0) {
            report(Rule::EmptyChannel, indexed("sequences", s, channel),
                   "has no keyframe, so it cannot be sampled" + owner_of(s));
            return;
        }
        // Visit only the faulty keys: channels may share keyframes, and must not multiply the work.
        for (size_t k = faults_.time_not_after_previous[range.first + 1]; k < end;
             k = faults_.time_not_after_previous[k + 1]) {
            report_key(s, channel, range, k, Rule::KeyTimesNotIncreasing);
        }
        const std::vector<size_t>& value_faults =
            value_rule == Rule::RotationNotUnit ? faults_.not_unit : faults_.w_not_zero;
        for (size_t k = value_faults[range.first]; k < end; k = value_faults[k + 1]) {
            report_key(s, channel, range, k, value_rule);
        }
    }

    void report_key(size_t s, std::string_view channel, const KeyRange& range, size_t k, Rule rule) {
        const Keyframe& key = model_.keyframes[k];
        const std::string location =
            indexed("sequences", s, std::string(channel) + "[" + std::to_string(k - range.first) + "]");
        const std::string keyframe = " (keyframes[" + std::to_string(k) + "])" + owner_of(s);
        if (rule == Rule::KeyTimesNotIncreasing) {
            report(rule, location,
                   "time " + number(key.time) + " s is not after the previous key's " +
                       number(model_.keyframes[k - 1].time) + " s" + keyframe);
        } else if (rule == Rule::RotationNotUnit) {
            report(rule, location,
                   "quaternion " + numbers(key.value.data(), 4) + " has length " +
                       number(key.value.cast<double>().norm()) + ", not 1" + keyframe);
        } else {
            report(rule, location,
                   "w is " + number(key.value.w()) + "; position and scale keys carry w = 0" + keyframe);
        }
    }

    void check_keyframe_finite(size_t k) {
        const Keyframe& key = model_.keyframes[k];
        check_finite(&key.time, 1, "keyframes", k, ".time");
        check_finite(key.value.data(), 4, "keyframes", k, ".value");
    }

    const Model& model_;
    std::vector<Violation> violations_;
    std::vector<std::optional<std::pair<size_t, uint32_t>>> owner_; // per sequence: (animation, bone)
    KeyFaults faults_;
};

} // namespace

std::vector<Violation> validate(const Model& model) {
    std::vector<Violation> violations = Checker(model).run();
    if (model.layout == Layout::Edition2025) detail::check_2025_invariants(model, violations);
    return violations;
}

const char* rule_name(Rule rule) {
    // In the order of enum Rule.
    static constexpr const char* kNames[] = {
        "index-out-of-range",                // IndexOutOfRange
        "index-count-not-triangles",         // IndexCountNotTriangles
        "mesh-range-out-of-bounds",          // MeshRangeOutOfBounds
        "mesh-count-not-triangles",          // MeshCountNotTriangles
        "mesh-material-out-of-range",        // MeshMaterialOutOfRange
        "material-texture-out-of-range",     // MaterialTextureOutOfRange
        "vertex-bone-out-of-range",          // VertexBoneOutOfRange
        "bone-slot-weight",                  // BoneSlotWeight
        "weight-sum",                        // WeightSum
        "extra-bone-out-of-range",           // ExtraBoneOutOfRange
        "bone-parent-not-earlier",           // BoneParentNotEarlier
        "sequence-count",                    // SequenceCount
        "animation-sequences-out-of-bounds", // AnimationSequencesOutOfBounds
        "animation-sequences-overlap",       // AnimationSequencesOverlap
        "key-range-out-of-bounds",           // KeyRangeOutOfBounds
        "empty-channel",                     // EmptyChannel
        "key-times-not-increasing",          // KeyTimesNotIncreasing
        "rotation-not-unit",                 // RotationNotUnit
        "vector-key-w-not-zero",             // VectorKeyWNotZero
        "non-finite-float",                  // NonFiniteFloat
        "bad-name",                          // BadName
        "texture-format",                    // TextureFormat
        "texture-chain-out-of-bounds",       // TextureChainOutOfBounds
        "material-texture-missing",          // MaterialTextureMissing
        "material-type",                     // MaterialType
        "extra-bone-in-layout",              // ExtraBoneInLayout
        "track-not-contiguous",              // TrackNotContiguous
        "track-start",                       // TrackStart
    };
    static_assert(std::size(kNames) == static_cast<size_t>(Rule::TrackStart) + 1, "a name per rule");
    const auto index = static_cast<size_t>(rule);
    return index < std::size(kNames) ? kNames[index] : "unknown";
}

std::string to_string(const Violation& violation) {
    return violation.location + ": " + violation.message + " [" + rule_name(violation.rule) + "]";
}

} // namespace aem
