// `assbin render` as a user runs it: golden pictures (stored PNGs, compared per pixel within a small
// tolerance on the software rasteriser CI installs), the same pose from a dump and from both AEM
// layouts of it, determinism, and a clear exit 1 with no file when no OpenGL context can be made.
#define BOOST_TEST_MODULE render
#include <boost/test/unit_test.hpp>

#include <algorithm>

#include "support/dump_builder.hpp"
#include "support/fixtures.hpp"
#include "support/skip.hpp"

#define STBI_NO_STDIO
#include <stb/stb_image.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using assbin_test::fixture_path;
using assbin_test::run_cli;
using assbin_test::TempDir;

struct Image {
    int width = 0, height = 0;
    std::vector<uint8_t> rgba;
};

Image load_png(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Image image;
    int channels = 0;
    stbi_uc* pixels = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), int(bytes.size()),
                                            &image.width, &image.height, &channels, 4);
    BOOST_TEST_REQUIRE(pixels != nullptr, "not a PNG: " << path);
    image.rgba.assign(pixels, pixels + size_t(image.width) * image.height * 4);
    stbi_image_free(pixels);
    return image;
}

// The share of channel values that differ by more than `tolerance` (0 when identical).
double share_different(const Image& a, const Image& b, int tolerance) {
    BOOST_TEST_REQUIRE(a.rgba.size() == b.rgba.size());
    size_t different = 0;
    for (size_t i = 0; i < a.rgba.size(); ++i)
        different += std::abs(int(a.rgba[i]) - int(b.rgba[i])) > tolerance ? 1 : 0;
    return double(different) / double(a.rgba.size());
}

// The share of pixels that are not the background colour (the model's coverage).
double coverage(const Image& image) {
    size_t covered = 0;
    for (size_t i = 0; i < image.rgba.size(); i += 4)
        covered += image.rgba[i] != 0x2e || image.rgba[i + 1] != 0x34 || image.rgba[i + 2] != 0x40 ? 1 : 0;
    return double(covered) / double(image.rgba.size() / 4);
}

std::string dump(const std::string& name) {
    return fixture_path("assimp-5.2.5/" + name).string();
}

Image render(const TempDir& temp, const std::string& name, std::vector<std::string> args) {
    const fs::path out = temp.path() / (std::to_string(std::rand()) + ".png");
    std::vector<std::string> full{"render", name, "-o", out.string()};
    full.insert(full.end(), args.begin(), args.end());
    const auto run = run_cli(full);
    BOOST_TEST_REQUIRE(run.exit_code == 0, run.err);
    return load_png(out);
}

} // namespace

// Every golden picture in tests/data/render and the options it was made with (the README there says
// how to make them again); golden_files_are_all_compared holds this list to the folder.
struct GoldenCase {
    const char* golden;
    std::string input;
    std::vector<std::string> args;
};

std::vector<GoldenCase> golden_cases() {
    const std::string arrow = fixture_path("render/concave_arrow.assbin").string();
    return {
        // skinned, at two times of its animation
        {"huesitos_t1.png",
         dump("FBX__huesitos.fbx.assbin"),
         {"--size", "160x120", "--anim", "0", "--time", "1"}},
        {"huesitos_t03.png",
         dump("FBX__huesitos.fbx.assbin"),
         {"--size", "160x120", "--anim", "0", "--time", "0.3"}},
        // the skeleton drawn over the posed model
        {"huesitos_bones.png",
         dump("FBX__huesitos.fbx.assbin"),
         {"--size", "160x120", "--anim", "0", "--time", "1", "--bones", "--view", "front"}},
        {"move_x_iso.png", dump("LWS__move_x.lws.assbin"), {"--size", "160x120", "--normals"}},
        {"box_wire_front.png",
         dump("OBJ__box.obj.tri.assbin"),
         {"--size", "160x120", "--wireframe", "--view", "front"}},
        // a base-colour texture (embedded in the dump), drawn from the default view
        {"box_textured.png",
         dump("glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin"),
         {"--size", "160x120"}},
        // a concave 7-corner polygon whole (ear clipping), the point and the line beside it not drawn
        {"concave_arrow.png", arrow, {"--size", "160x120", "--view", "front"}},
    };
}

