// A fresh empty folder under the system temp folder, removed with everything in it by the
// destructor. Header-only and free of any project library, so the AEM suites (which must not
// depend on the assbin reader) and the assbin suites share it.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <system_error>

#include <unistd.h>

namespace assbin_test {

class TempDir {
  public:
    TempDir() : path_(fresh_path()) { std::filesystem::create_directories(path_); }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

  private:
    // Process id, clock and a counter: unique across parallel test processes and within one.
    static std::filesystem::path fresh_path() {
        static std::atomic<unsigned> counter{0};
        std::string name = "assbin-test-";
        name += std::to_string(::getpid());
        name += '-';
        name += std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
        name += '-';
        name += std::to_string(counter++);
        return std::filesystem::temp_directory_path() / name;
    }

    std::filesystem::path path_;
};

} // namespace assbin_test
