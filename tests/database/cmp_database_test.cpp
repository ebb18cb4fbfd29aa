// `assbin cmp` used on a regression database as a new user would (issue "Regression compare that
// fits a real regression database"): bytes after the SCENE chunk, tolerances that replace the
// default, unknown chunks reported, empty expected-failure markers, readable differences, and the
// folder workflow with its categories, --known-failures and exit codes. Every case starts from a
// real dump in tests/data.
#define BOOST_TEST_MODULE cmp_database
#include "support/fixtures.hpp"

#include <assbin/reader.hpp>
#include <assbin/writer.hpp>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using assbin_test::fixture_path;
using assbin_test::run_cli;
using assbin_test::TempDir;
using nlohmann::json;

namespace {

const std::string kTriangle = "assimp-5.2.5/SMD__triangle.smd.assbin";
const std::string kSkinned = "assimp-5.2.5/FBX__huesitos.fbx.assbin";

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::vector<char> bytes_of(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::vector<char>& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void write_empty(const fs::path& path) {
    write_bytes(path, {});
}

void copy_fixture(const std::string& fixture, const fs::path& to) {
    write_bytes(to, bytes_of(fixture_path(fixture)));
}

// The fixture with `edit` applied to its scene, written full in the current layout.
template <class Edit>
void write_edited(const std::string& fixture, const fs::path& to, Edit edit) {
    assbin::Scene scene = assbin::read_file(fixture_path(fixture));
    edit(scene);
    fs::create_directories(to.parent_path());
    assbin::write_file(scene, to);
}

json cmp_json(const std::vector<std::string>& args, int expected_exit) {
    std::vector<std::string> all = {"cmp"};
    all.insert(all.end(), args.begin(), args.end());
    all.push_back("--json");
    const auto result = run_cli(all);
    BOOST_TEST(result.exit_code == expected_exit, result.out << result.err);
    return json::parse(result.out);
}

} // namespace

// 1. Trailing bytes: read as Assimp's loader reads them (past), reported by info and cmp; --strict
// refuses them.
BOOST_AUTO_TEST_CASE(bytes_after_the_scene_are_read_past_reported_and_refused_when_strict) {
    const TempDir temp;
    std::vector<char> bytes = bytes_of(fixture_path(kTriangle));
    const size_t scene_end = bytes.size();
    bytes.insert(bytes.end(), 100, '\x5a');
    write_bytes(temp / "trailing.assbin", bytes);
    const std::string file = (temp / "trailing.assbin").string();

    const auto info = run_cli({"info", file, "--json"});
    BOOST_TEST(info.exit_code == 0, info.err);
    const json facts = json::parse(info.out);
    BOOST_TEST(facts["trailing_bytes"].is_number_unsigned());
    BOOST_TEST(facts["trailing_bytes"].get<uint64_t>() == 100u);
    BOOST_TEST(contains(facts["problems"][0]["message"].get<std::string>(),
                        "100 bytes follow the SCENE chunk, at byte " + std::to_string(scene_end)));
    const auto strict = run_cli({"info", file, "--strict"});
    BOOST_TEST(strict.exit_code == 2);
    BOOST_TEST(contains(strict.err, "at byte " + std::to_string(scene_end) + " in scene: 100 bytes follow"));

    const std::string clean = fixture_path(kTriangle).string();
    const auto text = run_cli({"cmp", file, clean});
    BOOST_TEST(text.exit_code == 0, text.out);
    BOOST_TEST(contains(text.out, "same: no differences"));
    BOOST_TEST(contains(text.out, "note: ACTUAL: 100 bytes after the SCENE chunk"));
    const json report = cmp_json({file, clean}, 0);
    BOOST_TEST(report["pairs"][0]["reader_findings"]["actual"]["trailing_bytes"].get<uint64_t>() == 100u);
    BOOST_TEST(report["pairs"][0]["reader_findings"]["expected"]["trailing_bytes"].get<uint64_t>() == 0u);
    BOOST_TEST(run_cli({"cmp", file, clean, "--strict"}).exit_code == 2);
}

// 2. By default floats compare exactly; --epsilon, --relative and --ulps forgive, any of them.
BOOST_AUTO_TEST_CASE(floats_compare_exactly_unless_a_tolerance_is_given) {
    const TempDir temp;
    const fs::path moved = temp / "moved.assbin";
    write_edited(kTriangle, moved, [](assbin::Scene& scene) {
        for (assbin::Vec3& p : scene.meshes.at(0).positions->values)
            p *= 1.001f; // a relative change of 1e-3, far below the absolute 0.1
    });
    const std::string a = moved.string(), e = fixture_path(kTriangle).string();
    BOOST_TEST(run_cli({"cmp", a, e}).exit_code == 1);                                    // default: exact
    BOOST_TEST(run_cli({"cmp", a, e, "--epsilon", "0.1"}).exit_code == 0);                // assimp cmpdump's
    BOOST_TEST(run_cli({"cmp", a, e, "--ulps", "0"}).exit_code == 1);                     // exact
    BOOST_TEST(run_cli({"cmp", a, e, "--relative", "1e-4"}).exit_code == 1);              // 1e-3 > 1e-4
    BOOST_TEST(run_cli({"cmp", a, e, "--relative", "1e-2"}).exit_code == 0);              // 1e-3 <= 1e-2
    BOOST_TEST(run_cli({"cmp", a, e, "--ulps", "0", "--epsilon", "0.1"}).exit_code == 0); // any of both
    const json report = cmp_json({a, e, "--ulps", "0"}, 1);
    BOOST_TEST(report["options"]["epsilon"].get<double>() == 0.0);
    BOOST_TEST(report["options"]["ulps"].get<uint64_t>() == 0u);
    BOOST_TEST(report["options"]["relative"].is_null());
}

// 3. An unknown chunk inside a compared scene is skipped, and the report says where.
BOOST_AUTO_TEST_CASE(unknown_chunks_in_a_compared_scene_are_reported) {
    const TempDir temp;
    std::vector<char> bytes = bytes_of(fixture_path(kTriangle));
    const char unknown[12] = {'\x99', '\x99', 0, 0, 4, 0, 0, 0, 1, 2, 3, 4}; // id 0x9999, 4 bytes
    bytes.insert(bytes.end(), unknown, unknown + 12); // at the end of the SCENE chunk, which grows by 12
    uint32_t scene_length;
    std::memcpy(&scene_length, bytes.data() + 516, 4);
    scene_length += 12;
    std::memcpy(bytes.data() + 516, &scene_length, 4);
    write_bytes(temp / "unknown.assbin", bytes);
    const std::string a = (temp / "unknown.assbin").string(), e = fixture_path(kTriangle).string();
    const auto text = run_cli({"cmp", a, e});
    BOOST_TEST(text.exit_code == 0, text.out << text.err);
    BOOST_TEST(contains(text.out, "note: ACTUAL: 1 unknown chunk skipped (scene id 0x9999)"), text.out);
    const json report = cmp_json({a, e}, 0);
    const json& skipped = report["pairs"][0]["reader_findings"]["actual"]["skipped_chunks"];
    BOOST_TEST(skipped.size() == 1u);
    BOOST_TEST(skipped[0]["path"].get<std::string>() == "scene");
    BOOST_TEST(skipped[0]["length"].get<uint64_t>() == 4u);
}

// 4. Empty files are expected-failure markers: two of them are the same; a marker against a dump is
// a change of its own category, which --known-failures can excuse.
BOOST_AUTO_TEST_CASE(empty_files_are_expected_failure_markers) {
    const TempDir temp;
    const fs::path expected = temp / "db", actual = temp / "run";
    write_empty(expected / "0x00000001");
    write_empty(actual / "0x00000001"); // still fails
    write_empty(expected / "0x00000002");
    copy_fixture(kTriangle, actual / "0x00000002"); // now succeeds
    copy_fixture(kTriangle, expected / "0x00000003");
    write_empty(actual / "0x00000003"); // now fails
    copy_fixture(kTriangle, expected / "0x00000004");
    copy_fixture(kTriangle, actual / "0x00000004"); // same
    const json report = cmp_json({actual.string(), expected.string()}, 1);
    const json& totals = report["totals"];
    BOOST_TEST(totals["pairs"].get<int>() == 4);
    BOOST_TEST(totals["same"].get<int>() == 2);
    BOOST_TEST(totals["both_empty"].get<int>() == 1);
    BOOST_TEST(totals["now_succeeds"].get<int>() == 1);
    BOOST_TEST(totals["now_fails"].get<int>() == 1);
    BOOST_TEST(totals["unreadable"].get<int>() == 0);
    BOOST_TEST(report["pairs"][1]["status"].get<std::string>() == "now-succeeds");
    BOOST_TEST(report["pairs"][2]["status"].get<std::string>() == "now-fails");

    const fs::path list = temp / "known.txt";
    std::ofstream(list) << "0x00000002\n0x00000003\n";
    BOOST_TEST(
        run_cli({"cmp", actual.string(), expected.string(), "--known-failures", list.string()}).exit_code ==
        0);
    const auto two_markers =
        run_cli({"cmp", (actual / "0x00000001").string(), (expected / "0x00000001").string()});
    BOOST_TEST(two_markers.exit_code == 0);
    BOOST_TEST(contains(two_markers.out, "same: both files are empty expected-failure markers"));
}

// 5. Differences read as what they are: property types and flag masks by name, channels and bones
// by node name as well as index; single against double precision by value.
BOOST_AUTO_TEST_CASE(differences_name_types_flags_channels_and_bones) {
    const std::string single = fixture_path("assimp-5.2.5/Collada__box_nested_animation.dae.assbin").string();
    const std::string dbl =
        fixture_path("older/assimp-5.2.5-double__models_Collada_box_nested_animation.dae.drv.full.assbin")
            .string();
    const auto typed = run_cli({"cmp", dbl, single});
    BOOST_TEST(typed.exit_code == 1);
    BOOST_TEST(contains(typed.out, "property[$clr.diffuse].type: expected float[], actual double[]"),
               typed.out);
    BOOST_TEST(!contains(typed.out, "(delta -1)"));
    // Exact by default: the double-precision writer's key times are wider than float's.
    BOOST_TEST(run_cli({"cmp", dbl, single, "--by-value"}).exit_code == 1);
    BOOST_TEST(run_cli({"cmp", dbl, single, "--by-value", "--relative", "1e-6"}).exit_code == 0);

    const TempDir temp;
    const fs::path changed = temp / "changed.assbin";
    write_edited(kSkinned, changed, [](assbin::Scene& scene) {
        scene.flags = assbin::kSceneIncomplete | assbin::kSceneNonVerboseFormat;
        scene.animations.at(0).channels.at(1).positions.keys.at(0).value.x() += 1;
        scene.meshes.at(0).bones.at(2).offset(0, 3) += 1;
    });
    const assbin::Scene source = assbin::read_file(fixture_path(kSkinned));
    const auto named = run_cli({"cmp", changed.string(), fixture_path(kSkinned).string()});
    BOOST_TEST(named.exit_code == 1);
    BOOST_TEST(contains(named.out, "scene/flags: expected 0x0, actual 0x9 (incomplete | non-verbose)"),
               named.out);
    BOOST_TEST(contains(named.out, "scene/animation[0]/channel[1 '" +
                                       source.animations[0].channels[1].node_name +
                                       "']/positions[0].value.x"));
    BOOST_TEST(
        contains(named.out, "scene/mesh[0]/bone[2 '" + source.meshes[0].bones[2].name + "']/offset[0][3]"));
}

// 6. The database workflow: folders matched by relative path, a line per category, JSON for CI,
// documented exit codes; `dump --shortened` over a folder regenerates a database.
BOOST_AUTO_TEST_CASE(a_database_is_regenerated_and_compared_by_category) {
    const TempDir temp;
    const fs::path full = temp / "full", db = temp / "db", run = temp / "run";
    copy_fixture(kTriangle, full / "smd/triangle.assbin");
    copy_fixture(kSkinned, full / "fbx/huesitos.assbin");
    write_empty(full / "broken/0xdeadbeef");
    const auto dumped = run_cli({"dump", "--shortened", full.string(), db.string()});
    BOOST_TEST(dumped.exit_code == 0, dumped.err);
    BOOST_TEST(contains(dumped.out, "wrote 2 dumps and 1 empty marker under"));
    BOOST_TEST(fs::file_size(db / "broken/0xdeadbeef") == 0u);
    BOOST_TEST(assbin::read_file(db / "fbx/huesitos.assbin").is_shortened());
    // The full dumps against the database they generated: all the same (compared as shortened).
    const json same = cmp_json({full.string(), db.string()}, 0);
    BOOST_TEST(same["totals"]["same"].get<int>() == 3);

    fs::create_directories(run);
    fs::copy(full, run, fs::copy_options::recursive);
    write_edited(kSkinned, run / "fbx/huesitos.assbin",
                 [](assbin::Scene& scene) { scene.cameras.at(0).clip_far += 5; });
    fs::remove(run / "smd/triangle.assbin");
    copy_fixture(kTriangle, run / "new/triangle.assbin");
    write_bytes(run / "broken/0xdeadbeef", {'j', 'u', 'n', 'k'});
    const json report =
        cmp_json({run.string(), db.string()}, 1); // folders: an unreadable pair fails the batch
    const json& t = report["totals"];
    BOOST_TEST(t["pairs"].get<int>() == 4);
    BOOST_TEST(t["different"].get<int>() == 1);
    BOOST_TEST(t["missing"].get<int>() == 1);
    BOOST_TEST(t["new"].get<int>() == 1);
    BOOST_TEST(t["unreadable"].get<int>() == 1);
    BOOST_TEST(report["exit_code"].get<int>() == 1);
    const auto text = run_cli({"cmp", run.string(), db.string()});
    BOOST_TEST(contains(text.out, "  new (only in ACTUAL)                1\n"), text.out);
    BOOST_TEST(contains(text.out, "  missing (only in EXPECTED)          1\n"));
    // Every category can be excused: with all four listed, exit 0.
    const fs::path list = temp / "known.txt";
    std::ofstream(list)
        << "fbx/huesitos.assbin\nsmd/triangle.assbin\nnew/triangle.assbin\nbroken/0xdeadbeef\n";
    BOOST_TEST(run_cli({"cmp", run.string(), db.string(), "--known-failures", list.string()}).exit_code == 0);
}
