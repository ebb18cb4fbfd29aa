// The one rule every writer of the project follows for where it writes: an output never replaces
// one of the run's inputs, and never replaces anything that is not a regular file.
//   - A run collects its inputs (InputFiles: files by device and inode, so a symlink, a hard link,
//     "./x" or a folder's entry name the same file; a folder stands for the files below it that the
//     run reads) and
//     checks each output against them before it reads anything (refuse_input_as_output), naming both.
//     While an InputFiles lives it is also registered, and AtomicFile checks every target it opens
//     against the registered inputs: outputs a run only names late (textures beside a model) are held
//     to the same rule.
//   - An existing output that is a character device or a FIFO is written into as a stream (so
//     `-o /dev/null` times a run end to end); a folder, block device or socket is refused, naming it.
// Internal and header-only, like atomic_file.hpp; not installed.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace assbin_common {

// An output that could not be written, or was refused: which file, and why. WriteFailure
// (atomic_file.hpp) and OutputRefused are its two kinds.
class OutputError : public std::runtime_error {
  public:
    OutputError(const std::filesystem::path& file, const std::string& cause)
        : std::runtime_error(file.string() + ": " + cause), file_(file), cause_(cause) {}
    const std::filesystem::path& file() const { return file_; }
    const std::string& cause() const { return cause_; }

  private:
    std::filesystem::path file_;
    std::string cause_;
};

// A write refused before it began (AtomicFile reports it as a WriteFailure).
class OutputRefused : public OutputError {
  public:
    using OutputError::OutputError;
};

// What a path names on disk, links followed.
struct FileIdentity {
    dev_t device = 0;
    ino_t inode = 0;
    auto operator<=>(const FileIdentity&) const = default;
};

inline std::optional<FileIdentity> file_identity(const std::filesystem::path& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return std::nullopt;
    return FileIdentity{info.st_dev, info.st_ino};
}

// The file descriptor an output path names as a stream of this process, if any: "-" and
// "/dev/stdout" are the standard output (1), "/dev/stderr" 2, "/dev/fd/N", "/proc/self/fd/N" and
// "/proc/PID/fd/N" (this process's PID) N; a symlink whose chain reaches one of those names it too.
// Such a path is never replaced: /dev/stdout is a link to /proc/self/fd/1, itself a link to
// whatever the shell opened (`> piped.glb`), and following it to rename a file over that file
// would leave the shell's stream writing into a file no longer named.
inline std::optional<int> standard_stream_fd(const std::filesystem::path& output) {
    if (output == "-") return 1;
    std::filesystem::path path = output;
    const std::string own_fds = "/proc/" + std::to_string(::getpid()) + "/fd/";
    for (int hop = 0; hop < 40; ++hop) {
        const std::string text = path.lexically_normal().string();
        if (text == "/dev/stdout") return 1;
        if (text == "/dev/stderr") return 2;
        for (const std::string& prefix : {std::string("/dev/fd/"), std::string("/proc/self/fd/"), own_fds}) {
            if (text.size() > prefix.size() && text.compare(0, prefix.size(), prefix) == 0 &&
                text.find_first_not_of("0123456789", prefix.size()) == std::string::npos &&
                text.size() - prefix.size() <= 9)
                return std::stoi(text.substr(prefix.size()));
        }
        std::error_code error;
        if (!std::filesystem::is_symlink(path, error)) return std::nullopt;
        const std::filesystem::path points_to = std::filesystem::read_symlink(path, error);
        if (error) return std::nullopt;
        path =
            points_to.is_absolute() || !path.has_parent_path() ? points_to : path.parent_path() / points_to;
    }
    return std::nullopt;
}

// How an output is written.
enum class OutputKind {
    File,   // absent or a regular file: a temporary beside it, renamed over it when complete
    Stream, // an existing character device or FIFO, or one of the process's own streams ("-",
            // /dev/stdout, /dev/fd/N: standard_stream_fd): written into, never replaced or removed
};

// The kind of an existing non-file, for messages: "a folder", "a block device", "a socket".
inline const char* file_kind_name(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISFIFO(mode)) return "a FIFO";
    return "not a regular file";
}

