// `assbin render IN -o OUT.png [options]`: a posed, lit picture of a full dump or an AEM file (either
// layout), drawn with OpenGL 3.3 core on a headless EGL context (Mesa's software rasteriser when
// there is no GPU). A dump is converted in memory and posed like its AEM model; the same input and
// options give the same PNG on the same rasteriser.
#include "cli_common.hpp"
#include "read_limit_options.hpp"
#include "render/contact_sheet.hpp"
#include "render/headless_gl.hpp"
#include "render/model_renderer.hpp"
#include "verbs.hpp"

#include "atomic_file.hpp"

#include <aem/io.hpp>
#include <aem/validate.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/format.hpp>
#include <assbin/reader.hpp>

#define STBI_WRITE_NO_STDIO
#include <stb/stb_image_write.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace assbin::cli {

namespace {

constexpr std::string_view kUsage =
    "assbin render IN -o OUT.png | assbin render IN|DIR... --sheet SHEET.png [--jobs N]\n"
    "                     [--size WxH] [--view front|back|left|right|top|iso | --yaw D --pitch D]\n"
    "                     [--anim A --time T] [--wireframe] [--normals] [--bones] [--background RRGGBB]\n"
    "                     [--texture-dir DIR]...";

struct Request {
    std::string input, output;
    std::vector<std::string> inputs; // every input argument
    std::string sheet;               // --sheet: a contact sheet of every file found
    unsigned jobs = 1;
    render::RenderOptions options;
    std::string animation; // index or name; empty: bind pose
    std::vector<fs::path> texture_folders;
};

bool parse_size(const std::string& text, uint32_t& width, uint32_t& height) {
    const size_t x = text.find('x');
    if (x == std::string::npos) return false;
    const auto w = std::from_chars(text.data(), text.data() + x, width);
    const auto h = std::from_chars(text.data() + x + 1, text.data() + text.size(), height);
    return w.ec == std::errc() && w.ptr == text.data() + x && h.ec == std::errc() &&
           h.ptr == text.data() + text.size() && width >= 16 && height >= 16 && width <= 8192 &&
           height <= 8192;
}

bool parse_view(const std::string& view, render::RenderOptions& options) {
    const struct {
        const char* name;
        float yaw, pitch;
    } views[] = {{"front", 0, 0},  {"back", 180, 0}, {"left", -90, 0},
                 {"right", 90, 0}, {"top", 0, 90},   {"iso", 35, 25}};
    for (const auto& v : views) {
        if (view == v.name) {
            options.yaw_degrees = v.yaw;
            options.pitch_degrees = v.pitch;
            return true;
        }
    }
    return false;
}

bool parse_colour(const std::string& text, std::array<uint8_t, 3>& rgb) {
    const std::string hex = text.starts_with('#') ? text.substr(1) : text;
    unsigned value = 0;
    const auto parsed = std::from_chars(hex.data(), hex.data() + hex.size(), value, 16);
    if (hex.size() != 6 || parsed.ec != std::errc() || parsed.ptr != hex.data() + hex.size()) return false;
    rgb = {uint8_t(value >> 16), uint8_t(value >> 8), uint8_t(value)};
    return true;
}

po::options_description describe_options() {
    po::options_description options(
        "Draws IN (a full .assbin dump, or an .aem file of either layout) posed and lit into OUT.png.\n"
        "exit codes: 0 written; 1 no OpenGL context could be made (nothing written); 2 unreadable input,\n"
        "            a model that cannot be drawn, or a usage error\n\noptions");
    options.add_options()("help,h", "show this help")("output,o", po::value<std::string>(),
                                                      "the PNG to write")(
        "size", po::value<std::string>(),
        "picture size WxH, 16..8192 each (default 800x600; 200x150 per thumbnail)")(
        "sheet", po::value<std::string>(),
        "draw every file given or found in the folders (dumps and AEM files) "
        "as a labelled thumbnail on one contact sheet")(
        "jobs,j", po::value<long>(), "thumbnails rendered in parallel (default: the number of cores)")(
        "view", po::value<std::string>(), "front, back, left, right, top or iso (the default)")(
        "yaw", po::value<float>(), "degrees about the up axis (0: from the front)")(
        "pitch", po::value<float>(), "degrees above the horizon")(
        "anim", po::value<std::string>(), "animation to pose, by index or name (default: the bind pose)")(
        "time", po::value<float>()->default_value(0.0f),
        "seconds into the animation")("wireframe", "draw triangle edges only")(
        "bones", "draw the skeleton over the model")("normals", "colour by normal instead of lighting")(
        "background", po::value<std::string>()->default_value("2e3440"), "background colour RRGGBB")(
        "texture-dir", po::value<std::vector<std::string>>()->composing(),
        "a dump's external textures are looked for beside it, then here (repeatable)")(
        "input", po::value<std::vector<std::string>>(), "the dump or AEM file (folders too, with --sheet)");
    options.add(read_limit_options());
    return options;
}

std::optional<Request> request_from(const po::variables_map& vm) {
    const auto usage_error = [](const std::string& what) {
        print_error(what + "\nusage: " + std::string(kUsage));
        return std::optional<Request>();
    };
    if (!vm.count("input")) return usage_error("no input given");
    Request request;
    request.inputs = vm["input"].as<std::vector<std::string>>();
    if (vm.count("sheet")) {
        request.sheet = vm["sheet"].as<std::string>();
        if (vm.count("output")) return usage_error("-o and --sheet exclude each other");
    } else {
        if (!vm.count("output")) return usage_error("-o OUT.png is required (or --sheet SHEET.png)");
        if (request.inputs.size() != 1) return usage_error("-o draws one input; use --sheet for several");
        request.output = vm["output"].as<std::string>();
    }
    request.input = request.inputs.front();
    request.jobs = std::max(1u, std::thread::hardware_concurrency());
    if (vm.count("jobs")) {
        const long jobs = vm["jobs"].as<long>();
        if (jobs < 1 || jobs > 64) return usage_error("--jobs must be 1..64");
        request.jobs = unsigned(jobs);
    }
    render::RenderOptions& o = request.options;
    const std::string size = vm.count("size")        ? vm["size"].as<std::string>()
                             : request.sheet.empty() ? "800x600"
                                                     : "200x150";
    if (!parse_size(size, o.width, o.height)) return usage_error("--size must be WxH, 16..8192 each");
    if (vm.count("view") && !parse_view(vm["view"].as<std::string>(), o))
        return usage_error("--view must be front, back, left, right, top or iso");
    if (vm.count("yaw")) o.yaw_degrees = vm["yaw"].as<float>();
    if (vm.count("pitch")) o.pitch_degrees = vm["pitch"].as<float>();
    if (!parse_colour(vm["background"].as<std::string>(), o.background))
        return usage_error("--background must be RRGGBB (hexadecimal)");
    o.time = vm["time"].as<float>();
    o.wireframe = vm.count("wireframe") > 0;
    o.shade_normals = vm.count("normals") > 0;
    o.bones = vm.count("bones") > 0;
    if (vm.count("anim")) request.animation = vm["anim"].as<std::string>();
    if (vm.count("texture-dir")) {
        for (const std::string& folder : vm["texture-dir"].as<std::vector<std::string>>())
            request.texture_folders.emplace_back(folder);
    }
    o.texture_folder = fs::path(request.input).parent_path();
    return request;
}

// Files to put on a sheet: each file argument, and every dump or AEM file below each folder (by
// their first bytes), sorted; labels relative to the folder.
std::vector<std::pair<fs::path, std::string>> sheet_files(const std::vector<std::string>& inputs) {
    const auto is_model = [](const fs::path& path) {
        std::ifstream in(path, std::ios::binary);
        char magic[19] = {};
        in.read(magic, sizeof magic);
        const std::string head(magic, size_t(in.gcount()));
        return head.starts_with("AEM\x01") || is_dump_file(path);
    };
    std::vector<std::pair<fs::path, std::string>> files;
    for (const std::string& input : inputs) {
        std::error_code error;
        if (!fs::is_directory(input, error)) {
            files.emplace_back(input, fs::path(input).filename().string());
            continue;
        }
        std::vector<fs::path> found;
        for (const auto& entry : fs::recursive_directory_iterator(input, error)) {
            if (entry.is_regular_file(error) && is_model(entry.path())) found.push_back(entry.path());
        }
        std::sort(found.begin(), found.end());
        for (const fs::path& file : found)
            files.emplace_back(file, fs::relative(file, input).string());
    }
    return files;
}

// The model to draw: an AEM file as it is, a dump converted in memory to the 2025 layout, whose
// textures are pixels (found like `convert` finds them: beside the dump, then in --texture-dir).
aem::Model load_model(const Request& request, const ReadOptions& read) {
    std::ifstream in(request.input, std::ios::binary);
    char magic[3] = {};
    in.read(magic, 3);
    if (in.gcount() == 3 && std::string(magic, 3) == "AEM") return aem::read_file(request.input);
    converter::ConvertOptions options;
    options.layout = aem::Layout::Edition2025;
    options.optimize = false; // a picture needs no weld or vertex-cache order: skip their cost
    options.source_folder = fs::path(request.input).parent_path();
    options.texture_folders = request.texture_folders;
    return converter::convert(read_file(request.input, read), options).model;
}

// The animation named by index or name, or why not.
std::optional<uint32_t> find_animation(const aem::Model& model, const std::string& which, std::string& why) {
    uint32_t index = 0;
    const auto parsed = std::from_chars(which.data(), which.data() + which.size(), index);
    if (parsed.ec != std::errc() || parsed.ptr != which.data() + which.size()) {
        index = 0;
        while (index < model.animations.size() && model.animations[index].name != which)
            ++index;
    }
    if (index < model.animations.size()) return index;
    why = "--anim: no animation " + json_quote(which) + " (the model has " +
          std::to_string(model.animations.size()) + ")";
    return std::nullopt;
}

// PNG written beside its final name and renamed when complete.
void write_png(const render::Picture& picture, const fs::path& path) {
    std::string bytes;
    stbi_write_png_to_func(
        [](void* context, void* data, int size) {
            static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
        },
        &bytes, int(picture.width), int(picture.height), 4, picture.rgba.data(), int(picture.width * 4));
    if (bytes.empty()) throw std::runtime_error("cannot encode the picture as PNG for " + path.string());
    assbin_common::write_file_atomically(path, std::as_bytes(std::span(bytes.data(), bytes.size())));
}

int run_sheet(const Request& request, const ReadOptions& read) {
    std::vector<render::SheetEntry> entries;
    for (const auto& [file, label] : sheet_files(request.inputs)) {
        entries.push_back({label, [&request, &read, file = file] {
                               Request one = request;
                               one.input = file.string();
                               one.options.texture_folder = file.parent_path();
                               const aem::Model model = load_model(one, read);
                               if (!aem::validate(model).empty())
                                   throw std::runtime_error("the model is not valid");
                               return render::render_model(model, one.options);
                           }});
    }
    if (entries.empty()) {
        print_error("no dump or AEM file found in the inputs");
        return kExitDiffers;
    }
    const bool bar = ::isatty(STDERR_FILENO);
    render::SheetResult result;
    try {
        result = render::render_sheet(
            entries, request.options.width, request.options.height, request.jobs,
            [bar](size_t done, size_t total) {
                if (!bar) return;
                constexpr size_t kWidth = 30;
                const size_t filled = done * kWidth / total;
                std::fprintf(stderr, "\r[%s%s] %zu/%zu files", std::string(filled, '#').c_str(),
                             std::string(kWidth - filled, '.').c_str(), done, total);
            });
    } catch (const std::exception& error) {
        print_error(std::string("cannot render: ") + error.what());
        return kExitDiffers;
    }
    if (bar) std::fputs("\r\033[K", stderr);
    for (const std::string& failure : result.failures)
        print_error(failure);
    write_png(result.sheet, request.sheet);
    std::printf("%s: %zu thumbnails, %zu failed\n", request.sheet.c_str(), entries.size(),
                result.failures.size());
    return result.failures.empty() ? kExitOk : kExitDiffers;
}

} // namespace

