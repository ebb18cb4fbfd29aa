// Finding and decoding the images materials name, for the 2025 layout's texture pipeline.
#include "materials/textures_2025.hpp"

#define STBI_NO_STDIO
#include <output_target.hpp>
#include <stb/stb_image.h>
#define XXH_INLINE_ALL // header-only: nothing to link
#include <xxhash.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <iterator>

namespace assbin::converter::detail {

namespace {

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

} // namespace

// The file in `folder` whose name equals `name` ignoring case.
std::optional<std::filesystem::path> find_ignoring_case(const std::filesystem::path& folder,
                                                        const std::string& name) {
    std::error_code error;
    const std::string wanted = lower(name);
    for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
        if (lower(entry.path().filename().string()) == wanted && entry.is_regular_file(error))
            return entry.path();
    }
    return std::nullopt;
}

namespace {

std::optional<std::vector<std::byte>> read_whole(const std::filesystem::path& path, uint64_t limit) {
    std::error_code error;
    const uintmax_t size = std::filesystem::file_size(path, error);
    if (error || size > limit) return std::nullopt;
    assbin_common::note_file_read(path); // an input of the runs under way: no output replaces it
    std::ifstream in(path, std::ios::binary);
    std::vector<std::byte> bytes(static_cast<size_t>(size));
    in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
    if (static_cast<uintmax_t>(in.gcount()) != size) return std::nullopt;
    return bytes;
}

} // namespace

const Pixels* TextureSources::rgba(const std::string& path, const std::string& material) {
    auto found = decoded_.find(path);
    if (found == decoded_.end()) found = decoded_.emplace(path, load(path, material)).first;
    return found->second ? &*found->second : nullptr;
}

std::optional<Pixels> TextureSources::load(const std::string& path, const std::string& material) {
    if (!path.empty() && path[0] == '*') return embedded(path, material);
    if (const auto alias = aliases_.find(path); alias != aliases_.end()) {
        report_.warn(alias_note(alias->first, alias->second));
        std::string reference(1, '*'); // "*N", as if the material had named it so
        reference += std::to_string(alias->second);
        return embedded(reference, material);
    }
    std::string label;
    const std::optional<std::vector<std::byte>> bytes = external_file(path, material, label);
    if (!bytes) return std::nullopt;
    return decode(*bytes, label, material);
}

std::optional<std::vector<std::byte>>
TextureSources::external_file(const std::string& path, const std::string& material, std::string& label) {
    const std::optional<std::filesystem::path> file = find_file(path);
    if (!file) {
        report_.looked_for(path, {}, nullptr);
        report_.warn(
            material + ": texture " + quote_name(path) +
            " was not found (looked beside the dump and in the texture folders); its default is used");
        return std::nullopt;
    }
    label = quote_name(file->string());
    // A compressed file holds at most a few bytes per pixel more than this: larger is not an image.
    std::optional<std::vector<std::byte>> bytes = read_whole(*file, options_.max_texture_pixels * 8 + 4096);
    report_.looked_for(path, *file, bytes ? &*bytes : nullptr);
    if (!bytes) report_.warn(material + ": texture " + label + " cannot be read; its default is used");
    return bytes;
}

std::optional<std::vector<std::byte>>
TextureSources::file_bytes(const std::string& path, const std::string& material, std::string* texels) {
    texels->clear();
    std::string reference = path;
    if (const auto alias = aliases_.find(path); alias != aliases_.end()) {
        report_.warn(alias_note(alias->first, alias->second));
        reference.assign(1, '*');
        reference += std::to_string(alias->second);
    }
    if (!reference.empty() && reference[0] == '*') {
        const std::optional<size_t> n = embedded_index(reference);
        if (!n) {
            report_.warn(material + ": " + quote_name(path) +
                         " names no embedded texture; its default is used");
            return std::nullopt;
        }
        const assbin::Texture& texture = scene_.textures[*n];
        if (!texture.is_compressed()) {
            *texels = reference;
            return std::nullopt;
        }
        const auto bytes = std::as_bytes(std::span(texture.data));
        return std::vector<std::byte>(bytes.begin(), bytes.end());
    }
    std::string label;
    return external_file(path, material, label);
}

std::optional<size_t> TextureSources::embedded_index(const std::string& reference) const {
    size_t n = 0;
    const auto [end, error] = std::from_chars(reference.data() + 1, reference.data() + reference.size(), n);
    if (error != std::errc() || end != reference.data() + reference.size() || n >= scene_.textures.size())
        return std::nullopt;
    return n;
}

