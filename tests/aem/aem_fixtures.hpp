// Models and helpers the AEM test suites share.
#pragma once

#include "support/temp_dir.hpp"

#include <aem/model.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace assbin_test {

// The shared temporary folder (tests/support/temp_dir.hpp), by its short name.
using assbin_test::TempDir;

// The hand-built model the suites share. It is valid, and every value is chosen so a pose can be
// computed by hand:
//   bones:     0 root (inverse bind identity); 1 child of 0, bound at (0, 1, 0)
//   animation: 0 "bend", 2 s, sequences 0 (bone 0) and 1 (bone 1)
//     bone 0 position keys  t=0 (0,0,0)   t=1 (2,0,0)   t=2 (2,4,0)      keyframes 0..2
//     bone 0 rotation key   t=0 identity                                 keyframe 3
//     bone 0 scale keys     t=0 (1,1,1)   t=2 (3,3,3)                    keyframes 4..5
//     bone 1 position key   t=0 (0,1,0)                                  keyframe 6
//     bone 1 rotation keys  t=0 identity  t=2 90 degrees about +z        keyframes 7..8
//     bone 1 scale key      t=0 (1,1,1)                                  keyframe 9
//   vertices:  0 (0,0,0) on bone 0        1 (0,2,0) on bone 1
//              2 (1,2,0) half on 0, half on 1
//              3 (1,0,0) no weights, extra bone 1 (a mesh bone)
//              4 (0,2,0) on bone 1, extra bone 0
//              5 (5,5,5) static
//   meshes:    0 = indices 0..2 with material 0, 1 = indices 3..5 with material 1
//   textures:  "albedo.png", "normal.png", "orm.png"; materials {0,1,2} and {0,-1,-1}
aem::Model make_two_bone_model();

// The same model in the 2025 layout: joints "root" and "arm", vertex 3's mesh bone turned into
// joint 1 with weight 1, no extra bone indices, and three textures with full MIP chains (4 x 2
// RGBA, 2 x 2 RG, 1 x 1 RGBA, 58 bytes of texels); material 1 is transparent.
aem::Model make_two_joint_model();

std::vector<std::byte> read_bytes(const std::filesystem::path& path);
void write_bytes(const std::filesystem::path& path, const std::vector<std::byte>& bytes);

// Little-endian accessors into a file image, for pinning the layout and patching counts.
uint32_t u32_at(const std::vector<std::byte>& bytes, size_t offset);
float f32_at(const std::vector<std::byte>& bytes, size_t offset);
void put_u32_at(std::vector<std::byte>& bytes, size_t offset, uint32_t value);

} // namespace assbin_test
