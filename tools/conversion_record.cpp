#include "conversion_record.hpp"

#include "quoting.hpp"
#include "read_file.hpp"

#include <assbin/version.hpp>

#define XXH_INLINE_ALL // header-only: nothing to link
#include <xxhash.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string_view>
#include <utility>
#include <fstream>
#include <sstream>

#include <cerrno>
#include <csignal>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace assbin::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kRecordName = ".assbin-convert.log";
// 4: the images looked for are recorded too; 3: the files beside the model; 2: XXH3 keys (1 was FNV-1a)
constexpr const char* kRecordVersion = "assbin-convert-4";
constexpr std::string_view kRecordPrefix = "assbin-convert-"; // what a record file's first line starts with
constexpr const char* kAbsent = "absent";

} // namespace

fs::path record_path(const fs::path& output) {
    return output.has_parent_path() ? output.parent_path() / kRecordName : fs::path(kRecordName);
}

namespace {

std::string hex64(uint64_t value) {
    char text[20];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

// A texture file's name in the record's one field: bytes other than letters, digits and ._- as %XX.
std::string encode_name(const std::string& name) {
    std::string out;
    for (const unsigned char c : name) {
        if (std::isalnum(c) || c == '.' || c == '_' || c == '-') {
            out += static_cast<char>(c);
        } else {
            char escaped[4];
            std::snprintf(escaped, sizeof escaped, "%%%02X", c);
            out += escaped;
        }
    }
    return out;
}

// A record field: "-" for no item, else "NAME=KEY,NAME=KEY" (names escaped), each item's name and
// key given by `entry` (every_entry below reads it back).
template <class Item, class Entry>
std::string entries_field(std::span<const Item> items, Entry&& entry) {
    if (items.empty()) return "-";
    std::string field;
    for (const Item& item : items) {
        const auto [name, key] = entry(item);
        if (!field.empty()) field += ',';
        field += encode_name(name) + '=' + key;
    }
    return field;
}

// The record's texture field: each file written beside the model, with its content.
std::string textures_field(std::span<const converter::TextureFile> textures) {
    return entries_field(textures, [](const converter::TextureFile& texture) {
        return std::pair<std::string, std::string>{texture.name, content_key(texture.bytes)};
    });
}

// The record's image field: each image looked for, with the content read from the file found, or
// "absent" when none was found; a file found but not read keys nothing that can match ("unread"),
// so its output is converted again.
std::string lookups_field(std::span<const converter::ImageLookup> lookups) {
    return entries_field(lookups, [](const converter::ImageLookup& lookup) {
        return std::pair<std::string, std::string>{
            lookup.name, lookup.found.empty() ? kAbsent
                         : lookup.read        ? content_key(lookup.bytes, lookup.xxh3)
                                              : "unread"};
    });
}

// Whether `holds(name, key)` for every "NAME=KEY" entry of a record field ("-": none).
template <class Holds>
bool every_entry(const std::string& field, Holds&& holds) {
    if (field == "-") return true;
    std::istringstream entries(field);
    for (std::string entry; std::getline(entries, entry, ',');) {
        const size_t equals = entry.find('=');
        if (equals == std::string::npos ||
            !holds(assbin_common::percent_decoded(entry.substr(0, equals)), entry.substr(equals + 1)))
            return false;
    }
    return true;
}

// Whether `file` holds the content `key` names (false when it cannot be read: convert it again).
bool holds_content(const fs::path& file, const std::string& key) {
    try {
        return content_key(assbin_common::read_regular_file(file)) == key;
    } catch (const assbin_common::ReadFailure&) {
        return false;
    }
}

// Whether every image the field names resolves as it did: to a file of the recorded content, or to
// none when none was found.
bool lookups_match(const std::string& field, const converter::ConvertOptions& options) {
    return every_entry(field, [&](const std::string& name, const std::string& recorded) {
        const std::optional<fs::path> found = converter::find_image_file(name, options);
        return found ? holds_content(*found, recorded) : recorded == kAbsent; // absent: still missing
    });
}

// The record file opened with `flags`, or -1 with `why` said: never through a symlink (O_NOFOLLOW),
// and only a regular file (O_NONBLOCK: a FIFO named like the record is opened without waiting for a
// writer, then refused).
int open_record(const fs::path& path, int flags, std::string& why) {
    const int fd = ::open(path.c_str(), flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0) {
        why = errno == ELOOP ? "it is a symbolic link" : std::strerror(errno);
        return -1;
    }
    struct stat status {};
    if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
        why = "it is not a regular file";
        ::close(fd);
        return -1;
    }
    return fd;
}

// The record file's lines ("" when it is missing, a link, not a regular file or unreadable: no
// output is then up to date).
std::string record_text(const fs::path& path) {
    std::string why;
    const int fd = open_record(path, O_RDONLY, why);
    if (fd < 0) return {};
    std::string text;
    char buffer[65536];
    for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) != 0;) {
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            text.clear();
            break;
        }
        text.append(buffer, static_cast<size_t>(got));
    }
    ::close(fd);
    return text;
}

// Whether every texture the field names lies in `folder` with the recorded content.
bool textures_match(const fs::path& folder, const std::string& field) {
    return every_entry(field, [&](const std::string& name, const std::string& recorded) {
        return holds_content(folder / name, recorded);
    });
}

} // namespace

