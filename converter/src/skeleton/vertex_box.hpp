// An axis-aligned box of points in double precision: what the key budget knows of the vertices a
// node carries (key_tolerances.cpp: how far they reach; key_error_measure.cpp: its corners, which
// bound how far an affine error moves any point inside).
#pragma once

#include <Eigen/Core>

#include <limits>

namespace assbin::converter::detail {

struct VertexBox {
    Eigen::Vector3d low = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
    Eigen::Vector3d high = -Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());

    void add(const Eigen::Vector3d& p) { // a point not finite is left out
        if (!p.allFinite()) return;
        low = low.cwiseMin(p);
        high = high.cwiseMax(p);
    }
    bool empty() const { return !(low.x() <= high.x()); }
    // Corner k of 8: bit 0 picks x's high side, bit 1 y's, bit 2 z's.
    Eigen::Vector3d corner(int k) const {
        return {(k & 1) ? high.x() : low.x(), (k & 2) ? high.y() : low.y(), (k & 4) ? high.z() : low.z()};
    }
    // Every corner of `box` through the affine map `m` (a box in m's space that holds the first).
    void add_mapped(const VertexBox& box, const Eigen::Matrix4d& m) {
        if (box.empty()) return;
        for (int k = 0; k < 8; ++k)
            add(m.topLeftCorner<3, 3>() * box.corner(k) + m.topRightCorner<3, 1>());
    }
    // The farthest corner's distance from `from` (0 for an empty box).
    double reach_from(const Eigen::Vector3d& from) const {
        if (empty()) return 0;
        return (low - from).cwiseAbs().cwiseMax((high - from).cwiseAbs()).norm();
    }
};

} // namespace assbin::converter::detail
