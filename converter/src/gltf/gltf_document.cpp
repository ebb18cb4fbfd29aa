// The glTF document's buffer, JSON text and GLB container (glTF 2.0 §4.4: a 12-byte header, a JSON
// chunk padded with spaces, a BIN chunk padded with zeros, every chunk 4-byte aligned).
#include "gltf/gltf_document.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <meshoptimizer.h>

namespace assbin::converter::gltf {

namespace {

// The length of the valid UTF-8 sequence at `text[i]`, or 0 when the bytes there are not one.
size_t utf8_sequence(std::string_view text, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    const size_t length = lead < 0x80           ? 1
                          : (lead >> 5) == 0x6  ? 2
                          : (lead >> 4) == 0xE  ? 3
                          : (lead >> 3) == 0x1E ? 4
                                                : 0;
    if (length == 0 || i + length > text.size()) return 0;
    for (size_t k = 1; k < length; ++k)
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
    if (length == 2 && lead < 0xC2) return 0; // overlong
    if (length == 3) {
        const unsigned code = ((lead & 0xFu) << 12) | ((byte(i + 1) & 0x3Fu) << 6) | (byte(i + 2) & 0x3Fu);
        if (code < 0x800 || (code >= 0xD800 && code <= 0xDFFF)) return 0;
    }
    if (length == 4) {
        const unsigned code = ((lead & 0x7u) << 18) | ((byte(i + 1) & 0x3Fu) << 12);
        if (code < 0x10000 || code > 0x10FFFF) return 0;
    }
    return length;
}

} // namespace

bool is_utf8(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
        const size_t length = utf8_sequence(text, i);
        if (length == 0) return false;
        i += length;
    }
    return true;
}

std::string json_string(std::string_view text) {
    std::string out = "\"";
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const size_t length = utf8_sequence(text, i);
        if (length > 1) { // a valid multi-byte character, as it is
            out.append(text.substr(i, length));
            i += length - 1;
            continue;
        }
        if (length == 0) { // not UTF-8 (older tools wrote Latin-1 names): the byte read as Latin-1
            const auto u = static_cast<unsigned char>(c);
            out += static_cast<char>(0xC0 | (u >> 6));
            out += static_cast<char>(0x80 | (u & 0x3F));
            continue;
        }
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", u);
            out += escaped;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string json_number(double value) {
    if (!std::isfinite(value)) return "0"; // callers pass finite values; never a token JSON lacks
    char text[32];
    const auto [end, error] = std::to_chars(text, text + sizeof text, value);
    return error == std::errc() ? std::string(text, end) : "0";
}

std::string json_float(float value) {
    if (!std::isfinite(value)) return "0";
    char text[32];
    const auto [end, error] = std::to_chars(text, text + sizeof text, value);
    return error == std::errc() ? std::string(text, end) : "0";
}

std::string uri_of_file_name(std::string_view name) {
    std::string out;
    for (const char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~') {
            out += c;
        } else {
            char escaped[4];
            std::snprintf(escaped, sizeof escaped, "%%%02X", u);
            out += escaped;
        }
    }
    return out;
}

uint32_t Document::add_view(std::span<const std::byte> bytes, ViewTarget target, uint32_t stride) {
    bin_.resize((bin_.size() + 3) & ~size_t{3}, std::byte{0});
    View view;
    view.offset = bin_.size();
    view.length = bytes.size();
    view.stride = stride;
    view.target = target;
    bin_.insert(bin_.end(), bytes.begin(), bytes.end());
    views_.push_back(view);
    return static_cast<uint32_t>(views_.size() - 1);
}

namespace {

// A view's index values (2 or 4 bytes each) widened, and the vertex count they imply.
std::vector<uint32_t> indices_of(const std::byte* data, size_t count, uint32_t size, size_t& vertices) {
    std::vector<uint32_t> indices(count);
    vertices = 0;
    for (size_t i = 0; i < count; ++i) {
        if (size == 2) {
            uint16_t narrow;
            std::memcpy(&narrow, data + 2 * i, 2);
            indices[i] = narrow;
        } else {
            std::memcpy(&indices[i], data + 4 * i, 4);
        }
        vertices = std::max<size_t>(vertices, size_t{indices[i]} + 1);
    }
    return indices;
}

} // namespace

