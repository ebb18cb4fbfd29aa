// `assbin aem-info FILE.aem [--json] [--validate] [--pose ANIM TIME]`: what an AEM model holds,
// whether it keeps every invariant of AEM-FORMAT.md, and its skinning matrices at one moment.
#include "cli_common.hpp"
#include "verbs.hpp"

#include <aem/io.hpp>
#include <aem/pose.hpp>
#include <aem/validate.hpp>
#include <assbin/converter/mesh_metrics.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace po = boost::program_options;

namespace assbin::cli {

namespace {

constexpr std::string_view kUsage =
    "assbin aem-info FILE [--json] [--validate] [--pose ANIM TIME]\n\n"
    "Summarises an AEM model (either layout): counts, meshes, materials, bones, animations and mesh\n"
    "metrics; --validate lists every broken invariant; --pose prints the skinning matrices at a time.";

struct PoseRequest {
    uint32_t animation;
    float time;
};

std::string format_number(double value, const char* format = "%g") {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

bool is_2025(const aem::Model& model) {
    return model.layout == aem::Layout::Edition2025;
}

const char* layout_name(const aem::Model& model) {
    return is_2025(model) ? "2025" : "2024";
}

std::string quoted_name(const std::string& name) {
    return printable(name, 80, '"');
}

// "#2 albedo.png", "-" for none, or the bad index as it is.
std::string texture_label(const aem::Model& model, int32_t slot) {
    if (slot == aem::kNone) return "-";
    // Appended piece by piece: `"#" + std::string` trips GCC 12's -Wrestrict in Release builds.
    std::string label = "#";
    label += std::to_string(slot);
    if (slot < 0 || static_cast<size_t>(slot) >= model.textures.size()) {
        label += " (no such texture)";
        return label;
    }
    const aem::Texture& texture = model.textures[static_cast<size_t>(slot)];
    label += ' ';
    label += is_2025(model) ? std::to_string(texture.width) + "x" + std::to_string(texture.height)
                            : printable(texture.file_name, 80);
    return label;
}

bool has_valid_parent(const aem::Model& model, size_t bone) {
    const int32_t parent = model.bones[bone].parent;
    return parent >= 0 && static_cast<size_t>(parent) < bone;
}

// Bones in depth-first order with their depth. A parent that does not precede its bone is shown
// as a root, so a broken file still prints (the validator names the fault).
std::vector<std::pair<size_t, size_t>> bone_tree_order(const aem::Model& model) {
    std::vector<std::vector<size_t>> children(model.bones.size());
    std::vector<size_t> roots;
    for (size_t b = 0; b < model.bones.size(); ++b) {
        if (has_valid_parent(model, b))
            children[static_cast<size_t>(model.bones[b].parent)].push_back(b);
        else
            roots.push_back(b);
    }
    std::vector<std::pair<size_t, size_t>> order; // (bone, depth)
    std::vector<std::pair<size_t, size_t>> stack; // explicit: depth is not bounded by the format
    for (auto root = roots.rbegin(); root != roots.rend(); ++root)
        stack.emplace_back(*root, 0);
    while (!stack.empty()) {
        const auto [bone, depth] = stack.back();
        stack.pop_back();
        order.emplace_back(bone, depth);
        for (auto child = children[bone].rbegin(); child != children[bone].rend(); ++child) {
            stack.emplace_back(*child, depth + 1);
        }
    }
    return order;
}

struct KeyCounts {
    uint64_t position = 0;
    uint64_t rotation = 0;
    uint64_t scale = 0;
};

// Keys per channel summed over each animation's sequences (the part inside the sequence section),
// through prefix sums: animations × bones can be far larger than the file.
std::vector<KeyCounts> key_counts_per_animation(const aem::Model& model) {
    std::vector<KeyCounts> before(model.sequences.size() + 1); // sums over sequences [0, s)
    for (size_t s = 0; s < model.sequences.size(); ++s) {
        before[s + 1].position = before[s].position + model.sequences[s].position.count;
        before[s + 1].rotation = before[s].rotation + model.sequences[s].rotation.count;
        before[s + 1].scale = before[s].scale + model.sequences[s].scale.count;
    }
    std::vector<KeyCounts> counts;
    for (const aem::Animation& animation : model.animations) {
        const uint64_t first = std::min<uint64_t>(animation.first_sequence, model.sequences.size());
        const uint64_t end = std::min<uint64_t>(first + model.bones.size(), model.sequences.size());
        counts.push_back({before[end].position - before[first].position,
                          before[end].rotation - before[first].rotation,
                          before[end].scale - before[first].scale});
    }
    return counts;
}

std::string sequence_span(const aem::Model& model, const aem::Animation& animation) {
    if (model.bones.empty()) return "-";
    return std::to_string(animation.first_sequence) + ".." +
           std::to_string(uint64_t{animation.first_sequence} + model.bones.size() - 1);
}

// ---- human-readable output ----

// The header's counts, in file order, named as the model's layout names them.
std::vector<std::pair<const char*, uint64_t>> section_counts(const aem::Model& model) {
    if (is_2025(model)) {
        const aem::Counts2025 c = aem::counts_2025_of(model);
        return {{"vertices", c.vertices},  {"indices", c.indices},       {"image bytes", c.image_bytes},
                {"textures", c.textures},  {"meshes", c.meshes},         {"materials", c.materials},
                {"joints", c.joints},      {"animations", c.animations}, {"tracks", c.tracks},
                {"keyframes", c.keyframes}};
    }
    const aem::Counts c = aem::counts_of(model);
    return {{"vertices", c.vertices},     {"indices", c.indices},     {"textures", c.textures},
            {"meshes", c.meshes},         {"materials", c.materials}, {"bones", c.bones},
            {"animations", c.animations}, {"sequences", c.sequences}, {"keyframes", c.keyframes}};
}

void print_counts(std::ostream& out, const aem::Model& model) {
    Table table({"section", "count"}, "lr");
    for (const auto& [name, count] : section_counts(model))
        table.add({name, with_thousands(count)});
    out << "\ncounts\n";
    table.print(out);
}

void print_meshes(std::ostream& out, const aem::Model& model) {
    out << "\nmeshes\n";
    if (model.meshes.empty()) {
        out << "  (none)\n";
        return;
    }
    Table table({"mesh", "material", "first index", "indices", "triangles"}, "rrrrr");
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const aem::Mesh& mesh = model.meshes[m];
        table.add({std::to_string(m), std::to_string(mesh.material), with_thousands(mesh.first_index),
                   with_thousands(mesh.index_count), with_thousands(mesh.index_count / 3)});
    }
    table.print(out);
}

std::string fixed3(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", value);
    return text;
}

std::vector<std::string> metrics_row(std::string label, const converter::MeshMetrics& m) {
    if (!m.measured) return {std::move(label), "-", "-", "-", "-", "-", "-", "-"};
    return {std::move(label),      with_thousands(m.vertices), with_thousands(m.triangles),
            fixed3(m.acmr()),      fixed3(m.atvr()),           fixed3(m.overdraw()),
            fixed3(m.overfetch()), with_thousands(m.weldable)};
}

// How well the buffers suit a GPU (meshoptimizer's analyzers), for any exporter's file.
void print_mesh_metrics(std::ostream& out, const aem::Model& model) {
    if (model.meshes.empty()) return;
    const converter::ModelMetrics metrics = converter::measure_meshes(model);
    out << "\nmesh metrics (ACMR, ATVR: vertices transformed per triangle and per vertex with a "
        << converter::kMetricsCacheSize
        << "-entry FIFO cache;\n  overdraw: pixels shaded per pixel covered, the "
        << "total for all meshes drawn in order; overfetch: vertex bytes\n  read per byte used; weldable: "
        << "vertices a lossless weld would remove; '-': broken mesh)\n";
    Table table({"mesh", "vertices", "triangles", "ACMR", "ATVR", "overdraw", "overfetch", "weldable"},
                "rrrrrrrr");
    for (size_t m = 0; m < metrics.meshes.size(); ++m)
        table.add(metrics_row(std::to_string(m), metrics.meshes[m]));
    table.add(metrics_row("total", metrics.total));
    table.print(out);
}

void print_materials(std::ostream& out, const aem::Model& model) {
    out << "\nmaterials (texture slots: index and file name)\n";
    if (model.materials.empty()) {
        out << "  (none)\n";
        return;
    }
    Table table({"material", "type", "base colour", "normal", is_2025(model) ? "pbr" : "orm"}, "rllll");
    for (size_t m = 0; m < model.materials.size(); ++m) {
        const aem::Material& material = model.materials[m];
        const std::string type = !is_2025(model)                              ? "-"
                                 : material.type == aem::kMaterialOpaque      ? "opaque"
                                 : material.type == aem::kMaterialTransparent ? "transparent"
                                                                              : std::to_string(material.type);
        table.add({std::to_string(m), type, texture_label(model, material.base_color_texture),
                   texture_label(model, material.normal_texture),
                   texture_label(model, material.orm_texture)});
    }
    table.print(out);
}

const char* compression_name(uint32_t compression) {
    return compression == aem::kCompressionNone  ? "none"
           : compression == aem::kCompressionBc5 ? "BC5"
           : compression == aem::kCompressionBc7 ? "BC7"
                                                 : "unknown";
}

const char* wrap_name(uint32_t wrap) {
    return wrap == aem::kWrapRepeat           ? "repeat"
           : wrap == aem::kWrapMirroredRepeat ? "mirrored"
           : wrap == aem::kWrapClampToEdge    ? "clamp"
                                              : "unknown";
}

// 2025 textures: pixels in the file, each with its whole MIP chain.
void print_texture_images(std::ostream& out, const aem::Model& model) {
    Table table({"texture", "size", "channels", "compression", "MIP levels", "bytes", "offset", "wrap x, y"},
                "rrrlrrrl");
    for (size_t t = 0; t < model.textures.size(); ++t) {
        const aem::Texture& x = model.textures[t];
        table.add({std::to_string(t), std::to_string(x.width) + " x " + std::to_string(x.height),
                   std::to_string(x.channels), compression_name(x.compression),
                   std::to_string(aem::mip_level_count(x.width, x.height)),
                   with_thousands(aem::mip_chain_bytes(x.width, x.height, x.channels, x.compression)),
                   with_thousands(x.image_offset),
                   std::string(wrap_name(x.wrap_x)) + ", " + wrap_name(x.wrap_y)});
    }
    table.print(out);
}

void print_textures(std::ostream& out, const aem::Model& model) {
    out << "\ntextures\n";
    if (model.textures.empty()) {
        out << "  (none)\n";
        return;
    }
    if (is_2025(model)) return print_texture_images(out, model);
    Table table({"texture", "file name"}, "rl");
    for (size_t t = 0; t < model.textures.size(); ++t) {
        table.add({std::to_string(t), printable(model.textures[t].file_name, 200)});
    }
    table.print(out);
}

void print_bones(std::ostream& out, const aem::Model& model) {
    const bool joints = is_2025(model);
    out << (joints ? "\njoints\n"
                   : "\nbones (the 2024 layout stores no bone names: bones are known by index)\n");
    if (model.bones.empty()) {
        out << "  (none)\n";
        return;
    }
    Table table({joints ? "joint" : "bone", "parent", "inverse bind", "tree"}, "rrll");
    for (const auto& [bone, depth] : bone_tree_order(model)) {
        const aem::Bone& record = model.bones[bone];
        const bool identity = record.inverse_bind == Eigen::Matrix4f::Identity();
        table.add({std::to_string(bone), record.parent == aem::kNone ? "-" : std::to_string(record.parent),
                   identity ? "identity" : "matrix",
                   std::string(2 * std::min<size_t>(depth, 40), ' ') +
                       (joints ? quoted_name(record.name) : "bone " + std::to_string(bone))});
    }
    table.print(out);
}

void print_animations(std::ostream& out, const aem::Model& model) {
    out << "\nanimations\n";
    if (model.animations.empty()) {
        out << "  (none)\n";
        return;
    }
    Table table(
        {"animation", "name", "duration", "sequences", "position keys", "rotation keys", "scale keys"},
        "rlrrrrr");
    const std::vector<KeyCounts> key_counts = key_counts_per_animation(model);
    for (size_t a = 0; a < model.animations.size(); ++a) {
        const aem::Animation& animation = model.animations[a];
        const KeyCounts& keys = key_counts[a];
        table.add({std::to_string(a), quoted_name(animation.name),
                   format_number(animation.duration, "%.3f s"), sequence_span(model, animation),
                   with_thousands(keys.position), with_thousands(keys.rotation), with_thousands(keys.scale)});
    }
    table.print(out);
}

void print_validation(std::ostream& out, const std::vector<aem::Violation>& violations) {
    if (violations.empty()) {
        out << "\nvalidation: valid, no violations\n";
        return;
    }
    out << "\nvalidation: " << with_thousands(violations.size())
        << (violations.size() == 1 ? " violation\n" : " violations\n");
    Table table({"rule", "location", "problem"}, "lll");
    for (const aem::Violation& violation : violations) {
        table.add({aem::rule_name(violation.rule), violation.location, printable(violation.message, 400)});
    }
    table.print(out);
}

void print_matrix_rows(std::ostream& out, const Eigen::Matrix4f& matrix) {
    for (int row = 0; row < 4; ++row) {
        out << "    [";
        for (int column = 0; column < 4; ++column)
            out << format_number(matrix(row, column), " %12.6g");
        out << " ]\n";
    }
}

void print_pose(std::ostream& out, const aem::Model& model, const PoseRequest& request,
                const aem::Pose& pose) {
    const aem::Animation& animation = model.animations[request.animation];
    out << "\npose: animation " << request.animation << " " << quoted_name(animation.name) << " at "
        << format_number(request.time) << " s (duration " << format_number(animation.duration) << " s)\n"
        << "  skinning matrices (global · inverse bind), shown row by row\n";
    for (size_t b = 0; b < pose.skinning.size(); ++b) {
        const int32_t parent = model.bones[b].parent;
        out << "  bone " << b
            << (parent == aem::kNone ? " (root)" : " (parent " + std::to_string(parent) + ")") << "\n";
        print_matrix_rows(out, pose.skinning[b]);
    }
}

void print_text(const std::string& file, const aem::Model& model,
                const std::vector<aem::Violation>* violations, const std::optional<PoseRequest>& request,
                const aem::Pose& pose) {
    std::ostream& out = std::cout;
    out << printable(file) << ": AEM version " << unsigned{aem::kVersion} << ", " << layout_name(model)
        << " layout, " << with_thousands(aem::file_size_of(model)) << " bytes\n";
    print_counts(out, model);
    print_meshes(out, model);
    print_mesh_metrics(out, model);
    print_materials(out, model);
    print_textures(out, model);
    print_bones(out, model);
    print_animations(out, model);
    if (violations) print_validation(out, *violations);
    if (request) print_pose(out, model, *request, pose);
}

// ---- JSON output ----

void json_texture_slot(JsonWriter& json, std::string_view key, const aem::Model& model, int32_t slot) {
    json.key(key);
    if (slot == aem::kNone) {
        json.null();
        return;
    }
    json.begin_object();
    json.field("texture", slot);
    const bool exists = slot >= 0 && static_cast<size_t>(slot) < model.textures.size();
    json.key("file_name");
    if (exists && !is_2025(model))
        json.value(model.textures[static_cast<size_t>(slot)].file_name);
    else
        json.null(); // a 2025 texture has pixels, not a file name
    json.end_object();
}

void json_counts(JsonWriter& json, const aem::Model& model) {
    json.key("counts");
    json.begin_object();
    for (const auto& [name, count] : section_counts(model)) {
        std::string key = name;
        std::replace(key.begin(), key.end(), ' ', '_');
        json.field(key, count);
    }
    json.end_object();
}

void json_texture_image(JsonWriter& json, const aem::Texture& texture) {
    json.begin_object();
    json.field("width", texture.width);
    json.field("height", texture.height);
    json.field("channels", texture.channels);
    json.field("compression", compression_name(texture.compression));
    json.field("mip_levels", aem::mip_level_count(texture.width, texture.height));
    json.field("bytes",
               aem::mip_chain_bytes(texture.width, texture.height, texture.channels, texture.compression));
    json.field("offset", texture.image_offset);
    json.field("wrap_x", wrap_name(texture.wrap_x));
    json.field("wrap_y", wrap_name(texture.wrap_y));
    json.end_object();
}

void json_meshes_and_materials(JsonWriter& json, const aem::Model& model) {
    json.key("meshes");
    json.begin_array();
    for (const aem::Mesh& mesh : model.meshes) {
        json.begin_object();
        json.field("material", mesh.material);
        json.field("first_index", mesh.first_index);
        json.field("index_count", mesh.index_count);
        json.field("triangles", mesh.index_count / 3);
        json.end_object();
    }
    json.end_array();
    json.key("materials");
    json.begin_array();
    for (const aem::Material& material : model.materials) {
        json.begin_object();
        json_texture_slot(json, "base_color", model, material.base_color_texture);
        json_texture_slot(json, "normal", model, material.normal_texture);
        json_texture_slot(json, is_2025(model) ? "pbr" : "orm", model, material.orm_texture);
        if (is_2025(model))
            json.field("type", material.type == aem::kMaterialTransparent ? "transparent" : "opaque");
        json.end_object();
    }
    json.end_array();
    json.key("textures");
    json.begin_array();
    for (const aem::Texture& texture : model.textures) {
        if (is_2025(model)) {
            json_texture_image(json, texture);
        } else {
            json.value(texture.file_name);
        }
    }
    json.end_array();
}

void json_metrics_fields(JsonWriter& json, const converter::MeshMetrics& m) {
    json.begin_object();
    json.field("measured", m.measured);
    json.field("vertices", m.vertices);
    json.field("triangles", m.triangles);
    json.field("vertices_transformed", m.vertices_transformed);
    json.field("acmr", m.acmr());
    json.field("atvr", m.atvr());
    json.field("pixels_covered", m.pixels_covered);
    json.field("pixels_shaded", m.pixels_shaded);
    json.field("overdraw", m.overdraw());
    json.field("bytes_fetched", m.bytes_fetched);
    json.field("overfetch", m.overfetch());
    json.field("weldable_vertices", m.weldable);
    json.end_object();
}

void json_mesh_metrics(JsonWriter& json, const aem::Model& model) {
    const converter::ModelMetrics metrics = converter::measure_meshes(model);
    json.key("mesh_metrics");
    json.begin_object();
    json.field("cache_size", converter::kMetricsCacheSize);
    json.key("meshes");
    json.begin_array();
    for (const converter::MeshMetrics& m : metrics.meshes)
        json_metrics_fields(json, m);
    json.end_array();
    json.key("total");
    json_metrics_fields(json, metrics.total);
    json.end_object();
}

void json_bones(JsonWriter& json, const aem::Model& model) {
    std::vector<size_t> depth(model.bones.size(), 0);
    for (const auto& [bone, bone_depth] : bone_tree_order(model))
        depth[bone] = bone_depth;
    json.key("bones");
    json.begin_array();
    for (size_t b = 0; b < model.bones.size(); ++b) {
        json.begin_object();
        if (is_2025(model)) json.field("name", model.bones[b].name);
        json.key("parent");
        if (model.bones[b].parent == aem::kNone)
            json.null();
        else
            json.value(model.bones[b].parent);
        json.field("depth", depth[b]);
        json.field("inverse_bind_is_identity", model.bones[b].inverse_bind == Eigen::Matrix4f::Identity());
        json.end_object();
    }
    json.end_array();
}

void json_animations(JsonWriter& json, const aem::Model& model) {
    json.key("animations");
    json.begin_array();
    const std::vector<KeyCounts> key_counts = key_counts_per_animation(model);
    for (size_t a = 0; a < model.animations.size(); ++a) {
        const aem::Animation& animation = model.animations[a];
        const KeyCounts& keys = key_counts[a];
        json.begin_object();
        json.field("name", animation.name);
        json.field("duration", animation.duration);
        json.field("first_sequence", animation.first_sequence);
        json.field("position_keys", keys.position);
        json.field("rotation_keys", keys.rotation);
        json.field("scale_keys", keys.scale);
        json.end_object();
    }
    json.end_array();
}

void json_validation(JsonWriter& json, const std::vector<aem::Violation>& violations) {
    json.key("validation");
    json.begin_object();
    json.field("valid", violations.empty());
    json.key("violations");
    json.begin_array();
    for (const aem::Violation& violation : violations) {
        json.begin_object();
        json.field("rule", aem::rule_name(violation.rule));
        json.field("location", violation.location);
        json.field("message", violation.message);
        json.end_object();
    }
    json.end_array();
    json.end_object();
}

void json_pose(JsonWriter& json, const aem::Model& model, const PoseRequest& request, const aem::Pose& pose) {
    json.key("pose");
    json.begin_object();
    json.field("animation", request.animation);
    json.field("name", model.animations[request.animation].name);
    json.field("time", request.time);
    json.key("skinning_matrices"); // one per bone, each as four rows
    json.begin_array();
    for (const Eigen::Matrix4f& matrix : pose.skinning) {
        json.begin_array();
        for (int row = 0; row < 4; ++row) {
            json.begin_array();
            for (int column = 0; column < 4; ++column)
                json.value(matrix(row, column));
            json.end_array();
        }
        json.end_array();
    }
    json.end_array();
    json.end_object();
}

void print_json(const std::string& file, const aem::Model& model,
                const std::vector<aem::Violation>* violations, const std::optional<PoseRequest>& request,
                const aem::Pose& pose) {
    JsonWriter json(std::cout);
    json.begin_object();
    json.field("file", file);
    json.field("version", unsigned{aem::kVersion});
    json.field("layout", layout_name(model));
    json.field("file_size", aem::file_size_of(model));
    json_counts(json, model);
    json_meshes_and_materials(json, model);
    json_mesh_metrics(json, model);
    json_bones(json, model);
    json_animations(json, model);
    if (violations) json_validation(json, *violations);
    if (request) json_pose(json, model, *request, pose);
    json.end_object();
    json.finish();
}

// ---- arguments ----

// ANIM is an animation index or name; TIME is seconds. Prints the problem and returns nullopt.
std::optional<PoseRequest> parse_pose(const std::string& file, const aem::Model& model,
                                      const std::vector<std::string>& tokens) {
    PoseRequest request{0, 0};
    const std::string& anim = tokens[0];
    const auto [end, error] = std::from_chars(anim.data(), anim.data() + anim.size(), request.animation);
    const bool is_index = error == std::errc() && end == anim.data() + anim.size();
    if (!is_index) {
        const auto named = std::find_if(model.animations.begin(), model.animations.end(),
                                        [&](const aem::Animation& a) { return a.name == anim; });
        request.animation = static_cast<uint32_t>(named - model.animations.begin());
    }
    if (request.animation >= model.animations.size()) {
        print_error(file + ": --pose: no animation " + (is_index ? anim : json_quote(anim)) +
                    " (the model has " + counted(model.animations.size(), "animation") + ")");
        return std::nullopt;
    }
    const std::string& time = tokens[1];
    const auto [time_end, time_error] = std::from_chars(time.data(), time.data() + time.size(), request.time);
    if (time_error != std::errc() || time_end != time.data() + time.size() || std::isnan(request.time)) {
        print_error("--pose: TIME '" + printable(time, 40) + "' is not a number of seconds");
        return std::nullopt;
    }
    return request;
}

// Takes "--pose ANIM TIME" out of the arguments before Program_Options sees them: TIME may be
// negative ("-0.5"), which it would take for an option. Returns false on a malformed --pose.
bool extract_pose(std::vector<std::string>& args, std::optional<std::vector<std::string>>& pose) {
    size_t i = 0;
    while (i < args.size() && args[i] != "--") {
        if (args[i] != "--pose") {
            ++i;
            continue;
        }
        if (pose || i + 2 >= args.size()) return false; // twice, or fewer than two values
        pose = std::vector<std::string>{args[i + 1], args[i + 2]};
        const auto first = args.begin() + static_cast<std::ptrdiff_t>(i);
        args.erase(first, first + 3);
    }
    return true;
}

po::options_description describe_options() {
    // Program_Options prints the caption above the options: the exit codes go there too.
    po::options_description options("options");
    options.add_options()("help,h", "show this help")("json", "print the same information as JSON")(
        "validate", "check every invariant of AEM version 1 and list each violation with its location; "
                    "exit 1 when there is any")(
        "pose", po::value<std::vector<std::string>>()->multitoken()->value_name("ANIM TIME"),
        "print every bone's skinning matrix (global · inverse bind) in animation ANIM (index or name) "
        "at TIME seconds; the model must be valid (exit 1 if not)");
    return options;
}

} // namespace

int run_aem_info(const std::vector<std::string>& args) {
    std::vector<std::string> remaining = args;
    std::optional<std::vector<std::string>> pose_tokens;
    if (!extract_pose(remaining, pose_tokens))
        return usage_error("--pose takes two values, ANIM and TIME, once", kUsage);
    const po::options_description options = describe_options();
    int exit_code = kExitOk;
    const auto vm =
        parse_verb_arguments(remaining, {"aem-info", kUsage, {{"file", "FILE"}}}, options, &exit_code);
    if (!vm) return exit_code;
    if (vm->count("pose")) // "--pose=ANIM": the option is declared for --help only
        return usage_error("--pose takes two separate values: --pose ANIM TIME", kUsage);
    const std::string file = (*vm)["file"].as<std::string>();
    const bool wants_pose = pose_tokens.has_value();

    aem::Model model;
    try {
        model = aem::read_file(file);
    } catch (const aem::Error& error) {
        const std::string hint =
            error.code() == aem::ErrorCode::NotAem ? other_verb_hint(file, "aem-info") : "";
        if (vm->count("json")) { // the same shape as the other verbs' errors: {file, error: {code, message}}
            JsonWriter json(std::cout);
            json.begin_object();
            json.field("file", file);
            json.key("error");
            json.begin_object();
            json.field("code", aem::error_code_name(error.code()));
            json.field("message", error.what() + hint);
            json.end_object();
            json.end_object();
            json.finish();
        }
        print_error(file + ": " + error.what() + hint);
        return kExitUnreadable;
    }

    std::optional<PoseRequest> request;
    if (wants_pose) {
        request = parse_pose(file, model, *pose_tokens);
        if (!request) return kExitUnreadable;
    }
    const bool validating = vm->count("validate") > 0;
    const std::vector<aem::Violation> violations =
        validating || wants_pose ? aem::validate(model) : std::vector<aem::Violation>{};
    if (wants_pose && !violations.empty()) {
        // Evaluation is defined for valid models only; a pose of a broken one would mislead.
        print_error(file + ": cannot pose: the model has " + counted(violations.size(), "violation") +
                    " of the format's invariants (--validate lists them)");
        return kExitDiffers;
    }
    const aem::Pose pose =
        request ? aem::evaluate_pose(model, request->animation, request->time) : aem::Pose{};

    const std::vector<aem::Violation>* shown = validating ? &violations : nullptr;
    if (vm->count("json"))
        print_json(file, model, shown, request, pose);
    else
        print_text(file, model, shown, request, pose);
    return validating && !violations.empty() ? kExitDiffers : kExitOk;
}

} // namespace assbin::cli
