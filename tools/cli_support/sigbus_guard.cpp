#include "sigbus_guard.hpp"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstring>

#include <unistd.h>

namespace assbin::cli {

namespace {

// The handler may only call async-signal-safe functions: the name lives in a fixed buffer, and the
// message is put together with write(2).
char g_input_name[4096];
std::atomic<size_t> g_input_length{0};

void write_text(const char* text, size_t length) {
    while (length > 0) {
        const ssize_t done = ::write(STDERR_FILENO, text, length);
        if (done <= 0) return;
        text += done;
        length -= static_cast<size_t>(done);
    }
}

void on_sigbus(int, siginfo_t* info, void*) {
    constexpr char kPrefix[] = "assbin: error: ";
    constexpr char kCut[] =
        ": the file shrank while it was read (another program cut it while it was mapped)\n";
    constexpr char kOther[] = "assbin: error: bus error (SIGBUS) outside a mapped input\n";
    if (info != nullptr && info->si_code == BUS_ADRERR && g_input_length.load() > 0) {
        write_text(kPrefix, sizeof kPrefix - 1);
        write_text(g_input_name, g_input_length.load());
        write_text(kCut, sizeof kCut - 1);
    } else {
        write_text(kOther, sizeof kOther - 1);
    }
    ::_exit(2);
}

} // namespace

void install_sigbus_guard() {
    struct sigaction action {};
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, nullptr);
}

void note_mapped_input(std::string_view path) {
    const size_t length = std::min(path.size(), sizeof g_input_name);
    g_input_length.store(0);
    std::memcpy(g_input_name, path.data(), length);
    g_input_length.store(length);
}

} // namespace assbin::cli
