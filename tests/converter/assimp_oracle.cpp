#include "assimp_oracle.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace assbin_test::oracle {

namespace {

// aiMatrix4x4 from the file's row-major a1..d4: built element by element, not through a type.
Eigen::Matrix4d matrix_of(const assbin::Matrix4& m) {
    Eigen::Matrix4d out;
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c)
            out(r, c) = m(r, c);
    }
    return out;
}

struct Quat {
    double w, x, y, z;
};

// aiQuaternion::Interpolate.
Quat interpolate(const Quat& start, Quat end, double factor) {
    double cosom = start.x * end.x + start.y * end.y + start.z * end.z + start.w * end.w;
    if (cosom < 0) {
        cosom = -cosom;
        end = {-end.w, -end.x, -end.y, -end.z};
    }
    double sclp, sclq;
    if (1.0 - cosom > 1e-6) {
        const double omega = std::acos(cosom), sinom = std::sin(omega);
        sclp = std::sin((1.0 - factor) * omega) / sinom;
        sclq = std::sin(factor * omega) / sinom;
    } else {
        sclp = 1.0 - factor;
        sclq = factor;
    }
    return {sclp * start.w + sclq * end.w, sclp * start.x + sclq * end.x, sclp * start.y + sclq * end.y,
            sclp * start.z + sclq * end.z};
}

// aiQuaternion::GetMatrix of a normalised quaternion.
Eigen::Matrix3d rotation_matrix(Quat q) {
    const double n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    q = {q.w / n, q.x / n, q.y / n, q.z / n};
    Eigen::Matrix3d m;
    m << 1 - 2 * (q.y * q.y + q.z * q.z), 2 * (q.x * q.y - q.z * q.w), 2 * (q.x * q.z + q.y * q.w),
        2 * (q.x * q.y + q.z * q.w), 1 - 2 * (q.x * q.x + q.z * q.z), 2 * (q.y * q.z - q.x * q.w),
        2 * (q.x * q.z - q.y * q.w), 2 * (q.y * q.z + q.x * q.w), 1 - 2 * (q.x * q.x + q.y * q.y);
    return m;
}

// The key pair around `ticks` and the factor between them, as the Assimp viewer's AnimEvaluator
// finds them: the keys in time order (a stable sort: dumps of unvalidated imports may hold them out
// of order), the segment starting at the last key not later than `ticks`. So where several keys
// share a time, values approach the first of them and the last holds from that time on. Before the
// first key and after the last, the value is clamped (AEM-FORMAT.md's evaluation; the viewer loops).
template <class Key>
std::tuple<Key, Key, double> around(std::vector<Key> keys, double ticks) {
    std::stable_sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) { return a.time < b.time; });
    if (ticks < keys.front().time) return {keys.front(), keys.front(), 0.0};
    if (ticks >= keys.back().time) return {keys.back(), keys.back(), 0.0};
    size_t i = 0;
    while (i + 1 < keys.size() && !(ticks < keys[i + 1].time))
        ++i;
    const double span = keys[i + 1].time - keys[i].time; // > 0: keys[i].time <= ticks < keys[i + 1].time
    return {keys[i], keys[i + 1], (ticks - keys[i].time) / span};
}

Eigen::Vector3d lerp_keys(const std::vector<assbin::VectorKey>& keys, double ticks) {
    const auto [a, b, f] = around(keys, ticks);
    const Eigen::Vector3d va = a.value.cast<double>(), vb = b.value.cast<double>();
    return va + (vb - va) * f;
}

Quat quat_of(const assbin::Quaternion& q) {
    return {q.w(), q.x(), q.y(), q.z()};
}

Quat slerp_keys(const std::vector<assbin::QuaternionKey>& keys, double ticks) {
    const auto [a, b, f] = around(keys, ticks);
    return interpolate(quat_of(a.value), quat_of(b.value), f);
}

// Translation, rotation and scale of a matrix the simple way (used only for a track without keys).
void split(const Eigen::Matrix4d& m, Eigen::Vector3d& t, Eigen::Matrix3d& r, Eigen::Vector3d& s) {
    t = m.block<3, 1>(0, 3);
    const Eigen::Matrix3d a = m.block<3, 3>(0, 0);
    s = Eigen::Vector3d(a.col(0).norm(), a.col(1).norm(), a.col(2).norm());
    if (a.determinant() < 0) s = -s;
    r = a * s.cwiseInverse().asDiagonal();
}

} // namespace

