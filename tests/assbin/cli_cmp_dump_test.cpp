// The built `assbin dump` and `assbin cmp` on real fixtures: files written, outputs, JSON and exit
// codes (0 same, 1 different or missing, 2 unreadable or usage error).
#include "support/fixtures.hpp"
#include "support/json_read.hpp"

#include <assbin/reader.hpp>
#include <assbin/writer.hpp>

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using assbin_test::fixture_path;
using assbin_test::run_cli;
using assbin_test::TempDir;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

using namespace assbin_test::json_read;

std::vector<std::byte> body(const fs::path& file) {
    std::vector<std::byte> bytes = assbin::load_file_bytes(file);
    bytes.erase(bytes.begin(), bytes.begin() + 512);
    return bytes;
}

std::string fixture(const std::string& name) {
    return fixture_path("assimp-5.2.5/" + name).string();
}

void copy(const std::string& from, const fs::path& to) {
    fs::create_directories(to.parent_path());
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

void write_text(const fs::path& path, const std::string& text) {
    std::ofstream file(path, std::ios::binary);
    file << text;
}

// A copy of a fixture with one camera value moved by `by`.
void write_moved_camera(const std::string& from, const fs::path& to, float by) {
    assbin::Scene scene = assbin::read_file(from);
    scene.cameras.at(0).clip_far += by;
    fs::create_directories(to.parent_path());
    assbin::write_file(scene, to);
}

// Two folders: one pair the same (full against its shortened twin), one different, one only in
// each folder, and a README that is not a dump.
struct Folders {
    TempDir temp;
    fs::path actual = temp.path() / "actual";
    fs::path expected = temp.path() / "expected";

    Folders() {
        copy(fixture("SMD__triangle.smd.assbin"), actual / "smd/triangle.assbin");
        copy(fixture("SMD__triangle.smd.assbin.regress"), expected / "smd/triangle.assbin");
        write_moved_camera(fixture("FBX__huesitos.fbx.assbin"), actual / "fbx/huesitos.assbin", 5.0f);
        copy(fixture("FBX__huesitos.fbx.assbin"), expected / "fbx/huesitos.assbin");
        copy(fixture("OFF__invalid.off.assbin"), actual / "only_actual.assbin");
        copy(fixture("OFF__invalid.off.assbin"), expected / "only_expected.assbin");
        write_text(actual / "README.md", "not a dump");
        write_text(expected / "README.md", "not a dump either");
    }
};

} // namespace

BOOST_AUTO_TEST_SUITE(cli_cmp_dump)

// ---- dump

BOOST_AUTO_TEST_CASE(dump_shortened_makes_the_regress_file_assimp_made) {
    const TempDir temp;
    const fs::path out = temp.path() / "huesitos.assbin.regress";
    const auto result = run_cli({"dump", fixture("FBX__huesitos.fbx.assbin"), out.string(), "--shortened"});
    BOOST_TEST_REQUIRE(result.exit_code == 0, result.err);
    BOOST_TEST(contains(result.out, "shortened"));
    BOOST_TEST((body(out) == body(fixture("FBX__huesitos.fbx.assbin.regress"))));
    const assbin::Header header = assbin::read_header(assbin::load_file_bytes(out));
    BOOST_TEST(header.is_shortened());
    BOOST_TEST(!header.is_compressed());
    BOOST_TEST(header.source_name == out.string()); // the output path, as Assimp 5.1+ writes it
    BOOST_TEST(header.command == "--shortened ");   // the arguments after the file names
    BOOST_TEST(header.timestamp.size() == 25u);
    BOOST_TEST(header.timestamp.back() == '\n');
}

BOOST_AUTO_TEST_CASE(dump_compressed_reads_back_to_the_same_scene) {
    const TempDir temp;
    const fs::path out = temp.path() / "lights.z.assbin";
    const auto result = run_cli({"dump", "-z", fixture("Collada__lights.dae.assbin"), out.string()});
    BOOST_TEST_REQUIRE(result.exit_code == 0, result.err);
    BOOST_TEST(assbin::read_header(assbin::load_file_bytes(out)).is_compressed());
    BOOST_TEST(
        run_cli({"cmp", out.string(), fixture("Collada__lights.dae.assbin"), "--epsilon", "0"}).exit_code ==
        0);
}

