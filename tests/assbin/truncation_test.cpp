// Damaged copies of real fixtures: every prefix must give a ParseError, and every single-byte
// change must either read or give a ParseError: never a crash, another exception, or a hang.
// (Under the sanitizer build, any out-of-bounds read here fails the run.)
#include "support/error_names.hpp"
#include "support/fixtures.hpp"

#include <assbin/format.hpp>
#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

using assbin_test::fixture_bytes;

namespace {

// Five varied fixtures: P5 with bones, animation, lights, camera and metadata; the 5.2.5 double
// layout; a 4.1.0 export with the old light layout; ARGB texture; an old compressed 3.1.1 dump;
// plus a 3.1.1 shortened database file and an old short-length dump with keys.
const char* const kTruncationFixtures[] = {
    "assimp-5.2.5/FBX__huesitos.fbx.assbin",
    "older/assimp-5.2.5-double__models_Collada_box_nested_animation.dae.drv.full.assbin",
    "older/assimp-4.1.0__models_Collada_lights.dae.export.assbin",
    "assimp-5.2.5/MDL__MDL-HL1__duplicate_submodels.mdl.assbin",
    "older/assimp-3.1.1__models_PLY_float-color.ply.dumpz.assbin",
    "assimp-5.2.5/SMD__triangle.smd.z.assbin",
    "regress-3.1.1/0x70adfb31",
    "older/assimp-3.1.1__models_IRR_animMesh.irr.dump.assbin",
};

const char* const kMutationFixtures[] = {
    "assimp-5.2.5/SMD__triangle.smd.assbin",
    "assimp-5.2.5/generated__node_extras_metadata.gltf.assbin",
    "assimp-5.2.5/SMD__triangle.smd.assbin.regress",
    "older/assimp-3.1.1__models_IRR_animMesh.irr.dump.assbin",
    "older/assimp-5.2.5-double__models_X_kwxport_test_cubewithvcolors.x.dumpsz.assbin.regress",
    "assimp-5.2.5/OpenGEX__camera.ogex.assbin",
};

// Reads `bytes`; returns true when it read, false on a ParseError. Anything else fails the test.
bool reads(std::span<const std::byte> bytes) {
    try {
        assbin::read_scene(bytes);
        return true;
    } catch (const assbin::ParseError&) {
        return false;
    } catch (const std::exception& other) {
        BOOST_ERROR("not a ParseError: " << other.what());
        return false;
    }
}

} // namespace

BOOST_AUTO_TEST_SUITE(damaged_input)

// A compressed dump cut anywhere is one condition, said one way: cut short (code Truncated), with
// where the file ends, never a limit to raise or a stream that inflates to "more than" declared.
// Cut at each of its last 64 bytes (inside the final block and the Adler-32 checksum) and at every
// 16th byte of its first 4 KiB (header, size prefix, first blocks), for each compressed fixture.
BOOST_AUTO_TEST_CASE(a_cut_compressed_dump_is_called_cut_short_wherever_it_is_cut) {
    for (const char* name :
         {"assimp-5.2.5/OBJ__spider.obj.z.assbin", "assimp-5.2.5/Collada__lights.dae.z.assbin",
          "assimp-5.2.5/LWO__LWO2__box_2vc_1unused.lwo.z.assbin", "assimp-5.2.5/SMD__triangle.smd.z.assbin",
          "older/assimp-3.1.1__models_PLY_float-color.ply.dumpz.assbin"}) {
        const std::vector<std::byte> bytes = fixture_bytes(name);
        std::vector<size_t> cuts;
        for (size_t keep = 16; keep < std::min<size_t>(bytes.size(), 4096); keep += 16)
            cuts.push_back(keep);
        for (size_t missing = 1; missing <= 64 && missing < bytes.size(); ++missing)
            cuts.push_back(bytes.size() - missing);
        for (const size_t keep : cuts) {
            BOOST_TEST_CONTEXT(name << " cut to " << keep << " of " << bytes.size() << " bytes") {
                try {
                    assbin::read_scene(std::span(bytes).first(keep));
                    BOOST_ERROR("read");
                } catch (const assbin::ParseError& error) {
                    const std::string what = error.what();
                    BOOST_TEST(error.code() == assbin::ErrorCode::Truncated, what);
                    BOOST_TEST(what.find("cut short") != std::string::npos, what);
                    BOOST_TEST(what.find("limit") == std::string::npos, what);
                    BOOST_TEST(what.find("more than") == std::string::npos, what);
                    if (keep > assbin::kHeaderSize + 4) {
                        BOOST_TEST(what.find("(at byte " + std::to_string(keep) + ")") != std::string::npos,
                                   what);
                    }
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(rejects_every_truncated_prefix) {
    for (const char* name : kTruncationFixtures) {
        BOOST_TEST_CONTEXT(name) {
            const std::vector<std::byte> bytes = fixture_bytes(name);
            BOOST_TEST_REQUIRE(reads(bytes));
            size_t read_anyway = 0;
            for (size_t length = 0; length < bytes.size(); ++length) {
                // A fresh copy of exactly `length` bytes, so the sanitizer sees any read past its end.
                const std::vector<std::byte> prefix(bytes.begin(),
                                                    bytes.begin() + static_cast<std::ptrdiff_t>(length));
                if (reads(prefix)) ++read_anyway;
            }
            BOOST_TEST(read_anyway == 0u);
        }
    }
}

BOOST_AUTO_TEST_CASE(truncation_errors_name_the_offset_and_the_chunk) {
    const std::vector<std::byte> bytes = fixture_bytes("assimp-5.2.5/FBX__huesitos.fbx.assbin");
    // Cut inside the first MATERIAL: the reader gets that far, then names the place and the cause.
    const std::vector<std::byte> prefix(bytes.begin(), bytes.begin() + 26000);
    try {
        assbin::read_scene(prefix);
        BOOST_FAIL("a truncated file was read");
    } catch (const assbin::ParseError& error) {
        // The MATERIAL head at 25533 declares 868 bytes; 459 remain after its head. A cut file is
        // Truncated, whichever length the cut made wrong.
        BOOST_TEST(error.code() == assbin::ErrorCode::Truncated);
        BOOST_TEST(error.chunk_path() == "scene");
        BOOST_TEST(error.offset() == 25533u);
        BOOST_TEST(std::string(error.what()).find("MATERIAL (0x123d) chunk declares 868 bytes") !=
                   std::string::npos);
        BOOST_TEST(
            std::string(error.what()).find("the file is cut short: the SCENE chunk declares 43,658 bytes") !=
            std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(survives_every_single_byte_change) {
    for (const char* name : kMutationFixtures) {
        BOOST_TEST_CONTEXT(name) {
            std::vector<std::byte> bytes = fixture_bytes(name);
            size_t rejected = 0;
            for (size_t at = assbin::kHeaderSize; at < bytes.size(); ++at) {
                const std::byte original = bytes[at];
                for (const std::byte patched :
                     {std::byte(uint8_t(original) + 1), std::byte(uint8_t(original) - 1), std::byte{0x00},
                      std::byte{0xFF}}) {
                    bytes[at] = patched;
                    rejected += !reads(bytes);
                }
                bytes[at] = original;
            }
            BOOST_TEST(rejected > 0u); // the test really damaged structure, not only values
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
