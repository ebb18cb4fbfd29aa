// The 2025 layout (AEM-FORMAT.md "What changes for a converter writing this layout"), made from
// the model the rules of the 2024 layout built: the geometry, skeleton and keys are the same
// scene, only expressed the way today's AEM runtime reads them.
#include "stages.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace assbin::converter::detail {

std::string cut_name(std::string name, size_t limit) {
    if (name.size() <= limit) return name;
    size_t end = limit;
    // Back up over continuation bytes (10xxxxxx) to the start of the character the cut splits.
    while (end > 0 && (static_cast<unsigned char>(name[end]) & 0xC0) == 0x80)
        --end;
    name.resize(end);
    return name;
}

namespace {

// Joints are the bones, named after the nodes they stand for.
void name_joints(const assbin::Scene& scene, const Skeleton& skeleton, aem::Model& model, Report& report) {
    size_t cut = 0;
    for (size_t b = 0; b < model.bones.size(); ++b) {
        std::string name = scene.nodes[skeleton.bone_node[b]].name;
        name.resize(std::min(name.size(), name.find('\0')));
        cut += name.size() > aem::kMaxNameLength ? 1 : 0;
        model.bones[b].name = cut_name(std::move(name));
    }
    if (cut > 0) {
        report.warn(std::to_string(cut) + " joint names were longer than 127 bytes and were cut (at a "
                                          "character boundary)");
    }
}

// Mesh animation becomes a joint with weight 1; UVs flip to a top-left origin, and the bitangent,
// which points along +v, follows the flip (the tangent, along +u, does not change).
void convert_vertices(aem::Model& model) {
    for (aem::Vertex& v : model.vertices) {
        if (v.extra_bone != aem::kNone) { // rule 3: only vertices without a skin carry one
            v.bone_indices = {v.extra_bone, aem::kNone, aem::kNone, aem::kNone};
            v.bone_weights = {1, 0, 0, 0};
            v.extra_bone = aem::kNone;
        }
        v.uv.y() = 1.0f - v.uv.y();
        v.bitangent = -v.bitangent;
    }
}

// Each track's translation, rotation and scale keys back to back (the 2024 model shares rest keys
// between animations), animations starting at animation × joints.
void lay_out_tracks(aem::Model& model) {
    std::vector<aem::Keyframe> keys;
    keys.reserve(model.keyframes.size());
    for (aem::Sequence& track : model.sequences) {
        for (aem::KeyRange* range : {&track.position, &track.rotation, &track.scale}) {
            const auto first = model.keyframes.begin() + range->first;
            range->first = static_cast<uint32_t>(keys.size());
            keys.insert(keys.end(), first, first + range->count);
        }
    }
    model.keyframes = std::move(keys);
    for (size_t a = 0; a < model.animations.size(); ++a)
        model.animations[a].first_sequence = static_cast<uint32_t>(a * model.bones.size());
}

uint8_t unit_byte(double value) {
    return static_cast<uint8_t>(
        std::lround(std::clamp(std::isfinite(value) ? value : 0.0, 0.0, 1.0) * 255.0));
}

uint8_t srgb_byte(double linear) {
    const double c = std::clamp(std::isfinite(linear) ? linear : 0.0, 0.0, 1.0);
    return unit_byte(c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055);
}

// The first `count` numbers of a float property, or nullopt.
std::optional<std::vector<double>> factor(const assbin::Material& material, std::string_view key,
                                          size_t count) {
    const assbin::MaterialProperty* property = material.find(key);
    if (!property) return std::nullopt;
    std::vector<double> values = property->numbers();
    if (values.size() < count) return std::nullopt;
    values.resize(count);
    return values;
}

// 1 x 1 textures (a single MIP level) from a material's factors, stored once each.
class FactorTextures {
  public:
    explicit FactorTextures(aem::Model& model) : model_(model) {}

    int32_t texture(const std::vector<uint8_t>& texel) {
        uint64_t key = texel.size(); // at most 4 channels: the texel and its size in one number
        for (const uint8_t channel : texel)
            key = key << 8 | channel;
        const auto [at, fresh] = index_.emplace(key, static_cast<int32_t>(model_.textures.size()));
        if (!fresh) return at->second;
        aem::Texture texture;
        texture.image_offset = model_.image_buffer.size();
        texture.width = texture.height = 1;
        texture.channels = static_cast<uint32_t>(texel.size());
        model_.image_buffer.insert(model_.image_buffer.end(), texel.begin(), texel.end());
        model_.textures.push_back(texture);
        return at->second;
    }

    aem::Material material(const assbin::Material& source) {
        std::vector<double> base =
            factor(source, "$clr.base", 4)
                .value_or(factor(source, "$clr.diffuse", 3).value_or(std::vector<double>{1, 1, 1}));
        base.resize(4, 1.0);
        if (const auto opacity = factor(source, "$mat.opacity", 1)) base[3] = (*opacity)[0];
        const double roughness =
            factor(source, "$mat.roughnessFactor", 1).value_or(std::vector<double>{1})[0];
        const double metalness = factor(source, "$mat.metallicFactor", 1).value_or(std::vector<double>{0})[0];
        const std::vector<double> emissive =
            factor(source, "$clr.emissive", 3).value_or(std::vector<double>{0, 0, 0});
        aem::Material material;
        material.base_color_texture =
            texture({srgb_byte(base[0]), srgb_byte(base[1]), srgb_byte(base[2]), unit_byte(base[3])});
        material.normal_texture = texture({128, 128});
        material.orm_texture = texture({unit_byte(roughness), 255, unit_byte(metalness),
                                        unit_byte(*std::max_element(emissive.begin(), emissive.end()))});
        material.type = unit_byte(base[3]) < 255 ? aem::kMaterialTransparent : aem::kMaterialOpaque;
        return material;
    }

  private:
    aem::Model& model_;
    std::map<uint64_t, int32_t> index_;
};

void convert_materials_2025(const assbin::Scene& scene, aem::Model& model, Report& report) {
    model.textures.clear();
    model.materials.clear();
    FactorTextures textures(model);
    size_t with_images = 0;
    for (const assbin::Material& material : scene.materials) {
        model.materials.push_back(textures.material(material));
        with_images += material.find("$tex.file", 1) || material.find("$tex.file", 12) ? 1 : 0;
    }
    if (with_images > 0) {
        report.warn(
            std::to_string(with_images) +
            " materials name image textures; this converter does not decode images for the 2025 layout "
            "yet, so their base colour, normal and PBR textures come from the material's factors");
    }
}

} // namespace

void convert_to_layout_2025(const assbin::Scene& scene, const Skeleton& skeleton, ConvertResult& result,
                            Report& report) {
    aem::Model& model = result.model;
    model.layout = aem::Layout::Edition2025;
    name_joints(scene, skeleton, model, report);
    convert_vertices(model);
    lay_out_tracks(model);
    convert_materials_2025(scene, model, report);
}

} // namespace assbin::converter::detail
