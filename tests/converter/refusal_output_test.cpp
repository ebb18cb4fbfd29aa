// Refusals (shortened dumps, no triangles, non-finite transforms) and rule 10: outputs written
// atomically, nothing partial left behind on failure.
#include "pipeline.hpp"
#include "scene_maker.hpp"
#include "support/fixtures.hpp"
#include "support/refusal_check.hpp"

#include <aem/io.hpp>
#include <aem/validate.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>

namespace fs = std::filesystem;

namespace {

using assbin::converter::convert;
using assbin::converter::ConvertOptions;
using assbin::converter::ConvertResult;
using assbin::converter::Refusal;
using assbin_test::refused_with;

assbin::Scene fixture(const std::string& name) {
    return assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/" + name));
}

std::vector<std::string> listing(const fs::path& folder) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

ConvertResult textured_result() {
    ConvertOptions options;
    options.texture_stem = "box";
    return convert(fixture("glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin"), options);
}

} // namespace

BOOST_AUTO_TEST_SUITE(refusal_output)

BOOST_AUTO_TEST_CASE(a_shortened_dump_is_refused) {
    BOOST_TEST(refused_with(fixture("FBX__huesitos.fbx.assbin.regress"), Refusal::Shortened, "shortened"));
}

BOOST_AUTO_TEST_CASE(a_scene_without_triangles_is_refused_saying_why) {
    BOOST_TEST(refused_with(fixture("OBJ__box_UTF16BE.obj.assbin"), Refusal::NoTriangles, "no meshes"));
    BOOST_TEST(refused_with(fixture("PLY__cube_binary_starts_with_nl.ply.assbin"), Refusal::NoTriangles,
                            "only 1 point, 5 empty faces"));
    assbin_test::SceneMaker s;
    s.mesh({{0, 0, 0}, {1, 0, 0}}, {{0, 1}});
    s.material();
    s.node("root", -1, assbin::Matrix4::Identity(), {0});
    BOOST_TEST(refused_with(s.scene, Refusal::NoTriangles, "only 1 line"));
}

// glTF holds nodes, cameras, lights, lines and points without any triangle: what AEM refuses for
// having none is a glTF file (Khronos's validator holds the fixtures' files: gltf_out).
BOOST_AUTO_TEST_CASE(a_scene_without_triangles_is_a_gltf_file) {
    ConvertOptions glb;
    glb.format = assbin::converter::OutputFormat::Glb;
    const ConvertResult empty = convert(fixture("OBJ__box_UTF16BE.obj.assbin"), glb);
    BOOST_TEST(empty.encoded.size() > 0u);
    BOOST_TEST(empty.stats.nodes > 0u);
    BOOST_TEST(empty.stats.triangles == 0u);
    const ConvertResult points = convert(fixture("PLY__cube_binary_starts_with_nl.ply.assbin"), glb);
    BOOST_TEST(points.stats.points == 1u);
    assbin_test::SceneMaker s;
    s.mesh({{0, 0, 0}, {1, 0, 0}}, {{0, 1}});
    s.material();
    s.node("root", -1, assbin::Matrix4::Identity(), {0});
    BOOST_TEST(assbin::converter::convert(s.scene, glb).stats.lines == 1u);
}

BOOST_AUTO_TEST_CASE(a_non_finite_transform_on_a_mesh_node_is_refused) {
    assbin_test::SceneMaker s;
    s.triangle();
    s.material();
    assbin::Matrix4 broken = assbin::Matrix4::Identity();
    broken(0, 3) = std::numeric_limits<float>::infinity();
    s.node("root", -1, broken, {0});
    BOOST_TEST(refused_with(s.scene, Refusal::NonFinite, "'root'"));
}

