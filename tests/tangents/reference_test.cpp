// Named models whose tangents must be MikkTSpace's to 0.1 degree at every comparable corner, against
// answers of the reference (mikktspace_reference.js) stored in tests/data/tangents/: the Blender
// default cube (a fan across UV seams: 14 of its 36 corners used to be 60 degrees off), dwarf.cob
// (mirrored UV islands) and mar_rifle.uc (a node scaled 0.1, 0.1, 0.2: baking by the wrong matrix
// put tangents 35 degrees off). Converted in source order, whose triangles are stable.
// With Node and the pinned package installed (scripts/test.sh does), the live reference is asked too;
// ASSBIN_UPDATE_TANGENT_REFERENCES=1 rewrites the stored answers from it.
#define BOOST_TEST_MODULE tangents
// GCC 12 warns of overlapping copies inside Boost's BOOST_DATA_TEST_CASE name building (a known false
// positive of -Wrestrict in libstdc++'s string insert); nothing in this file copies strings so.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "tangent_reference.hpp"

#include "support/fixtures.hpp"
#include "support/heavy_shapes.hpp"
#include "support/skip.hpp"

#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <ostream>
#include <string>

namespace {

using namespace assbin_test::tangents;
namespace fs = std::filesystem;

struct NamedModel {
    const char* fixture;     // under tests/data/assimp-5.2.5/
    size_t comparable_least; // corners the comparison must at least cover
};
std::ostream& operator<<(std::ostream& out, const NamedModel& model) {
    return out << model.fixture;
}

const NamedModel kNamedModels[] = {
    {"BLEND__BlenderDefault_250.blend.assbin", 36},
    {"COB__dwarf.cob.assbin", 5000},
    {"3D__mar_rifle.uc.assbin", 1000},
};

struct Converted {
    assbin::Scene scene;
    assbin::converter::ConvertResult result;
    std::vector<std::vector<uint32_t>> corners;
};

Converted convert_named(const std::string& fixture) {
    Converted out;
    out.scene = assbin::read_file(assbin_test::fixture_path("assimp-5.2.5") / fixture);
    assbin::converter::ConvertOptions options;
    options.optimize = false;
    options.record_vertex_origins = true;
    out.result = assbin::converter::convert(out.scene, options);
    out.corners = generated_corners(out.scene, out.result);
    return out;
}

bool live_reference_available() {
    return fs::exists(fs::path(ASSBIN_TANGENT_REFERENCE_DIR) / "node_modules/mikktspace/package.json") &&
           std::system("node --version > /dev/null 2>&1") == 0;
}

void expect_exact(const Agreement& a, size_t comparable_least) {
    BOOST_TEST(a.comparable >= comparable_least);
    BOOST_TEST(a.within_0_1 == a.comparable);
    BOOST_TEST(a.handedness_agrees == a.comparable);
    BOOST_TEST(a.reference_failed == 0u);
}

// The live reference asked about the converted triangles: every comparable corner within 0.1 degree.
void expect_live_reference_agrees(const Converted& converted, size_t comparable_least) {
    assbin_test::TempDir temp;
    write_request(temp.path() / "request", converted.result.model, converted.corners);
    run_reference("node", fs::path(ASSBIN_TANGENT_REFERENCE_DIR) / "mikktspace_reference.js",
                  temp.path() / "request", temp.path() / "response");
    expect_exact(compare(converted.result.model, converted.corners,
                         read_response(temp.path() / "response", converted.corners)),
                 comparable_least);
}

} // namespace

BOOST_DATA_TEST_CASE(stored_reference_answers_agree_to_a_tenth_of_a_degree, kNamedModels, model) {
    const Converted converted = convert_named(model.fixture);
    fs::path stored = assbin_test::fixture_path("tangents") / model.fixture;
    stored += ".mktr";
    if (std::getenv("ASSBIN_UPDATE_TANGENT_REFERENCES") && live_reference_available()) {
        const assbin_test::TempDir temp;
        write_request(temp.path() / "request", converted.result.model, converted.corners);
        run_reference("node", fs::path(ASSBIN_TANGENT_REFERENCE_DIR) / "mikktspace_reference.js",
                      temp.path() / "request", stored);
    }
    const auto reference = read_response(stored, converted.corners);
    expect_exact(compare(converted.result.model, converted.corners, reference), model.comparable_least);
}

