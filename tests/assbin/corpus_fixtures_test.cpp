// Real dumps from tests/data (copied from the shared corpus): every writer profile the corpus
// holds, read and checked against the corpus tables and against their twins (compressed,
// shortened, other Assimp versions).
#include "support/data_test_case.hpp"
#include "support/fixtures.hpp"

#include <assbin/reader.hpp>
#include <assbin/validate.hpp>
#include <assbin/writer.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <set>

using assbin_test::fixture_bytes;
using assbin_test::fixture_path;

namespace {

assbin::Scene read_fixture(const std::string& name) {
    return assbin::read_file(fixture_path(name));
}

// Per-component bounds with the writer's rule (ASSBIN-FORMAT.md §5): start at +/-1e10.
assbin::Bounds<assbin::Vec3> writer_bounds(const std::vector<assbin::Vec3>& values) {
    assbin::Bounds<assbin::Vec3> bounds{assbin::Vec3::Constant(1e10f), assbin::Vec3::Constant(-1e10f)};
    for (const assbin::Vec3& v : values) {
        for (int i = 0; i < 3; ++i) {
            bounds.min[i] = bounds.min[i] < v[i] ? bounds.min[i] : v[i];
            bounds.max[i] = v[i] < bounds.max[i] ? bounds.max[i] : v[i];
        }
    }
    return bounds;
}

void check_same_geometry(const assbin::Scene& a, const assbin::Scene& b) {
    BOOST_TEST_REQUIRE(a.meshes.size() == b.meshes.size());
    for (size_t m = 0; m < a.meshes.size(); ++m) {
        const assbin::Mesh& x = a.meshes[m];
        const assbin::Mesh& y = b.meshes[m];
        BOOST_TEST(x.vertex_count == y.vertex_count);
        BOOST_TEST(x.component_mask() == y.component_mask());
        BOOST_TEST((x.positions->values == y.positions->values));
        BOOST_TEST((x.faces.indices == y.faces.indices));
        BOOST_TEST((x.faces.offsets == y.faces.offsets));
    }
    BOOST_TEST(a.nodes.size() == b.nodes.size());
    BOOST_TEST(a.materials.size() == b.materials.size());
}

} // namespace

BOOST_AUTO_TEST_SUITE(corpus_fixtures)

BOOST_AUTO_TEST_CASE(every_fixture_reads_to_the_end) {
    const std::vector<std::string> fixtures = assbin_test::all_assbin_fixtures();
    BOOST_TEST(fixtures.size() >= 35u);
    for (const std::string& name : fixtures) {
        BOOST_TEST_CONTEXT(name) {
            const assbin::Scene scene = read_fixture(name);
            BOOST_TEST(!scene.nodes.empty());
            BOOST_TEST(scene.skipped_chunks.empty());
        }
    }
}

// `assbin tree` reads with structure_only: the same chunks, fields and counts as a full read, with
// the vertex streams, faces and weights stepped over (and the full read's arrays really there).
BOOST_DATA_TEST_CASE(a_structure_only_read_walks_the_same_chunks_without_copying_the_arrays,
                     assbin_test::fixtures(assbin_test::all_assbin_fixtures()), name) {
    const std::vector<std::byte> bytes = fixture_bytes(name);
    std::vector<assbin::ChunkRecord> full_trace, walk_trace;
    assbin::ReadOptions full, walk;
    full.chunk_trace = &full_trace;
    walk.chunk_trace = &walk_trace;
    walk.structure_only = true;
    const assbin::Scene scene = assbin::read_scene(bytes, full);
    const assbin::Scene walked = assbin::read_scene(bytes, walk);
    BOOST_TEST_REQUIRE(walk_trace.size() == full_trace.size());
    for (size_t i = 0; i < walk_trace.size(); ++i) {
        BOOST_TEST_CONTEXT(full_trace[i].path) {
            BOOST_TEST(walk_trace[i].path == full_trace[i].path);
            BOOST_TEST(walk_trace[i].offset == full_trace[i].offset);
            BOOST_TEST(walk_trace[i].actual_length == full_trace[i].actual_length);
            BOOST_TEST((walk_trace[i].fields == full_trace[i].fields));
        }
    }
    BOOST_TEST_REQUIRE(walked.meshes.size() == scene.meshes.size());
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        BOOST_TEST(walked.meshes[m].vertex_count == scene.meshes[m].vertex_count);
        BOOST_TEST(walked.meshes[m].faces.size() == 0u);
        if (walked.meshes[m].positions) BOOST_TEST(walked.meshes[m].positions->values.empty());
        if (!scene.header.is_shortened() && scene.meshes[m].positions)
            BOOST_TEST(scene.meshes[m].positions->values.size() == scene.meshes[m].vertex_count);
    }
}

