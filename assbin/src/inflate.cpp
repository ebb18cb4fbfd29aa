#include "inflate.hpp"

#include <assbin/format.hpp>

#include <counting.hpp>

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

using assbin_common::with_thousands;

constexpr uint64_t kStreamOffset = kHeaderSize + 4;

[[noreturn]] void fail(ErrorCode code, const std::string& message) {
    throw ParseError(code, kStreamOffset, "compressed body", message);
}

// The most the inflated body may take, and which limit sets it (the smaller of the two).
struct InflateCap {
    uint64_t bytes = 0;
    Limit limit = Limit::InflatedSize;
};

InflateCap inflate_cap(size_t stream_size, const ReadLimits& limits) {
    if (limits.max_inflate_ratio == 0) return {0, Limit::InflateRatio};
    const uint64_t ratio_cap = stream_size > std::numeric_limits<uint64_t>::max() / limits.max_inflate_ratio
                                   ? std::numeric_limits<uint64_t>::max()
                                   : stream_size * limits.max_inflate_ratio;
    if (ratio_cap < limits.max_inflated_bytes) return {ratio_cap, Limit::InflateRatio};
    return {limits.max_inflated_bytes, Limit::InflatedSize};
}

// "247,808 bytes, the reader's inflate-ratio limit for this 484-byte stream (512 times its size)".
std::string cap_description(const InflateCap& cap, size_t stream_size, const ReadLimits& limits) {
    if (cap.limit == Limit::InflateRatio) {
        return with_thousands(cap.bytes) + " bytes, the reader's inflate-ratio limit for this " +
               with_thousands(stream_size) + "-byte stream (" + with_thousands(limits.max_inflate_ratio) +
               " times its size)";
    }
    return with_thousands(cap.bytes) + " bytes, the reader's inflated-size limit (" +
           with_thousands(limits.max_inflated_bytes >> 20) + " MiB)";
}

[[noreturn]] void fail_over_cap(const InflateCap& cap, size_t stream_size, const ReadLimits& limits) {
    throw ParseError(ErrorCode::LimitExceeded, kStreamOffset, "compressed body",
                     "the stream inflates to more than " + cap_description(cap, stream_size, limits),
                     cap.limit);
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

// Where a cut stream ends, and how much of the body it gave.
std::string cut_short_note(size_t stream_size, uint64_t inflated, std::optional<uint64_t> declared) {
    std::string note = "the compressed stream is cut short: the file ends " + with_thousands(stream_size) +
                       " bytes into it (at byte " + std::to_string(kStreamOffset + stream_size) +
                       "), before the stream's end, ";
    if (declared && inflated == *declared) {
        return note + "after inflating all " + with_thousands(*declared) +
               " bytes the size prefix declares (the stream's last block or checksum is missing)";
    }
    note += "after inflating " + with_thousands(inflated) + " bytes";
    if (declared && inflated < *declared)
        note += " of the " + with_thousands(*declared) + " the size prefix declares";
    return note;
}

[[noreturn]] void fail_more_than_declared(size_t expected) {
    fail(ErrorCode::BadCompression, "the stream inflates to more than the " + with_thousands(expected) +
                                        " bytes the size prefix declares");
}

// Inflates `stream` into `out` (room for `expected` bytes) with zlib, to tell a stream cut short
// (every byte used, no end reached: returned as far as it goes, `cut_short` said) from one that
// holds more than declared or is corrupt (thrown, with where zlib stopped), after the fast decoder
// refused it. A stream that fills `out` is inflated on into scratch: only more bytes after the
// declared ones make it "more than declared"; none, and no end, make it cut.
void diagnose_with_zlib(std::span<const std::byte> stream, ByteBuffer& out, size_t expected) {
    z_stream z{};
    if (inflateInit(&z) != Z_OK) fail(ErrorCode::BadCompression, "zlib could not start inflating");
    size_t consumed = 0;
    int status = Z_OK;
    while (status == Z_OK && out.size < expected)
        status = inflate_step(z, stream, consumed, out.data.get() + out.size, expected - out.size, out.size);
    // Past the declared size, on to the stream's end or the cut (bounded: a stream that goes on
    // for 64 MiB more is "more than declared" whatever follows). A stream that runs out of input
    // is cut, whatever it declared: the prefix of a writer before 4.1 that stored the compressed
    // length is taken for the body's size once the file is cut, and is then simply too small.
    size_t beyond = 0;
    std::byte scratch[4096];
    constexpr size_t kMostBeyond = size_t{64} << 20;
    while (status == Z_OK && beyond < kMostBeyond)
        status = inflate_step(z, stream, consumed, scratch, sizeof scratch, beyond);
    const std::string detail = z.msg ? z.msg : "no detail";
    inflateEnd(&z);
    if (status == Z_BUF_ERROR && consumed == stream.size()) {
        out.cut_short = cut_short_note(stream.size(), out.size + beyond, expected);
        return;
    }
    if (beyond > 0 && (status == Z_OK || status == Z_STREAM_END)) fail_more_than_declared(expected);
    if (status == Z_STREAM_END)
        return; // a size or an end the fast decoder disagreed with: left to the checks
    throw ParseError(ErrorCode::BadCompression, kStreamOffset + consumed, "compressed body",
                     "the zlib stream is corrupt " + with_thousands(consumed) + " bytes into it, after " +
                         with_thousands(out.size) + " inflated bytes (" + detail + ")");
}

// Bytes after the zlib stream are kept as a finding (`bytes_after_stream`), as bytes after the
// SCENE chunk of a plain dump are; the reader refuses them with refuse_trailing_bytes.
void note_bytes_after_stream(ByteBuffer& out, size_t stream_size, size_t used_in) {
    out.stream_end = kStreamOffset + used_in;
    out.bytes_after_stream = stream_size - used_in;
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
    if (result != LIBDEFLATE_SUCCESS) { // more than declared, cut, or corrupt: zlib tells which
        out.size = 0;
        diagnose_with_zlib(stream, out, expected);
        if (!out.cut_short.empty()) return out;
        if (out.size != expected) { // zlib reached the end: the stream is shorter than declared
            fail(ErrorCode::BadCompression, "the stream inflates to " + with_thousands(out.size) +
                                                " bytes, but the size prefix declares " +
                                                with_thousands(expected));
        }
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
        fail(ErrorCode::BadCompression, "the stream inflates to " + with_thousands(produced) +
                                            " bytes, but the size prefix declares " +
                                            with_thousands(expected));
    }
    note_bytes_after_stream(out, stream.size(), used_in);
    return out;
}

// How far a stream goes: the bytes it inflates to (up to `most` + 1: past `most` it stops), and
// whether it ran out of input before its end. Corrupt streams throw, as everywhere.
struct StreamExtent {
    uint64_t inflated = 0;
    bool cut = false;
};

StreamExtent measure_stream(std::span<const std::byte> stream, uint64_t most) {
    z_stream z{};
    if (inflateInit(&z) != Z_OK) fail(ErrorCode::BadCompression, "zlib could not start inflating");
    std::vector<std::byte> scratch(size_t{1} << 16);
    size_t consumed = 0, inflated = 0;
    int status = Z_OK;
    while (status == Z_OK && inflated <= most)
        status = inflate_step(z, stream, consumed, scratch.data(), scratch.size(), inflated);
    const std::string detail = z.msg ? z.msg : "no detail";
    inflateEnd(&z);
    if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) {
        throw ParseError(ErrorCode::BadCompression, kStreamOffset + consumed, "compressed body",
                         "the zlib stream is corrupt " + with_thousands(consumed) + " bytes into it, after " +
                             with_thousands(inflated) + " inflated bytes (" + detail + ")");
    }
    return {inflated, status == Z_BUF_ERROR && consumed == stream.size()};
}

