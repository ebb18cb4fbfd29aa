#include "tangent_reference.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace assbin_test::tangents {

namespace {

// The converter's own rule (prepare_mesh.cpp): tangents are generated after baking for a mesh
// whose stored tangents or bitangents do not cover every vertex and whose UV channel 0 does.
bool tangents_generated(const assbin::Mesh& mesh) {
    if (!mesh.positions) return false;
    const size_t count = mesh.positions->values.size();
    const bool stored = mesh.tangents && mesh.tangents->values.size() == count && mesh.bitangents &&
                        mesh.bitangents->values.size() == count;
    return !stored && !mesh.uv_channels.empty() && mesh.uv_channels[0].values.size() == count;
}

void put_u32(std::ofstream& out, uint32_t value) {
    out.write(reinterpret_cast<const char*>(&value), 4);
}
void put_floats(std::ofstream& out, std::initializer_list<float> values) {
    for (const float value : values)
        out.write(reinterpret_cast<const char*>(&value), 4);
}

// What the reference's InitTriInfo and degenerate pass call unusable: two equal positions, or UVs
// whose derivatives vanish (GROUP_WITH_ANY).
bool reference_degenerate(const aem::Vertex& a, const aem::Vertex& b, const aem::Vertex& c) {
    if (a.position == b.position || a.position == c.position || b.position == c.position) return true;
    const Eigen::Vector2f t21 = b.uv - a.uv, t31 = c.uv - a.uv;
    const float area = t21.x() * t31.y() - t21.y() * t31.x();
    if (!(std::fabs(area) > FLT_MIN)) return true;
    const Eigen::Vector3f d1 = b.position - a.position, d2 = c.position - a.position;
    const float s = (t31.y() * d1 - t21.y() * d2).norm() / std::fabs(area);
    const float t = (-t31.x() * d1 + t21.x() * d2).norm() / std::fabs(area);
    return !(s > FLT_MIN) || !(t > FLT_MIN);
}

double degrees_between(const Eigen::Vector3f& a, const Eigen::Vector3f& b) {
    const double cosine = a.cast<double>().normalized().dot(b.cast<double>().normalized());
    return std::acos(std::clamp(cosine, -1.0, 1.0)) * 180.0 / 3.14159265358979323846;
}

} // namespace

std::vector<std::vector<uint32_t>> generated_corners(const assbin::Scene& scene,
                                                     const assbin::converter::ConvertResult& result) {
    const aem::Model& model = result.model;
    if (result.vertex_origins.size() != model.vertices.size())
        throw std::runtime_error("generated_corners needs record_vertex_origins");
    std::vector<std::vector<uint32_t>> meshes(model.meshes.size());
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const aem::Mesh& mesh = model.meshes[m];
        for (uint32_t i = mesh.first_index; i + 2 < mesh.first_index + mesh.index_count; i += 3) {
            const uint32_t source = result.vertex_origins[model.indices[i]].mesh;
            if (!tangents_generated(scene.meshes[source])) continue;
            meshes[m].insert(meshes[m].end(), model.indices.begin() + i, model.indices.begin() + i + 3);
        }
    }
    return meshes;
}