BOOST_AUTO_TEST_CASE(pictures_match_the_golden_ones) {
    const TempDir temp;
    for (const GoldenCase& c : golden_cases()) {
        BOOST_TEST_CONTEXT(c.golden) {
            const Image golden = load_png(fixture_path(std::string("render/") + c.golden));
            const Image picture = render(temp, c.input, c.args);
            BOOST_TEST(picture.width == 160);
            BOOST_TEST(share_different(picture, golden, 8) <= 0.005);
            BOOST_TEST(coverage(picture) > 0.02);
        }
    }
}

// A golden that no case compares proves nothing: every file of tests/data/render is a golden picture
// of golden_cases() or an input one of them reads.
// glTF files are drawn too, at rest and posed by their animations: for every golden (but the one
// that draws the skeleton, which glTF files are drawn without), the model converted to .glb and to
// .gltf draws the golden within its tolerance, animation poses included (a wireframe draws
// coincident edges in triangle order, so its .glb keeps the dump's order: --no-optimize); a skinned
// model at rest draws as its dump does; an animation the file lacks is refused with the reason.
BOOST_AUTO_TEST_CASE(gltf_files_draw_as_their_dumps) {
    const TempDir temp;
    size_t compared = 0, posed = 0;
    for (const GoldenCase& c : golden_cases()) {
        if (std::find(c.args.begin(), c.args.end(), "--bones") != c.args.end()) continue;
        posed += std::find(c.args.begin(), c.args.end(), "--anim") != c.args.end();
        BOOST_TEST_CONTEXT(c.golden) {
            const bool wireframe = std::find(c.args.begin(), c.args.end(), "--wireframe") != c.args.end();
            const Image golden = load_png(fixture_path(std::string("render/") + c.golden));
            // Also compressed (EXT_meshopt_compression, decoded with meshoptimizer's decoders) and
            // quantized and compressed (KHR_mesh_quantization too): the same picture.
            const std::vector<std::vector<std::string>> forms = {
                {".glb"}, {".gltf"}, {".glb", "--meshopt"}, {".glb", "--quantize", "--meshopt"}};
            for (const std::vector<std::string>& form : forms) {
                const std::string converted = (temp.path() / (std::to_string(compared) + form[0])).string();
                std::vector<std::string> convert{"convert", c.input, "-o", converted};
                convert.insert(convert.end(), form.begin() + 1, form.end());
                if (wireframe) convert.push_back("--no-optimize");
                const auto run = run_cli(convert);
                BOOST_TEST_REQUIRE(run.exit_code == 0, run.err);
                BOOST_TEST(share_different(render(temp, converted, c.args), golden, 8) <= 0.005,
                           form[0] << (form.size() > 1 ? " " + form.back() : std::string()));
                ++compared;
            }
        }
    }
    BOOST_TEST(compared >= 24u);
    BOOST_TEST(posed == 2u); // huesitos at 1 s and at 0.3 s
    const std::string skinned = (temp.path() / "skinned.glb").string();
    BOOST_TEST_REQUIRE(run_cli({"convert", dump("FBX__huesitos.fbx.assbin"), "-o", skinned}).exit_code == 0);
    BOOST_TEST(share_different(render(temp, skinned, {"--size", "160x120"}),
                               render(temp, dump("FBX__huesitos.fbx.assbin"), {"--size", "160x120"}),
                               8) <= 0.005);
    // Posed, it differs from rest (the animation moves it), and an animation it lacks is a usage error.
    BOOST_TEST(share_different(render(temp, skinned, {"--size", "160x120", "--anim", "0", "--time", "1"}),
                               render(temp, skinned, {"--size", "160x120"}), 8) > 0.005);
    const auto missing = run_cli({"render", skinned, "-o", (temp.path() / "a.png").string(), "--anim", "7"});
    BOOST_TEST(missing.exit_code == 2);
    BOOST_TEST(missing.err.find("--anim: no animation \"7\" (the file has 1 animation)") != std::string::npos,
               missing.err);
}

