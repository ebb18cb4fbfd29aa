// The 512-byte header (ASSBIN-FORMAT.md §1.1), as Assimp 5.1+'s AssbinFileWriter fills it.
#include "write_context.hpp"

#include <assbin/format.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace assbin {

WriteError::WriteError(std::string path, std::string message)
    : std::runtime_error(path.empty() ? message : path + ": " + message), path_(std::move(path)),
      message_(std::move(message)) {}

std::string asctime_utc(std::chrono::system_clock::time_point time) {
    // asctime()'s fixed format, spelled out so that neither the locale nor a static buffer matters.
    static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                              "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[64];
    std::snprintf(text, sizeof text, "%.3s %.3s%3d %.2d:%.2d:%.2d %d\n", kDays[utc.tm_wday % 7],
                  kMonths[utc.tm_mon % 12], utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                  1900 + utc.tm_year);
    return text;
}

namespace detail {

namespace {

// At most `max` bytes of `text`, not cutting a UTF-8 sequence in two.
std::string_view cut_utf8(std::string_view text, size_t max) {
    if (text.size() <= max) return text;
    size_t end = max;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
        --end;
    return text.substr(0, end);
}

void put(std::vector<std::byte>& header, size_t offset, const void* data, size_t size) {
    std::memcpy(header.data() + offset, data, size);
}

template <class T>
void put_scalar(std::vector<std::byte>& header, size_t offset, T value) {
    put(header, offset, &value, sizeof value);
}

} // namespace

std::vector<std::byte> header_bytes(const WriteOptions& options, bool shortened) {
    if (options.compile_flags & kCompileDoublePrecision) {
        throw WriteError("header", "compile flag 0x20 declares the double-precision layout, but this writer "
                                   "writes single precision only");
    }
    std::vector<std::byte> header(kHeaderSize, std::byte{0});
    // "ASSIMP.binary-dump." + asctime() is 44 bytes: exactly the magic field.
    std::string stamp = options.timestamp
                            ? *options.timestamp
                            : asctime_utc(options.time.value_or(std::chrono::system_clock::now()));
    stamp.resize(25, '\0');
    const std::string magic = std::string(kMagicPrefix) + stamp;
    put(header, 0, magic.data(), std::min<size_t>(magic.size(), 44));
    put_scalar<uint32_t>(header, 44, 1); // version major
    put_scalar<uint32_t>(header, 48, 0); // version minor: never bumped by Assimp
    put_scalar<uint32_t>(header, 52, options.revision);
    put_scalar<uint32_t>(header, 56, options.compile_flags);
    put_scalar<uint16_t>(header, 60, shortened ? 1 : 0);
    put_scalar<uint16_t>(header, 62, options.compressed ? 1 : 0);
    const std::string_view name = cut_utf8(options.source_name, 255);
    put(header, 64, name.data(), name.size());
    const std::string_view command = cut_utf8(options.command, 127);
    put(header, 320, command.data(), command.size());
    std::memset(header.data() + 448, 0xCD, 64);
    return header;
}

} // namespace detail

} // namespace assbin
