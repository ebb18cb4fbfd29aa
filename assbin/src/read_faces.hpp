// A mesh's face list (ASSBIN-FORMAT.md §4.3): each face a u16 index count and that many indices,
// u16 below 65,536 vertices, else u32.
#pragma once

#include "byte_reader.hpp"

#include <assbin/types.hpp>

#include <cstdint>

namespace assbin::detail {

// Reads `face_count` faces into `faces` (or checks and steps over them, or leaves them in the data,
// as the read options say). Every face is checked to fit before anything is allocated.
void read_faces(ByteReader& reader, uint32_t face_count, bool wide_indices, FaceList& faces);

} // namespace assbin::detail
