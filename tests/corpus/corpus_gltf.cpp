// corpus_gltf: converts every full dump under a corpus folder to glTF and checks each file. A dump
// passes when
//   - it converts to .glb and to .gltf (with its .bin and images), and the glTF files, read back by
//     the tests' own reader (support/gltf_read: nlohmann-json, no writer code), hold what the dump
//     holds: one primitive per kind of face a mesh has (triangles, lines, points), as many
//     triangles as the faces make (a polygon of n corners n - 2 at most), every line and point,
//     each mesh's UV and colour sets, every camera and punctual light, one animation channel per
//     key track of the channels that drive a node, a node for every dump node (by name, in order);
//   - with bones or animations, its pose equals the dump's by the Assimp-semantics oracle (rest pose
//     and eight times of every animation, within 1e-4 of the model's size): every vertex of every
//     primitive, skinned by JOINTS_0/WEIGHTS_0 and the inverse bind matrices;
//   - or it is refused, and AEM conversion refuses it too, in the same words (a scene with nothing
//     to draw, which AEM refuses, is a glTF file and must pass as one).
// Then Khronos's glTF-Validator (--node NODE --validator tests/gltf/validate.js) reads every file
// written: each must have 0 errors and 0 warnings. With --tangents tests/gltf/tangents.js, a second
// MikkTSpace (glTF-Transform's tangents()) is run on every .glb written, and every corner's TANGENT
// must agree with it: w equal, xyz within 1 degree. Prints the failures, then
// "gltf: N passed, M failed (K files validated)" and exits 1 when M > 0.
#include "gltf_checks.hpp"
#include "support/gltf_read.hpp"

#include "support/expected_failures.hpp"

#include <assbin/converter/convert.hpp>
#include <assbin/error.hpp>
#include <assbin/format.hpp>
#include <assbin/reader.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using assbin::converter::ConvertOptions;
using assbin::converter::ConvertResult;
using assbin::converter::OutputFormat;

namespace {

size_t g_posed = 0; // dumps whose poses were compared

std::string check(const assbin::Scene& scene, const ConvertResult& result, bool poses) {
    const assbin_test::gltf::Document doc = assbin_test::gltf::Document::from_glb(result.encoded);
    std::string problem = assbin_test::gltf_counts_differ(scene, result, doc);
    if (problem.empty() && poses) {
        problem = assbin_test::gltf_pose_differs(scene, result, doc);
        ++g_posed;
    }
    return problem;
}

// Runs `node script FILE...` over `files` in batches of 100 and hands each JSON line it prints to
// `report`; returns the failures of running it (a script that cannot start or exits non-zero).
template <class Report>
std::vector<std::string> run_node_script(const std::string& node, const std::string& script,
                                         const std::vector<fs::path>& files, Report&& report) {
    std::vector<std::string> failures;
    for (size_t at = 0; at < files.size(); at += 100) {
        std::string command = "'" + node + "' '" + script + "'";
        for (size_t k = at; k < std::min(files.size(), at + 100); ++k)
            command += " '" + files[k].string() + "'";
        FILE* pipe = popen(command.c_str(), "r");
        if (!pipe) return {"cannot run " + command};
        std::string output;
        char buffer[65536];
        for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;)
            output.append(buffer, n);
        const int status = pclose(pipe);
        if (status != 0) failures.push_back(script + " exited with status " + std::to_string(status));
        std::istringstream lines(output);
        for (std::string line; std::getline(lines, line);)
            report(nlohmann::json::parse(line), failures);
    }
    return failures;
}

// Every corner's TANGENT against glTF-Transform's tangents() (tests/gltf/tangents.js).
struct TangentAgreement {
    size_t files = 0, corners = 0, w_differ = 0, over_1_degree = 0;
    double max_degrees = 0;
};

