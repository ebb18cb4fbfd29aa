// corpus_textures: the 2025 layout's texture pipeline on every dump of the corpus whose material
// names an image that assimp-5.2.5-textures/ holds (TEXTURES.tsv: dump, name in the dump, file).
// Each dump is converted with the file's folder as --texture-dir; it passes when the model
// validates (so every MIP chain has the page's size and lies in the image buffer) and holds a
// texture of exactly the size the image's own header gives (stb_image's info, read separately).
// Images a material holds only in a slot the layout does not use (specular, ...) are counted apart.
// Prints one line per failure, then "textures: N passed, M failed"; exits 1 when M > 0.
#include <aem/format.hpp>
#include <aem/validate.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#define STBI_NO_STDIO
#include <stb/stb_image.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// The size the image file's header declares, or {0, 0}.
std::pair<uint32_t, uint32_t> image_size(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    int width = 0, height = 0, channels = 0;
    if (!stbi_info_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), int(bytes.size()), &width,
                               &height, &channels))
        return {0, 0};
    return {uint32_t(width), uint32_t(height)};
}

// Whether a material names `name` in a slot the 2025 layout's textures draw from (diffuse, emissive,
// normals, lightmap, base colour, normal camera, emission colour, metalness, roughness, occlusion).
bool used_by_a_slot(const assbin::Scene& scene, const std::string& name) {
    const uint32_t used[] = {1, 4, 6, 10, 12, 13, 14, 15, 16, 17};
    for (const assbin::Material& material : scene.materials) {
        for (const assbin::MaterialProperty& property : material.properties) {
            if (property.key != "$tex.file" || property.string_value().value_or("").find(name) != 0) continue;
            if (std::find(std::begin(used), std::end(used), property.semantic) != std::end(used)) return true;
        }
    }
    return false;
}

// Why the dump fails, "unused" when the image is in a slot the layout does not use, or empty.
std::string check(const fs::path& dump, const std::string& name, const fs::path& image) {
    const auto [width, height] = image_size(image);
    if (width == 0) return "the image's header cannot be read";
    const assbin::Scene scene = assbin::read_file(dump);
    if (!used_by_a_slot(scene, name)) return "unused";
    assbin::converter::ConvertOptions options;
    options.layout = aem::Layout::Edition2025;
    options.texture_folders = {image.parent_path()};
    const aem::Model model = assbin::converter::convert(scene, options).model;
    const std::vector<aem::Violation> violations = aem::validate(model);
    if (!violations.empty()) return "invalid model: " + aem::to_string(violations.front());
    const bool found = std::any_of(model.textures.begin(), model.textures.end(), [&](const aem::Texture& t) {
        return t.width == width && t.height == height;
    });
    if (!found) return "no texture of the image's " + std::to_string(width) + " x " + std::to_string(height);
    return {};
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2 || !fs::is_regular_file(fs::path(argv[1]) / "assimp-5.2.5-textures/TEXTURES.tsv")) {
        std::fprintf(stderr, "usage: corpus_textures CORPUS (the folder holding assimp-5.2.5-textures/)\n");
        return 2;
    }
    const fs::path corpus = argv[1];
    std::ifstream table(corpus / "assimp-5.2.5-textures/TEXTURES.tsv");
    std::string line;
    std::getline(table, line); // the header
    size_t passed = 0, failed = 0, unused = 0;
    while (std::getline(table, line)) {
        std::istringstream fields(line);
        std::string dump, name, file;
        std::getline(fields, dump, '\t');
        std::getline(fields, name, '\t');
        std::getline(fields, file, '\t');
        std::string problem;
        try {
            problem = check(corpus / dump, name, corpus / "assimp-5.2.5-textures" / file);
        } catch (const std::exception& error) {
            problem = error.what();
        }
        if (problem == "unused") {
            ++unused;
        } else if (problem.empty()) {
            ++passed;
        } else {
            std::printf("FAILED   %s (%s): %s\n", dump.c_str(), name.c_str(), problem.c_str());
            ++failed;
        }
    }
    std::printf("(%zu images sit in slots the 2025 layout does not use, such as specular)\n", unused);
    std::printf("textures: %zu passed, %zu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
