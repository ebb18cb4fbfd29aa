// The AEM reader and validator on hostile bytes. A model that validates must also write, read
// back and write again to the same bytes, and pose and skin its vertices at a few times per
// animation without reading outside its arrays.
#include <aem/io.hpp>
#include <aem/pose.hpp>
#include <aem/validate.hpp>
#include <assbin/converter/mesh_metrics.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>

namespace {

[[noreturn]] void broken(const char* what) {
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::span<const std::byte> bytes{reinterpret_cast<const std::byte*>(data), size};
    aem::Model model;
    try {
        model = aem::read_model(bytes);
    } catch (const aem::Error&) {
        return 0;
    }
    (void)assbin::converter::measure_meshes(model); // any model, valid or not: never a crash
    if (!aem::validate(model).empty()) return 0;
    try {
        const std::vector<std::byte> written = aem::to_bytes(model);
        const std::vector<std::byte> again = aem::to_bytes(aem::read_model(written));
        if (again != written) broken("a valid model written, read back and written again changes");
    } catch (const aem::Error& error) {
        std::fprintf(stderr, "%s\n", error.what());
        broken("a valid model does not write and read back");
    }
    const float times[] = {-1.0f, 0.0f, 0.37f, 1.0f, 1e9f};
    const size_t vertex_step = model.vertices.size() / 64 + 1; // bounded work per input
    for (uint32_t animation = 0; animation <= model.animations.size(); ++animation) {
        const std::optional<uint32_t> which =
            animation < model.animations.size() ? std::optional<uint32_t>(animation) : std::nullopt;
        for (const float time : times) {
            const aem::Pose pose = aem::evaluate_pose(model, which, time);
            for (size_t v = 0; v < model.vertices.size(); v += vertex_step)
                (void)aem::skinned_position(model, pose, static_cast<uint32_t>(v));
        }
    }
    return 0;
}
