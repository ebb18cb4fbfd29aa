// The validator: one check per invariant of AEM-FORMAT.md, every violation reported with where it
// is, section by section. A reference that is out of range is reported once, and the checks that
// would need to follow it are skipped.
#include <aem/validate.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

namespace aem {

namespace {

std::string indexed(std::string_view section, uint64_t index) {
    return std::string(section) + "[" + std::to_string(index) + "]";
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

class Checker {
  public:
    explicit Checker(const Model& model) : model_(model) {}

    std::vector<Violation> run() {
        for (size_t v = 0; v < model_.vertices.size(); ++v)
            check_vertex(v);
        check_indices();
        for (size_t t = 0; t < model_.textures.size(); ++t) {
            check_name(indexed("textures", t) + ".file_name", model_.textures[t].file_name);
        }
        for (size_t m = 0; m < model_.meshes.size(); ++m)
            check_mesh(m);
        for (size_t m = 0; m < model_.materials.size(); ++m)
            check_material(m);
        for (size_t b = 0; b < model_.bones.size(); ++b)
            check_bone(b);
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

    void check_finite(const std::string& location, const float* values, size_t count) {
        if (!all_finite(values, count)) {
            report(Rule::NonFiniteFloat, location, "holds a NaN or infinity: " + numbers(values, count));
        }
    }

    void check_name(const std::string& location, const std::string& name) {
        if (name.size() > kMaxNameLength) {
            report(Rule::BadName, location,
                   "is " + std::to_string(name.size()) +
                       " bytes; the 128-byte field holds at most 127 and a NUL");
        } else if (name.find('\0') != std::string::npos) {
            report(Rule::BadName, location, "contains a NUL byte before its end");
        }
    }

    void check_vertex(size_t v) {
        const Vertex& vertex = model_.vertices[v];
        const std::string where = indexed("vertices", v);
        check_finite(where + ".position", vertex.position.data(), 3);
        check_finite(where + ".normal", vertex.normal.data(), 3);
        check_finite(where + ".tangent", vertex.tangent.data(), 3);
        check_finite(where + ".bitangent", vertex.bitangent.data(), 3);
        check_finite(where + ".uv", vertex.uv.data(), 2);
        check_finite(where + ".bone_weights", vertex.bone_weights.data(), 4);
        check_bone_slots(where, vertex);
        if (!is_none_or_below(vertex.extra_bone, model_.bones.size())) {
            report(Rule::ExtraBoneOutOfRange, where + ".extra_bone",
                   "is " + std::to_string(vertex.extra_bone) + "; it must be -1 or below the bone count " +
                       std::to_string(model_.bones.size()));
        }
    }

    void check_bone_slots(const std::string& where, const Vertex& vertex) {
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
            const std::string slot = where + ".bone_weights[" + std::to_string(s) + "]";
            if (bone == kNone) {
                if (weight != 0) {
                    report(Rule::BoneSlotWeight, slot,
                           "is " + number(weight) +
                               " in an unused slot (bone index -1); unused slots weigh 0");
                }
                continue;
            }
            has_bone = true;
            sum += weight;
            if (!is_none_or_below(bone, model_.bones.size())) {
                report(Rule::VertexBoneOutOfRange, where + ".bone_indices[" + std::to_string(s) + "]",
                       "is " + std::to_string(bone) + "; a used slot's bone must be below the bone count " +
                           std::to_string(model_.bones.size()));
            }
            if (weight <= 0) {
                report(Rule::BoneSlotWeight, slot,
                       "is " + number(weight) + " for bone " + std::to_string(bone) +
                           "; a used slot weighs more than 0 (an unused one has index -1)");
            }
        }
        if (has_bone && weights_finite && std::abs(sum - 1.0) > kWeightSumTolerance) {
            report(Rule::WeightSum, where + ".bone_weights",
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
        const std::string where = indexed("meshes", m);
        const uint64_t end = uint64_t{mesh.first_index} + mesh.index_count;
        if (end > model_.indices.size()) {
            report(Rule::MeshRangeOutOfBounds, where,
                   "index range [" + std::to_string(mesh.first_index) + ", " + std::to_string(end) +
                       ") leaves the index section of " + std::to_string(model_.indices.size()) + " indices");
        }
        if (mesh.index_count % 3 != 0) {
            report(Rule::MeshCountNotTriangles, where,
                   "index count " + std::to_string(mesh.index_count) + " is not a multiple of 3");
        }
        if (mesh.material >= model_.materials.size()) {
            report(Rule::MeshMaterialOutOfRange, where + ".material",
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
                report(Rule::MaterialTextureOutOfRange, indexed("materials", m) + "." + slot,
                       "is " + std::to_string(texture) + "; it must be -1 or below the texture count " +
                           std::to_string(model_.textures.size()));
            }
        }
    }

    void check_bone(size_t b) {
        const Bone& bone = model_.bones[b];
        const std::string where = indexed("bones", b);
        check_finite(where + ".inverse_bind", bone.inverse_bind.data(), 16);
        if (is_none_or_below(bone.parent, b)) return;
        std::string why;
        if (bone.parent == static_cast<int64_t>(b)) {
            why = "is the bone itself";
        } else if (bone.parent >= 0 && static_cast<uint64_t>(bone.parent) < model_.bones.size()) {
            why = "comes after its child; parents must precede children";
        } else {
            why = "is not a bone (the model has " + std::to_string(model_.bones.size()) + ")";
        }
        report(Rule::BoneParentNotEarlier, where + ".parent", std::to_string(bone.parent) + " " + why);
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
        owner_.assign(model_.sequences.size(), std::nullopt);
        std::vector<std::pair<uint32_t, size_t>> starts; // (first sequence, animation) of in-bounds ones
        for (size_t a = 0; a < model_.animations.size(); ++a) {
            const Animation& animation = model_.animations[a];
            const std::string where = indexed("animations", a);
            check_name(where + ".name", animation.name);
            check_finite(where + ".duration", &animation.duration, 1);
            const uint64_t end = uint64_t{animation.first_sequence} + bones;
            if (end > model_.sequences.size()) {
                report(Rule::AnimationSequencesOutOfBounds, where,
                       "sequences [" + std::to_string(animation.first_sequence) + ", " + std::to_string(end) +
                           ") leave the sequence section of " + std::to_string(model_.sequences.size()));
                continue;
            }
            for (uint32_t b = 0; b < bones; ++b)
                owner_[animation.first_sequence + b] = std::make_pair(a, b);
            if (bones > 0) starts.emplace_back(animation.first_sequence, a);
        }
        check_overlaps(starts, bones);
    }

    // All ranges have the same length, so after sorting only neighbours can overlap.
    void check_overlaps(std::vector<std::pair<uint32_t, size_t>>& starts, uint64_t bones) {
        std::sort(starts.begin(), starts.end());
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

    std::string owner_of(size_t s) const {
        if (!owner_[s]) return "";
        const auto [a, b] = *owner_[s];
        return " (animation " + std::to_string(a) + " \"" + model_.animations[a].name + "\", bone " +
               std::to_string(b) + ")";
    }

    void check_sequences() {
        for (size_t s = 0; s < model_.sequences.size(); ++s) {
            const Sequence& sequence = model_.sequences[s];
            const std::string where = indexed("sequences", s);
            check_channel(s, where + ".position", sequence.position, Channel::Vector);
            check_channel(s, where + ".rotation", sequence.rotation, Channel::Rotation);
            check_channel(s, where + ".scale", sequence.scale, Channel::Vector);
        }
    }

    enum class Channel { Vector, Rotation };

    void check_channel(size_t s, const std::string& where, const KeyRange& range, Channel channel) {
        const uint64_t end = uint64_t{range.first} + range.count;
        if (end > model_.keyframes.size()) {
            report(Rule::KeyRangeOutOfBounds, where,
                   "keyframes [" + std::to_string(range.first) + ", " + std::to_string(end) +
                       ") leave the keyframe section of " + std::to_string(model_.keyframes.size()) +
                       owner_of(s));
            return;
        }
        if (range.count == 0) {
            report(Rule::EmptyChannel, where, "has no keyframe, so it cannot be sampled" + owner_of(s));
            return;
        }
        for (uint32_t j = 0; j < range.count; ++j)
            check_key(s, where, range, j, channel);
    }

    void check_key(size_t s, const std::string& where, const KeyRange& range, uint32_t j, Channel channel) {
        const size_t k = size_t{range.first} + j;
        const Keyframe& key = model_.keyframes[k];
        if (!std::isfinite(key.time) || !all_finite(key.value.data(), 4)) return; // reported per keyframe
        const std::string location = where + "[" + std::to_string(j) + "]";
        const std::string keyframe = " (keyframes[" + std::to_string(k) + "])" + owner_of(s);
        const float previous_time = j > 0 ? model_.keyframes[k - 1].time : 0;
        if (j > 0 && std::isfinite(previous_time) && key.time <= previous_time) {
            report(Rule::KeyTimesNotIncreasing, location,
                   "time " + number(key.time) + " s is not after the previous key's " +
                       number(previous_time) + " s" + keyframe);
        }
        if (channel == Channel::Rotation) {
            const double length = key.value.cast<double>().norm();
            if (std::abs(length - 1.0) > kUnitQuaternionTolerance) {
                report(Rule::RotationNotUnit, location,
                       "quaternion " + numbers(key.value.data(), 4) + " has length " + number(length) +
                           ", not 1" + keyframe);
            }
        } else if (key.value.w() != 0) {
            report(Rule::VectorKeyWNotZero, location,
                   "w is " + number(key.value.w()) + "; position and scale keys carry w = 0" + keyframe);
        }
    }

    void check_keyframe_finite(size_t k) {
        const Keyframe& key = model_.keyframes[k];
        const std::string where = indexed("keyframes", k);
        check_finite(where + ".time", &key.time, 1);
        check_finite(where + ".value", key.value.data(), 4);
    }

    const Model& model_;
    std::vector<Violation> violations_;
    std::vector<std::optional<std::pair<size_t, uint32_t>>> owner_; // per sequence: (animation, bone)
};

} // namespace

std::vector<Violation> validate(const Model& model) {
    return Checker(model).run();
}

const char* rule_name(Rule rule) {
    switch (rule) {
    case Rule::IndexOutOfRange:
        return "index-out-of-range";
    case Rule::IndexCountNotTriangles:
        return "index-count-not-triangles";
    case Rule::MeshRangeOutOfBounds:
        return "mesh-range-out-of-bounds";
    case Rule::MeshCountNotTriangles:
        return "mesh-count-not-triangles";
    case Rule::MeshMaterialOutOfRange:
        return "mesh-material-out-of-range";
    case Rule::MaterialTextureOutOfRange:
        return "material-texture-out-of-range";
    case Rule::VertexBoneOutOfRange:
        return "vertex-bone-out-of-range";
    case Rule::BoneSlotWeight:
        return "bone-slot-weight";
    case Rule::WeightSum:
        return "weight-sum";
    case Rule::ExtraBoneOutOfRange:
        return "extra-bone-out-of-range";
    case Rule::BoneParentNotEarlier:
        return "bone-parent-not-earlier";
    case Rule::SequenceCount:
        return "sequence-count";
    case Rule::AnimationSequencesOutOfBounds:
        return "animation-sequences-out-of-bounds";
    case Rule::AnimationSequencesOverlap:
        return "animation-sequences-overlap";
    case Rule::KeyRangeOutOfBounds:
        return "key-range-out-of-bounds";
    case Rule::EmptyChannel:
        return "empty-channel";
    case Rule::KeyTimesNotIncreasing:
        return "key-times-not-increasing";
    case Rule::RotationNotUnit:
        return "rotation-not-unit";
    case Rule::VectorKeyWNotZero:
        return "vector-key-w-not-zero";
    case Rule::NonFiniteFloat:
        return "non-finite-float";
    case Rule::BadName:
        return "bad-name";
    }
    return "unknown";
}

std::string to_string(const Violation& violation) {
    return violation.location + ": " + violation.message + " [" + rule_name(violation.rule) + "]";
}

} // namespace aem
