#include "inflate.hpp"

#include <assbin/format.hpp>

#include <zlib.h>
#if ASSBIN_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

namespace assbin::detail {

namespace {

constexpr uint64_t kStreamOffset = kHeaderSize + 4;

[[noreturn]] void fail(ErrorCode code, const std::string& message) {
    throw ParseError(code, kStreamOffset, "compressed body", message);
}

uint64_t inflate_cap(size_t stream_size, const ReadLimits& limits) {
    if (limits.max_inflate_ratio == 0) return 0;
    const uint64_t ratio_cap = stream_size > std::numeric_limits<uint64_t>::max() / limits.max_inflate_ratio
                                   ? std::numeric_limits<uint64_t>::max()
                                   : stream_size * limits.max_inflate_ratio;
    return std::min(limits.max_inflated_bytes, ratio_cap);
}

std::string cap_description(uint64_t cap, const ReadLimits& limits) {
    return std::to_string(cap) +
           " bytes (limits max_inflated_bytes = " + std::to_string(limits.max_inflated_bytes) +
           ", max_inflate_ratio = " + std::to_string(limits.max_inflate_ratio) + " x the compressed size)";
}

// One inflate() call on what is left of `stream` (from `consumed`), writing at most `room` bytes at
// `into`; advances `consumed` and `produced` by what zlib took and gave, and returns its status.
int inflate_step(z_stream& z, std::span<const std::byte> stream, size_t& consumed, std::byte* into,
                 size_t room, size_t& produced) {
    const size_t input_chunk = std::min<size_t>(stream.size() - consumed, std::numeric_limits<uInt>::max());
    const size_t output_chunk = std::min<size_t>(room, std::numeric_limits<uInt>::max());
    z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(stream.data() + consumed));
    z.avail_in = static_cast<uInt>(input_chunk);
    z.next_out = reinterpret_cast<Bytef*>(into);
    z.avail_out = static_cast<uInt>(output_chunk);
    const int status = inflate(&z, Z_NO_FLUSH);
    consumed += input_chunk - z.avail_in;
    produced += output_chunk - z.avail_out;
    // No input left and no end reached: zlib says Z_OK or Z_BUF_ERROR; both mean "cut here".
    return status == Z_OK && input_chunk == 0 ? Z_BUF_ERROR : status;
}

std::string cut_short_note(size_t stream_size, uint64_t inflated, std::optional<uint64_t> declared) {
    return "the compressed stream is cut short: the file ends " + std::to_string(stream_size) +
           " bytes into it (at byte " + std::to_string(kStreamOffset + stream_size) +
           ") before the stream's end, after " + std::to_string(inflated) + " inflated bytes" +
           (declared ? " of the " + std::to_string(*declared) + " the size prefix declares" : std::string());
}

// Inflates `stream` into `out` (room for `expected` bytes) with zlib, to tell a stream cut short
// (every byte used, no end reached: returned as far as it goes) from a corrupt one (thrown, with
// where zlib stopped) after the fast decoder refused it.
void diagnose_with_zlib(std::span<const std::byte> stream, ByteBuffer& out, size_t expected) {
    z_stream z{};
    if (inflateInit(&z) != Z_OK) fail(ErrorCode::BadCompression, "zlib could not start inflating");
    size_t consumed = 0;
    int status = Z_OK;
    while (status == Z_OK)
        status = inflate_step(z, stream, consumed, out.data.get() + out.size, expected - out.size, out.size);
    const std::string detail = z.msg ? z.msg : "no detail";
    inflateEnd(&z);
    if (status == Z_BUF_ERROR && consumed == stream.size() && out.size < expected) {
        out.cut_short = cut_short_note(stream.size(), out.size, expected);
        return;
    }
    if (status == Z_BUF_ERROR) {
        fail(ErrorCode::BadCompression, "the stream inflates to more than the " + std::to_string(expected) +
                                            " bytes the size prefix declares");
    }
    if (status == Z_STREAM_END) { // only a size the fast decoder disagreed with: left to the checks
        return;
    }
    throw ParseError(ErrorCode::BadCompression, kStreamOffset + consumed, "compressed body",
                     "the zlib stream is corrupt " + std::to_string(consumed) + " bytes into it, after " +
                         std::to_string(out.size) + " inflated bytes (" + detail + ")");
}

// Inflates into a buffer of exactly `expected` bytes; the stream must fill it and end there.
ByteBuffer inflate_known_size(std::span<const std::byte> stream, size_t expected) {
    ByteBuffer out{std::unique_ptr<std::byte[]>(new std::byte[std::max<size_t>(expected, 1)]), expected, {}};
#if ASSBIN_HAVE_LIBDEFLATE
    libdeflate_decompressor* decompressor = libdeflate_alloc_decompressor();
    if (!decompressor) fail(ErrorCode::BadCompression, "out of memory for the decompressor");
    size_t used_in = 0;
    size_t produced = 0;
    const libdeflate_result result = libdeflate_zlib_decompress_ex(
        decompressor, stream.data(), stream.size(), out.data.get(), expected, &used_in, &produced);
    libdeflate_free_decompressor(decompressor);
    if (result == LIBDEFLATE_INSUFFICIENT_SPACE) {
        fail(ErrorCode::BadCompression, "the stream inflates to more than the " + std::to_string(expected) +
                                            " bytes the size prefix declares");
    }
    if (result != LIBDEFLATE_SUCCESS) {
        out.size = 0;
        diagnose_with_zlib(stream, out, expected);
        if (!out.cut_short.empty()) return out;
        fail(ErrorCode::BadCompression, "the zlib stream is corrupt");
    }
#else
    out.size = 0;
    diagnose_with_zlib(stream, out, expected);
    if (!out.cut_short.empty()) return out;
    const size_t produced = out.size;
    z_stream z{}; // the stream ended: how much of it was used
    inflateInit(&z);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(stream.data()));
    z.avail_in = static_cast<uInt>(std::min<size_t>(stream.size(), std::numeric_limits<uInt>::max()));
    std::vector<std::byte> sink(1 << 16);
    int status = Z_OK;
    while (status == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(sink.data());
        z.avail_out = static_cast<uInt>(sink.size());
        status = inflate(&z, Z_NO_FLUSH);
    }
    const size_t used_in = z.total_in;
    inflateEnd(&z);
#endif
    if (produced != expected) {
        fail(ErrorCode::BadCompression, "the stream inflates to " + std::to_string(produced) +
                                            " bytes, but the size prefix declares " +
                                            std::to_string(expected));
    }
    if (used_in != stream.size()) {
        fail(ErrorCode::BadCompression,
             std::to_string(stream.size() - used_in) + " bytes follow the end of the zlib stream");
    }
    return out;
}

