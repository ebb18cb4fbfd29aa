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

// The family built to break each stage's bound (DESIGN's "linear on any input"), each written at two
// sizes 10x apart by assbin_make_shapes and timed per element by scripts/bench-convert.sh.

// A book: `pages` triangles sharing one hinge edge (the same two vertices, with equal normals and UVs,
// so MikkTSpace sees one edge of multiplicity `pages`); with `both_windings` the last quarter is wound
// the other way (each pairs with a page of the first quarter, and half the pages find no partner:
// a pairing that scans for partners is quadratic there). Scans, CAD exports and duplicated geometry
// make such edges.
SceneSpec book(uint32_t pages, bool both_windings = true);

// One triangle repeated `copies` times over the same three vertices (duplicated faces).
SceneSpec repeated_triangle(uint32_t copies);

// `triangles` triangles of zero area: in rows along a line, each with two corners at one position
// or all three on a line (kept and counted by the optimiser, skipped by MikkTSpace).
SceneSpec zero_area(uint32_t triangles);

// A strip one quad wide and triangles / 2 quads long (long, thin, every vertex of valence <= 6).
SceneSpec long_strip(uint32_t triangles);

// A chain of `depth` nodes, each placing one small mesh (global transforms of deep trees).
SceneSpec deep_chain(uint32_t depth);

// A root of `children` nodes, each placing the same small mesh (mesh references of wide trees).
SceneSpec wide_tree(uint32_t children);

// An n x n grid skinned to `bones` bones, every vertex weighted by every bone (vertices of hundreds
// of weights: the four largest are kept).
SceneSpec heavy_weights(uint32_t n, uint32_t bones);

// One node animated by one channel of `keys` position, rotation and scaling keys each.
SceneSpec long_animation(uint32_t keys);

// `bones` nodes in chains of 10 under the root, each placing a small mesh and animated by `keys`
// rotation keys (a smooth swing with capture's jitter) and as many constant position keys, as motion
// capture is. With `scattered_times`, every bone's keys fall between the others' (no two tracks
// share a time: what measuring the key error through the hierarchy must not be quadratic in).
SceneSpec skeleton_animation(uint32_t bones, uint32_t keys, bool scattered_times = false);

} // namespace assbin_test::shapes
