// Dump materials as glTF metallic-roughness materials, by the rules docs/gltf.md lists: base colour
// from $clr.base, else $clr.diffuse with $mat.opacity as alpha; metallic and roughness from their
// factors, else 0 and a roughness from the Phong shininess; the glTF importer's alpha mode and
// cutoff, else BLEND below full opacity; two-sided from $mat.twosided; textures per slot with their
// UV set ($tex.uvwsrc), wrap modes and transform (KHR_texture_transform). Images go inside the .glb
// (or beside the .gltf): PNG and JPEG byte for byte, anything else decoded and written as PNG; one
// that cannot be had is a warning and the material keeps its factors.
#include "gltf/gltf_convert.hpp"
#include "materials/textures_2025.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numbers>
#include <set>

namespace assbin::converter::gltf {

namespace {

using detail::kAmbientOcclusion;
using detail::kBaseColor;
using detail::kDiffuse;
using detail::kEmissionColor;
using detail::kEmissive;
using detail::kLightmap;
using detail::kNormalCamera;
using detail::kNormals;
using detail::kOpacity;

using detail::MaterialKeys;
using detail::TextureSlot;

// A factor's values when it has some and all are finite (a factor that is not is left out).
std::optional<std::vector<double>> finite(const std::vector<double>& values) {
    if (values.empty()) return std::nullopt;
    for (const double v : values)
        if (!std::isfinite(v)) return std::nullopt;
    return values;
}

std::optional<double> first_finite(const std::vector<double>& values) {
    const auto all = finite(values);
    return all ? std::optional<double>(all->front()) : std::nullopt;
}

bool is_png(std::span<const std::byte> b) {
    static constexpr unsigned char kMagic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    return b.size() >= 8 && std::memcmp(b.data(), kMagic, 8) == 0;
}
bool is_jpeg(std::span<const std::byte> b) {
    return b.size() >= 3 && b[0] == std::byte{0xFF} && b[1] == std::byte{0xD8} && b[2] == std::byte{0xFF};
}

uint32_t big_endian(const std::byte* p) {
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

// A PNG as glTF viewers draw it: chunks that give a colour space other than sRGB (cHRM, gAMA, iCCP,
// cICP) or non-square pixels (pHYs) are left out, everything else (the pixels) byte for byte. glTF
// images are sRGB by definition, and the validator warns of such chunks. Returns the chunks left out.
std::vector<std::string> strip_png_colour_space(std::vector<std::byte>& png) {
    std::vector<std::string> dropped;
    std::vector<std::byte> out(png.begin(), png.begin() + 8);
    for (size_t at = 8; at + 12 <= png.size();) {
        const uint32_t length = big_endian(&png[at]);
        if (length > png.size() - at - 12) return {}; // damaged: left as it is for the viewer to judge
        const std::string type(reinterpret_cast<const char*>(&png[at + 4]), 4);
        bool drop = type == "cHRM" || type == "gAMA" || type == "iCCP" || type == "cICP";
        if (type == "pHYs" && length == 9) drop = big_endian(&png[at + 8]) != big_endian(&png[at + 12]);
        if (drop) {
            dropped.push_back(type);
        } else {
            out.insert(out.end(), png.begin() + static_cast<std::ptrdiff_t>(at),
                       png.begin() + static_cast<std::ptrdiff_t>(at + 12 + length));
        }
        at += 12 + length;
    }
    if (!dropped.empty()) png.swap(out);
    return dropped;
}

// glTF sampler wrap values from aiTextureMapMode (0 wrap, 1 clamp, 2 mirror, 3 decal).
uint32_t wrap_of(std::optional<int32_t> mode) {
    if (!mode) return 10497;
    switch (*mode) {
    case 1:
    case 3:
        return 33071;
    case 2:
        return 33648;
    default:
        return 10497;
    }
}

// A glTF sampler filter from the glTF importer's $tex.mappingfilter* (which stores glTF's numbers), or
// 0 for none: a value glTF does not define for that filter is left to the viewer.
uint32_t filter_of(std::optional<int32_t> value, bool minifying) {
    if (!value) return 0;
    if (*value == 9728 || *value == 9729) return static_cast<uint32_t>(*value); // NEAREST, LINEAR
    if (minifying && *value >= 9984 && *value <= 9987) return static_cast<uint32_t>(*value); // mipmaps
    return 0;
}

} // namespace

struct Materials::State {
    Build& build;
    detail::TextureSources sources;
    std::map<std::string, int32_t> image_of;                       // texture path -> glTF image, -1 missing
    std::map<std::pair<int32_t, int32_t>, uint32_t> texture_of;    // (image, sampler) -> glTF texture
    std::map<std::array<uint32_t, 4>, int32_t> sampler_of;         // (wrapS, wrapT, mag, min) -> sampler
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> material_of; // (dump material, sets needed) -> glTF
    std::set<uint32_t> said_missing_sets;
    std::set<uint32_t> invisible; // dump materials of opacity 0 without an opacity texture, written opaque
    uint32_t images_beside = 0;

