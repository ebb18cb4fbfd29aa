// `assbin info FILE [--json]`: what `assimp info` shows and more, from the dump alone.
#include "cli_common.hpp"
#include "read_limit_options.hpp"
#include "scene_facts.hpp"
#include "sigbus_guard.hpp"
#include "verbs.hpp"

#include <assbin/reader.hpp>
#include <assbin/validate.hpp>
#include <mapped_file.hpp>

#include <cstdio>
#include <filesystem>
#include <future>
#include <iostream>
#include <optional>

namespace po = boost::program_options;

namespace assbin::cli {

namespace {

constexpr std::string_view kUsage =
    "assbin info FILE [--json] [--max-nodes N] [--jobs N]\n\n"
    "Summarises a dump of any Assimp version: header fields, the writer profile and layout, scene flags,\n"
    "counts and totals, world-space bounds, meshes, materials and their textures, animations, embedded\n"
    "textures, lights, cameras, the node tree with mesh references, skipped unknown chunks, and the\n"
    "problems validation finds in the content (loaded as Assimp wrote it, then reported; the exit\n"
    "code is still 0). Animation durations are in ticks, as the dump holds them, with seconds beside.";

std::string yes_no(bool value) {
    return value ? "yes" : "no";
}

std::string vec3_text(const Vec3& v) {
    char text[96];
    std::snprintf(text, sizeof text, "(%g, %g, %g)", double(v.x()), double(v.y()), double(v.z()));
    return text;
}

std::string uv_components(const Mesh& mesh) {
    std::string text;
    for (const UvChannel& uv : mesh.uv_channels) {
        if (!text.empty()) text += ',';
        text += std::to_string(uv.component_count);
    }
    return text;
}

// Texture file names a material refers to, as "diffuse: wood.png" etc.
std::string material_textures(const Material& material) {
    static constexpr const char* kSemantics[] = {
        "none",        "diffuse",       "specular",        "ambient",      "emissive",  "height",
        "normals",     "shininess",     "opacity",         "displacement", "lightmap",  "reflection",
        "base colour", "normal camera", "emission colour", "metalness",    "roughness", "occlusion"};
    std::string text;
    for (const MaterialProperty& property : material.properties) {
        if (property.key != "$tex.file") continue;
        const std::string semantic = property.semantic < std::size(kSemantics)
                                         ? kSemantics[property.semantic]
                                         : "type " + std::to_string(property.semantic);
        if (!text.empty()) text += "; ";
        text += semantic + ": " + printable(property.string_value().value_or("?"), 80);
    }
    return text;
}

void print_header_text(const std::string& file, const Scene& scene) {
    const Header& h = scene.header;
    std::cout << "file        " << file << " (" << with_thousands(std::filesystem::file_size(file))
              << " bytes, body " << with_thousands(scene.body_bytes) << ")\n";
    std::cout << "written     " << printable(h.timestamp.substr(0, h.timestamp.find('\n')))
              << ", format version " << h.version_major << "." << h.version_minor << ", revision "
              << hex(h.revision) << ", compile flags " << hex(h.compile_flags)
              << (h.compile_flags ? " (" + compile_flag_names(h.compile_flags) + ")" : " (none)") << "\n";
    std::cout << "kind        " << (h.is_shortened() ? "shortened" : "full") << ", "
              << (h.is_compressed() ? "compressed" : "uncompressed");
    if (h.is_compressed()) {
        std::cout << " (prefix " << h.compressed_prefix << " = "
                  << (h.prefix_meaning == CompressedPrefix::CompressedLength
                          ? "compressed length, writer <= 4.1.0"
                          : "body length")
                  << ")";
    }
    std::cout << "\nsource      " << printable(h.source_name, 200, '"') << "\ncommand     "
              << printable(h.command, 200, '"') << "\n";
    const Layout& l = scene.layout;
    std::cout << "layout      " << writer_profile(scene) << "\n            node metadata "
              << yes_no(l.node_metadata) << ", texture hint "
              << (l.texture_hint_bytes ? std::to_string(l.texture_hint_bytes) + " bytes" : "-")
              << ", light placement " << (l.light_placement ? yes_no(*l.light_placement) : std::string("-"))
              << ", vector keys "
              << (l.vector_key_bytes ? std::to_string(l.vector_key_bytes) + " bytes" : "-")
              << ", mesh lengths " << (l.exact_mesh_lengths ? "exact" : "short (assimp_cmd <= 5.0.1)")
              << (l.mixed_double ? ", double precision" : "") << "\n";
}

void print_counts_text(const Scene& scene, const SceneFacts& facts) {
    std::cout << "scene       flags " << hex(scene.flags)
              << (scene.flags ? " (" + scene_flag_names(scene.flags) + ")" : "") << "\n            "
              << counted(scene.meshes.size(), "mesh", "meshes") << ", "
              << counted(scene.materials.size(), "material", "materials") << ", "
              << counted(scene.animations.size(), "animation", "animations") << ", "
              << counted(scene.textures.size(), "texture", "textures") << ", "
              << counted(scene.lights.size(), "light", "lights") << ", "
              << counted(scene.cameras.size(), "camera", "cameras") << ", "
              << counted(scene.nodes.size(), "node", "nodes") << " (depth " << facts.max_node_depth << ")\n";
    std::cout << "totals      " << counted(facts.vertices, "vertex", "vertices") << ", "
              << counted(facts.faces, "face", "faces") << ", " << counted(facts.bones, "bone", "bones")
              << ", " << counted(facts.animation_channels, "animation channel", "animation channels") << ", "
              << counted(facts.metadata_entries, "metadata entry", "metadata entries") << "\n";
    if (!scene.meshes.empty()) {
        std::cout << "            " << with_thousands(facts.vertices / scene.meshes.size())
                  << " vertices and " << with_thousands(facts.faces / scene.meshes.size())
                  << " faces per mesh on average\n";
    }
    if (facts.world_bounds) {
        const Vec3 center = (facts.world_bounds->min + facts.world_bounds->max) / 2;
        std::cout << "bounds      min " << vec3_text(facts.world_bounds->min) << ", max "
                  << vec3_text(facts.world_bounds->max) << ", centre " << vec3_text(center)
                  << (scene.is_shortened() ? " (from the stored bounds)" : "") << "\n";
    }
}

void print_meshes_text(const Scene& scene, const SceneFacts& facts) {
    if (scene.meshes.empty()) return;
    std::printf("\nmeshes\n  %4s %9s %9s %5s %8s %-16s %-7s %-8s %7s %-8s %s\n", "#", "vertices", "faces",
                "bones", "material", "primitives", "normals", "tangents", "colours", "uv", "indices");
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        const Mesh& mesh = scene.meshes[m];
        const std::string uv = mesh.uv_channels.empty() ? "-" : uv_components(mesh);
        std::printf("  %4zu %9s %9s %5s %8u %-16s %-7s %-8s %7zu %-8s %s\n", m,
                    with_thousands(mesh.vertex_count).c_str(), with_thousands(mesh.face_count).c_str(),
                    with_thousands(mesh.bones.size()).c_str(), mesh.material_index,
                    facts.meshes[m].primitive_names.c_str(), yes_no(mesh.normals.has_value()).c_str(),
                    yes_no(mesh.tangents.has_value()).c_str(), mesh.color_sets.size(), uv.c_str(),
                    mesh.uses_32bit_indices() ? "32-bit" : "16-bit");
    }
}

void print_materials_text(const Scene& scene) {
    if (scene.materials.empty()) return;
    std::cout << "\nmaterials\n";
    for (size_t m = 0; m < scene.materials.size(); ++m) {
        const Material& material = scene.materials[m];
        std::printf("  %4zu %-32s %3zu properties", m, printable(material.name(), 60, '"').c_str(),
                    material.properties.size());
        const std::string textures = material_textures(material);
        std::cout << (textures.empty() ? "" : "  " + textures) << "\n";
    }
}

void print_animations_text(const Scene& scene) {
    if (scene.animations.empty()) return;
    // The dump holds durations in ticks; seconds beside them, at 25 ticks/s where the dump says 0 (as
    // convert plays them by default).
    std::printf("\nanimations\n  %4s %-32s %16s %10s %9s %8s %s\n", "#", "name", "duration (ticks)",
                "seconds", "ticks/s", "channels", "keys (position/rotation/scaling)");
    for (size_t a = 0; a < scene.animations.size(); ++a) {
        const Animation& animation = scene.animations[a];
        uint64_t keys[3] = {0, 0, 0};
        for (const NodeChannel& channel : animation.channels) {
            keys[0] += channel.positions.count;
            keys[1] += channel.rotations.count;
            keys[2] += channel.scalings.count;
        }
        const double rate = animation.ticks_per_second > 0 ? animation.ticks_per_second : 25.0;
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g%s", animation.duration / rate,
                      animation.ticks_per_second > 0 ? "" : " (at 25)");
        std::printf("  %4zu %-32s %16g %10s %9g %8s %s/%s/%s\n", a,
                    printable(animation.name, 28, '"').c_str(), animation.duration, seconds,
                    animation.ticks_per_second, with_thousands(animation.channels.size()).c_str(),
                    with_thousands(keys[0]).c_str(), with_thousands(keys[1]).c_str(),
                    with_thousands(keys[2]).c_str());
    }
}

