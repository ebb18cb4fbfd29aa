// Rule 6's geometry: a polygon's triangles by ear clipping in its best-fit plane (concave
// polygons come out right), quads split at their reflex corner, a work budget against hostile faces.
// Cost: ear clipping is quadratic in a polygon's corners, so each mesh has a work budget (linear in
// its corners); a polygon that would exceed it is fanned from a corner instead, in linear time, and
// said in a warning (a 65,535-corner star: scripts/bench-shapes.sh).
#include "pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace assbin::converter {

namespace {

// Twice the signed area of the 2-D triangle (a, b, c): positive when counter-clockwise.
double cross2(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c) {
    return (b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x());
}

// The corners in the polygon's plane, in a basis whose orientation makes the polygon's Newell
// normal point towards the viewer: the polygon comes out counter-clockwise.
std::vector<Eigen::Vector2d> project_to_plane(std::span<const Eigen::Vector3f> corners) {
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();
    for (size_t i = 0; i < corners.size(); ++i) {
        const Eigen::Vector3d a = corners[i].cast<double>();
        const Eigen::Vector3d b = corners[(i + 1) % corners.size()].cast<double>();
        normal += Eigen::Vector3d((a.y() - b.y()) * (a.z() + b.z()), (a.z() - b.z()) * (a.x() + b.x()),
                                  (a.x() - b.x()) * (a.y() + b.y()));
    }
    if (normal.squaredNorm() == 0) normal = Eigen::Vector3d::UnitZ();
    normal.normalize();
    const Eigen::Vector3d u = any_perpendicular(normal.cast<float>()).cast<double>();
    const Eigen::Vector3d v = normal.cross(u);
    std::vector<Eigen::Vector2d> flat(corners.size());
    for (size_t i = 0; i < corners.size(); ++i) {
        const Eigen::Vector3d p = corners[i].cast<double>();
        flat[i] = Eigen::Vector2d(p.dot(u), p.dot(v));
    }
    return flat;
}

// Whether p lies inside or on triangle (a, b, c), which is counter-clockwise.
bool inside_or_on(const Eigen::Vector2d& p, const Eigen::Vector2d& a, const Eigen::Vector2d& b,
                  const Eigen::Vector2d& c) {
    return cross2(a, b, p) >= 0 && cross2(b, c, p) >= 0 && cross2(c, a, p) >= 0;
}

class EarClipper {
  public:
    EarClipper(std::vector<Eigen::Vector2d> flat, uint64_t* work_budget)
        : flat_(std::move(flat)), budget_(work_budget) {
        for (uint32_t i = 0; i < flat_.size(); ++i)
            ring_.push_back(i);
    }

    std::vector<std::array<uint32_t, 3>> run() {
        std::vector<std::array<uint32_t, 3>> triangles;
        size_t start = 0;
        while (ring_.size() > 3) {
            const std::optional<size_t> ear = find_ear(start);
            if (!ear || !spend(ring_.size())) {
                fan_rest(triangles);
                return triangles;
            }
            const size_t n = ring_.size();
            triangles.push_back({ring_[(*ear + n - 1) % n], ring_[*ear], ring_[(*ear + 1) % n]});
            ring_.erase(ring_.begin() + static_cast<std::ptrdiff_t>(*ear));
            start = *ear == 0 ? 0 : *ear - 1; // ears appear next to the last one clipped
        }
        if (area_of(0, 1, 2) != 0 || triangles.empty()) triangles.push_back({ring_[0], ring_[1], ring_[2]});
        return triangles;
    }

    bool fanned() const { return fanned_; }

  private:
    // Takes `units` from the budget; false once it is spent (and from then on).
    bool spend(uint64_t units) {
        if (!budget_) return true;
        if (*budget_ < units) {
            *budget_ = 0;
            return false;
        }
        *budget_ -= units;
        return true;
    }

    void fan_rest(std::vector<std::array<uint32_t, 3>>& triangles) {
        fanned_ = true;
        for (size_t i = 1; i + 1 < ring_.size(); ++i)
            triangles.push_back({ring_[0], ring_[i], ring_[i + 1]});
    }

