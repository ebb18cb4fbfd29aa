// The 2025 layout's materials: every material gets a base colour (RGBA, alpha = opacity), a
// normal map (RG) and a PBR texture (roughness, occlusion, metalness, emissive in R, G, B, A), from
// its images where it names them and from its factors otherwise, each with a full MIP chain;
// identical textures are stored once.
// Cost: per material a fixed set of key look-ups; each image decoded once and its MIP chain made in
// time linear in its pixels (a chain adds a third); identical textures found by a table of contents.
#include "materials/textures_2025.hpp"
#include "run_tasks.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <thread>

namespace assbin::converter::detail {

namespace {

// A texture about to be stored: its level 0 and how its chain is built.
struct PendingTexture {
    Pixels level0;
    bool srgb = false;
    uint32_t compression = aem::kCompressionNone; // BC5 (2 channels) or BC7 (4) with --compress
    uint32_t wrap_x = aem::kWrapRepeat, wrap_y = aem::kWrapRepeat;
    std::vector<uint8_t> chain; // filled in parallel
};

uint8_t unit_byte(double value) {
    return static_cast<uint8_t>(
        std::lround(std::clamp(std::isfinite(value) ? value : 0.0, 0.0, 1.0) * 255.0));
}

uint8_t srgb_byte(double linear) {
    const double c = std::clamp(std::isfinite(linear) ? linear : 0.0, 0.0, 1.0);
    return unit_byte(c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055);
}

// The first `otherwise.size()` values of a factor, or `otherwise` when it holds fewer.
std::vector<double> factor(const std::vector<double>& values, std::vector<double> otherwise) {
    if (values.size() < otherwise.size()) return otherwise;
    return {values.begin(), values.begin() + static_cast<std::ptrdiff_t>(otherwise.size())};
}

Pixels one_texel(std::vector<uint8_t> texel) {
    return Pixels{1, 1, static_cast<uint32_t>(texel.size()), std::move(texel)};
}

// aiTextureMapMode (0 wrap, 1 clamp, 2 mirror, 3 decal) -> AEM (0 repeat, 1 mirrored, 2 clamp). A
// decal shows nothing outside 0..1; clamping shows its edge there, the nearest AEM has.
uint32_t wrap_mode(const std::optional<int32_t>& mode) {
    if (!mode) return aem::kWrapRepeat;
    return *mode == 2                 ? aem::kWrapMirroredRepeat
           : *mode == 1 || *mode == 3 ? aem::kWrapClampToEdge
                                      : aem::kWrapRepeat;
}

class MaterialBuilder {
  public:
    MaterialBuilder(const assbin::Scene& scene, const ConvertOptions& options, Report& report)
        : scene_(scene), sources_(scene, options, report) {}

    aem::Material build(const MaterialKeys& source, size_t m) {
        label_ = material_label(scene_, m);
        std::vector<double> base = factor(source.base_colour, {-1, -1, -1, -1});
        if (base[0] < 0) base = factor(source.diffuse, {1, 1, 1});
        base.resize(4, 1.0);
        base[3] = factor(source.opacity, {base[3]})[0];
        aem::Material material;
        bool see_through =
            unit_byte(base[3]) < 255 || source.alpha_mode == "BLEND" || source.alpha_mode == "MASK";
        material.base_color_texture = add(base_colour(source, base, see_through));
        material.normal_texture = add(normal_map(source));
        material.orm_texture = add(pbr(source));
        material.type = see_through ? aem::kMaterialTransparent : aem::kMaterialOpaque;
        return material;
    }

    std::vector<PendingTexture>& pending() { return pending_; }

  private:
    const Pixels* image(const TextureSlot* slot) {
        return slot ? sources_.rgba(slot->path, label_) : nullptr;
    }

    PendingTexture base_colour(const MaterialKeys& source, const std::vector<double>& base,
                               bool& see_through) {
        PendingTexture texture;
        texture.srgb = true;
        const TextureSlot& settings = source.settings(source.texture(kBaseColor) ? kBaseColor : kDiffuse);
        texture.wrap_x = wrap_mode(settings.map_mode_u);
        texture.wrap_y = wrap_mode(settings.map_mode_v);
        if (const Pixels* pixels = image(source.first_of(kBaseColor, kDiffuse))) {
            texture.level0 = *pixels;
            for (size_t i = 3; i < texture.level0.data.size(); i += 4) {
                texture.level0.data[i] = unit_byte(texture.level0.data[i] / 255.0 * base[3]);
                see_through = see_through || texture.level0.data[i] < 255;
            }
        } else {
            texture.level0 =
                one_texel({srgb_byte(base[0]), srgb_byte(base[1]), srgb_byte(base[2]), unit_byte(base[3])});
        }
        return texture;
    }

