// Rule 9: texture slots, external names, embedded textures extracted bottom row first, the
// 127-byte limit and NUL padding.
#include "scene_maker.hpp"
#include "support/fixtures.hpp"
#include "support/refusal_check.hpp"

#include "algorithms.hpp"
#include <aem/io.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>

namespace {

using assbin::converter::convert;
using assbin::converter::ConvertError;
using assbin::converter::ConvertOptions;
using assbin::converter::ConvertResult;
using assbin::converter::decode_image;
using assbin::converter::Refusal;
using assbin_test::refused_with;
using assbin_test::SceneMaker;
using assbin_test::string_property;

enum : uint32_t {
    kDiffuse = 1,
    kNormals = 6,
    kBaseColor = 12,
    kNormalCamera = 13,
    kMetalness = 15,
    kRoughness = 16,
    kUnknown = 18
};

SceneMaker one_material(std::vector<assbin::MaterialProperty> properties) {
    SceneMaker s;
    s.triangle();
    properties.push_back(string_property("?mat.name", "Skin"));
    s.material(std::move(properties));
    s.node("root", -1, assbin::Matrix4::Identity(), {0});
    return s;
}

std::string texture_name(const aem::Model& model, int32_t slot) {
    return slot < 0 ? std::string("-") : model.textures[static_cast<size_t>(slot)].file_name;
}

bool mentions(const std::vector<std::string>& warnings, const std::string& a, const std::string& b = "") {
    return std::any_of(warnings.begin(), warnings.end(), [&](const std::string& w) {
        return w.find(a) != std::string::npos && w.find(b) != std::string::npos;
    });
}

} // namespace

BOOST_AUTO_TEST_SUITE(materials_textures)

BOOST_AUTO_TEST_CASE(slots_prefer_base_colour_and_normals_and_fall_back) {
    const aem::Model preferred =
        convert(one_material({string_property("$tex.file", "diffuse.png", kDiffuse),
                              string_property("$tex.file", "albedo.png", kBaseColor),
                              string_property("$tex.file", "camera.png", kNormalCamera),
                              string_property("$tex.file", "normal.png", kNormals)})
                    .scene)
            .model;
    BOOST_TEST(texture_name(preferred, preferred.materials[0].base_color_texture) == "albedo.png");
    BOOST_TEST(texture_name(preferred, preferred.materials[0].normal_texture) == "normal.png");
    BOOST_TEST(preferred.materials[0].orm_texture == -1);
    const aem::Model fallback =
        convert(one_material({string_property("$tex.file", "diffuse.png", kDiffuse),
                              string_property("$tex.file", "camera.png", kNormalCamera)})
                    .scene)
            .model;
    BOOST_TEST(texture_name(fallback, fallback.materials[0].base_color_texture) == "diffuse.png");
    BOOST_TEST(texture_name(fallback, fallback.materials[0].normal_texture) == "camera.png");
}

BOOST_AUTO_TEST_CASE(orm_comes_only_from_an_already_packed_texture) {
    // glTF's metallic-roughness texture, as Assimp 5.x stores it (UNKNOWN, METALNESS, DIFFUSE_ROUGHNESS).
    const aem::Model gltf = convert(one_material({string_property("$tex.file", "mr.png", kUnknown),
                                                  string_property("$tex.file", "mr.png", kMetalness),
                                                  string_property("$tex.file", "mr.png", kRoughness)})
                                        .scene)
                                .model;
    BOOST_TEST(texture_name(gltf, gltf.materials[0].orm_texture) == "mr.png");
    // Separate metalness and roughness files are not packed.
    const aem::Model separate = convert(one_material({string_property("$tex.file", "m.png", kMetalness),
                                                      string_property("$tex.file", "r.png", kRoughness)})
                                            .scene)
                                    .model;
    BOOST_TEST(separate.materials[0].orm_texture == -1);
}

