// Which external texture names mean an embedded texture. Assimp's importers refer to an embedded
// texture either as "*N" or by the texture's own file name (aiTexture::mFilename, matched by
// aiScene::GetEmbeddedTexture): FBX keeps the original path in the material (`..\..\3DS\jeep1.jpg`)
// and the image inside, HL1 MDL names its texel textures ("Material.bmp"). ASSBIN does not store
// mFilename, so the link is lost in the dump; it is restored here only where it cannot be wrong in
// practice: the embedded textures no material names as "*N" and the distinct external names, in
// the order materials name them, are as many, and each name's extension agrees with its image's
// format hint (texels have none to agree with). In the 5.2.5 corpus this pairs every such dump's
// images (FBX jeep1, mp5_sil, mar_rifle, box_orphant_embedded_texture; the HL1 MDL models), and
// the pictures confirm it.
#include "pipeline.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

namespace assbin::converter::detail {

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// "jpg" for "..\\a\\JEEP1.JPEG"; "" without an extension.
std::string extension_of(const std::string& name) {
    const size_t slash = name.find_last_of("/\\");
    const size_t dot = name.rfind('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    const std::string extension = lower(std::string_view(name).substr(dot + 1));
    return extension == "jpeg" ? "jpg" : extension;
}

bool agrees(const std::string& name, const assbin::Texture& texture) {
    if (!texture.is_compressed()) return true; // texels: no file format to agree with
    std::string hint = lower(texture.format_hint);
    hint.erase(std::find(hint.begin(), hint.end(), '\0'), hint.end());
    if (hint == "jpeg") hint = "jpg";
    return hint.empty() || hint == extension_of(name);
}

} // namespace

std::map<std::string, uint32_t> embedded_texture_aliases(const assbin::Scene& scene) {
    if (scene.textures.empty()) return {};
    std::set<uint64_t> named_by_index;
    std::vector<std::string> names; // distinct, in the order materials name them
    for (const assbin::Material& material : scene.materials) {
        for (const assbin::MaterialProperty& property : material.properties) {
            if (property.key != "$tex.file") continue;
            std::optional<std::string> path = property.string_value();
            if (!path) continue;
            path->resize(std::min(path->size(), path->find('\0')));
            if (path->empty()) continue;
            if ((*path)[0] == '*') {
                uint64_t n = 0;
                const auto [end, error] = std::from_chars(path->data() + 1, path->data() + path->size(), n);
                if (error == std::errc() && end == path->data() + path->size()) named_by_index.insert(n);
            } else if (std::find(names.begin(), names.end(), *path) == names.end()) {
                names.push_back(*path);
            }
        }
    }
    std::vector<uint32_t> unnamed;
    for (uint32_t n = 0; n < scene.textures.size(); ++n) {
        if (!named_by_index.count(n)) unnamed.push_back(n);
    }
    std::map<std::string, uint32_t> aliases;
    if (unnamed.empty() || unnamed.size() != names.size()) return aliases;
    for (size_t k = 0; k < names.size(); ++k) {
        if (!agrees(names[k], scene.textures[unnamed[k]])) return {};
        aliases.emplace(names[k], unnamed[k]);
    }
    return aliases;
}

std::string alias_note(const std::string& name, uint32_t n) {
    return "texture " + quote_name(name) + " is taken to be embedded texture " + std::to_string(n) +
           " (the embedded images no material names as \"*N\" pair one to one with the external names; "
           "ASSBIN keeps no embedded texture's file name)";
}

} // namespace assbin::converter::detail