    State(Build& b) : build(b), sources(b.scene, b.options, b.report) {}

    int32_t image(const std::string& path, const std::string& label) {
        if (const auto found = image_of.find(path); found != image_of.end()) return found->second;
        int32_t index = -1;
        std::string texels; // the "*N" of an embedded texel array
        std::optional<std::vector<std::byte>> file = sources.file_bytes(path, label, &texels);
        const char* mime = nullptr;
        if (file && (is_png(*file) || is_jpeg(*file))) {
            mime = is_png(*file) ? "image/png" : "image/jpeg";
            if (is_png(*file)) {
                const std::vector<std::string> dropped = strip_png_colour_space(*file);
                if (!dropped.empty()) {
                    std::string list;
                    for (const std::string& chunk : dropped)
                        list += (list.empty() ? "" : ", ") + chunk;
                    build.report.warn(
                        label + ": texture " + detail::quote_name(path) + ": PNG chunks " + list +
                        " (a colour space other than sRGB, or non-square pixels) left out: glTF "
                        "images are sRGB with square pixels; the pixels are carried as they are");
                }
            }
        } else if (file || !texels.empty()) {
            const detail::Pixels* pixels = nullptr;
            std::optional<detail::Pixels> decoded;
            if (file) {
                decoded = sources.decode(*file, "texture " + detail::quote_name(path), label);
                if (decoded) pixels = &*decoded;
            } else {
                pixels = sources.rgba(texels, label);
            }
            if (pixels) {
                Image rgba{pixels->width, pixels->height, pixels->data};
                file = encode_png(rgba);
                mime = "image/png";
            } else {
                file.reset();
            }
        }
        if (file && mime) {
            if (build.files) {
                // STEM.K.png, never STEM_K.png: that is the 2024 AEM layout's name for its own
                // images (bottom row first), and the two formats may share a folder (docs/cli.md).
                const std::string name = build.file_stem + "." + std::to_string(images_beside++) +
                                         (std::strcmp(mime, "image/png") == 0 ? ".png" : ".jpg");
                build.files->push_back({name, std::move(*file)});
                index = static_cast<int32_t>(
                    build.doc.add(build.doc.images, "\"uri\":" + json_string(uri_of_file_name(name))));
            } else {
                index = static_cast<int32_t>(
                    build.doc.add_embedded_image("\"mimeType\":\"" + std::string(mime) + "\"", *file));
            }
            ++build.stats.textures_written;
        }
        image_of.emplace(path, index);
        return index;
    }

