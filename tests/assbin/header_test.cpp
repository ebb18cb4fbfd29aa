// The 512-byte header and the compressed prefix, on real files of several writers.
#include "support/error_names.hpp"
#include "support/fixtures.hpp"

#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#include <cstring>

using assbin_test::fixture_bytes;

BOOST_AUTO_TEST_SUITE(header)

BOOST_AUTO_TEST_CASE(reads_every_field_of_a_debian_5_2_5_dump) {
    const assbin::Header h = assbin::read_header(fixture_bytes("assimp-5.2.5/SMD__triangle.smd.assbin"));
    BOOST_TEST(h.version_major == 1u);
    BOOST_TEST(h.version_minor == 0u);
    BOOST_TEST(h.revision == 0u); // Debian builds without git
    BOOST_TEST(h.compile_flags == 0x15u);
    BOOST_TEST(h.shortened == 0);
    BOOST_TEST(h.compressed == 0);
    BOOST_TEST(h.source_name == "triangle.smd.assbin");
    BOOST_TEST(h.command == "-b ");
    BOOST_TEST(h.timestamp.size() == 25u);
    BOOST_TEST(h.timestamp.back() == '\n');
    for (uint8_t byte : h.reserved)
        BOOST_TEST(byte == 0xCD);
    BOOST_TEST((h.prefix_meaning == assbin::CompressedPrefix::None));
}

BOOST_AUTO_TEST_CASE(reads_the_3_1_1_regression_database_header) {
    const assbin::Header h = assbin::read_header(fixture_bytes("regress-3.1.1/0x38f60bd3"));
    BOOST_TEST(h.revision == 0x08a5041eu);
    BOOST_TEST(h.compile_flags == 0x19u);
    BOOST_TEST(h.shortened == 1);
    BOOST_TEST(h.compressed == 0);
    BOOST_TEST(h.source_name == "..\\models\\X\\kwxport_test_cubewithvcolors.x");
    BOOST_TEST(h.command == "-b -s -l ");
}

BOOST_AUTO_TEST_CASE(tells_the_old_compressed_prefix_from_the_new) {
    const auto old_bytes = fixture_bytes("older/assimp-3.1.1__models_PLY_float-color.ply.dumpz.assbin");
    const assbin::Header old_header = assbin::read_header(old_bytes);
    BOOST_TEST(old_header.is_compressed());
    BOOST_TEST((old_header.prefix_meaning == assbin::CompressedPrefix::CompressedLength));
    BOOST_TEST(old_header.compressed_prefix == old_bytes.size() - 516);

    const auto new_bytes = fixture_bytes("assimp-5.2.5/SMD__triangle.smd.z.assbin");
    const assbin::Header new_header = assbin::read_header(new_bytes);
    BOOST_TEST((new_header.prefix_meaning == assbin::CompressedPrefix::UncompressedLength));
    const assbin::Scene scene = assbin::read_scene(new_bytes);
    BOOST_TEST(new_header.compressed_prefix == scene.body_bytes);
    // The body inflates to the same bytes as the uncompressed dump's body.
    BOOST_TEST(scene.body_bytes == fixture_bytes("assimp-5.2.5/SMD__triangle.smd.assbin").size() - 512);
}

BOOST_AUTO_TEST_CASE(rejects_a_file_without_the_magic) {
    std::vector<std::byte> bytes = fixture_bytes("assimp-5.2.5/SMD__triangle.smd.assbin");
    bytes[0] = std::byte{'X'};
    try {
        assbin::read_scene(bytes);
        BOOST_FAIL("a file without the magic was read");
    } catch (const assbin::ParseError& error) {
        BOOST_TEST(error.code() == assbin::ErrorCode::NotAssbin);
        BOOST_TEST(error.offset() == 0u);
        BOOST_TEST(std::string(error.what()).find("ASSIMP.binary-dump.") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(rejects_a_file_that_ends_inside_the_header) {
    std::vector<std::byte> bytes = fixture_bytes("assimp-5.2.5/SMD__triangle.smd.assbin");
    bytes.resize(300);
    try {
        assbin::read_header(bytes);
        BOOST_FAIL("a 300-byte file was read");
    } catch (const assbin::ParseError& error) {
        BOOST_TEST(error.code() == assbin::ErrorCode::Truncated);
        BOOST_TEST(error.chunk_path() == "header");
    }
}

BOOST_AUTO_TEST_CASE(read_file_reports_a_missing_file_as_an_io_error) {
    try {
        assbin::read_file("/nonexistent/dump.assbin");
        BOOST_FAIL("a missing file was read");
    } catch (const assbin::ParseError& error) {
        BOOST_TEST(error.code() == assbin::ErrorCode::Io);
        BOOST_TEST(std::string(error.what()) == "no such file");
    }
}

BOOST_AUTO_TEST_SUITE_END()
