#include <assbin/format.hpp>

#include <cstring>

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

} // namespace assbin
