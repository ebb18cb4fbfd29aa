// A bounded little-endian reader over one chunk's bytes: every read checks what is left and fails
// with the byte offset and chunk path; a child reader can never read past its chunk.
#pragma once

#include "read_context.hpp"

#include <assbin/types.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace assbin::detail {

static_assert(std::endian::native == std::endian::little,
              "ASSBIN is little-endian and arrays are bulk-copied; a big-endian port needs byte swaps here");

class ByteReader {
  public:
    // `image_offset` is the offset of data[0] in the (inflated) file image, for error messages.
    ByteReader(const std::byte* data, size_t size, uint64_t image_offset, ReadContext& context)
        : data_(data), size_(size), image_offset_(image_offset), context_(&context) {}

    size_t remaining() const { return size_ - position_; }
    size_t position() const { return position_; }
    bool at_end() const { return position_ == size_; }
    uint64_t offset() const { return image_offset_ + position_; }
    ReadContext& context() const { return *context_; }

    // Fails unless `bytes` remain; `what` names the field for the message.
    void require(uint64_t bytes, const char* what) const {
        if (bytes > remaining()) fail_truncated(bytes, what);
    }
    // Fails unless `count` records of `record_bytes` each remain (overflow-safe). Call before allocating.
    void require_records(uint64_t count, size_t record_bytes, const char* what) const {
        if (record_bytes != 0 && count > remaining() / record_bytes) fail_count(count, record_bytes, what);
    }

    template <class T>
    T scalar(const char* what) {
        require(sizeof(T), what);
        T value;
        std::memcpy(&value, data_ + position_, sizeof(T));
        position_ += sizeof(T);
        return value;
    }
    uint8_t u8(const char* what) { return scalar<uint8_t>(what); }
    uint16_t u16(const char* what) { return scalar<uint16_t>(what); }
    uint32_t u32(const char* what) { return scalar<uint32_t>(what); }
    uint64_t u64(const char* what) { return scalar<uint64_t>(what); }
    int32_t i32(const char* what) { return scalar<int32_t>(what); }
    float f32(const char* what) { return scalar<float>(what); }
    double f64(const char* what) { return scalar<double>(what); }

    // A float that double builds write as f64 (the first component of a compound, §8).
    float wide_float(const char* what) { return context_->mixed_double ? float(f64(what)) : f32(what); }

    std::string string(const char* what);
    Vec3 vec3(const char* what);
    Color3 color3(const char* what) { return vec3(what); }
    Color4 color4(const char* what);
    Quaternion quaternion(const char* what); // stored w, x, y, z
    Matrix4 matrix(const char* what);

    // `count` vec3 records into `out` (bulk copy in the single layout).
    void vec3_array(uint32_t count, std::vector<Vec3>& out, const char* what);
    void color4_array(uint32_t count, std::vector<Color4>& out, const char* what);
    // Raw bytes, copied.
    void bytes(size_t count, std::vector<uint8_t>& out, const char* what);
    // Copies `count` plain records of `sizeof(T)` bytes each (T must match the file record exactly).
    template <class T>
    void records(uint32_t count, std::vector<T>& out, const char* what) {
        require_records(count, sizeof(T), what);
        context_->charge_array<T>(count, offset());
        out.resize(count);
        // T is a plain record of floats or integers (Eigen fixed-size types are such records).
        if (count != 0)
            std::memcpy(static_cast<void*>(out.data()), data_ + position_, size_t{count} * sizeof(T));
        position_ += size_t{count} * sizeof(T);
    }

    // `count` records of `record_bytes` each, checked and stepped over, left where they are.
    std::span<const std::byte> view_records(uint32_t count, size_t record_bytes, const char* what) {
        require_records(count, record_bytes, what);
        const std::span<const std::byte> records(data_ + position_, size_t{count} * record_bytes);
        position_ += records.size();
        return records;
    }

    void skip(size_t bytes, const char* what) {
        require(bytes, what);
        position_ += bytes;
    }
    const std::byte* current() const { return data_ + position_; }
    // The u32 `ahead` bytes from here, without consuming it; the caller checked remaining().
    uint32_t peek_u32(size_t ahead) const {
        uint32_t value;
        std::memcpy(&value, data_ + position_ + ahead, sizeof value);
        return value;
    }

    // A reader over everything left, without stepping over it (for chunks whose length is untrusted).
    ByteReader rest() const { return ByteReader(data_ + position_, remaining(), offset(), *context_); }

    // A reader over the next `length` bytes, which this reader then steps over.
    ByteReader child(size_t length) {
        ByteReader sub(data_ + position_, length, offset(), *context_);
        position_ += length;
        return sub;
    }

    [[noreturn]] void fail(ErrorCode code, const std::string& message, Limit limit = Limit::None) const {
        context_->fail(code, offset(), message, limit);
    }

  private:
    [[noreturn]] void fail_truncated(uint64_t bytes, const char* what) const;
    [[noreturn]] void fail_count(uint64_t count, size_t record_bytes, const char* what) const;

    const std::byte* data_;
    size_t size_;
    size_t position_ = 0;
    uint64_t image_offset_;
    ReadContext* context_;
};

} // namespace assbin::detail
