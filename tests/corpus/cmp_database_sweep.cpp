// cmp_database_sweep: a 3,000-pair regression database built from a corpus, compared as a whole
// process (`assbin cmp EXPECTED ACTUAL --json`), its summary held against a count made here while
// building it. Readable dumps of the corpus are linked or rewritten into the two folders with a
// fixed mix of categories: same, different (scene flags changed), only in ACTUAL, only in EXPECTED,
// two empty markers, now succeeds, now fails, same with trailing bytes, and unreadable.
// Prints the whole-process time and the time per pair (not asserted: speed is for benchmarks).
// Usage: cmp_database_sweep ASSBIN_CLI CORPUS [PAIRS]
#include <assbin/format.hpp>
#include <assbin/reader.hpp>
#include <assbin/writer.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

struct Counts {
    std::map<std::string, int> totals; // as cmp's JSON "totals" names them
};

void write_bytes(const fs::path& path, const std::string& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

void link(const fs::path& target, const fs::path& at) {
    fs::create_directories(at.parent_path());
    fs::create_symlink(fs::absolute(target), at);
}

// Places pair number i of `file` in the two folders and counts it.
void place(size_t i, const fs::path& file, const assbin::Scene& scene, const fs::path& expected,
           const fs::path& actual, Counts& counts) {
    const std::string name =
        "db/" + std::to_string(i / 100) + "/" + std::to_string(i) + "_" + file.filename().string();
    auto& t = counts.totals;
    ++t["pairs"];
    if (i % 100 == 7) { // a damaged file on the ACTUAL side
        link(file, expected / name);
        write_bytes(actual / name, "ASSIMP.binary-dump.junk");
        ++t["unreadable"];
    } else if (i % 50 == 4) {
        write_bytes(expected / name, "");
        link(file, actual / name);
        ++t["now_succeeds"];
    } else if (i % 50 == 5) {
        link(file, expected / name);
        write_bytes(actual / name, "");
        ++t["now_fails"];
    } else if (i % 50 == 6) {
        link(file, expected / name);
        std::ifstream in(file, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (scene.header.compressed) { // trailing bytes go inside the stream: keep it plain here
            link(file, actual / name);
        } else {
            write_bytes(actual / name, bytes + std::string(16, '\0'));
            ++t["with_reader_findings"];
        }
        ++t["same"];
    } else if (i % 10 == 0) {
        link(file, expected / name);
        assbin::Scene changed = scene;
        changed.flags ^= assbin::kSceneTerrain;
        assbin::WriteOptions options;
        options.shortened = scene.is_shortened();
        fs::create_directories((actual / name).parent_path());
        assbin::write_file(changed, actual / name, options);
        ++t["different"];
    } else if (i % 10 == 1) {
        link(file, expected / name);
        ++t["missing"];
    } else if (i % 10 == 2) {
        link(file, actual / name);
        ++t["new"];
    } else if (i % 10 == 3) {
        write_bytes(expected / name, "");
        write_bytes(actual / name, "");
        ++t["same"];
        ++t["both_empty"];
    } else {
        link(file, expected / name);
        link(file, actual / name);
        ++t["same"];
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: cmp_database_sweep ASSBIN_CLI CORPUS [PAIRS]\n");
        return 2;
    }
    const std::string cli = argv[1];
    const size_t wanted = argc > 3 ? std::stoul(argv[3]) : 3000;
    const fs::path work = fs::temp_directory_path() / ("cmp_database_sweep." + std::to_string(::getpid()));
    const fs::path expected = work / "expected", actual = work / "actual";
    Counts counts;
    size_t i = 0;
    for (const fs::path& file : assbin::find_dumps(argv[2])) {
        if (i == wanted) break;
        try {
            const assbin::Scene scene = assbin::read_file(file);
            if (scene.trailing_bytes > 0) continue;
            place(i++, file, scene, expected, actual, counts);
        } catch (const std::exception&) {
            continue; // damaged corpus files are corpus_sweep's business
        }
    }
    const std::string output = (work / "report.json").string();
    const std::string command = "'" + cli + "' cmp '" + actual.string() + "' '" + expected.string() +
                                "' --json > '" + output + "' 2> /dev/null";
    const auto start = std::chrono::steady_clock::now();
    const int status = std::system(command.c_str());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ifstream report_file(output);
    const nlohmann::json report = nlohmann::json::parse(report_file, nullptr, false);
    int failures = 0;
    for (const auto& [key, value] : counts.totals) {
        const int got =
            report.is_object() && report["totals"].contains(key) ? report["totals"][key].get<int>() : -1;
        std::printf("  %-22s counted %5d, cmp says %5d%s\n", key.c_str(), value, got,
                    got == value ? "" : "  MISMATCH");
        failures += got != value;
    }
    const int exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::printf("%zu pairs compared in %.3f s (whole process, %.1f us per pair); exit %d (expected 1: "
                "folders, unreadable pairs among them)\n",
                i, seconds, seconds * 1e6 / static_cast<double>(i), exit_code);
    std::error_code ignored;
    fs::remove_all(work, ignored);
    const bool ok = failures == 0 && exit_code == 1 && i == wanted;
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
