// corpus_convert: converts every full (not shortened) dump under a corpus folder and checks each
// result. A file passes when
//   - it converts, the model passes aem::validate, survives to_bytes/read_model unchanged, every
//     colour set, UV channel, camera and light the model cannot hold is counted in a warning, and its
//     poses agree with the independent Assimp-semantics evaluator (bind pose and eight times of every
//     animation, within 1e-4 x the model's size); its geometry is optimised without loss: the weld is
//     exact (no two identical vertex records in one mesh), every triangle of the source-order
//     conversion (optimize off) is there with the same corners, winding and material, and there is
//     one mesh per material used; or
//   - it is refused, and the reason is true: an independent check of the scene confirms it
//       no-triangles   no node refers to a mesh holding a face of 3+ in-range indices over finite
//                      positions (no meshes, only points/lines, empty or out-of-range faces);
//       name-too-long  a material names a texture, or an animation is named, with over 127 bytes;
//       non-finite     a node transform holds NaN or infinity.
// Everything else (an unreadable file, an internal refusal, a refusal the check does not confirm,
// an invalid model, a pose mismatch) fails. Prints one line per refusal and failure, then
// "convert: N passed, M failed" and exits 1 when M > 0.
//
// With --layout-2025 the models are the 2025 layout's; --compress adds block-compressed textures
// (BC7, BC5), so that those models are held to the same checks.
//
// With --tangents it instead measures generated tangents against the ones Assimp stored (dumps
// with tangents): the angle between them per vertex, and how often the handedness agrees
// (--per-file adds one line per dump).
#include "assimp_oracle.hpp"
#include "geometry_checks.hpp"

#include "algorithms.hpp"
#include "support/expected_failures.hpp"
#include <aem/io.hpp>
#include <aem/pose.hpp>
#include <aem/validate.hpp>

#include <assbin/converter/convert.hpp>
#include <assbin/error.hpp>
#include <assbin/format.hpp>
#include <assbin/reader.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numbers>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using assbin::converter::Refusal;

