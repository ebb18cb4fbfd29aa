#include <assbin/reader.hpp>
#include <iostream>

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    try {
        const assbin::Scene scene = assbin::read_file(argv[1]);
        for (const assbin::Mesh& mesh : scene.meshes)
            std::cout << mesh.vertex_count << " vertices, " << mesh.face_count << " faces, material "
                      << scene.materials.at(mesh.material_index).name() << "\n";
    } catch (const std::exception& error) { // assbin::ParseError says where: byte offset, chunk path
        std::cerr << argv[1] << ": " << error.what() << "\n";
        return 2;
    }
}
