// `assbin tree FILE [--json] [--depth N]`: the chunk tree as the reader walked it. On a damaged
// file it shows the tree up to the damage, then the error.
#include "cli_common.hpp"
#include "read_limit_options.hpp"
#include "sigbus_guard.hpp"
#include "verbs.hpp"

#include <mapped_file.hpp>

#include <assbin/format.hpp>
#include <assbin/reader.hpp>

#include <cstdio>
#include <iostream>
#include <optional>

namespace po = boost::program_options;

namespace assbin::cli {

namespace {

constexpr std::string_view kUsage =
    "assbin tree FILE [--json] [--depth N]\n\n"
    "Lists every chunk as the reader walks it: offset (in the inflated image for compressed files),\n"
    "declared length, and identifying fields. Old assimp_cmd MESH lengths are shown with their real\n"
    "content length. On a damaged file: the tree up to the damage, the chunks it was inside marked\n"
    "incomplete, then the error (offset, chunk path, what was expected) on stderr; exit 2.";

std::string chunk_label(const ChunkRecord& record) {
    const char* name = chunk_name(record.id);
    char id[16];
    std::snprintf(id, sizeof id, "0x%x", record.id);
    return name ? std::string(name) : std::string("? id ") + id + " (unknown, skipped)";
}

void print_text(const std::vector<ChunkRecord>& chunks, unsigned max_depth, bool compressed) {
    if (compressed) std::cout << "(offsets are in the inflated image: 512-byte header + body)\n";
    std::printf("%10s %10s  %s\n", "offset", "length", "chunk");
    for (const ChunkRecord& record : chunks) {
        if (record.depth >= max_depth) continue;
        std::string line = std::string(2 * std::min(record.depth, 40u), ' ') + chunk_label(record);
        for (const auto& [key, value] : record.fields) {
            const bool quoted = key == "name" || key == "key" || key == "node" || key == "hint";
            line += "  " + key + "=" + (quoted ? json_quote(printable(value, 80)) : value);
        }
        if (record.complete && record.actual_length != record.declared_length) {
            line += "  [content " + std::to_string(record.actual_length) +
                    " bytes: short length of assimp_cmd <= 5.0.1]";
        }
        if (!record.complete) line += "  [incomplete: reading stopped inside]";
        std::printf("%10llu %10u  %s\n", static_cast<unsigned long long>(record.offset),
                    record.declared_length, line.c_str());
    }
}

void print_json(const std::string& file, const std::vector<ChunkRecord>& chunks, unsigned max_depth,
                const std::optional<ParseError>& error) {
    JsonWriter json(std::cout);
    json.begin_object();
    json.field("file", file);
    json.key("chunks");
    json.begin_array();
    for (const ChunkRecord& record : chunks) {
        if (record.depth >= max_depth) continue;
        json.begin_object();
        json.field("id", record.id);
        const char* name = chunk_name(record.id);
        json.field("name", name ? name : "unknown");
        json.field("offset", record.offset);
        json.field("length", record.declared_length);
        json.field("content_length", record.actual_length);
        json.field("depth", record.depth);
        json.field("path", record.path);
        json.field("skipped", record.skipped);
        json.field("complete", record.complete);
        json.key("fields");
        json.begin_object();
        for (const auto& [key, value] : record.fields)
            json.field(key, value);
        json.end_object();
        json.end_object();
    }
    json.end_array();
    write_error_json(json, file, error ? &*error : nullptr);
    json.end_object();
    json.finish();
}

} // namespace

int run_tree(const std::vector<std::string>& args) {
    po::options_description options("options");
    options.add_options()("help,h", "show this help")("json", "print the chunk list as JSON")(
        "depth", po::value<unsigned>()->value_name("N"),
        "show chunks down to depth N only (1 = SCENE alone; default: all)");
    options.add(read_limit_options());
    int exit_code = kExitOk;
    const auto vm = parse_verb_arguments(args, {"tree", kUsage, {{"file", "FILE"}}}, options, &exit_code);
    if (!vm) return exit_code;
    const std::string file = (*vm)["file"].as<std::string>();
    const unsigned max_depth = vm->count("depth") ? (*vm)["depth"].as<unsigned>() : ~0u;
    if (max_depth == 0) return usage_error("--depth must be 1 or more (1 = SCENE alone)", kUsage);

    std::vector<ChunkRecord> chunks;
    ReadOptions read_options = read_options_from(*vm);
    read_options.chunk_trace = &chunks;
    read_options.structure_only = true; // the walk, not the data: arrays are checked, not copied
    std::optional<ParseError> error;
    bool compressed = false;
    try {
        note_mapped_input(file);
        const assbin_common::MappedFile mapped(file);
        compressed = read_header(mapped.bytes()).is_compressed();
        read_scene(mapped.bytes(), read_options);
    } catch (const ParseError& e) {
        error = e;
    } catch (const assbin_common::ReadFailure& failure) {
        error = ParseError(ErrorCode::Io, 0, "", failure.what());
    }
    if (vm->count("json"))
        print_json(file, chunks, max_depth, error);
    else if (!chunks.empty() || !error) // a file that could not be opened has no table, not an empty one
        print_text(chunks, max_depth, compressed);
    if (error) {
        print_parse_error(file, *error);
        return kExitUnreadable;
    }
    return kExitOk;
}

} // namespace assbin::cli