void write_request(const std::filesystem::path& path, const aem::Model& model,
                   const std::vector<std::vector<uint32_t>>& corners) {
    std::ofstream out(path, std::ios::binary);
    out.write("MKTQ", 4);
    put_u32(out, static_cast<uint32_t>(corners.size()));
    for (const std::vector<uint32_t>& mesh : corners) {
        put_u32(out, static_cast<uint32_t>(mesh.size()));
        for (const uint32_t v : mesh) {
            const aem::Vertex& vertex = model.vertices[v];
            put_floats(out, {vertex.position.x(), vertex.position.y(), vertex.position.z(), vertex.normal.x(),
                             vertex.normal.y(), vertex.normal.z(), vertex.uv.x(), vertex.uv.y()});
        }
    }
    if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

std::vector<std::vector<Eigen::Vector4f>> read_response(const std::filesystem::path& path,
                                                        const std::vector<std::vector<uint32_t>>& corners) {
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t expected = 8;
    for (const std::vector<uint32_t>& mesh : corners)
        expected += mesh.size() * 16;
    if (bytes.size() != expected || std::memcmp(bytes.data(), "MKTR", 4) != 0) {
        throw std::runtime_error(path.string() + ": " + std::to_string(bytes.size()) + " bytes, not the " +
                                 std::to_string(expected) + "-byte answer to this request");
    }
    std::vector<std::vector<Eigen::Vector4f>> reference(corners.size());
    size_t at = 8;
    for (size_t m = 0; m < corners.size(); ++m) {
        for (size_t c = 0; c < corners[m].size(); ++c, at += 16) {
            float values[4];
            std::memcpy(values, bytes.data() + at, 16);
            reference[m].emplace_back(values[0], values[1], values[2], values[3]);
        }
    }
    return reference;
}

void run_reference(const std::string& node, const std::filesystem::path& script,
                   const std::filesystem::path& request, const std::filesystem::path& response) {
    const auto quoted = [](const std::string& text) {
        std::string out = "'";
        for (const char c : text)
            out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        return out + "'";
    };
    const std::string command = quoted(node) + " " + quoted(script.string()) + " " +
                                quoted(request.string()) + " " + quoted(response.string());
    if (std::system(command.c_str()) != 0) throw std::runtime_error("the reference failed: " + command);
}

void Agreement::add(const Agreement& o) {
    corners += o.corners;
    comparable += o.comparable;
    within_0_1 += o.within_0_1;
    within_1 += o.within_1;
    within_5 += o.within_5;
    handedness_agrees += o.handedness_agrees;
    degenerate_corners += o.degenerate_corners;
    degenerate_over_5 += o.degenerate_over_5;
    zero_reference += o.zero_reference;
    reference_failed += o.reference_failed;
    zero_normal += o.zero_normal;
    order_defects += o.order_defects;
    max_degrees = std::max(max_degrees, o.max_degrees);
}

Agreement compare(const aem::Model& model, const std::vector<std::vector<uint32_t>>& corners,
                  const std::vector<std::vector<Eigen::Vector4f>>& reference, const CornerMask* order_defects,
                  std::vector<std::vector<double>>* degrees_out) {
    Agreement agreement;
    if (degrees_out) degrees_out->assign(corners.size(), {});
    for (size_t m = 0; m < corners.size(); ++m) {
        if (degrees_out) (*degrees_out)[m].assign(corners[m].size(), -1.0);
        for (size_t c = 0; c < corners[m].size(); ++c) {
            ++agreement.corners;
            const size_t t = c - c % 3;
            const aem::Vertex& vertex = model.vertices[corners[m][c]];
            const Eigen::Vector3f expected = reference[m][c].head<3>();
            if (!expected.allFinite()) {
                ++agreement.reference_failed;
                continue;
            }
            if (expected.norm() < 0.5f) {
                ++agreement.zero_reference;
                continue;
            }
            const double degrees = degrees_between(vertex.tangent, expected);
            if (reference_degenerate(model.vertices[corners[m][t]], model.vertices[corners[m][t + 1]],
                                     model.vertices[corners[m][t + 2]])) {
                ++agreement.degenerate_corners;
                agreement.degenerate_over_5 += degrees > 5;
                continue;
            }
            if (vertex.normal.isZero()) { // MikkTSpace needs a normal; without one its frame means nothing
                ++agreement.zero_normal;
                continue;
            }
            if (order_defects && (*order_defects)[m][c]) {
                ++agreement.order_defects;
                continue;
            }
            if (degrees_out) (*degrees_out)[m][c] = degrees;
            ++agreement.comparable;
            agreement.within_0_1 += degrees <= 0.1;
            agreement.within_1 += degrees <= 1;
            agreement.within_5 += degrees <= 5;
            agreement.max_degrees = std::max(agreement.max_degrees, degrees);
            const float sign = vertex.bitangent.dot(vertex.normal.cross(vertex.tangent)) >= 0 ? 1.0f : -1.0f;
            agreement.handedness_agrees += sign == (reference[m][c].w() >= 0 ? 1.0f : -1.0f);
        }
    }
    return agreement;
}

std::vector<std::vector<uint32_t>> reversed_triangles(const std::vector<std::vector<uint32_t>>& corners) {
    std::vector<std::vector<uint32_t>> reversed(corners.size());
    for (size_t m = 0; m < corners.size(); ++m)
        for (size_t t = corners[m].size() / 3; t-- > 0;)
            reversed[m].insert(reversed[m].end(), corners[m].begin() + 3 * t, corners[m].begin() + 3 * t + 3);
    return reversed;
}

std::vector<std::vector<Eigen::Vector4f>>
unreversed_answer(const std::vector<std::vector<Eigen::Vector4f>>& answer) {
    std::vector<std::vector<Eigen::Vector4f>> out(answer.size());
    for (size_t m = 0; m < answer.size(); ++m)
        for (size_t t = answer[m].size() / 3; t-- > 0;)
            out[m].insert(out[m].end(), answer[m].begin() + 3 * t, answer[m].begin() + 3 * t + 3);
    return out;
}

CornerMask order_defects(const aem::Model& model, const std::vector<std::vector<uint32_t>>& corners,
                         const std::vector<std::vector<double>>& degrees,
                         const std::vector<std::vector<Eigen::Vector4f>>& reversed_reference) {
    CornerMask mask(corners.size());
    for (size_t m = 0; m < corners.size(); ++m) {
        mask[m].assign(corners[m].size(), 0);
        for (size_t c = 0; c < corners[m].size(); ++c) {
            const Eigen::Vector3f other = reversed_reference[m][c].head<3>();
            if (degrees[m][c] > 1 && other.allFinite() && other.norm() > 0.5f)
                mask[m][c] = degrees_between(model.vertices[corners[m][c]].tangent, other) <= 0.1;
        }
    }
    return mask;
}

} // namespace assbin_test::tangents