BOOST_AUTO_TEST_CASE(dump_upgrades_an_old_layout_to_the_current_one) {
    const TempDir temp;
    const std::string old =
        fixture_path("older/assimp-4.1.0__models_Collada_lights.dae.export.assbin").string();
    const fs::path out = temp.path() / "lights.assbin";
    BOOST_TEST_REQUIRE(run_cli({"dump", old, out.string()}).exit_code == 0);
    const assbin::Scene scene = assbin::read_file(out);
    BOOST_TEST(scene.layout.light_placement.value_or(false));
    BOOST_TEST(assbin::writer_profile(scene) == "P5 (Assimp 5.2.5+)");
    BOOST_TEST(run_cli({"cmp", out.string(), old, "--epsilon", "0"}).exit_code == 0);
}

BOOST_AUTO_TEST_CASE(dump_refuses_a_shortened_input_as_full_and_never_touches_its_input) {
    const TempDir temp;
    const fs::path out = temp.path() / "full.assbin";
    const auto refused = run_cli({"dump", fixture("FBX__huesitos.fbx.assbin.regress"), out.string()});
    BOOST_TEST(refused.exit_code == 1); // read, but it has no arrays to write in full
    BOOST_TEST(contains(refused.err, "--shortened"));
    BOOST_TEST(!fs::exists(out));

    const fs::path in = temp.path() / "in.assbin";
    copy(fixture("SMD__triangle.smd.assbin"), in);
    const auto before = assbin::load_file_bytes(in);
    const auto same = run_cli({"dump", in.string(), in.string(), "--shortened"});
    BOOST_TEST(same.exit_code == 3); // an output that cannot be written
    BOOST_TEST(contains(same.err, "is the input " + in.string() + " (the same file)"));
    BOOST_TEST((assbin::load_file_bytes(in) == before));
    BOOST_TEST(std::distance(fs::directory_iterator(temp.path()), fs::directory_iterator()) == 1);
}

BOOST_AUTO_TEST_CASE(
    dump_reports_unreadable_input_and_usage_errors_with_exit_2_and_unwritable_output_with_3) {
    const TempDir temp;
    const auto missing =
        run_cli({"dump", (temp.path() / "none.assbin").string(), (temp.path() / "o").string()});
    BOOST_TEST(missing.exit_code == 2);
    BOOST_TEST(contains(missing.err, "assbin: error:"));
    BOOST_TEST(run_cli({"dump", fixture("SMD__triangle.smd.assbin")}).exit_code == 2);
    // A missing folder is made, as convert makes it; under a plain file there can be none.
    const fs::path made = temp.path() / "new" / "dir" / "x.assbin";
    BOOST_TEST(run_cli({"dump", fixture("SMD__triangle.smd.assbin"), made.string()}).exit_code == 0);
    BOOST_TEST(fs::is_regular_file(made));
    std::ofstream(temp.path() / "plain") << "a file";
    const auto nowhere =
        run_cli({"dump", fixture("SMD__triangle.smd.assbin"), (temp.path() / "plain/x").string()});
    BOOST_TEST(nowhere.exit_code == 3); // an output that cannot be written
    BOOST_TEST(contains(nowhere.err, "temporary file"), nowhere.err);
    BOOST_TEST(run_cli({"dump", "--help"}).exit_code == 0);
}

// ---- cmp, two files

BOOST_AUTO_TEST_CASE(cmp_same_files_exit_0_also_full_against_shortened) {
    const auto same =
        run_cli({"cmp", fixture("SMD__triangle.smd.assbin"), fixture("SMD__triangle.smd.z.assbin")});
    BOOST_TEST(same.exit_code == 0);
    BOOST_TEST(contains(same.out, "same: no differences"));
    const auto twin =
        run_cli({"cmp", fixture("FBX__huesitos.fbx.assbin"), fixture("FBX__huesitos.fbx.assbin.regress")});
    BOOST_TEST(twin.exit_code == 0);
    BOOST_TEST(contains(twin.out, "derived from the full ACTUAL"));
}

