// Converts a dump to an AEM model, serialises it and reads it back: links assbin::converter and
// aem::aem, so a static install must bring zlib, libdeflate and the thread library along.
#include <aem/io.hpp>
#include <aem/validate.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>
#include <assbin/version.hpp>

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: convert_dump FILE.assbin\n";
        return 2;
    }
    try {
        const assbin::converter::ConvertResult result =
            assbin::converter::convert(assbin::read_file(argv[1]));
        const aem::Model model = aem::read_model(aem::to_bytes(result.model));
        std::cout << "assbin " << assbin::version_string << ": " << model.vertices.size() << " vertices, "
                  << model.indices.size() / 3 << " triangles, " << model.bones.size() << " bones, "
                  << model.animations.size() << " animations, " << aem::validate(model).size()
                  << " violations\n";
    } catch (const std::exception& error) {
        std::cerr << argv[1] << ": " << error.what() << "\n";
        return 2;
    }
}
