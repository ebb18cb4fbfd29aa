// One way to write a file for every writer of the project (ASSBIN dumps, AEM models, converter
// outputs, pictures and reports): never a partial file under the final name, and the same
// durability everywhere. Internal and header-only, so that the aem and assbin libraries share it
// without depending on each other; not installed.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>

#include "output_target.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace assbin_common {

// A write that failed: which file, and why ("cannot write (File too large)").
class WriteFailure : public OutputError {
  public:
    using OutputError::OutputError;
};

namespace detail {

constexpr size_t kNameMax = 255; // bytes in one path component (Linux NAME_MAX)

inline std::string errno_text() {
    return std::strerror(errno);
}

// FNV-1a, to keep a cut name unique.
inline uint64_t name_hash(const std::string& text) {
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char c : text)
        h = (h ^ c) * 1099511628211ull;
    return h;
}

// Why a folder that does not exist is missing: its nearest existing ancestor, and why nothing can be
// made in it when that is so (an immutable or read-only folder, a read-only file system: access()
// says so even for root), so that the message names the cause, not only "No such file or directory".
inline std::string missing_folder_text(const std::filesystem::path& folder) {
    std::filesystem::path ancestor = folder;
    std::error_code error;
    while (ancestor.has_parent_path() && ancestor != ancestor.parent_path() &&
           !std::filesystem::is_directory(ancestor, error))
        ancestor = ancestor.parent_path();
    if (!std::filesystem::is_directory(ancestor, error)) ancestor = ".";
    const std::string shown = ancestor.empty() ? std::string(".") : ancestor.string();
    if (::access(ancestor.empty() ? "." : ancestor.c_str(), W_OK | X_OK) != 0) {
        return "its folder " + folder.string() + " does not exist, and none can be made in " + shown + " (" +
               errno_text() + ")";
    }
    return "its folder " + folder.string() + " does not exist (No such file or directory): the nearest folder that does is " +
           shown;
}

} // namespace detail

// The name (one path component) of a temporary file beside a file called `name`: ".NAME.tmp-PID-N",
// unique within this process. When that would pass NAME_MAX, NAME is cut at a UTF-8 character
// boundary and a hash of the whole name is added (".NAM~0123456789abcdef.tmp-PID-N"), so any legal
// output name gets a legal temporary name.
inline std::string temporary_name(const std::string& name, unsigned counter) {
    std::string suffix = ".tmp-";
    suffix += std::to_string(::getpid());
    suffix += '-';
    suffix += std::to_string(counter);
    std::string out = ".";
    if (1 + name.size() + suffix.size() <= detail::kNameMax) {
        out += name;
    } else {
        char hash[20];
        std::snprintf(hash, sizeof hash, "~%016llx",
                      static_cast<unsigned long long>(detail::name_hash(name)));
        size_t keep = detail::kNameMax - 1 - suffix.size() - std::strlen(hash);
        while (keep > 0 && (static_cast<unsigned char>(name[keep]) & 0xC0) == 0x80)
            --keep; // not inside a UTF-8 sequence
        out += name.substr(0, keep);
        out += hash;
    }
    out += suffix;
    return out;
}

// Writes `target` atomically and durably: a temporary file in the target's folder (opened through
// the folder, so only the folder's path must fit PATH_MAX), written in full, flushed to disk
// (fsync) and closed; then renamed over `target`, and the folder flushed so that the rename survives
// a crash. Every write, fsync, close and rename result is checked; on any failure the temporary is
// removed and WriteFailure names the file and the cause. The target is first checked by
// output_target.hpp's rule: never one of the inputs of a run under way, and an existing character
// device or FIFO is written into as a stream instead (see streaming()). Not copyable.
class AtomicFile {
  public:
    // Whether the constructor creates the temporary, or leaves that to create() (for a caller that
    // records the temporary's name first, with nothing allocated between the two: write_output.cpp).
    enum class Creation { Now, Deferred };

