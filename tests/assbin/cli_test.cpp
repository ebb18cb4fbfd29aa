// The built `assbin` program on real fixtures: output, JSON and exit codes of `info` and `tree`.
#include "support/fixtures.hpp"
#include "support/json_read.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <sstream>

using assbin_test::fixture_path;
using assbin_test::run_cli;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

using namespace assbin_test::json_read;

} // namespace

BOOST_AUTO_TEST_SUITE(cli)

BOOST_AUTO_TEST_CASE(help_lists_the_verbs_and_exits_0) {
    const auto result = run_cli({"--help"});
    BOOST_TEST(result.exit_code == 0);
    BOOST_TEST(contains(result.out, "info"));
    BOOST_TEST(contains(result.out, "tree"));
    const auto verb_help = run_cli({"info", "--help"});
    BOOST_TEST(verb_help.exit_code == 0);
    BOOST_TEST(contains(verb_help.out, "--json"));
}

BOOST_AUTO_TEST_CASE(usage_errors_exit_2) {
    BOOST_TEST(run_cli({}).exit_code == 2);
    const auto unknown = run_cli({"frobnicate"});
    BOOST_TEST(unknown.exit_code == 2);
    BOOST_TEST(contains(unknown.err, "unknown verb"));
    BOOST_TEST(run_cli({"info"}).exit_code == 2);
    BOOST_TEST(run_cli({"info", "--no-such-option", "x"}).exit_code == 2);
}

BOOST_AUTO_TEST_CASE(info_summarises_a_skinned_animated_dump) {
    const auto result = run_cli({"info", fixture_path("assimp-5.2.5/FBX__huesitos.fbx.assbin").string()});
    BOOST_TEST(result.exit_code == 0);
    BOOST_TEST(contains(result.out, "P5 (Assimp 5.2.5+)"));
    BOOST_TEST(contains(result.out, "\"Armature|Action\""));
    BOOST_TEST(contains(result.out, "Material.001"));
    BOOST_TEST(contains(result.out, "Cylinder  meshes 0"));
    BOOST_TEST(contains(result.out, "bone 'Bone.005' has no weights"));
}

BOOST_AUTO_TEST_CASE(info_says_the_same_on_any_number_of_threads) {
    for (const char* name : {"assimp-5.2.5/COB__dwarf.cob.assbin", "assimp-5.2.5/X__anim_test.x.assbin",
                             "assimp-5.2.5/FBX__huesitos.fbx.assbin.regress"}) {
        const std::string file = fixture_path(name).string();
        const auto one = run_cli({"info", "--json", "--jobs", "1", file});
        BOOST_TEST_REQUIRE(one.exit_code == 0);
        BOOST_TEST(contains(one.out, "\"bounds\""));
        BOOST_TEST(run_cli({"info", "--json", "--jobs", "3", file}).out == one.out);
        BOOST_TEST(run_cli({"info", "--json", file}).out == one.out); // default: one per core
        BOOST_TEST(run_cli({"info", "-j", "2", file}).out == run_cli({"info", "-j", "1", file}).out);
    }
    const auto zero =
        run_cli({"info", "--jobs", "0", fixture_path("assimp-5.2.5/COB__dwarf.cob.assbin").string()});
    BOOST_TEST(zero.exit_code == 2);
    BOOST_TEST(contains(zero.err, "--jobs must be 1..1024"));
}

BOOST_AUTO_TEST_CASE(info_json_reports_the_counts) {
    const auto result =
        run_cli({"info", "--json", fixture_path("assimp-5.2.5/FBX__huesitos.fbx.assbin").string()});
    BOOST_TEST_REQUIRE(result.exit_code == 0);
    const auto json = nlohmann::json::parse(result.out);
    // MANIFEST.tsv row of FBX/huesitos.fbx.assbin.
    BOOST_TEST(number(json, "counts.meshes") == 1);
    BOOST_TEST(number(json, "counts.nodes") == 16);
    BOOST_TEST(number(json, "counts.vertices") == 256);
    BOOST_TEST(number(json, "counts.faces") == 68);
    BOOST_TEST(number(json, "counts.bones") == 9);
    BOOST_TEST(number(json, "counts.animation_channels") == 10);
    BOOST_TEST(number(json, "counts.metadata_entries") == 66);
    BOOST_TEST(text(json, "header.compile_flags") == "0x15");
    BOOST_TEST(boolean(json, "layout.node_metadata"));
    const auto& mesh = at(json, "meshes").front();
    BOOST_TEST(text(mesh, "component_mask") == "0x107");
    BOOST_TEST(number(mesh, "bone_weights") == 644);
    BOOST_TEST(number(mesh, "max_index") == 255);
    BOOST_TEST(number(mesh, "face_sizes.3") == 16);
    BOOST_TEST(number(mesh, "face_sizes.n") == 52);
}