// `assbin info` reads with array_views: the arrays stay in the file's bytes, and what validate()
// and the record accessors see is what a full read copies.
BOOST_DATA_TEST_CASE(arrays_left_in_the_file_hold_what_a_full_read_copies,
                     assbin_test::fixtures(assbin_test::all_assbin_fixtures()), name) {
    const std::vector<std::byte> bytes = fixture_bytes(name);
    assbin::ReadOptions views;
    views.array_views = true;
    const assbin::Scene scene = assbin::read_scene(bytes);
    const assbin::Scene viewed = assbin::read_scene(bytes, views);
    BOOST_TEST((viewed.header.is_compressed() == (viewed.inflated_body != nullptr)));
    const auto same_records = [](const auto& copied, const auto& left) {
        BOOST_TEST_REQUIRE(left.size() == copied.size());
        for (size_t i = 0; i < copied.size(); ++i) {
            const auto a = copied[i], b = left[i];
            BOOST_TEST_REQUIRE(std::memcmp(&a, &b, sizeof a) == 0);
        }
    };
    BOOST_TEST_REQUIRE(viewed.meshes.size() == scene.meshes.size());
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        const assbin::Mesh &full = scene.meshes[m], &left = viewed.meshes[m];
        if (full.positions) same_records(full.positions->records(), left.positions->records());
        for (size_t c = 0; c < full.uv_channels.size(); ++c)
            same_records(full.uv_channels[c].records(), left.uv_channels[c].records());
        for (size_t c = 0; c < full.color_sets.size(); ++c)
            same_records(full.color_sets[c].records(), left.color_sets[c].records());
        for (size_t b = 0; b < full.bones.size(); ++b)
            same_records(full.bones[b].weight_records(), left.bones[b].weight_records());
        std::vector<uint32_t> full_faces, left_faces;
        full.faces.for_each([&](size_t, std::span<const uint32_t> face) {
            full_faces.push_back(static_cast<uint32_t>(face.size()));
            full_faces.insert(full_faces.end(), face.begin(), face.end());
        });
        left.faces.for_each([&](size_t, std::span<const uint32_t> face) {
            left_faces.push_back(static_cast<uint32_t>(face.size()));
            left_faces.insert(left_faces.end(), face.begin(), face.end());
        });
        BOOST_TEST((left_faces == full_faces));
        if (!scene.header.is_shortened() && !scene.layout.mixed_double && full.vertex_count > 0 &&
            full.positions)
            BOOST_TEST(left.positions->values.empty()); // really left in the file, not copied
    }
    // The writer copies such a scene's arrays first: the same bytes.
    assbin::WriteOptions write_options;
    write_options.shortened = scene.is_shortened();
    write_options.time = std::chrono::system_clock::time_point{};
    BOOST_TEST((assbin::write(viewed, write_options) == assbin::write(scene, write_options)));
    const std::vector<assbin::Problem> full_problems = assbin::validate(scene),
                                       left_problems = assbin::validate(viewed);
    BOOST_TEST_REQUIRE(left_problems.size() == full_problems.size());
    for (size_t p = 0; p < full_problems.size(); ++p)
        BOOST_TEST(left_problems[p].message == full_problems[p].message);
}

