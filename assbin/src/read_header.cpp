// The 512-byte header (ASSBIN-FORMAT.md §1.1) and the compressed prefix (§2).
#include <assbin/format.hpp>
#include <assbin/reader.hpp>

#include <cstring>

namespace assbin {

namespace {

template <class T>
T load(std::span<const std::byte> data, size_t offset) {
    T value;
    std::memcpy(&value, data.data() + offset, sizeof value);
    return value;
}

// Text of a NUL-padded field, up to the first NUL (the whole field when it has none).
std::string padded_text(std::span<const std::byte> data, size_t offset, size_t size) {
    const char* begin = reinterpret_cast<const char*>(data.data() + offset);
    return std::string(begin, strnlen(begin, size));
}

} // namespace

Header read_header(std::span<const std::byte> data) {
    if (data.empty())
        throw ParseError(ErrorCode::NotAssbin, 0, "", "the file is empty (0 bytes), not an ASSBIN dump");
    if (data.size() < kMagicPrefix.size() &&
        std::memcmp(data.data(), kMagicPrefix.data(), data.size()) == 0) {
        throw ParseError(ErrorCode::Truncated, data.size(), "header",
                         "the file is cut short inside the 512-byte header (it has " +
                             std::to_string(data.size()) + " bytes)");
    }
    if (!has_assbin_magic(data.data(), data.size())) {
        throw ParseError(ErrorCode::NotAssbin, 0, "",
                         "not an ASSBIN dump: the file does not start with \"ASSIMP.binary-dump.\"");
    }
    if (data.size() < kHeaderSize) {
        throw ParseError(ErrorCode::Truncated, data.size(), "header",
                         "the file is cut short inside the 512-byte header (it has " +
                             std::to_string(data.size()) + " bytes)");
    }
    Header header;
    header.timestamp = std::string(reinterpret_cast<const char*>(data.data()) + kMagicPrefix.size(), 25);
    header.version_major = load<uint32_t>(data, 44);
    header.version_minor = load<uint32_t>(data, 48);
    header.revision = load<uint32_t>(data, 52);
    header.compile_flags = load<uint32_t>(data, 56);
    header.shortened = load<uint16_t>(data, 60);
    header.compressed = load<uint16_t>(data, 62);
    header.source_name = padded_text(data, 64, 256);
    header.command = padded_text(data, 320, 128);
    std::memcpy(header.reserved.data(), data.data() + 448, header.reserved.size());
    if (header.is_compressed()) {
        if (data.size() < kHeaderSize + 4) {
            throw ParseError(ErrorCode::Truncated, data.size(), "header",
                             "the file is cut short: the compressed flag is set, but the file ends before "
                             "the 4-byte size prefix");
        }
        header.compressed_prefix = load<uint32_t>(data, kHeaderSize);
        // Writers up to 4.1.0 stored the compressed stream's length here, later ones the body's.
        header.prefix_meaning = header.compressed_prefix == data.size() - kHeaderSize - 4
                                    ? CompressedPrefix::CompressedLength
                                    : CompressedPrefix::UncompressedLength;
    }
    return header;
}

} // namespace assbin
