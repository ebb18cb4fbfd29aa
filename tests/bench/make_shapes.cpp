// assbin_make_shapes OUTDIR: writes the dumps scripts/bench-convert.sh times (P5 layout, plain):
//   disc_30k, disc_300k, disc_3m   fans of 30,000 / 300,000 / 3,000,000 triangles around one vertex
//   stack_64                       64 copies of an 88 x 88 grid at one spot (968,832 triangles)
//   star_65535                     one polygon of 65,535 corners (the most a face can hold)
//   grid_700                       a 700 x 700 grid (977,202 triangles, 31 MB): the ordinary big mesh
// and the family built to break each stage's bound, each at two sizes 10x apart (NAME_small and
// NAME_large; scripts/bench-convert.sh converts both and prints the time per element):
//   book        10,000 / 100,000 triangles on one hinge edge, both windings (MikkTSpace's pairing)
//   repeated    100,000 / 1,000,000 copies of one triangle (weld, normals, vertex-cache order)
//   zero_area   30,000 / 300,000 triangles of zero area (MikkTSpace, optimiser's degenerate count)
//   strip       100,000 / 1,000,000 triangles in a strip one quad wide
//   star        6,553 / 65,535 corners in one polygon (ear clipping)
//   valence     30,000 / 300,000 triangles fanned around one vertex (normals, tangents, cache order)
//   deep        a chain of 3,000 / 30,000 nodes each placing a triangle (needs --max-node-depth)
//   wide        10,000 / 100,000 nodes under the root, each placing a triangle
//   weights     1,024 / 10,201 vertices each weighted by all of 200 bones (204,800 / 2,040,200 weights)
//   keys        one channel of 100,000 / 1,000,000 position, rotation and scaling keys each
// families.tsv lists them: family, size, file, elements, what an element is, extra convert options.
// Each name gets ".assbin"; existing files are replaced.
#include "support/heavy_shapes.hpp"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
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

struct Family {
    const char* name;
    const char* element;
    const char* options; // extra convert options the large one needs, or ""
    uint64_t small_count, large_count;
    std::function<assbin_test::SceneSpec(uint64_t)> make;
};

void write_families(const fs::path& folder) {
    const std::vector<Family> families = {
        {"book", "triangle", "", 10'000, 100'000, [](uint64_t n) { return shapes::book(uint32_t(n)); }},
        {"repeated", "triangle", "", 100'000, 1'000'000,
         [](uint64_t n) { return shapes::repeated_triangle(uint32_t(n)); }},
        {"zero_area", "triangle", "", 30'000, 300'000,
         [](uint64_t n) { return shapes::zero_area(uint32_t(n)); }},
        {"strip", "triangle", "", 100'000, 1'000'000,
         [](uint64_t n) { return shapes::long_strip(uint32_t(n)); }},
        {"star", "corner", "", 6'553, 65'535, [](uint64_t n) { return shapes::star_polygon(uint32_t(n)); }},
        {"valence", "triangle", "", 30'000, 300'000,
         [](uint64_t n) { return shapes::fan_disc(uint32_t(n)); }},
        {"deep", "node", "--max-node-depth 30000", 3'000, 30'000,
         [](uint64_t n) { return shapes::deep_chain(uint32_t(n)); }},
        {"wide", "node", "", 10'000, 100'000, [](uint64_t n) { return shapes::wide_tree(uint32_t(n)); }},
        {"weights", "weight", "", 32 * 32 * 200, 101 * 101 * 200,
         [](uint64_t n) { return shapes::heavy_weights(n == 32 * 32 * 200 ? 32 : 101, 200); }},
        {"keys", "key", "", 100'000, 1'000'000,
         [](uint64_t n) { return shapes::long_animation(uint32_t(n)); }},
        // The key reduction (--key-error): one long track, a skeleton of 200 bones (300 and 3,000 keys
        // a track), and 20 and 200 bones whose tracks share no time.
        {"keys_reduced", "key", "--key-error 1e-4", 100'000, 1'000'000,
         [](uint64_t n) { return shapes::long_animation(uint32_t(n)); }},
        {"skeleton_keys", "key", "--key-error 1e-4", 200 * 300 * 2, 200 * 3'000 * 2,
         [](uint64_t n) { return shapes::skeleton_animation(200, uint32_t(n / 400)); }},
        {"scattered_keys", "key", "--key-error 1e-4", 20 * 3'000 * 2, 200 * 3'000 * 2,
         [](uint64_t n) { return shapes::skeleton_animation(uint32_t(n / 6'000), 3'000, true); }},
    };
    std::ofstream table(folder / "families.tsv", std::ios::trunc);
    table << "family\tsize\tfile\telements\telement\toptions\n";
    for (const Family& family : families) {
        for (const auto& [size, count] :
             {std::pair("small", family.small_count), std::pair("large", family.large_count)}) {
            const std::string file = std::string(family.name) + "_" + size + ".assbin";
            write(folder / file, family.make(count));
            table << family.name << '\t' << size << '\t' << file << '\t' << count << '\t' << family.element
                  << '\t' << family.options << '\n';
        }
    }
    if (!table) throw std::runtime_error("cannot write " + (folder / "families.tsv").string());
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2 || std::string(argv[1]) == "--help") {
        std::fputs("usage: assbin_make_shapes OUTDIR\n"
                   "  writes disc_30k, disc_300k, disc_3m, stack_64, star_65535 and grid_700 .assbin,\n"
                   "  and the family of shapes that break each stage's bound at two sizes (families.tsv)\n",
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
        write_families(folder);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "assbin_make_shapes: %s\n", error.what());
        return 1;
    }
    return 0;
}
