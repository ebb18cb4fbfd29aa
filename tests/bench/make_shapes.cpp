// assbin_make_shapes OUTDIR: writes the dumps scripts/bench-convert.sh times (P5 layout, plain):
//   disc_30k, disc_300k, disc_3m   fans of 30,000 / 300,000 / 3,000,000 triangles around one vertex
//   stack_64                       64 copies of an 88 x 88 grid at one spot (968,832 triangles)
//   star_65535                     one polygon of 65,535 corners (the most a face can hold)
//   grid_700                       a 700 x 700 grid (977,202 triangles, 31 MB): the ordinary big mesh
// Each name gets ".assbin"; existing files are replaced.
#include "support/heavy_shapes.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace shapes = assbin_test::shapes;

void write(const fs::path& path, const assbin_test::SceneSpec& scene) {
    const assbin_test::Bytes bytes = assbin_test::build_dump(scene, assbin_test::WriterProfile::p5()).bytes;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) throw std::runtime_error("cannot write " + path.string());
    std::printf("%s\t%zu bytes\n", path.c_str(), bytes.size());
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2 || std::string(argv[1]) == "--help") {
        std::fputs("usage: assbin_make_shapes OUTDIR\n"
                   "  writes disc_30k, disc_300k, disc_3m, stack_64, star_65535 and grid_700 .assbin\n",
                   argc == 2 ? stdout : stderr);
        return argc == 2 ? 0 : 2;
    }
    try {
        const fs::path folder(argv[1]);
        fs::create_directories(folder);
        write(folder / "disc_30k.assbin", shapes::fan_disc(30'000));
        write(folder / "disc_300k.assbin", shapes::fan_disc(300'000));
        write(folder / "disc_3m.assbin", shapes::fan_disc(3'000'000));
        write(folder / "stack_64.assbin", shapes::stacked_grids(88, 64));
        write(folder / "star_65535.assbin", shapes::star_polygon(65'535));
        write(folder / "grid_700.assbin", shapes::grid(700));
    } catch (const std::exception& error) {
        std::fprintf(stderr, "assbin_make_shapes: %s\n", error.what());
        return 1;
    }
    return 0;
}