// Inflates a stream of unknown result size (writers up to 4.1.0 stored the compressed length),
// growing the buffer geometrically up to `cap`.
ByteBuffer inflate_unknown_size(std::span<const std::byte> stream, const InflateCap& cap,
                                const ReadLimits& limits) {
    z_stream z{};
    if (inflateInit(&z) != Z_OK) fail(ErrorCode::BadCompression, "zlib could not start inflating");
    ByteBuffer out;
    size_t capacity = 0;
    size_t consumed = 0;
    int status = Z_OK;
    while (status != Z_STREAM_END) {
        if (out.size == capacity) {
            if (capacity >= cap.bytes) {
                inflateEnd(&z);
                fail_over_cap(cap, stream.size(), limits);
            }
            const size_t grown = static_cast<size_t>(
                std::min<uint64_t>(cap.bytes, std::max<size_t>(capacity * 2, stream.size() * 4 + 4096)));
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
    note_bytes_after_stream(out, stream.size(), consumed);
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
    const InflateCap cap = inflate_cap(stream.size(), limits);
    if (header.prefix_meaning == CompressedPrefix::CompressedLength) {
        return inflate_unknown_size(stream, cap, limits);
    }
    if (header.compressed_prefix > cap.bytes) {
        // The prefix is a claim: a file cut short declares far more than its stream can give. The
        // stream is inflated into scratch, kept nowhere, up to the cap: one that really goes past
        // the limit is said as the limit (which the user may raise), one that runs out first as
        // cut (then inflated again, into a buffer of what it gives, for the chunks to be walked).
        const StreamExtent extent = measure_stream(stream, cap.bytes);
        if (extent.inflated > cap.bytes) fail_over_cap(cap, stream.size(), limits);
        if (extent.cut) {
            ByteBuffer out = inflate_unknown_size(stream, {extent.inflated + 1, cap.limit}, limits);
            out.cut_short = cut_short_note(stream.size(), out.size, header.compressed_prefix);
            return out;
        }
        fail(ErrorCode::BadCompression, "the stream inflates to " + with_thousands(extent.inflated) +
                                            " bytes, but the size prefix declares " +
                                            with_thousands(header.compressed_prefix));
    }
    return inflate_known_size(stream, header.compressed_prefix);
}

} // namespace assbin::detail
