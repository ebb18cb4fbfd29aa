// What the MikkTSpace tests share: corpus fixtures whose meshes between them hold every case
// MikkTSpace treats apart, their output models in source order, and frames compared bit for bit.
#pragma once

#include "support/fixtures.hpp"

#include "geometry/mikktspace.hpp"
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <cstring>
#include <string>

namespace mikktspace_test {

// Mirrored UV islands (dwarf: groups that split), a scaled node (mar_rifle), seams (the Blender
// cube), skinned and untextured meshes, triangles whose UVs have no area, degenerate triangles.
inline constexpr const char* kFixtures[] = {
    "COB__dwarf.cob.assbin",
    "3D__mar_rifle.uc.assbin",
    "BLEND__BlenderDefault_250.blend.assbin",
    "FBX__huesitos.fbx.assbin",
    "OBJ__spider.obj.z.assbin",
    "X__anim_test.x.assbin",
    "glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin",
};

// The output model in source order: the meshes' triangles as MikkTSpace would be given them.
inline aem::Model source_order_model(const std::string& fixture) {
    assbin::converter::ConvertOptions options;
    options.optimize = false;
    return assbin::converter::convert(assbin::read_file(assbin_test::fixture_path("assimp-5.2.5/" + fixture)),
                                      options)
        .model;
}

inline bool same_frame(const assbin::converter::detail::CornerFrame& a,
                       const assbin::converter::detail::CornerFrame& b) {
    return std::memcmp(a.tangent.data(), b.tangent.data(), sizeof(float) * 3) == 0 &&
           a.orientation_preserving == b.orientation_preserving && a.from_group == b.from_group;
}

} // namespace mikktspace_test
