// Every option either does what --help says or is refused with the reason (exit 2): tried as a user
// would, on files that lack what the option is about.
#include "cli/cli_helpers.hpp"

#include <aem/io.hpp>

#include <boost/test/unit_test.hpp>

#include <fstream>

using assbin_cli_test::contains;
using assbin_cli_test::fixture;
using assbin_cli_test::read_text;
using assbin_test::fixture_path;
using assbin_test::run_cli;
using assbin_test::TempDir;
namespace fs = std::filesystem;

namespace {

// Refused as a usage error, with these words.
void refused(const std::vector<std::string>& args, const std::string& words) {
    const auto result = run_cli(args);
    BOOST_TEST(result.exit_code == 2);
    BOOST_TEST(contains(result.err, words), "stderr: " << result.err);
    BOOST_TEST(contains(result.err, "usage: assbin"));
}

std::vector<fs::path> files_in(const fs::path& folder) {
    std::vector<fs::path> out;
    for (const auto& entry : fs::directory_iterator(folder))
        out.push_back(entry.path().filename());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(options)

BOOST_AUTO_TEST_CASE(convert_o_is_honoured_for_a_folder_holding_one_dump) {
    const TempDir dir;
    fs::create_directories(dir / "one");
    fs::copy_file(fixture("SMD__triangle.smd.assbin"), dir / "one" / "m.assbin");
    const auto result = run_cli({"convert", (dir / "one").string(), "-o", (dir / "out.aem").string()});
    BOOST_TEST(result.exit_code == 0);
    BOOST_TEST(fs::exists(dir / "out.aem"));
    BOOST_TEST((files_in(dir / "one") == std::vector<fs::path>{"m.assbin"})); // the input folder untouched
    fs::copy_file(fixture("X__anim_test.x.assbin"), dir / "one" / "n.assbin");
    refused({"convert", (dir / "one").string(), "-o", (dir / "out2.aem").string()},
            "-o names one output, but the inputs hold 2 dumps; use --out-dir");
    BOOST_TEST(!fs::exists(dir / "out2.aem"));
}

BOOST_AUTO_TEST_CASE(convert_uv_channel_missing_is_a_warning_naming_the_channels) {
    const TempDir dir;
    const auto result = run_cli({"convert", fixture("OBJ__spider.obj.z.assbin"), "--uv-channel", "1", "-o",
                                 (dir / "s.aem").string()});
    BOOST_TEST(result.exit_code == 0);
    BOOST_TEST(contains(result.err, "UV channel 1 is missing from 19 of 19 meshes"));
    BOOST_TEST(contains(result.err, "they have channel 0 only"));
    // Channel 0, the default, on the same file: no such warning.
    const auto plain =
        run_cli({"convert", fixture("OBJ__spider.obj.z.assbin"), "-o", (dir / "t.aem").string()});
    BOOST_TEST(!contains(plain.err, "UV channel"));
}

BOOST_AUTO_TEST_CASE(convert_refuses_options_of_the_other_layout) {
    const TempDir dir;
    const std::string in = fixture("SMD__triangle.smd.assbin"), out = (dir / "x.aem").string();
    for (const std::vector<std::string>& option : {std::vector<std::string>{"--compress"},
                                                   {"--max-texture-size", "64"},
                                                   {"--texture-dir", dir.path().string()}}) {
        std::vector<std::string> args{"convert", in, "-o", out};
        args.insert(args.end(), option.begin(), option.end());
        refused(args, option.front() + " works on the 2025 layout's textures");
    }
    refused({"convert", in, "-o", out, "--layout", "2025", "--keep-embedded-bytes"},
            "--keep-embedded-bytes keeps files beside a 2024 model");
    refused({"convert", in, "-o", out, "--layout", "2025", "--texture-dir", "/nonexistent/textures"},
            "--texture-dir /nonexistent/textures: no such folder");
    refused({"convert", in, "-o", out, "--keep-meshes", "--no-optimize"},
            "--keep-meshes is part of --no-optimize");
    BOOST_TEST(!fs::exists(out));
    // With the 2025 layout they work.
    BOOST_TEST(run_cli({"convert", in, "-o", out, "--layout", "2025", "--compress", "--max-texture-size",
                        "64", "--texture-dir", dir.path().string()})
                   .exit_code == 0);
}

BOOST_AUTO_TEST_CASE(convert_warns_for_options_the_dump_gives_nothing_to_work_on) {
    const TempDir dir;
    // SMD triangle: normals, an animation with its own rate, no embedded texture.
    const auto result =
        run_cli({"convert", fixture("SMD__triangle.smd.assbin"), "-o", (dir / "t.aem").string(),
                 "--ticks-per-second", "30", "--crease-angle", "45", "--keep-embedded-bytes"});
    BOOST_TEST(result.exit_code == 0);
    BOOST_TEST(contains(result.err,
                        "--ticks-per-second is not used: every animation gives its own ticks per second"));
    BOOST_TEST(contains(result.err, "--crease-angle is not used: every mesh has its own normals"));
    BOOST_TEST(contains(result.err, "--keep-embedded-bytes is not used: the dump embeds no image file"));
    // Where they apply (a 0-ticks animation, a mesh without normals): no such warning.
    const auto rate = run_cli({"convert", fixture("3DS__RotatingCube.3DS.assbin"), "-o",
                               (dir / "r.aem").string(), "--ticks-per-second", "30"});
    BOOST_TEST(rate.exit_code == 0);
    BOOST_TEST(!contains(rate.err, "is not used"), rate.err);
    const auto crease = run_cli({"convert", fixture("3D__mar_rifle.uc.assbin"), "-o",
                                 (dir / "m.aem").string(), "--crease-angle", "45"});
    BOOST_TEST(crease.exit_code == 0);
    BOOST_TEST(!contains(crease.err, "is not used"), crease.err);
}

BOOST_AUTO_TEST_CASE(an_embedded_texture_named_by_its_source_path_is_used_not_just_written) {
    // The material names "..\Primitives\GridGrey.tga"; the image is embedded texture 0 (TGA).
    const TempDir dir;
    const auto result = run_cli({"convert", fixture("FBX__box_orphant_embedded_texture.fbx.assbin"), "-o",
                                 (dir / "box.aem").string()});
    BOOST_TEST_REQUIRE(result.exit_code == 0);
    BOOST_TEST(contains(result.err, "is taken to be embedded texture 0"));
    const aem::Model model = aem::read_file(dir / "box.aem");
    BOOST_TEST_REQUIRE(model.materials.size() == 1u);
    BOOST_TEST_REQUIRE(model.materials[0].base_color_texture == 0);
    BOOST_TEST(model.textures[0].file_name == "box_0.png");
    BOOST_TEST(fs::exists(dir / "box_0.png"));
    // The 2025 layout stores its pixels: 256 x 256, not a 1 x 1 default.
    BOOST_TEST_REQUIRE(run_cli({"convert", fixture("FBX__box_orphant_embedded_texture.fbx.assbin"),
                                "--layout", "2025", "-o", (dir / "box25.aem").string()})
                           .exit_code == 0);
    const aem::Model pixels = aem::read_file(dir / "box25.aem");
    BOOST_TEST_REQUIRE(pixels.materials[0].base_color_texture >= 0);
    const aem::Texture& base = pixels.textures[size_t(pixels.materials[0].base_color_texture)];
    BOOST_TEST(base.width == 256u);
    BOOST_TEST(base.height == 256u);
}

BOOST_AUTO_TEST_CASE(render_refuses_what_it_would_ignore) {
    const TempDir dir;
    const std::string in = fixture("X__anim_test.x.assbin"), out = (dir / "r.png").string();
    refused({"render", in, "-o", out, "--view", "top", "--yaw", "30"},
            "--view and --yaw/--pitch exclude each other");
    refused({"render", in, "-o", out, "--view", "top", "--pitch", "10"},
            "--view and --yaw/--pitch exclude each other");
    refused({"render", in, "-o", out, "--time", "3"}, "--time poses an animation: give it with --anim");
    refused({"render", in, "-o", out, "--jobs", "2"}, "--jobs sets the threads of a --sheet");
    refused({"render", in, "-o", out, "--texture-dir", "/nonexistent/textures"}, "no such folder");
    refused({"render", in}, "render needs -o OUT.png");
    BOOST_TEST(!fs::exists(out));
    // The same options where they mean something.
    BOOST_TEST(
        run_cli({"render", in, "-o", out, "--anim", "0", "--time", "0.5", "--size", "32x32"}).exit_code == 0);
    const auto no_animation =
        run_cli({"render", fixture("OBJ__box.obj.tri.assbin"), "-o", out, "--anim", "0", "--size", "32x32"});
    BOOST_TEST(no_animation.exit_code == 2); // as aem-info --pose of a missing animation
    BOOST_TEST(contains(no_animation.err, "no animation \"0\" (the model has 0 animations)"));
    const auto no_bones =
        run_cli({"render", fixture("OBJ__box.obj.tri.assbin"), "-o", out, "--bones", "--size", "32x32"});
    BOOST_TEST(no_bones.exit_code == 0);
    BOOST_TEST(contains(no_bones.err, "--bones draws nothing: the model has no bones"));
}

BOOST_AUTO_TEST_CASE(render_warns_for_a_texture_it_cannot_find_as_convert_does) {
    const TempDir dir;
    // The material names TEST.PNG; copied alone, the dump has no texture beside it.
    fs::copy_file(fixture("3DS__cube_with_diffuse_texture.3DS.assbin"), dir / "cube.assbin");
    const auto drawn = run_cli(
        {"render", (dir / "cube.assbin").string(), "-o", (dir / "c.png").string(), "--size", "32x32"});
    BOOST_TEST(drawn.exit_code == 0);
    BOOST_TEST(contains(drawn.err, "assbin: warning:"));
    BOOST_TEST(contains(drawn.err, "'TEST.PNG' was not found"));
    const auto converted = run_cli(
        {"convert", (dir / "cube.assbin").string(), "--layout", "2025", "-o", (dir / "c.aem").string()});
    BOOST_TEST(contains(converted.err, "'TEST.PNG' was not found"));
    // With --texture-dir pointing at it: found, no warning.
    const auto found = run_cli({"render", (dir / "cube.assbin").string(), "-o", (dir / "d.png").string(),
                                "--size", "32x32", "--texture-dir", fixture_path("textures/3DS").string()});
    BOOST_TEST(found.exit_code == 0);
    BOOST_TEST(!contains(found.err, "not found"));
    // A 2024 model whose texture file is not beside it: the same warning.
    BOOST_TEST_REQUIRE(
        run_cli({"convert", (dir / "cube.assbin").string(), "-o", (dir / "c24.aem").string()}).exit_code ==
        0);
    const auto model =
        run_cli({"render", (dir / "c24.aem").string(), "-o", (dir / "e.png").string(), "--size", "32x32"});
    BOOST_TEST(model.exit_code == 0);
    BOOST_TEST(contains(model.err, "'TEST.PNG' was not found"));
}

BOOST_AUTO_TEST_CASE(render_sheet_draws_shortened_dumps_as_bounds_and_marks_failures) {
    const TempDir dir;
    const std::string shortened = fixture("FBX__huesitos.fbx.assbin.regress");
    const std::string pointless = fixture("PLY__cube_binary_starts_with_nl.ply.assbin");
    const auto sheet = run_cli({"render", shortened, pointless, "--sheet", (dir / "s.png").string()});
    BOOST_TEST(sheet.exit_code == 1);
    BOOST_TEST(contains(sheet.out, "2 thumbnails, 1 failed"));
    BOOST_TEST(contains(sheet.err, pointless + ": no triangles")); // named by path
    BOOST_TEST(!contains(sheet.err, shortened));
    // A shortened dump alone is drawn too.
    BOOST_TEST(run_cli({"render", shortened, "-o", (dir / "r.png").string(), "--size", "32x32"}).exit_code ==
               0);
}

BOOST_AUTO_TEST_CASE(counts_refuse_negative_numbers) {
    const std::string in = fixture("SMD__triangle.smd.assbin");
    refused({"info", in, "--max-nodes", "-1"}, "--max-nodes takes a whole number, not '-1'");
    refused({"tree", in, "--depth", "-1"}, "--depth takes a whole number, not '-1'");
    refused({"tree", in, "--depth", "0"}, "--depth must be 1 or more");
    refused({"cmp", in, in, "--max-diffs", "-5"}, "--max-diffs takes a whole number, not '-5'");
    refused({"info", in, "--max-inflated-mb", "-1"}, "--max-inflated-mb takes a whole number");
    // 0 keeps its documented meaning.
    BOOST_TEST(run_cli({"info", in, "--max-nodes", "0"}).exit_code == 0);
}

BOOST_AUTO_TEST_CASE(known_failures_that_cannot_be_read_give_the_reason) {
    const std::string in = fixture("SMD__triangle.smd.assbin");
    const auto missing = run_cli({"cmp", in, in, "--known-failures", "/nonexistent/known.txt"});
    BOOST_TEST(missing.exit_code == 2);
    BOOST_TEST(contains(missing.err, "cannot read the known-failures list: no such file"));
    const auto folder = run_cli({"cmp", in, in, "--known-failures", "/tmp"});
    BOOST_TEST(contains(folder.err,
                        "cannot read the known-failures list: is a folder, not a file that can be read"));
}

BOOST_AUTO_TEST_CASE(dump_writes_into_an_existing_folder) {
    const TempDir dir;
    const auto result = run_cli({"dump", fixture("SMD__triangle.smd.assbin"), dir.path().string()});
    BOOST_TEST(result.exit_code == 0);
    BOOST_TEST(fs::exists(dir / "SMD__triangle.smd.assbin"));
}

// --format takes any case, as the extension of -o does (`-o x.GLB` was taken, `--format GLB` refused).
BOOST_AUTO_TEST_CASE(format_names_take_any_case_as_extensions_do) {
    const TempDir temp;
    const auto result = run_cli({"convert", fixture("SMD__triangle.smd.assbin"), "--format", "GLB",
                                 "--out-dir", temp.path().string()});
    BOOST_TEST(result.exit_code == 0, result.err);
    BOOST_TEST(fs::exists(temp.path() / "SMD__triangle.smd.glb"));
    BOOST_TEST(run_cli({"convert", fixture("SMD__triangle.smd.assbin"), "--format", "png"}).exit_code == 2);
}

// --key-error: the line and --json say the keys before and after and the largest error measured; 0
// (the default, but for --quantize's 1e-4) writes what it always did and says nothing of keys; a value
// outside 0..0.1 is a usage error; --skip-existing converts again when it changes.
BOOST_AUTO_TEST_CASE(convert_key_error_reports_keys_and_zero_changes_nothing) {
    const TempDir dir;
    const fs::path input = dir / "anim.x.assbin";
    fs::copy_file(fixture("X__anim_test.x.assbin"), input);
    const auto plain = run_cli({"convert", input.string(), "-o", (dir / "plain.aem").string()});
    const auto zero =
        run_cli({"convert", input.string(), "-o", (dir / "zero.aem").string(), "--key-error", "0"});
    BOOST_TEST(plain.exit_code == 0, plain.err);
    BOOST_TEST(!contains(plain.out, "keys:"));
    BOOST_TEST(read_text(dir / "plain.aem") == read_text(dir / "zero.aem"));
    const auto reduced =
        run_cli({"convert", input.string(), "-o", (dir / "reduced.aem").string(), "--key-error", "1e-4"});
    BOOST_TEST(reduced.exit_code == 0, reduced.err);
    BOOST_TEST(contains(reduced.out, "; keys: 288 -> "), reduced.out);
    BOOST_TEST(read_text(dir / "reduced.aem").size() < read_text(dir / "plain.aem").size());
    const auto json =
        run_cli({"convert", input.string(), "-o", (dir / "j.glb").string(), "--key-error", "1e-4", "--json"});
    BOOST_TEST(contains(json.out, "\"keys_before\": "), json.out);
    BOOST_TEST(contains(json.out, "\"key_error_measured\": "), json.out);
    BOOST_TEST(contains(reduced.out, " of the model's size"), reduced.out);
    // --quantize implies 1e-4 (the same keys as --key-error 1e-4), unless --key-error says otherwise.
    const auto quantized = run_cli({"convert", input.string(), "-o", (dir / "q.glb").string(), "--quantize"});
    BOOST_TEST(quantized.exit_code == 0, quantized.err);
    const std::string reduced_keys = reduced.out.substr(reduced.out.find("; keys: "));
    BOOST_TEST(contains(quantized.out, reduced_keys.substr(0, reduced_keys.find(','))), quantized.out);
    const auto exact = run_cli(
        {"convert", input.string(), "-o", (dir / "e.glb").string(), "--quantize", "--key-error", "0"});
    BOOST_TEST(!contains(exact.out, "keys:"), exact.out);
    BOOST_TEST(read_text(dir / "e.glb").size() > read_text(dir / "q.glb").size());
    BOOST_TEST(!contains(run_cli({"convert", input.string(), "-o", (dir / "k.glb").string(), "--json"}).out,
                         "keys_before"));
    const auto wrong =
        run_cli({"convert", input.string(), "-o", (dir / "w.aem").string(), "--key-error", "0.5"});
    BOOST_TEST(wrong.exit_code == 2);
    BOOST_TEST(contains(wrong.err, "--key-error must be 0..0.1"));
    BOOST_TEST(run_cli({"convert", input.string(), "--skip-existing"}).exit_code == 0);
    BOOST_TEST(contains(run_cli({"convert", input.string(), "--skip-existing"}).out, "up to date"));
    BOOST_TEST(!contains(run_cli({"convert", input.string(), "--skip-existing", "--key-error", "1e-4"}).out,
                         "up to date"));
}

BOOST_AUTO_TEST_SUITE_END()