std::vector<std::string> check_tangents(const std::string& node, const std::string& script,
                                        const std::vector<fs::path>& files, TangentAgreement& agreement) {
    std::vector<fs::path> binaries;
    std::copy_if(files.begin(), files.end(), std::back_inserter(binaries),
                 [](const fs::path& f) { return f.extension() == ".glb"; });
    return run_node_script(
        node, script, binaries, [&](const nlohmann::json& r, std::vector<std::string>& failures) {
            if (r.contains("failure")) {
                failures.push_back(r["file"].get<std::string>() + ": " + r["failure"].get<std::string>());
                return;
            }
            const size_t corners = r["corners"].get<size_t>();
            agreement.files += corners > 0;
            agreement.corners += corners;
            agreement.w_differ += r["w_differ"].get<size_t>();
            agreement.over_1_degree += r["over_1_degree"].get<size_t>();
            agreement.max_degrees = std::max(agreement.max_degrees, r["max_degrees"].get<double>());
            if (r["w_differ"].get<size_t>() > 0 || r["over_1_degree"].get<size_t>() > 0)
                failures.push_back(r["file"].get<std::string>() + ": of " + std::to_string(corners) +
                                   " corners, " + std::to_string(r["w_differ"].get<size_t>()) +
                                   " with the other w, " + std::to_string(r["over_1_degree"].get<size_t>()) +
                                   " over 1 degree apart");
        });
}

// Runs the validator over `files` (in batches); returns the failures it reports.
std::vector<std::string> validate(const std::string& node, const std::string& script,
                                  const std::vector<fs::path>& files, size_t& validated, size_t& infos) {
    return run_node_script(
        node, script, files, [&](const nlohmann::json& report, std::vector<std::string>& failures) {
            ++validated;
            if (report.contains("failure")) {
                failures.push_back(report["file"].get<std::string>() + ": " +
                                   report["failure"].get<std::string>());
                return;
            }
            infos += report["infos"].get<size_t>();
            if (report["errors"].get<size_t>() == 0 && report["warnings"].get<size_t>() == 0) return;
            std::string text = report["file"].get<std::string>() + ": " +
                               std::to_string(report["errors"].get<size_t>()) + " errors, " +
                               std::to_string(report["warnings"].get<size_t>()) + " warnings";
            for (const nlohmann::json& m : report["messages"])
                text += "\n    " + m["code"].get<std::string>() + " " + m["pointer"].get<std::string>() +
                        ": " + m["message"].get<std::string>();
            failures.push_back(text);
        });
}

} // namespace

