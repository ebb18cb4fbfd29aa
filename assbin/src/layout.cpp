// Naming the writer profile (ASSBIN-FORMAT.md §6) from what the reader found (§7).
#include <assbin/types.hpp>

namespace assbin {

namespace {

std::string metadata_era_profile(const Scene& scene) {
    const Layout& layout = scene.layout;
    std::string profile;
    if (layout.mixed_double) return "P5 double (Assimp 5.2.5+ double precision)";
    if (layout.texture_hint_bytes == 4)
        profile = "P3 (library exporter, Assimp 4.0 - 5.0.1)";
    else if (layout.light_placement == true)
        profile = "P5 (Assimp 5.2.5+)";
    else if (layout.texture_hint_bytes == 8 && layout.light_placement == false)
        profile = "P4 (Assimp 5.1.0 - 5.2.4)";
    else if (layout.texture_hint_bytes == 8)
        profile = "P4/P5 (Assimp 5.1.0+; no light to tell)";
    else if (layout.light_placement == false)
        profile = "P3/P4 (Assimp 4.0 - 5.2.4; no texture to tell)";
    else
        profile = "P3/P4/P5 (Assimp 4.0+; no texture or light to tell)";
    if (scene.header.compile_flags & kCompileDoublePrecision)
        profile += ", double build writing single precision";
    return profile;
}

} // namespace

std::string writer_profile(const Scene& scene) {
    const Layout& layout = scene.layout;
    if (layout.node_metadata) return metadata_era_profile(scene);
    // No metadata: assimp_cmd 3.0 - 5.0.1 (P1, P1') or the 3.2 - 3.3.1 library exporter (P2), which
    // never compressed or shortened and left the command field empty.
    const Header& header = scene.header;
    const bool from_assimp_cmd = !layout.exact_mesh_lengths || layout.vector_key_bytes == 24 ||
                                 header.is_shortened() || header.is_compressed() || !header.command.empty();
    if (!from_assimp_cmd) return "P2 (library exporter, Assimp 3.2 - 3.3.1)";
    // The no-Boost workaround flag existed in builds up to 3.2; the old prefix up to 4.1.0.
    if (header.compile_flags & kCompileBoostWorkaround) return "P1 (assimp_cmd 3.x)";
    if (header.prefix_meaning == CompressedPrefix::CompressedLength) return "P1 (assimp_cmd 3.0 - 4.1.0)";
    if (header.prefix_meaning == CompressedPrefix::UncompressedLength)
        return "P1' (assimp_cmd 5.0.0 - 5.0.1)";
    return "P1/P1' (assimp_cmd 3.0 - 5.0.1)";
}

} // namespace assbin