BOOST_AUTO_TEST_CASE(cmp_different_files_list_every_difference_with_path_values_and_delta) {
    const TempDir temp;
    const fs::path moved = temp.path() / "moved.assbin";
    write_moved_camera(fixture("FBX__huesitos.fbx.assbin"), moved, 5.0f);
    const auto result = run_cli({"cmp", moved.string(), fixture("FBX__huesitos.fbx.assbin")});
    BOOST_TEST(result.exit_code == 1);
    BOOST_TEST(contains(result.out, "different: 1 difference"));
    BOOST_TEST(contains(result.out, "scene/camera[0]/clip_far: expected 10000, actual 10005 (delta 5)"));
    BOOST_TEST(
        run_cli({"cmp", moved.string(), fixture("FBX__huesitos.fbx.assbin"), "--epsilon", "6"}).exit_code ==
        0);
    BOOST_TEST(run_cli({"cmp", moved.string(), fixture("FBX__huesitos.fbx.assbin"), "--relative", "0.1"})
                   .exit_code == 0);
    BOOST_TEST(run_cli({"cmp", moved.string(), fixture("FBX__huesitos.fbx.assbin"), "--ignore", "*/camera*"})
                   .exit_code == 0);

    const auto json = run_cli({"cmp", "--json", moved.string(), fixture("FBX__huesitos.fbx.assbin")});
    BOOST_TEST(json.exit_code == 1);
    const auto tree = nlohmann::json::parse(json.out);
    BOOST_TEST(text(tree, "mode") == "files");
    BOOST_TEST(number(tree, "exit_code") == 1);
    BOOST_TEST(number(tree, "totals.different") == 1);
    const auto& pair = at(tree, "pairs").front();
    BOOST_TEST(text(pair, "status") == "different");
    BOOST_TEST(number(pair, "total_differences") == 1);
    const auto& difference = at(pair, "differences").front();
    BOOST_TEST(text(difference, "path") == "scene/camera[0]/clip_far");
    BOOST_TEST(number(difference, "delta") == 5.0);
}

BOOST_AUTO_TEST_CASE(cmp_max_diffs_caps_the_list_but_not_the_total) {
    const TempDir temp;
    const fs::path moved = temp.path() / "moved.assbin";
    assbin::Scene scene = assbin::read_file(fixture("FBX__huesitos.fbx.assbin"));
    for (assbin::Vec3& v : scene.meshes[0].positions->values)
        v.z() += 1.0f;
    assbin::write_file(scene, moved);
    const auto result =
        run_cli({"cmp", moved.string(), fixture("FBX__huesitos.fbx.assbin"), "--max-diffs", "3"});
    BOOST_TEST(result.exit_code == 1);
    BOOST_TEST(contains(result.out, "different: 256 differences"));
    BOOST_TEST(contains(result.out, "scene/mesh[0]/positions[2].z"));
    BOOST_TEST(!contains(result.out, "scene/mesh[0]/positions[3].z"));
    BOOST_TEST(contains(result.out, "... and 253 more"));
}

BOOST_AUTO_TEST_CASE(cmp_unreadable_input_and_usage_errors_exit_2) {
    const TempDir temp;
    write_text(temp.path() / "junk.assbin", "junk");
    const auto junk =
        run_cli({"cmp", (temp.path() / "junk.assbin").string(), fixture("SMD__triangle.smd.assbin")});
    BOOST_TEST(junk.exit_code == 2);
    BOOST_TEST(contains(junk.err, "not an ASSBIN dump"));
    BOOST_TEST(run_cli({"cmp", fixture("SMD__triangle.smd.assbin")}).exit_code == 2);
    BOOST_TEST(run_cli({"cmp", fixture("SMD__triangle.smd.assbin"), temp.path().string()}).exit_code == 2);
    BOOST_TEST(run_cli({"cmp", "a", "b", "--epsilon", "-1"}).exit_code == 2);
    BOOST_TEST(run_cli({"cmp", "a", "b", "--known-failures", (temp.path() / "none").string()}).exit_code ==
               2);
    BOOST_TEST(run_cli({"cmp", "--help"}).exit_code == 0);
}

// ---- cmp, two folders

BOOST_AUTO_TEST_CASE(cmp_folders_summarise_every_pair_in_a_stable_order) {
    const Folders folders;
    const auto result = run_cli({"cmp", folders.actual.string(), folders.expected.string(), "--verbose"});
    BOOST_TEST(result.exit_code == 1);
    const std::string& out = result.out;
    const size_t huesitos = out.find("different                    1  fbx/huesitos.assbin");
    const size_t only_actual =
        out.find("new                          -  only_actual.assbin  (only in ACTUAL)");
    const size_t only_expected =
        out.find("missing                      -  only_expected.assbin  (only in EXPECTED)");
    const size_t triangle = out.find("same                         0  smd/triangle.assbin");
    BOOST_TEST_REQUIRE(huesitos != std::string::npos, out);
    BOOST_TEST_REQUIRE(only_actual != std::string::npos);
    BOOST_TEST_REQUIRE(only_expected != std::string::npos);
    BOOST_TEST_REQUIRE(triangle != std::string::npos);
    BOOST_TEST((huesitos < only_actual && only_actual < only_expected && only_expected < triangle));
    BOOST_TEST(!contains(out, "README"));
    BOOST_TEST(contains(out, "  same                                1\n"
                             "    of which both empty               0\n"
                             "  different                           1\n"
                             "  new (only in ACTUAL)                1\n"
                             "  missing (only in EXPECTED)          1\n"
                             "  now succeeds                        0\n"
                             "  now fails                           0\n"
                             "  unreadable                          0\n"
                             "  pairs                               4\n"));
    BOOST_TEST(contains(out, "fbx/huesitos.assbin: 1 difference\n"
                             "  scene/camera[0]/clip_far: expected 10000, actual 10005 (delta 5)\n"));
    // Same input, same output.
    BOOST_TEST(run_cli({"cmp", folders.actual.string(), folders.expected.string(), "--verbose"}).out == out);

    write_text(folders.actual / "bad.assbin", "junk");
    write_text(folders.expected / "bad.assbin", "junk");
    const auto unreadable = run_cli({"cmp", folders.actual.string(), folders.expected.string()});
    BOOST_TEST(unreadable.exit_code == 1); // folders: a failed pair of the batch
    BOOST_TEST(contains(unreadable.out, "unreadable                   -  bad.assbin"));
}