void print_textures_lights_cameras_text(const Scene& scene) {
    if (!scene.textures.empty()) std::cout << "\ntextures\n";
    for (size_t t = 0; t < scene.textures.size(); ++t) {
        const Texture& texture = scene.textures[t];
        std::cout << "  " << t << "  *" << t << "  hint " << printable(texture.format_hint, 200, '"') << "  "
                  << (texture.is_compressed() ? "embedded file of " + with_thousands(texture.width) + " bytes"
                                              : std::to_string(texture.width) + " x " +
                                                    std::to_string(texture.height) + " ARGB8888 texels")
                  << "\n";
    }
    if (!scene.lights.empty()) std::cout << "\nlights\n";
    for (size_t l = 0; l < scene.lights.size(); ++l) {
        const Light& light = scene.lights[l];
        std::cout << "  " << l << "  " << printable(light.name, 200, '"') << "  " << light_type_name(light.type)
                  << "\n";
    }
    if (!scene.cameras.empty()) std::cout << "\ncameras\n";
    for (size_t c = 0; c < scene.cameras.size(); ++c) {
        const Camera& camera = scene.cameras[c];
        std::cout << "  " << c << "  " << printable(camera.name, 200, '"') << "  position "
                  << vec3_text(camera.position) << ", fov " << camera.horizontal_fov << " rad\n";
    }
}

