// The compressed dump's body (ASSBIN-FORMAT.md §2): u32 body length, then one zlib stream made by
// compress2 over the whole body, as Assimp 5.1+'s AssbinFileWriter writes it.
#include "write_context.hpp"

#include <zlib.h>

#include <limits>

namespace assbin::detail {

std::vector<std::byte> compress_body(std::span<const std::byte> body, int level) {
    if (level < 1 || level > 9) {
        throw WriteError("", "the compression level must be 1 to 9, not " + std::to_string(level));
    }
    if (body.size() > std::numeric_limits<uint32_t>::max() ||
        body.size() > std::numeric_limits<uLong>::max()) {
        throw WriteError("", "the body is " + std::to_string(body.size()) +
                                 " bytes; a compressed dump stores its length in 32 bits");
    }
    const uLong body_size = static_cast<uLong>(body.size());
    uLongf stream_size = compressBound(body_size);
    std::vector<std::byte> out(4 + stream_size);
    const uint32_t prefix = static_cast<uint32_t>(body.size());
    std::memcpy(out.data(), &prefix, 4);
    const int status = compress2(reinterpret_cast<Bytef*>(out.data() + 4), &stream_size,
                                 reinterpret_cast<const Bytef*>(body.data()), body_size, level);
    if (status != Z_OK) {
        throw WriteError("", "zlib could not compress the body (compress2 returned " +
                                 std::to_string(status) + ")");
    }
    out.resize(4 + stream_size);
    return out;
}

} // namespace assbin::detail