// Found by fuzz_convert once Internal refusals abort it: finite positions that a finite transform
// takes past float's range (here 3e30 x a scale of 3e30) are the input's fault, refused as NonFinite
// naming the node, not a broken model caught at the end as a converter bug.
BOOST_AUTO_TEST_CASE(positions_placed_beyond_float_range_are_refused_naming_the_node) {
    assbin_test::SceneMaker s;
    s.mesh({{0, 0, 0}, {3e30f, 0, 0}, {0, 1, 0}}, {{0, 1, 2}});
    s.material();
    assbin::Matrix4 huge = assbin::Matrix4::Identity();
    huge(0, 0) = 3e30;
    s.node("giant", -1, huge, {0});
    BOOST_TEST(
        refused_with(s.scene, Refusal::NonFinite, "'giant' places 1 of mesh 0's vertex positions beyond"));
}

// Large but finite coordinates are fine: the final check once summed a vertex's floats in float,
// where 3e38 + 3e38 overflowed and a valid model was refused as a converter bug (fuzz_convert).
BOOST_AUTO_TEST_CASE(large_finite_positions_convert) {
    assbin_test::SceneMaker s;
    s.mesh({{3e38f, 3e38f, 0}, {3e38f, 0, 3e38f}, {0, 3e38f, 3e38f}}, {{0, 1, 2}});
    s.material();
    s.node("root", -1, assbin::Matrix4::Identity(), {0});
    const ConvertResult result = assbin::converter::convert(s.scene);
    BOOST_TEST(result.model.indices.size() == 3u);
    BOOST_TEST(aem::validate(result.model).empty());
}

BOOST_AUTO_TEST_CASE(the_model_and_its_textures_are_written_and_read_back) {
    assbin_test::TempDir temp;
    const ConvertResult result = textured_result();
    assbin::converter::write_output(result, temp.path() / "box.aem");
    BOOST_TEST((listing(temp.path()) == std::vector<std::string>{"box.aem", "box_0.png"}));
    const aem::Model back = aem::read_file(temp.path() / "box.aem");
    BOOST_TEST((back == result.model));
    BOOST_TEST(aem::validate(back).empty());
    std::ifstream png(temp.path() / "box_0.png", std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(png)), std::istreambuf_iterator<char>());
    BOOST_TEST(bytes.size() == result.textures[0].bytes.size());
}

BOOST_AUTO_TEST_CASE(a_failed_model_rename_leaves_nothing_behind) {
    assbin_test::TempDir temp;
    fs::create_directories(temp.path() / "box.aem" / "occupied"); // the model's name is a non-empty folder
    BOOST_CHECK_THROW(assbin::converter::write_output(textured_result(), temp.path() / "box.aem"),
                      aem::Error);
    BOOST_TEST((listing(temp.path()) == std::vector<std::string>{"box.aem"}));
    BOOST_TEST(fs::is_directory(temp.path() / "box.aem"));
}

BOOST_AUTO_TEST_CASE(a_failed_texture_write_leaves_no_model_and_no_temporary) {
    assbin_test::TempDir temp;
    fs::create_directories(temp.path() / "box_0.png" /
                           "occupied"); // the texture's name is a non-empty folder
    BOOST_CHECK_THROW(assbin::converter::write_output(textured_result(), temp.path() / "box.aem"),
                      aem::Error);
    BOOST_TEST((listing(temp.path()) == std::vector<std::string>{"box_0.png"}));
}