void print_nodes_text(const Scene& scene, size_t max_nodes) {
    std::cout << "\nnodes\n";
    std::vector<unsigned> depth(scene.nodes.size(), 0);
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        const Node& node = scene.nodes[n];
        if (node.parent >= 0) depth[n] = depth[static_cast<size_t>(node.parent)] + 1;
        if (max_nodes != 0 && n >= max_nodes) {
            std::cout << "  ... " << counted(scene.nodes.size() - n, "more node", "more nodes")
                      << " (--max-nodes 0 shows all)\n";
            break;
        }
        std::cout << "  " << std::string(2 * std::min(depth[n], 40u), ' ') << printable(node.name, 80);
        if (!node.meshes.empty()) {
            std::cout << "  meshes";
            for (uint32_t mesh : node.meshes)
                std::cout << ' ' << mesh;
        }
        if (!node.metadata.empty())
            std::cout << "  [" << counted(node.metadata.size(), "metadata entry", "metadata entries") << "]";
        std::cout << "\n";
    }
}

void print_problems_text(const Scene& scene, const std::vector<Problem>& problems) {
    if (!scene.skipped_chunks.empty()) std::cout << "\nskipped chunks\n";
    for (const SkippedChunk& chunk : scene.skipped_chunks) {
        std::cout << "  id " << hex(chunk.id) << ", " << counted(chunk.length, "byte") << " at byte "
                  << with_thousands(chunk.offset) << " in " << chunk.path << "\n";
    }
    std::cout << "\nproblems    " << (problems.empty() ? "none found" : with_thousands(problems.size()))
              << "\n";
    for (const Problem& problem : problems) {
        std::cout << "  " << (problem.severity == Severity::Error ? "error  " : "warning") << "  "
                  << problem.path << ": " << problem.message << "\n";
    }
}