void Document::compress_with_meshopt() {
    std::vector<std::byte> packed;
    size_t fallback = 0;
    std::vector<unsigned char> encoded;
    for (View& view : views_) {
        const std::byte* data = bin_.data() + view.offset;
        packed.resize((packed.size() + 3) & ~size_t{3}, std::byte{0});
        const bool attributes = view.target == kArrayBuffer && view.element % 4 == 0 && view.element > 0 &&
                                view.element <= 256 && view.length % view.element == 0;
        const bool index_view =
            view.target == kElementArrayBuffer && (view.element == 2 || view.element == 4);
        if (!attributes && !index_view) { // kept as it is, in the one buffer
            const size_t at = packed.size();
            packed.insert(packed.end(), data, data + view.length);
            view.offset = at;
            continue;
        }
        const size_t count = view.length / view.element;
        if (attributes) {
            encoded.resize(meshopt_encodeVertexBufferBound(count, view.element));
            encoded.resize(
                meshopt_encodeVertexBuffer(encoded.data(), encoded.size(), data, count, view.element));
        } else {
            size_t vertices = 0;
            const std::vector<uint32_t> indices = indices_of(data, count, view.element, vertices);
            if (view.triangles) {
                encoded.resize(meshopt_encodeIndexBufferBound(count, vertices));
                encoded.resize(
                    meshopt_encodeIndexBuffer(encoded.data(), encoded.size(), indices.data(), count));
            } else {
                encoded.resize(meshopt_encodeIndexSequenceBound(count, vertices));
                encoded.resize(
                    meshopt_encodeIndexSequence(encoded.data(), encoded.size(), indices.data(), count));
            }
        }
        view.compressed_at = static_cast<int64_t>(packed.size());
        view.compressed_length = encoded.size();
        const auto* bytes = reinterpret_cast<const std::byte*>(encoded.data());
        packed.insert(packed.end(), bytes, bytes + encoded.size());
        fallback = (fallback + 3) & ~size_t{3};
        view.offset = fallback; // where it decodes to, in the fallback buffer
        fallback += view.length;
    }
    bin_.swap(packed);
    fallback_length_ = fallback;
    use_extension("EXT_meshopt_compression", true);
}

uint32_t Document::add_accessor_on(uint32_t view, ComponentType component, size_t count, const char* type,
                                   bool normalized, const std::string& extra_fields) {
    std::string fields = "\"componentType\":" + std::to_string(component) +
                         ",\"count\":" + std::to_string(count) + ",\"type\":\"" + type + "\"";
    if (normalized) fields += ",\"normalized\":true";
    fields += extra_fields;
    accessors_.push_back({view, 0, std::move(fields)});
    return static_cast<uint32_t>(accessors_.size() - 1);
}

uint32_t Document::add_embedded_image(std::string fields, std::span<const std::byte> bytes) {
    const uint32_t view = add_view(bytes, kNoTarget);
    views_[view].image = true;
    const uint32_t image = add(images, std::move(fields));
    image_views_.emplace_back(image, view);
    return image;
}