    // x and y of the tangent-space normal; y is negated (G' = 255 - G) because the 2025 layout's
    // bitangent follows the flipped v: the same world normal in the flipped frame.
    PendingTexture normal_map(const MaterialKeys& source) {
        PendingTexture texture;
        const Pixels* pixels = image(source.first_of(kNormals, kNormalCamera));
        if (!pixels) {
            texture.level0 = one_texel({128, 128});
            return texture;
        }
        texture.level0 = Pixels{pixels->width, pixels->height, 2, {}};
        texture.level0.data.resize(size_t{pixels->width} * pixels->height * 2);
        for (size_t i = 0; i < size_t{pixels->width} * pixels->height; ++i) {
            texture.level0.data[2 * i] = pixels->data[4 * i];
            texture.level0.data[2 * i + 1] = static_cast<uint8_t>(255 - pixels->data[4 * i + 1]);
        }
        return texture;
    }

    PendingTexture pbr(const MaterialKeys& source);

    const assbin::Scene& scene_;
    TextureSources sources_;
    std::string label_;
    std::vector<PendingTexture> pending_;

    int32_t add(PendingTexture texture) {
        pending_.push_back(std::move(texture));
        return static_cast<int32_t>(pending_.size() - 1);
    }
};

// Roughness, occlusion, metalness, emissive: each from an image channel where the material has one
// (glTF's metallic-roughness file: roughness in G, metalness in B), else from its factor.
PendingTexture MaterialBuilder::pbr(const MaterialKeys& source) {
    const uint8_t roughness = unit_byte(factor(source.roughness, {1})[0]);
    const uint8_t metalness = unit_byte(factor(source.metallic, {0})[0]);
    const std::vector<double> glow = factor(source.emissive, {0, 0, 0});
    const uint8_t emissive = unit_byte(*std::max_element(glow.begin(), glow.end()));
    const TextureSlot* rough = source.texture(kDiffuseRoughness);
    const TextureSlot* metal = source.texture(kMetalness);
    const bool packed = rough && metal && rough->path == metal->path;
    struct Channel {
        const Pixels* image;
        uint32_t channel;
        uint8_t otherwise;
    };
    const Channel channels[4] = {{image(rough), packed ? 1u : 0u, roughness},
                                 {image(source.first_of(kAmbientOcclusion, kLightmap)), 0, 255},
                                 {image(metal), packed ? 2u : 0u, metalness},
                                 {image(source.first_of(kEmissive, kEmissionColor)), 0, emissive}};
    uint32_t width = 1, height = 1;
    for (const Channel& c : channels) {
        if (c.image) width = std::max(width, c.image->width), height = std::max(height, c.image->height);
    }
    PendingTexture texture;
    texture.level0 = Pixels{width, height, 4, std::vector<uint8_t>(size_t{width} * height * 4)};
    for (uint32_t y = 0; y < height; ++y) {
        for (uint32_t x = 0; x < width; ++x) {
            for (uint32_t k = 0; k < 4; ++k) { // nearest texel of each image, scaled to the largest
                const Channel& c = channels[k];
                texture.level0.data[(size_t{y} * width + x) * 4 + k] =
                    c.image ? c.image->at(x * c.image->width / width, y * c.image->height / height, c.channel)
                            : c.otherwise;
            }
        }
    }
    return texture;
}

// 64-bit FNV-1a over the bytes, 8 at a time: a quick key to find identical chains by.
uint64_t chain_hash(const std::vector<uint8_t>& bytes) {
    uint64_t h = 1469598103934665603ull;
    size_t i = 0;
    for (; i + 8 <= bytes.size(); i += 8) {
        uint64_t word;
        std::memcpy(&word, bytes.data() + i, 8);
        h = (h ^ word) * 1099511628211ull;
    }
    for (; i < bytes.size(); ++i)
        h = (h ^ bytes[i]) * 1099511628211ull;
    return h;
}

// Appends one texture's chain to the model, or finds the identical one already stored.
class TextureStore {
  public:
    explicit TextureStore(aem::Model& model) : model_(model) {}

