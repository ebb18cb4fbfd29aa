// The 2025 layout's texture pipeline: images found (embedded files and texels, external files by
// name ignoring case), decoded with stb_image at their own size, turned into base colour (RGBA),
// normal (RG) and PBR textures with full MIP chains (gamma-correct for colour), BC5 on request;
// what cannot be had gives a warning naming the material and a default texture, never a failure.
#include "materials/bc7_format.hpp"
#include "materials/textures_2025.hpp"
#include "scene_maker.hpp"
#include "support/fixtures.hpp"
#include "support/gltf_read.hpp"

#include <aem/validate.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#define STBI_NO_STDIO
#include <stb/stb_image.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>

namespace {

using assbin::converter::ConvertOptions;
using assbin::converter::ConvertResult;
using assbin::converter::detail::Pixels;

ConvertResult convert_2025(const assbin::Scene& scene, ConvertOptions options = {}) {
    options.layout = aem::Layout::Edition2025;
    return assbin::converter::convert(scene, options);
}

const aem::Texture& slot(const aem::Model& model, int32_t texture) {
    return model.textures.at(static_cast<size_t>(texture));
}

bool warned(const ConvertResult& result, const std::string& a, const std::string& b) {
    return std::any_of(result.warnings.begin(), result.warnings.end(), [&](const std::string& w) {
        return w.find(a) != std::string::npos && w.find(b) != std::string::npos;
    });
}

// A one-triangle scene whose material names `path` in texture slot `type`, with the scene's
// embedded textures as given.
assbin_test::SceneMaker textured(uint32_t type, const std::string& path,
                                 std::vector<assbin::Texture> embedded) {
    assbin_test::SceneMaker s;
    s.triangle();
    s.material({assbin_test::string_property("$tex.file", path, type)});
    s.node("root", -1, assbin::Matrix4::Identity(), {0});
    s.scene.textures = std::move(embedded);
    return s;
}

// A w x h ARGB8888 embedded texture (texels b, g, r, a) whose every texel is (r, g, b, a).
assbin::Texture texels(uint32_t w, uint32_t h, std::array<uint8_t, 4> rgba) {
    assbin::Texture texture;
    texture.width = w;
    texture.height = h;
    texture.format_hint = "rgba8888";
    for (uint32_t i = 0; i < w * h; ++i)
        texture.data.insert(texture.data.end(), {rgba[2], rgba[1], rgba[0], rgba[3]});
    return texture;
}

} // namespace

BOOST_AUTO_TEST_SUITE(textures_2025)

BOOST_AUTO_TEST_CASE(an_embedded_png_keeps_its_own_size_and_gets_a_full_chain) {
    const assbin::Scene scene = assbin::read_file(
        assbin_test::fixture_path("assimp-5.2.5/glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin"));
    int width = 0, height = 0, channels = 0;
    const std::vector<uint8_t>& png = scene.textures.at(0).data;
    BOOST_TEST_REQUIRE(stbi_info_from_memory(png.data(), int(png.size()), &width, &height, &channels) == 1);
    const ConvertResult result = convert_2025(scene);
    const aem::Model& model = result.model;
    BOOST_TEST(aem::validate(model).empty());
    const aem::Texture& base = slot(model, model.materials.at(0).base_color_texture);
    BOOST_TEST(base.width == uint32_t(width));
    BOOST_TEST(base.height == uint32_t(height));
    BOOST_TEST(base.channels == 4u);
    BOOST_TEST(aem::mip_level_count(base.width, base.height) ==
               1u + uint32_t(std::log2(std::max(width, height))));
    // The last level is 1 x 1: four bytes at the end of the chain.
    const uint64_t chain = aem::mip_chain_bytes(base.width, base.height, 4, aem::kCompressionNone);
    BOOST_TEST(base.image_offset + chain <= model.image_buffer.size());
}

