// The writer's side of byte_reader.hpp: a little-endian output buffer with chunk heads whose
// lengths are patched when the chunk ends.
#pragma once

#include <assbin/types.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace assbin::detail {

static_assert(std::endian::native == std::endian::little,
              "ASSBIN is little-endian and arrays are bulk-copied; a big-endian port needs byte swaps here");

struct WriteContext;

class ByteWriter {
  public:
    explicit ByteWriter(WriteContext& context) : context_(context) {}

    template <class T>
    void scalar(T value) {
        append(&value, sizeof value);
    }
    void u8(uint8_t value) { scalar(value); }
    void u16(uint16_t value) { scalar(value); }
    void u32(uint32_t value) { scalar(value); }
    void i32(int32_t value) { scalar(value); }
    void u64(uint64_t value) { scalar(value); }
    void f32(float value) { scalar(value); }
    void f64(double value) { scalar(value); }

    // `u32 n` then the n bytes (§0); fails past 4 GiB.
    void string(std::string_view text, const char* what);
    void vec3(const Vec3& v) { append(v.data(), 12); }
    void color3(const Color3& c) { append(c.data(), 12); }
    void color4(const Color4& c) { append(c.data(), 16); }
    void quaternion(const Quaternion& q);                   // w, x, y, z
    void matrix(const Matrix4& m) { append(m.data(), 64); } // row-major, as the file
    // Plain records of sizeof(T) bytes each, bulk-copied (T must be the file record).
    template <class T>
    void records(std::span<const T> values) {
        append(values.data(), values.size_bytes());
    }
    void bytes(std::span<const uint8_t> data) { append(data.data(), data.size()); }
    void raw(std::span<const std::byte> data) { append(data.data(), data.size()); }
    // Grows the output by `count` bytes and returns where they start, for the caller to fill.
    std::byte* extend(size_t count) {
        const size_t at = buffer_.size();
        buffer_.resize(at + count);
        return buffer_.data() + at;
    }

    // Writes the chunk id and a placeholder length; returns the mark end_chunk needs.
    size_t begin_chunk(uint32_t id);
    // Patches the length to the payload written since begin_chunk; fails past 4 GiB.
    void end_chunk(size_t mark);

    size_t size() const { return buffer_.size(); }
    void reserve(size_t bytes) { buffer_.reserve(bytes); }
    std::vector<std::byte> take() { return std::move(buffer_); }

  private:
    void append(const void* data, size_t size) {
        const size_t at = buffer_.size();
        buffer_.resize(at + size);
        if (size != 0) std::memcpy(buffer_.data() + at, data, size);
    }

    WriteContext& context_;
    std::vector<std::byte> buffer_;
};

} // namespace assbin::detail
