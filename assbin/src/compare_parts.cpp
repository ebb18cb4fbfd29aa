// Materials (properties matched by key, semantic and index; values by type), animations (keys one
// by one, or their bounds), textures, lights and cameras.
#include "compare_context.hpp"

#include <cstring>
#include <type_traits>

namespace assbin::detail {

namespace {

// ---- materials

std::string property_label(const MaterialProperty& property) {
    std::string label = "/property[";
    label += property.key;
    if (property.semantic != 0 || property.index != 0) {
        label += ',';
        label += std::to_string(property.semantic);
        label += ',';
        label += std::to_string(property.index);
    }
    label += ']';
    return label;
}

template <class T>
std::vector<T> values_of(const std::vector<uint8_t>& data) {
    std::vector<T> values(data.size() / sizeof(T));
    if (!values.empty()) std::memcpy(values.data(), data.data(), values.size() * sizeof(T));
    return values;
}

// A short display of a property's value, for properties present on one side only.
std::string property_text(const MaterialProperty& property) {
    if (const auto text = property.string_value()) return format_text(*text);
    const std::vector<double> numbers = property.numbers();
    const std::vector<int32_t> integers = property.integers();
    if (numbers.empty() && integers.empty()) return std::to_string(property.data.size()) + " bytes";
    std::string text = "[";
    for (size_t i = 0; i < numbers.size() + integers.size() && i < 8; ++i) {
        if (i) text += ", ";
        text += numbers.empty() ? std::to_string(integers[i]) : format_number(numbers[i]);
    }
    if (numbers.size() + integers.size() > 8) text += ", ...";
    text += ']';
    return text;
}

template <class T>
void compare_numbers(Comparer& comparer, const std::string& label, const MaterialProperty& actual,
                     const MaterialProperty& expected) {
    const std::vector<T> a = values_of<T>(actual.data), e = values_of<T>(expected.data);
    for (size_t i = 0; i < a.size(); ++i) {
        std::string where = label;
        append_index(where, i);
        if constexpr (std::is_floating_point_v<T>) {
            comparer.real(where, a[i], e[i]);
        } else if (a[i] != e[i]) {
            comparer.report(where, std::to_string(e[i]), std::to_string(a[i]), double(a[i]) - double(e[i]));
        } else {
            comparer.counted(1);
        }
    }
}

const char* type_name(uint32_t type) {
    switch (static_cast<MaterialPropertyType>(type)) {
    case MaterialPropertyType::Float:
        return "float[]";
    case MaterialPropertyType::Double:
        return "double[]";
    case MaterialPropertyType::String:
        return "string";
    case MaterialPropertyType::Integer:
        return "int32[]";
    case MaterialPropertyType::Buffer:
        return "buffer";
    }
    return nullptr;
}

std::string type_text(uint32_t type) {
    const char* name = type_name(type);
    return name ? name : "type " + std::to_string(type);
}

bool is_real(uint32_t type) {
    return type == uint32_t(MaterialPropertyType::Float) || type == uint32_t(MaterialPropertyType::Double);
}

std::vector<double> reals_of(const MaterialProperty& property) {
    std::vector<double> out;
    if (property.type == uint32_t(MaterialPropertyType::Float)) {
        for (const float value : values_of<float>(property.data))
            out.push_back(value);
    } else {
        out = values_of<double>(property.data);
    }
    return out;
}

// A float[] and a double[] property compared by their values (CompareOptions::real_properties_by_value):
// a single-precision dump against a double-precision one.
void compare_reals(Comparer& comparer, const std::string& label, const MaterialProperty& actual,
                   const MaterialProperty& expected) {
    const std::vector<double> a = reals_of(actual), e = reals_of(expected);
    if (!comparer.exact(joined(label, ".count"), a.size(), e.size())) return;
    for (size_t i = 0; i < a.size(); ++i) {
        std::string where = label;
        append_index(where, i);
        // In the narrower of the two precisions: a double that rounds to the float matches it.
        if (actual.type != expected.type)
            comparer.real(where, static_cast<float>(a[i]), static_cast<float>(e[i]));
        else
            comparer.real(where, a[i], e[i]);
    }
}

void compare_property(Comparer& comparer, const std::string& label, const MaterialProperty& actual,
                      const MaterialProperty& expected) {
    if (comparer.real_properties_by_value && is_real(actual.type) && is_real(expected.type)) {
        compare_reals(comparer, label, actual, expected);
        return;
    }
    comparer.counted(1);
    if (actual.type != expected.type) {
        comparer.report(joined(label, ".type"), type_text(expected.type), type_text(actual.type));
        return;
    }
    // Strings are compared by value: the stored terminator byte is memory garbage (§4.5).
    const auto actual_text = actual.string_value(), expected_text = expected.string_value();
    if (actual_text && expected_text) {
        comparer.text(label, *actual_text, *expected_text);
        return;
    }
    if (!comparer.exact(joined(label, ".size"), actual.data.size(), expected.data.size())) return;
    switch (static_cast<MaterialPropertyType>(expected.type)) {
    case MaterialPropertyType::Float:
        compare_numbers<float>(comparer, label, actual, expected);
        break;
    case MaterialPropertyType::Double:
        compare_numbers<double>(comparer, label, actual, expected);
        break;
    case MaterialPropertyType::Integer:
        compare_numbers<int32_t>(comparer, label, actual, expected);
        break;
    default:
        comparer.byte_array(label, actual.data, expected.data);
        break;
    }
}

bool same_identity(const MaterialProperty& a, const MaterialProperty& b) {
    return a.key == b.key && a.semantic == b.semantic && a.index == b.index;
}

// ---- animations

template <class T>
void compare_key_value(Comparer& comparer, std::string_view where, const T& actual, const T& expected) {
    if constexpr (std::is_same_v<T, Quaternion>)
        comparer.quaternion(where, actual, expected);
    else
        comparer.vec3(where, actual, expected);
}

template <class T>
void compare_key(Comparer& comparer, const std::string& where, const Key<T>& actual, const Key<T>& expected) {
    comparer.real(joined(where, ".time"), actual.time, expected.time);
    compare_key_value(comparer, joined(where, ".value"), actual.value, expected.value);
}

template <class T>
bool same_key(const Comparer& comparer, const Key<T>& a, const Key<T>& e) {
    if (!comparer.matches(a.time, e.time)) return false;
    if constexpr (std::is_same_v<T, Quaternion>) {
        for (int c = 0; c < 4; ++c) {
            if (!comparer.matches(a.value.coeffs()[c], e.value.coeffs()[c])) return false;
        }
    } else {
        for (int c = 0; c < 3; ++c) {
            if (!comparer.matches(a.value[c], e.value[c])) return false;
        }
    }
    return true;
}

template <class T>
void compare_track(Comparer& comparer, const char* name, const KeyTrack<T>& actual,
                   const KeyTrack<T>& expected) {
    const std::string base = joined("/", name);
    const bool same_count = comparer.exact(joined(base, ".count"), actual.count, expected.count);
    if (comparer.shortened) {
        if (comparer.presence(joined(base, ".bounds"), actual.bounds.has_value(),
                              expected.bounds.has_value()) &&
            actual.bounds) {
            compare_key(comparer, joined(base, ".min"), actual.bounds->min, expected.bounds->min);
            compare_key(comparer, joined(base, ".max"), actual.bounds->max, expected.bounds->max);
        }
        return;
    }
    if (!same_count || actual.keys.size() != expected.keys.size()) return;
    comparer.counted(actual.keys.size());
    for (size_t i = 0; i < actual.keys.size(); ++i) {
        if (same_key(comparer, actual.keys[i], expected.keys[i])) continue;
        std::string where = base;
        append_index(where, i);
        compare_key(comparer, where, actual.keys[i], expected.keys[i]);
    }
}

void compare_channel(Comparer& comparer, const NodeChannel& actual, const NodeChannel& expected) {
    comparer.text("/node_name", actual.node_name, expected.node_name);
    comparer.exact("/pre_state", actual.pre_state, expected.pre_state);
    comparer.exact("/post_state", actual.post_state, expected.post_state);
    compare_track(comparer, "positions", actual.positions, expected.positions);
    compare_track(comparer, "rotations", actual.rotations, expected.rotations);
    compare_track(comparer, "scalings", actual.scalings, expected.scalings);
}

} // namespace

void compare_material(Comparer& comparer, const Material& actual, const Material& expected) {
    std::vector<bool> used(actual.properties.size(), false);
    for (const MaterialProperty& property : expected.properties) {
        const std::string label = property_label(property);
        size_t match = 0;
        while (match < actual.properties.size() &&
               (used[match] || !same_identity(actual.properties[match], property))) {
            ++match;
        }
        if (match == actual.properties.size()) {
            comparer.report(label, property_text(property), "(absent)");
            continue;
        }
        used[match] = true;
        compare_property(comparer, label, actual.properties[match], property);
    }
    for (size_t i = 0; i < actual.properties.size(); ++i) {
        if (!used[i]) {
            comparer.report(property_label(actual.properties[i]), "(absent)",
                            property_text(actual.properties[i]));
        }
    }
}

void compare_animation(Comparer& comparer, const Animation& actual, const Animation& expected) {
    comparer.text("/name", actual.name, expected.name);
    comparer.real("/duration", actual.duration, expected.duration);
    comparer.real("/ticks_per_second", actual.ticks_per_second, expected.ticks_per_second);
    comparer.exact("/channels.count", actual.channels.size(), expected.channels.size());
    for (size_t i = 0; i < std::min(actual.channels.size(), expected.channels.size()); ++i) {
        Comparer::Scope scope(comparer, named_part("channel", i, expected.channels[i].node_name));
        compare_channel(comparer, actual.channels[i], expected.channels[i]);
    }
}

void compare_texture(Comparer& comparer, const Texture& actual, const Texture& expected) {
    const bool same_width = comparer.exact("/width", actual.width, expected.width);
    const bool same_height = comparer.exact("/height", actual.height, expected.height);
    // A 4-byte hint (writers <= 5.0.1) holds only the start of a longer one.
    const size_t hint = comparer.texture_hint_bytes;
    comparer.text("/format_hint", std::string_view(actual.format_hint).substr(0, hint),
                  std::string_view(expected.format_hint).substr(0, hint));
    if (comparer.shortened || !same_width || !same_height) return;
    if (comparer.exact("/data.size", actual.data.size(), expected.data.size())) {
        comparer.byte_array("/data", actual.data, expected.data);
    }
}

void compare_light(Comparer& comparer, const Light& actual, const Light& expected) {
    comparer.text("/name", actual.name, expected.name);
    comparer.exact("/type", actual.type, expected.type);
    if (comparer.compare_light_placement) {
        comparer.vec3("/position", actual.position, expected.position);
        comparer.vec3("/direction", actual.direction, expected.direction);
        comparer.vec3("/up", actual.up, expected.up);
    }
    comparer.real("/attenuation_constant", actual.attenuation_constant, expected.attenuation_constant);
    comparer.real("/attenuation_linear", actual.attenuation_linear, expected.attenuation_linear);
    comparer.real("/attenuation_quadratic", actual.attenuation_quadratic, expected.attenuation_quadratic);
    comparer.color3("/diffuse", actual.diffuse, expected.diffuse);
    comparer.color3("/specular", actual.specular, expected.specular);
    comparer.color3("/ambient", actual.ambient, expected.ambient);
    comparer.real("/inner_cone", actual.inner_cone, expected.inner_cone);
    comparer.real("/outer_cone", actual.outer_cone, expected.outer_cone);
}

void compare_camera(Comparer& comparer, const Camera& actual, const Camera& expected) {
    comparer.text("/name", actual.name, expected.name);
    comparer.vec3("/position", actual.position, expected.position);
    comparer.vec3("/look_at", actual.look_at, expected.look_at);
    comparer.vec3("/up", actual.up, expected.up);
    comparer.real("/horizontal_fov", actual.horizontal_fov, expected.horizontal_fov);
    comparer.real("/clip_near", actual.clip_near, expected.clip_near);
    comparer.real("/clip_far", actual.clip_far, expected.clip_far);
    comparer.real("/aspect", actual.aspect, expected.aspect);
}

} // namespace assbin::detail
