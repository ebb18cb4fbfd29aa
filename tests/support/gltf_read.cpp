// The tests' glTF reader and evaluator (see gltf_read.hpp).
#include "support/gltf_read.hpp"

#include "read_file.hpp"

#include <Eigen/Geometry>

#include <cstring>
#include <map>
#include <stdexcept>

namespace assbin_test::gltf {

namespace {

uint32_t u32_at(std::span<const std::byte> bytes, size_t at) {
    if (at + 4 > bytes.size()) throw std::runtime_error("GLB cut at byte " + std::to_string(at));
    uint32_t value;
    std::memcpy(&value, bytes.data() + at, 4);
    return value;
}

std::vector<std::byte> read_all(const std::filesystem::path& path) {
    try {
        return assbin_common::read_regular_file(path);
    } catch (const assbin_common::ReadFailure& failure) {
        throw std::runtime_error(path.string() + ": " + failure.what());
    }
}

size_t components_of(const std::string& type) {
    static const std::map<std::string, size_t> kCounts = {
        {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT4", 16}};
    return kCounts.at(type);
}

Eigen::Matrix4d trs(const Eigen::Vector3d& t, const Eigen::Quaterniond& r, const Eigen::Vector3d& s) {
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m.topLeftCorner<3, 3>() = r.normalized().toRotationMatrix() * s.asDiagonal();
    m.topRightCorner<3, 1>() = t;
    return m;
}

} // namespace

Document Document::from_glb(std::span<const std::byte> bytes) {
    if (u32_at(bytes, 0) != 0x46546C67) throw std::runtime_error("not a GLB (magic)");
    if (u32_at(bytes, 4) != 2) throw std::runtime_error("GLB version is not 2");
    if (u32_at(bytes, 8) != bytes.size())
        throw std::runtime_error("GLB length field differs from the file size");
    const uint32_t json_length = u32_at(bytes, 12);
    if (u32_at(bytes, 16) != 0x4E4F534A) throw std::runtime_error("first GLB chunk is not JSON");
    if (20 + size_t{json_length} > bytes.size()) throw std::runtime_error("JSON chunk past the end");
    Document doc;
    doc.json_ = nlohmann::json::parse(reinterpret_cast<const char*>(bytes.data()) + 20,
                                      reinterpret_cast<const char*>(bytes.data()) + 20 + json_length);
    const size_t bin_at = 20 + size_t{json_length};
    if (bin_at < bytes.size()) {
        const uint32_t bin_length = u32_at(bytes, bin_at);
        if (u32_at(bytes, bin_at + 4) != 0x004E4942) throw std::runtime_error("second GLB chunk is not BIN");
        if (bin_at + 8 + size_t{bin_length} > bytes.size())
            throw std::runtime_error("BIN chunk past the end");
        doc.bin_.assign(bytes.begin() + static_cast<std::ptrdiff_t>(bin_at + 8),
                        bytes.begin() + static_cast<std::ptrdiff_t>(bin_at + 8 + bin_length));
    }
    return doc;
}

Document Document::from_file(const std::filesystem::path& path) {
    std::vector<std::byte> bytes = read_all(path);
    if (path.extension() == ".glb") {
        Document doc = from_glb(bytes);
        return doc;
    }
    Document doc;
    doc.json_ = nlohmann::json::parse(reinterpret_cast<const char*>(bytes.data()),
                                      reinterpret_cast<const char*>(bytes.data()) + bytes.size());
    if (doc.json_.contains("buffers")) {
        const std::string uri = doc.json_["buffers"][0]["uri"].get<std::string>();
        doc.bin_ = read_all(path.parent_path() / uri);
    }
    return doc;
}

std::vector<std::byte> Document::bytes_of_view(size_t view) const {
    const nlohmann::json& v = json_["bufferViews"][view];
    const size_t offset = v.value("byteOffset", size_t{0});
    const size_t length = v["byteLength"].get<size_t>();
    if (offset + length > bin_.size())
        throw std::runtime_error("buffer view " + std::to_string(view) + " past the buffer");
    return {bin_.begin() + static_cast<std::ptrdiff_t>(offset),
            bin_.begin() + static_cast<std::ptrdiff_t>(offset + length)};
}

std::vector<double> Document::accessor(size_t index, size_t* components_out) const {
    const nlohmann::json& a = json_["accessors"][index];
    const size_t components = components_of(a["type"].get<std::string>());
    const size_t count = a["count"].get<size_t>();
    const uint32_t type = a["componentType"].get<uint32_t>();
    const bool normalized = a.value("normalized", false);
    const size_t size = type == 5126 || type == 5125 ? 4 : type == 5123 || type == 5122 ? 2 : 1;
    const std::vector<std::byte> view = bytes_of_view(a["bufferView"].get<size_t>());
    const size_t offset = a.value("byteOffset", size_t{0});
    const size_t stride =
        json_["bufferViews"][a["bufferView"].get<size_t>()].value("byteStride", components * size);
    std::vector<double> out(count * components);
    for (size_t e = 0; e < count; ++e) {
        for (size_t c = 0; c < components; ++c) {
            const size_t at = offset + e * stride + c * size;
            if (at + size > view.size())
                throw std::runtime_error("accessor " + std::to_string(index) + " past its view");
            double value = 0;
            switch (type) {
            case 5126: {
                float f;
                std::memcpy(&f, view.data() + at, 4);
                value = f;
                break;
            }
            case 5125: {
                uint32_t u;
                std::memcpy(&u, view.data() + at, 4);
                value = u;
                break;
            }
            case 5123: {
                uint16_t u;
                std::memcpy(&u, view.data() + at, 2);
                value = normalized ? u / 65535.0 : u;
                break;
            }
            case 5122: {
                int16_t i;
                std::memcpy(&i, view.data() + at, 2);
                value = normalized ? std::max(i / 32767.0, -1.0) : i;
                break;
            }
            case 5121: {
                value = normalized ? uint8_t(view[at]) / 255.0 : uint8_t(view[at]);
                break;
            }
            case 5120: {
                const auto i = static_cast<int8_t>(view[at]);
                value = normalized ? std::max(i / 127.0, -1.0) : i;
                break;
            }
            default:
                throw std::runtime_error("unknown componentType " + std::to_string(type));
            }
            out[e * components + c] = value;
        }
    }
    if (components_out) *components_out = components;
    return out;
}

double Document::animation_length(size_t animation) const {
    double length = 0;
    for (const nlohmann::json& sampler : json_["animations"][animation]["samplers"]) {
        const std::vector<double> times = accessor(sampler["input"].get<size_t>());
        if (!times.empty()) length = std::max(length, times.back());
    }
    return length;
}

Document::Pose Document::pose(std::optional<size_t> animation, double seconds) const {
    const nlohmann::json& nodes = list("nodes");
    const size_t count = nodes.size();
    std::vector<Eigen::Vector3d> t(count, Eigen::Vector3d::Zero()), s(count, Eigen::Vector3d::Ones());
    std::vector<Eigen::Quaterniond> r(count, Eigen::Quaterniond::Identity());
    std::vector<std::optional<Eigen::Matrix4d>> matrix(count);
    for (size_t n = 0; n < count; ++n) {
        const nlohmann::json& node = nodes[n];
        if (node.contains("matrix")) {
            Eigen::Matrix4d m;
            for (int k = 0; k < 16; ++k)
                m(k % 4, k / 4) = node["matrix"][static_cast<size_t>(k)].get<double>();
            matrix[n] = m;
        }
        if (node.contains("translation"))
            for (int c = 0; c < 3; ++c)
                t[n][c] = node["translation"][static_cast<size_t>(c)].get<double>();
        if (node.contains("scale"))
            for (int c = 0; c < 3; ++c)
                s[n][c] = node["scale"][static_cast<size_t>(c)].get<double>();
        if (node.contains("rotation")) {
            const nlohmann::json& q = node["rotation"];
            r[n] = Eigen::Quaterniond(q[3].get<double>(), q[0].get<double>(), q[1].get<double>(),
                                      q[2].get<double>());
        }
    }
    if (animation) {
        const nlohmann::json& anim = json_["animations"][*animation];
        for (const nlohmann::json& channel : anim["channels"]) {
            const nlohmann::json& sampler = anim["samplers"][channel["sampler"].get<size_t>()];
            const std::vector<double> times = accessor(sampler["input"].get<size_t>());
            size_t width = 0;
            const std::vector<double> values = accessor(sampler["output"].get<size_t>(), &width);
            const std::string mode = sampler.value("interpolation", std::string("LINEAR"));
            const size_t n = channel["target"]["node"].get<size_t>();
            const std::string path = channel["target"]["path"].get<std::string>();
            // The segment holding the time, clamped at the ends.
            size_t k0 = 0, k1 = 0;
            double f = 0;
            if (seconds <= times.front()) {
                k0 = k1 = 0;
            } else if (seconds >= times.back()) {
                k0 = k1 = times.size() - 1;
            } else {
                k1 = static_cast<size_t>(std::upper_bound(times.begin(), times.end(), seconds) -
                                         times.begin());
                k0 = k1 - 1;
                f = (seconds - times[k0]) / (times[k1] - times[k0]);
                if (mode == "STEP") k1 = k0, f = 0;
            }
            const auto at = [&](size_t k, size_t c) { return values[k * width + c]; };
            if (path == "rotation") {
                const Eigen::Quaterniond a(at(k0, 3), at(k0, 0), at(k0, 1), at(k0, 2));
                const Eigen::Quaterniond b(at(k1, 3), at(k1, 0), at(k1, 1), at(k1, 2));
                r[n] = a.slerp(f, b);
            } else {
                Eigen::Vector3d v;
                for (int c = 0; c < 3; ++c)
                    v[c] = at(k0, size_t(c)) + (at(k1, size_t(c)) - at(k0, size_t(c))) * f;
                (path == "translation" ? t[n] : s[n]) = v;
            }
            matrix[n].reset();
        }
    }
    std::vector<int64_t> parent(count, -1);
    for (size_t n = 0; n < count; ++n)
        for (const nlohmann::json& child : nodes[n].value("children", nlohmann::json::array()))
            parent[child.get<size_t>()] = static_cast<int64_t>(n);
    Pose pose;
    pose.globals.assign(count, Eigen::Matrix4d::Identity());
    std::vector<int> done(count, 0);
    for (size_t n = 0; n < count; ++n) { // parents before children, whatever the order of the array
        std::vector<size_t> chain;
        for (int64_t k = static_cast<int64_t>(n); k >= 0 && !done[static_cast<size_t>(k)];
             k = parent[static_cast<size_t>(k)])
            chain.push_back(static_cast<size_t>(k));
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const size_t k = *it;
            const Eigen::Matrix4d local = matrix[k] ? *matrix[k] : trs(t[k], r[k], s[k]);
            pose.globals[k] =
                parent[k] < 0 ? local : Eigen::Matrix4d(pose.globals[static_cast<size_t>(parent[k])] * local);
            done[k] = 1;
        }
    }
    return pose;
}

std::vector<Eigen::Vector3d> Document::posed_vertices(const Pose& pose, size_t node, size_t primitive) const {
    const nlohmann::json& n = json_["nodes"][node];
    const nlohmann::json& p = json_["meshes"][n["mesh"].get<size_t>()]["primitives"][primitive];
    const nlohmann::json& attributes = p["attributes"];
    const std::vector<double> positions = accessor(attributes["POSITION"].get<size_t>());
    const size_t count = positions.size() / 3;
    std::vector<Eigen::Vector3d> out(count);
    if (!n.contains("skin")) {
        for (size_t v = 0; v < count; ++v)
            out[v] = (pose.globals[node] *
                      Eigen::Vector4d(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2], 1))
                         .head<3>();
        return out;
    }
    const nlohmann::json& skin = json_["skins"][n["skin"].get<size_t>()];
    const std::vector<double> joints = accessor(attributes["JOINTS_0"].get<size_t>());
    const std::vector<double> weights = accessor(attributes["WEIGHTS_0"].get<size_t>());
    const std::vector<double> inverse = accessor(skin["inverseBindMatrices"].get<size_t>());
    std::vector<Eigen::Matrix4d> joint_matrix(skin["joints"].size());
    for (size_t j = 0; j < joint_matrix.size(); ++j) {
        Eigen::Matrix4d ibm;
        for (int e = 0; e < 16; ++e)
            ibm(e % 4, e / 4) = inverse[16 * j + static_cast<size_t>(e)];
        joint_matrix[j] = pose.globals[skin["joints"][j].get<size_t>()] * ibm;
    }
    for (size_t v = 0; v < count; ++v) {
        const Eigen::Vector4d position(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2], 1);
        Eigen::Vector4d sum = Eigen::Vector4d::Zero();
        for (size_t k = 0; k < 4; ++k) {
            const double w = weights[4 * v + k];
            if (w != 0) sum += w * (joint_matrix[static_cast<size_t>(joints[4 * v + k])] * position);
        }
        out[v] = sum.head<3>();
    }
    return out;
}

} // namespace assbin_test::gltf
