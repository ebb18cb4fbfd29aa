// The smallest valid scene, which each attack then breaks in one place: one node holding one
// triangle mesh with one named material. Shared by the reader and converter attacks.
#pragma once

#include "support/dump_builder.hpp"

namespace assbin_test::attack_scenes {

inline assbin_test::MeshSpec triangle_mesh() {
    assbin_test::MeshSpec mesh;
    mesh.positions = std::vector<assbin_test::F3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh.faces = {{0, 1, 2}};
    return mesh;
}

inline assbin_test::SceneSpec one_triangle() {
    assbin_test::SceneSpec s;
    s.root = assbin_test::make_node("root", {0});
    s.meshes = {triangle_mesh()};
    s.materials = {assbin_test::MaterialSpec{{assbin_test::prop_string("?mat.name", "m")}, std::nullopt}};
    return s;
}

} // namespace assbin_test::attack_scenes