// How `output` is to be written; OutputRefused for an existing folder, block device or socket.
inline OutputKind output_kind(const std::filesystem::path& output) {
    if (standard_stream_fd(output)) return OutputKind::Stream;
    struct stat info {};
    if (::stat(output.c_str(), &info) != 0 || S_ISREG(info.st_mode)) return OutputKind::File;
    if (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode)) return OutputKind::Stream;
    throw OutputRefused(output, std::string("is ") + file_kind_name(info.st_mode) +
                                    ", not a file: an output replaces only a regular file (or is written "
                                    "into a character device or FIFO)");
}

// What a file holds, told by its first bytes: what an output is about to replace.
enum class Content { Empty, AssbinDump, Aem, Glb, GltfJson, Png, Jpeg, Html, Other };

inline const char* content_name(Content content) {
    switch (content) {
    case Content::Empty:
        return "nothing";
    case Content::AssbinDump:
        return "an ASSBIN dump";
    case Content::Aem:
        return "an AEM model";
    case Content::Glb:
        return "a binary glTF (.glb)";
    case Content::GltfJson:
        return "a glTF (.gltf)";
    case Content::Png:
        return "a PNG picture";
    case Content::Jpeg:
        return "a JPEG picture";
    case Content::Html:
        return "an HTML page";
    case Content::Other:
        break;
    }
    return "something else";
}

// The extensions that name a file of that content (an output so named may replace whatever it holds).
inline std::vector<std::string> content_extensions(Content content) {
    switch (content) {
    case Content::AssbinDump:
        return {".assbin", ".regress"};
    case Content::Aem:
        return {".aem"};
    case Content::Glb:
        return {".glb"};
    case Content::GltfJson:
        return {".gltf"};
    case Content::Png:
        return {".png"};
    case Content::Jpeg:
        return {".jpg", ".jpeg"};
    case Content::Html:
        return {".html", ".htm"};
    default:
        return {};
    }
}

// What the regular file at `path` holds, from its first bytes (nullopt: no regular file there).
inline std::optional<Content> file_content(const std::filesystem::path& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
    if (info.st_size == 0) return Content::Empty;
    char head[64] = {};
    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) return Content::Other;
    const size_t got = std::fread(head, 1, sizeof head, file);
    std::fclose(file);
    const std::string_view bytes(head, got);
    if (bytes.starts_with("ASSIMP.binary-dump.")) return Content::AssbinDump;
    if (bytes.starts_with("AEM")) return Content::Aem;
    if (bytes.starts_with("glTF")) return Content::Glb;
    if (bytes.starts_with("\x89PNG")) return Content::Png;
    if (bytes.starts_with("\xff\xd8\xff")) return Content::Jpeg;
    const size_t text = bytes.find_first_not_of(" \t\r\n");
    if (text != std::string_view::npos) {
        const std::string_view rest = bytes.substr(text);
        if (rest.starts_with("{") && rest.find("\"asset\"") != std::string_view::npos)
            return Content::GltfJson;
        if (rest.starts_with("<!DOCTYPE html") || rest.starts_with("<!doctype html") ||
            rest.starts_with("<html"))
            return Content::Html;
    }
    return Content::Other;
}

// OutputRefused when `output` is an existing file that holds something other than what the output
// writes (`writes`), unless its name has that content's own extension: `render --sheet *.assbin`
// puts a dump where the sheet goes, and a PNG must not replace it. An empty file holds nothing to lose.
inline void refuse_other_content(const std::filesystem::path& output, Content writes,
                                 const std::string& verb) {
    const std::optional<Content> holds = file_content(output);
    if (!holds || *holds == Content::Empty || *holds == writes) return;
    std::string extension = output.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::vector<std::string> own = content_extensions(writes);
    if (std::find(own.begin(), own.end(), extension) != own.end()) return;
    std::string names;
    for (const std::string& name : own)
        names += (names.empty() ? "" : " or ") + name;
    throw OutputRefused(output, std::string("holds ") + content_name(*holds) + ", and " + verb + " writes " +
                                    content_name(writes) +
                                    " there: an output replaces only a file of its own "
                                    "kind or one named with its extension (" +
                                    names + ")");
}

class InputFiles;

