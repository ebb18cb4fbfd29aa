// assbin_assimp_import FILE...: the yardstick convert is measured against — Assimp itself importing
// the same dumps with the post-processing the 2024 AEM exporter asks for (realtime-quality preset +
// OptimizeGraph + OptimizeMeshes + PopulateArmatureData), one file after the other in this process,
// as a user would otherwise run it. Built only when libassimp-dev is installed, never part of the
// product. Prints one line per file (milliseconds, meshes, vertices, triangles) and the total;
// exits 1 when any file fails to import.
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <chrono>
#include <cstdio>
#include <string>

int main(int argc, char** argv) {
    if (argc < 2 || std::string(argv[1]) == "--help") {
        std::fputs("usage: assbin_assimp_import FILE...\n"
                   "  imports each file with Assimp and the 2024 AEM exporter's post-processing\n",
                   argc >= 2 ? stdout : stderr);
        return argc >= 2 ? 0 : 2;
    }
    constexpr unsigned kSteps = aiProcessPreset_TargetRealtime_Quality | aiProcess_OptimizeGraph |
                                aiProcess_OptimizeMeshes | aiProcess_PopulateArmatureData;
    const auto start = std::chrono::steady_clock::now();
    int failed = 0;
    for (int i = 1; i < argc; ++i) {
        const auto file_start = std::chrono::steady_clock::now();
        Assimp::Importer importer; // one per file: nothing cached between files
        const aiScene* scene = importer.ReadFile(argv[i], kSteps);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - file_start).count();
        if (!scene) {
            std::printf("%s\tfailed: %s\n", argv[i], importer.GetErrorString());
            ++failed;
            continue;
        }
        size_t vertices = 0, faces = 0;
        for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
            vertices += scene->mMeshes[m]->mNumVertices;
            faces += scene->mMeshes[m]->mNumFaces;
        }
        std::printf("%s\t%.2f ms\t%u meshes\t%zu vertices\t%zu faces\n", argv[i], ms, scene->mNumMeshes,
                    vertices, faces);
    }
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("total\t%.3f s\t%d files\t%d failed\n", total, argc - 1, failed);
    return failed ? 1 : 0;
}
