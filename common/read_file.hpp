// Reading a whole input file, for the readers of the project: only a regular file is read (a
// folder, a FIFO, a device or a socket is refused by name, without blocking on a FIFO that has no
// writer or reading /dev/zero forever), and a file that shrinks or grows while it is read is
// noticed. Internal and header-only (see atomic_file.hpp); not installed.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace assbin_common {

// Why a file could not be read ("is a folder, not a file").
class ReadFailure : public std::runtime_error {
  public:
    explicit ReadFailure(const std::string& cause) : std::runtime_error(cause) {}
};

namespace detail {

inline const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// Why a file could not be opened, in the words every reader of the project uses: a missing file is
// "no such file" (the one case a user meets most), any other cause names itself.
inline std::string open_failure_text(int error) {
    if (error == ENOENT) return "no such file";
    return std::string("cannot open the file (") + std::strerror(error) + ")";
}

// Closes the descriptor when it goes out of scope.
struct FileDescriptor {
    int fd;
    ~FileDescriptor() {
        if (fd >= 0) ::close(fd);
    }
};

// Opens `path` for reading when it is a regular file, and tells its size; the caller owns the
// descriptor returned. Throws ReadFailure naming the cause. O_NONBLOCK on open keeps a FIFO from
// blocking before it can be refused; a regular file ignores it.
inline int open_regular_file(const std::filesystem::path& path, size_t& size) {
    FileDescriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
    if (file.fd < 0) throw ReadFailure(open_failure_text(errno));
    struct stat status {};
    if (::fstat(file.fd, &status) != 0)
        throw ReadFailure(std::string("cannot tell the file's size (") + std::strerror(errno) + ")");
    if (!S_ISREG(status.st_mode))
        throw ReadFailure(std::string("is ") + kind_of(status.st_mode) + ", not a file that can be read");
    size = static_cast<size_t>(status.st_size);
    const int fd = file.fd;
    file.fd = -1; // handed over
    return fd;
}

} // namespace detail

// The whole file, into the memory `storage(size)` gives (a std::byte* to at least `size` bytes,
// called once the size is known): a caller may hand out memory it recycles. Throws ReadFailure
// naming the cause.
template <class Storage>
inline void read_regular_file_into(const std::filesystem::path& path, Storage&& storage) {
    size_t size = 0;
    const detail::FileDescriptor file{detail::open_regular_file(path, size)};
    std::byte* bytes = storage(size);
    size_t done = 0;
    while (done < size) {
        const ssize_t got = ::read(file.fd, bytes + done, size - done);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) throw ReadFailure(std::string("cannot read the file (") + std::strerror(errno) + ")");
        if (got == 0) {
            throw ReadFailure("the file shrank while it was read: " + std::to_string(size) +
                              " bytes when opened, " + std::to_string(done) + " then");
        }
        done += static_cast<size_t>(got);
    }
    std::byte extra;
    ssize_t more;
    while ((more = ::read(file.fd, &extra, 1)) < 0 && errno == EINTR) {
    }
    if (more > 0)
        throw ReadFailure("the file grew while it was read (" + std::to_string(size) + " bytes when opened)");
}

// The whole file. Throws ReadFailure naming the cause.
inline std::vector<std::byte> read_regular_file(const std::filesystem::path& path) {
    std::vector<std::byte> bytes;
    read_regular_file_into(path, [&](size_t size) {
        bytes.resize(size);
        return bytes.data();
    });
    return bytes;
}

} // namespace assbin_common