BOOST_AUTO_TEST_CASE(an_external_name_is_found_ignoring_case_in_a_texture_folder) {
    const assbin::Scene scene = assbin::read_file(
        assbin_test::fixture_path("assimp-5.2.5/3DS__cube_with_diffuse_texture.3DS.assbin"));
    ConvertOptions options;
    options.texture_folders = {assbin_test::fixture_path("textures/3DS")};
    const ConvertResult found = convert_2025(scene, options);
    const aem::Texture& base = slot(found.model, found.model.materials.at(0).base_color_texture);
    BOOST_TEST(base.width == 512u); // test.png's own size (the material says TEST.PNG)
    BOOST_TEST(base.height == 512u);
    BOOST_TEST(!warned(found, "TEST.PNG", "not found"));

    const ConvertResult missing = convert_2025(scene); // no texture folder
    BOOST_TEST(warned(missing, "material 0", "'TEST.PNG' was not found"));
    BOOST_TEST(slot(missing.model, missing.model.materials.at(0).base_color_texture).width == 1u);
    BOOST_TEST(aem::validate(missing.model).empty());
}

// An integer material key in each form Assimp's aiGetMaterialIntegerArray reads: an aiPTI_Integer,
// an aiPTI_Buffer of 4-byte integers, or a one-byte buffer (a bool: the glTF and FBX importers store
// $mat.twosided and the map modes so).
enum class IntegerForm { Integer, Buffer4, Buffer1 };

assbin::MaterialProperty integer_key(const char* key, uint32_t semantic, int32_t value, IntegerForm form) {
    assbin::MaterialProperty property;
    property.key = key;
    property.semantic = semantic;
    property.type =
        static_cast<uint32_t>(form == IntegerForm::Integer ? assbin::MaterialPropertyType::Integer
                                                           : assbin::MaterialPropertyType::Buffer);
    property.data.resize(form == IntegerForm::Buffer1 ? 1 : 4);
    std::memcpy(property.data.data(), &value, property.data.size()); // little-endian: the low byte first
    return property;
}

// Assimp's aiTextureMapMode is 0 wrap, 1 clamp, 2 mirror, 3 decal. Both writers read the same
// keys (MaterialKeys): mirror is mirrored repeat in the 2025 layout and in glTF, and a decal, which
// shows nothing outside 0..1, clamps to its edge in both; in every form the getter reads.
BOOST_AUTO_TEST_CASE(assimps_map_modes_wrap_alike_in_the_2025_layout_and_gltf) {
    for (const IntegerForm form : {IntegerForm::Integer, IntegerForm::Buffer4, IntegerForm::Buffer1})
        for (const auto& [u, v] : {std::pair{2, 3}, std::pair{3, 2}, std::pair{0, 1}, std::pair{1, 2}}) {
            assbin_test::SceneMaker s = textured(1, "*0", {texels(2, 2, {10, 20, 30, 255})});
            s.scene.materials.at(0).properties.push_back(integer_key("$tex.mapmodeu", 1, u, form));
            s.scene.materials.at(0).properties.push_back(integer_key("$tex.mapmodev", 1, v, form));
            const auto aem_wrap = [](int32_t m) {
                return m == 2 ? aem::kWrapMirroredRepeat : m == 0 ? aem::kWrapRepeat : aem::kWrapClampToEdge;
            };
            const auto gltf_wrap = [](int32_t m) { return m == 2 ? 33648 : m == 0 ? 10497 : 33071; };
            const ConvertResult aem_result = convert_2025(s.scene);
            const aem::Texture& base =
                slot(aem_result.model, aem_result.model.materials.at(0).base_color_texture);
            BOOST_TEST(base.wrap_x == aem_wrap(u), "mapmodeu " << u);
            BOOST_TEST(base.wrap_y == aem_wrap(v), "mapmodev " << v);
            ConvertOptions options;
            options.format = assbin::converter::OutputFormat::Glb;
            const ConvertResult glb = assbin::converter::convert(s.scene, options);
            const assbin_test::gltf::Document document = assbin_test::gltf::Document::from_glb(glb.encoded);
            const nlohmann::json& j = document.json();
            const nlohmann::json& texture = j["textures"].at(0);
            const nlohmann::json sampler = texture.contains("sampler")
                                               ? j["samplers"].at(texture["sampler"].get<size_t>())
                                               : nlohmann::json::object();
            BOOST_TEST(sampler.value("wrapS", 10497) == gltf_wrap(u), "mapmodeu " << u);
            BOOST_TEST(sampler.value("wrapT", 10497) == gltf_wrap(v), "mapmodev " << v);
        }
}