BOOST_TEST_DECORATOR(*assbin_test::may_skip())
BOOST_DATA_TEST_CASE(the_live_reference_agrees_to_a_tenth_of_a_degree, kNamedModels, model) {
    if (!live_reference_available())
        assbin_test::skip_check("the live MikkTSpace reference: node or tests/tangents/node_modules missing "
                                "(npm ci there)");
    expect_live_reference_agrees(convert_named(model.fixture), model.comparable_least);
}

// A book: 400 pages on one hinge edge, the last quarter wound the other way (support/heavy_shapes.hpp).
// MikkTSpace pairs the hinge's pages across the edge, the first free page of the other winding
// each; the converter pairs them in one pass instead of a scan per page (a scan took 37 s for
// 100,000 pages): every page's frame must still be the reference's.
BOOST_AUTO_TEST_CASE(a_book_of_pages_on_one_edge_agrees_with_the_live_reference, *assbin_test::may_skip()) {
    if (!live_reference_available())
        assbin_test::skip_check("the live MikkTSpace reference: node or tests/tangents/node_modules missing "
                                "(npm ci there)");
    Converted converted;
    converted.scene = assbin::read_scene(
        assbin_test::build_dump(assbin_test::shapes::book(400), assbin_test::WriterProfile::p5()).bytes);
    assbin::converter::ConvertOptions options;
    options.optimize = false;
    options.record_vertex_origins = true;
    converted.result = assbin::converter::convert(converted.scene, options);
    converted.corners = generated_corners(converted.scene, converted.result);
    expect_live_reference_agrees(converted, 3 * 400);
}

// What makes each named model a test of something: the cube's corners meet across UV seams, the
// dwarf has mirrored UV islands (both orientations), the rifle's node scale is not uniform.
// Every stored answer in tests/data/tangents is one of a named model (an answer nothing compares
// proves nothing).
BOOST_AUTO_TEST_CASE(every_stored_answer_is_compared) {
    size_t answers = 0;
    for (const auto& entry : std::filesystem::directory_iterator(assbin_test::fixture_path("tangents"))) {
        ++answers;
        const std::string name = entry.path().filename().string();
        const bool named =
            std::any_of(std::begin(kNamedModels), std::end(kNamedModels), [&](const NamedModel& model) {
                return name == std::string(model.fixture) + ".mktr";
            });
        BOOST_TEST(named, name << " is in tests/data/tangents but no named model compares it");
    }
    BOOST_TEST(answers == std::size(kNamedModels));
}

BOOST_AUTO_TEST_CASE(the_named_models_hold_what_they_are_named_for) {
    const Converted cube = convert_named("BLEND__BlenderDefault_250.blend.assbin");
    BOOST_TEST(cube.corners.size() == 1u);
    BOOST_TEST(cube.corners[0].size() == 36u);

    const Converted dwarf = convert_named("COB__dwarf.cob.assbin");
    size_t preserving = 0, mirrored = 0;
    for (const aem::Vertex& v : dwarf.result.model.vertices)
        (v.bitangent.dot(v.normal.cross(v.tangent)) > 0 ? preserving : mirrored) += 1;
    BOOST_TEST(preserving > 100u);
    BOOST_TEST(mirrored > 100u);

    const Converted rifle = convert_named("3D__mar_rifle.uc.assbin");
    const auto& t = rifle.scene.nodes.at(0).transform;
    const double sx = std::hypot(t(0, 0), t(1, 0), t(2, 0)), sz = std::hypot(t(0, 2), t(1, 2), t(2, 2));
    BOOST_TEST(std::abs(sz / sx - 2.0) < 1e-3);
}