// --quantize moves UVs that leave 0..1 into their texture's KHR_texture_transform, and `render` applies
// it: a quad tiled 4 x 3 times with a 2 x 2 chequer draws the same from the dump, the float .glb and the
// quantized .glb (drawn without the transform, the quantized file would show one tile).
BOOST_AUTO_TEST_CASE(a_quantized_gltf_with_uvs_outside_0_1_draws_as_its_dump) {
    using namespace assbin_test;
    SceneSpec spec;
    MeshSpec quad;
    quad.positions = std::vector<F3>{{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
    quad.normals = std::vector<F3>{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    quad.uvs.push_back({2, {{0, 0, 0}, {4, 0, 0}, {4, 3, 0}, {0, 3, 0}}});
    quad.faces = {{0, 1, 2}, {0, 2, 3}};
    spec.meshes.push_back(quad);
    spec.root = make_node("root", {0});
    spec.materials.push_back(
        {{prop_string("?mat.name", "chequer"), prop_string("$tex.file", "*0", 0, 1)}, {}});
    Bytes chequer(16, std::byte{255}); // b, g, r, a: white, black / black, white
    for (const size_t dark : {4, 8})
        std::fill_n(chequer.begin() + static_cast<std::ptrdiff_t>(dark), 3, std::byte{0});
    spec.textures = {argb_texture(2, 2, chequer)};
    const TempDir temp;
    const std::string tiled = (temp.path() / "tiled.assbin").string();
    const Bytes bytes = build_dump(spec, WriterProfile::p5()).bytes;
    std::ofstream(tiled, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    const std::vector<std::string> view{"--size", "160x120", "--view", "front"};
    const Image from_dump = render(temp, tiled, view);
    for (const bool quantize : {false, true}) {
        BOOST_TEST_CONTEXT((quantize ? "quantized" : "float")) {
            const std::string glb = (temp.path() / (quantize ? "q.glb" : "f.glb")).string();
            std::vector<std::string> convert{"convert", tiled, "-o", glb};
            if (quantize) convert.push_back("--quantize");
            const auto run = run_cli(convert);
            BOOST_TEST_REQUIRE(run.exit_code == 0, run.err);
            BOOST_TEST(share_different(render(temp, glb, view), from_dump, 8) <= 0.005);
        }
    }
}

// A glTF file that lies (an accessor of 10^12 elements over 36 bytes, a URI to nowhere) is refused
// with the reason before anything is allocated for it, never a crash.
BOOST_AUTO_TEST_CASE(a_lying_gltf_file_is_refused_with_the_reason) {
    const TempDir temp;
    std::ofstream(temp.path() / "b.bin", std::ios::binary) << std::string(36, '\0');
    // One triangle's worth of positions in a 36-byte buffer, as the accessor's count and the URI say.
    const auto gltf = [&](const std::string& name, const std::string& count, const std::string& uri) {
        std::ofstream(temp.path() / name)
            << R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],)"
            << R"("meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"accessors":[{"bufferView":0,)"
            << R"("componentType":5126,"count":)" << count << R"(,"type":"VEC3"}],)"
            << R"("bufferViews":[{"buffer":0,"byteLength":36}],"buffers":[{"byteLength":36,"uri":")" << uri
            << R"("}]})";
        return (temp.path() / name).string();
    };
    const auto refused = run_cli(
        {"render", gltf("huge.gltf", "1000000000000", "b.bin"), "-o", (temp.path() / "h.png").string()});
    BOOST_TEST(refused.exit_code != 0);
    BOOST_TEST(refused.err.find("accessor 0 reaches past its buffer view") != std::string::npos, refused.err);
    const auto missing =
        run_cli({"render", gltf("nowhere.gltf", "3", "missing.bin"), "-o", (temp.path() / "n.png").string()});
    BOOST_TEST(missing.exit_code != 0);
    BOOST_TEST(missing.err.find("missing.bin: no such file") != std::string::npos, missing.err);
}

