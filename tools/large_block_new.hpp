// The `assbin` program's own operator new and delete (large_block_new.cpp): large blocks reuse the
// pages of large blocks freed before them, without raising the peak.
#pragma once

namespace assbin::cli {

// Gives the memory of large blocks freed and kept for reuse back to the kernel: called when a
// conversion is done, so that what its stages passed on to each other is not held through the
// writing and the next job. Does nothing in builds that keep the default operators (sanitizers).
void give_back_kept_large_blocks() noexcept;

} // namespace assbin::cli