void write_header_json(JsonWriter& json, const Scene& scene) {
    const Header& h = scene.header;
    json.key("header");
    json.begin_object();
    json.field("timestamp", h.timestamp);
    json.field("version_major", h.version_major);
    json.field("version_minor", h.version_minor);
    json.field("revision", hex(h.revision));
    json.field("compile_flags", hex(h.compile_flags));
    json.field("compile_flag_names", compile_flag_names(h.compile_flags));
    json.field("shortened", unsigned(h.shortened));
    json.field("compressed", unsigned(h.compressed));
    json.field("source_name", h.source_name);
    json.field("command", h.command);
    if (h.is_compressed()) {
        json.field("compressed_prefix", h.compressed_prefix);
        json.field("prefix_meaning", h.prefix_meaning == CompressedPrefix::CompressedLength
                                         ? "compressed-length"
                                         : "uncompressed-length");
    }
    json.end_object();
    const Layout& l = scene.layout;
    json.key("layout");
    json.begin_object();
    json.field("profile", writer_profile(scene));
    json.field("node_metadata", l.node_metadata);
    json.field("texture_hint_bytes", l.texture_hint_bytes);
    json.key("light_placement");
    if (l.light_placement)
        json.value(*l.light_placement);
    else
        json.null();
    json.field("vector_key_bytes", l.vector_key_bytes);
    json.field("exact_mesh_lengths", l.exact_mesh_lengths);
    json.field("double_precision", l.mixed_double);
    json.end_object();
}

void write_counts_json(JsonWriter& json, const Scene& scene, const SceneFacts& facts) {
    json.key("counts");
    json.begin_object();
    json.field("scene_flags", scene.flags);
    json.field("meshes", scene.meshes.size());
    json.field("materials", scene.materials.size());
    json.field("animations", scene.animations.size());
    json.field("textures", scene.textures.size());
    json.field("lights", scene.lights.size());
    json.field("cameras", scene.cameras.size());
    json.field("nodes", scene.nodes.size());
    json.field("max_node_depth", facts.max_node_depth);
    json.field("vertices", facts.vertices);
    json.field("faces", facts.faces);
    json.field("bones", facts.bones);
    json.field("animation_channels", facts.animation_channels);
    json.field("metadata_entries", facts.metadata_entries);
    json.key("metadata_types");
    json.begin_object();
    for (const auto& [type, count] : facts.metadata_types)
        json.field(std::to_string(type), count);
    json.end_object();
    json.end_object();
    if (facts.world_bounds) {
        json.key("bounds");
        json.begin_object();
        for (const auto& [name, v] :
             {std::pair{"min", facts.world_bounds->min}, std::pair{"max", facts.world_bounds->max}}) {
            json.key(name);
            json.begin_array();
            for (int i = 0; i < 3; ++i)
                json.value(v[i]);
            json.end_array();
        }
        json.end_object();
    }
}

void write_mesh_json(JsonWriter& json, const Mesh& mesh, const MeshFacts& facts) {
    json.begin_object();
    json.field("vertices", mesh.vertex_count);
    json.field("faces", mesh.face_count);
    json.field("bones", mesh.bones.size());
    json.field("bone_weights", facts.bone_weights);
    json.field("material", mesh.material_index);
    json.field("primitive_types", mesh.primitive_types);
    json.field("primitive_names", facts.primitive_names);
    json.field("component_mask", hex(mesh.component_mask()));
    json.field("positions", mesh.positions.has_value());
    json.field("normals", mesh.normals.has_value());
    json.field("tangents", mesh.tangents.has_value());
    json.field("color_sets", mesh.color_sets.size());
    json.field("uv_channels", mesh.uv_channels.size());
    json.key("uv_components");
    json.begin_array();
    for (const UvChannel& uv : mesh.uv_channels)
        json.value(uv.component_count);
    json.end_array();
    json.field("idx32", mesh.uses_32bit_indices());
    json.key("face_sizes");
    if (facts.has_face_data) {
        json.begin_object();
        for (const auto& [size, count] : facts.face_sizes)
            json.field(size, count);
        json.end_object();
    } else {
        json.null();
    }
    json.key("max_index");
    if (facts.has_face_data)
        json.value(facts.max_index);
    else
        json.null();
    json.field("face_hashes", mesh.face_hashes.size());
    json.end_object();
}