// A file that is not glTF at all, or whose JSON is cut, is an unreadable input: exit 2, with where
// the JSON stops and in the program's words (before, exit 1 and nlohmann's
// "[json.exception.parse_error.101]").
BOOST_AUTO_TEST_CASE(a_damaged_gltf_file_is_an_unreadable_input) {
    const TempDir temp;
    std::ofstream(temp.path() / "cut.gltf") << R"({"asset":{"version":"2.0"},"scenes":[{"nodes":[0]})";
    std::ofstream(temp.path() / "typed.gltf") << R"({"asset":{"version":"2.0"},"buffers":[{"uri":7}]})";
    for (const char* name : {"cut.gltf", "typed.gltf"}) {
        const auto run = run_cli({"render", (temp.path() / name).string(), "-o", (temp.path() / "x.png").string()});
        BOOST_TEST(run.exit_code == 2, name << ": " << run.err);
        BOOST_TEST(run.err.find("[json.exception") == std::string::npos, run.err);
        BOOST_TEST(!fs::exists(temp.path() / "x.png"));
    }
    const auto cut = run_cli({"render", (temp.path() / "cut.gltf").string(), "-o", (temp.path() / "x.png").string()});
    BOOST_TEST(cut.err.find("cut.gltf: not a glTF file: its JSON does not parse at byte 51") != std::string::npos,
               cut.err);
}

// render --json: the picture written, the input's warnings; a sheet's tiles with their errors.
// Rendering a dump with cameras and lights says nothing of AEM (render draws with its own camera and
// lights whatever the file; before, "1 camera dropped: AEM has no cameras"), and a sheet's warning
// about files drawn with conversion warnings names them and ends its sentence.
BOOST_AUTO_TEST_CASE(render_reports_what_it_wrote_and_warns_in_its_own_terms) {
    const TempDir temp;
    const fs::path picture = temp.path() / "camera.png";
    const auto one = run_cli({"render", dump("OpenGEX__camera.ogex.assbin"), "-o", picture.string(), "--size",
                              "32x32", "--json"});
    BOOST_TEST(one.exit_code == 0, one.err);
    BOOST_TEST(one.out.find("\"written\": [\n    \"" + picture.string() + "\"\n  ]") != std::string::npos, one.out);
    BOOST_TEST(one.out.find("\"status\": \"drawn\"") != std::string::npos);
    BOOST_TEST(one.out.find("dropped") == std::string::npos, one.out); // no word of cameras or lights
    BOOST_TEST(one.out.find("AEM") == std::string::npos, one.out);
    const auto plain = run_cli({"render", dump("OpenGEX__camera.ogex.assbin"), "-o", picture.string(), "--size", "32x32"});
    BOOST_TEST(plain.err.find("AEM") == std::string::npos, plain.err);

    const fs::path sheet = temp.path() / "sheet.png";
    const std::string textured = dump("3DS__cube_with_diffuse_texture.3DS.assbin"); // its texture is not beside it
    const std::string nothing = dump("PLY__cube_binary_starts_with_nl.ply.assbin");
    const auto tiles = run_cli({"render", "--sheet", sheet.string(), textured, nothing, "--size", "32x32", "--json"});
    BOOST_TEST(tiles.exit_code == 1, tiles.err);
    BOOST_TEST(tiles.out.find("\"input\": \"" + nothing + "\",\n      \"status\": \"failed\"") != std::string::npos,
               tiles.out);
    BOOST_TEST(tiles.out.find("\"input\": \"" + textured + "\",\n      \"status\": \"drawn\"") != std::string::npos,
               tiles.out);
    BOOST_TEST(tiles.out.find("1 file drawn with conversion warnings (textures not found, ...): " + textured +
                              "; 'assbin render FILE -o OUT.png' lists a file's warnings") != std::string::npos,
               tiles.out);
    BOOST_TEST(tiles.out.find("\"written\": [\n    \"" + sheet.string() + "\"\n  ]") != std::string::npos, tiles.out);
    // --help says what a sheet draws: glTF files too (it said dumps and AEM files only).
    std::istringstream help_words(run_cli({"render", "--help"}).out);
    std::string help, word;
    while (help_words >> word) // as read, whatever the columns the option text was wrapped at
        help += word + ' ';
    BOOST_TEST(help.find("(dumps, shortened dumps as their bounds, AEM files and glTF files)") != std::string::npos,
               help);
}

