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
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <sys/stat.h>

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

// How an output is written.
enum class OutputKind {
    File,   // absent or a regular file: a temporary beside it, renamed over it when complete
    Stream, // an existing character device or FIFO: written into, never replaced or removed
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
    struct stat info {};
    if (::stat(output.c_str(), &info) != 0 || S_ISREG(info.st_mode)) return OutputKind::File;
    if (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode)) return OutputKind::Stream;
    throw OutputRefused(output, std::string("is ") + file_kind_name(info.st_mode) +
                                    ", not a file: an output replaces only a regular file (or is written "
                                    "into a character device or FIFO)");
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
    void add_file(const std::filesystem::path& file) {
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
    std::map<FileIdentity, std::filesystem::path> files_;
};

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