namespace {

// ---- independent checks of refusal reasons ----

bool has_drawable_face(const assbin::Mesh& mesh) {
    if (!mesh.positions) return false;
    const auto& p = mesh.positions->values;
    for (size_t f = 0; f < mesh.faces.size(); ++f) {
        const auto face = mesh.faces.face(f);
        if (face.size() < 3) continue;
        bool good = true;
        for (const uint32_t i : face)
            good = good && i < p.size() && p[i].allFinite();
        if (good) return true;
    }
    return false;
}

bool confirms_no_triangles(const assbin::Scene& scene) {
    for (const assbin::Node& node : scene.nodes) {
        for (const uint32_t m : node.meshes) {
            if (m < scene.meshes.size() && has_drawable_face(scene.meshes[m])) return false;
        }
    }
    return true;
}

// Lengths as C code sees them: up to the first NUL.
bool confirms_long_name(const assbin::Scene& scene) {
    const auto c_length = [](const std::string& text) { return std::min(text.size(), text.find('\0')); };
    for (const assbin::Animation& animation : scene.animations) {
        if (c_length(animation.name) > 127) return true;
    }
    for (const assbin::Material& material : scene.materials) {
        for (const assbin::MaterialProperty& property : material.properties) {
            if (property.key == "$tex.file" && c_length(property.string_value().value_or("")) > 127)
                return true;
        }
    }
    return false;
}

bool confirms_non_finite(const assbin::Scene& scene) {
    return std::any_of(scene.nodes.begin(), scene.nodes.end(),
                       [](const assbin::Node& node) { return !node.transform.allFinite(); });
}

// Some index outside its array: a node's mesh, a mesh's material, a weight's vertex, a "*N" texture.
bool confirms_bad_reference(const assbin::Scene& scene) {
    for (const assbin::Node& node : scene.nodes) {
        for (const uint32_t m : node.meshes)
            if (m >= scene.meshes.size()) return true;
    }
    for (const assbin::Mesh& mesh : scene.meshes) {
        if (mesh.material_index >= scene.materials.size()) return true;
        for (const assbin::Bone& bone : mesh.bones) {
            for (const assbin::VertexWeight& weight : bone.weights)
                if (weight.vertex >= mesh.vertex_count) return true;
        }
    }
    for (const assbin::Material& material : scene.materials) {
        for (const assbin::MaterialProperty& property : material.properties) {
            const std::string path = property.key == "$tex.file" ? property.string_value().value_or("") : "";
            if (path.size() > 1 && path.size() < 20 && path[0] == '*' &&
                path.find_first_not_of("0123456789", 1) == std::string::npos &&
                std::stoull(path.substr(1)) >= scene.textures.size())
                return true;
        }
    }
    return false;
}

bool reason_is_true(Refusal refusal, const assbin::Scene& scene) {
    switch (refusal) {
    case Refusal::Shortened:
        return scene.is_shortened();
    case Refusal::NoTriangles:
        return confirms_no_triangles(scene);
    case Refusal::NameTooLong:
        return confirms_long_name(scene);
    case Refusal::NonFinite:
        return confirms_non_finite(scene);
    case Refusal::BadReference:
        return confirms_bad_reference(scene);
    case Refusal::Internal:
        return false;
    }
    return false;
}

// ---- checks of a converted model ----

// The largest pose error over the bind pose and eight times of each animation, relative to size.
double worst_relative_pose_error(const assbin::Scene& scene, const assbin::converter::ConvertResult& result) {
    const assbin_test::oracle::SceneEvaluator evaluator(scene);
    const aem::Model& model = result.model;
    double worst = 0;
    const auto compare = [&](std::optional<uint32_t> animation, float seconds) {
        const aem::Pose pose = aem::evaluate_pose(model, animation, seconds);
        const auto expected =
            evaluator.pose(animation ? std::optional<size_t>(*animation) : std::nullopt, seconds);
        for (uint32_t v = 0; v < model.vertices.size(); ++v) {
            const auto& o = result.vertex_origins[v];
            const Eigen::Vector3d want = evaluator.vertex_position(expected, o.node, o.mesh, o.vertex);
            worst = std::max(worst, (want - aem::skinned_position(model, pose, v).cast<double>()).norm());
        }
    };
    compare(std::nullopt, 0);
    for (uint32_t a = 0; a < model.animations.size(); ++a) {
        const float d = model.animations[a].duration;
        for (const float t : {-0.25f, 0.0f, 0.15f * d, 0.3f * d, 0.5f * d, 0.7f * d, 0.9f * d, d + 0.5f})
            compare(a, t);
    }
    return worst / assbin_test::model_size(model);
}

// Why the optimised geometry differs from the source-order conversion of the same scene, or empty.
std::string check_optimised_geometry(const assbin::Scene& scene, const aem::Model& model) {
    if (const auto mesh = assbin_test::mesh_with_unwelded_vertices(model))
        return "mesh " + std::to_string(*mesh) + " holds two identical vertex records (weld missed)";
    assbin::converter::ConvertOptions source_order;
    source_order.optimize = false;
    source_order.layout = model.layout;
    const aem::Model plain = assbin::converter::convert(scene, source_order).model;
    if (assbin_test::triangle_fingerprints(plain, assbin_test::Frames::Excluded) !=
        assbin_test::triangle_fingerprints(model, assbin_test::Frames::Excluded))
        return "the optimised triangles differ from the source-order ones (lost, changed or rewound)";
    if (model.meshes.size() != assbin_test::materials_used(plain))
        return std::to_string(model.meshes.size()) + " meshes for " +
               std::to_string(assbin_test::materials_used(plain)) + " materials used";
    return {};
}

// ---- what the model cannot hold is said ----

// The count a warning names before `words` ("3 vertex colour sets dropped ..."), or 0 when no
// warning says it.
size_t count_named(const std::vector<std::string>& warnings, const std::string& words) {
    for (const std::string& warning : warnings) {
        const size_t at = warning.find(words);
        if (at == std::string::npos) continue;
        size_t start = at;
        while (start > 0 && std::isdigit(static_cast<unsigned char>(warning[start - 1])))
            --start;
        if (start < at) return std::stoul(warning.substr(start, at - start));
    }
    return 0;
}

// Every vertex colour set and UV channel of the dump's meshes (those with vertices) is either in
// the model (AEM keeps the one UV channel converted, and no colours) or counted in a warning; and
// so are the scene's cameras and lights, which AEM has no place for.
std::string check_drops_said(const assbin::Scene& scene, const assbin::converter::ConvertResult& result) {
    size_t colour_sets = 0, uv_channels = 0, uv_kept = 0;
    for (const assbin::Mesh& mesh : scene.meshes) {
        if (!mesh.positions || mesh.positions->values.empty()) continue;
        colour_sets += mesh.color_sets.size();
        uv_channels += mesh.uv_channels.size();
        uv_kept += mesh.uv_channels.empty() ? 0 : 1; // channel 0, the one converted by default
    }
    const std::vector<std::string>& said = result.warnings;
    const size_t colours_named = count_named(said, " vertex colour set");
    const size_t uvs_named = count_named(said, " UV channel");
    const size_t cameras_named = count_named(said, " camera");
    const size_t lights_named = count_named(said, " light");
    std::string problem;
    const auto expect = [&](const char* what, size_t in_dump, size_t kept, size_t named) {
        if (in_dump != kept + named)
            problem += std::string(problem.empty() ? "" : "; ") + what + ": " + std::to_string(in_dump) +
                       " in the dump, " + std::to_string(kept) + " kept, " + std::to_string(named) +
                       " named in warnings";
    };
    expect("vertex colour sets", colour_sets, 0, colours_named);
    expect("UV channels", uv_channels, uv_kept, uvs_named);
    expect("cameras", scene.cameras.size(), 0, cameras_named);
    expect("lights", scene.lights.size(), 0, lights_named);
    return problem;
}

// Why a converted model fails, or empty.
std::string check_model(const assbin::Scene& scene, const assbin::converter::ConvertResult& result,
                        bool check_poses) {
    if (std::string problem = check_optimised_geometry(scene, result.model); !problem.empty()) return problem;
    const std::vector<aem::Violation> violations = aem::validate(result.model);
    if (!violations.empty()) return "invalid model: " + aem::to_string(violations.front());
    if (!(aem::read_model(aem::to_bytes(result.model)) == result.model))
        return "the model does not survive a round trip";
    if (check_poses) {
        const double error = worst_relative_pose_error(scene, result);
        if (!(error <= 1e-4))
            return "pose differs from Assimp's by " + std::to_string(error) + " x the model's size";
    }
    return {};
}

int convert_all(const fs::path& folder, bool check_poses, const std::set<std::string>& unreadable,
                aem::Layout layout, bool compress) {
    size_t passed = 0, failed = 0, refused = 0, skipped = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const fs::path& file : assbin::find_dumps(folder)) {
        const std::string name = fs::relative(file, folder).string();
        std::optional<assbin::Scene> read =
            assbin_test::read_corpus_dump(file, name, unreadable, true, passed, failed);
        if (!read) continue;
        assbin::Scene& scene = *read;
        if (scene.is_shortened()) {
            ++skipped;
            continue;
        }
        try {
            assbin::converter::ConvertOptions options;
            options.record_vertex_origins = true;
            options.layout = layout;
            options.compress_textures = compress;
            const assbin::converter::ConvertResult result = assbin::converter::convert(scene, options);
            std::string problem = check_model(scene, result, check_poses);
            if (problem.empty()) problem = check_drops_said(scene, result);
            if (problem.empty()) {
                ++passed;
            } else {
                std::cout << "FAILED   " << name << ": " << problem << "\n";
                ++failed;
            }
        } catch (const assbin::converter::ConvertError& error) {
            const bool confirmed = reason_is_true(error.refusal(), scene);
            std::cout << (confirmed ? "refused  " : "FAILED   ") << name << ": ["
                      << assbin::converter::refusal_name(error.refusal()) << "] " << error.what()
                      << (confirmed ? "" : " (the independent check does not confirm this reason)") << "\n";
            (confirmed ? passed : failed) += 1;
            refused += confirmed ? 1 : 0;
        } catch (const std::exception& error) {
            std::cout << "FAILED   " << name << ": " << error.what() << "\n";
            ++failed;
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf(
        "(%zu shortened dumps skipped; %zu of the passed files are refusals with a true reason; %.1f s)\n",
        skipped, refused, seconds);
    std::printf("convert: %zu passed, %zu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

// ---- tangent accuracy ----

struct TangentStats {
    std::vector<double> angles; // degrees, per compared vertex corner
    size_t same_handedness = 0;
    size_t files = 0;
};

void measure_mesh(const assbin::Mesh& mesh, TangentStats& stats) {
    using assbin::converter::TriangleMesh;
    if (!mesh.positions || !mesh.normals || !mesh.tangents || !mesh.bitangents || mesh.uv_channels.empty())
        return;
    const size_t count = mesh.positions->values.size();
    TriangleMesh tm;
    tm.positions = mesh.positions->values;
    tm.normals = mesh.normals->values;
    for (const auto& uv : mesh.uv_channels[0].values)
        tm.uvs.emplace_back(uv.x(), uv.y());
    for (uint32_t v = 0; v < count; ++v)
        tm.source_vertex.push_back(v);
    for (size_t f = 0; f < mesh.faces.size(); ++f) {
        const auto face = mesh.faces.face(f);
        if (face.size() < 3 || std::any_of(face.begin(), face.end(), [&](uint32_t i) { return i >= count; }))
            continue;
        std::vector<Eigen::Vector3f> corners;
        for (const uint32_t i : face)
            corners.push_back(tm.positions[i]);
        for (const auto& t : assbin::converter::triangulate_polygon(corners)) {
            for (const uint32_t c : t)
                tm.triangles.push_back(face[c]);
        }
    }
    if (tm.triangles.empty()) return;
    assbin::converter::generate_tangents(tm);
    for (size_t v = 0; v < tm.vertex_count(); ++v) {
        const uint32_t s = tm.source_vertex[v];
        const Eigen::Vector3f n = tm.normals[v].normalized();
        Eigen::Vector3f stored = mesh.tangents->values[s];
        stored -= n * n.dot(stored); // Assimp orthogonalises too; remove rounding
        if (!stored.allFinite() || stored.norm() < 1e-6f || !n.allFinite()) continue;
        const double cosine =
            std::clamp(static_cast<double>(stored.normalized().dot(tm.tangents[v])), -1.0, 1.0);
        stats.angles.push_back(std::acos(cosine) * 180.0 / std::numbers::pi);
        const float stored_sign = n.cross(stored).dot(mesh.bitangents->values[s]);
        const float generated_sign = n.cross(tm.tangents[v]).dot(tm.bitangents[v]);
        stats.same_handedness += (stored_sign >= 0) == (generated_sign >= 0) ? 1 : 0;
    }
}

int measure_tangents(const fs::path& folder, bool per_file) {
    TangentStats stats;
    for (const fs::path& file : assbin::find_dumps(folder)) {
        assbin::Scene scene;
        try {
            scene = assbin::read_file(file);
        } catch (const assbin::ParseError&) {
            continue;
        }
        // Full dumps only, and one of each model (the compressed twin holds the same meshes).
        const std::string name = file.filename().string();
        if (scene.is_shortened() || name.ends_with(".z.assbin")) continue;
        const size_t before = stats.angles.size();
        for (const assbin::Mesh& mesh : scene.meshes)
            measure_mesh(mesh, stats);
        stats.files += stats.angles.size() > before ? 1 : 0;
        if (per_file && stats.angles.size() > before) {
            std::vector<double> mine(stats.angles.begin() + static_cast<std::ptrdiff_t>(before),
                                     stats.angles.end());
            std::sort(mine.begin(), mine.end());
            std::printf("%-70s %6zu  median %7.3f  90%% %7.3f  max %7.3f\n", name.c_str(), mine.size(),
                        mine[mine.size() / 2], mine[mine.size() * 9 / 10], mine.back());
        }
    }
    std::vector<double>& a = stats.angles;
    if (a.empty()) {
        std::printf("no dump with tangents found\n");
        return 1;
    }
    std::sort(a.begin(), a.end());
    const auto quantile = [&](double q) {
        return a[std::min(a.size() - 1, static_cast<size_t>(q * a.size()))];
    };
    const auto share_within = [&](double degrees) {
        return 100.0 * static_cast<double>(std::upper_bound(a.begin(), a.end(), degrees) - a.begin()) /
               a.size();
    };
    std::printf("tangents: %zu vertices in %zu dumps with tangents stored by Assimp (CalcTangentSpace)\n",
                a.size(), stats.files);
    std::printf("angle to Assimp's tangent (degrees): median %.3f, 90%% %.3f, 99%% %.3f, max %.3f\n",
                quantile(0.5), quantile(0.9), quantile(0.99), a.back());
    std::printf("within 1 degree %.1f%%, within 5 degrees %.1f%%, within 15 degrees %.1f%%\n",
                share_within(1), share_within(5), share_within(15));
    std::printf("same handedness (bitangent sign) %.1f%%\n", 100.0 * stats.same_handedness / a.size());
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    bool tangents = false, poses = true, per_file = false, compress = false;
    fs::path folder, expected_failures;
    aem::Layout layout = aem::Layout::Edition2024;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--tangents") {
            tangents = true;
        } else if (arg == "--per-file") {
            per_file = true;
        } else if (arg == "--no-poses") {
            poses = false;
        } else if (arg == "--layout-2025") {
            layout = aem::Layout::Edition2025;
        } else if (arg == "--compress") {
            compress = true;
        } else if (arg == "--expect-failures" && i + 1 < argc) {
            expected_failures = argv[++i];
        } else if (folder.empty() && arg[0] != '-') {
            folder = arg;
        } else {
            folder.clear();
            break;
        }
    }
    if (folder.empty() || !fs::is_directory(folder) || (compress && layout != aem::Layout::Edition2025)) {
        std::fprintf(stderr, "usage: corpus_convert [--tangents [--per-file]] [--no-poses] "
                             "[--layout-2025 [--compress]] [--expect-failures LIST] CORPUS_FOLDER\n");
        return 2;
    }
    return tangents ? measure_tangents(folder, per_file)
                    : convert_all(folder, poses, assbin_test::read_expected_failures(expected_failures),
                                  layout, compress);
}