BOOST_AUTO_TEST_CASE(reads_a_skinned_animated_5_2_5_dump_with_the_values_of_the_corpus_tables) {
    const assbin::Scene scene = read_fixture("assimp-5.2.5/SMD__triangle.smd.assbin");
    // MESHES.tsv: 3 vertices, 1 face, tri, mask 0x103, 1 bone with 3 weights, face sizes 3:1, max index 2.
    BOOST_TEST_REQUIRE(scene.meshes.size() == 1u);
    const assbin::Mesh& mesh = scene.meshes[0];
    BOOST_TEST(mesh.vertex_count == 3u);
    BOOST_TEST(mesh.face_count == 1u);
    BOOST_TEST(mesh.primitive_types == 4u);
    BOOST_TEST(mesh.component_mask() == 0x103u);
    BOOST_TEST(mesh.faces.size() == 1u);
    BOOST_TEST(mesh.faces.face_size(0) == 3u);
    BOOST_TEST(*std::max_element(mesh.faces.indices.begin(), mesh.faces.indices.end()) == 2u);
    BOOST_TEST_REQUIRE(mesh.bones.size() == 1u);
    BOOST_TEST(mesh.bones[0].weights.size() == 3u);
    BOOST_TEST(mesh.uv_channels[0].component_count == 2u);
    BOOST_TEST(mesh.positions->values.size() == 3u);
    BOOST_TEST(mesh.normals->values.size() == 3u);
    BOOST_TEST(scene.animations.size() == 1u);
    BOOST_TEST(scene.animations[0].channels.size() == 1u);
    BOOST_TEST(scene.layout.node_metadata);
    BOOST_TEST(scene.layout.vector_key_bytes == 20u);
    BOOST_TEST(scene.layout.exact_mesh_lengths);
}

BOOST_AUTO_TEST_CASE(compressed_and_plain_twins_read_the_same) {
    for (const std::string stem : {"assimp-5.2.5/SMD__triangle.smd", "assimp-5.2.5/Collada__lights.dae"}) {
        BOOST_TEST_CONTEXT(stem) {
            const assbin::Scene plain = read_fixture(stem + ".assbin");
            const assbin::Scene compressed = read_fixture(stem + ".z.assbin");
            BOOST_TEST(compressed.header.is_compressed());
            BOOST_TEST(plain.body_bytes == compressed.body_bytes);
            check_same_geometry(plain, compressed);
        }
    }
}

