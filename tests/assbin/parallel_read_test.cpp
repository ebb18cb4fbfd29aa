// Meshes decoded on several threads (ReadOptions::threads): the same scene, the same skipped chunks
// in the same order, and the same error at the same byte as a read on one thread, whatever the
// damage. parallel_mesh_bytes = 0 sends every scene of two or more meshes through the parallel read.
#include "support/crafted_scenes.hpp"
#include "support/data_test_case.hpp"
#include "support/fixtures.hpp"

#include <assbin/compare.hpp>
#include <assbin/writer.hpp>

#include <chrono>
#include <cstring>
#include <optional>

using namespace assbin_test;
using assbin::ErrorCode;

namespace {

assbin::ReadOptions on_threads(unsigned threads, assbin::ReadOptions options = {}) {
    options.threads = threads;
    options.parallel_mesh_bytes = 0;
    return options;
}

std::vector<std::byte> written(const assbin::Scene& scene) {
    assbin::WriteOptions options;
    options.shortened = scene.is_shortened();
    options.time = std::chrono::system_clock::time_point{};
    return assbin::write(scene, options);
}

void check_same_scene(const assbin::Scene& one, const assbin::Scene& many) {
    assbin::CompareOptions exact;
    exact.epsilon = 0;
    BOOST_TEST(assbin::compare(many, one, exact).same());
    BOOST_TEST((written(many) == written(one))); // every byte, layout facts included
    BOOST_TEST_REQUIRE(many.skipped_chunks.size() == one.skipped_chunks.size());
    for (size_t i = 0; i < one.skipped_chunks.size(); ++i) {
        BOOST_TEST(many.skipped_chunks[i].offset == one.skipped_chunks[i].offset);
        BOOST_TEST(many.skipped_chunks[i].id == one.skipped_chunks[i].id);
        BOOST_TEST(many.skipped_chunks[i].path == one.skipped_chunks[i].path);
    }
}

// Reads on one thread and on `threads`: both succeed with the same scene, or both fail alike.
// Returns the error when they fail.
std::optional<assbin::ParseError> check_same_outcome(std::span<const std::byte> bytes, unsigned threads,
                                                     const assbin::ReadOptions& base = {}) {
    std::optional<assbin::Scene> one, many;
    std::optional<assbin::ParseError> one_error, many_error;
    try {
        one = assbin::read_scene(bytes, base);
    } catch (const assbin::ParseError& e) {
        one_error = e;
    }
    try {
        many = assbin::read_scene(bytes, on_threads(threads, base));
    } catch (const assbin::ParseError& e) {
        many_error = e;
    }
    BOOST_TEST_REQUIRE(one_error.has_value() == many_error.has_value());
    if (one_error) {
        BOOST_TEST(many_error->code() == one_error->code());
        BOOST_TEST(many_error->offset() == one_error->offset());
        BOOST_TEST(many_error->chunk_path() == one_error->chunk_path());
        BOOST_TEST(many_error->message() == one_error->message());
        return one_error;
    }
    check_same_scene(*one, *many);
    return std::nullopt;
}

// An unknown chunk of `payload` bytes (readers step over it and report it).
Bytes unknown_chunk(uint32_t id, uint32_t payload) {
    Bytes chunk(8 + size_t{payload}, std::byte{0x5a});
    std::memcpy(chunk.data(), &id, 4);
    std::memcpy(chunk.data() + 4, &payload, 4);
    return chunk;
}

// `count` meshes of different sizes; every third has two bones, every fourth ends with an unknown
// chunk (stepped over and reported), every fifth has quads.
SceneSpec many_meshes(uint32_t count) {
    SceneSpec s;
    std::vector<uint32_t> all;
    for (uint32_t m = 0; m < count; ++m) {
        const uint32_t n = 6 + 7 * (m % 5) + m;
        MeshSpec mesh;
        mesh.positions = ramp3(n, 0.5f + float(m), float(m));
        mesh.normals = ramp3(n, -0.25f, 1.0f);
        if (m % 2 == 0) mesh.uvs = {{2, ramp3(n, 0.01f * float(m + 1))}};
        for (uint32_t f = 0; f + 3 < n; f += 2) {
            if (m % 5 == 4)
                mesh.faces.push_back({f, f + 1, f + 2, f + 3});
            else
                mesh.faces.push_back({f, f + 1, f + 2});
        }
        mesh.primitive_types = m % 5 == 4 ? 8 : 4;
        if (m % 3 == 0) {
            BoneSpec a, b;
            a.name = "bone a of mesh " + std::to_string(m);
            a.weights = {{0, 1.0f}, {1, 0.5f}};
            b.name = "bone b";
            b.weights = {{n - 1, 0.25f}};
            mesh.bones = {a, b};
        }
        if (m % 4 == 3) mesh.trailing = unknown_chunk(0x7e57, 4 + m);
        s.meshes.push_back(std::move(mesh));
        all.push_back(m);
    }
    s.root = make_node("root", all);
    s.materials.push_back({{prop_string("?mat.name", "only")}, std::nullopt});
    return s;
}

} // namespace

