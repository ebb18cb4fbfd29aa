// `assbin convert` run as a program on real fixtures: single files, folders, parallel jobs,
// failures reported without stopping the batch, usage errors, and outputs that validate.
#include "support/fixtures.hpp"

#include <aem/io.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {

using assbin_test::fixture_path;
using assbin_test::run_cli;
using assbin_test::TempDir;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

fs::path copy_fixture(const std::string& name, const fs::path& to) {
    fs::create_directories(to.parent_path());
    fs::copy_file(fixture_path("assimp-5.2.5/" + name), to);
    return to;
}

} // namespace

BOOST_AUTO_TEST_SUITE(cli_convert)

BOOST_AUTO_TEST_CASE(converts_one_file_and_prints_its_summary) {
    TempDir temp;
    const fs::path out = temp.path() / "huesitos.aem";
    const auto result = run_cli(
        {"convert", fixture_path("assimp-5.2.5/FBX__huesitos.fbx.assbin").string(), "-o", out.string()});
    BOOST_TEST(result.exit_code == 0);
    BOOST_TEST(contains(result.out, "128 vertices, 120 triangles, 11 bones, 1 animation"));
    BOOST_TEST(fs::exists(out));
    const auto info = run_cli({"aem-info", out.string(), "--validate"});
    BOOST_TEST(info.exit_code == 0);
    BOOST_TEST(contains(info.out, "bones"));
}

BOOST_AUTO_TEST_CASE(the_output_goes_beside_the_input_by_default) {
    TempDir temp;
    const fs::path input = copy_fixture("SMD__triangle.smd.assbin", temp.path() / "triangle.smd.assbin");
    const auto result = run_cli({"convert", input.string()});
    BOOST_TEST(result.exit_code == 0);
    BOOST_TEST(fs::exists(temp.path() / "triangle.smd.aem"));
}

BOOST_AUTO_TEST_CASE(a_folder_is_converted_recursively_and_a_failure_does_not_stop_the_batch) {
    TempDir temp;
    const fs::path in = temp.path() / "in";
    copy_fixture("FBX__huesitos.fbx.assbin", in / "huesitos.fbx.assbin");
    copy_fixture("OBJ__box_UTF16BE.obj.assbin", in / "empty.obj.assbin"); // no meshes
    copy_fixture("SMD__triangle.smd.assbin", in / "nested" / "triangle.smd.assbin");
    copy_fixture("SMD__triangle.smd.assbin", in / "nested" / "not-a-dump.txt"); // not *.assbin
    const auto result =
        run_cli({"convert", in.string(), "--out-dir", (temp.path() / "out").string(), "--jobs", "2"});
    BOOST_TEST(result.exit_code == 1);
    BOOST_TEST(contains(result.err, "empty.obj.assbin: refused (no-triangles): no triangles left"));
    BOOST_TEST(contains(result.out, "total: 2 converted, 1 failed"));
    BOOST_TEST(fs::exists(temp.path() / "out" / "huesitos.fbx.aem"));
    BOOST_TEST(fs::exists(temp.path() / "out" / "nested" / "triangle.smd.aem"));
    BOOST_TEST(!fs::exists(temp.path() / "out" / "empty.obj.aem"));
    BOOST_TEST(!fs::exists(temp.path() / "out" / "nested" / "not-a-dump.aem"));
}