    // The textureInfo object for slot `type` of `material`, or "" when it has none (or its image is
    // missing, or it uses a UV set the primitive lacks).
    std::string texture_info(const MaterialKeys& material, uint32_t m, uint32_t type, uint32_t sets,
                             const std::string& extra = "") {
        const TextureSlot* slot = material.texture(type);
        if (!slot) return "";
        const uint32_t set = slot->uv_set;
        if (set >= sets) {
            if (said_missing_sets.insert(m).second) {
                build.report.warn(detail::material_label(build.scene, m) + ": a texture uses UV set " +
                                  std::to_string(set) +
                                  ", which a mesh drawn with it lacks; there it is drawn "
                                  "without that texture");
            }
            return "";
        }
        const int32_t img = image(slot->path, detail::material_label(build.scene, m));
        if (img < 0) return "";
        const uint32_t wrap_s = wrap_of(slot->map_mode_u);
        const uint32_t wrap_t = wrap_of(slot->map_mode_v);
        const uint32_t mag = filter_of(slot->mag_filter, false);
        const uint32_t min = filter_of(slot->min_filter, true);
        int32_t sampler = -1;
        if (wrap_s != 10497 || wrap_t != 10497 || mag != 0 || min != 0) {
            auto [at, fresh] = sampler_of.emplace(std::array{wrap_s, wrap_t, mag, min}, 0);
            if (fresh) {
                std::string object =
                    "\"wrapS\":" + std::to_string(wrap_s) + ",\"wrapT\":" + std::to_string(wrap_t);
                if (mag != 0) object += ",\"magFilter\":" + std::to_string(mag);
                if (min != 0) object += ",\"minFilter\":" + std::to_string(min);
                at->second = static_cast<int32_t>(build.doc.add(build.doc.samplers, object));
            }
            sampler = at->second;
        }
        auto [at, fresh] = texture_of.emplace(std::pair{img, sampler}, 0);
        if (fresh) {
            std::string object = "\"source\":" + std::to_string(img);
            if (sampler >= 0) object += ",\"sampler\":" + std::to_string(sampler);
            at->second = build.doc.add(build.doc.textures, object);
        }
        std::string info = "{\"index\":" + std::to_string(at->second);
        if (set != 0) info += ",\"texCoord\":" + std::to_string(set);
        info += extra;
        info += transform(material, m, *slot);
        return info + "}";
    }

    // --quantize: the range of UV set `set` of dump material `m` when its UVs leave 0..1 and every
    // texture of the material on that set can carry the dequantization; else nullptr (the set stays
    // float). A rotated texture cannot: the composition would depend on the direction of rotation,
    // which viewers disagree on.
    UvRange* quantized_range(const MaterialKeys& material, uint32_t m, uint32_t set) {
        if (build.uv_ranges.empty() || set >= assbin::kMaxUvChannels) return nullptr;
        UvRange& range = build.uv_ranges[m][set];
        if (!range.leaves_unit_square()) return nullptr;
        for (const auto& [type, path] : material.files) {
            const TextureSlot& slot = material.settings(type);
            if (slot.uv_set == set && slot.uv_transform && (*slot.uv_transform)[4] != 0) return nullptr;
        }
        return &range;
    }

    // KHR_texture_transform for `slot` of dump material `m` (on its UV set), or "" for none:
    // the aiUVTransform, inverting the mapping Assimp's own glTF importer applies (its v axis is
    // flipped relative to glTF's, and it stores the negated angle: mRotation = -rotation, its
    // offsets computed with cos and sin of the glTF angle); then, for a set quantized across its
    // range, the dequantization uv = lo + extent · q composed after it:
    // T(o)·S·T(lo)·S(extent) = T(o + S·lo)·S·S(extent).
    std::string transform(const MaterialKeys& material, uint32_t m, const TextureSlot& slot) {
        const uint32_t set = slot.uv_set;
        double ox = 0, oy = 0, sx = 1, sy = 1, rotation = 0;
        const std::optional<std::array<double, 5>>& dump = slot.uv_transform;
        if (dump) {
            const auto [tx, ty, scale_x, scale_y, angle] = *dump;
            sx = scale_x;
            sy = scale_y;
            rotation = -angle; // glTF's angle
            const double c = std::cos(rotation), s = std::sin(rotation);
            ox = tx - 0.5 * sx * (-c + s + 1);
            oy = 1 - sy + 0.5 * sy * (s + c - 1) - ty;
        }
        UvRange* range = quantized_range(material, m, set);
        if (!dump && !range) return "";
        if (range) {
            ox += sx * range->lo[0];
            oy += sy * range->lo[1];
            sx *= range->extent(0);
            sy *= range->extent(1);
            range->carried = true;
        }
        // Required where it dequantizes: a viewer without it would draw the texture wrongly.
        build.doc.use_extension("KHR_texture_transform", range != nullptr);
        std::string out = ",\"extensions\":{\"KHR_texture_transform\":{\"offset\":[" + json_number(ox) + "," +
                          json_number(oy) + "],\"scale\":[" + json_number(sx) + "," + json_number(sy) + "]";
        if (rotation != 0) out += ",\"rotation\":" + json_number(rotation);
        if (set != 0) out += ",\"texCoord\":" + std::to_string(set);
        return out + "}}";
    }

