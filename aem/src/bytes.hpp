// Little-endian scalars by construction: the reader and writer go through these helpers only, so
// the file layout does not depend on the host's byte order or on struct padding.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace aem::detail {

inline void append_u32(std::string& out, uint32_t value) {
    const char bytes[4] = {static_cast<char>(value & 0xFF), static_cast<char>((value >> 8) & 0xFF),
                           static_cast<char>((value >> 16) & 0xFF), static_cast<char>((value >> 24) & 0xFF)};
    out.append(bytes, 4);
}

inline void append_u64(std::string& out, uint64_t value) {
    append_u32(out, static_cast<uint32_t>(value));
    append_u32(out, static_cast<uint32_t>(value >> 32));
}

inline void append_i32(std::string& out, int32_t value) {
    append_u32(out, static_cast<uint32_t>(value));
}
inline void append_f32(std::string& out, float value) {
    append_u32(out, std::bit_cast<uint32_t>(value));
}

inline uint32_t load_u32(const std::byte* at) {
    return std::to_integer<uint32_t>(at[0]) | std::to_integer<uint32_t>(at[1]) << 8 |
           std::to_integer<uint32_t>(at[2]) << 16 | std::to_integer<uint32_t>(at[3]) << 24;
}

// Reads forward through bytes the caller has already checked are all present (the reader compares
// the file size with the counts first); the bound is still checked so a bug cannot read past it.
class ByteCursor {
  public:
    explicit ByteCursor(std::span<const std::byte> bytes, size_t position = 0)
        : bytes_(bytes), position_(position) {}

    uint32_t u32() { return load_u32(take(4)); }
    uint64_t u64() {
        const uint64_t low = u32();
        return low | uint64_t{u32()} << 32;
    }
    std::span<const std::byte> bytes(size_t size) { return {take(size), size}; }
    int32_t i32() { return static_cast<int32_t>(u32()); }
    float f32() { return std::bit_cast<float>(u32()); }
    std::string_view text(size_t size) { return {reinterpret_cast<const char*>(take(size)), size}; }
    void skip(size_t size) { take(size); }
    size_t position() const { return position_; }

  private:
    const std::byte* take(size_t size);

    std::span<const std::byte> bytes_;
    size_t position_;
};

} // namespace aem::detail