BOOST_AUTO_TEST_SUITE(parallel_read)

BOOST_DATA_TEST_CASE(every_fixture_reads_the_same_on_two_and_three_threads, fixtures(all_assbin_fixtures()),
                     name) {
    const std::vector<std::byte> bytes = fixture_bytes(name);
    BOOST_TEST(!check_same_outcome(bytes, 2).has_value());
    BOOST_TEST(!check_same_outcome(bytes, 3).has_value());
}

BOOST_AUTO_TEST_CASE(bones_and_unknown_chunks_inside_meshes_come_out_in_file_order) {
    const Dump d = build_dump(many_meshes(24), WriterProfile::p5());
    for (unsigned threads : {2u, 4u, 0u}) // 0: one per core
        BOOST_TEST(!check_same_outcome(d.bytes, threads).has_value());
    assbin::ReadReport report;
    assbin::ReadOptions options = on_threads(4);
    options.report = &report;
    const assbin::Scene scene = read_dump(d.bytes, options);
    // The parallel path ran and kept its meshes (a reader that always fell back would pass the
    // equality checks above, not this).
    BOOST_TEST(report.meshes_read_in_parallel == 24u);
    BOOST_TEST(!report.parallel_read_gave_way);
    BOOST_TEST_REQUIRE(scene.skipped_chunks.size() == 6u); // meshes 3, 7, 11, 15, 19, 23
    for (size_t i = 0; i < scene.skipped_chunks.size(); ++i) {
        BOOST_TEST(scene.skipped_chunks[i].path == "scene/mesh[" + std::to_string(4 * i + 3) + "]");
        BOOST_TEST(scene.skipped_chunks[i].offset ==
                   d.chunk(scene.skipped_chunks[i].path).end() - 12 - 4 * i - 3);
    }
    BOOST_TEST(scene.meshes[9].bones[0].name == "bone a of mesh 9");
    BOOST_TEST(scene.meshes[4].faces.face_size(0) == 4u);
}

BOOST_AUTO_TEST_CASE(the_default_threshold_keeps_small_scenes_on_one_thread_and_large_ones_alike) {
    // 40 meshes of about 40 KB each: past the default 1 MB, so the parallel read runs by default.
    SceneSpec s = many_meshes(40);
    for (uint32_t m = 0; m < 40; ++m) {
        s.meshes[m].positions = ramp3(2000, 0.5f, float(m));
        s.meshes[m].normals = ramp3(2000, 0.25f);
        s.meshes[m].uvs.clear();
        s.meshes[m].bones.clear();
    }
    const Dump d = build_dump(s, WriterProfile::p5());
    BOOST_TEST_REQUIRE(d.body.size() > (size_t{1} << 20));
    assbin::ReadReport report;
    assbin::ReadOptions defaults;
    defaults.threads = 2;
    defaults.report = &report;
    const assbin::Scene one = read_dump(d.bytes), many = read_dump(d.bytes, defaults);
    check_same_scene(one, many);
    BOOST_TEST(report.meshes_read_in_parallel == 40u);
    // A small scene stays on one thread by default, though two are allowed.
    read_dump(build_dump(many_meshes(6), WriterProfile::p5()).bytes, defaults);
    BOOST_TEST(report.meshes_read_in_parallel == 0u);
    BOOST_TEST(!report.parallel_read_gave_way);
}

BOOST_AUTO_TEST_CASE(damage_in_a_later_mesh_fails_at_the_same_byte_with_the_same_words) {
    SceneSpec s = many_meshes(12);
    s.meshes[7].declared_faces = 100000; // more faces than the mesh holds
    const Dump d = build_dump(s, WriterProfile::p5());
    const std::optional<assbin::ParseError> error = check_same_outcome(d.bytes, 2);
    BOOST_TEST_REQUIRE(error.has_value());
    BOOST_TEST(error->chunk_path() == "scene/mesh[7]");
    // The threads met the damage and gave way; the one-thread read reported it.
    assbin::ReadReport report;
    assbin::ReadOptions options = on_threads(2);
    options.report = &report;
    BOOST_CHECK_THROW(read_dump(d.bytes, options), assbin::ParseError);
    BOOST_TEST(report.parallel_read_gave_way);
    BOOST_TEST(report.meshes_read_in_parallel == 0u);
}