BOOST_AUTO_TEST_CASE(golden_files_are_all_compared) {
    std::set<std::string> used;
    for (const GoldenCase& c : golden_cases()) {
        used.insert(c.golden);
        used.insert(fs::path(c.input).filename().string());
    }
    size_t files = 0;
    for (const auto& entry : fs::directory_iterator(fixture_path("render"))) {
        ++files;
        BOOST_TEST(used.count(entry.path().filename().string()) == 1u,
                   entry.path().filename() << " is in tests/data/render but no test compares or reads it");
    }
    BOOST_TEST(files >= 8u);
}

// The texture really is drawn: the same box without its texture (a 2024 model whose texture file is
// not beside it) differs from the golden where the texture is.
BOOST_AUTO_TEST_CASE(the_textured_golden_shows_the_texture_and_the_2025_layout_draws_it_alike) {
    const TempDir temp;
    const std::string box = dump("glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin");
    const Image golden = load_png(fixture_path("render/box_textured.png"));
    const fs::path model_2025 = temp.path() / "box2025.aem";
    BOOST_TEST_REQUIRE(run_cli({"convert", box, "-o", model_2025.string(), "--layout", "2025"}).exit_code ==
                       0);
    BOOST_TEST(share_different(render(temp, model_2025.string(), {"--size", "160x120"}), golden, 8) <= 0.005);
    // With --compress its base colour is BC7, decoded by Mesa (GL_ARB_texture_compression_bptc): the
    // picture stays the golden's within the encoder's error.
    const fs::path compressed = temp.path() / "box_bc7.aem";
    BOOST_TEST_REQUIRE(
        run_cli({"convert", box, "-o", compressed.string(), "--layout", "2025", "--compress"}).exit_code ==
        0);
    BOOST_TEST(share_different(render(temp, compressed.string(), {"--size", "160x120"}), golden, 24) <= 0.01);
    const fs::path bare = temp.path() / "bare" / "box.aem"; // its extracted texture removed
    BOOST_TEST_REQUIRE(run_cli({"convert", box, "-o", bare.string()}).exit_code == 0);
    for (const auto& entry : fs::directory_iterator(bare.parent_path()))
        if (entry.path().extension() == ".png") fs::remove(entry.path());
    BOOST_TEST(share_different(render(temp, bare.string(), {"--size", "160x120"}), golden, 8) > 0.02);
}

// --yaw/--pitch are the named views' angles (front = 0/0, iso = 35/25), and another angle gives
// another picture; --background fills every pixel the model leaves.
BOOST_AUTO_TEST_CASE(yaw_pitch_and_background_are_honoured) {
    const TempDir temp;
    const std::string box = dump("OBJ__box.obj.tri.assbin");
    const std::vector<std::string> size{"--size", "160x120"};
    const auto with = [&](std::vector<std::string> args) {
        args.insert(args.begin(), size.begin(), size.end());
        return render(temp, box, args);
    };
    BOOST_TEST(share_different(with({"--yaw", "0", "--pitch", "0"}), with({"--view", "front"}), 0) == 0.0);
    BOOST_TEST(share_different(with({"--yaw", "35", "--pitch", "25"}), with({}), 0) == 0.0);
    BOOST_TEST(share_different(with({"--yaw", "60", "--pitch", "10"}), with({}), 8) > 0.01);
    const Image red = with({"--background", "ff0000"});
    BOOST_TEST((red.rgba[0] == 0xff && red.rgba[1] == 0 && red.rgba[2] == 0)); // a corner: background
    size_t background = 0;
    for (size_t i = 0; i < red.rgba.size(); i += 4)
        background += red.rgba[i] == 0xff && red.rgba[i + 1] == 0 && red.rgba[i + 2] == 0;
    BOOST_TEST(double(background) / double(red.rgba.size() / 4) > 0.5);
    BOOST_TEST(double(background) / double(red.rgba.size() / 4) == 1.0 - coverage(with({})),
               boost::test_tools::tolerance(0.01));
}