    explicit AtomicFile(std::filesystem::path target, Creation creation = Creation::Now)
        : target_(std::move(target)) {
        if (!target_.has_filename()) throw WriteFailure(target_, "the output path names no file");
        try {
            streaming_ = check_output(target_) == OutputKind::Stream; // output_target.hpp's rule
        } catch (const OutputRefused& refused) {
            throw WriteFailure(target_, refused.cause());
        }
        if (streaming_) {
            // One of the process's streams ("-", /dev/stdout, /dev/fd/N) is written into through its
            // descriptor; a character device or FIFO is opened and written into, never replaced (a
            // FIFO waits for its reader).
            const std::optional<int> stream = standard_stream_fd(target_);
            fd_ =
                stream ? ::fcntl(*stream, F_DUPFD_CLOEXEC, 0) : ::open(target_.c_str(), O_WRONLY | O_CLOEXEC);
            if (fd_ < 0)
                throw WriteFailure(target_, "cannot open it for writing (" + detail::errno_text() + ")");
            published_ = true; // nothing of ours to remove
            return;
        }
        place_ = through_links(target_);
        const std::filesystem::path folder = place_.has_parent_path() ? place_.parent_path() : ".";
        folder_fd_ = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (folder_fd_ < 0 && errno == ENOENT)
            throw WriteFailure(target_, "cannot create a temporary file beside it: " + detail::missing_folder_text(folder));
        if (folder_fd_ < 0) {
            throw WriteFailure(target_, "cannot create a temporary file beside it: cannot open its folder (" +
                                            detail::errno_text() + ")");
        }
        static unsigned counter = 0;
        name_ = temporary_name(place_.filename().string(), __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
        if (creation == Creation::Now) {
            try {
                create();
            } catch (...) {
                ::close(folder_fd_); // no destructor runs for a constructor that throws
                throw;
            }
        }
    }

    // Creates the temporary (once; the constructor does unless told Creation::Deferred). Allocates
    // nothing unless it fails.
    void create() {
        if (streaming_ || fd_ >= 0) return;
        fd_ = ::openat(folder_fd_, name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd_ < 0) {
            const std::string why = detail::errno_text();
            throw WriteFailure(target_, "cannot create a temporary file beside it (" + why + ")");
        }
        created_ = true;
    }
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    ~AtomicFile() {
        if (fd_ >= 0) ::close(fd_);
        if (created_ && !published_) ::unlinkat(folder_fd_, name_.c_str(), 0);
        if (folder_fd_ >= 0) ::close(folder_fd_);
    }

    // Whether the target is a character device or FIFO written into as a stream: no temporary, no
    // flush, no rename; nothing to remove on failure.
    bool streaming() const { return streaming_; }

    void write(std::span<const std::byte> bytes) {
        const std::byte* at = bytes.data();
        size_t left = bytes.size();
        while (left > 0) {
            const ssize_t written = ::write(fd_, at, left);
            if (written < 0 && errno == EINTR) continue;
            if (written <= 0) fail("cannot write");
            at += written;
            left -= static_cast<size_t>(written);
            written_ += static_cast<size_t>(written);
        }
        // Each step written is handed to the disk at once (not waited for; the flush reports errors),
        // so that the disk writes a big file while the rest is still being written and the flush
        // waits only for the tail (the 977k-triangle grid's 54 MB: from first write to rename, 10-20
        // ms less of 110-130).
        if (!streaming_ && written_ - handed_to_disk_ >= kWritebackStep) {
            ::sync_file_range(fd_, static_cast<off_t>(handed_to_disk_),
                              static_cast<off_t>(written_ - handed_to_disk_), SYNC_FILE_RANGE_WRITE);
            handed_to_disk_ = written_;
        }
    }

    // Flushes the temporary to disk and closes it (publish() does this when not done yet).
    void finish() {
        if (fd_ < 0) return;
        if (!streaming_ && ::fsync(fd_) != 0) fail("cannot flush to disk");
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) fail("cannot close");
    }

