#include <assbin/format.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>

namespace assbin {

const char* chunk_name(uint32_t id) {
    switch (id) {
    case kChunkCamera:
        return "CAMERA";
    case kChunkLight:
        return "LIGHT";
    case kChunkTexture:
        return "TEXTURE";
    case kChunkMesh:
        return "MESH";
    case kChunkNodeAnim:
        return "NODEANIM";
    case kChunkScene:
        return "SCENE";
    case kChunkBone:
        return "BONE";
    case kChunkAnimation:
        return "ANIMATION";
    case kChunkNode:
        return "NODE";
    case kChunkMaterial:
        return "MATERIAL";
    case kChunkMaterialProperty:
        return "MATPROP";
    default:
        return nullptr;
    }
}

bool has_assbin_magic(const void* data, size_t size) {
    return size >= kMagicPrefix.size() && std::memcmp(data, kMagicPrefix.data(), kMagicPrefix.size()) == 0;
}

bool is_dump_file(const std::filesystem::path& path) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) return false;
    std::ifstream file(path, std::ios::binary);
    char head[32] = {};
    file.read(head, static_cast<std::streamsize>(kMagicPrefix.size()));
    return has_assbin_magic(head, static_cast<size_t>(file.gcount()));
}

std::vector<std::filesystem::path> find_dumps(const std::filesystem::path& folder) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
        if (is_dump_file(entry.path())) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace assbin
