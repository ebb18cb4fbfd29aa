// A glTF 2.0 file as `render` draws it: every triangle primitive of every node of the scene at rest
// or posed by an animation (node transforms multiplied from the root; skinned meshes by their
// joints' transforms and inverse bind matrices, as a glTF viewer shows the file), quantized
// attributes read through their component types, each material's base colour texture (PNG or
// JPEG, decoded) or, without one, the flat colour `render` gives every untextured material. Lines
// and points are not drawn, as for dumps. Bounded: node depth, accessor ranges and counts are
// checked against the bytes before anything is read.
#include "gltf_drawable.hpp"

#include "quoting.hpp"
#include "read_file.hpp"

#include "algorithms.hpp" // decode_image

#include <aem/format.hpp>
#include <meshoptimizer.h>
#include <nlohmann/json.hpp>

#include <Eigen/Geometry>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

namespace assbin::render {

namespace {

using nlohmann::json;

// A whole file (the .glb or .gltf, a .bin or an image beside it), refused as every reader of the
// program refuses one (common/read_file.hpp), with the file named: it may not be the one given.
std::vector<std::byte> read_bytes(const std::filesystem::path& path) {
    try {
        return assbin_common::read_regular_file(path);
    } catch (const assbin_common::ReadFailure& failure) {
        throw UnreadableModel(path.string() + ": " + failure.what());
    }
}

uint32_t u32_at(const std::vector<std::byte>& bytes, size_t at) {
    uint32_t value = 0;
    if (at + 4 <= bytes.size()) std::memcpy(&value, bytes.data() + at, 4);
    return value;
}

// URIs naming files beside the .gltf (percent-decoded); data: URIs and absolute ones are refused.
std::filesystem::path file_of_uri(const std::filesystem::path& folder, const std::string& uri) {
    if (uri.starts_with("data:") || uri.find("://") != std::string::npos)
        throw UnreadableModel("the URI '" + uri.substr(0, 40) +
                                 "' is not a file beside the .gltf (not supported)");
    return folder / assbin_common::percent_decoded(uri);
}

class GltfFile {
  public:
    explicit GltfFile(const std::filesystem::path& path) {
        const std::vector<std::byte> bytes = read_bytes(path);
        if (u32_at(bytes, 0) == 0x46546C67) { // "glTF": the binary container
            const uint32_t length = u32_at(bytes, 12);
            if (u32_at(bytes, 4) != 2 || u32_at(bytes, 16) != 0x4E4F534A ||
                20 + uint64_t{length} > bytes.size())
                throw UnreadableModel("not a version-2 GLB with its JSON chunk first");
            doc_ = json::parse(reinterpret_cast<const char*>(bytes.data()) + 20,
                               reinterpret_cast<const char*>(bytes.data()) + 20 + length);
            const size_t bin = 20 + size_t{length};
            if (bin + 8 <= bytes.size() && u32_at(bytes, bin + 4) == 0x004E4942) {
                const uint32_t bin_length = u32_at(bytes, bin);
                if (bin + 8 + uint64_t{bin_length} > bytes.size())
                    throw UnreadableModel("the BIN chunk is cut");
                glb_bin_.assign(bytes.begin() + static_cast<std::ptrdiff_t>(bin + 8),
                                bytes.begin() + static_cast<std::ptrdiff_t>(bin + 8 + bin_length));
            }
        } else {
            doc_ = json::parse(reinterpret_cast<const char*>(bytes.data()),
                               reinterpret_cast<const char*>(bytes.data()) + bytes.size());
        }
        // An extension the file requires and this reader does not know would draw a tangle: refused.
        static const std::set<std::string> kRead = {"KHR_mesh_quantization", "EXT_meshopt_compression",
                                                    "KHR_texture_transform"};
        for (const json& required : doc_.value("extensionsRequired", json::array())) {
            if (!required.is_string() || !kRead.contains(required.get<std::string>()))
                throw UnreadableModel("the file requires the extension " + required.dump() +
                                         ", which render does not read");
        }
        for (const json& buffer : doc_.value("buffers", json::array())) {
            if (buffer.contains("uri")) {
                buffers_.push_back(
                    read_bytes(file_of_uri(path.parent_path(), buffer["uri"].get<std::string>())));
            } else {
                buffers_.push_back(glb_bin_);
            }
        }
        folder_ = path.parent_path();
    }

    const json& doc() const { return doc_; }