BOOST_AUTO_TEST_CASE(tree_lists_chunks_with_offsets_and_identifying_fields) {
    const auto result = run_cli({"tree", fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin").string()});
    BOOST_TEST(result.exit_code == 0);
    BOOST_TEST(contains(result.out, "       512"));
    BOOST_TEST(contains(result.out, "SCENE  flags=0  meshes=1"));
    BOOST_TEST(contains(result.out, "MESH  vertices=3  faces=1  bones=1"));
    BOOST_TEST(contains(result.out, "BONE  name="));
    BOOST_TEST(contains(result.out, "NODEANIM  node="));
    const auto shallow =
        run_cli({"tree", "--depth", "1", fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin").string()});
    BOOST_TEST(!contains(shallow.out, "MESH"));
    const auto json = nlohmann::json::parse(
        run_cli({"tree", "--json", fixture_path("assimp-5.2.5/SMD__triangle.smd.assbin").string()}).out);
    BOOST_TEST(text(at(json, "chunks").front(), "name") == "SCENE");
    BOOST_TEST(at(json, "error").is_null());
}

BOOST_AUTO_TEST_CASE(tree_shows_old_short_mesh_lengths) {
    const auto result =
        run_cli({"tree", fixture_path("older/assimp-5.0.1__models_X_anim_test.x.dump.assbin").string()});
    BOOST_TEST(result.exit_code == 0);
    BOOST_TEST(contains(result.out, "short length of assimp_cmd <= 5.0.1"));
}

BOOST_AUTO_TEST_CASE(a_damaged_file_prints_the_tree_up_to_the_damage_then_exits_2) {
    assbin_test::TempDir temp;
    const auto bytes = assbin_test::fixture_bytes("assimp-5.2.5/FBX__huesitos.fbx.assbin");
    // Cut inside the first MATERIAL chunk: the SCENE, its nodes and the mesh are intact.
    const std::string cut = (temp.path() / "cut.assbin").string();
    std::ofstream(cut, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), 26000);
    const auto tree = run_cli({"tree", cut});
    BOOST_TEST(tree.exit_code == 2);
    BOOST_TEST(contains(tree.out, "SCENE"));
    BOOST_TEST(contains(tree.out, "incomplete"));
    BOOST_TEST(contains(tree.out, "MESH  vertices=256"));
    BOOST_TEST(contains(tree.err, "assbin: error: " + cut + ": at byte "));
    // The cause first, then what the reader met where the bytes ran out.
    BOOST_TEST(contains(tree.err, "at byte 25533 in scene: the file is cut short"), tree.err);
    BOOST_TEST(contains(tree.err, "; reading stopped here: MATERIAL"), tree.err);
    const auto info = run_cli({"info", cut});
    BOOST_TEST(info.exit_code == 2);
    BOOST_TEST(contains(info.err, cut));
    BOOST_TEST(info.out.empty());
}

BOOST_AUTO_TEST_CASE(missing_and_foreign_files_exit_2_with_a_message) {
    const auto missing = run_cli({"info", "/nonexistent/model.assbin"});
    BOOST_TEST(missing.exit_code == 2);
    BOOST_TEST(contains(missing.err, "/nonexistent/model.assbin: no such file"));
    const auto foreign = run_cli({"tree", fixture_path("corpus-expected-failures.txt").string()});
    BOOST_TEST(foreign.exit_code == 2);
    BOOST_TEST(contains(foreign.err, "not an ASSBIN dump"));
}

BOOST_AUTO_TEST_SUITE_END()
