// A one-line progress bar on stderr for the verbs that work through many files (convert, dump of a
// folder, render --sheet), redrawn in place, only when stderr is a terminal: logs and pipes get the
// per-file lines alone. Internal (library assbin_cli_support).
#pragma once

#include <cstddef>

namespace assbin::cli {

class ProgressBar {
  public:
    // Shown only when `wanted` and there are several files and stderr is a terminal.
    ProgressBar(size_t total, bool wanted);

    // Erases the bar, so that a line can be printed in its place.
    void clear() const;
    // "[#####.....] 12/100 files, 1 failed".
    void draw(size_t done, size_t failed) const;

  private:
    size_t total_;
    bool enabled_;
};

} // namespace assbin::cli
