// The structure-aware fuzz mutator's ground (fuzz/chunk_tree.hpp): a dump decoded into its chunk tree
// and written back is the same bytes, for every uncompressed fixture of every layout; and after an
// edit the lengths fit again, so the reader gets past them to the content.
#include "support/data_test_case.hpp"
#include "support/fixtures.hpp"

#include <chunk_tree.hpp>

#include <assbin/reader.hpp>

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <fstream>

namespace {

using assbin_fuzz::ChunkNode;

// Runs while the test cases are registered, before Boost.Test can report: plain file reads only.
bool is_plain(const std::string& name) {
    std::ifstream file(assbin_test::fixture_path(name), std::ios::binary);
    char header[64] = {};
    return file.read(header, sizeof header) && header[62] == 0;
}

std::vector<std::string> plain_fixtures() {
    std::vector<std::string> names;
    for (const std::string& name : assbin_test::all_assbin_fixtures()) {
        if (is_plain(name)) names.push_back(name);
    }
    return names;
}

ChunkNode* first_with_id(ChunkNode& node, uint32_t id) {
    if (node.id == id) return &node;
    for (ChunkNode& child : node.children) {
        if (ChunkNode* found = first_with_id(child, id)) return found;
    }
    return nullptr;
}

} // namespace

BOOST_AUTO_TEST_SUITE(fuzz_chunk_tree)

BOOST_DATA_TEST_CASE(decodes_and_writes_back_every_plain_fixture_byte_for_byte,
                     boost::unit_test::data::make(plain_fixtures()), name) {
    const std::vector<std::byte> bytes = assbin_test::fixture_bytes(name);
    const auto tree = assbin_fuzz::decode_chunk_tree(bytes);
    BOOST_TEST_REQUIRE(tree.has_value());
    BOOST_TEST((assbin_fuzz::encode_chunk_tree(*tree) == bytes));
}

BOOST_AUTO_TEST_CASE(a_deleted_material_property_leaves_lengths_that_fit) {
    // dwarf.cob: a P5 dump whose first material has several properties.
    const std::vector<std::byte> bytes = assbin_test::fixture_bytes("assimp-5.2.5/COB__dwarf.cob.assbin");
    auto tree = assbin_fuzz::decode_chunk_tree(bytes);
    BOOST_TEST_REQUIRE(tree.has_value());
    const assbin::Scene before = assbin::read_scene(bytes);
    ChunkNode* material = first_with_id(tree->scene, 0x123d);
    BOOST_TEST_REQUIRE(material != nullptr);
    const size_t properties = material->children.size();
    BOOST_TEST_REQUIRE(properties >= 2u);
    // The last property goes, and the count (the material's first u32) follows.
    material->children.pop_back();
    material->own.pop_back();
    uint32_t count;
    std::memcpy(&count, material->own.front().data(), 4);
    BOOST_TEST(count == properties);
    count -= 1;
    std::memcpy(material->own.front().data(), &count, 4);
    const std::vector<std::byte> edited = assbin_fuzz::encode_chunk_tree(*tree);
    BOOST_TEST(edited.size() < bytes.size());
    const assbin::Scene after = assbin::read_scene(edited);
    BOOST_TEST(after.materials[0].properties.size() == before.materials[0].properties.size() - 1);
    BOOST_TEST(after.meshes.size() == before.meshes.size());
}

BOOST_AUTO_TEST_CASE(refuses_what_it_cannot_decode) {
    std::vector<std::byte> bytes = assbin_test::fixture_bytes("assimp-5.2.5/COB__dwarf.cob.assbin");
    bytes.resize(bytes.size() / 2); // cut: the reader refuses it, so there is no tree
    BOOST_TEST(!assbin_fuzz::decode_chunk_tree(bytes).has_value());
    BOOST_TEST(!assbin_fuzz::decode_chunk_tree(std::vector<std::byte>(100)).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
