// Writing ASSBIN dumps: full, compressed or shortened, always in the current Assimp layout (P5 of
// ASSBIN-FORMAT.md §6: node metadata, 8-byte texture hint, lights with position/direction/up,
// 20-byte vector keys, exact chunk lengths, single precision). The body is byte-identical to what
// Assimp 5.2.5+'s AssbinFileWriter writes for the same scene.
#pragma once

#include <assbin/types.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace assbin {

// Thrown by the writer: the scene cannot be written as asked (a shortened scene as a full dump,
// an array whose size disagrees with its count, an index that does not fit the file's 16 bits,
// ...), or the output file cannot be written. `what()` gives "<path>: <message>".
class WriteError : public std::runtime_error {
  public:
    WriteError(std::string path, std::string message);

    // Where in the scene ("scene/mesh[2]/faces[7]") or which file; may be empty.
    const std::string& path() const { return path_; }
    const std::string& message() const { return message_; }

  private:
    std::string path_;
    std::string message_;
};

// What goes into the dump and its 512-byte header (ASSBIN-FORMAT.md §1.1). The header this writer
// produces: the magic "ASSIMP.binary-dump." followed by asctime() of `time` in UTC (25 characters
// ending in LF), version 1.0, `revision`, `compile_flags`, the shortened and compressed flags,
// `source_name` and `command` (NUL-padded), and 64 bytes of 0xCD.
struct WriteOptions {
    // Write the §5 shortened form. A full scene is shortened on the way (bounds and face hashes
    // computed as Assimp's writer does); a shortened scene is written as it is.
    bool shortened = false;
    // Compress the body with zlib (compress2, level `compression_level`); the u32 before the stream
    // is the body's length, as every writer from Assimp 5.0 on stores it.
    bool compressed = false;
    int compression_level = 9; // 1 (fastest) .. 9 (Assimp's choice)
    // Header bytes 64..319. Assimp 5.1+ stores the output path here (earlier assimp_cmd the input
    // model path). Cut to 255 bytes (at a UTF-8 character boundary) and NUL-terminated, as 5.1+.
    std::string source_name;
    // Header bytes 320..447: the command line, e.g. "-b -s ". Cut to 127 bytes and NUL-terminated.
    std::string command;
    // The dump time written into the magic; the current time when unset.
    std::optional<std::chrono::system_clock::time_point> time;
    // The 25 bytes after the magic prefix as another header had them (Header::timestamp), written
    // as they are in place of `time`: a scene written back keeps the time it was dumped at.
    std::optional<std::string> timestamp;
    // The writer build's git commit (0 = none, as Debian's Assimp) and compile flags (§1.1). This
    // writer is not an Assimp build, so both default to 0. Flag 0x20 (double precision) is refused:
    // this writer always writes the single-precision layout.
    uint32_t revision = 0;
    uint32_t compile_flags = 0;
};

// The whole file for `scene` (header, then the body, compressed when asked).
// Preconditions, each checked (WriteError names the scene path and what is wrong):
//  - a shortened scene (read from a .assbin.regress) can only be written with options.shortened:
//    it holds bounds and face hashes, not the arrays a full dump needs;
//  - full scenes: every vertex stream holds vertex_count values, faces.size() == face_count with
//    well-formed offsets, at most 65535 indices per face, indices < 65536 when vertex_count < 65536
//    (the file stores them in 16 bits), weights.size() == weight_count, keys.size() == count,
//    texture data of width bytes (height 0) or width*height*4 bytes;
//  - shortened scenes: one face hash per 512 faces, key bounds for every track with count > 0;
//  - tangents only together with bitangents; at most 8 colour sets and 8 UV channels; a format
//    hint of at most 8 bytes; strings under 4 GiB; node children forming a tree rooted at
//    nodes[0] (there must be a root); metadata values matching their type (types 7 and up carry none).
// Mesh, material, texture, light and camera references are not checked: real dumps carry broken
// ones, and they are written as they are. Scenes read from any layout (3.x, double precision) are
// written in the current single-precision layout.
std::vector<std::byte> write(const Scene& scene, const WriteOptions& options = {});

// As write(), then stores the bytes at `path` atomically: they go to a new temporary file in the
// same folder, which is flushed to disk (fsync) and closed, then renamed over `path`. On any
// failure the temporary file is removed, `path` is left as it was, and WriteError names the file
// and the system's reason.
void write_file(const Scene& scene, const std::filesystem::path& path, const WriteOptions& options = {});

// The 25 characters asctime() gives for `time` in UTC, e.g. "Sat Jan  3 10:20:30 2015\n".
std::string asctime_utc(std::chrono::system_clock::time_point time);

} // namespace assbin
