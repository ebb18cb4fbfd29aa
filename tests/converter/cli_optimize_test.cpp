// The CLI side of game-ready geometry: `convert` reports what optimisation did and obeys
// --keep-meshes / --no-optimize; `aem-info` measures any AEM file's buffers (text and JSON, the JSON
// read with a real JSON library so that numbers must be numbers).
#include "support/fixtures.hpp"

#include <aem/io.hpp>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace {

namespace fs = std::filesystem;
using assbin_test::fixture_path;
using assbin_test::run_cli;
using assbin_test::TempDir;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

const std::string kSkinned = "assimp-5.2.5/FBX__huesitos.fbx.assbin";
const std::string kTwoMeshes = "assimp-5.2.5/ASE__anim.ASE.assbin";

} // namespace

BOOST_AUTO_TEST_SUITE(cli_optimize)

BOOST_AUTO_TEST_CASE(convert_reports_vertices_acmr_and_meshes_before_and_after) {
    TempDir temp;
    const auto result =
        run_cli({"convert", fixture_path(kSkinned).string(), "-o", (temp.path() / "a.aem").string()});
    BOOST_TEST(result.exit_code == 0);
    BOOST_TEST(contains(result.out,
                        "128 vertices, 120 triangles, 11 bones, 1 animation, 2 warnings; geometry: "
                        "256 -> 128 vertices, ACMR 2.133 -> 1.067, 1 -> 1 mesh"));
}

BOOST_AUTO_TEST_CASE(a_batch_prints_geometry_totals) {
    TempDir temp;
    const auto result =
        run_cli({"convert", fixture_path(kSkinned).string(), fixture_path(kTwoMeshes).string(), "--out-dir",
                 temp.path().string(), "--jobs", "1"});
    BOOST_TEST(result.exit_code == 0);
    BOOST_TEST(contains(result.out, "total: 2 converted, 0 failed"));
    BOOST_TEST(contains(result.out, "; geometry: "));
    BOOST_TEST(contains(result.out, "3 -> 2 meshes\n")); // 1 + 2 source meshes, one per file's material
}

BOOST_AUTO_TEST_CASE(keep_meshes_and_no_optimize_change_the_output_as_documented) {
    TempDir temp;
    const fs::path merged = temp.path() / "merged.aem", kept = temp.path() / "kept.aem",
                   plain = temp.path() / "plain.aem";
    BOOST_TEST(run_cli({"convert", fixture_path(kTwoMeshes).string(), "-o", merged.string()}).exit_code == 0);
    BOOST_TEST(run_cli({"convert", fixture_path(kTwoMeshes).string(), "-o", kept.string(), "--keep-meshes"})
                   .exit_code == 0);
    BOOST_TEST(run_cli({"convert", fixture_path(kTwoMeshes).string(), "-o", plain.string(), "--no-optimize"})
                   .exit_code == 0);
    BOOST_TEST(aem::read_file(merged).meshes.size() == 1u);
    BOOST_TEST(aem::read_file(kept).meshes.size() == 2u);
    const aem::Model source_order = aem::read_file(plain);
    BOOST_TEST(source_order.meshes.size() == 2u);
    BOOST_TEST(source_order.vertices.size() > aem::read_file(kept).vertices.size());
}

BOOST_AUTO_TEST_CASE(aem_info_measures_the_buffers_in_text_and_json) {
    TempDir temp;
    const fs::path plain = temp.path() / "plain.aem";
    BOOST_TEST(run_cli({"convert", fixture_path(kSkinned).string(), "-o", plain.string(), "--no-optimize"})
                   .exit_code == 0);
    const auto text = run_cli({"aem-info", plain.string()});
    BOOST_TEST(text.exit_code == 0);
    BOOST_TEST(contains(text.out, "mesh metrics"));
    BOOST_TEST(
        contains(text.out, "   mesh  vertices  triangles   ACMR   ATVR  overdraw  overfetch  weldable"));
    BOOST_TEST(contains(text.out, "  total       256        120  2.133"));

    const auto json_run = run_cli({"aem-info", plain.string(), "--json"});
    BOOST_TEST_REQUIRE(json_run.exit_code == 0);
    const nlohmann::json json = nlohmann::json::parse(json_run.out);
    const nlohmann::json& metrics = json.at("mesh_metrics");
    BOOST_TEST(metrics.at("cache_size").get<int>() == 16);
    BOOST_TEST_REQUIRE(metrics.at("meshes").is_array());
    BOOST_TEST(metrics.at("meshes").size() == 1u);
    const nlohmann::json& total = metrics.at("total");
    BOOST_TEST(total.at("measured").is_boolean());
    BOOST_TEST(total.at("vertices").is_number_unsigned());
    BOOST_TEST(total.at("vertices").get<int>() == 256);
    BOOST_TEST(total.at("weldable_vertices").get<int>() == 128); // what the default conversion welds
    BOOST_TEST(total.at("acmr").is_number_float());
    BOOST_TEST(total.at("acmr").get<double>() == 256.0 / 120.0, boost::test_tools::tolerance(1e-8));
    // Source order uses each of the 256 vertices once, in order: each is transformed once (ATVR 1)
    // and its 92-byte record fetched once (256 x 92 bytes, overfetch 1).
    BOOST_TEST(total.at("vertices_transformed").get<int>() == 256);
    BOOST_TEST(total.at("atvr").get<double>() == 1.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(total.at("bytes_fetched").get<int>() == 256 * 92);
    BOOST_TEST(total.at("overfetch").get<double>() == 1.0, boost::test_tools::tolerance(1e-12));
    // Overdraw is pixels shaded over pixels covered; the model draws something, and a closed
    // skinned figure seen from outside shades some pixels twice.
    const double covered = total.at("pixels_covered").get<double>(),
                 shaded = total.at("pixels_shaded").get<double>();
    BOOST_TEST(covered > 1000.0);
    BOOST_TEST(shaded > covered);
    BOOST_TEST(total.at("overdraw").get<double>() == shaded / covered, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_SUITE_END()
