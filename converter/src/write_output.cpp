// Rule 10: the model and its textures go to temporary names beside their final ones and are
// renamed into place only when every one of them is complete, the model last.
#include <converter/convert.hpp>

#include <aem/io.hpp>

#include <atomic>
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
    }

    void add(const fs::path& target, std::span<const std::byte> bytes) {
        const fs::path temporary = temporary_beside(target);
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
};

} // namespace

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
