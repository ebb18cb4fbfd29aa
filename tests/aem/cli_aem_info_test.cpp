// `assbin aem-info` run as a program: output and exit codes 0 (fine), 1 (invalid), 2 (unreadable).
#define BOOST_TEST_MODULE aem_cli
#include <boost/test/unit_test.hpp>

#include "aem_fixtures.hpp"
#include "support/fixtures.hpp"

#include <aem/io.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using Run = assbin_test::CommandResult;

// Runs `assbin aem-info <arguments>` (the shared runner captures stdout and stderr).
Run aem_info(const assbin_test::TempDir&, const std::vector<std::string>& arguments) {
    std::vector<std::string> args{"aem-info"};
    args.insert(args.end(), arguments.begin(), arguments.end());
    return assbin_test::run_cli(args);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A valid model and a broken one (two violations) in a fresh directory.
struct Files {
    assbin_test::TempDir dir;
    std::string valid = (dir / "valid.aem").string();
    std::string broken = (dir / "broken.aem").string();

    Files() {
        aem::write_file(assbin_test::make_two_bone_model(), valid);
        aem::Model model = assbin_test::make_two_bone_model();
        model.bones[0].parent = 1;
        model.indices[2] = 40;
        aem::write_file(model, broken);
    }
};

} // namespace

BOOST_AUTO_TEST_CASE(summary_lists_counts_meshes_materials_bones_and_animations) {
    const Files files;
    const Run run = aem_info(files.dir, {files.valid});
    BOOST_TEST_INFO(run.out << run.err);
    BOOST_TEST(run.exit_code == 0);
    BOOST_TEST(run.err.empty());
    BOOST_TEST(contains(run.out, "AEM version 1, 2024 layout, 1,592 bytes"));
    BOOST_TEST(contains(run.out, "  keyframes      10\n"));
    BOOST_TEST(contains(run.out, "mesh  material  first index  indices  triangles"));
    BOOST_TEST(contains(run.out, "#0 albedo.png"));
    BOOST_TEST(contains(run.out, "#2 orm.png"));
    BOOST_TEST(contains(run.out, "stores no bone names"));
    BOOST_TEST(contains(run.out, "    1       0  matrix          bone 1")); // child indented under bone 0
    BOOST_TEST(contains(run.out, "\"bend\"   2.000 s"));
    BOOST_TEST(!contains(run.out, "validation"));
}

BOOST_AUTO_TEST_CASE(json_gives_the_same_information) {
    const Files files;
    const Run run = aem_info(files.dir, {files.valid, "--json"});
    BOOST_TEST_INFO(run.out << run.err);
    BOOST_TEST(run.exit_code == 0);
    BOOST_TEST(contains(run.out, "\"file_size\": 1592"));
    BOOST_TEST(contains(run.out, "\"vertices\": 6"));
    BOOST_TEST(contains(run.out, "\"file_name\": \"normal.png\""));
    BOOST_TEST(contains(run.out, "\"name\": \"bend\""));
    BOOST_TEST(contains(run.out, "\"rotation_keys\": 3"));
    BOOST_TEST(contains(run.out, "\"depth\": 1"));
}

BOOST_AUTO_TEST_CASE(validate_on_a_valid_model_exits_0) {
    const Files files;
    const Run run = aem_info(files.dir, {"--validate", files.valid});
    BOOST_TEST_INFO(run.out << run.err);
    BOOST_TEST(run.exit_code == 0);
    BOOST_TEST(contains(run.out, "validation: valid, no violations"));
}

BOOST_AUTO_TEST_CASE(validate_lists_every_violation_and_exits_1) {
    const Files files;
    const Run text = aem_info(files.dir, {files.broken, "--validate"});
    BOOST_TEST_INFO(text.out << text.err);
    BOOST_TEST(text.exit_code == 1);
    BOOST_TEST(contains(text.out, "validation: 2 violations"));
    BOOST_TEST(contains(text.out, "index-out-of-range"));
    BOOST_TEST(contains(text.out, "indices[2]"));
    BOOST_TEST(contains(text.out, "bone-parent-not-earlier"));
    BOOST_TEST(contains(text.out, "bones[0].parent"));
    const Run json = aem_info(files.dir, {files.broken, "--validate", "--json"});
    BOOST_TEST(json.exit_code == 1);
    BOOST_TEST(contains(json.out, "\"valid\": false"));
    BOOST_TEST(contains(json.out, "\"rule\": \"bone-parent-not-earlier\""));
}

