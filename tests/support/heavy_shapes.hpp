// Scenes of the shapes that once made the converter superlinear: a vertex of huge valence (a disc
// fanned around its centre: cones, poles of spheres, photogrammetry), copies of one grid stacked at
// one spot (welding gathers them into vertices of valence ~ 6 x copies), and one polygon of many
// corners (ear clipping). The tests convert small ones for correctness; the convert benchmark
// writes large ones and times them.
#pragma once

#include "support/dump_builder.hpp"

#include <cstdint>

namespace assbin_test::shapes {

// A flat disc of `triangles` triangles around one centre vertex (valence = triangles), with
// positions and one UV channel and no normals (so normals and tangents are generated, as for the
// scanned and procedural meshes that make such vertices).
SceneSpec fan_disc(uint32_t triangles);

// `copies` identical n x n grids (positions, normals, UVs) in `copies` meshes of one material, all
// at one spot under one node: welding makes one grid whose vertices each carry ~6 x copies
// triangles.
SceneSpec stacked_grids(uint32_t n, uint32_t copies);

// One star-shaped polygon (every other corner pulled in, so half the corners are reflex) of
// `corners` corners in one face, plus nothing else.
SceneSpec star_polygon(uint32_t corners);

// An n x n grid of 10 x 10 units whose corner is at (x0, 0, z0), gently waved, with normals and one
// UV channel: the ordinary large mesh.
MeshSpec grid_mesh(uint32_t n, float x0 = 0.0f, float z0 = 0.0f);

// grid_mesh(n) alone under one node.
SceneSpec grid(uint32_t n);

} // namespace assbin_test::shapes
