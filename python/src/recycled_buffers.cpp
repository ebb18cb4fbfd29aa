#include "recycled_buffers.hpp"

#include <read_file.hpp>

#include <algorithm>
#include <mutex>
#include <vector>

namespace assbin::python {

namespace {

struct Block {
    std::unique_ptr<std::byte[]> data; // not value-initialised: every byte used is read into
    size_t capacity = 0;
};

class Spares {
  public:
    // The smallest spare that holds `size` bytes, or a new block (with an eighth to spare, so that
    // the next file of about the same size fits it).
    Block take(size_t size) {
        {
            const std::lock_guard lock(mutex_);
            auto best = spares_.end();
            for (auto it = spares_.begin(); it != spares_.end(); ++it)
                if (it->capacity >= size && (best == spares_.end() || it->capacity < best->capacity))
                    best = it;
            if (best != spares_.end()) {
                Block block = std::move(*best);
                spares_.erase(best);
                bytes_ -= block.capacity;
                return block;
            }
        }
        const size_t capacity = std::max<size_t>(size + size / 8, 1);
        return {std::unique_ptr<std::byte[]>(new std::byte[capacity]), capacity};
    }

    // Kept for the next read while the caps allow, the smallest spares dropped first to make room.
    void give_back(Block block) {
        if (block.capacity > kSpareBytes) return; // freed with `block`
        const std::lock_guard lock(mutex_);
        std::sort(spares_.begin(), spares_.end(),
                  [](const Block& a, const Block& b) { return a.capacity < b.capacity; });
        while (!spares_.empty() &&
               (spares_.size() >= kSpareBlocks || bytes_ + block.capacity > kSpareBytes)) {
            bytes_ -= spares_.front().capacity;
            spares_.erase(spares_.begin());
        }
        bytes_ += block.capacity;
        spares_.push_back(std::move(block));
    }

    SpareBlocks count() {
        const std::lock_guard lock(mutex_);
        return {spares_.size(), bytes_};
    }

    void clear() {
        std::vector<Block> dropped;
        const std::lock_guard lock(mutex_);
        dropped.swap(spares_);
        bytes_ = 0;
    }

  private:
    std::mutex mutex_;
    std::vector<Block> spares_;
    size_t bytes_ = 0;
};

// One for the process, made when the module loads (no lazy initialisation for threads to race
// on), never destroyed: scenes may outlive the module's other statics at exit.
Spares* const kSpares = new Spares;

Spares& spares() {
    return *kSpares;
}

class RecycledFileBytes final : public FileBytes {
  public:
    RecycledFileBytes(Block block, size_t size) : block_(std::move(block)), size_(size) {}
    ~RecycledFileBytes() override { spares().give_back(std::move(block_)); }
    std::span<const std::byte> bytes() const override { return {block_.data.get(), size_}; }

  private:
    Block block_;
    size_t size_;
};

} // namespace

std::shared_ptr<const FileBytes> read_recycled(const std::filesystem::path& path) {
    Block block;
    size_t size = 0;
    try {
        assbin_common::read_regular_file_into(path, [&](size_t bytes) {
            size = bytes;
            block = spares().take(bytes);
            return block.data.get();
        });
    } catch (...) {
        if (block.data) spares().give_back(std::move(block));
        throw;
    }
    return std::make_shared<RecycledFileBytes>(std::move(block), size);
}

SpareBlocks spare_blocks() {
    return spares().count();
}

void release_spare_blocks() {
    spares().clear();
}

} // namespace assbin::python
