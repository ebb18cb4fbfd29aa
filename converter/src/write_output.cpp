// Rule 10: the model and its textures go to temporary names beside their final ones and are
// renamed into place only when every one of them is complete, the model last.
#include <assbin/converter/convert.hpp>

#include <aem/io.hpp>

#include <array>
#include <atomic>
#include <climits>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>
#include <unistd.h>

namespace assbin::converter {

namespace fs = std::filesystem;

namespace {

fs::path temporary_beside(const fs::path& target) {
    static std::atomic<unsigned> counter{0};
    std::string name = ".";
    name += target.filename().string();
    name += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    return target.parent_path() / name;
}

// Temporaries being written, in fixed storage a signal handler may read: a slot is claimed by
// setting its flag, and its path is only read while the flag says "in use".
constexpr size_t kTrackedSlots = 256;
struct TrackedTemporary {
    std::atomic<int> state{0}; // 0 free, 1 claimed (path being filled in), 2 in use
    char path[PATH_MAX] = {};
};
std::array<TrackedTemporary, kTrackedSlots> g_tracked;
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads these flags");

// Returns the slot index, or kTrackedSlots when every slot is taken (the file is then untracked).
size_t track(const fs::path& temporary) {
    const std::string text = temporary.string();
    if (text.size() >= PATH_MAX) return kTrackedSlots;
    for (size_t slot = 0; slot < kTrackedSlots; ++slot) {
        int expected = 0;
        if (!g_tracked[slot].state.compare_exchange_strong(expected, 1)) continue;
        std::memcpy(g_tracked[slot].path, text.c_str(), text.size() + 1);
        g_tracked[slot].state.store(2);
        return slot;
    }
    return kTrackedSlots;
}

void untrack(size_t slot) {
    if (slot < kTrackedSlots) g_tracked[slot].state.store(0);
}

void write_bytes(const fs::path& path, std::span<const std::byte> bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw aem::Error(aem::ErrorCode::Io, "cannot create " + path.string());
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) throw aem::Error(aem::ErrorCode::Io, "writing " + path.string() + " failed");
}

// Temporaries that are removed unless committed.
class PendingFiles {
  public:
    PendingFiles() = default;
    PendingFiles(const PendingFiles&) = delete;
    PendingFiles& operator=(const PendingFiles&) = delete;
    ~PendingFiles() {
        for (const auto& [temporary, target] : files_) {
            std::error_code ignored;
            fs::remove(temporary, ignored);
        }
        for (size_t slot : slots_)
            untrack(slot);
    }

    void add(const fs::path& target, std::span<const std::byte> bytes) {
        const fs::path temporary = temporary_beside(target);
        slots_.push_back(track(temporary));
        files_.emplace_back(temporary, target);
        write_bytes(temporary, bytes);
    }

    // Renames in the order added. When one rename fails, the files this commit already put in
    // place are removed again, so a failed write leaves none of its outputs.
    void commit() {
        std::vector<fs::path> placed;
        for (const auto& [temporary, target] : files_) {
            std::error_code error;
            fs::rename(temporary, target, error);
            if (error) {
                const std::string why = error.message();
                for (const fs::path& done : placed)
                    fs::remove(done, error);
                throw aem::Error(aem::ErrorCode::Io, "cannot rename " + temporary.string() + " to " +
                                                         target.string() + ": " + why);
            }
            placed.push_back(target);
        }
        files_.clear();
    }

  private:
    std::vector<std::pair<fs::path, fs::path>> files_;
    std::vector<size_t> slots_; // tracked for remove_pending_outputs()
};

} // namespace

void remove_pending_outputs() noexcept {
    for (TrackedTemporary& tracked : g_tracked) {
        if (tracked.state.load() == 2) ::unlink(tracked.path); // async-signal-safe
    }
}

void write_output(const ConvertResult& result, const fs::path& aem_path) {
    const std::vector<std::byte> model = aem::to_bytes(result.model); // throws before anything is written
    const fs::path folder = aem_path.parent_path();
    PendingFiles pending;
    for (const TextureFile& texture : result.textures)
        pending.add(folder / texture.name, texture.bytes);
    pending.add(aem_path, model);
    pending.commit();
}

} // namespace assbin::converter
