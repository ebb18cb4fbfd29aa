// `assbin render IN -o OUT.png [options]`: a posed, lit picture of a full dump, a glTF file or an AEM file
// (either layout), drawn with OpenGL 3.3 core on a headless EGL context (Mesa's software rasteriser when
// there is no GPU). A dump is converted in memory and posed like its AEM model; the same input and
// options give the same PNG on the same rasteriser.
#include "cli_common.hpp"
#include "progress_bar.hpp"
#include "read_limit_options.hpp"
#include "render/contact_sheet.hpp"
#include "render/drawable_model.hpp"
#include "render/gltf_drawable.hpp"
#include "render/headless_gl.hpp"
#include "render/model_renderer.hpp"
#include "verbs.hpp"

#include "atomic_file.hpp"
#include "json_writer.hpp"
#include "output_target.hpp"

#include <aem/io.hpp>
#include <aem/validate.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/format.hpp>
#include <assbin/reader.hpp>
#include <read_file.hpp>

#define STBI_WRITE_NO_STDIO
#include <stb/stb_image_write.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <mutex>
#include <set>
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
    "                     [--texture-dir DIR]... [--json]\n\n"
    "Draws IN (a full dump, a shortened dump as its meshes' bounds, an AEM file of either layout, or a\n"
    ".glb/.gltf file) posed and lit into OUT.png, headless (EGL; Mesa's software rasteriser\n"
    "without a GPU).";

struct Request {
    std::string input, output;
    std::vector<std::string> inputs; // every input argument
    std::string sheet;               // --sheet: a contact sheet of every file found
    unsigned jobs = 1;
    render::RenderOptions options;
    std::string animation; // index or name; empty: bind pose
    std::vector<fs::path> texture_folders;
    bool json = false; // the report as JSON on stdout (or stderr when the picture goes to stdout)
};

// What a run did, for its report: the human lines (errors, warnings) or --json.
struct RunReport {
    int exit_code = kExitOk;
    std::string error;                 // why the run failed, when it did
    std::vector<std::string> warnings; // each a sentence, naming the file
    std::vector<std::string> written;  // every file put in place (the picture or the sheet)
    struct Tile {
        std::string input, error; // error empty: drawn
    };
    std::vector<Tile> tiles; // --sheet: every file on it, in order
};

// Prints the report: as lines on stderr (errors and warnings; a sheet's summary on stdout), or as
// one JSON object. Returns the exit code.
int print_report(const Request& request, const RunReport& report, const std::string& summary) {
    if (!request.json) {
        for (const std::string& warning : report.warnings)
            std::cerr << "assbin: warning: " << warning << "\n";
        if (!report.error.empty()) print_error(report.error);
        if (!summary.empty()) std::cout << summary << "\n";
        return report.exit_code;
    }
    JsonWriter json(std::cout);
    json.begin_object();
    if (request.sheet.empty()) json.field("input", request.input);
    json.field("output", request.sheet.empty() ? request.output : request.sheet);
    json.field("status", report.exit_code == kExitOk ? "drawn" : "failed");
    json.field("exit_code", report.exit_code);
    if (!report.error.empty()) json.field("error", report.error);
    json.key("written");
    json.begin_array();
    for (const std::string& file : report.written)
        json.value(file);
    json.end_array();
    if (!request.sheet.empty()) {
        json.key("tiles");
        json.begin_array();
        for (const RunReport::Tile& tile : report.tiles) {
            json.begin_object();
            json.field("input", tile.input);
            json.field("status", tile.error.empty() ? "drawn" : "failed");
            if (!tile.error.empty()) json.field("error", tile.error);
            json.end_object();
        }
        json.end_array();
    }
    json.key("warnings");
    json.begin_array();
    for (const std::string& warning : report.warnings)
        json.value(warning);
    json.end_array();
    json.end_object();
    json.finish();
    return report.exit_code;
}

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
    po::options_description options("options");
    options.add_options()("help,h", "show this help")("output,o", po::value<std::string>(),
                                                      "the PNG to write")(
        "size", po::value<std::string>(),
        "picture size WxH, 16..8192 each (default 800x600; 200x150 per thumbnail)")(
        "sheet", po::value<std::string>(),
        "draw every file given or found in the folders (dumps, shortened dumps as their bounds, AEM files "
        "and glTF files) as a labelled thumbnail on one contact sheet; failed ones marked in red")(
        "jobs,j", po::value<long>(), "thumbnails rendered in parallel (default: the number of cores)")(
        "view", po::value<std::string>(), "front, back, left, right, top or iso (the default)")(
        "yaw", po::value<float>(), "degrees about the up axis (0: from the front); instead of --view")(
        "pitch", po::value<float>(), "degrees above the horizon (default 25 with --yaw); instead of --view")(
        "anim", po::value<std::string>(), "animation to pose, by index or name (default: the bind pose)")(
        "time", po::value<float>(),
        "seconds into the --anim animation (default 0)")("wireframe", "draw triangle edges only")(
        "bones", "draw the skeleton over the model")("normals", "colour by normal instead of lighting")(
        "background", po::value<std::string>()->default_value("2e3440"), "background colour RRGGBB")(
        "texture-dir", po::value<std::vector<std::string>>()->composing(),
        "textures (a dump's, or a 2024 model's files) are looked for beside the input, then here "
        "(repeatable); one not found is a warning and its flat colour is drawn")(
        "json", "print the report as JSON: the output, its status, the files written (\"written\"), every "
                "tile of a sheet with its error, and the warnings");
    options.add(read_limit_options());
    return options;
}