BOOST_AUTO_TEST_CASE(the_same_input_gives_the_same_picture) {
    const TempDir temp;
    const std::vector<std::string> args{"--size", "200x150", "--anim", "0", "--time", "0.5"};
    BOOST_TEST(share_different(render(temp, dump("FBX__huesitos.fbx.assbin"), args),
                               render(temp, dump("FBX__huesitos.fbx.assbin"), args), 0) == 0.0);
}

BOOST_AUTO_TEST_CASE(a_dump_and_both_of_its_aem_layouts_pose_alike) {
    const TempDir temp;
    for (const std::string name :
         {"FBX__huesitos.fbx.assbin", "ASE__anim.ASE.assbin", "LWS__move_x.lws.assbin"}) {
        BOOST_TEST_CONTEXT(name) {
            const std::string old_aem = (temp.path() / "old.aem").string(),
                              new_aem = (temp.path() / "new.aem").string();
            BOOST_TEST_REQUIRE(run_cli({"convert", dump(name), "-o", old_aem}).exit_code == 0);
            BOOST_TEST_REQUIRE(
                run_cli({"convert", dump(name), "-o", new_aem, "--layout", "2025"}).exit_code == 0);
            const std::vector<std::string> at{"--size", "200x150", "--anim", "0", "--time", "0.7"};
            const Image from_dump = render(temp, dump(name), at);
            // Metric: channel values differing by more than 8 (anti-aliasing noise is well under).
            BOOST_TEST(share_different(from_dump, render(temp, old_aem, at), 8) <= 0.002);
            BOOST_TEST(share_different(from_dump, render(temp, new_aem, at), 8) <= 0.002);
            if (name == "FBX__huesitos.fbx.assbin") { // a skinned pose changes the picture; framing follows
                                                      // a moving model, so translation alone would not
                BOOST_TEST(share_different(from_dump, render(temp, dump(name), {"--size", "200x150"}), 8) >
                           0.01);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(without_an_opengl_context_it_says_why_and_writes_nothing) {
    const TempDir temp;
    const fs::path out = temp.path() / "none.png";
    ::setenv("__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent/vendor.json", 1); // GLVND finds no driver
    const auto run = run_cli({"render", dump("FBX__huesitos.fbx.assbin"), "-o", out.string()});
    ::unsetenv("__EGL_VENDOR_LIBRARY_FILENAMES");
    BOOST_TEST(run.exit_code == 3); // not done here
    BOOST_TEST(run.err.find("libegl-mesa0") != std::string::npos);
    BOOST_TEST(!fs::exists(out));
    BOOST_TEST(std::distance(fs::directory_iterator(temp.path()), fs::directory_iterator()) == 0);
}

BOOST_AUTO_TEST_CASE(bad_requests_are_usage_errors) {
    const TempDir temp;
    const std::string out = (temp.path() / "x.png").string();
    const std::string input = dump("FBX__huesitos.fbx.assbin");
    BOOST_TEST(run_cli({"render", input, "-o", out, "--size", "10x10"}).exit_code == 2);
    BOOST_TEST(run_cli({"render", input, "-o", out, "--view", "under"}).exit_code == 2);
    BOOST_TEST(run_cli({"render", input, "-o", out, "--anim", "nope"}).exit_code == 2);
    BOOST_TEST(!fs::exists(out));
    // A shortened dump has no arrays: its meshes' bounds are drawn, as boxes in wireframe.
    BOOST_TEST(run_cli({"render", dump("FBX__huesitos.fbx.assbin.regress"), "-o", out, "--size", "64x48"})
                   .exit_code == 0);
    BOOST_TEST(coverage(load_png(out)) > 0.01);
}

BOOST_AUTO_TEST_CASE(a_contact_sheet_has_a_labelled_cell_per_file) {
    const TempDir temp;
    const fs::path sheet = temp.path() / "sheet.png";
    const std::string nothing = dump("PLY__cube_binary_starts_with_nl.ply.assbin"); // no triangle to draw
    const auto run = run_cli({"render", dump("FBX__huesitos.fbx.assbin"), dump("SMD__triangle.smd.assbin"),
                              dump("FBX__huesitos.fbx.assbin.regress"), nothing, "--sheet", sheet.string(),
                              "--size", "100x80", "--jobs", "2"});
    BOOST_TEST(run.exit_code == 1); // one file cannot be drawn: reported by path, the rest is there
    BOOST_TEST(run.err.find(nothing + ": no triangles left") != std::string::npos, run.err);
    BOOST_TEST(run.out.find("4 thumbnails, 1 failed") != std::string::npos);
    const Image image = load_png(sheet);
    BOOST_TEST(image.width == 2 * 100); // a 2 x 2 grid of 100 x 80 thumbnails with 16-pixel labels
    BOOST_TEST(image.height == 2 * (80 + 16));
    BOOST_TEST(coverage(image) > 0.3);
}

namespace {

// Headless Chromium (Debian's `chromium`, which the test command installs) screenshots the page;
// its log must show no load failure. Empty when there is no Chromium.
std::optional<std::string> chromium_screenshot(const fs::path& page, const fs::path& shot,
                                               const TempDir& temp) {
    if (std::system("command -v chromium >/dev/null 2>&1") != 0) return std::nullopt;
    const fs::path log = temp.path() / "chromium.log";
    const std::string command = "timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic "
                                "--no-first-run --disable-background-networking --disable-component-update "
                                "--disable-sync --enable-logging=stderr --user-data-dir='" +
                                (temp.path() / "profile").string() +
                                "' --window-size=1000,1400 --screenshot='" + shot.string() + "' 'file://" +
                                page.string() + "' >'" + log.string() + "' 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return status == 0 ? text : "chromium failed: " + text;
}

} // namespace

BOOST_AUTO_TEST_CASE(cmp_writes_a_self_contained_html_page_a_browser_shows, *assbin_test::may_skip()) {
    const TempDir temp;
    const fs::path a = temp.path() / "a", b = temp.path() / "b";
    fs::create_directories(a);
    fs::create_directories(b);
    for (const std::string name : {"FBX__huesitos.fbx.assbin", "SMD__triangle.smd.assbin.regress"}) {
        fs::copy_file(dump(name), a / name);
        fs::copy_file(dump(name), b / name);
    }
    fs::copy_file(dump("X__anim_test.x.assbin"), a / "changed.assbin");
    fs::copy_file(dump("OBJ__box.obj.tri.assbin"), b / "changed.assbin");
    const fs::path page = temp.path() / "report.html";
    const auto run = run_cli({"cmp", a.string(), b.string(), "--html", page.string()});
    BOOST_TEST(run.exit_code == 1); // one pair differs
    std::ifstream in(page);
    const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t images = 0;
    for (size_t at = html.find("<img"); at != std::string::npos; at = html.find("<img", at + 1))
        ++images;
    BOOST_TEST(images == 7u); // 2 + 2 + 2 thumbnails and one difference picture
    BOOST_TEST(html.find("data:image/png;base64,") != std::string::npos);
    BOOST_TEST(html.find("http") == std::string::npos); // nothing to fetch: no server needed
    BOOST_TEST(html.find("shortened: mesh bounds") != std::string::npos);
    BOOST_TEST(html.find("<span>different</span>") != std::string::npos);

    const fs::path shot = temp.path() / "shot.png";
    const std::optional<std::string> log = chromium_screenshot(page, shot, temp);
    if (!log) assbin_test::skip_check("the HTML report in a browser: chromium is not installed");
    BOOST_TEST(log->find("chromium failed") == std::string::npos, *log);
    BOOST_TEST(log->find("Failed to load resource") == std::string::npos, *log);
    BOOST_TEST(log->find("Uncaught") == std::string::npos, *log);
    const Image screenshot = load_png(shot);
    // The thumbnails' background colour shows where the browser drew the inlined pictures.
    size_t thumbnail_pixels = 0;
    for (size_t i = 0; i < screenshot.rgba.size(); i += 4)
        thumbnail_pixels +=
            screenshot.rgba[i] == 0x2e && screenshot.rgba[i + 1] == 0x34 && screenshot.rgba[i + 2] == 0x40;
    BOOST_TEST(thumbnail_pixels > 6u * 240 * 180 / 2);
}