BOOST_AUTO_TEST_CASE(of_two_damaged_meshes_the_first_in_the_file_is_reported) {
    SceneSpec s = many_meshes(12);
    s.meshes[3].declared_faces = 100000;
    s.meshes[10].length_override = 4; // cuts the mesh inside its fields
    const Dump d = build_dump(s, WriterProfile::p5());
    for (unsigned threads : {2u, 5u}) {
        const std::optional<assbin::ParseError> error = check_same_outcome(d.bytes, threads);
        BOOST_TEST_REQUIRE(error.has_value());
        BOOST_TEST(error->chunk_path() == "scene/mesh[3]");
    }
}

BOOST_AUTO_TEST_CASE(a_damaged_bone_inside_a_mesh_fails_alike) {
    SceneSpec s = many_meshes(9);
    s.meshes[6].bones[1].declared_weights = 5000;
    const Dump d = build_dump(s, WriterProfile::p5());
    const std::optional<assbin::ParseError> error = check_same_outcome(d.bytes, 3);
    BOOST_TEST_REQUIRE(error.has_value());
    BOOST_TEST(error->chunk_path() == "scene/mesh[6]/bone[1]");
}

BOOST_AUTO_TEST_CASE(the_allocation_cap_passed_by_all_meshes_together_fails_at_the_same_mesh) {
    const Dump d = build_dump(many_meshes(30), WriterProfile::p5());
    // No allowance and the body's own size: the meshes' arrays, faces and records pass it partway.
    assbin::ReadOptions tight;
    tight.limits.max_allocation_ratio = 1;
    tight.limits.max_allocation_allowance = 0;
    const std::optional<assbin::ParseError> error = check_same_outcome(d.bytes, 2, tight);
    BOOST_TEST_REQUIRE(error.has_value());
    BOOST_TEST(error->code() == ErrorCode::LimitExceeded);
    BOOST_TEST(error->chunk_path().rfind("scene/mesh[", 0) == 0);
    BOOST_TEST(error->chunk_path() != "scene/mesh[0]"); // the sum passes it, not any one mesh
}

BOOST_AUTO_TEST_CASE(an_unknown_chunk_before_the_meshes_is_read_as_on_one_thread) {
    SceneSpec s = many_meshes(6);
    s.after_root = unknown_chunk(0x7e58, 16);
    const Dump d = build_dump(s, WriterProfile::p5());
    BOOST_TEST(!check_same_outcome(d.bytes, 2).has_value());
    BOOST_TEST(read_dump(d.bytes, on_threads(2)).skipped_chunks.front().path == "scene");
}

BOOST_AUTO_TEST_CASE(array_views_and_structure_only_reads_on_threads_match_one_thread) {
    const Dump d = build_dump(many_meshes(10), WriterProfile::p5());
    assbin::ReadOptions views;
    views.array_views = true;
    const assbin::Scene one = read_dump(d.bytes, views), many = read_dump(d.bytes, on_threads(2, views));
    BOOST_TEST(many.meshes[4].positions->values.empty()); // left in the bytes, as on one thread
    BOOST_TEST(many.meshes[4].positions->records().size() == one.meshes[4].positions->records().size());
    check_same_scene(one, many);
    assbin::ReadOptions structure;
    structure.structure_only = true;
    const assbin::Scene walked = read_dump(d.bytes, on_threads(2, structure));
    BOOST_TEST(walked.meshes.size() == 10u);
    BOOST_TEST(walked.meshes[9].bones.size() == 2u);
}

BOOST_AUTO_TEST_CASE(old_short_mesh_lengths_and_shortened_dumps_read_alike) {
    SceneSpec s = many_meshes(8);
    for (MeshSpec& mesh : s.meshes)
        mesh.trailing.clear(); // old short lengths leave no room to find unknown chunks in a mesh
    for (WriterProfile profile : {WriterProfile::p1(), WriterProfile::p2(), WriterProfile::p5()}) {
        BOOST_TEST(!check_same_outcome(build_dump(s, profile).bytes, 2).has_value());
        BOOST_TEST(!check_same_outcome(build_dump(s, profile.with_shortened()).bytes, 2).has_value());
    }
}

BOOST_AUTO_TEST_SUITE_END()
