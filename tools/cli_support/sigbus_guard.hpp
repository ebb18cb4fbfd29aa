// Mapped inputs (common/mapped_file.hpp) turn a file that another program truncates while it is read
// into SIGBUS. The guard makes that an error like any other unreadable input — a line on stderr
// naming the file, exit status 2 — instead of a crash. Internal (library assbin_cli_support).
#pragma once

#include <string_view>

namespace assbin::cli {

// Installs the SIGBUS handler for the process (once, at start).
void install_sigbus_guard();

// Names the file being read, for the handler's message; call before reading each mapped input.
// Not thread-safe by design of what it serves: the name is the last one noted.
void note_mapped_input(std::string_view path);

} // namespace assbin::cli
