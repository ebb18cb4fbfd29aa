#include "progress_bar.hpp"

#include <cstdio>
#include <string>
#include <unistd.h>

namespace assbin::cli {

ProgressBar::ProgressBar(size_t total, bool wanted)
    : total_(total), enabled_(wanted && total > 1 && ::isatty(STDERR_FILENO)) {}

void ProgressBar::clear() const {
    if (enabled_) std::fputs("\r\033[K", stderr);
}

void ProgressBar::draw(size_t done, size_t failed) const {
    if (!enabled_) return;
    constexpr size_t kWidth = 30;
    const size_t filled = total_ == 0 ? kWidth : done * kWidth / total_;
    std::fprintf(stderr, "\r[%s%s] %zu/%zu files, %zu failed", std::string(filled, '#').c_str(),
                 std::string(kWidth - filled, '.').c_str(), done, total_, failed);
    std::fflush(stderr);
}

} // namespace assbin::cli
