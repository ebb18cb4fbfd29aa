// A glTF 2.0 document being built: the binary buffer with its views and accessors, and the JSON
// arrays (nodes, meshes, materials, ...) as text, each entry one JSON object. The writer keeps
// control of layout the way gltfpack does: every view starts on a 4-byte boundary, each attribute
// has a view of its own (no stride), POSITION accessors carry the exact min and max of the floats
// written. Serialised as one .glb (JSON chunk + BIN chunk) or as .gltf text naming its .bin.
#pragma once

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace assbin::converter::gltf {

// glTF's componentType and bufferView target numbers.
enum ComponentType : uint32_t {
    kByte = 5120,
    kUnsignedByte = 5121,
    kShort = 5122,
    kUnsignedShort = 5123,
    kUnsignedInt = 5125,
    kFloat = 5126,
};
enum ViewTarget : uint32_t { kNoTarget = 0, kArrayBuffer = 34962, kElementArrayBuffer = 34963 };

// A JSON text fragment builder: strings escaped, floats written so they read back exactly.
// JSON text is UTF-8: a byte that is not part of a valid UTF-8 sequence is taken as Latin-1 (what
// older tools wrote names in) and written as the character it stands for.
std::string json_string(std::string_view text);
bool is_utf8(std::string_view text);
std::string json_number(double value);
std::string json_float(float value); // the shortest text that reads back as the same float
template <class Values>
std::string json_floats(const Values& values) {
    std::string out = "[";
    for (size_t i = 0; i < static_cast<size_t>(values.size()); ++i) {
        if (i) out += ',';
        out += json_float(static_cast<float>(values[i]));
    }
    return out + "]";
}

// A URI naming a file beside the .gltf: every byte but RFC 3986's unreserved ones percent-encoded.
std::string uri_of_file_name(std::string_view name);

class Document {
  public:
    // Appends `bytes` as a view of its own (4-byte aligned; `stride` written when not 0); returns the
    // view's index.
    uint32_t add_view(std::span<const std::byte> bytes, ViewTarget target, uint32_t stride = 0);

    // Vertex attribute `values` (`components` per element) whose elements are not a multiple of 4
    // bytes (three shorts, three bytes: quantized attributes): each padded to the next multiple of 4,
    // the view given that stride, as glTF's vertex attribute alignment asks.
    template <class T>
    uint32_t add_padded_accessor(std::span<const T> values, ComponentType component, const char* type,
                                 uint32_t components, bool bounds, bool normalized) {
        const size_t element = components * sizeof(T), stride = (element + 3) & ~size_t{3};
        if (stride == element)
            return add_accessor(values, component, type, components, kArrayBuffer, bounds, normalized);
        const size_t count = values.size() / components;
        std::vector<std::byte> padded(count * stride, std::byte{0});
        for (size_t e = 0; e < count; ++e)
            std::memcpy(padded.data() + e * stride, values.data() + e * components, element);
        const uint32_t view = add_view(padded, kArrayBuffer, static_cast<uint32_t>(stride));
        views_[view].element = static_cast<uint32_t>(stride);
        return add_accessor_on(view, component, count, type, normalized,
                               bounds ? bounds_of(values, components) : "");
    }

    // A view holding `values` and an accessor over all of it. `type` is "SCALAR", "VEC2", ...;
    // `components` the values per element. With `bounds`, min and max are written (computed from
    // the values as stored).
    template <class T>
    uint32_t add_accessor(std::span<const T> values, ComponentType component, const char* type,
                          uint32_t components, ViewTarget target, bool bounds = false,
                          bool normalized = false) {
        const uint32_t view = add_view(std::as_bytes(values), target);
        views_[view].element = static_cast<uint32_t>(components * sizeof(T));
        std::string extra;
        if (bounds) extra = bounds_of(values, components);
        return add_accessor_on(view, component, values.size() / components, type, normalized, extra);
    }

    uint32_t add_accessor_on(uint32_t view, ComponentType component, size_t count, const char* type,
                             bool normalized, const std::string& extra_fields);

    // An image carried in the buffer: `fields` (its mimeType, name...) and a view of `bytes` of its
    // own, which merge_views leaves alone. Returns the image's index.
    uint32_t add_embedded_image(std::string fields, std::span<const std::byte> bytes);

    // Each of these appends an object (the text between braces, without them) and returns its index.
    uint32_t add(std::vector<std::string>& array, std::string fields) {
        array.push_back(std::move(fields));
        return static_cast<uint32_t>(array.size() - 1);
    }

    // The last view added holds a triangle list's indices (EXT_meshopt_compression's TRIANGLES mode).
    void mark_last_view_triangles() { views_.back().triangles = true; }

    // Views of one kind laid back to back as one view, as gltfpack lays out its buffer: vertex
    // attributes by element size (the view then has that byteStride), indices by size (triangle lists
    // apart), animation and skin data by element size (which keeps inverse bind matrices, 64 bytes,
    // apart from keys: the validator wants one use per view); each accessor points into its view
    // with a byteOffset.
    // Images keep views of their own. One view per accessor costs about 70 bytes of JSON each: a
    // fifth of the JSON of the corpus's files. Call once, after the last view, before
    // compress_with_meshopt.
    void merge_views();

    // EXT_meshopt_compression with meshoptimizer's own encoders: every vertex attribute and index
    // view is replaced by its encoded bytes (in the one buffer), and a fallback buffer without data
    // stands where they decode to (so the extension is required). Animation, skin and image views
    // stay as they are. Call once, after the last view.
    void compress_with_meshopt();

    // Declares an extension (extensionsUsed); `required` also lists it in extensionsRequired.
    void use_extension(const std::string& name, bool required = false);

    std::vector<std::string> nodes, meshes, materials, textures, images, samplers, skins, animations, cameras,
        lights;
    std::vector<uint32_t> scene_nodes; // the roots of scene 0
    std::string generator = "assbin";

    // The JSON text; `buffer_uri` empty for a .glb (the BIN chunk), else the .bin's name.
    std::string json(const std::string& buffer_uri) const;
    // The whole .glb file.
    std::vector<std::byte> glb() const;
    const std::vector<std::byte>& binary() const { return bin_; }

    // ",\"min\":[...],\"max\":[...]" of `values` as stored.
    template <class T>
    static std::string bounds_of(std::span<const T> values, uint32_t components) {
        std::vector<double> lo(components, 0), hi(components, 0);
        for (size_t i = 0; i < values.size(); ++i) {
            const size_t c = i % components;
            const double v = static_cast<double>(values[i]);
            if (i < components || v < lo[c]) lo[c] = v;
            if (i < components || v > hi[c]) hi[c] = v;
        }
        std::string out = ",\"min\":[";
        for (uint32_t c = 0; c < components; ++c)
            out += (c ? "," : "") + number_of<T>(lo[c]);
        out += "],\"max\":[";
        for (uint32_t c = 0; c < components; ++c)
            out += (c ? "," : "") + number_of<T>(hi[c]);
        return out + "]";
    }

  private:
    template <class T>
    static std::string number_of(double v) {
        if constexpr (std::is_floating_point_v<T>)
            return json_float(static_cast<float>(v));
        else
            return std::to_string(static_cast<uint64_t>(v));
    }

    struct View {
        size_t offset = 0, length = 0;
        uint32_t stride = 0; // byteStride written (0: none)
        ViewTarget target = kNoTarget;
        uint32_t element = 0;   // bytes per element (0: raw bytes)
        bool triangles = false; // an index view of a triangle list
        bool image = false;     // an image's bytes (never merged with others)
        // EXT_meshopt_compression: where its encoded bytes lie in bin_ (-1: not compressed; `offset`
        // is then in the fallback buffer).
        int64_t compressed_at = -1;
        size_t compressed_length = 0;
    };
    std::vector<std::byte> bin_;
    std::vector<View> views_;
    struct Accessor {
        uint32_t view = 0;
        size_t offset = 0;  // byteOffset into the view
        std::string fields; // the rest of the object
    };
    std::vector<Accessor> accessors_;
    std::vector<std::pair<uint32_t, uint32_t>> image_views_; // (image, view) of add_embedded_image
    size_t fallback_length_ = 0;                             // the fallback buffer's size, once compressed
    std::vector<std::string> extensions_used_, extensions_required_;
};

} // namespace assbin::converter::gltf