BOOST_AUTO_TEST_CASE(shortened_twin_carries_the_bounds_of_the_full_arrays) {
    for (const std::string stem : {"assimp-5.2.5/SMD__triangle.smd", "assimp-5.2.5/FBX__huesitos.fbx",
                                   "assimp-5.2.5/glTF2__simple_skin__simple_skin.gltf"}) {
        BOOST_TEST_CONTEXT(stem) {
            const assbin::Scene full = read_fixture(stem + ".assbin");
            const assbin::Scene shortened = read_fixture(stem + ".assbin.regress");
            BOOST_TEST(shortened.is_shortened());
            BOOST_TEST_REQUIRE(full.meshes.size() == shortened.meshes.size());
            for (size_t m = 0; m < full.meshes.size(); ++m) {
                const assbin::Mesh& f = full.meshes[m];
                const assbin::Mesh& s = shortened.meshes[m];
                BOOST_TEST(s.vertex_count == f.vertex_count);
                BOOST_TEST(s.face_count == f.face_count);
                BOOST_TEST(s.component_mask() == f.component_mask());
                BOOST_TEST(s.positions->values.empty());
                const auto expected = writer_bounds(f.positions->values);
                BOOST_TEST((s.positions->bounds.min == expected.min));
                BOOST_TEST((s.positions->bounds.max == expected.max));
                BOOST_TEST(s.face_hashes.size() == (f.face_count + 511) / 512);
                BOOST_TEST(s.faces.size() == 0u);
                BOOST_TEST_REQUIRE(s.bones.size() == f.bones.size());
                for (size_t b = 0; b < f.bones.size(); ++b) {
                    BOOST_TEST(s.bones[b].weight_count == f.bones[b].weights.size());
                    BOOST_TEST(s.bones[b].name == f.bones[b].name);
                }
            }
            BOOST_TEST_REQUIRE(full.animations.size() == shortened.animations.size());
            for (size_t a = 0; a < full.animations.size(); ++a) {
                const auto& fc = full.animations[a].channels;
                const auto& sc = shortened.animations[a].channels;
                BOOST_TEST_REQUIRE(fc.size() == sc.size());
                for (size_t c = 0; c < fc.size(); ++c) {
                    BOOST_TEST(sc[c].positions.count == fc[c].positions.keys.size());
                    BOOST_TEST(sc[c].positions.bounds.has_value() == !fc[c].positions.keys.empty());
                    if (!fc[c].positions.keys.empty()) {
                        BOOST_TEST(sc[c].positions.bounds->min.time == fc[c].positions.keys.front().time);
                        BOOST_TEST(sc[c].positions.bounds->max.time == fc[c].positions.keys.back().time);
                    }
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(reads_old_assimp_cmd_dumps_with_short_lengths_and_24_byte_keys) {
    // Assimp 5.0.1 `dump -b`: P1' layout. The same model dumped by 5.2.5 has these counts (MESHES.tsv).
    const assbin::Scene old = read_fixture("older/assimp-5.0.1__models_X_anim_test.x.dump.assbin");
    BOOST_TEST(!old.layout.node_metadata);
    BOOST_TEST(!old.layout.exact_mesh_lengths);
    BOOST_TEST(old.layout.vector_key_bytes == 24u);
    const assbin::Scene current = read_fixture("assimp-5.2.5/X__anim_test.x.assbin");
    BOOST_TEST(current.layout.vector_key_bytes == 20u);
    BOOST_TEST_REQUIRE(old.meshes.size() == 1u);
    BOOST_TEST(old.meshes[0].vertex_count == 2520u);
    BOOST_TEST(old.meshes[0].face_count == 840u);
    size_t weights = 0;
    for (const assbin::Bone& bone : old.meshes[0].bones)
        weights += bone.weights.size();
    BOOST_TEST(weights == 9980u);
    // Two Assimp versions, one import: same geometry, same keys (the padding bytes are ignored).
    check_same_geometry(old, current);
    BOOST_TEST_REQUIRE(old.animations.size() == current.animations.size());
    const auto& old_keys = old.animations[0].channels[0].positions.keys;
    const auto& new_keys = current.animations[0].channels[0].positions.keys;
    BOOST_TEST_REQUIRE(old_keys.size() == new_keys.size());
    for (size_t k = 0; k < old_keys.size(); ++k) {
        BOOST_TEST(old_keys[k].time == new_keys[k].time);
        BOOST_TEST((old_keys[k].value == new_keys[k].value));
    }
}

BOOST_AUTO_TEST_CASE(reads_a_3_1_1_compressed_dump_with_the_old_prefix_and_colours) {
    const assbin::Scene scene = read_fixture("older/assimp-3.1.1__models_PLY_float-color.ply.dumpz.assbin");
    BOOST_TEST((scene.header.prefix_meaning == assbin::CompressedPrefix::CompressedLength));
    BOOST_TEST(!scene.layout.exact_mesh_lengths); // a colour set makes the MESH length short
    BOOST_TEST(scene.meshes.at(0).color_sets.size() == 1u);
    BOOST_TEST(scene.meshes.at(0).color_sets[0].values.size() == 3u);
    BOOST_TEST(assbin::writer_profile(scene).rfind("P1", 0) == 0u);
    const assbin::Scene newer = read_fixture("older/assimp-5.0.1__models_PLY_float-color.ply.dumpz.assbin");
    BOOST_TEST((newer.header.prefix_meaning == assbin::CompressedPrefix::UncompressedLength));
    BOOST_TEST((newer.meshes.at(0).color_sets[0].values == scene.meshes.at(0).color_sets[0].values));
}

BOOST_AUTO_TEST_CASE(reads_the_3_1_1_regression_database_shortened_layout) {
    const assbin::Scene scene = read_fixture("regress-3.1.1/0x38f60bd3");
    // regress-3.1.1/MANIFEST.tsv: 3 meshes, 3 materials, 1 node, 36 vertices, 12 faces.
    BOOST_TEST(scene.is_shortened());
    BOOST_TEST(!scene.layout.node_metadata);
    BOOST_TEST(scene.meshes.size() == 3u);
    BOOST_TEST(scene.materials.size() == 3u);
    BOOST_TEST(scene.nodes.size() == 1u);
    uint64_t vertices = 0, faces = 0;
    for (const assbin::Mesh& mesh : scene.meshes) {
        vertices += mesh.vertex_count;
        faces += mesh.face_count;
        BOOST_TEST(mesh.face_hashes.size() == 1u);
        BOOST_TEST(mesh.color_sets.size() == 1u); // a cube with vertex colours
    }
    BOOST_TEST(vertices == 36u);
    BOOST_TEST(faces == 12u);
    BOOST_TEST(assbin::writer_profile(scene) == "P1 (assimp_cmd 3.x)");
}

BOOST_AUTO_TEST_CASE(reads_the_5_2_5_double_precision_layout) {
    const assbin::Scene full =
        read_fixture("older/assimp-5.2.5-double__models_Collada_box_nested_animation.dae.drv.full.assbin");
    BOOST_TEST(full.layout.mixed_double);
    BOOST_TEST(full.header.compile_flags == 0x31u);
    BOOST_TEST(full.layout.vector_key_bytes == 24u); // f64 time + f64 x + f32 y, z
    // The same model from the single-precision 5.2.5 build: equal after rounding to float.
    const assbin::Scene single = read_fixture("assimp-5.2.5/Collada__box_nested_animation.dae.assbin");
    BOOST_TEST_REQUIRE(full.meshes.size() == single.meshes.size());
    BOOST_TEST((full.meshes[0].positions->values == single.meshes[0].positions->values));
    BOOST_TEST((full.nodes.at(1).transform == single.nodes.at(1).transform));
    BOOST_TEST(
        (full.meshes[0].bones.at(0).offset - single.meshes[0].bones.at(0).offset).cwiseAbs().maxCoeff() <
        1e-5f);
    const auto& double_keys = full.animations.at(0).channels.at(0).rotations.keys;
    const auto& single_keys = single.animations.at(0).channels.at(0).rotations.keys;
    BOOST_TEST_REQUIRE(double_keys.size() == single_keys.size());
    for (size_t k = 0; k < single_keys.size(); ++k) {
        // The double build computed in double, the single build in float: equal to float precision.
        BOOST_TEST(std::abs(double_keys[k].time - single_keys[k].time) < 1e-3);
        BOOST_TEST(std::abs(double_keys[k].value.w() - single_keys[k].value.w()) < 1e-6f);
        BOOST_TEST(std::abs(double_keys[k].value.z() - single_keys[k].value.z()) < 1e-6f);
    }

    // A shortened double dump with lights: wider bounds and a 48-byte placement block.
    const assbin::Scene shortened =
        read_fixture("older/assimp-5.2.5-double__models_Collada_lights.dae.drv.short.assbin");
    BOOST_TEST(shortened.layout.mixed_double);
    BOOST_TEST(shortened.is_shortened());
    BOOST_TEST((shortened.layout.light_placement == true));
    BOOST_TEST(shortened.lights.size() == 5u);

    // 5.2.5's `dump -s` writes a full dump (ASSBIN-FORMAT.md §5), double build included.
    const assbin::Scene not_shortened = read_fixture(
        "older/assimp-5.2.5-double__models_X_kwxport_test_cubewithvcolors.x.dumpsz.assbin.regress");
    BOOST_TEST(!not_shortened.is_shortened());
    BOOST_TEST(not_shortened.header.is_compressed());
    BOOST_TEST(not_shortened.layout.mixed_double);
}

BOOST_AUTO_TEST_CASE(tells_the_light_layouts_apart_and_reads_the_same_lights) {
    const assbin::Scene old = read_fixture("older/assimp-4.1.0__models_Collada_lights.dae.export.assbin");
    const assbin::Scene current = read_fixture("assimp-5.2.5/Collada__lights.dae.assbin");
    BOOST_TEST((old.layout.light_placement == false));
    BOOST_TEST((current.layout.light_placement == true));
    BOOST_TEST(assbin::writer_profile(old).rfind("P3/P4", 0) == 0u);
    BOOST_TEST(assbin::writer_profile(current).rfind("P5", 0) == 0u);
    BOOST_TEST_REQUIRE(old.lights.size() == 5u);
    BOOST_TEST_REQUIRE(current.lights.size() == 5u);
    const std::vector<uint32_t> types = {2, 1, 3, 4,
                                         2}; // Lamp point, Sun directional, Spot, Hemi ambient, Area
    for (size_t l = 0; l < 5; ++l) {
        BOOST_TEST(current.lights[l].type == types[l]);
        BOOST_TEST(old.lights[l].type == types[l]);
        BOOST_TEST(old.lights[l].name == current.lights[l].name);
        BOOST_TEST((old.lights[l].diffuse == current.lights[l].diffuse));
        BOOST_TEST((old.lights[l].position == assbin::Vec3::Zero())); // not stored before 5.2.5
    }
    BOOST_TEST(current.lights[2].outer_cone > 0.0f);
}

BOOST_AUTO_TEST_CASE(reads_embedded_textures_with_both_hint_widths) {
    const assbin::Scene hint4 = read_fixture(
        "older/assimp-5.0.1__models_glTF2_BoxTextured-glTF-Binary_BoxTextured.glb.export.assbin");
    const assbin::Scene hint8 =
        read_fixture("assimp-5.2.5/glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin");
    BOOST_TEST(hint4.layout.texture_hint_bytes == 4u);
    BOOST_TEST(assbin::writer_profile(hint4).rfind("P3 ", 0) == 0u);
    BOOST_TEST(hint8.layout.texture_hint_bytes == 8u);
    for (const assbin::Scene* scene : {&hint4, &hint8}) {
        const assbin::Texture& texture = scene->textures.at(0);
        BOOST_TEST(texture.is_compressed());
        BOOST_TEST(texture.format_hint == "png");
        BOOST_TEST(texture.width == 2433u); // MANIFEST.tsv: png:2433x0
        BOOST_TEST_REQUIRE(texture.data.size() == 2433u);
        BOOST_TEST(texture.data[1] == 'P'); // the PNG signature
    }
    BOOST_TEST((hint4.textures[0].data == hint8.textures[0].data));

    const assbin::Scene argb = read_fixture("assimp-5.2.5/MDL__MDL-HL1__duplicate_submodels.mdl.assbin");
    const assbin::Texture& texels = argb.textures.at(0);
    BOOST_TEST(texels.format_hint == "rgba8888");
    BOOST_TEST(texels.width == 28u);
    BOOST_TEST(texels.height == 23u);
    BOOST_TEST(texels.data.size() == 28u * 23u * 4u);
}

BOOST_AUTO_TEST_CASE(reads_node_metadata_of_every_type_including_valueless_nested) {
    const assbin::Scene scene = read_fixture("assimp-5.2.5/generated__node_extras_metadata.gltf.assbin");
    std::map<uint16_t, size_t> types; // MANIFEST.tsv: 0:1,1:1,2:1,4:2,5:2,7:2
    for (const assbin::Node& node : scene.nodes) {
        for (const assbin::MetadataEntry& entry : node.metadata) {
            ++types[entry.type];
            switch (entry.type) {
            case 0:
                BOOST_TEST(std::holds_alternative<bool>(entry.value));
                break;
            case 1:
                BOOST_TEST(std::holds_alternative<int32_t>(entry.value));
                break;
            case 2:
                BOOST_TEST(std::holds_alternative<uint64_t>(entry.value));
                break;
            case 4:
                BOOST_TEST(std::holds_alternative<double>(entry.value));
                break;
            case 5:
                BOOST_TEST(std::holds_alternative<std::string>(entry.value));
                break;
            case 7:
                BOOST_TEST(std::holds_alternative<std::monostate>(entry.value));
                break;
            default:
                BOOST_FAIL("unexpected metadata type");
            }
        }
    }
    const std::map<uint16_t, size_t> expected = {{0, 1}, {1, 1}, {2, 1}, {4, 2}, {5, 2}, {7, 2}};
    BOOST_TEST((types == expected));
}

BOOST_AUTO_TEST_CASE(reads_uv_component_counts_colours_and_odd_meshes) {
    const assbin::Scene uv1d = read_fixture("assimp-5.2.5/generated__uv1d_scalar_texcoord.gltf.assbin");
    BOOST_TEST(uv1d.meshes.at(0).uv_channels.size() == 2u);
    BOOST_TEST(uv1d.meshes[0].uv_channels[0].component_count == 1u);
    BOOST_TEST(uv1d.meshes[0].uv_channels[1].component_count == 2u);

    const assbin::Scene colours = read_fixture("assimp-5.2.5/LWO__LWO2__box_2vc_1unused.lwo.z.assbin");
    BOOST_TEST(colours.meshes.at(0).color_sets.size() == 2u);

    const assbin::Scene empty = read_fixture("assimp-5.2.5/STL__triangle_with_empty_solid.stl.assbin");
    BOOST_TEST_REQUIRE(empty.meshes.size() == 2u);
    BOOST_TEST(empty.meshes[1].vertex_count == 0u);
    BOOST_TEST(empty.meshes[1].primitive_types == 0u);
    BOOST_TEST(empty.meshes[1].component_mask() == 0u);

    const assbin::Scene points = read_fixture("assimp-5.2.5/PLY__pond.0.ply.assbin.regress");
    BOOST_TEST(points.meshes.at(0).vertex_count == 70051u);
    BOOST_TEST(points.meshes[0].uses_32bit_indices());
    BOOST_TEST(points.meshes[0].face_hashes.empty());

    const assbin::Scene ngon = read_fixture("assimp-5.2.5/OBJ__box.obj.tri.assbin");
    BOOST_TEST((ngon.meshes.at(0).primitive_types & assbin::kPrimitiveNgonEncoding) != 0u);

    const assbin::Scene no_meshes = read_fixture("assimp-5.2.5/OBJ__box_UTF16BE.obj.assbin");
    BOOST_TEST(no_meshes.meshes.empty());
    BOOST_TEST(no_meshes.nodes.size() == 1u);

    const assbin::Scene polygons = read_fixture("assimp-5.2.5/PLY__cube_binary_starts_with_nl.ply.assbin");
    std::multiset<uint32_t> sizes; // MESHES.tsv: 0:5;1:1
    for (size_t f = 0; f < polygons.meshes.at(0).faces.size(); ++f)
        sizes.insert(polygons.meshes[0].faces.face_size(f));
    BOOST_TEST(sizes.count(0) == 5u);
    BOOST_TEST(sizes.count(1) == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
