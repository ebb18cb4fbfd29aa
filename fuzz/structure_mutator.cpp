// libFuzzer's custom mutator for the targets that take dumps: most mutations edit the decoded chunk
// tree (chunk_tree.hpp) — a field or count in a chunk's own bytes, a property's type, a nested chunk
// deleted, repeated, moved, swapped or grafted from elsewhere, an unknown chunk inserted — and write
// it back with lengths that fit, so the input gets past the length checks and into the parsers
// behind them. Where an edit changes how many chunks of an id a parent holds, the count field that
// said so is found (a u32 equal to the old number in the parent's leading bytes) and kept in step
// most of the time. A quarter of the mutations, and every input the reader refuses or that is
// compressed, get libFuzzer's own byte-level mutations; so does everything when the environment
// sets ASSBIN_FUZZ_PLAIN_MUTATOR=1 (to measure the mutator against the default).
#include "chunk_tree.hpp"
#include "fuzz_input.hpp"

#include <cstdlib>
#include <random>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

using assbin_fuzz::Bytes;
using assbin_fuzz::ChunkNode;
using assbin_fuzz::ChunkTree;
using Random = std::minstd_rand;

constexpr uint32_t kMaterialPropertyId = 0x123e;
constexpr uint32_t kFirstChunkId = 0x1234, kLastChunkId = 0x123e;

bool plain_mutator_only() {
    static const bool plain = [] {
        const char* value = std::getenv("ASSBIN_FUZZ_PLAIN_MUTATOR");
        return value != nullptr && value[0] == '1';
    }();
    return plain;
}

size_t pick(Random& random, size_t count) {
    return count == 0 ? 0 : random() % count;
}

uint32_t u32_at(const Bytes& bytes, size_t offset) {
    uint32_t value;
    std::memcpy(&value, bytes.data() + offset, 4);
    return value;
}

void set_u32(Bytes& bytes, size_t offset, uint32_t value) {
    std::memcpy(bytes.data() + offset, &value, 4);
}

// Every chunk of the tree, parents before children.
void collect(ChunkNode& node, std::vector<ChunkNode*>& out) {
    out.push_back(&node);
    for (ChunkNode& child : node.children)
        collect(child, out);
}

size_t children_with_id(const ChunkNode& parent, uint32_t id) {
    return static_cast<size_t>(std::count_if(parent.children.begin(), parent.children.end(),
                                             [&](const ChunkNode& child) { return child.id == id; }));
}

// After `parent` went from `before` to `before + delta` chunks of one id: the first u32 in its leading
// bytes that held `before` now holds the new number (three times in four; the fourth leaves the
// count lying, which the reader must refuse).
void keep_count_in_step(Random& random, ChunkNode& parent, size_t before, int delta) {
    if (random() % 4 == 0 || parent.own.empty()) return;
    Bytes& lead = parent.own.front();
    for (size_t offset = 0; offset + 4 <= lead.size(); ++offset) {
        if (u32_at(lead, offset) == before) {
            set_u32(lead, offset, static_cast<uint32_t>(int64_t(before) + delta));
            return;
        }
    }
}

// libFuzzer's byte mutations on one piece, which may grow by up to 64 bytes.
void mutate_piece(Bytes& piece) {
    const size_t size = piece.size();
    piece.resize(size + 64);
    const size_t got = LLVMFuzzerMutate(reinterpret_cast<uint8_t*>(piece.data()), size, piece.size());
    piece.resize(got);
}

uint32_t interesting_count(Random& random, uint32_t old) {
    const uint32_t values[] = {0,    1,     2,      old + 1, old - 1,    old * 2,
                               0xFF, 0x100, 0xFFFF, 0x10000, 0x7FFFFFFF, 0xFFFFFFFF};
    return values[pick(random, std::size(values))];
}

// A count or field in a chunk's leading bytes set to a value that parsers treat specially.
void patch_field(Random& random, ChunkNode& node) {
    Bytes& lead = node.own.front();
    if (lead.size() < 4) return mutate_piece(lead);
    const size_t offset = pick(random, lead.size() - 3);
    set_u32(lead, offset, interesting_count(random, u32_at(lead, offset)));
}

// MATPROP: key (u32 length + bytes), semantic, index, data length, type, data. The type becomes any
// of aiPropertyTypeInfo's five or a value outside them.
void change_property_type(Random& random, ChunkNode& property) {
    Bytes& own = property.own.front();
    if (own.size() < 4) return;
    const uint64_t type_at = uint64_t{4} + u32_at(own, 0) + 12;
    if (type_at + 4 > own.size()) return;
    const uint32_t types[] = {1, 2, 3, 4, 5, 0, 6, 0xFFFFFFFF};
    set_u32(own, type_at, types[pick(random, std::size(types))]);
}

