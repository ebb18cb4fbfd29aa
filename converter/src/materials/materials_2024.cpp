// Rule 9: three texture slots per material, external names kept, embedded textures extracted as
// PNG stored bottom row first (the AEM viewer uploads rows without flipping), decoded and encoded
// on options.texture_threads threads. stb_image (Debian libstb-dev, compiled in stb_image_impl.cpp)
// decodes; libpng encodes (png_encode.cpp).
// Cost: a material's keys are looked up in its properties (linear in the properties for each of a
// fixed set of keys); each embedded texture is decoded and encoded once, linear in its pixels.
#include "pipeline.hpp"
#include "run_tasks.hpp"

#define STBI_NO_STDIO
#include <stb/stb_image.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace assbin::converter {

std::optional<Image> decode_image(std::span<const std::byte> file, std::string* error) {
    if (file.empty() || file.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
        if (error) *error = file.empty() ? "the file is empty" : "the file is too large";
        return std::nullopt;
    }
    int width = 0, height = 0, channels = 0;
    stbi_uc* pixels = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(file.data()),
                                            static_cast<int>(file.size()), &width, &height, &channels, 4);
    if (!pixels) {
        if (error) *error = stbi_failure_reason() ? stbi_failure_reason() : "unknown image format";
        return std::nullopt;
    }
    Image image;
    image.width = static_cast<uint32_t>(width);
    image.height = static_cast<uint32_t>(height);
    image.rgba.assign(pixels, pixels + size_t{image.width} * image.height * 4);
    stbi_image_free(pixels);
    return image;
}

Image flip_rows(const Image& image) {
    Image flipped = image;
    const size_t row = size_t{image.width} * 4;
    for (size_t y = 0; y < image.height; ++y) {
        std::copy_n(image.rgba.begin() + static_cast<std::ptrdiff_t>(y * row), row,
                    flipped.rgba.begin() + static_cast<std::ptrdiff_t>((image.height - 1 - y) * row));
    }
    return flipped;
}

namespace detail {

std::string material_label(const assbin::Scene& scene, size_t m) {
    return "material " + std::to_string(m) + " (" + quote_name(scene.materials[m].name()) + ")";
}

namespace {

// "png", "jpg", ... from a format hint: lower-case letters and digits, "bin" when nothing is left.
std::string extension_from_hint(const std::string& hint) {
    std::string out;
    for (const char c : hint) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out.empty() ? "bin" : out;
}

std::span<const std::byte> bytes_of(const std::vector<uint8_t>& data) {
    return {reinterpret_cast<const std::byte*>(data.data()), data.size()};
}

// What an embedded texture becomes: a file extension and its bytes, or a reason it cannot.
struct Extracted {
    std::string extension;
    std::vector<std::byte> bytes;
    std::string problem; // set when the texture is written unchanged or not at all
    bool usable = true;
};

Extracted extract_compressed(const assbin::Texture& texture, bool keep_bytes) {
    Extracted out;
    const std::span<const std::byte> file = bytes_of(texture.data);
    if (!keep_bytes) {
        std::string error;
        if (const std::optional<Image> image = decode_image(file, &error)) {
            out.extension = "png";
            out.bytes = encode_png(*image, RowOrder::BottomFirst);
            return out;
        }
        out.problem = "could not be decoded (" + error + "), so it is written unchanged";
    }
    out.extension = extension_from_hint(texture.format_hint);
    out.bytes.assign(file.begin(), file.end());
    return out;
}

// ARGB8888 texels (b, g, r, a in memory, top row first) as a bottom-row-first PNG.
Extracted extract_texels(const assbin::Texture& texture) {
    Extracted out;
    const uint64_t expected = uint64_t{texture.width} * texture.height * 4;
    if (texture.data.size() != expected || texture.width > (1u << 16) || texture.height > (1u << 16)) {
        out.usable = false;
        out.problem = "holds " + std::to_string(texture.data.size()) + " bytes of texels for " +
                      std::to_string(texture.width) + "x" + std::to_string(texture.height) +
                      "; it is not written";
        return out;
    }
    Image image;
    image.width = texture.width;
    image.height = texture.height;
    image.rgba.resize(expected);
    for (size_t i = 0; i < expected; i += 4) {
        image.rgba[i] = texture.data[i + 2];
        image.rgba[i + 1] = texture.data[i + 1];
        image.rgba[i + 2] = texture.data[i];
        image.rgba[i + 3] = texture.data[i + 3];
    }
    out.extension = "png";
    out.bytes = encode_png(image, RowOrder::BottomFirst);
    return out;
}

class TextureTable {
  public:
    TextureTable(const assbin::Scene& scene, const ConvertOptions& options, aem::Model& model,
                 std::vector<TextureFile>& files, Report& report)
        : scene_(scene), options_(options), model_(model), files_(files), report_(report),
          aliases_(embedded_texture_aliases(scene)) {
        // Every embedded texture is written (named by a slot or not), so all are decoded and
        // encoded up front, in parallel; extract() hands them out in the order slots name them.
        extracted_.resize(scene.textures.size());
        assbin_common::run_tasks(extracted_.size(), thread_count(options.texture_threads), [&](size_t n) {
            const assbin::Texture& texture = scene.textures[n];
            extracted_[n] = texture.is_compressed() ? extract_compressed(texture, options.keep_embedded_bytes)
                                                    : extract_texels(texture);
        });
    }

