// Shared by the fuzz targets: turning libFuzzer's bytes into the dump variant a target exercises,
// and reporting a broken invariant as a crash libFuzzer records.
#pragma once

#include <assbin/format.hpp>
#include <assbin/reader.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

namespace assbin_fuzz {

// Limits small enough that libFuzzer's 2 GB RSS budget is never the thing that stops a run, yet
// far above every fixture: a limit error is an expected outcome, a crash or leak is a finding.
inline assbin::ReadOptions fuzz_read_options() {
    assbin::ReadOptions options;
    options.limits.max_inflated_bytes = uint64_t{64} << 20;
    options.limits.max_allocation_allowance = uint64_t{16} << 20;
    return options;
}

inline std::span<const std::byte> as_bytes(const uint8_t* data, size_t size) {
    return {reinterpret_cast<const std::byte*>(data), size};
}

// A copy of the input whose magic and the two variant flags (header offsets 60 and 62) are set, so
// mutations spend their time in the body instead of leaving the variant the target is about.
inline std::vector<std::byte> with_variant(const uint8_t* data, size_t size, bool shortened,
                                           bool compressed) {
    std::vector<std::byte> bytes(as_bytes(data, size).begin(), as_bytes(data, size).end());
    if (bytes.size() < assbin::kHeaderSize) bytes.resize(assbin::kHeaderSize);
    std::memcpy(bytes.data(), assbin::kMagicPrefix.data(), assbin::kMagicPrefix.size());
    const uint16_t flags[2] = {uint16_t(shortened ? 1 : 0), uint16_t(compressed ? 1 : 0)};
    std::memcpy(bytes.data() + 60, flags, sizeof flags);
    return bytes;
}

// With ASSBIN_FUZZ_OUTCOMES=1 in the environment, a target counts how far each input got and prints
// the counts at exit: read through, refused in the header or the SCENE chunk's own fields, or refused
// inside a nested chunk. It measures how deep mutations reach (the structure-aware mutator against
// libFuzzer's byte mutations); off by default.
class ReadOutcomes {
  public:
    static void count(const assbin::ParseError* error) {
        static ReadOutcomes outcomes;
        if (!outcomes.enabled_) return;
        if (error == nullptr)
            ++outcomes.read_;
        else if (error->chunk_path().find('/') == std::string::npos)
            ++outcomes.shallow_;
        else
            ++outcomes.nested_;
    }

    ~ReadOutcomes() {
        if (!enabled_) return;
        const double total = double(read_ + shallow_ + nested_);
        std::fprintf(stderr,
                     "outcomes: %llu inputs: read %.1f%%, refused at the top %.1f%%, refused inside a nested "
                     "chunk %.1f%%\n",
                     static_cast<unsigned long long>(read_ + shallow_ + nested_), 100 * double(read_) / total,
                     100 * double(shallow_) / total, 100 * double(nested_) / total);
    }

  private:
    ReadOutcomes() {
        const char* value = std::getenv("ASSBIN_FUZZ_OUTCOMES");
        enabled_ = value != nullptr && value[0] == '1';
    }
    bool enabled_ = false;
    unsigned long long read_ = 0, shallow_ = 0, nested_ = 0;
};

// Reports a broken invariant: libFuzzer saves the input and the run fails.
[[noreturn]] inline void invariant_broken(const char* what) {
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
    std::abort();
}

} // namespace assbin_fuzz