void delete_child(Random& random, ChunkNode& parent) {
    const size_t k = pick(random, parent.children.size());
    const uint32_t id = parent.children[k].id;
    const size_t before = children_with_id(parent, id);
    parent.own[k].insert(parent.own[k].end(), parent.own[k + 1].begin(), parent.own[k + 1].end());
    parent.own.erase(parent.own.begin() + static_cast<ptrdiff_t>(k) + 1);
    parent.children.erase(parent.children.begin() + static_cast<ptrdiff_t>(k));
    keep_count_in_step(random, parent, before, -1);
}

void insert_child(Random& random, ChunkNode& parent, size_t at, ChunkNode child) {
    const size_t before = children_with_id(parent, child.id);
    parent.own.insert(parent.own.begin() + static_cast<ptrdiff_t>(at) + 1, Bytes{});
    parent.children.insert(parent.children.begin() + static_cast<ptrdiff_t>(at), std::move(child));
    keep_count_in_step(random, parent, before, +1);
}

// A copy of a chunk with the same id from anywhere in the tree (or the chunk itself) put in place
// of, or beside, a child: meshes, bones, nodes and keys meet parents and neighbours they never had.
void graft(Random& random, ChunkNode& parent, const std::vector<ChunkNode*>& all) {
    const size_t k = pick(random, parent.children.size());
    std::vector<const ChunkNode*> same_id;
    for (const ChunkNode* node : all) {
        if (node->id == parent.children[k].id) same_id.push_back(node);
    }
    ChunkNode copy = *same_id[pick(random, same_id.size())];
    if (random() % 2 == 0)
        parent.children[k] = std::move(copy);
    else
        insert_child(random, parent, k + 1, std::move(copy));
}

ChunkNode unknown_chunk(Random& random) {
    ChunkNode chunk;
    do {
        chunk.id = static_cast<uint32_t>(random());
    } while (chunk.id >= kFirstChunkId && chunk.id <= kLastChunkId);
    chunk.own.emplace_back(pick(random, 24), std::byte{0x5A});
    return chunk;
}

void edit_tree(Random& random, ChunkTree& tree) {
    std::vector<ChunkNode*> all;
    collect(tree.scene, all);
    ChunkNode& node = *all[pick(random, all.size())];
    switch (random() % 9) {
    case 0:
        return mutate_piece(node.own[pick(random, node.own.size())]);
    case 1:
    case 2:
        return patch_field(random, node);
    case 3: {
        std::vector<ChunkNode*> properties;
        for (ChunkNode* candidate : all) {
            if (candidate->id == kMaterialPropertyId) properties.push_back(candidate);
        }
        if (properties.empty()) return patch_field(random, node);
        return change_property_type(random, *properties[pick(random, properties.size())]);
    }
    case 4:
        if (!node.children.empty()) return delete_child(random, node);
        return mutate_piece(node.own.front());
    case 5:
        if (!node.children.empty()) {
            const size_t k = pick(random, node.children.size());
            return insert_child(random, node, k + 1, node.children[k]);
        }
        return patch_field(random, node);
    case 6:
        if (node.children.size() >= 2) {
            std::swap(node.children[pick(random, node.children.size())],
                      node.children[pick(random, node.children.size())]);
            return;
        }
        return patch_field(random, node);
    case 7:
        if (!node.children.empty()) return graft(random, node, all);
        return mutate_piece(node.own.front());
    default:
        return insert_child(random, node, pick(random, node.children.size() + 1), unknown_chunk(random));
    }
}

// One chunk's length made wrong on purpose (one mutation in eight), so the length checks keep being
// exercised too: a few bytes off either way, or the largest value.
void break_one_length(Random& random, ChunkTree& tree) {
    std::vector<ChunkNode*> all;
    collect(tree.scene, all);
    const int64_t offsets[] = {1, -1, 4, -8, int64_t{0xFFFFFFFF}};
    all[pick(random, all.size())]->length_offset += offsets[pick(random, std::size(offsets))];
}

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
    Random random(seed);
    if (plain_mutator_only() || random() % 4 == 0) return LLVMFuzzerMutate(data, size, max_size);
    assbin::ReadOptions options = assbin_fuzz::fuzz_read_options();
    std::optional<ChunkTree> tree =
        assbin_fuzz::decode_chunk_tree(assbin_fuzz::as_bytes(data, size), options);
    if (!tree) return LLVMFuzzerMutate(data, size, max_size);
    const unsigned edits = 1 + random() % 3;
    for (unsigned e = 0; e < edits; ++e)
        edit_tree(random, *tree);
    if (random() % 8 == 0) break_one_length(random, *tree);
    const Bytes bytes = assbin_fuzz::encode_chunk_tree(*tree);
    if (bytes.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
    std::memcpy(data, bytes.data(), bytes.size());
    return bytes.size();
}
