// One exit-code table for every verb: the README's lines are `assbin --help`'s, every verb's --help
// prints them, and each verb is run into each code it can give (0 done, 1 done with a negative
// answer, 2 not done: usage or input, 3 not done here: no OpenGL context or an output not written).
#include "cli/cli_helpers.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

using assbin_cli_test::contains;
using assbin_cli_test::fixture;
using assbin_test::fixture_path;
using assbin_test::run_cli;
using assbin_test::TempDir;

namespace {

// The table as `assbin --help` prints it: from its first line to the end of the output.
std::string table_of(const std::string& help) {
    const size_t start = help.find("exit codes (the same for every verb):");
    return start == std::string::npos ? "" : help.substr(start);
}

// A path no file can be written to: its folder is a character device.
const std::string kUnwritable = "/dev/null/out";

// While alive, libglvnd finds no EGL driver, so no OpenGL context can be made (child processes
// inherit it).
struct NoOpenGl {
    NoOpenGl() { ::setenv("__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent/vendor.json", 1); }
    ~NoOpenGl() { ::unsetenv("__EGL_VENDOR_LIBRARY_FILENAMES"); }
};

const char* const kVerbs[] = {"info", "tree", "aem-info", "render", "convert", "dump", "cmp"};

// A valid 2024 model converted from a fixture, then one index pointed past the vertices.
std::string invalid_model(const TempDir& dir) {
    const std::string path = (dir / "broken.aem").string();
    const auto converted = run_cli({"convert", fixture("SMD__triangle.smd.assbin"), "-o", path});
    BOOST_TEST_REQUIRE(converted.exit_code == 0);
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const uint32_t vertices = *reinterpret_cast<const uint32_t*>(bytes.data() + 4);
    const size_t first_index = 40 + size_t{vertices} * 92; // header, then 92-byte vertices
    const uint32_t past = 0x7fffffff;
    file.seekp(static_cast<std::streamoff>(first_index));
    file.write(reinterpret_cast<const char*>(&past), 4);
    return path;
}

} // namespace

BOOST_AUTO_TEST_SUITE(exit_codes)

BOOST_AUTO_TEST_CASE(the_readme_and_reference_tables_are_the_one_assbin_help_prints) {
    const auto help = run_cli({"--help"});
    BOOST_TEST_REQUIRE(help.exit_code == 0);
    const std::string table = table_of(help.out);
    BOOST_TEST_REQUIRE(!table.empty());
    for (const char* page : {ASSBIN_README_PATH, ASSBIN_CLI_REFERENCE_PATH}) { // README and docs/cli.md
        std::ifstream file(page);
        const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        BOOST_TEST(contains(text, "```\n" + table + "```\n"),
                   page << " holds the table as `assbin --help` prints it:\n"
                        << table);
    }
}

BOOST_AUTO_TEST_CASE(every_verb_help_prints_the_same_table) {
    const std::string table = table_of(run_cli({"--help"}).out);
    for (const char* verb : kVerbs) {
        BOOST_TEST_CONTEXT(verb) {
            const auto help = run_cli({verb, "--help"});
            BOOST_TEST(help.exit_code == 0);
            BOOST_TEST(table_of(help.out) == table);
            // Operands are the synopsis's words, never options a user would have to guess.
            for (const char* hidden : {"--file", "--input", "--in ", "--out ", "--actual", "--expected"})
                BOOST_TEST(!contains(help.out, hidden), verb << " --help lists " << hidden);
        }
    }
}

BOOST_AUTO_TEST_CASE(info_and_tree_read_or_give_2) {
    for (const char* verb : {"info", "tree"}) {
        BOOST_TEST_CONTEXT(verb) {
            BOOST_TEST(run_cli({verb, fixture("FBX__huesitos.fbx.assbin")}).exit_code == 0);
            BOOST_TEST(run_cli({verb, "/nonexistent/missing.assbin"}).exit_code == 2);
            BOOST_TEST(run_cli({verb, fixture_path("README.md").string()}).exit_code == 2); // not a dump
            BOOST_TEST(run_cli({verb}).exit_code == 2);
        }
    }
}

BOOST_AUTO_TEST_CASE(aem_info_gives_0_1_and_2) {
    const TempDir dir;
    const std::string model = (dir / "good.aem").string();
    BOOST_TEST_REQUIRE(run_cli({"convert", fixture("FBX__huesitos.fbx.assbin"), "-o", model}).exit_code == 0);
    BOOST_TEST(run_cli({"aem-info", "--validate", model}).exit_code == 0);
    const std::string broken = invalid_model(dir);
    const auto invalid = run_cli({"aem-info", "--validate", broken});
    BOOST_TEST(invalid.exit_code == 1);
    BOOST_TEST(contains(invalid.out, "index"));
    BOOST_TEST(run_cli({"aem-info", "--pose", "0", "0", broken}).exit_code == 1);
    BOOST_TEST(run_cli({"aem-info", "/nonexistent.aem"}).exit_code == 2);
    BOOST_TEST(run_cli({"aem-info", fixture("FBX__huesitos.fbx.assbin")}).exit_code == 2);
}