void Document::merge_views() {
    // A view's kind: views of one kind are merged; -1 for one that stays alone.
    const auto kind_of = [](const View& view) -> int64_t {
        if (view.image) return -1;
        if (view.target == kArrayBuffer) {
            const bool strided = view.element > 0 && view.element % 4 == 0 && view.element <= 252 &&
                                 view.length % view.element == 0 &&
                                 (view.stride == 0 || view.stride == view.element);
            return strided ? int64_t{view.element} : -1;
        }
        if (view.target == kElementArrayBuffer) {
            return (view.element == 2 || view.element == 4)
                       ? 1000 + view.element * 2 + (view.triangles ? 1 : 0)
                       : -1;
        }
        return view.stride == 0 ? 2000 + int64_t{view.element} : -1;
    };
    std::map<int64_t, uint32_t> group_of_kind;
    std::vector<std::vector<uint32_t>> groups; // the old views of each new view, in order
    std::vector<uint32_t> new_view(views_.size());
    for (uint32_t v = 0; v < views_.size(); ++v) {
        const int64_t kind = kind_of(views_[v]);
        uint32_t group = static_cast<uint32_t>(groups.size());
        if (kind >= 0) {
            const auto [at, fresh] = group_of_kind.emplace(kind, group);
            group = at->second;
            if (fresh) groups.emplace_back();
        } else {
            groups.emplace_back();
        }
        groups[group].push_back(v);
        new_view[v] = group;
    }
    std::vector<std::byte> bin;
    bin.reserve(bin_.size());
    std::vector<View> views;
    std::vector<size_t> offset_in_group(views_.size());
    for (const std::vector<uint32_t>& members : groups) {
        bin.resize((bin.size() + 3) & ~size_t{3}, std::byte{0});
        View merged = views_[members.front()];
        merged.offset = bin.size();
        // Indices of one size back to back without padding (EXT_meshopt_compression encodes the
        // view as one list); other views 4-byte aligned.
        const size_t align = merged.target == kElementArrayBuffer ? merged.element : 4;
        for (const uint32_t v : members) {
            bin.resize((bin.size() + align - 1) / align * align, std::byte{0});
            offset_in_group[v] = bin.size() - merged.offset;
            const auto first = bin_.begin() + static_cast<std::ptrdiff_t>(views_[v].offset);
            bin.insert(bin.end(), first, first + static_cast<std::ptrdiff_t>(views_[v].length));
        }
        merged.length = bin.size() - merged.offset;
        // Accessors sharing a vertex view need its byteStride.
        if (merged.target == kArrayBuffer && members.size() > 1) merged.stride = merged.element;
        views.push_back(merged);
    }
    for (Accessor& accessor : accessors_) {
        accessor.offset += offset_in_group[accessor.view];
        accessor.view = new_view[accessor.view];
    }
    for (auto& image_view : image_views_)
        image_view.second = new_view[image_view.second];
    bin_.swap(bin);
    views_.swap(views);
}

void Document::use_extension(const std::string& name, bool required) {
    if (std::find(extensions_used_.begin(), extensions_used_.end(), name) == extensions_used_.end())
        extensions_used_.push_back(name);
    if (required && std::find(extensions_required_.begin(), extensions_required_.end(), name) ==
                        extensions_required_.end())
        extensions_required_.push_back(name);
}

namespace {

void append_array(std::string& out, const char* key, const std::vector<std::string>& objects) {
    if (objects.empty()) return;
    out += ",\"";
    out += key;
    out += "\":[";
    for (size_t i = 0; i < objects.size(); ++i) {
        if (i) out += ',';
        out += '{';
        out += objects[i];
        out += '}';
    }
    out += ']';
}

void append_names(std::string& out, const char* key, const std::vector<std::string>& names) {
    if (names.empty()) return;
    out += ",\"";
    out += key;
    out += "\":[";
    for (size_t i = 0; i < names.size(); ++i)
        out += (i ? "," : "") + json_string(names[i]);
    out += ']';
}

} // namespace

