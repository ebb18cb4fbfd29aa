// The converter's tangents against the original MikkTSpace over a whole corpus: every full dump is
// converted (2024 layout), the triangles whose tangents the converter generated are sent to
// mikktspace_reference.js in batches, and every corner is compared (tangent_reference.hpp).
// Usage: corpus_tangents [--node NODE] [--script FILE] [--source-order] [--expect] FOLDER...
// --expect fails (exit 1) unless every comparable corner is within 0.01 degree (what the README
// claims), every bitangent sign agrees, and the corners set apart stay within the shares the corpus
// was measured with (kApart below): comparisons cannot pass by setting corners aside. Where a file
// has corners over 1 degree, the reference is
// asked again with its triangles in reverse order: mikktspace.c leaves the last run of its sorted
// edge list unsorted (docs/FORMAT-NOTES.md), so which fans it splits depends on the numbering; the
// corners it then agrees on are counted apart as its order defects.
#include "tangent_reference.hpp"

#include <assbin/converter/convert.hpp>
#include <assbin/format.hpp>
#include <assbin/reader.hpp>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace assbin_test::tangents;

namespace {

struct Options {
    std::string node = "node";
    fs::path script;
    bool source_order = false;
    bool expect = false;
    std::vector<fs::path> folders;
};

struct Pending {
    std::string name;
    aem::Model model;
    std::vector<std::vector<uint32_t>> corners;
};

class Sweep {
  public:
    explicit Sweep(const Options& options) : options_(options) {
        work_ = fs::temp_directory_path() / ("corpus_tangents." + std::to_string(::getpid()));
        fs::create_directories(work_);
    }
    ~Sweep() {
        std::error_code ignored;
        fs::remove_all(work_, ignored);
    }

    void add(const fs::path& file) {
        assbin::converter::ConvertOptions convert;
        convert.record_vertex_origins = true;
        convert.optimize = !options_.source_order;
        try {
            const assbin::Scene scene = assbin::read_file(file);
            if (scene.is_shortened()) return;
            assbin::converter::ConvertResult result = assbin::converter::convert(scene, convert);
            std::vector<std::vector<uint32_t>> corners = generated_corners(scene, result);
            Pending pending{file.string(), std::move(result.model), std::move(corners)};
            for (const auto& mesh : pending.corners)
                pending_corners_ += mesh.size();
            pending_.push_back(std::move(pending));
        } catch (const std::exception& error) {
            if (unconvertible_++ == 0)
                std::printf("  (first not convertible: %s: %s)\n", file.c_str(), error.what());
            return; // refusals and damaged dumps: corpus_convert checks those
        }
        if (pending_corners_ > (size_t{1} << 21)) flush();
    }

    // Sends the pending models to the reference in one request and compares them.
    void flush() {
        if (pending_.empty()) return;
        std::vector<std::vector<uint32_t>> all;
        aem::Model joined; // the models' vertices one after the other, corners renumbered
        for (const Pending& p : pending_) {
            const uint32_t offset = static_cast<uint32_t>(joined.vertices.size());
            joined.vertices.insert(joined.vertices.end(), p.model.vertices.begin(), p.model.vertices.end());
            for (std::vector<uint32_t> mesh : p.corners) {
                for (uint32_t& v : mesh)
                    v += offset;
                all.push_back(std::move(mesh));
            }
        }
        write_request(work_ / "request", joined, all);
        run_reference(options_.node, options_.script, work_ / "request", work_ / "response");
        const auto reference = read_response(work_ / "response", all);
        size_t mesh = 0;
        for (const Pending& p : pending_) {
            const std::vector<std::vector<uint32_t>> own(all.begin() + mesh,
                                                         all.begin() + mesh + p.corners.size());
            const std::vector<std::vector<Eigen::Vector4f>> answer(
                reference.begin() + mesh, reference.begin() + mesh + p.corners.size());
            mesh += p.corners.size();
            report_file(p.name, checked(joined, own, answer));
        }
        pending_.clear();
        pending_corners_ = 0;
    }