// $mat.twosided in each form is glTF's doubleSided; a two-byte buffer, which Assimp's getter would
// read past, says nothing.
BOOST_AUTO_TEST_CASE(two_sided_in_every_form_the_getter_reads_is_double_sided) {
    const auto double_sided = [](assbin::MaterialProperty property) {
        assbin_test::SceneMaker s = textured(1, "*0", {texels(2, 2, {10, 20, 30, 255})});
        s.scene.materials.at(0).properties.push_back(std::move(property));
        ConvertOptions options;
        options.format = assbin::converter::OutputFormat::Glb;
        const ConvertResult glb = assbin::converter::convert(s.scene, options);
        const assbin_test::gltf::Document document = assbin_test::gltf::Document::from_glb(glb.encoded);
        return document.json()["materials"].at(0).value("doubleSided", false);
    };
    for (const IntegerForm form : {IntegerForm::Integer, IntegerForm::Buffer4, IntegerForm::Buffer1}) {
        BOOST_TEST(double_sided(integer_key("$mat.twosided", 0, 1, form)));
        BOOST_TEST(!double_sided(integer_key("$mat.twosided", 0, 0, form)));
    }
    assbin::MaterialProperty cut = integer_key("$mat.twosided", 0, 1, IntegerForm::Buffer4);
    cut.data.resize(2);
    BOOST_TEST(!double_sided(cut));
}

BOOST_AUTO_TEST_CASE(embedded_texels_are_read_as_b_g_r_a) {
    const ConvertResult result = convert_2025(textured(1, "*0", {texels(2, 2, {10, 20, 30, 255})}).scene);
    const aem::Model& model = result.model;
    const aem::Texture& base = slot(model, model.materials.at(0).base_color_texture);
    BOOST_TEST(base.width == 2u);
    const uint8_t* level0 = model.image_buffer.data() + base.image_offset;
    BOOST_TEST((std::vector<int>(level0, level0 + 4) == std::vector<int>{10, 20, 30, 255}));
    BOOST_TEST(model.materials[0].type == aem::kMaterialOpaque);
}

BOOST_AUTO_TEST_CASE(normal_maps_become_rg_with_y_in_the_flipped_frame_and_bc5_on_request) {
    const auto scene = textured(6, "*0", {texels(8, 4, {200, 60, 255, 255})}).scene;
    const ConvertResult plain = convert_2025(scene);
    const aem::Texture& normal = slot(plain.model, plain.model.materials.at(0).normal_texture);
    BOOST_TEST(normal.channels == 2u);
    BOOST_TEST(normal.compression == aem::kCompressionNone);
    const uint8_t* texel = plain.model.image_buffer.data() + normal.image_offset;
    BOOST_TEST(int(texel[0]) == 200);
    BOOST_TEST(int(texel[1]) == 255 - 60);
    ConvertOptions options;
    options.compress_textures = true;
    const ConvertResult compressed = convert_2025(scene, options);
    const aem::Texture& bc5 = slot(compressed.model, compressed.model.materials.at(0).normal_texture);
    BOOST_TEST(bc5.compression == aem::kCompressionBc5);
    BOOST_TEST(aem::mip_chain_bytes(8, 4, 2, aem::kCompressionBc5) == (2u + 1 + 1 + 1) * 16);
    BOOST_TEST(aem::validate(compressed.model).empty());
}

BOOST_AUTO_TEST_CASE(compress_stores_base_colour_and_pbr_as_bc7) {
    const auto scene = textured(1, "*0", {texels(16, 8, {200, 60, 30, 255})}).scene;
    ConvertOptions options;
    options.compress_textures = true;
    const ConvertResult result = convert_2025(scene, options);
    const aem::Material& material = result.model.materials.at(0);
    for (const int32_t texture : {material.base_color_texture, material.orm_texture}) {
        const aem::Texture& t = slot(result.model, texture);
        BOOST_TEST(t.compression == aem::kCompressionBc7);
        BOOST_TEST(t.channels == 4u);
    }
    const aem::Texture& base = slot(result.model, material.base_color_texture);
    BOOST_TEST(aem::mip_chain_bytes(16, 8, 4, aem::kCompressionBc7) == (8u + 2 + 1 + 1 + 1) * 16);
    BOOST_TEST(base.width == 16u);
    BOOST_TEST(aem::validate(result.model).empty());
    // A flat texture's blocks decode to its colour exactly (every level: the chain is flat too).
    for (size_t b = 0; b < aem::mip_chain_bytes(16, 8, 4, aem::kCompressionBc7) / 16; ++b) {
        uint8_t texels[64];
        assbin::converter::detail::bc7::decode_block(
            result.model.image_buffer.data() + base.image_offset + 16 * b, texels);
        for (size_t t = 0; t < 16; ++t)
            BOOST_TEST((texels[4 * t] == 200 && texels[4 * t + 1] == 60 && texels[4 * t + 2] == 30 &&
                        texels[4 * t + 3] == 255));
    }
}

