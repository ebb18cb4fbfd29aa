// Checks that `assbin info --json` reports, for every file a corpus MANIFEST.tsv lists, the counts
// of the manifest and the per-mesh facts of its MESHES.tsv. It runs the built program, as a user
// would, and reads its JSON.
//
// usage: manifest_check ASSBIN_CLI CORPUS_DIR   (CORPUS_DIR holds MANIFEST.tsv and MESHES.tsv)
#include "support/json_read.hpp"
#include <quoting.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using assbin_test::json_read::json;
using assbin_test::json_read::scalar_text;

namespace {

using Row = std::map<std::string, std::string>;

std::vector<std::string> split(const std::string& line, char separator) {
    std::vector<std::string> fields;
    std::string field;
    std::istringstream stream(line);
    while (std::getline(stream, field, separator))
        fields.push_back(field);
    if (!line.empty() && line.back() == separator) fields.emplace_back();
    return fields;
}

std::vector<Row> read_tsv(const fs::path& path) {
    std::ifstream file(path);
    if (!file) throw std::runtime_error("cannot read " + path.string());
    std::string line;
    std::getline(file, line);
    const std::vector<std::string> names = split(line, '\t');
    std::vector<Row> rows;
    while (std::getline(file, line)) {
        const std::vector<std::string> fields = split(line, '\t');
        Row row;
        for (size_t i = 0; i < names.size(); ++i)
            row[names[i]] = i < fields.size() ? fields[i] : "";
        rows.push_back(std::move(row));
    }
    return rows;
}

using assbin_common::shell_quote;

// Runs `cli info --json file`; returns the parsed JSON, or throws with the program's exit status.
json info_json(const std::string& cli, const fs::path& file) {
    const std::string command = shell_quote(cli) + " info --json " + shell_quote(file.string()) + " 2>&1";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    if (!pipe) throw std::runtime_error("cannot run " + cli);
    std::string output;
    std::array<char, 65536> buffer;
    size_t got;
    while ((got = fread(buffer.data(), 1, buffer.size(), pipe.get())) > 0)
        output.append(buffer.data(), got);
    const int status = pclose(pipe.release());
    if (status != 0) throw std::runtime_error("assbin info failed: " + output);
    return json::parse(output);
}

// The value at a dotted path, as the manifest writes it.
std::string text_at(const json& root, const std::string& dotted) {
    return scalar_text(assbin_test::json_read::at(root, dotted));
}

std::string join_children(const json& array, const std::string& separator) {
    std::string text;
    for (const json& child : array) {
        if (!text.empty()) text += separator;
        text += scalar_text(child);
    }
    return text;
}

// The manifest's textual summaries, rebuilt from the JSON.
std::string metadata_types(const json& facts) {
    std::string text;
    for (const auto& [type, count] : assbin_test::json_read::at(facts, "counts.metadata_types").items()) {
        if (!text.empty()) text += ',';
        text += type + ":" + scalar_text(count);
    }
    return text;
}

std::string light_types(const json& facts) {
    std::set<std::string> names;
    for (const json& light : assbin_test::json_read::at(facts, "lights"))
        names.insert(text_at(light, "type_name"));
    std::string text;
    for (const std::string& name : names)
        text += (text.empty() ? "" : ",") + name;
    return text;
}

std::string textures_detail(const json& facts) {
    std::string text;
    size_t listed = 0, total = 0;
    for (const json& texture : assbin_test::json_read::at(facts, "textures")) {
        ++total;
        if (listed == 8) continue;
        const std::string hint = text_at(texture, "hint");
        text += (text.empty() ? "" : ",") + (hint.empty() ? std::string("-") : hint) + ":" +
                text_at(texture, "width") + "x" + text_at(texture, "height");
        ++listed;
    }
    if (total > listed) text += ",+" + std::to_string(total - listed);
    return text;
}

std::string face_sizes(const json& mesh) {
    std::string text;
    for (const auto& [size, count] : assbin_test::json_read::at(mesh, "face_sizes").items())
        text += (text.empty() ? "" : ";") + size + ":" + scalar_text(count);
    return text;
}

std::string flag(const json& node, const std::string& key) {
    return assbin_test::json_read::boolean(node, key) ? "1" : "0";
}

struct Checker {
    std::string file;
    size_t mismatches = 0;
    void expect(const std::string& what, const std::string& expected, const std::string& actual) {
        if (expected == actual) return;
        ++mismatches;
        std::cout << "MISMATCH " << file << " " << what << ": manifest \"" << expected << "\", assbin \""
                  << actual << "\"\n";
    }
};

void check_counts(Checker& check, const Row& row, const json& facts) {
    check.expect("hdr_shortened", row.at("hdr_shortened"), text_at(facts, "header.shortened"));
    check.expect("hdr_compressed", row.at("hdr_compressed"), text_at(facts, "header.compressed"));
    static const std::pair<const char*, const char*> kCounts[] = {
        {"scene_flags", "counts.scene_flags"},
        {"meshes", "counts.meshes"},
        {"materials", "counts.materials"},
        {"animations", "counts.animations"},
        {"textures", "counts.textures"},
        {"lights", "counts.lights"},
        {"cameras", "counts.cameras"},
        {"nodes", "counts.nodes"},
        {"vertices_total", "counts.vertices"},
        {"faces_total", "counts.faces"},
        {"bones_total", "counts.bones"},
        {"anim_channels", "counts.animation_channels"},
        {"node_meta_entries", "counts.metadata_entries"},
    };
    for (const auto& [column, key] : kCounts)
        check.expect(column, row.at(column), text_at(facts, key));
    check.expect("node_meta_types", row.at("node_meta_types"), metadata_types(facts));
    check.expect("light_types", row.at("light_types"), light_types(facts));
    check.expect("textures_detail", row.at("textures_detail"), textures_detail(facts));
}

void check_mesh(Checker& check, const Row& row, const json& mesh) {
    const std::string at = "mesh " + row.at("mesh") + " ";
    check.expect(at + "vertices", row.at("vertices"), text_at(mesh, "vertices"));
    check.expect(at + "faces", row.at("faces"), text_at(mesh, "faces"));
    check.expect(at + "primitive_types", row.at("primitive_types"), text_at(mesh, "primitive_types"));
    check.expect(at + "ptype_names", row.at("ptype_names"), text_at(mesh, "primitive_names"));
    check.expect(at + "component_mask", row.at("component_mask"), text_at(mesh, "component_mask"));
    check.expect(at + "normals", row.at("normals"), flag(mesh, "normals"));
    check.expect(at + "tangents", row.at("tangents"), flag(mesh, "tangents"));
    check.expect(at + "color_sets", row.at("color_sets"), text_at(mesh, "color_sets"));
    check.expect(at + "uv_channels", row.at("uv_channels"), text_at(mesh, "uv_channels"));
    check.expect(at + "uv_components", row.at("uv_components"),
                 join_children(assbin_test::json_read::at(mesh, "uv_components"), ","));
    check.expect(at + "bones", row.at("bones"), text_at(mesh, "bones"));
    check.expect(at + "bone_weights", row.at("bone_weights"), text_at(mesh, "bone_weights"));
    check.expect(at + "material_index", row.at("material_index"), text_at(mesh, "material"));
    check.expect(at + "idx32", row.at("idx32"), flag(mesh, "idx32"));
    const bool has_faces = text_at(mesh, "max_index") != "null";
    check.expect(at + "face_sizes", row.at("face_sizes"), has_faces ? face_sizes(mesh) : "");
    check.expect(at + "max_index", row.at("max_index"), has_faces ? text_at(mesh, "max_index") : "");
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: manifest_check ASSBIN_CLI CORPUS_DIR\n";
        return 2;
    }
    const std::string cli = argv[1];
    const fs::path corpus = argv[2];
    const std::vector<Row> files = read_tsv(corpus / "MANIFEST.tsv");
    std::map<std::string, std::vector<Row>> meshes;
    for (Row& row : read_tsv(corpus / "MESHES.tsv"))
        meshes[row.at("path")].push_back(std::move(row));

    size_t passed = 0, failed = 0, mesh_rows = 0;
    for (const Row& row : files) {
        Checker check{row.at("path")};
        try {
            const json facts = info_json(cli, corpus / row.at("path"));
            check_counts(check, row, facts);
            std::vector<const json*> json_meshes;
            for (const json& mesh : assbin_test::json_read::at(facts, "meshes"))
                json_meshes.push_back(&mesh);
            for (const Row& mesh_row : meshes[row.at("path")]) {
                const size_t index = std::stoul(mesh_row.at("mesh"));
                ++mesh_rows;
                if (index >= json_meshes.size())
                    check.expect("mesh " + mesh_row.at("mesh"), "present", "missing");
                else
                    check_mesh(check, mesh_row, *json_meshes[index]);
            }
        } catch (const std::exception& error) {
            check.expect("read", "ok", error.what());
        }
        (check.mismatches == 0 ? passed : failed) += 1;
    }
    std::cout << "checked " << files.size() << " files and " << mesh_rows << " mesh rows\n";
    std::cout << "manifest: " << passed << " passed, " << failed << " failed\n";
    return failed == 0 ? 0 : 1;
}
