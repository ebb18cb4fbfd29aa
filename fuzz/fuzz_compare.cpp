// compare() on two hostile inputs. The input is [u32 length of A][A][B]; each side is any variant,
// with or without bytes after its SCENE chunk, or empty (a regression database's expected-failure
// marker, which `assbin cmp` never reads). Comparing must not crash whatever the two scenes hold
// (broken references, mismatched counts, one side shortened), a scene must equal itself, the total
// must count every listed difference, and strict reading must refuse exactly the trailing bytes
// that lenient reading reported.
#include "fuzz_input.hpp"

#include <assbin/compare.hpp>

#include <optional>
#include <stdexcept>

namespace {

std::optional<assbin::Scene> try_read(std::span<const std::byte> bytes) {
    if (bytes.empty()) return std::nullopt; // an expected-failure marker
    std::optional<assbin::Scene> scene;
    try {
        scene = assbin::read_scene(bytes, assbin_fuzz::fuzz_read_options());
    } catch (const assbin::ParseError&) {
        return std::nullopt;
    }
    assbin::ReadOptions strict = assbin_fuzz::fuzz_read_options();
    strict.refuse_trailing_bytes = true;
    bool refused = false;
    try {
        assbin::read_scene(bytes, strict);
    } catch (const assbin::ParseError&) {
        refused = true;
    }
    if (refused != (scene->trailing_bytes > 0 || scene->bytes_after_stream > 0))
        assbin_fuzz::invariant_broken("strict reading refused other than the trailing bytes reported");
    return scene;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 5) return 0;
    uint32_t first_size;
    std::memcpy(&first_size, data, 4);
    const std::span<const std::byte> rest = assbin_fuzz::as_bytes(data + 4, size - 4);
    first_size = static_cast<uint32_t>(std::min<size_t>(first_size, rest.size()));
    const std::optional<assbin::Scene> a = try_read(rest.first(first_size));
    const std::optional<assbin::Scene> b = try_read(rest.subspan(first_size));
    if (!a || !b) return 0;

    assbin::CompareOptions options;
    options.max_diffs = 8;
    options.epsilon = (data[4] & 1) ? 0.0 : 0.1;
    if (data[4] & 2) options.ulps = 4;
    if (data[4] & 4) options.relative = 1e-6;
    if (data[4] & 8) options.ignore = {"*/tangents*", "scene/node*/metadata*"};
    std::optional<assbin::CompareResult> copied;
    try {
        copied = assbin::compare(*a, *b, options);
        if (copied->differences.size() > options.max_diffs || copied->total < copied->differences.size())
            assbin_fuzz::invariant_broken("compare listed more differences than it counted or kept");
        if (!assbin::compare(*a, *a, options).same())
            assbin_fuzz::invariant_broken("a scene differs from itself");
    } catch (const std::invalid_argument&) {
        // Documented: a full side whose faces cannot be hashed against a shortened one.
    }
    // `assbin cmp` reads with array_views (arrays left in the inputs): the same totals and differences.
    assbin::ReadOptions views = assbin_fuzz::fuzz_read_options();
    views.array_views = true;
    const assbin::Scene a_views = assbin::read_scene(rest.first(first_size), views);
    const assbin::Scene b_views = assbin::read_scene(rest.subspan(first_size), views);
    try {
        const assbin::CompareResult viewed = assbin::compare(a_views, b_views, options);
        if (!copied)
            assbin_fuzz::invariant_broken("compare refuses copied arrays but not arrays left in place");
        if (viewed.total != copied->total || viewed.values_compared != copied->values_compared ||
            viewed.differences.size() != copied->differences.size())
            assbin_fuzz::invariant_broken("compare counts other differences on arrays left in place");
        for (size_t d = 0; d < viewed.differences.size(); ++d) {
            if (viewed.differences[d].path != copied->differences[d].path)
                assbin_fuzz::invariant_broken("compare lists other differences on arrays left in place");
        }
    } catch (const std::invalid_argument&) {
        if (copied) assbin_fuzz::invariant_broken("compare refuses arrays left in place but not copied ones");
    }
    return 0;
}