BOOST_AUTO_TEST_CASE(pose_prints_the_skinning_matrices) {
    const Files files;
    const Run run = aem_info(files.dir, {files.valid, "--pose", "0", "1"});
    BOOST_TEST_INFO(run.out << run.err);
    BOOST_TEST(run.exit_code == 0);
    BOOST_TEST(contains(run.out, "pose: animation 0 \"bend\" at 1 s"));
    // bone 1 at t = 1: [[r, -r, 0, 2 + r], [r, r, 0, 2 - r], [0, 0, 2, 0], [0, 0, 0, 1]], r = sqrt 2
    BOOST_TEST(contains(run.out, "1.41421     -1.41421            0      3.41421 ]"));
    BOOST_TEST(
        contains(run.out, "1.41421      1.41421            0     0.58578")); // last digit: float rounding
}

BOOST_AUTO_TEST_CASE(pose_takes_an_animation_name_and_a_negative_time) {
    const Files files;
    const Run run = aem_info(files.dir, {"--pose", "bend", "-0.5", files.valid, "--json"});
    BOOST_TEST_INFO(run.out << run.err);
    BOOST_TEST(run.exit_code == 0);
    BOOST_TEST(contains(run.out, "\"time\": -0.5"));
    BOOST_TEST(contains(run.out, "\"skinning_matrices\""));
}

BOOST_AUTO_TEST_CASE(pose_of_an_invalid_model_exits_1) {
    const Files files;
    const Run run = aem_info(files.dir, {files.broken, "--pose", "0", "1"});
    BOOST_TEST(run.exit_code == 1);
    BOOST_TEST(contains(run.err, "cannot pose"));
}

BOOST_AUTO_TEST_CASE(pose_of_a_missing_animation_is_a_usage_error) {
    const Files files;
    const Run by_index = aem_info(files.dir, {files.valid, "--pose", "3", "1"});
    BOOST_TEST(by_index.exit_code == 2);
    BOOST_TEST(contains(by_index.err, "no animation 3 (the model has 1 animation)"));
    const Run bad_time = aem_info(files.dir, {files.valid, "--pose", "0", "soon"});
    BOOST_TEST(bad_time.exit_code == 2);
    const Run one_value = aem_info(files.dir, {files.valid, "--pose", "0"});
    BOOST_TEST(one_value.exit_code == 2);
}

BOOST_AUTO_TEST_CASE(unreadable_files_exit_2_with_the_file_name) {
    const Files files;
    const Run missing = aem_info(files.dir, {(files.dir / "absent.aem").string()});
    BOOST_TEST(missing.exit_code == 2);
    BOOST_TEST(
        contains(missing.err, "assbin: error: " + (files.dir / "absent.aem").string() + ": no such file"));

    auto bytes = assbin_test::read_bytes(files.valid);
    bytes.resize(bytes.size() - 3);
    assbin_test::write_bytes(files.dir / "short.aem", bytes);
    const Run truncated = aem_info(files.dir, {(files.dir / "short.aem").string(), "--validate"});
    BOOST_TEST(truncated.exit_code == 2);
    BOOST_TEST(contains(truncated.err, "short.aem: the file is cut short"));
    BOOST_TEST(truncated.out.empty());
}

BOOST_AUTO_TEST_CASE(help_explains_every_option) {
    const Files files;
    const Run run = aem_info(files.dir, {"--help"});
    BOOST_TEST(run.exit_code == 0);
    for (const char* option : {"--json", "--validate", "--pose ANIM TIME", "usage: assbin aem-info"}) {
        BOOST_TEST(contains(run.out, option), option);
    }
    const Run no_file = aem_info(files.dir, {});
    BOOST_TEST(no_file.exit_code == 2);
}
