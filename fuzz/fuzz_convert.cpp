// The converter downstream of the reader: whatever scene a hostile full dump reads as, convert()
// either refuses it with a ConvertError or returns a model that passes aem::validate (convert
// checks that itself; a model that slipped through would be a converter bug), or, for glTF, a GLB
// whose header is whole (magic, version 2, the length of the bytes returned).
#include "fuzz_input.hpp"

#include <aem/validate.hpp>
#include <assbin/converter/convert.hpp>

#include <cstring>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::vector<std::byte> input = assbin_fuzz::with_variant(data, size, false, false);
    assbin::Scene scene;
    try {
        scene = assbin::read_scene(input, assbin_fuzz::fuzz_read_options());
    } catch (const assbin::ParseError&) {
        return 0;
    }
    assbin::converter::ConvertOptions options;
    options.uv_channel = size > 43 ? data[43] % 3 : 0;
    // One input byte picks the layout and the geometry options: the 2025 layout's texture pipeline
    // (embedded images and texels, factors) and the weld/merge/order stage both see hostile scenes.
    const uint8_t choice = size > 45 ? data[45] : 0;
    options.layout = choice & 1 ? aem::Layout::Edition2025 : aem::Layout::Edition2024;
    options.optimize = (choice & 2) == 0;
    options.keep_meshes = (choice & 4) != 0;
    options.compress_textures = (choice & 8) != 0;
    options.max_texture_size = choice & 16 ? 64 : 0;
    options.max_texture_pixels = 1 << 20;                                   // bounded work per input
    if (choice & 32) options.format = assbin::converter::OutputFormat::Glb; // the glTF writer too
    options.quantize = (choice & 64) != 0;
    try {
        const assbin::converter::ConvertResult result = assbin::converter::convert(scene, options);
        if (options.format == assbin::converter::OutputFormat::Glb) {
            const std::vector<std::byte>& glb = result.encoded;
            uint32_t head[3] = {};
            if (glb.size() >= 12) std::memcpy(head, glb.data(), 12);
            if (head[0] != 0x46546C67 || head[1] != 2 || head[2] != glb.size())
                assbin_fuzz::invariant_broken("convert returned a GLB whose header is not whole");
            return 0;
        }
        if (!aem::validate(result.model).empty())
            assbin_fuzz::invariant_broken("convert returned a model that breaks an AEM invariant");
    } catch (const assbin::converter::ConvertError& error) {
        // A clear refusal is the expected outcome for broken scenes; Internal is by definition a
        // converter bug (the final model check or flatten found a broken invariant): a finding.
        if (error.refusal() == assbin::converter::Refusal::Internal)
            assbin_fuzz::invariant_broken(
                (std::string("convert refused with Internal: ") + error.what()).c_str());
    }
    return 0;
}