std::optional<Request> request_from(const po::variables_map& vm) {
    const auto refuse = [](const std::string& what) {
        usage_error(what, kUsage);
        return std::optional<Request>();
    };
    Request request;
    request.inputs = vm["input"].as<std::vector<std::string>>();
    if (vm.count("sheet")) {
        request.sheet = vm["sheet"].as<std::string>();
        if (vm.count("output")) return refuse("-o and --sheet exclude each other");
    } else {
        if (!vm.count("output")) return refuse("render needs -o OUT.png (or --sheet SHEET.png)");
        if (request.inputs.size() != 1) return refuse("-o draws one input; use --sheet for several");
        if (vm.count("jobs"))
            return refuse("--jobs sets the threads of a --sheet; one picture is drawn on one");
        request.output = vm["output"].as<std::string>();
    }
    request.input = request.inputs.front();
    request.json = vm.count("json") > 0;
    const std::optional<unsigned> jobs = jobs_from(vm);
    if (!jobs) return refuse("--jobs must be 1..1024");
    request.jobs = *jobs;
    render::RenderOptions& o = request.options;
    const std::string size = vm.count("size")        ? vm["size"].as<std::string>()
                             : request.sheet.empty() ? "800x600"
                                                     : "200x150";
    if (!parse_size(size, o.width, o.height)) return refuse("--size must be WxH, 16..8192 each");
    if (vm.count("view") && (vm.count("yaw") || vm.count("pitch")))
        return refuse("--view and --yaw/--pitch exclude each other (a view is a yaw and a pitch)");
    if (vm.count("view") && !parse_view(vm["view"].as<std::string>(), o))
        return refuse("--view must be front, back, left, right, top or iso");
    if (vm.count("yaw")) o.yaw_degrees = vm["yaw"].as<float>();
    if (vm.count("pitch")) o.pitch_degrees = vm["pitch"].as<float>();
    if (!std::isfinite(o.yaw_degrees) || !std::isfinite(o.pitch_degrees))
        return refuse("--yaw and --pitch take finite degrees");
    if (!parse_colour(vm["background"].as<std::string>(), o.background))
        return refuse("--background must be RRGGBB (hexadecimal)");
    if (vm.count("time") && !vm.count("anim"))
        return refuse("--time poses an animation: give it with --anim A (index or name)");
    o.time = vm.count("time") ? vm["time"].as<float>() : 0.0f;
    if (!std::isfinite(o.time)) return refuse("--time takes finite seconds");
    o.wireframe = vm.count("wireframe") > 0;
    o.shade_normals = vm.count("normals") > 0;
    o.bones = vm.count("bones") > 0;
    if (vm.count("anim")) request.animation = vm["anim"].as<std::string>();
    if (vm.count("texture-dir")) {
        for (const std::string& folder : vm["texture-dir"].as<std::vector<std::string>>()) {
            std::error_code error;
            if (!fs::is_directory(folder, error))
                return refuse("--texture-dir " + folder +
                              (fs::exists(folder, error) ? ": is a file, not a folder" : ": no such folder"));
            request.texture_folders.emplace_back(folder);
        }
    }
    return request;
}