// A model of several writeback steps (AtomicFile hands each 8 MiB written to the disk while the rest
// is written): every byte arrives, in order, and the file reads back whole.
BOOST_AUTO_TEST_CASE(a_model_larger_than_the_writeback_step_reads_back_whole) {
    assbin_test::TempDir temp;
    ConvertResult result = textured_result();
    aem::Model& model = result.model;
    const size_t original = model.vertices.size();
    model.vertices.resize(250'000); // 23 MB of vertices: two steps and a remainder
    for (size_t v = original; v < model.vertices.size(); ++v) {
        model.vertices[v] = model.vertices[v % original];
        model.vertices[v].position.x() = static_cast<float>(v); // each record tells where it belongs
    }
    assbin::converter::write_output(result, temp.path() / "box.aem");
    BOOST_TEST(fs::file_size(temp.path() / "box.aem") > size_t{16} << 20);
    BOOST_TEST((aem::read_file(temp.path() / "box.aem") == model));
}

BOOST_AUTO_TEST_CASE(an_existing_output_is_replaced_whole) {
    assbin_test::TempDir temp;
    std::ofstream(temp.path() / "box.aem") << "old content";
    assbin::converter::write_output(textured_result(), temp.path() / "box.aem");
    BOOST_TEST((aem::read_file(temp.path() / "box.aem") == textured_result().model));
}

// A batch (OutputBatch, what `convert` uses for a folder): outputs written to temporaries one by one,
// put in place together by commit, each whole or not at all.
void add_to_three_folders(assbin::converter::OutputBatch& batch, const ConvertResult& result,
                          const fs::path& root) {
    for (const char* folder : {"a", "b", "c"}) {
        fs::create_directories(root / folder);
        batch.add(result, root / folder / "box.aem");
    }
}

BOOST_AUTO_TEST_CASE(a_batch_puts_its_outputs_in_place_only_when_committed) {
    assbin_test::TempDir temp;
    const ConvertResult result = textured_result();
    assbin::converter::OutputBatch batch;
    add_to_three_folders(batch, result, temp.path());
    BOOST_TEST(batch.size() == 3u);
    for (const char* folder : {"a", "b", "c"}) { // only hidden temporaries so far
        for (const std::string& name : listing(temp.path() / folder))
            BOOST_TEST((name.front() == '.' && name.find(".tmp-") != std::string::npos), name);
    }
    const std::vector<std::string> errors = batch.commit();
    BOOST_TEST(errors.size() == 3u);
    BOOST_TEST(batch.size() == 0u);
    for (const char* folder : {"a", "b", "c"}) {
        BOOST_TEST(errors[static_cast<size_t>(folder[0] - 'a')].empty());
        BOOST_TEST((listing(temp.path() / folder) == std::vector<std::string>{"box.aem", "box_0.png"}));
        BOOST_TEST((aem::read_file(temp.path() / folder / "box.aem") == result.model));
    }
}

BOOST_AUTO_TEST_CASE(a_failed_output_of_a_batch_leaves_nothing_and_spares_the_others) {
    assbin_test::TempDir temp;
    const ConvertResult result = textured_result();
    assbin::converter::OutputBatch batch;
    add_to_three_folders(batch, result, temp.path());
    fs::create_directories(temp.path() / "b" / "box.aem" / "occupied"); // b's model cannot be renamed
    const std::vector<std::string> errors = batch.commit();
    BOOST_TEST(errors[0].empty());
    BOOST_TEST(errors[1].find("box.aem") != std::string::npos, errors[1]);
    BOOST_TEST(errors[2].empty());
    BOOST_TEST(
        (listing(temp.path() / "b") == std::vector<std::string>{"box.aem"})); // no texture, no temporary
    BOOST_TEST(fs::is_directory(temp.path() / "b" / "box.aem"));
    for (const char* folder : {"a", "c"})
        BOOST_TEST((aem::read_file(temp.path() / folder / "box.aem") == result.model));
}

// A batch of four files or fewer (here a model and its texture) flushes each file rather than the
// file system: the same outcome, each output whole or not at all.
BOOST_AUTO_TEST_CASE(a_batch_of_a_few_files_puts_them_in_place_file_by_file) {
    assbin_test::TempDir temp;
    const ConvertResult result = textured_result();
    assbin::converter::OutputBatch batch;
    batch.add(result, temp.path() / "box.aem");
    const std::vector<std::string> errors = batch.commit();
    BOOST_TEST_REQUIRE(errors.size() == 1u);
    BOOST_TEST(errors[0].empty(), errors[0]);
    BOOST_TEST((listing(temp.path()) == std::vector<std::string>{"box.aem", "box_0.png"}));
    BOOST_TEST((aem::read_file(temp.path() / "box.aem") == result.model));

    // A folder where the model goes is refused when the model is added (nothing of it is kept) ...
    fs::create_directories(temp.path() / "again" / "box.aem" / "occupied");
    BOOST_CHECK_EXCEPTION(
        batch.add(result, temp.path() / "again" / "box.aem"), aem::Error,
        [](const aem::Error& e) { return std::string(e.what()).find("is a folder") != std::string::npos; });
    BOOST_TEST((listing(temp.path() / "again") == std::vector<std::string>{"box.aem"}));
    fs::remove_all(temp.path() / "again" / "box.aem");
    // ... and one that appears between the writing and the commit fails the commit, with no texture left.
    batch.add(result, temp.path() / "again" / "box.aem");
    fs::create_directories(temp.path() / "again" / "box.aem" / "occupied"); // the model cannot be renamed
    const std::vector<std::string> failed = batch.commit();
    BOOST_TEST_REQUIRE(failed.size() == 1u);
    BOOST_TEST(failed[0].find("box.aem") != std::string::npos, failed[0]);
    BOOST_TEST((listing(temp.path() / "again") == std::vector<std::string>{"box.aem"})); // no texture left
}

BOOST_AUTO_TEST_CASE(a_batch_given_up_before_its_commit_leaves_nothing) {
    assbin_test::TempDir temp;
    {
        assbin::converter::OutputBatch batch;
        batch.add(textured_result(), temp.path() / "box.aem");
        BOOST_TEST(listing(temp.path()).size() == 2u); // the texture's and the model's temporaries
    }
    BOOST_TEST(listing(temp.path()).empty());
}

BOOST_AUTO_TEST_SUITE_END()

// convert(Scene&&), what the program calls: the scene's meshes are released once baked, the model
// is the one convert(const Scene&) makes.
BOOST_AUTO_TEST_SUITE(owned_scene)

BOOST_AUTO_TEST_CASE(a_scene_given_up_converts_to_the_same_model_and_loses_its_meshes) {
    for (const char* name :
         {"glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin", "FBX__huesitos.fbx.assbin"}) {
        const assbin::Scene scene = fixture(name);
        const ConvertResult kept = convert(scene);
        assbin::Scene given = fixture(name);
        const ConvertResult released = convert(std::move(given));
        BOOST_TEST((released.model == kept.model), name);
        BOOST_TEST((released.warnings == kept.warnings), name);
        BOOST_TEST(given.meshes.empty(), name); // NOLINT(bugprone-use-after-move): what is left is documented
        BOOST_TEST(!scene.meshes.empty());
    }
}

BOOST_AUTO_TEST_SUITE_END()

// The last safety net of convert(): a model that breaks an AEM invariant is refused as Internal (a
// converter bug), never returned or written. Fed here with a good model broken on purpose, one
// invariant at a time, since a correct converter never makes one.
BOOST_AUTO_TEST_SUITE(internal_refusal)

BOOST_AUTO_TEST_CASE(a_broken_model_is_refused_as_a_converter_bug) {
    const aem::Model good =
        assbin::converter::convert(
            assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/FBX__huesitos.fbx.assbin")))
            .model;
    BOOST_CHECK_NO_THROW(assbin::converter::detail::check_model(good, true));
    const auto refused_as_internal = [](const aem::Model& model, bool vertices_valid) {
        try {
            assbin::converter::detail::check_model(model, vertices_valid);
        } catch (const assbin::converter::ConvertError& error) {
            return error.refusal() == assbin::converter::Refusal::Internal &&
                   std::string(error.what()).find("a converter bug") != std::string::npos;
        }
        return false;
    };
    aem::Model index_past_the_vertices = good;
    index_past_the_vertices.indices[4] = static_cast<uint32_t>(good.vertices.size());
    BOOST_TEST(refused_as_internal(index_past_the_vertices, true));
    aem::Model mesh_past_the_indices = good;
    mesh_past_the_indices.meshes.back().index_count += 3;
    BOOST_TEST(refused_as_internal(mesh_past_the_indices, true));
    aem::Model material_missing = good;
    material_missing.meshes.front().material = static_cast<uint32_t>(good.materials.size());
    BOOST_TEST(refused_as_internal(material_missing, true));
    aem::Model bone_after_its_child = good;
    BOOST_TEST_REQUIRE(good.bones.size() > 2u);
    bone_after_its_child.bones[1].parent = 2;
    BOOST_TEST(refused_as_internal(bone_after_its_child, true));
    BOOST_TEST(refused_as_internal(good, false)); // emit_geometry found a vertex outside the rules
}

BOOST_AUTO_TEST_SUITE_END()
