// What the glTF checks hold a converted file to (corpus_gltf and the converter's glTF tests): the
// counts a second reader finds against what the dump holds, and poses against the Assimp-semantics
// oracle. Each returns why the file is wrong, or an empty string.
#pragma once

#include "support/gltf_read.hpp"

#include <assbin/converter/convert.hpp>
#include <assbin/types.hpp>

#include <string>

namespace assbin_test {

// One primitive per kind of face, triangle counts within what the faces make (a polygon of n
// corners n - 2 at most), every line and point, each mesh's UV and colour sets, every camera and
// punctual light, every dump node by name in order, one channel per key track of the channels
// that drive a node.
std::string gltf_counts_differ(const assbin::Scene& scene, const assbin::converter::ConvertResult& result,
                               const gltf::Document& doc);

// Every vertex of every primitive, posed at rest (skins acting) and at eight times of every
// animation, within 1e-4 of the model's size of the oracle's (needs options.record_vertex_origins).
std::string gltf_pose_differs(const assbin::Scene& scene, const assbin::converter::ConvertResult& result,
                              const gltf::Document& doc);

} // namespace assbin_test