    int32_t store(const PendingTexture& t) {
        aem::Texture texture;
        texture.width = t.level0.width;
        texture.height = t.level0.height;
        texture.channels = t.level0.channels;
        texture.compression = t.compression;
        texture.wrap_x = t.wrap_x;
        texture.wrap_y = t.wrap_y;
        std::vector<int32_t>& same_hash = index_[chain_hash(t.chain)];
        for (const int32_t candidate : same_hash) {
            aem::Texture stored = model_.textures[static_cast<size_t>(candidate)];
            const uint8_t* bytes = model_.image_buffer.data() + stored.image_offset;
            stored.image_offset = 0;
            if (stored == texture && std::equal(t.chain.begin(), t.chain.end(), bytes)) return candidate;
        }
        texture.image_offset = model_.image_buffer.size();
        model_.image_buffer.insert(model_.image_buffer.end(), t.chain.begin(), t.chain.end());
        model_.textures.push_back(texture);
        same_hash.push_back(static_cast<int32_t>(model_.textures.size() - 1));
        return same_hash.back();
    }

  private:
    aem::Model& model_;
    std::map<uint64_t, std::vector<int32_t>> index_;
};

} // namespace

void build_materials_2025(const assbin::Scene& scene, const std::vector<MaterialKeys>& keys,
                          const ConvertOptions& options, aem::Model& model, Report& report) {
    MaterialBuilder builder(scene, options, report);
    std::vector<aem::Material> materials;
    for (size_t m = 0; m < keys.size(); ++m)
        materials.push_back(builder.build(keys[m], m));
    std::vector<PendingTexture>& pending = builder.pending();
    const unsigned threads = thread_count(options.texture_threads);
    // Materials often share an image (or a factor texture): a chain is built and compressed once
    // per distinct level 0, and its copies take the result. (The store below would find them equal
    // anyway; this spares encoding them again: a fifth of --compress's time on the textured corpus.)
    std::vector<size_t> built; // the first pending texture of each distinct level 0
    std::vector<size_t> same_as(pending.size());
    {
        std::map<uint64_t, std::vector<size_t>> by_hash;
        for (size_t i = 0; i < pending.size(); ++i) {
            const PendingTexture& t = pending[i];
            std::vector<size_t>& candidates = by_hash[chain_hash(t.level0.data)];
            const auto same = std::find_if(candidates.begin(), candidates.end(), [&](size_t j) {
                const PendingTexture& u = pending[j];
                return u.srgb == t.srgb && u.level0.width == t.level0.width &&
                       u.level0.height == t.level0.height && u.level0.channels == t.level0.channels &&
                       u.level0.data == t.level0.data;
            });
            same_as[i] = same == candidates.end() ? i : *same;
            if (same == candidates.end()) {
                candidates.push_back(i);
                built.push_back(i);
            }
        }
    }
    assbin_common::run_tasks(built.size(), threads, [&](size_t k) {
        PendingTexture& t = pending[built[k]];
        if (options.max_texture_size > 0) t.level0 = limit_size(t.level0, options.max_texture_size, t.srgb);
        t.chain = mip_chain(t.level0, t.srgb);
        if (options.compress_textures && t.level0.channels == 2) {
            t.compression = aem::kCompressionBc5;
            t.chain = compress_bc5(t.chain, t.level0.width, t.level0.height);
        }
    });
    // BC7 after the chains, texture by texture, each on every thread: blocks are independent, so a
    // model of one big texture uses them all, and the bytes are the same for any thread count.
    for (const size_t i : built) {
        PendingTexture& t = pending[i];
        if (!options.compress_textures || t.level0.channels != 4) continue;
        t.compression = aem::kCompressionBc7;
        t.chain = compress_bc7(t.chain, t.level0.width, t.level0.height, threads);
    }
    for (size_t i = 0; i < pending.size(); ++i) {
        if (same_as[i] == i) continue;
        const PendingTexture& first = pending[same_as[i]];
        pending[i].level0 = first.level0; // resized alike, where --max-texture-size resized it
        pending[i].compression = first.compression;
        pending[i].chain = first.chain;
    }
    model.textures.clear();
    model.image_buffer.clear();
    TextureStore store(model);
    std::vector<int32_t> stored(pending.size());
    for (size_t i = 0; i < pending.size(); ++i)
        stored[i] = store.store(pending[i]);
    for (aem::Material& material : materials) {
        for (int32_t* slot : {&material.base_color_texture, &material.normal_texture, &material.orm_texture})
            *slot = stored[static_cast<size_t>(*slot)];
    }
    model.materials = std::move(materials);
}

} // namespace assbin::converter::detail