    // The AEM texture index for the file `texture` names as material `m`'s `slot`, or -1.
    int32_t resolve(const TextureSlot* texture, size_t m, const char* slot) {
        if (!texture) return aem::kNone;
        const std::string& path = texture->path;
        if (path[0] == '*') return embedded(path, m, slot);
        if (const auto alias = aliases_.find(path); alias != aliases_.end()) {
            if (noted_.insert(alias->second).second) report_.warn(alias_note(alias->first, alias->second));
            const std::optional<std::string> name = extract(alias->second);
            return name ? index_of(*name, m, slot) : aem::kNone;
        }
        std::string name = path;
        std::replace(name.begin(), name.end(), '\\', '/');
        return index_of(name, m, slot);
    }

    // Writes embedded texture n beside the model (once) and returns its file name, or nullopt when
    // its data is unusable (reported).
    std::optional<std::string> extract(uint64_t n) {
        const auto found = embedded_names_.find(n);
        if (found != embedded_names_.end()) return found->second;
        const assbin::Texture& texture = scene_.textures[n];
        Extracted& extracted = extracted_[n];
        if (!extracted.problem.empty()) {
            report_.warn("embedded texture " + std::to_string(n) + " (" + quote_name(texture.format_hint) +
                         ") " + extracted.problem);
        }
        std::optional<std::string> name;
        if (extracted.usable) {
            name = options_.texture_stem + "_" + std::to_string(n) + "." + extracted.extension;
            files_.push_back({*name, std::move(extracted.bytes)});
        }
        embedded_names_[n] = name;
        return name;
    }

    bool written(uint64_t n) const { return embedded_names_.count(n) != 0; }

  private:
    int32_t embedded(const std::string& path, size_t m, const char* slot) {
        uint64_t n = 0;
        const char* end = path.data() + path.size();
        const auto [stop, error] = std::from_chars(path.data() + 1, end, n);
        if (error != std::errc() || stop != end) {
            report_.warn(material_label(scene_, m) + ": " + slot + " texture " + quote_name(path) +
                         " is not a \"*N\" embedded-texture reference; the slot is left empty");
            return aem::kNone;
        }
        if (n >= scene_.textures.size()) {
            throw ConvertError(Refusal::BadReference,
                               material_label(scene_, m) + ": the " + slot + " texture " + quote_name(path) +
                                   " names embedded texture " + std::to_string(n) + ", but the scene has " +
                                   std::to_string(scene_.textures.size()));
        }
        const std::optional<std::string> name = extract(n);
        return name ? index_of(*name, m, slot) : aem::kNone;
    }

    int32_t index_of(const std::string& name, size_t m, const char* slot) {
        if (name.size() > aem::kMaxNameLength) {
            throw ConvertError(Refusal::NameTooLong,
                               material_label(scene_, m) + ": the " + slot + " texture name " +
                                   quote_name(name) + " is " + std::to_string(name.size()) +
                                   " bytes; AEM texture names hold 127 bytes and are never cut");
        }
        const auto [at, inserted] = indices_.try_emplace(name, static_cast<int32_t>(model_.textures.size()));
        if (inserted) model_.textures.push_back({name});
        return at->second;
    }

    const assbin::Scene& scene_;
    const ConvertOptions& options_;
    aem::Model& model_;
    std::vector<TextureFile>& files_;
    Report& report_;
    std::map<std::string, int32_t> indices_;
    std::map<uint64_t, std::optional<std::string>> embedded_names_;
    std::map<std::string, uint32_t> aliases_; // external names that mean an embedded texture
    std::set<uint32_t> noted_;                // aliases already reported
    std::vector<Extracted> extracted_;        // per embedded texture
};

} // namespace

void convert_materials(const assbin::Scene& scene, const std::vector<MaterialKeys>& materials,
                       const ConvertOptions& options, aem::Model& model, std::vector<TextureFile>& files,
                       Report& report) {
    TextureTable textures(scene, options, model, files, report);
    for (size_t m = 0; m < materials.size(); ++m) {
        const MaterialKeys& material = materials[m];
        aem::Material out;
        out.base_color_texture = textures.resolve(material.first_of(kBaseColor, kDiffuse), m, "base colour");
        out.normal_texture = textures.resolve(material.first_of(kNormals, kNormalCamera), m, "normal");
        out.orm_texture = textures.resolve(material.orm(), m, "ORM");
        model.materials.push_back(out);
    }
    // Embedded textures no slot uses (neither as "*N" nor through an alias) are written too, so
    // that no image is lost, and named in a warning: the model does not use them.
    for (uint64_t n = 0; n < scene.textures.size(); ++n) {
        if (textures.written(n)) continue;
        if (const std::optional<std::string> name = textures.extract(n)) {
            report.warn("embedded texture " + std::to_string(n) + " is written as " + quote_name(*name) +
                        ", but no material uses it (ASSBIN keeps no embedded texture's file name, and the "
                        "materials' external names do not pair with the embedded images)");
        }
    }
}

} // namespace detail

} // namespace assbin::converter