BOOST_AUTO_TEST_CASE(convert_gives_each_code_for_one_input_and_1_for_a_batch) {
    const TempDir dir;
    BOOST_TEST(
        run_cli({"convert", fixture("SMD__triangle.smd.assbin"), "-o", (dir / "a.aem").string()}).exit_code ==
        0);
    // Read, but nothing to convert: a negative answer.
    const auto refused = run_cli(
        {"convert", fixture("PLY__cube_binary_starts_with_nl.ply.assbin"), "-o", (dir / "b.aem").string()});
    BOOST_TEST(refused.exit_code == 1);
    BOOST_TEST(contains(refused.err, "no triangles"));
    const auto missing = run_cli({"convert", (dir / "missing.assbin").string()});
    BOOST_TEST(missing.exit_code == 2);
    BOOST_TEST(contains(missing.err, "no such file"));
    BOOST_TEST(
        run_cli({"convert", fixture("SMD__triangle.smd.assbin"), "-o", kUnwritable + ".aem"}).exit_code == 3);
    // A batch: one failed file among converted ones.
    const auto batch = run_cli({"convert", fixture("SMD__triangle.smd.assbin"),
                                (dir / "missing.assbin").string(), "--out-dir", (dir / "batch").string()});
    BOOST_TEST(batch.exit_code == 1);
    BOOST_TEST(std::filesystem::exists(dir / "batch" / "SMD__triangle.smd.aem"));
    // A folder without a dump: nothing to do.
    std::filesystem::create_directories(dir / "empty");
    BOOST_TEST(run_cli({"convert", (dir / "empty").string()}).exit_code == 2);
}

BOOST_AUTO_TEST_CASE(dump_gives_each_code) {
    const TempDir dir;
    BOOST_TEST(
        run_cli({"dump", fixture("SMD__triangle.smd.assbin"), (dir / "a.assbin").string()}).exit_code == 0);
    BOOST_TEST(run_cli({"dump", fixture("SMD__triangle.smd.assbin.regress"), (dir / "b.assbin").string()})
                   .exit_code == 1); // a shortened dump has no arrays to write in full
    BOOST_TEST(run_cli({"dump", (dir / "missing.assbin").string(), (dir / "c.assbin").string()}).exit_code ==
               2);
    BOOST_TEST(run_cli({"dump", fixture("SMD__triangle.smd.assbin"), kUnwritable}).exit_code == 3);
}

BOOST_AUTO_TEST_CASE(cmp_gives_each_code) {
    const TempDir dir;
    const std::string a = fixture("SMD__triangle.smd.assbin"), b = fixture("X__anim_test.x.assbin");
    BOOST_TEST(run_cli({"cmp", a, a}).exit_code == 0);
    BOOST_TEST(run_cli({"cmp", a, b}).exit_code == 1);
    BOOST_TEST(run_cli({"cmp", a, (dir / "missing.assbin").string()}).exit_code == 2);
    BOOST_TEST(run_cli({"cmp", a, a, "--html", kUnwritable + ".html"}).exit_code == 3);
    // Folders are a batch: an unreadable pair is one failed pair among the others.
    std::filesystem::create_directories(dir / "actual");
    std::filesystem::create_directories(dir / "expected");
    std::filesystem::copy_file(a, dir / "actual" / "t.assbin");
    std::filesystem::copy_file(a, dir / "expected" / "t.assbin");
    std::ofstream(dir / "actual" / "cut.assbin") << "ASSIMP.binary-dump.";
    std::ofstream(dir / "expected" / "cut.assbin") << "ASSIMP.binary-dump.";
    BOOST_TEST(run_cli({"cmp", (dir / "actual").string(), (dir / "expected").string()}).exit_code == 1);
}

BOOST_AUTO_TEST_CASE(render_gives_each_code) {
    const TempDir dir;
    BOOST_TEST(run_cli({"render", fixture("SMD__triangle.smd.assbin"), "-o", (dir / "a.png").string(),
                        "--size", "32x32"})
                   .exit_code == 0);
    BOOST_TEST(run_cli({"render", fixture("PLY__cube_binary_starts_with_nl.ply.assbin"), "-o",
                        (dir / "b.png").string()})
                   .exit_code == 1);
    BOOST_TEST(
        run_cli({"render", (dir / "missing.assbin").string(), "-o", (dir / "c.png").string()}).exit_code ==
        2);
    BOOST_TEST(
        run_cli({"render", fixture("SMD__triangle.smd.assbin"), "-o", kUnwritable + ".png"}).exit_code == 3);
    // A sheet with a failed tile is a batch with a failure; a sheet of nothing is not done.
    const auto sheet =
        run_cli({"render", fixture("SMD__triangle.smd.assbin"),
                 fixture("PLY__cube_binary_starts_with_nl.ply.assbin"), "--sheet", (dir / "s.png").string()});
    BOOST_TEST(sheet.exit_code == 1);
    BOOST_TEST(std::filesystem::exists(dir / "s.png"));
    std::filesystem::create_directories(dir / "empty");
    BOOST_TEST(run_cli({"render", (dir / "empty").string(), "--sheet", (dir / "t.png").string()}).exit_code ==
               2);
    {
        const NoOpenGl no_gl;
        const auto result =
            run_cli({"render", fixture("SMD__triangle.smd.assbin"), "-o", (dir / "d.png").string()});
        BOOST_TEST(result.exit_code == 3);
        BOOST_TEST(contains(result.err, "cannot render"));
        BOOST_TEST(!std::filesystem::exists(dir / "d.png"));
        // The input's own problem comes first, on any machine.
        BOOST_TEST(run_cli({"render", (dir / "missing.assbin").string(), "-o", (dir / "e.png").string()})
                       .exit_code == 2);
    }
}

BOOST_AUTO_TEST_CASE(usage_errors_give_2_on_every_verb) {
    for (const char* verb : kVerbs) {
        BOOST_TEST_CONTEXT(verb) {
            const auto result = run_cli({verb, "--no-such-option"});
            BOOST_TEST(result.exit_code == 2);
            BOOST_TEST(contains(result.err, "usage: assbin " + std::string(verb)));
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