// Files to put on a sheet: each file argument, and every dump or AEM file below each folder (by
// their first bytes), sorted; labels relative to the folder.
// A dump, an AEM model or a glTF file, by its first bytes (a .gltf by its name).
bool is_model(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    char magic[19] = {};
    in.read(magic, sizeof magic);
    const std::string head(magic, size_t(in.gcount()));
    return head.starts_with("AEM\x01") || is_dump_file(path) || render::is_gltf_file(path);
}

std::vector<std::pair<fs::path, std::string>> sheet_files(const std::vector<std::string>& inputs) {
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
          counted(model.animations.size(), "animation") + ")";
    return std::nullopt;
}

// An option naming what the file does not have (--anim 3 of a model with 2 animations): a usage
// error for this file (exit 2), a failed tile on a sheet.
struct NotInTheFile : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The picture of one file as the request asks; throws with the reason when it cannot be drawn.
// Warnings (textures not found) are handed to `warn`.
render::Picture draw_file(const Request& request, const fs::path& file, const ReadOptions& read,
                          const std::function<void(const std::string&)>& warn) {
    // A glTF file is posed as it is read: its animation is baked into the vertices it gives.
    const bool gltf = render::is_gltf_file(file);
    const render::GltfPose pose{request.animation, request.options.time};
    render::DrawableModel drawable = [&] {
        try {
            return render::load_drawable(file, read, request.texture_folders,
                                         gltf && !request.animation.empty() ? &pose : nullptr);
        } catch (const render::NoSuchGltfAnimation& missing) {
            throw NotInTheFile(missing.what());
        }
    }();
    for (const std::string& warning : drawable.warnings)
        warn(warning);
    if (const auto violations = aem::validate(drawable.model); !violations.empty()) {
        throw std::runtime_error("the model breaks " + counted(violations.size(), "AEM invariant") +
                                 " (`assbin aem-info --validate` lists them); it cannot be drawn");
    }
    render::RenderOptions options = request.options;
    options.texture_files = std::move(drawable.texture_files);
    if (drawable.bounds_only) options.wireframe = true; // boxes: a shortened dump's mesh bounds
    if (!request.animation.empty()) {
        if (drawable.bounds_only) throw NotInTheFile("--anim: a shortened dump has no animation to pose");
        if (!gltf) {
            std::string why;
            options.animation = find_animation(drawable.model, request.animation, why);
            if (!options.animation) throw NotInTheFile(why);
        }
    }
    if (options.bones && drawable.model.bones.empty()) {
        warn(
            gltf ? "--bones draws nothing: render draws glTF files without their skeletons"
            : drawable.bounds_only && drawable.shortened_bones > 0
                ? "--bones draws nothing: a shortened dump is drawn as its meshes' bounding boxes, and its " +
                      counted(drawable.shortened_bones, "bone") + " cannot be placed without its vertices"
                : std::string("--bones draws nothing: the model has no bones"));
    }
    return render::render_model(drawable.model, options);
}