BOOST_AUTO_TEST_CASE(external_names_are_kept_with_slashes_and_shared) {
    SceneMaker s = one_material({string_property("$tex.file", "maps\\skin.png", kDiffuse)});
    s.material({string_property("$tex.file", "maps\\skin.png", kDiffuse)});
    const aem::Model model = convert(s.scene).model;
    BOOST_TEST_REQUIRE(model.textures.size() == 1u);
    BOOST_TEST(model.textures[0].file_name == "maps/skin.png");
    BOOST_TEST(model.materials[0].base_color_texture == 0);
    BOOST_TEST(model.materials[1].base_color_texture == 0);
}

BOOST_AUTO_TEST_CASE(a_texture_name_over_127_bytes_is_an_error_naming_the_material) {
    BOOST_CHECK_NO_THROW(
        convert(one_material({string_property("$tex.file", std::string(127, 'x'), kDiffuse)}).scene));
    BOOST_CHECK_EXCEPTION(
        convert(one_material({string_property("$tex.file", std::string(128, 'x'), kDiffuse)}).scene),
        ConvertError, [](const ConvertError& e) {
            const std::string what = e.what();
            return e.refusal() == Refusal::NameTooLong &&
                   what.find("material 0 ('Skin')") != std::string::npos &&
                   what.find("128 bytes") != std::string::npos;
        });
}

BOOST_AUTO_TEST_CASE(names_are_nul_padded_in_the_file) {
    const aem::Model model =
        convert(one_material({string_property("$tex.file", "skin.png", kDiffuse)}).scene).model;
    const std::vector<std::byte> bytes = aem::to_bytes(model);
    const size_t at = 40 + 92 * model.vertices.size() + 4 * model.indices.size();
    const std::string field(reinterpret_cast<const char*>(bytes.data() + at), 128);
    BOOST_TEST(field.substr(0, 8) == "skin.png");
    BOOST_TEST(std::all_of(field.begin() + 8, field.end(), [](char c) { return c == '\0'; }));
}

BOOST_AUTO_TEST_CASE(a_name_with_a_terminating_nul_counts_up_to_the_nul) {
    // MDL7 dumps count the terminator in the string's length.
    const aem::Model model =
        convert(one_material({string_property("$tex.file", std::string("bark.bmp\0", 9), kDiffuse)}).scene)
            .model;
    BOOST_TEST(model.textures[0].file_name == "bark.bmp");
}

BOOST_AUTO_TEST_CASE(an_embedded_png_is_decoded_and_written_bottom_row_first) {
    ConvertOptions options;
    options.texture_stem = "box";
    const assbin::Scene scene = assbin::read_file(
        assbin_test::fixture_path("assimp-5.2.5/glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin"));
    const ConvertResult result = convert(scene, options);
    BOOST_TEST_REQUIRE(result.textures.size() == 1u);
    BOOST_TEST(result.textures[0].name == "box_0.png");
    BOOST_TEST(texture_name(result.model, result.model.materials[0].base_color_texture) == "box_0.png");
    const auto& data = scene.textures[0].data;
    const auto source = decode_image(std::span(reinterpret_cast<const std::byte*>(data.data()), data.size()));
    const auto written = decode_image(result.textures[0].bytes);
    BOOST_TEST_REQUIRE(source.has_value());
    BOOST_TEST_REQUIRE(written.has_value());
    BOOST_TEST(written->width == source->width);
    BOOST_TEST(written->height == source->height);
    BOOST_TEST((written->rgba == assbin::converter::flip_rows(*source).rgba));
    BOOST_TEST(!(written->rgba == source->rgba)); // the image is not symmetric: the flip shows
}

