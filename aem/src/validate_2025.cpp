// The 2025 layout's own invariants (AEM-FORMAT.md "The 2025 layout"), on top of the rules both
// layouts share (validate.cpp): textures whose MIP chains lie in the image buffer, in a format the
// layout knows; materials that always name three textures and a type; no extra bone index; tracks
// whose keys lie back to back, animation × joints of them.
#include "layouts.hpp"

#include <string>

namespace aem::detail {

namespace {

class Checker2025 {
  public:
    Checker2025(const Model& model, std::vector<Violation>& violations)
        : model_(model), violations_(violations) {}

    void run() {
        for (size_t t = 0; t < model_.textures.size(); ++t)
            check_texture(t);
        for (size_t m = 0; m < model_.materials.size(); ++m)
            check_material(m);
        for (size_t v = 0; v < model_.vertices.size(); ++v) {
            if (model_.vertices[v].extra_bone != kNone) {
                report(Rule::ExtraBoneInLayout, at("vertices", v, ".extra_bone"),
                       "is " + std::to_string(model_.vertices[v].extra_bone) +
                           "; the 2025 layout has no extra bone index (mesh animation is a joint with weight "
                           "1)");
            }
        }
        check_tracks();
    }

  private:
    static std::string at(const char* section, size_t index, const std::string& field = {}) {
        return std::string(section) + "[" + std::to_string(index) + "]" + field;
    }

    void report(Rule rule, std::string location, std::string message) {
        violations_.push_back({rule, std::move(location), std::move(message)});
    }

    // Why the texture's format is not one the layout knows, or empty.
    static std::string format_fault(const Texture& t) {
        if (t.width == 0 || t.height == 0)
            return "has a size of " + std::to_string(t.width) + " x " + std::to_string(t.height);
        if (t.wrap_x > kWrapClampToEdge || t.wrap_y > kWrapClampToEdge)
            return "has wrap modes " + std::to_string(t.wrap_x) + ", " + std::to_string(t.wrap_y) +
                   " (0, 1 or 2 each)";
        if (t.channels != 2 && t.channels != 4)
            return "has " + std::to_string(t.channels) + " channels (2 for a normal map, 4 otherwise)";
        if (t.compression > kCompressionBc7)
            return "has compression " + std::to_string(t.compression) + " (0, 1 or 2)";
        if (t.compression == kCompressionBc5 && t.channels != 2)
            return "is BC5 with 4 channels (BC5 is for 2)";
        if (t.compression == kCompressionBc7 && t.channels != 4)
            return "is BC7 with 2 channels (BC7 is for 4)";
        return {};
    }

    void check_texture(size_t t) {
        const Texture& texture = model_.textures[t];
        if (const std::string fault = format_fault(texture); !fault.empty()) {
            report(Rule::TextureFormat, at("textures", t), fault);
            return;
        }
        const uint64_t bytes =
            mip_chain_bytes(texture.width, texture.height, texture.channels, texture.compression);
        const uint64_t buffer = model_.image_buffer.size();
        if (texture.image_offset > buffer || bytes > buffer - texture.image_offset) {
            report(Rule::TextureChainOutOfBounds, at("textures", t),
                   "its " + std::to_string(mip_level_count(texture.width, texture.height)) +
                       "-level chain of " + std::to_string(bytes) + " bytes from byte " +
                       std::to_string(texture.image_offset) + " leaves the image buffer of " +
                       std::to_string(buffer) + " bytes");
        }
    }

    void check_material(size_t m) {
        const Material& material = model_.materials[m];
        const std::pair<const char*, int32_t> slots[] = {{".base_color_texture", material.base_color_texture},
                                                         {".normal_texture", material.normal_texture},
                                                         {".pbr_texture", material.orm_texture}};
        for (const auto& [slot, texture] : slots) {
            if (texture < 0 || static_cast<uint64_t>(texture) >= model_.textures.size()) {
                report(Rule::MaterialTextureMissing, at("materials", m, slot),
                       "is " + std::to_string(texture) + "; in the 2025 layout every slot names one of the " +
                           std::to_string(model_.textures.size()) + " textures");
            }
        }
        if (material.type > kMaterialTransparent) {
            report(Rule::MaterialType, at("materials", m, ".type"),
                   "is " + std::to_string(material.type) + " (0 opaque, 1 transparent)");
        }
    }

    void check_tracks() {
        for (size_t a = 0; a < model_.animations.size(); ++a) {
            if (uint64_t{model_.animations[a].first_sequence} != uint64_t{a} * model_.bones.size()) {
                report(
                    Rule::TrackStart, at("animations", a),
                    "its tracks start at " + std::to_string(model_.animations[a].first_sequence) +
                        ", not at animation x joints = " + std::to_string(uint64_t{a} * model_.bones.size()));
            }
        }
        for (size_t s = 0; s < model_.sequences.size(); ++s) {
            const Sequence& track = model_.sequences[s];
            if (uint64_t{track.rotation.first} != uint64_t{track.position.first} + track.position.count ||
                uint64_t{track.scale.first} != uint64_t{track.rotation.first} + track.rotation.count) {
                report(Rule::TrackNotContiguous, at("sequences", s),
                       "its translation, rotation and scale keys do not lie back to back");
            }
        }
    }

    const Model& model_;
    std::vector<Violation>& violations_;
};

} // namespace

void check_2025_invariants(const Model& model, std::vector<Violation>& violations) {
    Checker2025(model, violations).run();
}

} // namespace aem::detail