    uint32_t write(uint32_t m, uint32_t sets) {
        const MaterialKeys& material = build.prepared.materials[m];
        const auto clamp01 = [](double v) { return std::clamp(v, 0.0, 1.0); };
        // Base colour: glTF's own key, else the diffuse colour with the opacity as alpha.
        std::array<double, 4> base = {1, 1, 1, 1};
        const std::optional<std::vector<double>> gltf_base = finite(material.base_colour);
        const std::optional<std::vector<double>> diffuse = finite(material.diffuse);
        const std::optional<double> opacity = first_finite(material.opacity);
        std::string base_texture = texture_info(material, m, kBaseColor, sets);
        if (base_texture.empty()) base_texture = texture_info(material, m, kDiffuse, sets);
        const bool base_slot = material.first_of(kBaseColor, kDiffuse) != nullptr;
        if (gltf_base) {
            for (size_t c = 0; c < 4 && c < gltf_base->size(); ++c)
                base[c] = clamp01((*gltf_base)[c]);
        } else if (diffuse && !base_slot) { // a textured Phong material shows its texture as it is
            for (size_t c = 0; c < 3 && c < diffuse->size(); ++c)
                base[c] = clamp01((*diffuse)[c]);
        }
        // An opacity of exactly 0 over a whole material, with no opacity texture, is a file written
        // with the inverted transparency convention (Collada's transparency 1 read as "opaque" by
        // its writer: teapots, regr01, earthCylindrical), never a model meant to be invisible:
        // written opaque, and said.
        if (!gltf_base && opacity && *opacity == 0 && !material.texture(kOpacity)) {
            invisible.insert(m);
        } else if (!gltf_base && opacity) {
            base[3] = clamp01(*opacity);
        }
        std::string pbr = "\"baseColorFactor\":[" + json_number(base[0]) + "," + json_number(base[1]) + "," +
                          json_number(base[2]) + "," + json_number(base[3]) + "]";
        if (!base_texture.empty()) pbr += ",\"baseColorTexture\":" + base_texture;
        const std::optional<double> metallic = first_finite(material.metallic);
        std::optional<double> roughness = first_finite(material.roughness);
        if (!roughness) {
            if (const std::optional<double> shininess = first_finite(material.shininess);
                shininess && *shininess >= 0)
                roughness = std::sqrt(2.0 / (*shininess + 2.0)); // Blinn-Phong exponent to GGX
        }
        pbr += ",\"metallicFactor\":" + json_number(clamp01(metallic.value_or(0.0)));
        pbr += ",\"roughnessFactor\":" + json_number(clamp01(roughness.value_or(1.0)));
        if (const TextureSlot* orm = material.orm()) {
            const std::string info = texture_info(material, m, orm->type, sets);
            if (!info.empty()) pbr += ",\"metallicRoughnessTexture\":" + info;
        }
        std::string object;
        if (!material.name.empty()) object += "\"name\":" + json_string(material.name) + ",";
        object += "\"pbrMetallicRoughness\":{" + pbr + "}";
        const uint32_t normal_type = material.texture(kNormals) ? kNormals : kNormalCamera;
        const std::optional<double> normal_scale = material.settings(normal_type).scale;
        const std::string normal = texture_info(
            material, m, normal_type, sets,
            normal_scale && *normal_scale != 1 ? ",\"scale\":" + json_number(*normal_scale) : "");
        if (!normal.empty()) object += ",\"normalTexture\":" + normal;
        const uint32_t occlusion_type = material.texture(kLightmap) ? kLightmap : kAmbientOcclusion;
        const std::optional<double> strength = material.settings(occlusion_type).strength;
        const std::string occlusion = texture_info(
            material, m, occlusion_type, sets,
            strength && *strength != 1 ? ",\"strength\":" + json_number(clamp01(*strength)) : "");
        if (!occlusion.empty()) object += ",\"occlusionTexture\":" + occlusion;
        std::string emissive_texture = texture_info(material, m, kEmissive, sets);
        if (emissive_texture.empty()) emissive_texture = texture_info(material, m, kEmissionColor, sets);
        std::array<double, 3> emissive = {0, 0, 0};
        if (const auto colour = finite(material.emissive)) {
            for (size_t c = 0; c < 3 && c < colour->size(); ++c)
                emissive[c] = clamp01((*colour)[c]);
        }
        if (!emissive_texture.empty()) {
            object += ",\"emissiveTexture\":" + emissive_texture;
            if (emissive == std::array<double, 3>{0, 0, 0})
                emissive = {1, 1, 1}; // else the texture shows nothing
        }
        if (emissive != std::array<double, 3>{0, 0, 0}) {
            object += ",\"emissiveFactor\":[" + json_number(emissive[0]) + "," + json_number(emissive[1]) +
                      "," + json_number(emissive[2]) + "]";
        }
        if (material.alpha_mode == "MASK") {
            object += ",\"alphaMode\":\"MASK\"";
            if (const auto cutoff = first_finite(material.alpha_cutoff); cutoff && *cutoff >= 0)
                object += ",\"alphaCutoff\":" + json_number(*cutoff);
        } else if (material.alpha_mode == "BLEND" || (material.alpha_mode.empty() && base[3] < 1)) {
            object += ",\"alphaMode\":\"BLEND\"";
        }
        if (first_finite(material.two_sided).value_or(0) != 0) object += ",\"doubleSided\":true";
        return build.doc.add(build.doc.materials, object);
    }
};

Materials::Materials(Build& build) : state_(new State(build)) {}
Materials::~Materials() {
    delete state_;
}

uint32_t Materials::for_primitive(uint32_t material, uint32_t texcoord_sets) {
    // Which of the material's textures the primitive can draw depends only on how many sets it has
    // up to the largest set the material reads: materials differ only there.
    const uint32_t sets = std::min(texcoord_sets, state_->build.prepared.materials[material].uv_sets_read);
    auto [at, fresh] = state_->material_of.emplace(std::pair{material, sets}, 0);
    if (fresh) at->second = state_->write(material, sets);
    return at->second;
}

void Materials::write_every_material() {
    for (uint32_t m = 0; m < state_->build.scene.materials.size(); ++m)
        for_primitive(m, assbin::kMaxUvChannels);
    if (!state_->invisible.empty()) {
        state_->build.report.warn(
            detail::count_of(state_->invisible.size(), "material", "materials") +
            " with an opacity of 0 and no opacity texture written opaque: a whole material drawn "
            "invisible is a file of the inverted transparency convention (Collada writers that store 1 - "
            "opacity), not a model meant to vanish");
    }
}

std::optional<uint32_t> Materials::normal_map_uv_set(uint32_t material) const {
    const TextureSlot* slot = state_->build.prepared.materials[material].first_of(kNormals, kNormalCamera);
    return slot ? std::optional<uint32_t>(slot->uv_set) : std::nullopt;
}

} // namespace assbin::converter::gltf
