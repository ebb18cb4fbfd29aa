// One parser per chunk type. Each reads the next chunk of its type from the parent reader
// (stepping over unknown chunks) and checks that its content ends exactly at the chunk's end.
#pragma once

#include "byte_reader.hpp"
#include "read_context.hpp"

#include <assbin/types.hpp>

#include <vector>

namespace assbin::detail {

// The root NODE and its subtree, pre-order. Decides ReadContext::node_metadata and mixed_double
// by trial (ASSBIN-FORMAT.md §7 steps 2 and 3); `double_flag` is the header's 0x20 compile flag.
std::vector<Node> read_node_tree(ByteReader& scene, ReadContext& context, bool double_flag);

Mesh read_mesh(ByteReader& scene, ReadContext& context, size_t index);
// The scene's `count` meshes, on ReadOptions::threads threads when that is worth it (read_meshes.cpp).
void read_meshes(ByteReader& scene, ReadContext& context, uint32_t count, std::vector<Mesh>& out);
Material read_material(ByteReader& scene, ReadContext& context, size_t index);
Animation read_animation(ByteReader& scene, ReadContext& context, size_t index);
Texture read_texture(ByteReader& scene, ReadContext& context, size_t index);
Light read_light(ByteReader& scene, ReadContext& context, size_t index);
Camera read_camera(ByteReader& scene, ReadContext& context, size_t index);

} // namespace assbin::detail