    std::vector<std::byte> view_bytes(size_t view_index) const {
        const json& view = doc_.at("bufferViews").at(view_index);
        if (view.contains("extensions") && view["extensions"].contains("EXT_meshopt_compression"))
            return decompressed(view_index, view["extensions"]["EXT_meshopt_compression"]);
        const std::vector<std::byte>& buffer = buffers_.at(view.at("buffer").get<size_t>());
        const size_t offset = view.value("byteOffset", size_t{0}),
                     length = view.at("byteLength").get<size_t>();
        if (offset > buffer.size() || length > buffer.size() - offset)
            throw UnreadableModel("buffer view " + std::to_string(view_index) +
                                     " reaches past its buffer");
        return {buffer.begin() + static_cast<std::ptrdiff_t>(offset),
                buffer.begin() + static_cast<std::ptrdiff_t>(offset + length)};
    }

    // A view compressed with EXT_meshopt_compression, decoded by meshoptimizer's own decoders (the
    // codec the converter's --meshopt encodes with) and filters; the view's own buffer is only the
    // extension's fallback. Every size is checked against the bytes before anything is allocated.
    std::vector<std::byte> decompressed(size_t view_index, const json& extension) const {
        const std::string where = "buffer view " + std::to_string(view_index) + " (EXT_meshopt_compression)";
        const std::vector<std::byte>& buffer = buffers_.at(extension.at("buffer").get<size_t>());
        const size_t offset = extension.value("byteOffset", size_t{0}),
                     length = extension.at("byteLength").get<size_t>();
        const size_t stride = extension.at("byteStride").get<size_t>(),
                     count = extension.at("count").get<size_t>();
        const std::string mode = extension.at("mode").get<std::string>(),
                          filter = extension.value("filter", std::string("NONE"));
        if (offset > buffer.size() || length > buffer.size() - offset)
            throw UnreadableModel(where + " reaches past its buffer");
        const size_t declared = doc_["bufferViews"][view_index].at("byteLength").get<size_t>();
        if (stride == 0 || stride > 256 || count > declared / stride)
            throw UnreadableModel(where + ": " + std::to_string(count) + " elements of " +
                                     std::to_string(stride) + " bytes do not fit its " +
                                     std::to_string(declared) + " bytes");
        std::vector<std::byte> out(count * stride);
        const auto* source = reinterpret_cast<const unsigned char*>(buffer.data() + offset);
        int status = -1;
        if (mode == "ATTRIBUTES") {
            status = meshopt_decodeVertexBuffer(out.data(), count, stride, source, length);
        } else if (mode == "TRIANGLES" && (stride == 2 || stride == 4)) {
            status = meshopt_decodeIndexBuffer(out.data(), count, stride, source, length);
        } else if (mode == "INDICES" && (stride == 2 || stride == 4)) {
            status = meshopt_decodeIndexSequence(out.data(), count, stride, source, length);
        } else {
            throw UnreadableModel(where + ": mode " + mode + " with " + std::to_string(stride) +
                                     "-byte elements is not one meshoptimizer decodes");
        }
        if (status != 0)
            throw UnreadableModel(where + ": the compressed bytes do not decode (meshoptimizer says " +
                                     std::to_string(status) + ")");
        if (filter == "OCTAHEDRAL" && (stride == 4 || stride == 8)) {
            meshopt_decodeFilterOct(out.data(), count, stride);
        } else if (filter == "QUATERNION" && stride == 8) {
            meshopt_decodeFilterQuat(out.data(), count, stride);
        } else if (filter == "EXPONENTIAL" && stride % 4 == 0) {
            meshopt_decodeFilterExp(out.data(), count, stride);
        } else if (filter != "NONE") {
            throw UnreadableModel(where + ": filter " + filter + " on " + std::to_string(stride) +
                                     "-byte elements is not one meshoptimizer decodes");
        }
        return out;
    }