BOOST_AUTO_TEST_CASE(argb_texels_are_encoded_as_png_bottom_row_first) {
    ConvertOptions options;
    options.texture_stem = "mdl";
    const assbin::Scene scene = assbin::read_file(
        assbin_test::fixture_path("assimp-5.2.5/MDL__MDL-HL1__duplicate_submodels.mdl.assbin"));
    const assbin::Texture& texture = scene.textures[0];
    BOOST_TEST_REQUIRE(!texture.is_compressed());
    const ConvertResult result = convert(scene, options);
    BOOST_TEST_REQUIRE(result.textures.size() == 1u);
    BOOST_TEST(result.textures[0].name == "mdl_0.png");
    const auto image = decode_image(result.textures[0].bytes);
    BOOST_TEST_REQUIRE(image.has_value());
    BOOST_TEST_REQUIRE(image->width == texture.width);
    BOOST_TEST_REQUIRE(image->height == texture.height);
    const uint32_t w = texture.width, h = texture.height;
    for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
            const size_t texel = (size_t{h - 1 - y} * w + x) * 4; // stored row y is source row h-1-y
            const size_t pixel = (size_t{y} * w + x) * 4;
            BOOST_TEST_REQUIRE(image->rgba[pixel] == texture.data[texel + 2]); // r from b, g, r, a
            BOOST_TEST_REQUIRE(image->rgba[pixel + 1] == texture.data[texel + 1]);
            BOOST_TEST_REQUIRE(image->rgba[pixel + 2] == texture.data[texel]);
            BOOST_TEST_REQUIRE(image->rgba[pixel + 3] == texture.data[texel + 3]);
        }
    }
}

BOOST_AUTO_TEST_CASE(keep_embedded_bytes_writes_compressed_textures_unchanged) {
    ConvertOptions options;
    options.texture_stem = "box";
    options.keep_embedded_bytes = true;
    const assbin::Scene scene = assbin::read_file(
        assbin_test::fixture_path("assimp-5.2.5/glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin"));
    const ConvertResult result = convert(scene, options);
    BOOST_TEST_REQUIRE(result.textures.size() == 1u);
    BOOST_TEST(result.textures[0].name == "box_0.png"); // from the format hint
    const auto& data = scene.textures[0].data;
    BOOST_TEST(std::equal(
        data.begin(), data.end(), reinterpret_cast<const uint8_t*>(result.textures[0].bytes.data()),
        reinterpret_cast<const uint8_t*>(result.textures[0].bytes.data() + result.textures[0].bytes.size())));
}

BOOST_AUTO_TEST_CASE(an_undecodable_embedded_file_is_written_unchanged_with_its_hint) {
    SceneMaker s = one_material({string_property("$tex.file", "*0", kDiffuse)});
    assbin::Texture texture;
    texture.format_hint = "dds";
    texture.data = {'D', 'D', 'S', ' ', 1, 2, 3};
    texture.width = static_cast<uint32_t>(texture.data.size());
    s.scene.textures.push_back(texture);
    ConvertOptions options;
    options.texture_stem = "m";
    const ConvertResult result = convert(s.scene, options);
    BOOST_TEST_REQUIRE(result.textures.size() == 1u);
    BOOST_TEST(result.textures[0].name == "m_0.dds");
    BOOST_TEST(result.textures[0].bytes.size() == 7u);
    BOOST_TEST(mentions(result.warnings, "embedded texture 0", "written unchanged"));
}

BOOST_AUTO_TEST_CASE(an_embedded_reference_past_the_texture_count_is_refused) {
    BOOST_TEST(refused_with(one_material({string_property("$tex.file", "*3", kDiffuse)}).scene,
                            Refusal::BadReference,
                            "material 0 ('Skin'): the base colour texture '*3' names embedded texture 3, "
                            "but the scene has 0"));
}

BOOST_AUTO_TEST_CASE(a_texture_path_that_only_starts_with_a_star_is_reported_and_left_empty) {
    const ConvertResult result = convert(one_material({string_property("$tex.file", "*x", kDiffuse)}).scene);
    BOOST_TEST(result.model.materials[0].base_color_texture == -1);
    BOOST_TEST(mentions(result.warnings, "material 0 ('Skin')", "'*x'"));
}

BOOST_AUTO_TEST_CASE(a_mesh_with_a_missing_material_is_refused) {
    SceneMaker s;
    s.triangle(5);
    s.node("root", -1, assbin::Matrix4::Identity(), {0});
    BOOST_TEST(refused_with(s.scene, Refusal::BadReference,
                            "mesh 0 uses material 5, but the scene has 0 materials"));
}

BOOST_AUTO_TEST_SUITE_END()