    int finish() {
        flush();
        const Agreement& a = total_;
        const auto percent = [&](size_t part) { return a.comparable ? 100.0 * part / a.comparable : 100.0; };
        std::printf("files: %zu with generated tangents, %zu exact (all corners within 0.1 degree), %zu not "
                    "convertible\n",
                    files_, exact_files_, unconvertible_);
        std::printf("corners: %zu; comparable %zu: within 0.1 deg %.4f%%, within 1 deg %.4f%%, within 5 deg "
                    "%.4f%%, max %.3f deg; handedness %.4f%%\n",
                    a.corners, a.comparable, percent(a.within_0_1), percent(a.within_1), percent(a.within_5),
                    a.max_degrees, percent(a.handedness_agrees));
        std::printf("apart: %zu corners of degenerate triangles (%zu over 5 deg), %zu where the reference's "
                    "tangent is zero, %zu where the reference failed, %zu without a normal\n",
                    a.degenerate_corners, a.degenerate_over_5, a.zero_reference, a.reference_failed,
                    a.zero_normal);
        if (a.order_defects > 0)
            std::printf("reference order defects: %zu corners (apart from the comparable ones)\n",
                        a.order_defects);
        if (!options_.expect) return 0;
        // The shares of all corners that may be set apart, a little above the corpus's own (both
        // orders, 2026-11-25: degenerate 25.07%, reference failed 3.06%, zero reference 0.005%, no
        // normal 0.042%, order defects 0.001%).
        const struct {
            const char* what;
            size_t count;
            double most;
        } kApart[] = {{"degenerate", a.degenerate_corners, 0.26},
                      {"reference failed", a.reference_failed, 0.032},
                      {"reference zero", a.zero_reference, 0.0001},
                      {"without a normal", a.zero_normal, 0.0005},
                      {"order defects", a.order_defects, 0.0001}};
        bool apart_ok = true;
        for (const auto& apart : kApart) {
            if (double(apart.count) <= apart.most * double(a.corners)) continue;
            std::printf("FAIL: %zu corners set apart as %s, more than %.3f%% of all\n", apart.count,
                        apart.what, 100 * apart.most);
            apart_ok = false;
        }
        const bool ok = a.max_degrees <= 0.01 && a.within_0_1 == a.comparable &&
                        a.handedness_agrees == a.comparable && files_ > 0 && apart_ok;
        std::printf("%s\n", ok ? "PASS"
                               : "FAIL: expected every comparable corner within 0.01 deg, handedness 100%, "
                                 "the corners set apart within their shares");
        return ok ? 0 : 1;
    }

  private:
    // Compares; where corners are over 1 degree, asks the reference again with the triangles in
    // reverse order and counts as its order defects the corners that it then gives our frame.
    Agreement checked(const aem::Model& model, const std::vector<std::vector<uint32_t>>& corners,
                      const std::vector<std::vector<Eigen::Vector4f>>& answer) {
        std::vector<std::vector<double>> degrees;
        const Agreement first = compare(model, corners, answer, nullptr, &degrees);
        if (first.within_1 == first.comparable) return first;
        const auto reversed = reversed_triangles(corners);
        write_request(work_ / "reversed", model, reversed);
        run_reference(options_.node, options_.script, work_ / "reversed", work_ / "reversed-answer");
        const auto again = unreversed_answer(read_response(work_ / "reversed-answer", reversed));
        const CornerMask defects = order_defects(model, corners, degrees, again);
        return compare(model, corners, answer, &defects);
    }

    void report_file(const std::string& name, const Agreement& a) {
        if (a.corners == 0) return;
        ++files_;
        exact_files_ += a.within_0_1 == a.comparable;
        if (a.order_defects > 0) {
            std::printf("  %s: %zu corners where the reference's edge-sort defect shows (it agrees once the "
                        "triangles are reversed)\n",
                        name.c_str(), a.order_defects);
        }
        if (a.reference_failed > 0)
            std::printf("  %s: the reference failed on %zu corners\n", name.c_str(), a.reference_failed);
        if (a.within_1 != a.comparable || a.handedness_agrees != a.comparable) {
            std::printf("  %s: %zu of %zu comparable corners over 1 deg (max %.2f), %zu handedness differs\n",
                        name.c_str(), a.comparable - a.within_1, a.comparable, a.max_degrees,
                        a.comparable - a.handedness_agrees);
        }
        total_.add(a);
    }

    const Options& options_;
    fs::path work_;
    std::vector<Pending> pending_;
    size_t pending_corners_ = 0;
    size_t files_ = 0, exact_files_ = 0, unconvertible_ = 0;
    Agreement total_;
};

Options parse(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--node" && i + 1 < argc) {
            options.node = argv[++i];
        } else if (arg == "--script" && i + 1 < argc) {
            options.script = argv[++i];
        } else if (arg == "--source-order") {
            options.source_order = true;
        } else if (arg == "--expect") {
            options.expect = true;
        } else if (!arg.empty() && arg[0] == '-') {
            throw std::runtime_error("unknown option " + arg);
        } else {
            options.folders.emplace_back(arg);
        }
    }
    if (options.folders.empty() || options.script.empty())
        throw std::runtime_error("usage: corpus_tangents --script mikktspace_reference.js [--node NODE] "
                                 "[--source-order] [--expect] FOLDER...");
    return options;
}

} // namespace

int main(int argc, char** argv) {
    try {
        const Options options = parse(argc, argv);
        Sweep sweep(options);
        for (const fs::path& folder : options.folders)
            for (const fs::path& file : assbin::find_dumps(folder))
                sweep.add(file);
        return sweep.finish();
    } catch (const std::exception& error) {
        std::fprintf(stderr, "corpus_tangents: %s\n", error.what());
        return 2;
    }
}
