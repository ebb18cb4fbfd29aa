// Reads every ASSBIN file under the folders given (picked by magic, not extension) and reports
// per-folder counts. A file must read to the end of every chunk, unless a list of expected
// failures names it, in which case it must give a ParseError. Every file is read a second time with
// its meshes decoded on two threads (at any size), which must give the same scene or the same error.
//
// usage: corpus_sweep [--expect-failures FILE] DIR...
//   FILE lists file names (one per line, '#' comments) that must fail to read.
#include <assbin/compare.hpp>
#include <assbin/format.hpp>
#include <assbin/reader.hpp>
#include <assbin/validate.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct FolderCounts {
    size_t files = 0;
    size_t read = 0;
    size_t expected_failures = 0;
    size_t unexpected = 0;
    uint64_t bytes = 0;
    size_t shortened = 0;
    size_t compressed = 0;
    size_t with_problems = 0;
    std::map<std::string, size_t> profiles;
};

std::set<std::string> load_expected_failures(const std::string& list_path) {
    std::set<std::string> names;
    std::ifstream list(list_path);
    if (!list) {
        std::cerr << "corpus_sweep: cannot read " << list_path << "\n";
        std::exit(2);
    }
    for (std::string line; std::getline(list, line);) {
        if (line.empty() || line[0] == '#') continue;
        names.insert(line);
    }
    return names;
}

// Why a read with meshes decoded on two threads ends otherwise than the one-thread read did (which
// gave `scene` or `error`); empty when it ends the same.
std::string parallel_read_mismatch(const fs::path& file, const assbin::Scene* scene,
                                   const assbin::ParseError* error) {
    assbin::ReadOptions options;
    options.threads = 2;
    options.parallel_mesh_bytes = 0;
    try {
        const assbin::Scene parallel = assbin::read_file(file, options);
        if (!scene) return "two threads read what one thread refuses";
        assbin::CompareOptions exact;
        exact.epsilon = 0;
        if (!assbin::compare(parallel, *scene, exact).same()) return "two threads give another scene";
        if (parallel.skipped_chunks.size() != scene->skipped_chunks.size())
            return "two threads skip other chunks";
        for (size_t i = 0; i < parallel.skipped_chunks.size(); ++i) {
            if (parallel.skipped_chunks[i].offset != scene->skipped_chunks[i].offset ||
                parallel.skipped_chunks[i].path != scene->skipped_chunks[i].path)
                return "two threads record skipped chunks otherwise";
        }
    } catch (const assbin::ParseError& parallel_error) {
        if (!error) return std::string("two threads refuse what one thread reads: ") + parallel_error.what();
        if (std::string(parallel_error.what()) != error->what())
            return std::string("two threads fail otherwise: ") + parallel_error.what();
    }
    return {};
}

} // namespace

int main(int argc, char** argv) {
    std::vector<fs::path> roots;
    std::set<std::string> expected_failures;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--expect-failures" && i + 1 < argc)
            expected_failures = load_expected_failures(argv[++i]);
        else
            roots.emplace_back(arg);
    }
    if (roots.empty()) {
        std::cerr << "usage: corpus_sweep [--expect-failures FILE] DIR...\n";
        return 2;
    }
    std::map<std::string, FolderCounts> folders;
    std::set<std::string> failures_seen;
    size_t passed = 0, failed = 0, parallel_mismatches = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const fs::path& root : roots) {
        if (!fs::is_directory(root)) {
            std::cerr << "corpus_sweep: " << root << " is not a folder\n";
            return 2;
        }
        for (const fs::path& file : assbin::find_dumps(root)) {
            const std::string relative = fs::relative(file, root).generic_string();
            const size_t slash = relative.find('/');
            const std::string folder =
                slash == std::string::npos ? root.filename().generic_string() : relative.substr(0, slash);
            FolderCounts& counts = folders[folder];
            ++counts.files;
            counts.bytes += fs::file_size(file);
            const std::string name = file.filename().generic_string();
            const bool must_fail = expected_failures.count(name) != 0;
            std::string mismatch;
            try {
                const assbin::Scene scene = assbin::read_file(file);
                mismatch = parallel_read_mismatch(file, &scene, nullptr);
                counts.shortened += scene.is_shortened();
                counts.compressed += scene.header.is_compressed();
                counts.with_problems += !assbin::validate(scene).empty();
                ++counts.profiles[assbin::writer_profile(scene).substr(
                    0, assbin::writer_profile(scene).find(' '))];
                if (must_fail) {
                    std::cout << "FAIL " << relative << ": read, but it is listed as an expected failure\n";
                    ++counts.unexpected;
                    ++failed;
                } else {
                    ++counts.read;
                    ++passed;
                }
            } catch (const assbin::ParseError& error) {
                mismatch = parallel_read_mismatch(file, nullptr, &error);
                if (must_fail) {
                    std::cout << "ok (expected failure) " << relative << ": " << error.what() << "\n";
                    failures_seen.insert(name);
                    ++counts.expected_failures;
                    ++passed;
                } else {
                    std::cout << "FAIL " << relative << ": " << error.what() << "\n";
                    ++counts.unexpected;
                    ++failed;
                }
            }
            if (!mismatch.empty()) {
                std::cout << "FAIL " << relative << ": " << mismatch << "\n";
                ++parallel_mismatches;
            }
        }
    }
    for (const std::string& name : expected_failures) {
        if (!failures_seen.count(name)) {
            std::cout << "FAIL " << name << ": listed as an expected failure but not found\n";
            ++failed;
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("\n%-28s %6s %6s %8s %6s %6s %6s %9s %8s  %s\n", "folder", "files", "read", "expected",
                "failed", "short", "zlib", "MB", "problems", "profiles");
    for (const auto& [name, counts] : folders) {
        std::string profiles;
        for (const auto& [profile, n] : counts.profiles)
            profiles += profile + ":" + std::to_string(n) + " ";
        std::printf("%-28s %6zu %6zu %8zu %6zu %6zu %6zu %9.2f %8zu  %s\n", name.c_str(), counts.files,
                    counts.read, counts.expected_failures, counts.unexpected, counts.shortened,
                    counts.compressed, counts.bytes / 1e6, counts.with_problems, profiles.c_str());
    }
    std::printf("\nread %zu files in %.2f s\n", passed + failed, seconds);
    std::printf("corpus: %zu passed, %zu failed\n", passed, failed);
    std::printf("read again on two threads: %zu of %zu end otherwise\n", parallel_mismatches,
                passed + failed);
    return failed == 0 && parallel_mismatches == 0 ? 0 : 1;
}
