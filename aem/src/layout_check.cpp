// check_layout_expressible: a model is written in its own layout, and must not hold anything that
// layout has no field for (the write would silently drop it and the file would say less).
#include "layouts.hpp"

#include <aem/io.hpp>

#include <string>

namespace aem::detail {

namespace {

[[noreturn]] void mismatch(const Model& model, const std::string& what) {
    const char* layout = model.layout == Layout::Edition2025 ? "2025" : "2024";
    throw Error(ErrorCode::LayoutMismatch,
                what + ", which the " + layout +
                    " layout has no field for (convert the model to the other layout)");
}

void check_2024(const Model& model) {
    if (!model.image_buffer.empty()) mismatch(model, "the model holds texels");
    for (size_t t = 0; t < model.textures.size(); ++t) {
        const Texture& texture = model.textures[t];
        if (texture.image_offset || texture.width || texture.height || texture.wrap_x || texture.wrap_y ||
            texture.channels || texture.compression)
            mismatch(model, "texture " + std::to_string(t) + " has an image");
    }
    for (size_t m = 0; m < model.materials.size(); ++m) {
        if (model.materials[m].type != kMaterialOpaque)
            mismatch(model, "material " + std::to_string(m) + " has a type");
    }
    for (size_t b = 0; b < model.bones.size(); ++b) {
        if (!model.bones[b].name.empty()) mismatch(model, "bone " + std::to_string(b) + " has a name");
    }
}

void check_2025(const Model& model) {
    for (size_t t = 0; t < model.textures.size(); ++t) {
        if (!model.textures[t].file_name.empty())
            mismatch(model, "texture " + std::to_string(t) + " has a file name");
    }
    for (size_t v = 0; v < model.vertices.size(); ++v) {
        if (model.vertices[v].extra_bone != kNone)
            mismatch(model, "vertex " + std::to_string(v) + " has an extra bone index");
    }
    for (size_t a = 0; a < model.animations.size(); ++a) {
        if (uint64_t{model.animations[a].first_sequence} != uint64_t{a} * model.bones.size())
            mismatch(model,
                     "animation " + std::to_string(a) + "'s tracks do not start at animation x joints");
    }
    for (size_t s = 0; s < model.sequences.size(); ++s) {
        const Sequence& track = model.sequences[s];
        if (track.rotation.first != track.position.first + track.position.count ||
            track.scale.first != track.rotation.first + track.rotation.count)
            mismatch(model,
                     "track " + std::to_string(s) + "'s rotation or scale keys do not follow its others");
    }
}

} // namespace

void check_layout_expressible(const Model& model) {
    if (model.layout == Layout::Edition2025) {
        check_2025(model);
    } else {
        check_2024(model);
    }
}

} // namespace aem::detail
