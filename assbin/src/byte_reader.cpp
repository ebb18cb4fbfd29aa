#include "byte_reader.hpp"

#include <counting.hpp>

using assbin_common::with_thousands;

namespace assbin::detail {

std::string ReadContext::path_string() const {
    std::string joined;
    for (const std::string& segment : path) {
        if (!joined.empty()) joined += '/';
        joined += segment;
    }
    return joined;
}

void ReadContext::fail(ErrorCode code, uint64_t offset, const std::string& message, Limit limit) const {
    throw ParseError(code, offset, path_string(), message, limit);
}

void ReadContext::fail_allocation(uint64_t offset) const {
    const ReadLimits& limits = options->limits;
    fail(ErrorCode::LimitExceeded, offset,
         "the scene would take more than " + with_thousands(allocation_cap) +
             " bytes of memory, the reader's allocation limit for this " + with_thousands(body_bytes) +
             "-byte body (" + with_thousands(limits.max_allocation_ratio) + " times the body + " +
             with_thousands(limits.max_allocation_allowance >> 20) + " MiB)",
         Limit::AllocationRatio);
}

void ByteReader::fail_truncated(uint64_t bytes, const char* what) const {
    fail(ErrorCode::Truncated, std::string(what) + " needs " + with_thousands(bytes) + " bytes, but only " +
                                   with_thousands(remaining()) + " are left in this chunk");
}

void ByteReader::fail_count(uint64_t count, size_t record_bytes, const char* what) const {
    fail(ErrorCode::Truncated, with_thousands(count) + " " + what + " of " + std::to_string(record_bytes) +
                                   " bytes each do not fit in the " + with_thousands(remaining()) +
                                   " bytes left in this chunk (a count is wrong or the file is cut short)");
}

std::string ByteReader::string(const char* what) {
    const uint32_t length = u32(what);
    require(length, what);
    context_->charge_string(length, offset());
    std::string text(reinterpret_cast<const char*>(data_ + position_), length);
    position_ += length;
    return text;
}

Vec3 ByteReader::vec3(const char* what) {
    const float x = wide_float(what);
    const float y = f32(what);
    const float z = f32(what);
    return {x, y, z};
}

Color4 ByteReader::color4(const char* what) {
    const float r = wide_float(what);
    const float g = f32(what);
    const float b = f32(what);
    const float a = f32(what);
    return {r, g, b, a};
}

Quaternion ByteReader::quaternion(const char* what) {
    const float w = wide_float(what);
    const float x = f32(what);
    const float y = f32(what);
    const float z = f32(what);
    return Quaternion(w, x, y, z);
}

Matrix4 ByteReader::matrix(const char* what) {
    Matrix4 m;
    if (context_->mixed_double) {
        for (int i = 0; i < 16; ++i)
            m.data()[i] = static_cast<float>(f64(what));
    } else {
        require(64, what);
        std::memcpy(m.data(), data_ + position_, 64);
        position_ += 64;
    }
    return m;
}

void ByteReader::vec3_array(uint32_t count, std::vector<Vec3>& out, const char* what) {
    if (!context_->mixed_double) {
        records(count, out, what);
        return;
    }
    require_records(count, 16, what);
    context_->charge_array<Vec3>(count, offset());
    out.resize(count);
    for (Vec3& v : out)
        v = vec3(what);
}

void ByteReader::color4_array(uint32_t count, std::vector<Color4>& out, const char* what) {
    if (!context_->mixed_double) {
        records(count, out, what);
        return;
    }
    require_records(count, 20, what);
    context_->charge_array<Color4>(count, offset());
    out.resize(count);
    for (Color4& c : out)
        c = color4(what);
}

void ByteReader::bytes(size_t count, std::vector<uint8_t>& out, const char* what) {
    require(count, what);
    context_->charge(count, offset());
    out.assign(reinterpret_cast<const uint8_t*>(data_ + position_),
               reinterpret_cast<const uint8_t*>(data_ + position_ + count));
    position_ += count;
}

} // namespace assbin::detail