std::optional<Pixels> TextureSources::embedded(const std::string& path, const std::string& material) {
    const std::optional<size_t> n = embedded_index(path);
    if (!n) {
        report_.warn(material + ": " + quote_name(path) + " names no embedded texture; its default is used");
        return std::nullopt;
    }
    const assbin::Texture& texture = scene_.textures[*n];
    const std::string what = "embedded texture " + std::to_string(*n);
    if (texture.is_compressed()) return decode(std::as_bytes(std::span(texture.data)), what, material);
    const uint64_t pixels = uint64_t{texture.width} * texture.height;
    if (pixels == 0 || pixels > options_.max_texture_pixels || texture.data.size() != pixels * 4) {
        report_.warn(material + ": " + what + " (" + std::to_string(texture.width) + " x " +
                     std::to_string(texture.height) +
                     " texels) is empty, too large or inconsistent; its default is used");
        return std::nullopt;
    }
    Pixels out{texture.width, texture.height, 4, std::vector<uint8_t>(texture.data.size())};
    for (size_t i = 0; i < texture.data.size(); i += 4) { // texels are b, g, r, a
        out.data[i] = texture.data[i + 2];
        out.data[i + 1] = texture.data[i + 1];
        out.data[i + 2] = texture.data[i];
        out.data[i + 3] = texture.data[i + 3];
    }
    return out;
}

void Report::looked_for(const std::string& name, const std::filesystem::path& found,
                        const std::vector<std::byte>* bytes) {
    if (!lookups_) return;
    ImageLookup lookup{name, found, bytes != nullptr, 0, 0};
    if (bytes) {
        lookup.bytes = bytes->size();
        lookup.xxh3 = XXH3_64bits(bytes->data(), bytes->size());
    }
    lookups_->push_back(std::move(lookup));
}

std::optional<std::filesystem::path> TextureSources::find_file(const std::string& name) const {
    return find_image_file(name, options_);
}

} // namespace assbin::converter::detail

namespace assbin::converter {

std::optional<std::filesystem::path> find_image_file(const std::string& name, const ConvertOptions& options) {
    std::string portable = name;
    std::replace(portable.begin(), portable.end(), '\\', '/');
    const std::filesystem::path relative(portable);
    std::vector<std::filesystem::path> folders = options.texture_folders;
    folders.insert(folders.begin(), options.source_folder.empty() ? "." : options.source_folder);
    std::error_code error;
    for (const std::filesystem::path& folder : folders) {
        const std::filesystem::path as_given = relative.is_absolute() ? relative : folder / relative;
        if (std::filesystem::is_regular_file(as_given, error)) return as_given;
        const std::filesystem::path in_folder = as_given.parent_path();
        if (auto found = detail::find_ignoring_case(in_folder, relative.filename().string())) return found;
        if (auto found = detail::find_ignoring_case(folder, relative.filename().string())) return found;
    }
    return std::nullopt;
}

} // namespace assbin::converter

namespace assbin::converter::detail {

std::optional<Pixels> TextureSources::decode(std::span<const std::byte> file, const std::string& what,
                                             const std::string& material) {
    const auto* data = reinterpret_cast<const stbi_uc*>(file.data());
    const int size = static_cast<int>(std::min<size_t>(file.size(), INT32_MAX));
    int width = 0, height = 0, channels = 0;
    if (!stbi_info_from_memory(data, size, &width, &height, &channels)) {
        report_.warn(material + ": " + what + " is not an image stb_image reads (" +
                     (stbi_failure_reason() ? stbi_failure_reason() : "unknown format") +
                     "); its default is used");
        return std::nullopt;
    }
    if (uint64_t{static_cast<uint32_t>(width)} * static_cast<uint32_t>(height) >
        options_.max_texture_pixels) {
        report_.warn(material + ": " + what + " is " + std::to_string(width) + " x " +
                     std::to_string(height) + ", more pixels than the limit of " +
                     std::to_string(options_.max_texture_pixels) +
                     "; it is not decoded and its default is used");
        return std::nullopt;
    }
    stbi_uc* pixels = stbi_load_from_memory(data, size, &width, &height, &channels, 4);
    if (!pixels) {
        report_.warn(material + ": " + what + " cannot be decoded (" +
                     (stbi_failure_reason() ? stbi_failure_reason() : "unknown") + "); its default is used");
        return std::nullopt;
    }
    Pixels out{static_cast<uint32_t>(width), static_cast<uint32_t>(height), 4,
               std::vector<uint8_t>(pixels, pixels + size_t(width) * size_t(height) * 4)};
    stbi_image_free(pixels);
    return out;
}

} // namespace assbin::converter::detail