// Inflates a stream of unknown result size (writers up to 4.1.0 stored the compressed length),
// growing the buffer geometrically up to `cap`.
ByteBuffer inflate_unknown_size(std::span<const std::byte> stream, uint64_t cap, const ReadLimits& limits) {
    z_stream z{};
    if (inflateInit(&z) != Z_OK) fail(ErrorCode::BadCompression, "zlib could not start inflating");
    ByteBuffer out;
    size_t capacity = 0;
    size_t consumed = 0;
    int status = Z_OK;
    while (status != Z_STREAM_END) {
        if (out.size == capacity) {
            if (capacity >= cap) {
                inflateEnd(&z);
                throw ParseError(ErrorCode::LimitExceeded, kStreamOffset, "compressed body",
                                 "the stream inflates to more than " + cap_description(cap, limits));
            }
            const size_t grown = static_cast<size_t>(
                std::min<uint64_t>(cap, std::max<size_t>(capacity * 2, stream.size() * 4 + 4096)));
            std::unique_ptr<std::byte[]> bigger(new std::byte[grown]);
            if (out.size) std::memcpy(bigger.get(), out.data.get(), out.size);
            out.data = std::move(bigger);
            capacity = grown;
        }
        status = inflate_step(z, stream, consumed, out.data.get() + out.size, capacity - out.size, out.size);
        if (status == Z_BUF_ERROR && z.avail_out != 0) { // every byte used, no end: a cut file
            inflateEnd(&z);
            out.cut_short = cut_short_note(stream.size(), out.size, std::nullopt);
            return out;
        }
        if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) {
            inflateEnd(&z);
            fail(ErrorCode::BadCompression,
                 "the zlib stream is corrupt (" + std::string(z.msg ? z.msg : "no detail") + ")");
        }
    }
    inflateEnd(&z);
    if (consumed != stream.size()) {
        fail(ErrorCode::BadCompression,
             std::to_string(stream.size() - consumed) + " bytes follow the end of the zlib stream");
    }
    return out;
}

} // namespace

ByteBuffer inflate_body(std::span<const std::byte> stream, const Header& header, const ReadLimits& limits) {
    if (header.compressed_prefix == kChunkScene) {
        // A SCENE chunk head where the prefix should be: assimp_cmd <= 5.0.1 compressed in a second
        // pass, and a writer that crashed before it left the plain body behind.
        throw ParseError(
            ErrorCode::BadCompression, kHeaderSize, "compressed body",
            "the compressed flag is set, but an uncompressed SCENE chunk follows the header: the "
            "writer stopped before its compression pass");
    }
    const uint64_t cap = inflate_cap(stream.size(), limits);
    if (header.prefix_meaning == CompressedPrefix::CompressedLength) {
        return inflate_unknown_size(stream, cap, limits);
    }
    if (header.compressed_prefix > cap) {
        throw ParseError(ErrorCode::LimitExceeded, kHeaderSize, "compressed body",
                         "the size prefix declares an inflated body of " +
                             std::to_string(header.compressed_prefix) + " bytes, over " +
                             cap_description(cap, limits));
    }
    return inflate_known_size(stream, header.compressed_prefix);
}

} // namespace assbin::detail