std::string content_key(std::span<const std::byte> bytes) {
    return content_key(bytes.size(), XXH3_64bits(bytes.data(), bytes.size()));
}

std::string content_key(uint64_t size, uint64_t xxh3) { return std::to_string(size) + ":" + hex64(xxh3); }

std::string options_key(const converter::ConvertOptions& o) {
    std::ostringstream text;
    text << assbin::version_string << '|' << o.uv_channel << '|' << o.default_ticks_per_second << '|'
         << o.crease_angle_degrees << '|' << o.optimize << '|' << o.keep_meshes << '|'
         << static_cast<int>(o.layout) << '|' << o.max_texture_size << '|'
         << (o.compress_textures ? "bc5+bc7" : "none") << '|' << o.keep_embedded_bytes;
    for (const fs::path& folder : o.texture_folders)
        text << '|' << folder.string();
    if (o.key_error > 0) text << "|key-error=" << o.key_error; // absent at 0: older records still match
    if (o.format != converter::OutputFormat::Aem)
        text << "|format=" << converter::format_name(o.format) << "|quantize=" << o.quantize
             << "|meshopt=" << o.meshopt;
    const std::string key = text.str();
    return hex64(XXH3_64bits(key.data(), key.size()));
}

bool output_is_up_to_date(const fs::path& output, const std::string& source_key, const std::string& options,
                          const converter::ConvertOptions& convert_options) {
    std::istringstream log(record_text(record_path(output)));
    const std::string name = output.filename().string();
    std::string recorded_output, recorded_textures, recorded_lookups; // the last record of this output wins
    for (std::string line; std::getline(log, line);) {
        std::istringstream fields(line);
        std::string version, source, opts, out_key, textures, lookups, out_name;
        if (!(fields >> version >> source >> opts >> out_key >> textures >> lookups) || version != kRecordVersion)
            continue;
        std::getline(fields >> std::ws, out_name);
        if (out_name != name) continue;
        const bool same_input = source == source_key && opts == options;
        recorded_output = same_input ? out_key : "";
        recorded_textures = same_input ? textures : "";
        recorded_lookups = same_input ? lookups : "";
    }
    if (recorded_output.empty()) return false;
    try {
        if (content_key(assbin_common::read_regular_file(output)) != recorded_output) return false;
    } catch (const assbin_common::ReadFailure&) {
        return false; // missing or unreadable: convert it again
    }
    // The model is up to date only with every file it names as written, and every image it looked
    // for as it was.
    return textures_match(output.has_parent_path() ? output.parent_path() : fs::path("."), recorded_textures) &&
           lookups_match(recorded_lookups, convert_options);
}

std::string record_output(const fs::path& output, const fs::path& written, const converter::ConvertResult& result,
                          const std::string& source_key, const std::string& options) noexcept {
    const fs::path record = record_path(output);
    try {
        const std::string line = std::string(kRecordVersion) + " " + source_key + " " + options + " " +
                                 content_key(assbin_common::read_regular_file(written)) + " " +
                                 textures_field(result.textures) + " " + lookups_field(result.image_lookups) +
                                 " " + output.filename().string() + "\n";
        std::string why;
        const int fd = open_record(record, O_RDWR | O_CREAT | O_APPEND, why);
        if (fd < 0) return record.string() + ": cannot be appended to (" + why + ")";
        // A file of other content under the record's name (a hard link to an input, a user's file)
        // is not appended to.
        char start[kRecordPrefix.size()];
        const ssize_t got = ::pread(fd, start, sizeof start, 0);
        if (got != 0 && std::string_view(start, static_cast<size_t>(std::max<ssize_t>(got, 0))) != kRecordPrefix) {
            ::close(fd);
            return record.string() + ": holds something other than records; it is not appended to";
        }
        const ssize_t appended = ::write(fd, line.data(), line.size()); // one append: whole or not at all
        const int error = errno;
        ::close(fd);
        if (appended != static_cast<ssize_t>(line.size()))
            return record.string() + ": cannot be appended to (" + std::strerror(error) + ")";
        return {};
    } catch (const std::exception& error) {
        return record.string() + ": cannot be appended to (" + error.what() + ")";
    }
}

namespace {

// The PID in a temporary's name ".NAME.tmp-PID-N", or 0 when the name is not one.
pid_t temporary_owner(const std::string& name) {
    const size_t tmp = name.rfind(".tmp-");
    if (name.empty() || name[0] != '.' || tmp == std::string::npos) return 0;
    const size_t dash = name.find('-', tmp + 5);
    if (dash == std::string::npos || dash == tmp + 5 || dash + 1 == name.size()) return 0;
    for (size_t i = tmp + 5; i < name.size(); ++i)
        if (i != dash && (name[i] < '0' || name[i] > '9')) return 0;
    return static_cast<pid_t>(std::stol(name.substr(tmp + 5, dash - tmp - 5)));
}

} // namespace

size_t remove_stale_temporaries(const fs::path& folder) {
    size_t removed = 0;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(folder, error)) {
        const pid_t owner = temporary_owner(entry.path().filename().string());
        if (owner <= 0 || owner == ::getpid() || ::kill(owner, 0) == 0 || errno != ESRCH) continue;
        removed += fs::remove(entry.path(), error) ? 1 : 0;
    }
    return removed;
}

} // namespace assbin::cli