    double area_of(size_t prev, size_t at, size_t next) const {
        return cross2(flat_[ring_[prev]], flat_[ring_[at]], flat_[ring_[next]]);
    }

    // nullopt when the budget ran out during the test.
    std::optional<bool> is_ear(size_t at) {
        const size_t n = ring_.size();
        const size_t prev = (at + n - 1) % n, next = (at + 1) % n;
        if (area_of(prev, at, next) <= 0) return false; // reflex or collinear: never a tip
        const Eigen::Vector2d& a = flat_[ring_[prev]];
        const Eigen::Vector2d& b = flat_[ring_[at]];
        const Eigen::Vector2d& c = flat_[ring_[next]];
        if (!spend(n)) return std::nullopt;
        for (size_t k = 0; k < n; ++k) {
            if (k == prev || k == at || k == next) continue;
            const Eigen::Vector2d& p = flat_[ring_[k]];
            if (p == a || p == b || p == c) continue; // a repeated corner does not block
            if (inside_or_on(p, a, b, c)) return false;
        }
        return true;
    }

    // The first ear from `start` on; when the polygon is not simple and has none, the corner with
    // the largest convex area (or any corner) so that clipping always ends. nullopt when the work
    // budget ran out.
    std::optional<size_t> find_ear(size_t start) {
        const size_t n = ring_.size();
        for (size_t k = 0; k < n; ++k) {
            const std::optional<bool> ear = is_ear((start + k) % n);
            if (!ear) return std::nullopt;
            if (*ear) return (start + k) % n;
        }
        size_t best = 0;
        double best_area = -std::numeric_limits<double>::infinity();
        for (size_t k = 0; k < n; ++k) {
            const double area = area_of((k + n - 1) % n, k, (k + 1) % n);
            if (area > best_area) {
                best_area = area;
                best = k;
            }
        }
        return best;
    }

    std::vector<Eigen::Vector2d> flat_;
    std::vector<uint32_t> ring_;
    uint64_t* budget_ = nullptr;
    bool fanned_ = false;
};

} // namespace

namespace detail {

// A quad without allocating: the fan from corner 0 when every corner is convex, else the fan from
// the first reflex or collinear corner, which is the one diagonal that stays inside (Assimp's choice).
std::pair<std::array<uint32_t, 3>, std::array<uint32_t, 3>> split_quad(std::span<const Eigen::Vector3f> q) {
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();
    double turn[4];
    for (uint32_t i = 0; i < 4; ++i) {
        const Eigen::Vector3d a = q[(i + 3) % 4].cast<double>(), b = q[i].cast<double>(),
                              c = q[(i + 1) % 4].cast<double>();
        normal += (b - a).cross(c - b);
    }
    uint32_t r = 0;
    for (uint32_t i = 0; i < 4; ++i) {
        const Eigen::Vector3d a = q[(i + 3) % 4].cast<double>(), b = q[i].cast<double>(),
                              c = q[(i + 1) % 4].cast<double>();
        turn[i] = (b - a).cross(c - b).dot(normal);
    }
    for (uint32_t i = 0; i < 4; ++i) {
        if (turn[i] <= 0) {
            r = i;
            break;
        }
    }
    return {{r, (r + 1) % 4, (r + 2) % 4}, {r, (r + 2) % 4, (r + 3) % 4}};
}

} // namespace detail

using detail::split_quad;

std::vector<std::array<uint32_t, 3>> triangulate_polygon(std::span<const Eigen::Vector3f> corners,
                                                         uint64_t* work_budget, bool* fanned) {
    if (corners.size() < 3) return {};
    if (corners.size() == 3) return {{0, 1, 2}};
    if (corners.size() == 4) {
        const auto [a, b] = split_quad(corners);
        return {a, b};
    }
    EarClipper clipper(project_to_plane(corners), work_budget);
    std::vector<std::array<uint32_t, 3>> triangles = clipper.run();
    if (fanned) *fanned = clipper.fanned();
    return triangles;
}
} // namespace assbin::converter