// A BC4 block (8 bytes: two endpoints, sixteen 3-bit indices) decoded as the format describes it
// (Khronos Data Format Specification, BC4 unsigned), independently of the encoder: six interpolated
// values between the endpoints when the first is larger, else four and the constants 0 and 255.
std::array<uint8_t, 16> decode_bc4(const uint8_t* block) {
    const int e0 = block[0], e1 = block[1];
    std::array<int, 8> palette{e0, e1};
    if (e0 > e1) {
        for (int i = 2; i < 8; ++i)
            palette[i] = ((8 - i) * e0 + (i - 1) * e1 + 3) / 7;
    } else {
        for (int i = 2; i < 6; ++i)
            palette[i] = ((6 - i) * e0 + (i - 1) * e1 + 2) / 5;
        palette[6] = 0;
        palette[7] = 255;
    }
    uint64_t bits = 0;
    for (int i = 0; i < 6; ++i)
        bits |= uint64_t{block[2 + i]} << (8 * i);
    std::array<uint8_t, 16> texels{};
    for (int t = 0; t < 16; ++t)
        texels[t] = static_cast<uint8_t>(palette[(bits >> (3 * t)) & 7]);
    return texels;
}

// Level 0 of a BC5 chain (red then green BC4 block per 4 x 4 block, blocks row by row) as RG texels.
std::vector<uint8_t> decode_bc5_level0(const uint8_t* blocks, uint32_t width, uint32_t height) {
    std::vector<uint8_t> rg(size_t{width} * height * 2);
    const uint32_t across = (width + 3) / 4, down = (height + 3) / 4;
    for (uint32_t by = 0; by < down; ++by) {
        for (uint32_t bx = 0; bx < across; ++bx) {
            const uint8_t* block = blocks + 16 * (size_t{by} * across + bx);
            const std::array<uint8_t, 16> red = decode_bc4(block), green = decode_bc4(block + 8);
            for (uint32_t t = 0; t < 16; ++t) {
                const uint32_t x = 4 * bx + t % 4, y = 4 * by + t / 4;
                if (x >= width || y >= height) continue;
                rg[2 * (size_t{y} * width + x)] = red[t];
                rg[2 * (size_t{y} * width + x) + 1] = green[t];
            }
        }
    }
    return rg;
}

// BC5 blocks decoded back: a smooth normal map comes back within a few steps everywhere (a block
// of a gradient spans few values, which BC4's eight levels cover), and a sharp edge between two
// flat halves exactly (its two values are the block's endpoints).
BOOST_AUTO_TEST_CASE(bc5_blocks_decode_back_to_the_normal_map) {
    constexpr uint32_t kWidth = 16, kHeight = 8;
    Pixels smooth{kWidth, kHeight, 2, {}}, edge{kWidth, kHeight, 2, {}};
    for (uint32_t y = 0; y < kHeight; ++y) {
        for (uint32_t x = 0; x < kWidth; ++x) {
            smooth.data.push_back(static_cast<uint8_t>(60 + 9 * x));
            smooth.data.push_back(static_cast<uint8_t>(200 - 11 * y));
            edge.data.push_back(x < 6 ? 30 : 220);
            edge.data.push_back(y < 3 ? 250 : 5);
        }
    }
    for (const Pixels* image : {&smooth, &edge}) {
        const std::vector<uint8_t> chain = assbin::converter::detail::mip_chain(*image, false);
        const std::vector<uint8_t> blocks = assbin::converter::detail::compress_bc5(chain, kWidth, kHeight);
        BOOST_TEST_REQUIRE(blocks.size() == aem::mip_chain_bytes(kWidth, kHeight, 2, aem::kCompressionBc5));
        const std::vector<uint8_t> decoded = decode_bc5_level0(blocks.data(), kWidth, kHeight);
        int worst = 0;
        for (size_t i = 0; i < decoded.size(); ++i)
            worst = std::max(worst, std::abs(int(decoded[i]) - int(image->data[i])));
        BOOST_TEST(worst <= (image == &edge ? 0 : 6), (image == &edge ? "edge" : "smooth"));
    }
}