namespace detail {

// The inputs of the runs under way in this process (a Python program may run several at once).
struct InputRegistry {
    std::mutex mutex;
    std::vector<const InputFiles*> runs;
};

inline InputRegistry& input_registry() {
    static InputRegistry registry;
    return registry;
}

} // namespace detail

// The files a run reads, by identity; registered for AtomicFile while it lives. Not copyable.
class InputFiles {
  public:
    // Which files below a folder argument the run reads (a folder's other files, such as the
    // outputs of an earlier run written beside their inputs, are not inputs).
    using ReadsFile = std::function<bool(const std::filesystem::path&)>;

    InputFiles() { register_run(); }
    // The files given, and the files below the folders given that `reads` picks (all when empty).
    explicit InputFiles(const std::vector<std::filesystem::path>& inputs, const ReadsFile& reads = {}) {
        for (const std::filesystem::path& input : inputs)
            add(input, reads);
        register_run();
    }
    InputFiles(const InputFiles&) = delete;
    InputFiles& operator=(const InputFiles&) = delete;
    ~InputFiles() {
        detail::InputRegistry& registry = detail::input_registry();
        const std::lock_guard lock(registry.mutex);
        registry.runs.erase(std::find(registry.runs.begin(), registry.runs.end(), this));
    }

    // An input file, or a folder: the files below it that `reads` picks (all when empty). A path
    // that names nothing adds nothing (reading it will say so).
    void add(const std::filesystem::path& input, const ReadsFile& reads = {}) {
        std::error_code error;
        if (std::filesystem::is_directory(input, error)) {
            for (auto it = std::filesystem::recursive_directory_iterator(input, error);
                 !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
                if (it->is_regular_file(error) && (!reads || reads(it->path()))) add_file(it->path());
            }
            return;
        }
        add_file(input);
    }

    // A file the run read on its way (a texture found beside a dump): an input from now on.
    void also_reads(const std::filesystem::path& file) const { add_file(file); }

    // The input that `output` is (the same file), if any.
    std::optional<std::filesystem::path> input_at(const std::filesystem::path& output) const {
        const std::optional<FileIdentity> identity = file_identity(output);
        if (!identity) return std::nullopt;
        const std::lock_guard lock(mutex_);
        const auto found = files_.find(*identity);
        if (found == files_.end()) return std::nullopt;
        return found->second;
    }

  private:
    void add_file(const std::filesystem::path& file) const {
        const std::optional<FileIdentity> identity = file_identity(file);
        const std::lock_guard lock(mutex_);
        if (identity) files_.emplace(*identity, file);
    }
    void register_run() {
        detail::InputRegistry& registry = detail::input_registry();
        const std::lock_guard lock(registry.mutex);
        registry.runs.push_back(this);
    }

    mutable std::mutex mutex_;
    mutable std::map<FileIdentity, std::filesystem::path> files_;
};

// A file this process has read while runs are under way (a texture a conversion found): every run
// under way takes it as an input, so that none of their outputs (a glTF's images beside it) replaces
// it. The runs of a Python program going on at once all take it; a run ended takes nothing more.
inline void note_file_read(const std::filesystem::path& file) {
    detail::InputRegistry& registry = detail::input_registry();
    const std::lock_guard lock(registry.mutex);
    for (const InputFiles* run : registry.runs)
        run->also_reads(file);
}

// OutputRefused when `output` is one of `inputs`, naming both.
inline void refuse_input_as_output(const std::filesystem::path& output, const InputFiles& inputs) {
    if (const std::optional<std::filesystem::path> input = inputs.input_at(output)) {
        throw OutputRefused(output,
                            "is the input " + input->string() +
                                " (the same file): an output never replaces an input; write elsewhere");
    }
}

// The checks every output gets before it is written: not an input of any run under way, and a kind
// that may be written. Returns how to write it.
inline OutputKind check_output(const std::filesystem::path& output) {
    {
        detail::InputRegistry& registry = detail::input_registry();
        const std::lock_guard lock(registry.mutex);
        for (const InputFiles* run : registry.runs)
            refuse_input_as_output(output, *run);
    }
    return output_kind(output);
}

} // namespace assbin_common
