// Inflating a compressed dump's body, treating the declared size as a claim (STYLE.md practice 6).
#pragma once

#include <assbin/reader.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <string>

namespace assbin::detail {

// Bytes without zero-filling: the inflated body is written once by the decoder.
struct ByteBuffer {
    std::unique_ptr<std::byte[]> data;
    size_t size = 0;
    // Set when the file ends inside the zlib stream (a cut file, not a corrupt one): `data` then holds
    // what the stream inflated to, for the reader to walk up to the cut; the sentence says where.
    std::string cut_short;
    // Bytes in the file after the end of the zlib stream (Assimp's loader ignores them), and the file
    // offset of the first.
    uint64_t bytes_after_stream = 0;
    uint64_t stream_end = 0;

    std::span<const std::byte> span() const { return {data.get(), size}; }
};

// Inflates `stream` (the zlib stream after the prefix). When the header's prefix declares the
// body size, the result must have exactly that size. Throws ParseError (BadCompression,
// LimitExceeded) with offsets in the file; a stream cut short is returned as far as it goes.
ByteBuffer inflate_body(std::span<const std::byte> stream, const Header& header, const ReadLimits& limits);

} // namespace assbin::detail
