// The corpus's table of the images its dumps' materials name (assimp-5.2.5-textures/TEXTURES.tsv:
// dump, name in the dump, file under assimp-5.2.5-textures/), read by corpus_textures and the BC7
// benchmark. Header-only.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace assbin_test {

struct TextureRow {
    std::string dump; // relative to the corpus
    std::string name; // as the dump's material names it
    std::string file; // relative to assimp-5.2.5-textures/
};

// Every row after the header; empty when the table is missing.
inline std::vector<TextureRow> texture_table(const std::filesystem::path& corpus) {
    std::ifstream table(corpus / "assimp-5.2.5-textures/TEXTURES.tsv");
    std::vector<TextureRow> rows;
    std::string line;
    std::getline(table, line); // the header
    while (std::getline(table, line)) {
        std::istringstream fields(line);
        TextureRow row;
        std::getline(fields, row.dump, '\t');
        std::getline(fields, row.name, '\t');
        std::getline(fields, row.file, '\t');
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace assbin_test