SceneEvaluator::SceneEvaluator(const assbin::Scene& scene, double default_ticks_per_second)
    : scene_(scene), default_ticks_per_second_(default_ticks_per_second) {
    bind_globals_ = pose(std::nullopt, 0.0).globals;
    std::map<std::string, std::vector<uint32_t>> nodes_by_name;
    for (uint32_t n = 0; n < scene.nodes.size(); ++n)
        nodes_by_name[scene.nodes[n].name].push_back(n);
    weights_.resize(scene.meshes.size());
    skinned_.assign(scene.meshes.size(), false);
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        const assbin::Mesh& mesh = scene.meshes[m];
        for (const assbin::Bone& bone : mesh.bones) {
            const auto named = nodes_by_name.find(bone.name);
            if (named != nodes_by_name.end() && named->second.size() == 1) skinned_[m] = true;
        }
        auto& per_vertex = weights_[m];
        per_vertex.resize(mesh.positions ? mesh.positions->values.size() : 0);
        for (const assbin::Bone& bone : mesh.bones) {
            const auto named = nodes_by_name.find(bone.name);
            if (named == nodes_by_name.end() || named->second.size() != 1)
                continue; // unmatched: no influence
            for (const assbin::VertexWeight& w : bone.weights) {
                if (w.vertex < per_vertex.size() && w.weight > 0)
                    per_vertex[w.vertex].push_back({named->second[0], matrix_of(bone.offset), w.weight});
            }
        }
        for (auto& list : per_vertex) {
            std::stable_sort(list.begin(), list.end(),
                             [](const Weight& a, const Weight& b) { return a.weight > b.weight; });
            if (list.size() > 4) list.resize(4);
            double total = 0;
            for (const Weight& w : list)
                total += w.weight;
            for (Weight& w : list)
                w.weight /= total;
        }
    }
}

Eigen::Matrix4d SceneEvaluator::local_at(size_t node, size_t animation, double ticks) const {
    const assbin::Node& n = scene_.nodes[node];
    const Eigen::Matrix4d rest = matrix_of(n.transform);
    for (const assbin::NodeChannel& channel : scene_.animations[animation].channels) {
        if (channel.node_name != n.name) continue;
        Eigen::Vector3d t, s;
        Eigen::Matrix3d r;
        split(rest, t, r, s);
        if (!channel.positions.keys.empty()) t = lerp_keys(channel.positions.keys, ticks);
        if (!channel.rotations.keys.empty()) r = rotation_matrix(slerp_keys(channel.rotations.keys, ticks));
        if (!channel.scalings.keys.empty()) s = lerp_keys(channel.scalings.keys, ticks);
        Eigen::Matrix4d local = Eigen::Matrix4d::Identity();
        local.block<3, 3>(0, 0) = r * s.asDiagonal();
        local.block<3, 1>(0, 3) = t;
        return local; // the first channel naming the node drives it
    }
    return rest;
}

SceneEvaluator::Pose SceneEvaluator::pose(std::optional<size_t> animation, double seconds) const {
    double ticks = 0;
    if (animation) {
        const double tps = scene_.animations[*animation].ticks_per_second;
        ticks = seconds * (tps > 0 ? tps : default_ticks_per_second_);
    }
    std::vector<Eigen::Matrix4d> globals(scene_.nodes.size());
    for (size_t n = 0; n < scene_.nodes.size(); ++n) {
        const Eigen::Matrix4d local =
            animation ? local_at(n, *animation, ticks) : matrix_of(scene_.nodes[n].transform);
        const int32_t parent = scene_.nodes[n].parent;
        globals[n] = parent < 0 ? local : Eigen::Matrix4d(globals[static_cast<size_t>(parent)] * local);
    }
    return {std::move(globals), animation.has_value()};
}

Eigen::Vector3d SceneEvaluator::vertex_position(const Pose& pose, uint32_t node, uint32_t mesh,
                                                uint32_t vertex) const {
    const std::vector<Eigen::Matrix4d>& globals = pose.globals;
    const assbin::Mesh& m = scene_.meshes[mesh];
    const Eigen::Vector4d v(m.positions->values[vertex].x(), m.positions->values[vertex].y(),
                            m.positions->values[vertex].z(), 1.0);
    const auto& weights = weights_[mesh][vertex];
    if (!skinned_[mesh] || !pose.animated) return (globals[node] * v).head<3>();
    if (weights.empty()) return (bind_globals_[node] * v).head<3>();
    Eigen::Vector4d sum = Eigen::Vector4d::Zero();
    for (const Weight& w : weights)
        sum += w.weight * (globals[w.node] * w.offset * v);
    return sum.head<3>();
}

} // namespace assbin_test::oracle
