// MikkTSpace's tangent frames (rule 7), computed the way the reference mikktspace.c computes them
// with genTangSpaceDefault, so that normal maps baked by Blender, Substance, xNormal and the glTF
// tools shade without seams. The converter feeds it the baked triangles of each output mesh
// (output_tangents.cpp); generate_tangents (algorithms.hpp) feeds it one mesh for the unit tests.
#pragma once

#include <aem/model.hpp>

#include <Eigen/Core>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace assbin::converter::detail {

// What MikkTSpace reads of a vertex.
struct SurfacePoint {
    Eigen::Vector3f position;
    Eigen::Vector3f normal; // unit length, as MikkTSpace assumes
    Eigen::Vector2f uv;
};

// The points MikkTSpace reads, where they already are: SurfacePoints, or the converter's vertex
// records read in place (for a mesh of a million triangles, a copy would be 16 MB more at the peak).
class SurfacePoints {
  public:
    SurfacePoints() = default;
    SurfacePoints(std::span<const SurfacePoint> points)
        : SurfacePoints(points.data(), points.size(), offsetof(SurfacePoint, position),
                        offsetof(SurfacePoint, normal), offsetof(SurfacePoint, uv)) {}
    SurfacePoints(const std::vector<SurfacePoint>& points)
        : SurfacePoints(std::span<const SurfacePoint>(points)) {}
    SurfacePoints(std::span<const aem::Vertex> vertices)
        : SurfacePoints(vertices.data(), vertices.size(), offsetof(aem::Vertex, position),
                        offsetof(aem::Vertex, normal), offsetof(aem::Vertex, uv)) {}

    size_t size() const { return count_; }
    Eigen::Vector3f position(size_t v) const { return read<3>(v, position_); }
    Eigen::Vector3f normal(size_t v) const { return read<3>(v, normal_); }
    Eigen::Vector2f uv(size_t v) const { return read<2>(v, uv_); }

  private:
    template <class Record>
    SurfacePoints(const Record* first, size_t count, size_t position, size_t normal, size_t uv)
        : first_(reinterpret_cast<const std::byte*>(first)), stride_(sizeof(Record)), count_(count),
          position_(position), normal_(normal), uv_(uv) {}
    template <int N>
    Eigen::Matrix<float, N, 1> read(size_t v, size_t offset) const {
        Eigen::Matrix<float, N, 1> value;
        std::memcpy(value.data(), first_ + v * stride_ + offset, N * sizeof(float));
        return value;
    }

    const std::byte* first_ = nullptr;
    size_t stride_ = 0, count_ = 0, position_ = 0, normal_ = 0, uv_ = 0;
};

// What MikkTSpace gives one triangle corner.
struct CornerFrame {
    // Unit and perpendicular to the corner's normal; zero where the angle-weighted sum vanished, and
    // NaN where the reference's arithmetic overflows too (an edge of 1e-24 passes its "not zero"
    // test, then its squared length underflows and the division by it gives infinity).
    Eigen::Vector3f tangent = Eigen::Vector3f::UnitX();
    bool orientation_preserving = false; // the bitangent's sign: +1 when true
    // False where MikkTSpace leaves its default frame (tangent +x, sign -1): corners of triangles
    // whose UVs have no area or whose positions coincide, when no usable neighbour lends a frame.
    bool from_group = false;
};

// MikkTSpace's frames, stored once per group of corners that share one (a corner holds an index):
// frames[0] is the default frame (CornerFrame{}), frames[corner_frame[c]] is corner c's. Every
// corner that shares a frame other than the default also shares its identity (position, normal,
// UV), so anything computed from a frame and a corner's normal can be computed once per frame.
struct MeshFrames {
    std::vector<CornerFrame> frames;
    std::vector<uint32_t> corner_frame;

    const CornerFrame& of(size_t corner) const { return frames[corner_frame[corner]]; }
};