BOOST_AUTO_TEST_CASE(an_unreadable_file_is_reported_with_where_it_broke) {
    TempDir temp;
    const std::string bytes = slurp(fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin"));
    std::ofstream(temp.path() / "cut.assbin", std::ios::binary) << bytes.substr(0, 700);
    const auto result = run_cli({"convert", (temp.path() / "cut.assbin").string()});
    BOOST_TEST(result.exit_code == 2); // one input, unreadable
    BOOST_TEST(contains(result.err, "assbin: error: "));
    BOOST_TEST(contains(result.err, "at byte"));
    BOOST_TEST(!fs::exists(temp.path() / "cut.aem"));
}

BOOST_AUTO_TEST_CASE(parallel_and_serial_runs_write_the_same_files) {
    TempDir temp;
    const std::string data = fixture_path("assimp-5.2.5").string();
    const auto serial =
        run_cli({"convert", data, "--out-dir", (temp.path() / "serial").string(), "--jobs", "1"});
    const auto parallel =
        run_cli({"convert", data, "--out-dir", (temp.path() / "parallel").string(), "--jobs", "4"});
    BOOST_TEST(serial.exit_code == parallel.exit_code);
    // The same lines in the same (input) order, apart from the output folder's name.
    std::string lines = serial.out.substr(0, serial.out.rfind("total:"));
    for (size_t at = lines.find("/serial/"); at != std::string::npos; at = lines.find("/serial/", at))
        lines.replace(at, 8, "/parallel/");
    BOOST_TEST(lines == parallel.out.substr(0, parallel.out.rfind("total:")));
    // Without --skip-existing nothing is hashed and no record is left behind.
    BOOST_TEST(!fs::exists(temp.path() / "serial" / ".assbin-convert.log"));
    size_t files = 0;
    for (const auto& entry : fs::directory_iterator(temp.path() / "serial")) {
        const fs::path twin = temp.path() / "parallel" / entry.path().filename();
        BOOST_TEST_REQUIRE(fs::exists(twin));
        BOOST_TEST((slurp(entry.path()) == slurp(twin)), entry.path().filename());
        ++files;
    }
    BOOST_TEST(files > 10u);
}

// More files than a writer is woken for (16) and than may wait to be written (64): every one is
// written, reported once, and put in place, with one converter or two.
BOOST_AUTO_TEST_CASE(a_batch_of_many_small_files_is_written_in_full) {
    TempDir temp;
    constexpr int kFiles = 150;
    for (int f = 0; f < kFiles; ++f)
        copy_fixture("SMD__triangle.smd.assbin", temp.path() / "in" / (std::to_string(f) + ".assbin"));
    for (const char* jobs : {"1", "2"}) {
        const fs::path out = temp.path() / "out" / jobs;
        const auto result =
            run_cli({"convert", (temp.path() / "in").string(), "--out-dir", out.string(), "--jobs", jobs});
        BOOST_TEST(result.exit_code == 0);
        BOOST_TEST(contains(result.out, "total: 150 converted"), result.out);
        int lines = 0;
        for (size_t at = result.out.find(".aem"); at != std::string::npos;
             at = result.out.find(".aem", at + 1))
            ++lines;
        BOOST_TEST(lines == kFiles);
        int written = 0;
        for (const auto& entry : fs::directory_iterator(out)) {
            BOOST_TEST(entry.path().extension() == ".aem", entry.path()); // no temporary left
            ++written;
        }
        BOOST_TEST(written == kFiles);
    }
}

BOOST_AUTO_TEST_CASE(embedded_textures_are_written_beside_the_model) {
    TempDir temp;
    const std::string input =
        fixture_path("assimp-5.2.5/glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin").string();
    BOOST_TEST(run_cli({"convert", input, "-o", (temp.path() / "box.aem").string()}).exit_code == 0);
    const std::string png = slurp(temp.path() / "box_0.png");
    BOOST_TEST(png.substr(1, 3) == "PNG");
    const auto info = run_cli({"aem-info", (temp.path() / "box.aem").string()});
    BOOST_TEST(contains(info.out, "box_0.png"));
    TempDir kept;
    BOOST_TEST(run_cli({"convert", input, "-o", (kept.path() / "box.aem").string(), "--keep-embedded-bytes"})
                   .exit_code == 0);
    BOOST_TEST(slurp(kept.path() / "box_0.png") != png); // the original bytes, not re-encoded
}

BOOST_AUTO_TEST_CASE(quiet_prints_nothing_on_success) {
    TempDir temp;
    const auto result = run_cli({"convert", fixture_path("assimp-5.2.5/X__anim_test.x.assbin").string(), "-o",
                                 (temp.path() / "x.aem").string(), "--quiet"});
    BOOST_TEST(result.exit_code == 0);
    BOOST_TEST(result.out.empty());
    BOOST_TEST(result.err.empty());
}

BOOST_AUTO_TEST_CASE(warnings_name_the_file_and_what_they_are_about) {
    TempDir temp;
    const auto result = run_cli({"convert", fixture_path("assimp-5.2.5/X__anim_test.x.assbin").string(), "-o",
                                 (temp.path() / "x.aem").string()});
    BOOST_TEST(result.exit_code == 0);
    BOOST_TEST(contains(result.err, "assbin: warning: "));
    BOOST_TEST(contains(result.err, "bone 'joint3' names no node"));
}

BOOST_AUTO_TEST_CASE(usage_errors_exit_2) {
    const std::string input = fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin").string();
    BOOST_TEST(run_cli({"convert"}).exit_code == 2);
    const std::string other = fixture_path("assimp-5.2.5/X__anim_test.x.assbin").string();
    BOOST_TEST(run_cli({"convert", input, other, "-o", "/tmp/x.aem"}).exit_code == 2); // two dumps, one -o
    BOOST_TEST(run_cli({"convert", input, "-o", "/tmp/x.aem", "--out-dir", "/tmp"}).exit_code == 2);
    BOOST_TEST(run_cli({"convert", input, "--uv-channel", "9"}).exit_code == 2);
    BOOST_TEST(run_cli({"convert", input, "--ticks-per-second", "0"}).exit_code == 2);
    BOOST_TEST(run_cli({"convert", input, "--crease-angle", "200"}).exit_code == 2);
    BOOST_TEST(run_cli({"convert", input, "--jobs", "0"}).exit_code == 2);
    const auto help = run_cli({"convert", "--help"});
    BOOST_TEST(help.exit_code == 0);
    BOOST_TEST(contains(help.out, "--keep-embedded-bytes"));
}

BOOST_AUTO_TEST_SUITE_END()
