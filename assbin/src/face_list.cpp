// FaceList::uniform: nearly every real face list holds faces of one size, and the checks that walk
// every face (validate, `info`'s facts) need only that size and the largest index then. Walking
// face by face through for_each costs a visit and a span per face: 3 ns a triangle, the most of
// `info` on a big mesh. These loops cost a few instructions a face.
#include <assbin/types.hpp>

#include <algorithm>
#include <cstring>

namespace assbin {

namespace {

// The largest index of `count` file records of `Size` indices (0: `size`, known at run time) of
// `IndexBytes` bytes each, each record led by its u16 count.
template <size_t IndexBytes, uint32_t Size>
uint32_t largest_record_index(const std::byte* records, size_t count, uint32_t size) {
    const uint32_t n = Size != 0 ? Size : size;
    const size_t stride = 2 + size_t{n} * IndexBytes;
    uint32_t largest = 0;
    for (size_t f = 0; f < count; ++f) {
        const std::byte* at = records + f * stride + 2;
        for (uint32_t k = 0; k < n; ++k) {
            if constexpr (IndexBytes == 4) {
                uint32_t index;
                std::memcpy(&index, at + 4 * k, 4);
                largest = std::max(largest, index);
            } else {
                uint16_t index;
                std::memcpy(&index, at + 2 * k, 2);
                largest = std::max(largest, uint32_t{index});
            }
        }
    }
    return largest;
}

} // namespace

std::optional<FaceList::Uniform> FaceList::uniform() const {
    if (!offsets.empty() && !file_records.empty()) return std::nullopt; // not a form the reader makes
    Uniform out;
    if (!file_records.empty()) {
        if (file_records.size() < 2) return std::nullopt;
        uint16_t size;
        std::memcpy(&size, file_records.data(), 2);
        const size_t index_bytes = file_wide_indices ? 4 : 2;
        const size_t stride = 2 + size_t{size} * index_bytes;
        if (file_records.size() % stride != 0) return std::nullopt;
        out.size = size;
        out.count = file_records.size() / stride;
        // Every count at its stride equal to the first: then each face begins where the last ends.
        bool same = true;
        for (size_t f = 1; f < out.count; ++f) {
            uint16_t count;
            std::memcpy(&count, file_records.data() + f * stride, 2);
            same &= count == size;
        }
        if (!same) return std::nullopt;
        const std::byte* records = file_records.data();
        if (file_wide_indices)
            out.max_index = size == 3 ? largest_record_index<4, 3>(records, out.count, size)
                                      : largest_record_index<4, 0>(records, out.count, size);
        else
            out.max_index = size == 3 ? largest_record_index<2, 3>(records, out.count, size)
                                      : largest_record_index<2, 0>(records, out.count, size);
        return out;
    }
    if (offsets.size() < 2) return std::nullopt;
    out.count = offsets.size() - 1;
    out.size = offsets[1] - offsets[0];
    if (uint64_t{out.size} * out.count != indices.size()) return std::nullopt;
    bool same = true;
    for (size_t f = 0; f <= out.count; ++f)
        same &= uint64_t{offsets[f]} == f * uint64_t{out.size};
    if (!same) return std::nullopt;
    for (const uint32_t index : indices)
        out.max_index = std::max(out.max_index, index);
    return out;
}

} // namespace assbin
