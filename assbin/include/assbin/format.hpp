// Constants of the ASSBIN format (ASSBIN-FORMAT.md §1 and §3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace assbin {

inline constexpr std::string_view kMagicPrefix = "ASSIMP.binary-dump.";
inline constexpr size_t kHeaderSize = 512;
inline constexpr size_t kChunkHeadSize = 8;

enum ChunkId : uint32_t {
    kChunkCamera = 0x1234,
    kChunkLight = 0x1235,
    kChunkTexture = 0x1236,
    kChunkMesh = 0x1237,
    kChunkNodeAnim = 0x1238,
    kChunkScene = 0x1239,
    kChunkBone = 0x123a,
    kChunkAnimation = 0x123b,
    kChunkNode = 0x123c,
    kChunkMaterial = 0x123d,
    kChunkMaterialProperty = 0x123e,
};

// "MESH", "NODE", ... for known ids; nullptr for others.
const char* chunk_name(uint32_t id);

// True when the bytes start with the ASSBIN magic prefix.
bool has_assbin_magic(const void* data, size_t size);

// True when the file at `path` is a regular file starting with the ASSBIN magic (however it is named).
bool is_dump_file(const std::filesystem::path& path);

// Every dump below `folder` (recursively, picked by is_dump_file), sorted. Unreadable entries are
// skipped; throws std::filesystem::filesystem_error when `folder` itself cannot be listed.
std::vector<std::filesystem::path> find_dumps(const std::filesystem::path& folder);

} // namespace assbin