void write_materials_json(JsonWriter& json, const Scene& scene) {
    json.key("materials");
    json.begin_array();
    for (const Material& material : scene.materials) {
        json.begin_object();
        json.field("name", material.name());
        json.field("properties", material.properties.size());
        json.key("textures");
        json.begin_array();
        for (const MaterialProperty& property : material.properties) {
            if (property.key != "$tex.file") continue;
            json.begin_object();
            json.field("semantic", property.semantic);
            json.field("index", property.index);
            json.field("file", property.string_value().value_or(""));
            json.end_object();
        }
        json.end_array();
        json.end_object();
    }
    json.end_array();
}

void write_animations_json(JsonWriter& json, const Scene& scene) {
    json.key("animations");
    json.begin_array();
    for (const Animation& animation : scene.animations) {
        json.begin_object();
        json.field("name", animation.name);
        json.field("duration", animation.duration);
        json.field("ticks_per_second", animation.ticks_per_second);
        json.field("channels", animation.channels.size());
        uint64_t keys[3] = {0, 0, 0};
        for (const NodeChannel& channel : animation.channels) {
            keys[0] += channel.positions.count;
            keys[1] += channel.rotations.count;
            keys[2] += channel.scalings.count;
        }
        json.field("position_keys", keys[0]);
        json.field("rotation_keys", keys[1]);
        json.field("scaling_keys", keys[2]);
        json.end_object();
    }
    json.end_array();
}

void write_textures_lights_cameras_json(JsonWriter& json, const Scene& scene) {
    json.key("textures");
    json.begin_array();
    for (const Texture& texture : scene.textures) {
        json.begin_object();
        json.field("width", texture.width);
        json.field("height", texture.height);
        json.field("hint", texture.format_hint);
        json.field("compressed", texture.is_compressed());
        json.field("data_bytes", texture.data.size());
        json.end_object();
    }
    json.end_array();
    json.key("lights");
    json.begin_array();
    for (const Light& light : scene.lights) {
        json.begin_object();
        json.field("name", light.name);
        json.field("type", light.type);
        json.field("type_name", light_type_name(light.type));
        json.end_object();
    }
    json.end_array();
    json.key("cameras");
    json.begin_array();
    for (const Camera& camera : scene.cameras) {
        json.begin_object();
        json.field("name", camera.name);
        json.field("horizontal_fov", camera.horizontal_fov);
        json.field("clip_near", camera.clip_near);
        json.field("clip_far", camera.clip_far);
        json.field("aspect", camera.aspect);
        json.end_object();
    }
    json.end_array();
}

void write_sections_json(JsonWriter& json, const Scene& scene, const SceneFacts& facts) {
    json.key("meshes");
    json.begin_array();
    for (size_t m = 0; m < scene.meshes.size(); ++m)
        write_mesh_json(json, scene.meshes[m], facts.meshes[m]);
    json.end_array();
    write_materials_json(json, scene);
    write_animations_json(json, scene);
    write_textures_lights_cameras_json(json, scene);
}