BOOST_AUTO_TEST_CASE(cmp_folders_known_failures_allow_listed_pairs_and_report_stale_ones) {
    const Folders folders;
    const fs::path list = folders.temp.path() / "known.txt";
    write_text(list, "# pairs allowed to fail\nfbx/huesitos.assbin  # camera moved\nonly_actual.assbin\n"
                     "only_expected.assbin\nsmd/triangle.assbin\nno/such/pair.assbin\n");
    const auto result = run_cli(
        {"cmp", folders.actual.string(), folders.expected.string(), "--known-failures", list.string()});
    BOOST_TEST(result.exit_code == 0, result.out);
    BOOST_TEST(contains(result.out, "fbx/huesitos.assbin  (known failure)"));
    BOOST_TEST(
        contains(result.out, "smd/triangle.assbin  (listed in the known failures, but now the same: stale)"));
    BOOST_TEST(contains(result.out, "stale known failure: no/such/pair.assbin (no such pair)"));
    BOOST_TEST(contains(
        result.out, "  known failures                      3\n  stale known failures                2\n"));

    write_text(list, "fbx/huesitos.assbin\n"); // the missing pairs are not allowed any more
    BOOST_TEST(run_cli({"cmp", folders.actual.string(), folders.expected.string(), "--known-failures",
                        list.string()})
                   .exit_code == 1);

    const auto json = run_cli({"cmp", "--json", folders.actual.string(), folders.expected.string(),
                               "--known-failures", list.string(), "--ignore", "*/clip_far"});
    const auto tree = nlohmann::json::parse(json.out);
    BOOST_TEST(text(tree, "mode") == "directories");
    BOOST_TEST(number(tree, "totals.pairs") == 4);
    BOOST_TEST(number(tree, "totals.same") == 2); // the ignored difference no longer counts
    BOOST_TEST(number(tree, "totals.stale") == 1);
    BOOST_TEST(number(tree, "totals.missing") == 1);
    BOOST_TEST(number(tree, "exit_code") == 1);
}

BOOST_AUTO_TEST_CASE(cmp_folders_hold_fresh_dumps_against_the_3_1_1_regression_database) {
    // The database names files by hash, without extension; a fresh shortened 5.2.5 dump of the same
    // model (X/anim_test.x, `-b -s -l`) goes under the same name. 3.1.1 and 5.2.5 differ in one
    // generated material name only: the layouts (no metadata, 3.x keys) are not differences.
    const TempDir temp;
    const fs::path fresh = temp.path() / "fresh";
    fs::create_directories(fresh);
    BOOST_TEST_REQUIRE(
        run_cli({"dump", fixture("X__anim_test.x.assbin"), (fresh / "0xb48e027d").string(), "-s"})
            .exit_code == 0);
    const std::string database = fixture_path("regress-3.1.1").string();
    const auto result = run_cli({"cmp", fresh.string(), database});
    BOOST_TEST(result.exit_code == 1);
    BOOST_TEST(contains(result.out, "different                    1  0xb48e027d"));
    BOOST_TEST(contains(result.out, "missing                      -  0x38f60bd3  (only in EXPECTED)"));
    BOOST_TEST(contains(result.out,
                        "  scene/material[0]/property[?mat.name]: expected \"material7703\", actual "
                        "\"material7702\"\n"));
    BOOST_TEST(run_cli({"cmp", fresh.string(), database, "--ignore", "*/property[?mat.name]"}).exit_code ==
               1);
    BOOST_TEST(run_cli({"cmp", (fresh / "0xb48e027d").string(), database + "/0xb48e027d", "--ignore",
                        "*/property[?mat.name]"})
                   .exit_code == 0);
}

BOOST_AUTO_TEST_SUITE_END()