// The frame of every corner of `triangles` (three indices into `points` each), as
// genTangSpaceDefault computes it: corners are identified by equal position, normal and UV;
// triangles with two equal positions are set aside and take the frame of the first healthy corner
// of the same identity; the others are joined across shared edges around each vertex into groups
// of one UV orientation (a triangle without usable UVs joins the first group that reaches it), and
// each corner's tangent is the angle-weighted sum of its group's face tangents projected onto the
// normal. Indices must be below points.size(). The per-triangle steps and the groups' frames run on
// up to `threads` threads; the result is the same for any thread count. `identities`, when given,
// is point_identities(points), made ahead (by a caller with a thread to spare).
struct ReorderableFrames;
MeshFrames mikktspace_frames(SurfacePoints points, std::span<const uint32_t> triangles, unsigned threads = 1,
                             ReorderableFrames* keep = nullptr,
                             const std::vector<uint32_t>* identities = nullptr);

// MikkTSpace's first step, which needs the points only (not the triangles): a number per point, the
// same for points of equal position, normal and UV.
std::vector<uint32_t> point_identities(SurfacePoints points);

// What a run of mikktspace_frames keeps, when asked, so that the frames of the same triangles in
// another order (each triangle's corners as they were) come without a second run. MikkTSpace
// depends on the triangles' order in four places: each group's face terms are summed in triangle
// order; a triangle without usable UVs takes the orientation of the first group to reach it; of
// three or more triangles on one edge, the first ones pair up; a degenerate triangle's corners take
// the frame of the first healthy corner of their identity. Wherever no edge has three triangles and
// every patch of triangles without usable UVs borders triangles of one orientation only, the groups
// and subgroups, each corner's term (its face's angle times its projected tangent) and the frames'
// orientations are the same in every order: summing the terms again in the new order, and finding
// the degenerate corners' first healthy corners again, gives bit for bit what a run on the new order
// gives. `usable` is false when the run met one of the other cases (nothing is kept then).
struct ReorderableFrames {
    static constexpr uint32_t kUngrouped = ~0u;   // a corner in no group: the default frame
    static constexpr uint32_t kNoTerm = 1u << 31; // a member whose face has no usable UVs
    static constexpr uint32_t kSplit = 1u << 30;  // a member of a group that splits: see split_*
    bool usable = false;
    std::vector<std::array<float, 3>> term; // per corner
    // Per corner: its group g (its frame is frames[1 + g]) | kNoTerm, or kSplit | its entry below,
    // or kUngrouped.
    std::vector<uint32_t> group;
    std::vector<uint8_t> preserving; // per group: the frame's orientation
    // Per member of a group that splits: the group, and the corners whose terms its frame sums
    // (split_corners[split_first[e]] up to split_first[e + 1]).
    std::vector<uint32_t> split_group, split_first, split_corners;
    // Only when there are degenerate triangles: each corner's identity, and which triangles.
    std::vector<uint32_t> identity;
    uint32_t identity_count = 0;
    std::vector<uint8_t> degenerate;
};

// The reference's projection of each of `directions` onto the plane of the unit `normal` (the
// direction less its part along the normal, normalised unless every component is within FLT_MIN of
// zero), in place: what every group does to its faces' tangent directions and edges. Four at a time
// with SSE2 where the target has it, bit for bit the scalar arithmetic either way.
void project_onto_plane(std::span<std::array<float, 3>> directions, const std::array<float, 3>& normal);

// mikktspace_frames for the triangles of the run that filled `kept` (which must be usable) in a new
// order: the triangle at position k is the run's triangle from[k].
MeshFrames reordered_frames(const ReorderableFrames& kept, std::span<const uint32_t> from);

// The tangent and bitangent AEM stores for a corner of normal `normal`: MikkTSpace's tangent and
// bitangent = sign · normal × tangent. Where MikkTSpace has no frame of its own (see CornerFrame),
// an arbitrary frame around the normal, as for a mesh without UVs.
struct TangentPair {
    Eigen::Vector3f tangent;
    Eigen::Vector3f bitangent;
    bool operator==(const TangentPair&) const = default;
};
TangentPair tangent_pair(const CornerFrame& frame, const Eigen::Vector3f& normal);

} // namespace assbin::converter::detail