    // Renames the temporary over the target, then flushes the folder (a folder that cannot be
    // flushed is not an error: the file itself is complete either way).
    void publish() {
        finish();
        if (streaming_) return;
        rename_into_place();
        ::fsync(folder_fd_);
    }

    // For a batch of files made durable together (commit_flushed below): closes the temporary
    // without flushing it and renames it over the target; the caller has flushed the file system
    // before and flushes it again after, for the renames.
    void publish_flushed() {
        if (fd_ >= 0) {
            const int fd = fd_;
            fd_ = -1;
            if (::close(fd) != 0) fail("cannot close");
        }
        if (!streaming_) rename_into_place();
    }

    // Starts writing the temporary to disk without waiting for it (a batch flushing its files one
    // by one starts them all first, so that the disk takes them together).
    void start_flush() {
        if (fd_ >= 0 && !streaming_)
            ::sync_file_range(fd_, 0, 0, SYNC_FILE_RANGE_WRITE); // the flush reports errors
    }

    // Flushes the temporary to disk, keeping it open (a batch whose file system flush failed
    // finds out this way which of its files cannot be written).
    void flush() {
        if (fd_ >= 0 && !streaming_ && ::fsync(fd_) != 0) fail("cannot flush to disk");
    }

    // The file system holding the folder, flushed whole: one wait for every file of a batch
    // instead of one per file. False when the flush reports an error (any file of the file system
    // may have caused it).
    bool flush_file_system() const { return streaming_ || ::syncfs(folder_fd_) == 0; }
    // Which file system the folder is on (a batch flushes each one once).
    dev_t device() const {
        struct stat info {};
        return !streaming_ && ::fstat(folder_fd_, &info) == 0 ? info.st_dev : dev_t{0};
    }

    // The temporary's full path (for tracking it, e.g. to remove it from a signal handler); empty
    // when streaming (there is none, and the target must never be removed).
    std::filesystem::path temporary() const {
        if (streaming_) return {};
        return (place_.has_parent_path() ? place_.parent_path() : ".") / name_;
    }
    const std::filesystem::path& target() const { return target_; }

  private:
    // Where the file goes: the target, or the file a symlink target points to (followed link by
    // link, at most 40 as the kernel does), so that a link stays a link and its file is replaced.
    static std::filesystem::path through_links(std::filesystem::path path) {
        std::error_code error;
        for (int hop = 0; hop < 40 && std::filesystem::is_symlink(path, error); ++hop) {
            const std::filesystem::path points_to = std::filesystem::read_symlink(path, error);
            if (error) break;
            path = points_to.is_absolute() || !path.has_parent_path() ? points_to
                                                                      : path.parent_path() / points_to;
        }
        return path;
    }

    void rename_into_place() {
        const std::string name = place_.filename().string();
        if (::renameat(folder_fd_, name_.c_str(), folder_fd_, name.c_str()) != 0)
            fail("cannot rename the temporary file over it");
        published_ = true;
    }

    [[noreturn]] void fail(const char* step) {
        const std::string why = detail::errno_text();
        throw WriteFailure(target_, std::string(step) + " (" + why + ")");
    }

    static constexpr size_t kWritebackStep = size_t{8} << 20; // see write()
    std::filesystem::path target_;
    std::filesystem::path place_; // target_, its links followed
    std::string name_;
    size_t written_ = 0, handed_to_disk_ = 0;
    int folder_fd_ = -1;
    int fd_ = -1;
    bool published_ = false;
    bool streaming_ = false;
    bool created_ = false; // the temporary exists (ours to remove unless published)
};

inline void write_file_atomically(const std::filesystem::path& target, std::span<const std::byte> bytes) {
    AtomicFile file(target);
    file.write(bytes);
    file.publish();
}

} // namespace assbin_common