int main(int argc, char** argv) {
    fs::path folder, expected_failures;
    std::string node, script, tangent_script;
    bool poses = true, quantize = false, meshopt = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--expect-failures" && i + 1 < argc) {
            expected_failures = argv[++i];
        } else if (arg == "--node" && i + 1 < argc) {
            node = argv[++i];
        } else if (arg == "--validator" && i + 1 < argc) {
            script = argv[++i];
        } else if (arg == "--tangents" && i + 1 < argc) {
            tangent_script = argv[++i];
        } else if (arg == "--quantize") {
            quantize = true;
        } else if (arg == "--meshopt") {
            meshopt = true; // the reader does not decode it: the validator's verdict alone
        } else if (arg == "--no-poses") {
            poses = false;
        } else if (folder.empty() && arg[0] != '-') {
            folder = arg;
        } else {
            folder.clear();
            break;
        }
    }
    if (folder.empty() || !fs::is_directory(folder) || node.empty() != script.empty() ||
        (!tangent_script.empty() && node.empty())) {
        std::fprintf(stderr,
                     "usage: corpus_gltf [--node NODE --validator validate.js [--tangents tangents.js]] "
                     "[--quantize] [--meshopt] [--no-poses] [--expect-failures LIST] CORPUS_FOLDER\n");
        return 2;
    }
    const std::set<std::string> unreadable = assbin_test::read_expected_failures(expected_failures);
    const fs::path out = fs::temp_directory_path() / ("assbin-corpus-gltf-" + std::to_string(::getpid()));
    fs::create_directories(out);
    std::vector<fs::path> written;
    size_t passed = 0, failed = 0, refused = 0, number = 0;
    for (const fs::path& file : assbin::find_dumps(folder)) {
        const std::string name = fs::relative(file, folder).string();
        std::optional<assbin::Scene> read =
            assbin_test::read_corpus_dump(file, name, unreadable, false, passed, failed);
        if (!read) continue;
        assbin::Scene& scene = *read;
        if (scene.is_shortened()) continue;
        ConvertOptions options;
        options.format = OutputFormat::Glb;
        options.quantize = quantize;
        options.key_error = quantize ? assbin::converter::kQuantizedKeyError : 0.0; // as --quantize
        options.meshopt = meshopt;
        options.record_vertex_origins = true;
        options.source_folder = file.parent_path();
        try {
            const ConvertResult glb = assbin::converter::convert(scene, options);
            std::string problem =
                meshopt
                    ? std::string()
                    : check(scene, glb,
                            poses && (!scene.animations.empty() ||
                                      std::any_of(scene.meshes.begin(), scene.meshes.end(),
                                                  [](const assbin::Mesh& m) { return !m.bones.empty(); })));
            const std::string stem = std::to_string(number++);
            options.format = OutputFormat::Gltf;
            options.texture_stem = stem;
            const ConvertResult gltf = assbin::converter::convert(scene, options);
            assbin::converter::write_output(glb, out / (stem + ".glb"));
            assbin::converter::write_output(gltf, out / (stem + ".gltf"));
            written.push_back(out / (stem + ".glb"));
            written.push_back(out / (stem + ".gltf"));
            if (problem.empty() && !meshopt) {
                const auto reread = assbin_test::gltf::Document::from_file(out / (stem + ".gltf"));
                // A scene with nothing to draw has no accessors at all: list() says so.
                if (reread.list("accessors").size() !=
                    assbin_test::gltf::Document::from_glb(glb.encoded).list("accessors").size())
                    problem = "the .gltf and the .glb hold different accessors";
            }
            if (problem.empty()) {
                ++passed;
            } else {
                std::cout << "FAILED   " << name << " (" << stem << "): " << problem << "\n";
                ++failed;
            }
        } catch (const assbin::converter::ConvertError& error) {
            // AEM must refuse it too, in the same words.
            std::string aem_words;
            try {
                assbin::converter::convert(scene, ConvertOptions{});
            } catch (const assbin::converter::ConvertError& aem_error) {
                aem_words = aem_error.what();
            }
            const bool same = aem_words == error.what();
            std::cout << (same ? "refused  " : "FAILED   ") << name << ": " << error.what()
                      << (same ? "" : " (AEM conversion says: '" + aem_words + "')") << "\n";
            (same ? passed : failed) += 1;
            refused += same;
        } catch (const std::exception& error) {
            std::cout << "FAILED   " << name << ": " << error.what() << "\n";
            ++failed;
        }
    }
    size_t validated = 0, infos = 0;
    if (!node.empty()) {
        for (const std::string& failure : validate(node, script, written, validated, infos)) {
            std::cout << "FAILED   validator: " << failure << "\n";
            ++failed;
        }
    }
    if (!tangent_script.empty()) {
        TangentAgreement agreement;
        for (const std::string& failure : check_tangents(node, tangent_script, written, agreement)) {
            std::cout << "FAILED   tangents: " << failure << "\n";
            ++failed;
        }
        std::cout << "tangents: " << agreement.corners << " corners in " << agreement.files
                  << " files against glTF-Transform's MikkTSpace: " << agreement.w_differ
                  << " with the other w, " << agreement.over_1_degree
                  << " over 1 degree apart (the largest angle " << agreement.max_degrees << " degrees)\n";
    }
    std::error_code ignored;
    if (failed == 0) fs::remove_all(out, ignored);
    std::cout << "gltf: " << passed << " passed (" << refused
              << " refused as AEM refuses them; poses compared in " << g_posed
              << " with bones or animations), " << failed << " failed; " << validated
              << " files validated, 0 errors and 0 warnings required (" << infos << " infos)"
              << (failed ? "; files kept in " + out.string() : std::string()) << "\n";
    return failed == 0 ? 0 : 1;
}
