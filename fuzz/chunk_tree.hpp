// A dump as a tree of chunks, for the structure-aware mutator: each chunk keeps its id, its own bytes
// (the fields between its nested chunks) and its nested chunks, and is written back with lengths
// that fit what it now holds. The tree comes from the reader's own chunk trace, so it knows every
// layout the reader knows, and a chunk the reader stepped over stays one opaque piece.
// Header-only: the fuzz targets and a round-trip test over the fixtures share it.
#pragma once

#include <assbin/error.hpp>
#include <assbin/format.hpp>
#include <assbin/reader.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

namespace assbin_fuzz {

using Bytes = std::vector<std::byte>;

struct ChunkNode {
    uint32_t id = 0;
    // Declared length minus the bytes the chunk holds: 0, except for the short MESH and SCENE lengths
    // of old writers (ASSBIN-FORMAT.md §3), which stay as short after an edit.
    int64_t length_offset = 0;
    std::vector<Bytes> own; // own[k] precedes children[k]; own.back() follows the last child
    std::vector<ChunkNode> children;

    uint64_t content_size() const {
        uint64_t total = 0;
        for (const Bytes& piece : own)
            total += piece.size();
        for (const ChunkNode& child : children)
            total += 8 + child.content_size();
        return total;
    }
};

struct ChunkTree {
    Bytes header; // the 512-byte header, as it was
    ChunkNode scene;
    Bytes trailing; // bytes after the SCENE chunk
};

namespace detail {

inline Bytes slice(std::span<const std::byte> bytes, uint64_t begin, uint64_t end) {
    return Bytes(bytes.begin() + static_cast<ptrdiff_t>(begin), bytes.begin() + static_cast<ptrdiff_t>(end));
}

// Builds the chunk at trace[index] and, recursively, the records nested in it; advances `index`
// past them. Returns false when the trace does not describe a well-nested tree.
inline bool build_node(std::span<const std::byte> image, const std::vector<assbin::ChunkRecord>& trace,
                       size_t& index, ChunkNode& node, unsigned depth) {
    const assbin::ChunkRecord& record = trace[index++];
    if (!record.complete || depth > 256) return false;
    const uint64_t begin = record.offset + 8, end = begin + record.actual_length;
    if (end > image.size()) return false;
    node.id = record.id;
    node.length_offset = int64_t{record.declared_length} - static_cast<int64_t>(record.actual_length);
    uint64_t at = begin;
    while (index < trace.size() && trace[index].depth > record.depth && trace[index].offset < end) {
        const assbin::ChunkRecord& next = trace[index];
        if (next.depth != record.depth + 1 || next.offset < at) return false;
        node.own.push_back(slice(image, at, next.offset));
        ChunkNode child;
        if (!build_node(image, trace, index, child, depth + 1)) return false;
        at = next.offset + 8 + child.content_size();
        if (at > end) return false;
        node.children.push_back(std::move(child));
    }
    node.own.push_back(slice(image, at, end));
    return true;
}

inline void put_u32(Bytes& out, uint32_t value) {
    std::byte raw[4];
    std::memcpy(raw, &value, 4);
    out.insert(out.end(), raw, raw + 4);
}

inline void encode_node(const ChunkNode& node, Bytes& out) {
    put_u32(out, node.id);
    const int64_t length = static_cast<int64_t>(node.content_size()) + node.length_offset;
    put_u32(out, static_cast<uint32_t>(std::clamp<int64_t>(length, 0, 0xFFFFFFFF)));
    for (size_t k = 0; k < node.own.size(); ++k) {
        out.insert(out.end(), node.own[k].begin(), node.own[k].end());
        if (k < node.children.size()) encode_node(node.children[k], out);
    }
}

} // namespace detail

// The tree of an uncompressed dump the reader accepts (any layout, full or shortened); nullopt for
// anything else, which the mutator then leaves to libFuzzer's byte-level mutations.
inline std::optional<ChunkTree> decode_chunk_tree(std::span<const std::byte> file,
                                                  const assbin::ReadOptions& base_options = {}) {
    if (file.size() < assbin::kHeaderSize + 8 || file[62] != std::byte{0} || file[63] != std::byte{0})
        return std::nullopt;
    std::vector<assbin::ChunkRecord> trace;
    assbin::ReadOptions options = base_options;
    options.chunk_trace = &trace;
    try {
        (void)assbin::read_scene(file, options);
    } catch (const assbin::ParseError&) {
        return std::nullopt;
    }
    if (trace.empty() || trace.front().depth != 0 || trace.front().offset != assbin::kHeaderSize)
        return std::nullopt;
    ChunkTree tree;
    size_t index = 0;
    if (!detail::build_node(file, trace, index, tree.scene, 0) || index != trace.size()) return std::nullopt;
    tree.header = detail::slice(file, 0, assbin::kHeaderSize);
    const uint64_t scene_end = assbin::kHeaderSize + 8 + tree.scene.content_size();
    tree.trailing = detail::slice(file, scene_end, file.size());
    return tree;
}

// The dump's bytes, every chunk length recomputed from what the chunk holds.
inline Bytes encode_chunk_tree(const ChunkTree& tree) {
    Bytes out = tree.header;
    detail::encode_node(tree.scene, out);
    out.insert(out.end(), tree.trailing.begin(), tree.trailing.end());
    return out;
}

} // namespace assbin_fuzz
