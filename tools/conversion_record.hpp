// What `convert --skip-existing` decides by: a record, per output folder, of each output written,
// the content of its source, the options it was converted with, the files written beside it with
// their content, and every image the conversion looked for, by name, with the content of the file
// found or its absence (.assbin-convert.log, one line per output, appended once the output is in
// place). Only runs with --skip-existing read or
// write it: a plain convert leaves no record behind. An output is up to date when its record
// matches the source's bytes, the options and the output's own bytes now; dates are never looked at.
// A batch killed with SIGKILL leaves complete outputs (every write is atomic) and records for those
// it got to; outputs without a record are converted again.
#pragma once

#include <assbin/converter/convert.hpp>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace assbin::cli {

// XXH3 (64 bits) over the bytes, with their count: the content check of the record. Computed only
// for --skip-existing (hashing every input and output cost a tenth of a batch).
std::string content_key(std::span<const std::byte> bytes);
// The same key from a count of bytes and their XXH3.
std::string content_key(uint64_t size, uint64_t xxh3);

// The conversion options that change the output, and the converter's version, as one key.
std::string options_key(const converter::ConvertOptions& options);

// Whether `output` is recorded as converted from a source of this content with these options, it
// and every file written beside it still hold the bytes they were written with, and every image the
// conversion looked for resolves (converter::find_image_file with `options`, whose source_folder is
// the dump's folder) to a file of the content it read, or still to none.
bool output_is_up_to_date(const std::filesystem::path& output, const std::string& source_key,
                          const std::string& options_key, const converter::ConvertOptions& options);

// Appends the record of `output`, whose bytes are those of `written` (the output itself, or the
// temporary about to be renamed to it: the record names the output's content, so one written before
// the rename only ever matches the output once it is in place). One write of one line, appended
// only to a regular file that holds records (never through a symlink, never into a FIFO, a device
// or a file of other content). Returns why the output could not be recorded (empty when it was):
// that only means it will be converted again, so nothing is thrown.
std::string record_output(const std::filesystem::path& output, const std::filesystem::path& written,
                          const converter::ConvertResult& result, const std::string& source_key,
                          const std::string& options_key) noexcept;

// The record file an output's folder keeps (what --skip-existing writes besides the outputs).
std::filesystem::path record_path(const std::filesystem::path& output);

// Removes the temporaries (".NAME.tmp-PID-N", common/atomic_file.hpp) that a process no longer
// running left in `folder` (a batch killed with SIGKILL cannot remove its own); returns how many.
size_t remove_stale_temporaries(const std::filesystem::path& folder);

} // namespace assbin::cli