int run_render(const std::vector<std::string>& args) {
    const po::options_description options = describe_options();
    po::positional_options_description positional;
    positional.add("input", -1);
    int exit_code = kExitOk;
    const auto vm = parse_verb_arguments(args, kUsage, options, positional, &exit_code);
    if (!vm) return exit_code;
    std::optional<Request> request = request_from(*vm);
    if (!request) return kExitUnreadable;
    if (!request->sheet.empty()) {
        try {
            return run_sheet(*request, read_options_from(*vm));
        } catch (const std::exception& error) {
            print_error(error.what());
            return kExitUnreadable;
        }
    }
    aem::Model model;
    try {
        model = load_model(*request, read_options_from(*vm));
    } catch (const ParseError& error) {
        print_parse_error(request->input, error);
        return kExitUnreadable;
    } catch (const std::exception& error) {
        print_error(request->input + ": " + error.what());
        return kExitUnreadable;
    }
    if (const auto violations = aem::validate(model); !violations.empty()) {
        print_error(request->input + ": the model breaks " + std::to_string(violations.size()) +
                    " AEM invariants (`assbin aem-info --validate` lists them); it cannot be drawn");
        return kExitUnreadable;
    }
    if (!request->animation.empty()) {
        std::string why;
        request->options.animation = find_animation(model, request->animation, why);
        if (!request->options.animation) {
            print_error(why);
            return kExitUnreadable;
        }
    }
    std::string why;
    const std::optional<render::HeadlessGl> gl = render::HeadlessGl::create(&why);
    if (!gl) {
        print_error("cannot render: " + why);
        return kExitDiffers;
    }
    try {
        write_png(render::render_model(model, request->options), request->output);
    } catch (const std::exception& error) {
        print_error(request->input + ": " + error.what());
        return kExitUnreadable;
    }
    return kExitOk;
}

} // namespace assbin::cli