void write_nodes_and_problems_json(JsonWriter& json, const Scene& scene, const std::vector<Problem>& problems,
                                   size_t max_nodes) {
    const size_t listed = max_nodes == 0 ? scene.nodes.size() : std::min(max_nodes, scene.nodes.size());
    json.field("nodes_listed", listed); // of counts.nodes: fewer only when --max-nodes asks
    json.key("nodes");
    json.begin_array();
    for (const Node& node : std::span(scene.nodes).first(listed)) {
        json.begin_object();
        json.field("name", node.name);
        json.field("parent", node.parent);
        json.key("meshes");
        json.begin_array();
        for (uint32_t mesh : node.meshes)
            json.value(mesh);
        json.end_array();
        json.field("children", node.children.size());
        json.field("metadata", node.metadata.size());
        json.end_object();
    }
    json.end_array();
    json.field("trailing_bytes", scene.trailing_bytes);
    json.key("skipped_chunks");
    json.begin_array();
    for (const SkippedChunk& chunk : scene.skipped_chunks) {
        json.begin_object();
        json.field("id", hex(chunk.id));
        json.field("offset", chunk.offset);
        json.field("length", chunk.length);
        json.field("path", chunk.path);
        json.end_object();
    }
    json.end_array();
    json.key("problems");
    json.begin_array();
    for (const Problem& problem : problems) {
        json.begin_object();
        json.field("severity", problem.severity == Severity::Error ? "error" : "warning");
        json.field("path", problem.path);
        json.field("message", problem.message);
        json.end_object();
    }
    json.end_array();
}

} // namespace

int run_info(const std::vector<std::string>& args) {
    po::options_description options("options");
    options.add_options()("help,h", "show this help")("json", "print the summary as JSON")(
        "max-nodes", po::value<size_t>()->default_value(200)->value_name("N"),
        "nodes shown in the text tree (0 = all); with --json, nodes listed (default: all)");
    options.add(jobs_option("threads that decode the meshes, validate the scene and gather each mesh's "
                            "facts (default: the number of cores; the output is the same for any N)"));
    options.add(read_limit_options());
    int exit_code = kExitOk;
    const auto vm = parse_verb_arguments(args, {"info", kUsage, {{"file", "FILE"}}}, options, &exit_code);
    if (!vm) return exit_code;
    const std::string file = (*vm)["file"].as<std::string>();
    const std::optional<unsigned> jobs = jobs_from(*vm);
    if (!jobs) return usage_error("--jobs must be 1..1024", kUsage);

    Scene scene;
    std::optional<assbin_common::MappedFile> mapped; // the arrays stay here (array_views)
    try {
        note_mapped_input(file);
        ReadOptions read_options = read_options_from(*vm);
        read_options.array_views = true; // looked at, not kept: arrays are not copied out of the file
        read_options.threads = *jobs;
        mapped.emplace(file);
        scene = read_scene(mapped->bytes(), read_options);
    } catch (const ParseError& error) {
        if (vm->count("json")) print_error_json(file, error);
        print_parse_error(file, error);
        return kExitUnreadable;
    } catch (const assbin_common::ReadFailure& failure) {
        const ParseError error(ErrorCode::Io, 0, "", failure.what());
        if (vm->count("json")) print_error_json(file, error);
        print_parse_error(file, error);
        return kExitUnreadable;
    }
    // Both only read the scene: with threads to spare, validation runs beside the facts.
    SceneFacts facts;
    std::vector<Problem> problems;
    if (*jobs == 1) {
        problems = validate(scene);
        facts = compute_facts(scene, 1);
    } else {
        auto validating = std::async(std::launch::async, [&scene] { return validate(scene); });
        facts = compute_facts(scene, *jobs);
        problems = validating.get();
    }
    if (vm->count("json")) {
        JsonWriter json(std::cout);
        json.begin_object();
        json.field("file", file);
        json.field("file_bytes", static_cast<uint64_t>(std::filesystem::file_size(file)));
        json.field("body_bytes", scene.body_bytes);
        write_header_json(json, scene);
        write_counts_json(json, scene, facts);
        write_sections_json(json, scene, facts);
        // --json lists every node unless --max-nodes is given (the text's default of 200 is for a terminal).
        const size_t max_nodes = (*vm)["max-nodes"].defaulted() ? 0 : (*vm)["max-nodes"].as<size_t>();
        write_nodes_and_problems_json(json, scene, problems, max_nodes);
        json.end_object();
        json.finish();
        return kExitOk;
    }
    print_header_text(file, scene);
    print_counts_text(scene, facts);
    print_meshes_text(scene, facts);
    print_materials_text(scene);
    print_animations_text(scene);
    print_textures_lights_cameras_text(scene);
    print_nodes_text(scene, (*vm)["max-nodes"].as<size_t>());
    print_problems_text(scene, problems);
    return kExitOk;
}

} // namespace assbin::cli
