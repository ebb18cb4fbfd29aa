// Rule 10: the model and its textures go to temporary names beside their final ones and are
// renamed into place only when every one of them is complete (written and flushed to disk), the
// model last.
#include <assbin/converter/convert.hpp>

#include <aem/io.hpp>

#include "atomic_file.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cstring>
#include <functional>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <system_error>

#include <csignal>
#include <ctime>
#include <pthread.h>
#include <unistd.h>

namespace assbin::converter {

namespace fs = std::filesystem;

namespace {

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
// Allocates nothing: it runs where a signal handler may hold the allocator's lock.
size_t track(const std::string& text) {
    if (text.empty() || text.size() >= PATH_MAX) return kTrackedSlots; // empty: a stream, nothing to remove
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

// Threads between tracking a temporary and creating it. The signals that end a batch are blocked on
// such a thread, so the handler never runs in that window on it; a handler on another thread waits
// for the count to fall before its last sweep (before, a SIGINT between the two left a temporary).
// The window allocates nothing and makes one system call (openat), so it always closes: a handler
// that interrupted a thread holding the allocator's lock cannot keep it open.
std::atomic<int> g_creating{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads this count");
// Set by remove_pending_outputs(): the process is ending, and no new temporary is created after it
// swept (a creator counts itself first, then looks; the handler sets this, then waits for the count).
std::atomic<bool> g_ending{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler writes this flag");

// Blocks SIGINT, SIGTERM and SIGHUP on this thread and counts it as creating, for its lifetime.
class CreatingTemporary {
  public:
    CreatingTemporary() {
        sigset_t ending;
        sigemptyset(&ending);
        for (const int signal_number : {SIGINT, SIGTERM, SIGHUP})
            sigaddset(&ending, signal_number);
        pthread_sigmask(SIG_BLOCK, &ending, &previous_);
        g_creating.fetch_add(1);
    }
    // Whether the process is ending: nothing may be created now.
    bool ending() const { return g_ending.load(); }
    ~CreatingTemporary() {
        g_creating.fetch_sub(1);
        pthread_sigmask(SIG_SETMASK, &previous_, nullptr); // a pending signal is delivered now
    }
    CreatingTemporary(const CreatingTemporary&) = delete;
    CreatingTemporary& operator=(const CreatingTemporary&) = delete;

  private:
    sigset_t previous_;
};

// An output stream straight into a temporary: aem::write_model streams its sections through a
// small buffer of its own, so the model is never copied whole in memory (for a 56 MB model, that
// copy was 56 MB of fresh pages and most of a 400 MB peak's last step).
class AtomicFileBuffer : public std::streambuf {
  public:
    explicit AtomicFileBuffer(assbin_common::AtomicFile& file) : file_(file) {}

  protected:
    std::streamsize xsputn(const char* bytes, std::streamsize count) override {
        file_.write({reinterpret_cast<const std::byte*>(bytes), static_cast<size_t>(count)});
        return count;
    }
    int_type overflow(int_type c) override {
        if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
        const char one = traits_type::to_char_type(c);
        xsputn(&one, 1);
        return c;
    }

  private:
    assbin_common::AtomicFile& file_;
};

// Files written in full to temporaries (common/atomic_file.hpp: written, flushed to disk unless a
// batch flushes them together, closed), removed unless committed; each is tracked for
// remove_pending_outputs() while it exists.
class PendingFiles {
  public:
    PendingFiles() = default;
    PendingFiles(const PendingFiles&) = delete;
    PendingFiles& operator=(const PendingFiles&) = delete;
    ~PendingFiles() {
        files_.clear(); // removes the temporaries not published
        for (size_t slot : slots_)
            untrack(slot);
    }

    void add(const fs::path& target, std::span<const std::byte> bytes, bool flush) {
        add(
            target, [bytes](assbin_common::AtomicFile& file) { file.write(bytes); }, flush);
    }

    // `fill` writes the file's bytes into the temporary; `flush`: flushed to disk now (else the
    // caller flushes the file system before commit(true)).
    void add(const fs::path& target, const std::function<void(assbin_common::AtomicFile&)>& fill,
             bool flush) {
        try {
            files_.push_back(
                std::make_unique<assbin_common::AtomicFile>(target, assbin_common::AtomicFile::Creation::Deferred));
            const std::string temporary = files_.back()->temporary().string();
            slots_.reserve(slots_.size() + 1);
            bool interrupted = false;
            {
                const CreatingTemporary window; // tracked, then created, with no signal in between
                interrupted = window.ending();
                if (!interrupted) {
                    slots_.push_back(track(temporary));
                    files_.back()->create(); // a failure throws after the window (the destructor closes it)
                }
            }
            if (interrupted) throw aem::Error(aem::ErrorCode::Io, target.string() + ": not written: interrupted");
            fill(*files_.back());
            if (flush) files_.back()->finish();
        } catch (const assbin_common::WriteFailure& failure) {
            throw aem::Error(aem::ErrorCode::Io, failure.what());
        }
    }

    const std::vector<std::unique_ptr<assbin_common::AtomicFile>>& files() const { return files_; }

    // Flushes each file on its own (after a file system flush that failed); throws for the first
    // that cannot be flushed.
    void flush_each() {
        try {
            for (const auto& file : files_)
                file->flush();
        } catch (const assbin_common::WriteFailure& failure) {
            throw aem::Error(aem::ErrorCode::Io, failure.what());
        }
    }

    // Publishes (renames, then flushes the folder unless `flushed`: the caller flushes the file
    // system after) in the order added. When one fails, the files this commit already put in place
    // are removed again, so a failed write leaves none of its outputs.
    void commit(bool flushed = false) {
        std::vector<fs::path> placed;
        for (const auto& file : files_) {
            try {
                if (flushed) {
                    file->publish_flushed();
                } else {
                    file->publish();
                }
            } catch (const assbin_common::WriteFailure& failure) {
                std::error_code ignored;
                for (const fs::path& done : placed)
                    fs::remove(done, ignored);
                throw aem::Error(aem::ErrorCode::Io, failure.what());
            }
            if (!file->streaming()) placed.push_back(file->target()); // a device or FIFO is never removed
        }
    }

  private:
    std::vector<std::unique_ptr<assbin_common::AtomicFile>> files_;
    std::vector<size_t> slots_; // tracked for remove_pending_outputs()
};

} // namespace

void remove_pending_outputs() noexcept {
    g_ending.store(true);
    const auto sweep = [] {
        for (TrackedTemporary& tracked : g_tracked) {
            if (tracked.state.load() == 2) ::unlink(tracked.path); // async-signal-safe
        }
    };
    sweep();
    // A thread creating a temporary has the signals blocked (the handler is not on it): wait for its
    // one system call (up to 30 s, for a file system that stalls), then sweep again.
    if (g_creating.load() == 0) return;
    for (int waited = 0; waited < 30000 && g_creating.load() > 0; ++waited) {
        const timespec millisecond{0, 1000000};
        ::nanosleep(&millisecond, nullptr); // async-signal-safe
    }
    sweep();
}

namespace {

// The output's files in temporaries, the model last. A model written into a stream (a character
// device or FIFO: `-o /dev/null`) has no folder of its own for its textures: they are not written
// (ConvertResult::drop_textures_for_stream says so in a warning first).
void write_temporaries(const ConvertResult& result, const fs::path& aem_path, PendingFiles& pending,
                       bool flush) {
    if (result.format == OutputFormat::Aem)
        aem::check_expressible(result.model); // throws before anything is written
    const fs::path folder = aem_path.parent_path();
    if (!output_is_stream(aem_path)) {
        for (const TextureFile& texture : result.textures)
            pending.add(folder / texture.name, texture.bytes, flush);
    }
    pending.add(
        aem_path,
        [&](assbin_common::AtomicFile& file) {
            AtomicFileBuffer buffer(file);
            std::ostream out(&buffer);
            out.exceptions(std::ios::badbit); // the temporary's own WriteFailure comes through, named
            if (result.format == OutputFormat::Aem) {
                aem::write_model(result.model, out);
            } else {
                out.write(reinterpret_cast<const char*>(result.encoded.data()),
                          static_cast<std::streamsize>(result.encoded.size()));
            }
        },
        flush);
}

} // namespace

bool output_is_stream(const fs::path& aem_path) {
    try {
        return assbin_common::output_kind(aem_path) == assbin_common::OutputKind::Stream;
    } catch (const assbin_common::OutputRefused&) {
        return false; // refused when it is opened, with the reason
    }
}

void drop_textures_for_stream(ConvertResult& result, const fs::path& aem_path) {
    if (result.textures.empty() || !output_is_stream(aem_path)) return;
    const size_t count = result.textures.size();
    const std::string files = result.format == OutputFormat::Gltf
                                  ? (count == 1 ? " file the .gltf names (its .bin or an image) is"
                                                : " files the .gltf names (its .bin and images) are")
                                  : (count == 1 ? " texture file is" : " texture files are");
    result.warnings.push_back(std::to_string(count) + files + " not written: the model goes into " +
                              aem_path.string() + ", a stream, which has no folder to put them beside");
    result.textures.clear();
    result.stats.textures_written = 0;
}

void write_output(const ConvertResult& result, const fs::path& aem_path) {
    PendingFiles pending;
    write_temporaries(result, aem_path, pending, true);
    pending.commit();
}

// A batch of at most this many files flushes each file rather than its file systems (commit).
constexpr size_t kFilesFlushedEach = 4;

struct OutputBatch::Output {
    PendingFiles files;
};

OutputBatch::OutputBatch() = default;
OutputBatch::~OutputBatch() = default;

fs::path OutputBatch::add(const ConvertResult& result, const fs::path& aem_path) {
    auto output = std::make_unique<Output>();
    write_temporaries(result, aem_path, output->files, false);  // on a throw, `output` removes them
    fs::path model = output->files.files().back()->temporary(); // the model is written last
    outputs_.push_back(std::move(output));
    return model;
}

std::vector<std::string> OutputBatch::commit() {
    std::vector<std::string> errors(outputs_.size());
    // A few files are flushed each on its own (their writing all started first): flushing the file
    // system whole (syncfs) would also wait for whatever other programs have written and not yet
    // flushed (converting one small dump took 1.04 s instead of 0.01 s after another program had
    // written 400 MB). A bigger batch flushes its file systems, each once: file by file, the
    // corpus set took 4-8% longer.
    size_t files = 0;
    for (const auto& output : outputs_)
        files += output->files.files().size();
    if (files <= kFilesFlushedEach) {
        for (const auto& output : outputs_) {
            for (const auto& file : output->files.files())
                file->start_flush();
        }
        for (size_t k = 0; k < outputs_.size(); ++k) {
            try {
                outputs_[k]->files.commit(); // each file flushed, renamed, its folder flushed
            } catch (const aem::Error& error) {
                errors[k] = error.what();
            }
        }
        outputs_.clear();
        return errors;
    }
    // Every file system the batch wrote to, flushed once: every temporary is then on disk.
    std::vector<dev_t> devices;
    bool flushed = true;
    const auto flush_file_systems = [&] {
        devices.clear();
        for (const auto& output : outputs_) {
            for (const auto& file : output->files.files()) {
                if (file->streaming()) continue; // nothing of a stream's to flush
                const dev_t device = file->device();
                if (std::find(devices.begin(), devices.end(), device) != devices.end()) continue;
                devices.push_back(device);
                flushed &= file->flush_file_system();
            }
        }
    };
    flush_file_systems();
    for (size_t k = 0; k < outputs_.size(); ++k) {
        try {
            if (!flushed) outputs_[k]->files.flush_each(); // which files the failed flush was about
            outputs_[k]->files.commit(true);
        } catch (const aem::Error& error) {
            errors[k] = error.what();
        }
    }
    flush_file_systems(); // the renames (a folder that cannot be flushed is not an error, as for one file)
    outputs_.clear();     // the temporaries of failed outputs go
    return errors;
}

} // namespace assbin::converter
