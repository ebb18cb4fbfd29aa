// `assbin aem-info` on a 2025-layout file: the layout, the textures with their MIP chains, typed
// materials, named joints and tracks, validation and posing, in text and JSON (read with a JSON
// library, so numbers must be numbers).
#include "aem_fixtures.hpp"
#include "support/fixtures.hpp"

#include <aem/io.hpp>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <string>

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

struct File2025 {
    assbin_test::TempDir dir;
    std::string path = (dir / "joints.aem").string();
    File2025() { aem::write_file(assbin_test::make_two_joint_model(), path); }
};

} // namespace

BOOST_AUTO_TEST_SUITE(aem_info_2025)

BOOST_AUTO_TEST_CASE(text_shows_the_layout_textures_materials_and_joints) {
    const File2025 file;
    const auto run = assbin_test::run_cli({"aem-info", file.path, "--validate"});
    BOOST_TEST_INFO(run.out << run.err);
    BOOST_TEST(run.exit_code == 0);
    BOOST_TEST(contains(run.out, "AEM version 1, 2025 layout, 1,570 bytes"));
    BOOST_TEST(contains(run.out, "  image bytes     58\n"));
    BOOST_TEST(
        contains(run.out, "texture   size  channels  compression  MIP levels  bytes  offset  wrap x, y"));
    BOOST_TEST(
        contains(run.out, "      0  4 x 2         4  none                  3     44       0  repeat, clamp"));
    BOOST_TEST(contains(run.out, "       1  transparent  #2 1x1"));
    BOOST_TEST(contains(run.out, "\njoints\n"));
    BOOST_TEST(contains(run.out, "\"arm\""));
    BOOST_TEST(contains(run.out, "validation: valid, no violations"));
}

BOOST_AUTO_TEST_CASE(pose_works_for_the_2025_layout) {
    const File2025 file;
    const auto run = assbin_test::run_cli({"aem-info", file.path, "--pose", "bend", "1"});
    BOOST_TEST(run.exit_code == 0);
    BOOST_TEST(contains(run.out, "pose"));
}

BOOST_AUTO_TEST_CASE(json_has_typed_texture_and_joint_fields) {
    const File2025 file;
    const auto run = assbin_test::run_cli({"aem-info", file.path, "--json"});
    BOOST_TEST_REQUIRE(run.exit_code == 0);
    const nlohmann::json json = nlohmann::json::parse(run.out);
    BOOST_TEST(json.at("layout").get<std::string>() == "2025");
    BOOST_TEST(json.at("counts").at("image_bytes").get<int>() == 58);
    BOOST_TEST(json.at("counts").at("joints").get<int>() == 2);
    BOOST_TEST(json.at("counts").at("tracks").get<int>() == 2);
    const nlohmann::json& texture = json.at("textures").at(1);
    BOOST_TEST(texture.at("width").is_number_unsigned());
    BOOST_TEST(texture.at("channels").get<int>() == 2);
    BOOST_TEST(texture.at("mip_levels").get<int>() == 2);
    BOOST_TEST(texture.at("bytes").get<int>() == 10);
    BOOST_TEST(texture.at("compression").get<std::string>() == "none");
    BOOST_TEST(json.at("materials").at(1).at("type").get<std::string>() == "transparent");
    BOOST_TEST(json.at("materials").at(1).at("pbr").at("texture").get<int>() == 2);
    BOOST_TEST(json.at("bones").at(1).at("name").get<std::string>() == "arm");
}

BOOST_AUTO_TEST_SUITE_END()
