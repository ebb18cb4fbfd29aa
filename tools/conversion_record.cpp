#include "conversion_record.hpp"

#include "quoting.hpp"
#include "read_file.hpp"

#include <assbin/version.hpp>

#define XXH_INLINE_ALL // header-only: nothing to link
#include <xxhash.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <cerrno>
#include <csignal>

#include <fcntl.h>
#include <unistd.h>

namespace assbin::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kRecordName = ".assbin-convert.log";
// 3: the texture files beside the model are recorded too; 2: XXH3 keys (1 was FNV-1a)
constexpr const char* kRecordVersion = "assbin-convert-3";

} // namespace

fs::path record_path(const fs::path& output) {
    return (output.has_parent_path() ? output.parent_path() : fs::path(".")) / kRecordName;
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

// The record's texture field: "-" for none, else "NAME=KEY,NAME=KEY".
std::string textures_field(std::span<const converter::TextureFile> textures) {
    if (textures.empty()) return "-";
    std::string field;
    for (const converter::TextureFile& texture : textures) {
        if (!field.empty()) field += ',';
        field += encode_name(texture.name);
        field += '=';
        field += content_key(texture.bytes);
    }
    return field;
}

// Whether every texture the field names lies in `folder` with the recorded content.
bool textures_match(const fs::path& folder, const std::string& field) {
    if (field == "-") return true;
    std::istringstream entries(field);
    for (std::string entry; std::getline(entries, entry, ',');) {
        const size_t equals = entry.find('=');
        if (equals == std::string::npos) return false;
        try {
            const fs::path file = folder / assbin_common::percent_decoded(entry.substr(0, equals));
            if (content_key(assbin_common::read_regular_file(file)) != entry.substr(equals + 1)) return false;
        } catch (const assbin_common::ReadFailure&) {
            return false; // deleted or unreadable: convert it again
        }
    }
    return true;
}

} // namespace

std::string content_key(std::span<const std::byte> bytes) {
    return std::to_string(bytes.size()) + ":" + hex64(XXH3_64bits(bytes.data(), bytes.size()));
}

std::string options_key(const converter::ConvertOptions& o) {
    std::ostringstream text;
    text << assbin::version_string << '|' << o.uv_channel << '|' << o.default_ticks_per_second << '|'
         << o.crease_angle_degrees << '|' << o.optimize << '|' << o.keep_meshes << '|'
         << static_cast<int>(o.layout) << '|' << o.max_texture_size << '|'
         << (o.compress_textures ? "bc5+bc7" : "none") << '|' << o.keep_embedded_bytes;
    for (const fs::path& folder : o.texture_folders)
        text << '|' << folder.string();
    if (o.format != converter::OutputFormat::Aem)
        text << "|format=" << converter::format_name(o.format) << "|quantize=" << o.quantize
             << "|meshopt=" << o.meshopt;
    const std::string key = text.str();
    return hex64(XXH3_64bits(key.data(), key.size()));
}

bool output_is_up_to_date(const fs::path& output, const std::string& source_key, const std::string& options) {
    std::ifstream log(record_path(output));
    const std::string name = output.filename().string();
    std::string recorded_output, recorded_textures; // the last record of this output wins
    for (std::string line; std::getline(log, line);) {
        std::istringstream fields(line);
        std::string version, source, opts, out_key, textures, out_name;
        if (!(fields >> version >> source >> opts >> out_key >> textures) || version != kRecordVersion)
            continue;
        std::getline(fields >> std::ws, out_name);
        if (out_name != name) continue;
        const bool same_input = source == source_key && opts == options;
        recorded_output = same_input ? out_key : "";
        recorded_textures = same_input ? textures : "";
    }
    if (recorded_output.empty()) return false;
    try {
        if (content_key(assbin_common::read_regular_file(output)) != recorded_output) return false;
    } catch (const assbin_common::ReadFailure&) {
        return false; // missing or unreadable: convert it again
    }
    // The model is up to date only with every file it names as written.
    return textures_match(output.has_parent_path() ? output.parent_path() : fs::path("."), recorded_textures);
}

void record_output(const fs::path& output, const fs::path& written,
                   std::span<const converter::TextureFile> textures, const std::string& source_key,
                   const std::string& options) noexcept {
    try {
        const std::string line = std::string(kRecordVersion) + " " + source_key + " " + options + " " +
                                 content_key(assbin_common::read_regular_file(written)) + " " +
                                 textures_field(textures) + " " + output.filename().string() + "\n";
        const int fd = ::open(record_path(output).c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
        if (fd < 0) return;
        [[maybe_unused]] const ssize_t appended =
            ::write(fd, line.data(), line.size()); // one append: whole or not at all
        ::close(fd);
    } catch (const std::exception&) {
        // unreadable, or no memory for the line: the output is converted again next time
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