std::string Document::json(const std::string& buffer_uri) const {
    std::string out = "{\"asset\":{\"version\":\"2.0\",\"generator\":" + json_string(generator) + "}";
    append_names(out, "extensionsUsed", extensions_used_);
    append_names(out, "extensionsRequired", extensions_required_);
    out += ",\"scene\":0,\"scenes\":[{\"nodes\":[";
    for (size_t i = 0; i < scene_nodes.size(); ++i)
        out += (i ? "," : "") + std::to_string(scene_nodes[i]);
    out += "]}]";
    append_array(out, "nodes", nodes);
    append_array(out, "meshes", meshes);
    append_array(out, "materials", materials);
    append_array(out, "textures", textures);
    std::vector<std::string> image_objects = images;
    for (const auto& [image, view] : image_views_)
        image_objects[image] += ",\"bufferView\":" + std::to_string(view);
    append_array(out, "images", image_objects);
    append_array(out, "samplers", samplers);
    append_array(out, "skins", skins);
    append_array(out, "animations", animations);
    append_array(out, "cameras", cameras);
    std::vector<std::string> accessors;
    accessors.reserve(accessors_.size());
    for (const Accessor& accessor : accessors_) {
        std::string text = "\"bufferView\":" + std::to_string(accessor.view);
        if (accessor.offset != 0) text += ",\"byteOffset\":" + std::to_string(accessor.offset);
        accessors.push_back(text + "," + accessor.fields);
    }
    append_array(out, "accessors", accessors);
    std::vector<std::string> views;
    for (const View& view : views_) {
        const bool compressed = view.compressed_at >= 0;
        std::string text = "\"buffer\":" + std::string(compressed ? "1" : "0") +
                           ",\"byteOffset\":" + std::to_string(view.offset) +
                           ",\"byteLength\":" + std::to_string(view.length);
        const uint32_t stride = compressed && view.target == kArrayBuffer ? view.element : view.stride;
        if (stride != 0) text += ",\"byteStride\":" + std::to_string(stride);
        if (view.target != kNoTarget) text += ",\"target\":" + std::to_string(view.target);
        if (compressed) {
            text += ",\"extensions\":{\"EXT_meshopt_compression\":{\"buffer\":0,\"byteOffset\":" +
                    std::to_string(view.compressed_at) +
                    ",\"byteLength\":" + std::to_string(view.compressed_length) +
                    ",\"byteStride\":" + std::to_string(view.element) +
                    ",\"count\":" + std::to_string(view.length / view.element) + ",\"mode\":\"" +
                    (view.target == kArrayBuffer ? "ATTRIBUTES"
                     : view.triangles            ? "TRIANGLES"
                                                 : "INDICES") +
                    "\"}}";
        }
        views.push_back(std::move(text));
    }
    append_array(out, "bufferViews", views);
    if (!bin_.empty()) {
        out += ",\"buffers\":[{\"byteLength\":" + std::to_string(bin_.size());
        if (!buffer_uri.empty()) out += ",\"uri\":" + json_string(uri_of_file_name(buffer_uri));
        out += "}";
        if (fallback_length_ > 0) {
            out += ",{\"byteLength\":" + std::to_string(fallback_length_) +
                   ",\"extensions\":{\"EXT_meshopt_compression\":{\"fallback\":true}}}";
        }
        out += "]";
    }
    if (!lights.empty()) {
        std::vector<std::string> none;
        out += ",\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[";
        for (size_t i = 0; i < lights.size(); ++i)
            out += (i ? ",{" : "{") + lights[i] + "}";
        out += "]}}";
    }
    return out + "}";
}

std::vector<std::byte> Document::glb() const {
    std::string text = json("");
    text.resize((text.size() + 3) & ~size_t{3}, ' ');
    const size_t bin_length = (bin_.size() + 3) & ~size_t{3};
    const size_t total = 12 + 8 + text.size() + (bin_.empty() ? 0 : 8 + bin_length);
    std::vector<std::byte> out(total, std::byte{0});
    size_t at = 0;
    const auto put = [&](const void* data, size_t size) { // GLB is little-endian, as every target here
        std::memcpy(out.data() + at, data, size);
        at += size;
    };
    const auto put_u32 = [&](uint32_t value) { put(&value, 4); };
    put_u32(0x46546C67); // "glTF"
    put_u32(2);
    put_u32(static_cast<uint32_t>(total));
    put_u32(static_cast<uint32_t>(text.size()));
    put_u32(0x4E4F534A); // "JSON"
    put(text.data(), text.size());
    if (!bin_.empty()) {
        put_u32(static_cast<uint32_t>(bin_length));
        put_u32(0x004E4942); // "BIN\0"
        put(bin_.data(), bin_.size());
    }
    return out;
}

} // namespace assbin::converter::gltf