BOOST_AUTO_TEST_CASE(mip_levels_average_colour_in_linear_light) {
    const Pixels black_white{2, 1, 4, {0, 0, 0, 255, 255, 255, 255, 255}};
    const std::vector<uint8_t> colour = assbin::converter::detail::mip_chain(black_white, true);
    BOOST_TEST_REQUIRE(colour.size() == 12u);
    BOOST_TEST(int(colour[8]) == 188); // sRGB of linear 0.5, not 128
    BOOST_TEST(int(colour[11]) == 255);
    const std::vector<uint8_t> data = assbin::converter::detail::mip_chain(black_white, false);
    BOOST_TEST(int(data[8]) == 128);
    const Pixels odd{3, 3, 2, std::vector<uint8_t>(18, 7)};
    BOOST_TEST(assbin::converter::detail::mip_chain(odd, false).size() == 18u + 2); // 3x3 then 1x1
}

BOOST_AUTO_TEST_CASE(textures_shrink_to_powers_of_two_only_when_asked) {
    const Pixels image{300, 200, 4, std::vector<uint8_t>(300 * 200 * 4, 90)};
    const Pixels shrunk = assbin::converter::detail::limit_size(image, 128, true);
    BOOST_TEST(shrunk.width == 128u);
    BOOST_TEST(shrunk.height == 128u);
    BOOST_TEST(int(shrunk.data[0]) == 90);
    const Pixels kept = assbin::converter::detail::limit_size(
        Pixels{64, 32, 2, std::vector<uint8_t>(64 * 32 * 2)}, 128, false);
    BOOST_TEST(kept.width == 64u);
    ConvertOptions options;
    options.max_texture_size = 4;
    const ConvertResult result =
        convert_2025(textured(1, "*0", {texels(16, 8, {1, 2, 3, 255})}).scene, options);
    BOOST_TEST(slot(result.model, result.model.materials.at(0).base_color_texture).width == 4u);
}

BOOST_AUTO_TEST_CASE(bad_images_give_a_warning_and_the_default) {
    assbin::Texture garbage;
    garbage.width = 16; // compressed: width is the byte count
    garbage.height = 0;
    garbage.format_hint = "png";
    garbage.data.assign(16, 0x5A);
    const ConvertResult corrupt = convert_2025(textured(1, "*0", {garbage}).scene);
    BOOST_TEST(warned(corrupt, "material 0", "embedded texture 0 is not an image"));
    BOOST_TEST(slot(corrupt.model, corrupt.model.materials.at(0).base_color_texture).width == 1u);

    const ConvertResult past = convert_2025(textured(1, "*3", {}).scene);
    BOOST_TEST(warned(past, "material 0", "names no embedded texture"));

    const assbin::Scene box = assbin::read_file(
        assbin_test::fixture_path("assimp-5.2.5/glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin"));
    ConvertOptions small;
    small.max_texture_pixels = 100; // the 211 x 211 PNG is refused from its header, before decoding
    const ConvertResult refused = convert_2025(box, small);
    BOOST_TEST(warned(refused, "211 x 211", "more pixels than the limit of 100"));
    BOOST_TEST(aem::validate(refused.model).empty());

    const ConvertResult escaping = convert_2025(textured(1, "../../../../etc/none.png", {}).scene);
    BOOST_TEST(warned(escaping, "material 0", "was not found"));
}

BOOST_AUTO_TEST_CASE(identical_textures_are_stored_once) {
    assbin_test::SceneMaker s;
    s.triangle(0);
    s.triangle(1);
    s.material();
    s.material();
    s.node("root", -1, assbin::Matrix4::Identity(), {0, 1});
    const aem::Model model = convert_2025(s.scene).model;
    BOOST_TEST(model.textures.size() == 3u);
    BOOST_TEST((model.materials[0] == model.materials[1]));
}

BOOST_AUTO_TEST_SUITE_END()