// PNG written beside its final name and renamed when complete.
void write_png(const render::Picture& picture, const fs::path& path) {
    make_output_folder(path);
    std::string bytes;
    stbi_write_png_to_func(
        [](void* context, void* data, int size) {
            static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
        },
        &bytes, int(picture.width), int(picture.height), 4, picture.rgba.data(), int(picture.width * 4));
    if (bytes.empty()) throw std::runtime_error("cannot encode the picture as PNG for " + path.string());
    assbin_common::write_file_atomically(path, std::as_bytes(std::span(bytes.data(), bytes.size())));
}

// Draws the one input into -o with `gl` (none: `no_gl` says why); the exit code, with what happened
// in `report`.
int draw_one(const Request& request, const ReadOptions& read, const std::optional<render::HeadlessGl>& gl,
             const std::string& no_gl, RunReport& report) {
    const auto fail = [&report](int code, std::string why) {
        report.error = std::move(why);
        return code;
    };
    // Reading and converting come before the OpenGL context, so that an unreadable input says so
    // (exit 2) on any machine; a picture that cannot be drawn is refused (exit 1).
    render::Picture picture;
    try {
        const auto warn = [&](const std::string& warning) { // said as it comes, or kept for --json
            if (request.json)
                report.warnings.push_back(request.input + ": " + warning);
            else
                std::cerr << "assbin: warning: " << request.input << ": " << warning << "\n";
        };
        if (!gl) {
            render::load_drawable(request.input, read,
                                  request.texture_folders); // the input's own errors first
            return fail(kExitCannotRun, "cannot render: " + no_gl);
        }
        picture = draw_file(request, request.input, read, warn);
    } catch (const ParseError& error) {
        return fail(kExitUnreadable, request.input + ": " + parse_error_text(request.input, error));
    } catch (const aem::Error& error) {
        return fail(kExitUnreadable, request.input + ": " + error.what());
    } catch (const assbin_common::ReadFailure& error) {
        return fail(kExitUnreadable, error.what());
    } catch (const render::UnreadableModel& error) {
        return fail(kExitUnreadable, request.input + ": " + error.what());
    } catch (const converter::ConvertError& error) {
        return fail(kExitDiffers, request.input + ": cannot be drawn: refused (" +
                                      converter::refusal_name(error.refusal()) + "): " + error.what());
    } catch (const NotInTheFile& error) {
        return fail(kExitUnreadable, request.input + ": " + error.what());
    } catch (const std::exception& error) {
        return fail(kExitDiffers, request.input + ": " + error.what());
    }
    try {
        write_png(picture, request.output);
    } catch (const std::exception& error) {
        return fail(kExitCannotRun, error.what());
    }
    if (assbin_common::output_kind(request.output) == assbin_common::OutputKind::File)
        report.written.push_back(request.output); // a stream or a device is written into, not put in place
    return kExitOk;
}

