// A whole input file as read-only bytes without copying it: memory-mapped (the page cache's own
// pages, read ahead), or read into memory where
// mapping fails (a file system without mmap) or the file is empty. The same checks as
// read_regular_file: folders, FIFOs and devices are refused without blocking.
//
// A mapped file that another program truncates while it is read raises SIGBUS on the lost pages;
// a program that maps files others may cut installs a handler for it (the assbin CLI does:
// tools/cli_support/sigbus_guard.hpp). Internal and header-only, like the rest of common/; not installed.
#pragma once

#include "read_file.hpp"

#include <cstddef>
#include <filesystem>
#include <span>
#include <utility>
#include <vector>

#include <sys/mman.h>

namespace assbin_common {

class MappedFile {
  public:
    // Throws ReadFailure naming the cause.
    explicit MappedFile(const std::filesystem::path& path) {
        size_t size = 0;
        const detail::FileDescriptor file{detail::open_regular_file(path, size)};
        if (size > 0) {
            void* mapping = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, file.fd, 0);
            if (mapping != MAP_FAILED) {
                // Pages come in by fault-around as the reader walks forward; asking the kernel to
                // read ahead helps a cold page cache. (MAP_POPULATE was measured slower: it maps
                // every page up front, including those a structure-only walk never touches.)
                ::madvise(mapping, size, MADV_WILLNEED);
                mapping_ = mapping;
                bytes_ = {static_cast<const std::byte*>(mapping), size};
                return;
            }
        }
        // Empty (size 0 may also be a procfs file that holds bytes) or not mappable: read it.
        owned_ = read_regular_file(path);
        bytes_ = owned_;
    }

    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile() { release(); }

    std::span<const std::byte> bytes() const { return bytes_; }
    bool mapped() const { return mapping_ != nullptr; }

    // Gives the pages back early (a compressed file, once inflated); bytes() is empty afterwards.
    void release() {
        if (mapping_ != nullptr) ::munmap(mapping_, bytes_.size());
        mapping_ = nullptr;
        std::vector<std::byte>().swap(owned_);
        bytes_ = {};
    }

  private:
    void* mapping_ = nullptr;
    std::vector<std::byte> owned_;
    std::span<const std::byte> bytes_;
};

} // namespace assbin_common
