// Dumps read from a path land in memory the module recycles. A pipeline reads dump after dump; a
// fresh block for each file's bytes costs a page fault per 4 KiB (glibc maps big blocks anew and
// gives them back when freed), more than reading the bytes themselves. The module keeps the blocks
// of scenes that are gone — a few, up to a cap — and reads the next file into one of them, whose
// pages are already there. Scenes read from a path keep their arrays in that block (the reader's
// array views), so a read copies the file once and nothing else. The process's allocator is left
// as it is: only the module's own blocks are kept.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>

namespace assbin::python {

// A file's bytes in a recycled block; the block goes back to the module's spares when the last
// holder lets go.
class FileBytes {
  public:
    virtual ~FileBytes() = default;
    virtual std::span<const std::byte> bytes() const = 0;
};

// Reads the whole file at `path` (a regular file, as every reader of the project) into a block the
// module recycles. Throws assbin_common::ReadFailure naming the cause.
std::shared_ptr<const FileBytes> read_recycled(const std::filesystem::path& path);

// What the module keeps for the next read: at most this many spare blocks, this many bytes in all.
inline constexpr size_t kSpareBlocks = 4;
inline constexpr size_t kSpareBytes = size_t{256} << 20;

// The spares kept now (for tests and the benchmark): blocks and bytes.
struct SpareBlocks {
    size_t blocks = 0;
    size_t bytes = 0;
};
SpareBlocks spare_blocks();
// Gives every spare block back to the system (assbin.release_memory()).
void release_spare_blocks();

} // namespace assbin::python