    // Accessor `index` as floats (normalized integers scaled as glTF says), `*width` per element.
    std::vector<float> floats(size_t index, size_t* width_out = nullptr) const {
        const json& a = doc_.at("accessors").at(index);
        static const std::map<std::string, size_t> kWidths = {
            {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT4", 16}};
        const size_t width = kWidths.at(a.at("type").get<std::string>());
        const size_t count = a.at("count").get<size_t>();
        const uint32_t type = a.at("componentType").get<uint32_t>();
        const bool normalized = a.value("normalized", false);
        const size_t size = type == 5126 || type == 5125 ? 4 : type == 5123 || type == 5122 ? 2 : 1;
        if (width_out) *width_out = width;
        if (!a.contains("bufferView")) // sparse-only accessors are not drawn: no data
            throw UnreadableModel("accessor " + std::to_string(index) +
                                     " has no buffer view (not supported)");
        const size_t view_index = a.at("bufferView").get<size_t>();
        const std::vector<std::byte> view = view_bytes(view_index);
        const size_t offset = a.value("byteOffset", size_t{0});
        const size_t stride = doc_["bufferViews"][view_index].value("byteStride", width * size);
        // Checked against the bytes before anything is allocated (a count of 10^12 is refused here).
        if (count > 0 &&
            (stride == 0 || offset > view.size() || count - 1 > (view.size() - offset) / stride ||
             (count - 1) * stride + width * size > view.size() - offset))
            throw UnreadableModel("accessor " + std::to_string(index) + " reaches past its buffer view");
        std::vector<float> out(count * width, 0.0f);
        for (size_t e = 0; e < count; ++e) {
            for (size_t c = 0; c < width; ++c) {
                const std::byte* at = view.data() + offset + e * stride + c * size;
                float value = 0;
                if (type == 5126) {
                    std::memcpy(&value, at, 4);
                } else if (type == 5125) {
                    uint32_t u;
                    std::memcpy(&u, at, 4);
                    value = float(u);
                } else if (type == 5123) {
                    uint16_t u;
                    std::memcpy(&u, at, 2);
                    value = normalized ? u / 65535.0f : float(u);
                } else if (type == 5122) {
                    int16_t i;
                    std::memcpy(&i, at, 2);
                    value = normalized ? std::max(i / 32767.0f, -1.0f) : float(i);
                } else if (type == 5121) {
                    value = normalized ? uint8_t(*at) / 255.0f : float(uint8_t(*at));
                } else if (type == 5120) {
                    value = normalized ? std::max(int8_t(*at) / 127.0f, -1.0f) : float(int8_t(*at));
                }
                out[e * width + c] = value;
            }
        }
        return out;
    }

    // The image `index` as stored (PNG or JPEG bytes).
    std::vector<std::byte> image_bytes(size_t index) const {
        const json& image = doc_.at("images").at(index);
        if (image.contains("bufferView")) return view_bytes(image["bufferView"].get<size_t>());
        return read_bytes(file_of_uri(folder_, image.at("uri").get<std::string>()));
    }

  private:
    json doc_;
    std::vector<std::byte> glb_bin_;
    std::vector<std::vector<std::byte>> buffers_;
    std::filesystem::path folder_;
};

// A node's transform as glTF keeps it: a matrix, or translation, rotation and scale (the parts an
// animation drives).
struct NodeTransform {
    std::optional<Eigen::Matrix4f> matrix;
    Eigen::Vector3f translation = Eigen::Vector3f::Zero();
    Eigen::Quaternionf rotation = Eigen::Quaternionf::Identity();
    Eigen::Vector3f scale = Eigen::Vector3f::Ones();

    Eigen::Matrix4f local() const {
        if (matrix) return *matrix;
        Eigen::Matrix4f m = Eigen::Matrix4f::Identity();
        m.topLeftCorner<3, 3>() = rotation.normalized().toRotationMatrix() * scale.asDiagonal();
        m.topRightCorner<3, 1>() = translation;
        return m;
    }
};

NodeTransform transform_of(const json& node) {
    NodeTransform out;
    if (node.contains("matrix")) {
        Eigen::Matrix4f m;
        for (size_t k = 0; k < 16; ++k)
            m(int(k % 4), int(k / 4)) = node["matrix"][k].get<float>();
        out.matrix = m;
        return out;
    }
    if (node.contains("translation"))
        for (size_t c = 0; c < 3; ++c)
            out.translation[int(c)] = node["translation"][c].get<float>();
    if (node.contains("scale"))
        for (size_t c = 0; c < 3; ++c)
            out.scale[int(c)] = node["scale"][c].get<float>();
    if (node.contains("rotation")) {
        const json& q = node["rotation"];
        out.rotation =
            Eigen::Quaternionf(q[3].get<float>(), q[0].get<float>(), q[1].get<float>(), q[2].get<float>())
                .normalized();
    }
    return out;
}

// One channel's value at `seconds`: its keys' times (`input`), values (`output`, `width` floats a key;
// CUBICSPLINE stores in-tangent, value, out-tangent a key, and its values are used), interpolation.
// Before the first key the first value, after the last the last.
std::vector<float> sample(const std::vector<float>& input, const std::vector<float>& output, size_t width,
                          const std::string& interpolation, bool rotation, double seconds) {
    const size_t stride = interpolation == "CUBICSPLINE" ? 3 * width : width;
    const size_t offset = interpolation == "CUBICSPLINE" ? width : 0;
    const size_t keys = std::min(input.size(), output.size() / std::max<size_t>(stride, 1));
    if (keys == 0) return {};
    const auto value = [&](size_t key) {
        return std::vector<float>(output.begin() + static_cast<std::ptrdiff_t>(key * stride + offset),
                                  output.begin() +
                                      static_cast<std::ptrdiff_t>(key * stride + offset + width));
    };
    if (seconds <= input[0] || keys == 1) return value(0);
    if (seconds >= input[keys - 1]) return value(keys - 1);
    const size_t next = static_cast<size_t>(
        std::upper_bound(input.begin(), input.begin() + keys, float(seconds)) - input.begin());
    const size_t key = next - 1;
    if (interpolation == "STEP") return value(key);
    const float span = input[next] - input[key];
    const float t = span > 0 ? float((seconds - input[key]) / span) : 0.0f;
    std::vector<float> a = value(key), b = value(next);
    if (rotation && width == 4) {
        const Eigen::Quaternionf qa(a[3], a[0], a[1], a[2]), qb(b[3], b[0], b[1], b[2]);
        const Eigen::Quaternionf q = qa.slerp(t, qb);
        return {q.x(), q.y(), q.z(), q.w()};
    }
    for (size_t c = 0; c < width; ++c)
        a[c] += (b[c] - a[c]) * t;
    return a;
}

constexpr size_t kMaxDepth = 100000; // the deepest node chain walked (the reader's own default bound)

// Global transforms of the nodes of the scene from their locals, parents first (iteratively: no
// recursion).
std::vector<std::optional<Eigen::Matrix4f>> global_transforms(const json& doc,
                                                              const std::vector<NodeTransform>& locals) {
    const json& nodes = doc.value("nodes", json::array());
    std::vector<std::optional<Eigen::Matrix4f>> global(nodes.size());
    const json& scenes = doc.value("scenes", json::array());
    const size_t scene = doc.value("scene", size_t{0});
    if (scene >= scenes.size()) return global;
    std::vector<std::pair<size_t, Eigen::Matrix4f>> stack;
    for (const json& root : scenes[scene].value("nodes", json::array()))
        stack.emplace_back(root.get<size_t>(), Eigen::Matrix4f::Identity());
    size_t visited = 0;
    while (!stack.empty()) {
        const auto [n, parent] = stack.back();
        stack.pop_back();
        if (n >= nodes.size() || global[n] || ++visited > nodes.size() || visited > kMaxDepth * 16)
            continue; // a node reached twice (a cycle or a shared child) is drawn once
        global[n] = Eigen::Matrix4f(parent * locals[n].local());
        for (const json& child : nodes[n].value("children", json::array()))
            stack.emplace_back(child.get<size_t>(), *global[n]);
    }
    return global;
}

// Every node's transform, posed by `pose` when there is one.
std::vector<NodeTransform> node_transforms(const GltfFile& file, const GltfPose* pose) {
    const json& doc = file.doc();
    const json& nodes = doc.value("nodes", json::array());
    std::vector<NodeTransform> locals;
    locals.reserve(nodes.size());
    for (const json& node : nodes)
        locals.push_back(transform_of(node));
    if (!pose) return locals;
    const json& animations = doc.value("animations", json::array());
    size_t index = 0;
    const auto parsed =
        std::from_chars(pose->animation.data(), pose->animation.data() + pose->animation.size(), index);
    if (parsed.ec != std::errc() || parsed.ptr != pose->animation.data() + pose->animation.size()) {
        index = 0;
        while (index < animations.size() && animations[index].value("name", std::string()) != pose->animation)
            ++index;
    }
    if (index >= animations.size()) {
        throw NoSuchGltfAnimation("--anim: no animation " + assbin_common::json_quote(pose->animation) +
                                  " (the file has " + std::to_string(animations.size()) +
                                  (animations.size() == 1 ? " animation)" : " animations)"));
    }
    const json& animation = animations[index];
    const json& samplers = animation.at("samplers");
    for (const json& channel : animation.at("channels")) {
        const json& target = channel.at("target");
        if (!target.contains("node")) continue;
        const size_t node = target["node"].get<size_t>();
        const std::string path = target.at("path").get<std::string>();
        if (node >= locals.size() || locals[node].matrix)
            continue; // a matrix node is not animated (glTF's rule)
        const json& sampler = samplers.at(channel.at("sampler").get<size_t>());
        const size_t width = path == "rotation" ? 4 : path == "translation" || path == "scale" ? 3 : 0;
        if (width == 0) continue; // morph weights: no morph targets are drawn
        const std::vector<float> value = sample(
            file.floats(sampler.at("input").get<size_t>()), file.floats(sampler.at("output").get<size_t>()),
            width, sampler.value("interpolation", std::string("LINEAR")), path == "rotation", pose->seconds);
        if (value.size() != width) continue;
        if (path == "translation") locals[node].translation = {value[0], value[1], value[2]};
        if (path == "scale") locals[node].scale = {value[0], value[1], value[2]};
        if (path == "rotation")
            locals[node].rotation = Eigen::Quaternionf(value[3], value[0], value[1], value[2]);
    }
    return locals;
}

// How a material's base colour texture reads its UVs: the set (texCoord) and KHR_texture_transform
// (offset, rotation, scale; the matrix as the extension's specification writes it in GLSL).
struct UvMapping {
    size_t set = 0;
    Eigen::Matrix<float, 2, 3> transform = Eigen::Matrix<float, 2, 3>::Identity();
};

UvMapping uv_mapping_of(const json& info) {
    UvMapping mapping;
    if (info.contains("texCoord") && info["texCoord"].is_number_unsigned())
        mapping.set = info["texCoord"].get<size_t>();
    const json* extension = nullptr;
    if (info.contains("extensions") && info["extensions"].contains("KHR_texture_transform"))
        extension = &info["extensions"]["KHR_texture_transform"];
    if (!extension || !extension->is_object()) return mapping;
    const auto pair = [&](const char* key, float fallback) {
        const json& value = extension->value(key, json::array());
        return value.is_array() && value.size() == 2 && value[0].is_number() && value[1].is_number()
                   ? Eigen::Vector2f(value[0].get<float>(), value[1].get<float>())
                   : Eigen::Vector2f(fallback, fallback);
    };
    const Eigen::Vector2f offset = pair("offset", 0), scale = pair("scale", 1);
    const json& angle = extension->value("rotation", json(0));
    const float rotation = angle.is_number() ? angle.get<float>() : 0.0f;
    Eigen::Matrix2f turn;
    turn << std::cos(rotation), -std::sin(rotation), std::sin(rotation), std::cos(rotation);
    mapping.transform.leftCols<2>() = turn * scale.asDiagonal();
    mapping.transform.col(2) = offset;
    if (extension->contains("texCoord") && (*extension)["texCoord"].is_number_unsigned())
        mapping.set = (*extension)["texCoord"].get<size_t>();
    return mapping;
}

} // namespace

bool is_gltf_file(const std::filesystem::path& path) {
    if (path.extension() == ".gltf") return true;
    std::ifstream in(path, std::ios::binary);
    char magic[4] = {};
    in.read(magic, 4);
    return in.gcount() == 4 && std::memcmp(magic, "glTF", 4) == 0;
}

namespace {

// nlohmann's message without its "[json.exception.parse_error.101] " tag, which says nothing to a user.
std::string without_json_tag(const char* what) {
    const std::string text = what;
    const size_t tag_end = text.starts_with("[json.exception.") ? text.find("] ") : std::string::npos;
    return tag_end == std::string::npos ? text : text.substr(tag_end + 2);
}

aem::Model load_gltf_model(const std::filesystem::path& path, std::vector<std::string>& warnings,
                           const GltfPose* pose);

} // namespace

aem::Model load_gltf_drawable(const std::filesystem::path& path, std::vector<std::string>& warnings,
                              const GltfPose* pose) {
    try {
        return load_gltf_model(path, warnings, pose);
    } catch (const json::parse_error& error) {
        throw UnreadableModel("not a glTF file: its JSON does not parse at byte " + std::to_string(error.byte) +
                              " (" + without_json_tag(error.what()) + ")");
    } catch (const json::exception& error) {
        throw UnreadableModel("a damaged glTF file: " + without_json_tag(error.what()));
    }
}

namespace {

aem::Model load_gltf_model(const std::filesystem::path& path, std::vector<std::string>& warnings,
                           const GltfPose* pose) {
    const GltfFile file(path);
    const json& doc = file.doc();
    aem::Model model;
    model.layout = aem::Layout::Edition2025;
    const json& materials = doc.value("materials", json::array());
    // Texture 0: a 1 x 1 texture, which `render` draws as the material's flat colour; every slot of the
    // 2025 layout names a texture, and only base colour images are drawn.
    model.textures.push_back({"", 0, 1, 1, aem::kWrapRepeat, aem::kWrapRepeat, 4, aem::kCompressionNone});
    model.image_buffer.assign(4, 255);
    model.materials.resize(materials.size() + 1, aem::Material{0, 0, 0, aem::kMaterialOpaque});
    // (the last material: primitives without one)
    std::map<size_t, int32_t> texture_of_image;
    std::vector<UvMapping> uv_mapping(materials.size() + 1);
    for (size_t m = 0; m < materials.size(); ++m) {
        const json& pbr = materials[m].value("pbrMetallicRoughness", json::object());
        if (!pbr.contains("baseColorTexture")) continue;
        uv_mapping[m] = uv_mapping_of(pbr["baseColorTexture"]);
        const size_t texture = pbr["baseColorTexture"].at("index").get<size_t>();
        const json& source = doc.at("textures").at(texture);
        if (!source.contains("source")) continue;
        const size_t image = source["source"].get<size_t>();
        auto [at, fresh] = texture_of_image.emplace(image, -1);
        if (fresh) {
            std::string why;
            const std::optional<converter::Image> pixels =
                converter::decode_image(file.image_bytes(image), &why);
            if (pixels) {
                aem::Texture t;
                t.width = pixels->width;
                t.height = pixels->height;
                t.channels = 4;
                t.image_offset = model.image_buffer.size();
                // The layout's chain, level 0 filled: `render` uploads level 0 and makes its own MIP levels.
                model.image_buffer.resize(
                    t.image_offset + aem::mip_chain_bytes(t.width, t.height, 4, aem::kCompressionNone), 0);
                std::copy(pixels->rgba.begin(), pixels->rgba.end(),
                          model.image_buffer.begin() + static_cast<std::ptrdiff_t>(t.image_offset));
                model.textures.push_back(t);
                at->second = int32_t(model.textures.size() - 1);
            } else {
                warnings.push_back("image " + std::to_string(image) + " cannot be decoded (" + why +
                                   "); its material's flat colour is drawn");
            }
        }
        if (at->second >= 0) model.materials[m].base_color_texture = at->second;
    }
    const std::vector<std::optional<Eigen::Matrix4f>> globals =
        global_transforms(doc, node_transforms(file, pose));
    const json& nodes = doc.value("nodes", json::array());
    size_t skipped_primitives = 0;
    for (size_t n = 0; n < nodes.size(); ++n) {
        if (!globals[n] || !nodes[n].contains("mesh")) continue;
        // Per joint of the node's skin: the joint's global transform times its inverse bind matrix.
        std::vector<Eigen::Matrix4f> joint_matrix;
        if (nodes[n].contains("skin")) {
            const json& skin = doc.at("skins").at(nodes[n]["skin"].get<size_t>());
            std::vector<float> inverse;
            if (skin.contains("inverseBindMatrices"))
                inverse = file.floats(skin["inverseBindMatrices"].get<size_t>());
            for (size_t j = 0; j < skin.at("joints").size(); ++j) {
                const size_t joint = skin["joints"][j].get<size_t>();
                Eigen::Matrix4f ibm = Eigen::Matrix4f::Identity();
                if (16 * j + 16 <= inverse.size())
                    ibm = Eigen::Map<const Eigen::Matrix4f>(inverse.data() + 16 * j);
                joint_matrix.push_back((joint < globals.size() && globals[joint]
                                            ? *globals[joint]
                                            : Eigen::Matrix4f::Identity()) *
                                       ibm);
            }
        }
        const json& mesh = doc.at("meshes").at(nodes[n]["mesh"].get<size_t>());
        for (const json& primitive : mesh.at("primitives")) {
            if (primitive.value("mode", 4) != 4) {
                ++skipped_primitives;
                continue;
            }
            const json& attributes = primitive.at("attributes");
            const std::vector<float> positions = file.floats(attributes.at("POSITION").get<size_t>());
            const size_t count = positions.size() / 3;
            std::vector<float> normals, uvs, joints, weights;
            if (attributes.contains("NORMAL")) normals = file.floats(attributes["NORMAL"].get<size_t>());
            const size_t material = primitive.value("material", materials.size());
            const UvMapping& mapping = uv_mapping[std::min(material, materials.size())];
            const std::string uv_name = "TEXCOORD_" + std::to_string(mapping.set);
            if (attributes.contains(uv_name)) uvs = file.floats(attributes[uv_name].get<size_t>());
            const bool skinned =
                !joint_matrix.empty() && attributes.contains("JOINTS_0") && attributes.contains("WEIGHTS_0");
            if (skinned) {
                joints = file.floats(attributes["JOINTS_0"].get<size_t>());
                weights = file.floats(attributes["WEIGHTS_0"].get<size_t>());
            }
            const auto first = static_cast<uint32_t>(model.vertices.size());
            for (size_t v = 0; v < count; ++v) {
                Eigen::Matrix4f place = *globals[n];
                if (skinned && 4 * v + 3 < joints.size() && 4 * v + 3 < weights.size()) {
                    place = Eigen::Matrix4f::Zero();
                    for (size_t k = 0; k < 4; ++k) {
                        const float joint = joints[4 * v + k];
                        if (weights[4 * v + k] != 0 && joint >= 0 && joint < float(joint_matrix.size()))
                            place += weights[4 * v + k] * joint_matrix[static_cast<size_t>(joint)];
                    }
                }
                aem::Vertex vertex;
                vertex.position =
                    (place * Eigen::Vector4f(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2], 1))
                        .head<3>();
                if (3 * v + 2 < normals.size()) {
                    const Eigen::Matrix3f normal_matrix = place.topLeftCorner<3, 3>().inverse().transpose();
                    vertex.normal = (normal_matrix *
                                     Eigen::Vector3f(normals[3 * v], normals[3 * v + 1], normals[3 * v + 2]))
                                        .normalized();
                }
                if (2 * v + 1 < uvs.size()) // top-left origin, as the 2025 layout's
                    vertex.uv = mapping.transform * Eigen::Vector3f(uvs[2 * v], uvs[2 * v + 1], 1);
                model.vertices.push_back(vertex);
            }
            std::vector<float> indices;
            if (primitive.contains("indices")) {
                indices = file.floats(primitive["indices"].get<size_t>());
            } else {
                for (size_t v = 0; v < count; ++v)
                    indices.push_back(float(v));
            }
            const auto first_index = static_cast<uint32_t>(model.indices.size());
            for (size_t i = 0; i + 2 < indices.size(); i += 3) {
                if (!(indices[i] >= 0 && indices[i + 1] >= 0 && indices[i + 2] >= 0 &&
                      indices[i] < float(count) && indices[i + 1] < float(count) &&
                      indices[i + 2] < float(count)))
                    continue; // out of range (or not an index): not drawn
                for (size_t k = 0; k < 3; ++k)
                    model.indices.push_back(first + static_cast<uint32_t>(indices[i + k]));
            }
            model.meshes.push_back({first_index, static_cast<uint32_t>(model.indices.size() - first_index),
                                    static_cast<uint32_t>(std::min(material, materials.size()))});
            // Without normals, flat ones (what glTF viewers draw): each triangle gets its own corners.
            if (normals.empty()) {
                for (uint32_t i = first_index; i < model.indices.size(); i += 3) {
                    aem::Vertex corner[3] = {model.vertices[model.indices[i]],
                                             model.vertices[model.indices[i + 1]],
                                             model.vertices[model.indices[i + 2]]};
                    const Eigen::Vector3f face = (corner[1].position - corner[0].position)
                                                     .cross(corner[2].position - corner[0].position);
                    for (size_t k = 0; k < 3; ++k) {
                        corner[k].normal = face.normalized();
                        model.indices[i + k] = static_cast<uint32_t>(model.vertices.size());
                        model.vertices.push_back(corner[k]);
                    }
                }
            }
        }
    }
    if (skipped_primitives > 0)
        warnings.push_back(std::to_string(skipped_primitives) + " line or point primitives are not drawn");
    if (model.indices.empty()) throw std::runtime_error("the glTF file holds no triangle to draw");
    return model;
}

} // namespace

} // namespace assbin::render
