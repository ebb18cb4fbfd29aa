// The converter's building blocks, one per rule of AEM-FORMAT.md "How a scene becomes AEM", public
// so that each can be tested alone. convert() (convert.hpp) strings them together.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace assbin::converter {

// ---- triangulate (rule 6) ----

// Triangles covering the simple polygon whose corners are `corners` (in order), as corner numbers
// 0..n-1, winding kept. Ear clipping in the polygon's best-fit (Newell) plane: concave polygons
// come out right, and collinear corners never become the tip of a zero-area triangle (a last
// triangle of exactly zero area is left out). Quads take the diagonal from their reflex or
// collinear corner. A polygon that is not simple still gets triangles: where no ear is found, the
// corner with the largest convex turn is clipped.
// Ear clipping costs O(n^2) point tests for n corners (O(n^3) when no ears exist), so a hostile
// 65,535-corner face could take hours: when `work_budget` is given, each point test and each corner
// removal spends one unit of it, and once it is spent the rest of the polygon is fanned from its
// first remaining corner (`*fanned` is set). The converter gives each mesh a budget linear in its
// index count.
std::vector<std::array<uint32_t, 3>> triangulate_polygon(std::span<const Eigen::Vector3f> corners,
                                                         uint64_t* work_budget = nullptr,
                                                         bool* fanned = nullptr);

// ---- normals and tangents (rule 7) ----

// A mesh after triangulation, in its own (mesh) space: per-vertex attributes, the assbin vertex
// each vertex came from (generation may split vertices), and triangles as vertex indices.
struct TriangleMesh {
    std::vector<Eigen::Vector3f> positions;
    std::vector<Eigen::Vector3f> normals;  // empty: missing
    std::vector<Eigen::Vector3f> tangents; // empty: missing (bitangents come with them)
    std::vector<Eigen::Vector3f> bitangents;
    std::vector<Eigen::Vector2f> uvs;    // empty: the mesh has no UV channel to write
    std::vector<uint32_t> source_vertex; // per vertex
    std::vector<uint32_t> triangles;     // three vertex indices per triangle

    size_t vertex_count() const { return positions.size(); }
};

// Fills `normals`: area-weighted face normals summed over the faces that share a position, except
// across edges where the faces' normals differ by more than `crease_degrees` (a vertex used on
// both sides of a crease is split). Degenerate faces contribute nothing; a vertex without a usable
// face gets (0, 0, 1).
void generate_normals(TriangleMesh& mesh, float crease_degrees);

// Fills `tangents` and `bitangents` the way MikkTSpace does: per-triangle tangent and bitangent
// directions from the UV derivatives, projected onto each corner's normal plane, summed per vertex
// with the corner angle as weight, separately for the two UV orientations (a vertex used by both is
// split), normalised; bitangent = sign · normal × tangent with the sign of the UV orientation.
// Vertices are grouped by equal position, normal and UV, as MikkTSpace does. Without UVs, each
// vertex gets an arbitrary frame around its normal. Requires normals.
void generate_tangents(TriangleMesh& mesh);

// A unit vector perpendicular to `normal` (any unit vector when `normal` is zero).
Eigen::Vector3f any_perpendicular(const Eigen::Vector3f& normal);

// ---- weights (rule 4) ----

struct Influence {
    int32_t bone = -1; // AEM bone index
    float weight = 0;
};

struct LimitedWeights {
    std::array<int32_t, 4> bones = {-1, -1, -1, -1};
    std::array<float, 4> weights = {0, 0, 0, 0};
    bool lost_influences = false; // more than four positive weights came in
};

// Adds up repeated bones, drops zero, negative and non-finite weights and negative bone indices,
// keeps the four largest (ties: lower bone index first) and renormalises them to sum 1. Unused
// slots hold -1 and 0. Reorders `influences`.
LimitedWeights limit_influences(std::span<Influence> influences);

// ---- animation (rule 5) ----

// The ticks per second an animation is played at: its own when positive and finite, else `fallback`.
double effective_ticks_per_second(double file_ticks_per_second, double fallback);

// Ticks to seconds (computed in double, rounded once to float).
float seconds_from_ticks(double ticks, double ticks_per_second);

// A node's local transform split as translation · rotation · scale (Assimp's Decompose: scale from
// the column lengths, negated when the determinant is negative). `exact` says whether T·R·S
// rebuilds the matrix (within 1e-4 relative); shear cannot be expressed and makes it false.
struct RestPose {
    Eigen::Vector3f translation = Eigen::Vector3f::Zero();
    Eigen::Quaternionf rotation = Eigen::Quaternionf::Identity();
    Eigen::Vector3f scale = Eigen::Vector3f::Ones();
    bool exact = true;
};
RestPose decompose(const Eigen::Matrix4d& local);

// ---- textures (rule 9) ----

// An RGBA8 image, rows in the order they are stored.
struct Image {
    uint32_t width = 0;
    uint32_t height = 0;
    std::vector<uint8_t> rgba; // width · height · 4 bytes
};

// Decodes a PNG, JPEG, BMP, TGA, GIF, PSD, HDR or PNM file held in memory, top row first;
// nullopt with `*error` set when the data is not an image stb_image can read.
std::optional<Image> decode_image(std::span<const std::byte> file, std::string* error = nullptr);

// The image's rows in reverse order.
Image flip_rows(const Image& image);

enum class RowOrder { AsStored, BottomFirst };

// A PNG file holding `image` with its rows as they are stored, or in reverse order (BottomFirst:
// what flip_rows would give, without the copy), through libpng at a fast deflate level
// (png_encode.cpp). Throws std::runtime_error for an empty image or when libpng fails.
std::vector<std::byte> encode_png(const Image& image, RowOrder order = RowOrder::AsStored);

} // namespace assbin::converter