int run_sheet(const Request& request, const ReadOptions& read) {
    std::vector<render::SheetEntry> entries;
    // What an option does not do for a file (--bones, --texture-dir) is said per file, as -o says it;
    // the conversions' own warnings (textures not found, ...) are counted: a sheet of a folder would
    // bury the picture under them, and `render FILE -o` shows them for one file.
    std::mutex said_mutex;
    std::vector<std::string> option_warnings;
    std::set<std::string> files_with_warnings;
    for (const auto& [file, label] : sheet_files(request.inputs)) {
        const bool shortened = file.string().ends_with(".regress");
        entries.push_back(
            {shortened ? label + " (bounds)" : label, file.string(),
             [&request, &read, &said_mutex, &option_warnings, &files_with_warnings, file = file] {
                 return draw_file(request, file, read, [&](const std::string& warning) {
                     const std::lock_guard lock(said_mutex);
                     if (warning.starts_with("--"))
                         option_warnings.push_back(file.string() + ": " + warning);
                     else
                         files_with_warnings.insert(file.string());
                 });
             }});
    }
    RunReport report;
    if (entries.empty()) {
        report.exit_code = kExitUnreadable;
        report.error = "no dump, AEM or glTF file found in the inputs";
        return print_report(request, report, "");
    }
    const ProgressBar bar(entries.size(), !request.json);
    render::SheetResult result;
    try {
        result = render::render_sheet(entries, request.options.width, request.options.height, request.jobs,
                                      [&bar](size_t done, size_t) { bar.draw(done, 0); });
    } catch (const std::exception& error) {
        bar.clear();
        report.exit_code = kExitCannotRun;
        report.error = std::string("cannot render: ") + error.what();
        return print_report(request, report, "");
    }
    bar.clear();
    for (const render::SheetEntry& entry : entries) {
        const std::string prefix = entry.path + ": ";
        const auto failure = std::find_if(result.failures.begin(), result.failures.end(),
                                          [&](const std::string& f) { return f.starts_with(prefix); });
        report.tiles.push_back({entry.path, failure == result.failures.end() ? "" : failure->substr(prefix.size())});
        if (failure != result.failures.end() && !request.json) print_error(*failure);
    }
    std::sort(option_warnings.begin(), option_warnings.end());
    report.warnings = std::move(option_warnings);
    if (!files_with_warnings.empty()) {
        // Named, a few at most: a sheet of a folder would bury the picture under every file's warnings.
        constexpr size_t kNamed = 3;
        std::string named;
        size_t n = 0;
        for (const std::string& file : files_with_warnings) {
            if (n++ == kNamed) break;
            named += (named.empty() ? "" : ", ") + file;
        }
        if (files_with_warnings.size() > kNamed)
            named += " and " + with_thousands(files_with_warnings.size() - kNamed) + " more";
        report.warnings.push_back(counted(files_with_warnings.size(), "file") +
                                  " drawn with conversion warnings (textures not found, ...): " + named +
                                  "; 'assbin render FILE -o OUT.png' lists a file's warnings");
    }
    try {
        write_png(result.sheet, request.sheet);
        if (assbin_common::output_kind(request.sheet) == assbin_common::OutputKind::File)
            report.written.push_back(request.sheet);
    } catch (const std::exception& error) {
        report.exit_code = kExitCannotRun;
        report.error = error.what();
        return print_report(request, report, "");
    }
    report.exit_code = result.failures.empty() ? kExitOk : kExitDiffers;
    return print_report(request, report,
                        request.sheet + ": " + counted(entries.size(), "thumbnail") + ", " +
                            with_thousands(result.failures.size()) + " failed");
}

} // namespace

int run_render(const std::vector<std::string>& args) {
    const po::options_description options = describe_options();
    int exit_code = kExitOk;
    const auto vm =
        parse_verb_arguments(args, {"render", kUsage, {{"input", "IN", true}}}, options, &exit_code);
    if (!vm) return exit_code;
    std::optional<Request> request = request_from(*vm);
    if (!request) return kExitUnreadable;
    const ReadOptions read = read_options_from(*vm);
    const assbin_common::InputFiles run_inputs(
        std::vector<fs::path>(request->inputs.begin(), request->inputs.end()), is_model);
    if (!outputs_allowed(run_inputs, {request->sheet.empty() ? request->output : request->sheet},
                         assbin_common::Content::Png, "render"))
        return kExitCannotRun;
    const ReportsOffStandardOutput reports({request->sheet.empty() ? request->output : request->sheet});
    if (!request->sheet.empty()) {
        try {
            return run_sheet(*request, read);
        } catch (const std::exception& error) {
            RunReport report;
            report.exit_code = kExitUnreadable;
            report.error = error.what();
            return print_report(*request, report, "");
        }
    }
    RunReport report;
    // The context lives until the report is printed and the verb returns, as it always did (ended
    // inside draw_one, LeakSanitizer's exit scan crashed on the driver's thread-local storage).
    std::string why;
    const std::optional<render::HeadlessGl> gl = render::HeadlessGl::create(&why);
    report.exit_code = draw_one(*request, read, gl, why, report);
    return print_report(*request, report, "");
}

} // namespace assbin::cli
