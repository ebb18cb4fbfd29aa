// The scene model every part of the toolkit shares: what an ASSBIN dump holds, in plain structs
// that refer to each other by index (fastgltf's Asset, not Assimp's pointer graph).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace assbin {

using Vec3 = Eigen::Vector3f;
using Color3 = Eigen::Vector3f;
// (r, g, b, a) in memory, exactly as aiColor4D.
using Color4 = Eigen::Matrix<float, 4, 1, Eigen::DontAlign>;
// Row-major storage keeps ASSBIN's meaning: (row r, column c) is a1..d4 in file order, and the
// translation sits in column 3 (a4, b4, c4).
using Matrix4 = Eigen::Matrix<float, 4, 4, Eigen::RowMajor | Eigen::DontAlign>;
// Eigen stores (x, y, z, w) internally; construct with Quaternion(w, x, y, z) and read q.w() for w.
using Quaternion = Eigen::Quaternion<float, Eigen::DontAlign>;

static_assert(sizeof(Vec3) == 12 && sizeof(Color4) == 16 && sizeof(Matrix4) == 64,
              "Scene arrays are bulk-copied from the file and must match its record sizes");

// A defined default for every value type here: Eigen's default constructors leave values
// uninitialised, so vectors start at zero and quaternions at identity.
template <class T>
T default_value() {
    if constexpr (requires { T::Zero(); })
        return T::Zero();
    else if constexpr (requires { T::Identity(); })
        return T::Identity();
    else
        return T{};
}

// An array left where it lies in the bytes a scene was read from (ReadOptions::array_views): file
// records that are exactly T's in-memory records, at no particular alignment, so each is read by
// copy. Valid only while those bytes live. Empty in a scene read the usual way.
template <class T>
struct FileRecords {
    std::span<const std::byte> bytes;

    size_t size() const { return bytes.size() / sizeof(T); }
    bool empty() const { return bytes.empty(); }
    T operator[](size_t i) const {
        T value;
        std::memcpy(static_cast<void*>(&value), bytes.data() + i * sizeof(T), sizeof(T));
        return value;
    }
};

// The records of an array whichever way it was read: a copied `values` vector or FileRecords.
template <class T>
FileRecords<T> records_of(const std::vector<T>& values, const FileRecords<T>& file_values) {
    if (!values.empty()) return {std::as_bytes(std::span<const T>(values))};
    return file_values;
}

// Minimum and maximum per component, as a shortened dump stores them in place of an array.
// The min is usually not an element of the array (ASSBIN-FORMAT.md §5).
template <class T>
struct Bounds {
    T min = default_value<T>();
    T max = default_value<T>();
};

// One per-vertex array. A full dump fills `values`; a shortened dump fills only `bounds`.
template <class T>
struct VertexStream {
    std::vector<T> values;
    Bounds<T> bounds;
    FileRecords<T> file_values; // instead of values, when read with ReadOptions::array_views

    FileRecords<T> records() const { return records_of(values, file_values); }
};

struct UvChannel : VertexStream<Vec3> {
    // How many of the three stored components are meaningful (1, 2 or 3); every UV is stored as 3.
    uint32_t component_count = 2;
};

// Faces stored flat: face i uses indices[offsets[i] .. offsets[i+1]). Offsets has face_count + 1
// entries when the mesh has faces, and is empty otherwise.
// Read with ReadOptions::array_views, both stay empty and the faces are left in the file's records
// (`file_records`: per face a u16 count, then u16 or u32 indices); `for_each` walks either form.
struct FaceList {
    std::vector<uint32_t> indices;
    std::vector<uint32_t> offsets;
    std::span<const std::byte> file_records;
    bool file_wide_indices = false; // u32 indices in file_records (meshes of 65,536+ vertices)

    size_t size() const { return offsets.empty() ? 0 : offsets.size() - 1; }
    std::span<const uint32_t> face(size_t i) const {
        return {indices.data() + offsets[i], indices.data() + offsets[i + 1]};
    }
    uint32_t face_size(size_t i) const { return offsets[i + 1] - offsets[i]; }

    // When every face has the same number of indices (either form): that number, how many faces,
    // and the largest index (0 when none), found in loops of a few instructions a face rather than a
    // visit each; nothing when sizes differ or there are no faces. validate and `info` take it first.
    struct Uniform {
        uint32_t size = 0;
        size_t count = 0;
        uint32_t max_index = 0;
    };
    std::optional<Uniform> uniform() const;

    // Calls visit(face number, its indices) for every face, in order.
    template <class Visit>
    void for_each(Visit&& visit) const {
        for (size_t f = 0; f < size(); ++f)
            visit(f, face(f));
        if (file_records.empty()) return;
        std::vector<uint32_t> scratch;
        const size_t index_bytes = file_wide_indices ? 4 : 2;
        for (size_t at = 0, f = 0; at + 2 <= file_records.size(); ++f) {
            uint16_t count;
            std::memcpy(&count, file_records.data() + at, 2);
            at += 2;
            if (file_records.size() - at < size_t{count} * index_bytes)
                return;       // cut: the reader never leaves one
            if (count == 3) { // a triangle, nearly every face: copies of a size known here
                uint32_t triangle[3];
                if (file_wide_indices) {
                    std::memcpy(triangle, file_records.data() + at, 12);
                } else {
                    uint16_t narrow[3];
                    std::memcpy(narrow, file_records.data() + at, 6);
                    triangle[0] = narrow[0], triangle[1] = narrow[1], triangle[2] = narrow[2];
                }
                at += 3 * index_bytes;
                visit(f, std::span<const uint32_t>(triangle, 3));
                continue;
            }
            if (scratch.size() != count) scratch.resize(count);
            if (file_wide_indices) {
                // One fixed-size copy per index: inlined, where one copy of count * 4 bytes is a call.
                for (uint16_t k = 0; k < count; ++k)
                    std::memcpy(&scratch[k], file_records.data() + at + 4 * k, 4);
            } else {
                for (uint16_t k = 0; k < count; ++k) {
                    uint16_t index;
                    std::memcpy(&index, file_records.data() + at + 2 * k, 2);
                    scratch[k] = index;
                }
            }
            at += count * index_bytes;
            visit(f, std::span<const uint32_t>(scratch));
        }
    }
};

struct VertexWeight {
    uint32_t vertex = 0;
    float weight = 0.0f;
};
static_assert(sizeof(VertexWeight) == 8);

struct Bone {
    std::string name;
    Matrix4 offset = Matrix4::Identity();   // mesh space -> bone space
    uint32_t weight_count = 0;              // as declared; equals weights.size() in full dumps
    std::vector<VertexWeight> weights;      // full dumps
    Bounds<VertexWeight> weight_bounds{};   // shortened dumps
    FileRecords<VertexWeight> file_weights; // instead of weights, when read with ReadOptions::array_views

    FileRecords<VertexWeight> weight_records() const { return records_of(weights, file_weights); }
};

// aiPrimitiveType bits.
enum PrimitiveType : uint32_t {
    kPrimitivePoint = 0x1,
    kPrimitiveLine = 0x2,
    kPrimitiveTriangle = 0x4,
    kPrimitivePolygon = 0x8,
    kPrimitiveNgonEncoding = 0x10,
};

inline constexpr unsigned kMaxColorSets = 8;
inline constexpr unsigned kMaxUvChannels = 8;

struct Mesh {
    uint32_t primitive_types = 0;
    uint32_t material_index = 0;
    uint32_t vertex_count = 0; // as declared, also in shortened dumps
    uint32_t face_count = 0;
    std::optional<VertexStream<Vec3>> positions;
    std::optional<VertexStream<Vec3>> normals;
    // Stored together: the writer sets one bit for the pair.
    std::optional<VertexStream<Vec3>> tangents;
    std::optional<VertexStream<Vec3>> bitangents;
    std::vector<VertexStream<Color4>> color_sets; // sets 0..n-1, contiguous
    std::vector<UvChannel> uv_channels;           // channels 0..n-1, contiguous
    FaceList faces;                               // full dumps
    std::vector<uint32_t> face_hashes;            // shortened dumps: one per block of 512 faces
    std::vector<Bone> bones;

    // The component mask as the file writes it (0x1 positions, 0x2 normals, 0x4 tangents, ...).
    uint32_t component_mask() const;
    // True when face indices are stored as u32 in the file (vertex_count >= 65536).
    bool uses_32bit_indices() const { return vertex_count >= 65536; }
};

// One entry of a node's metadata. Types 7 and above carry no value in the file.
enum class MetadataType : uint16_t {
    Bool = 0,
    Int32 = 1,
    UInt64 = 2,
    Float = 3,
    Double = 4,
    String = 5,
    Vector3 = 6,
    Nested = 7,
    Int64 = 8,
    UInt32 = 9,
};

using MetadataValue = std::variant<std::monostate, bool, int32_t, uint64_t, float, double, std::string, Vec3>;

struct MetadataEntry {
    std::string key;
    uint16_t type = 0; // the raw 16-bit type: unknown types are kept as read
    MetadataValue value;
};

// Nodes live in one array in file order (pre-order); index 0 is the root.
struct Node {
    std::string name;
    Matrix4 transform = Matrix4::Identity(); // relative to the parent
    int32_t parent = -1;
    std::vector<uint32_t> children;
    std::vector<uint32_t> meshes;
    std::vector<MetadataEntry> metadata;
};

// aiTextureType values used as a material property's semantic.
enum class MaterialPropertyType : uint32_t {
    Float = 1,
    Double = 2,
    String = 3,
    Integer = 4,
    Buffer = 5,
};

struct MaterialProperty {
    std::string key; // e.g. "?mat.name", "$clr.diffuse", "$tex.file"
    uint32_t semantic = 0;
    uint32_t index = 0;
    uint32_t type = 0;         // MaterialPropertyType, kept raw
    std::vector<uint8_t> data; // the bytes as stored (a string keeps its length prefix and terminator)

    // The value of a string property (type 3) without the length prefix and terminator;
    // nullopt for other types or malformed data.
    std::optional<std::string> string_value() const;
    // Float (type 1) or double (type 2) values widened to double; empty for other types.
    std::vector<double> numbers() const;
    // Integer (type 4) values.
    std::vector<int32_t> integers() const;
};

struct Material {
    std::vector<MaterialProperty> properties;

    // The "?mat.name" property, or an empty string.
    std::string name() const;
    // The property with this key, semantic and index, or nullptr.
    const MaterialProperty* find(std::string_view key, uint32_t semantic = 0, uint32_t index = 0) const;
};

template <class T>
struct Key {
    double time = 0.0; // in ticks
    T value = default_value<T>();
};
using VectorKey = Key<Vec3>;
using QuaternionKey = Key<Quaternion>;

enum class AnimBehaviour : uint32_t { Default = 0, Constant = 1, Linear = 2, Repeat = 3 };

// One key array of a node channel. Shortened dumps keep the count and the bounds of (time, value)
// per component; full dumps keep the keys.
template <class T>
struct KeyTrack {
    uint32_t count = 0;
    std::vector<Key<T>> keys;
    std::optional<Bounds<Key<T>>> bounds;
};

struct NodeChannel {
    std::string node_name;
    uint32_t pre_state = 0;  // AnimBehaviour, kept raw
    uint32_t post_state = 0; // AnimBehaviour, kept raw
    KeyTrack<Vec3> positions;
    KeyTrack<Quaternion> rotations;
    KeyTrack<Vec3> scalings;
};

struct Animation {
    std::string name;
    double duration = 0.0;         // ticks
    double ticks_per_second = 0.0; // 0 means unspecified
    std::vector<NodeChannel> channels;
};

struct Texture {
    uint32_t width = 0;        // bytes of the embedded file when height == 0
    uint32_t height = 0;       // 0 for a compressed (embedded file) texture
    std::string format_hint;   // "png", "jpg", "rgba8888", ... without NUL padding
    std::vector<uint8_t> data; // full dumps: the file, or width*height texels as b, g, r, a

    bool is_compressed() const { return height == 0; }
};

enum class LightType : uint32_t {
    Undefined = 0,
    Directional = 1,
    Point = 2,
    Spot = 3,
    Ambient = 4,
    Area = 5
};

struct Light {
    std::string name;
    uint32_t type = 0; // LightType, kept raw
    // Stored only by writers from Assimp 5.2.5 on (Layout::light_placement); zero otherwise.
    Vec3 position = Vec3::Zero();
    Vec3 direction = Vec3::Zero();
    Vec3 up = Vec3::Zero();
    // Stored for every type but directional.
    float attenuation_constant = 0.0f;
    float attenuation_linear = 0.0f;
    float attenuation_quadratic = 0.0f;
    Color3 diffuse = Color3::Zero();
    Color3 specular = Color3::Zero();
    Color3 ambient = Color3::Zero();
    // Stored for spot lights only (radians).
    float inner_cone = 0.0f;
    float outer_cone = 0.0f;
};

struct Camera {
    std::string name;
    Vec3 position = Vec3::Zero();
    Vec3 look_at = Vec3::Zero();
    Vec3 up = Vec3::Zero();
    float horizontal_fov = 0.0f;
    float clip_near = 0.0f;
    float clip_far = 0.0f;
    float aspect = 0.0f;
};

// Bits of Header::compile_flags.
enum CompileFlag : uint32_t {
    kCompileShared = 0x1,
    kCompileStlport = 0x2,
    kCompileDebug = 0x4,
    kCompileBoostWorkaround = 0x8,
    kCompileSingleThreaded = 0x10,
    kCompileDoublePrecision = 0x20,
};

// What the compressed dump's u32 prefix at offset 512 turned out to mean.
enum class CompressedPrefix : uint8_t {
    None,               // not compressed
    CompressedLength,   // assimp_cmd 3.0 .. 4.1.0
    UncompressedLength, // every writer from 5.0.0 on (checked against the inflated size)
};

// The 512-byte header, field by field (ASSBIN-FORMAT.md §1.1).
struct Header {
    std::string timestamp; // the 25 bytes after "ASSIMP.binary-dump." (asctime text, ends in LF)
    uint32_t version_major = 1;
    uint32_t version_minor = 0;
    uint32_t revision = 0; // git commit of the writer build, as a hex number; 0 without git
    uint32_t compile_flags = 0;
    uint16_t shortened = 0;
    uint16_t compressed = 0;
    std::string source_name; // up to the first NUL (256 bytes without one)
    std::string command;     // up to the first NUL
    std::array<uint8_t, 64> reserved{};
    uint32_t compressed_prefix = 0; // the u32 at offset 512 of a compressed dump
    CompressedPrefix prefix_meaning = CompressedPrefix::None;

    bool is_shortened() const { return shortened != 0; }
    bool is_compressed() const { return compressed != 0; }
};

// How this file's layout varies from the others Assimp wrote, as found while reading it
// (ASSBIN-FORMAT.md §6 and §7). Nothing here is chosen by the caller.
struct Layout {
    bool node_metadata = true;           // nodes carry a metadata count (library >= 4.0, all >= 5.1)
    unsigned texture_hint_bytes = 0;     // 4 (<= 5.0.1) or 8 (>= 5.1.0); 0 when the file has no texture
    std::optional<bool> light_placement; // position/direction/up stored (>= 5.2.5); unset without lights
    bool mixed_double = false;           // 5.2.5+ double build: first vector component and matrices as f64
    unsigned vector_key_bytes = 0;       // 20, or 24 for assimp_cmd <= 5.0.1 full dumps; 0 without keys
    bool exact_mesh_lengths = true;      // false: assimp_cmd <= 5.0.1 full dump, lengths short (§3)
};

// A chunk the reader did not know and skipped.
struct SkippedChunk {
    uint32_t id = 0;
    uint64_t offset = 0; // of the chunk head in the (inflated) file image
    uint32_t length = 0;
    std::string path; // where it was found, e.g. "scene/mesh[2]"
};

enum SceneFlag : uint32_t {
    kSceneIncomplete = 0x1,
    kSceneValidated = 0x2,
    kSceneValidationWarning = 0x4,
    kSceneNonVerboseFormat = 0x8,
    kSceneTerrain = 0x10,
    kSceneAllowShared = 0x20,
};

struct Scene {
    Header header;
    Layout layout;
    uint32_t flags = 0;      // SceneFlag bits
    std::vector<Node> nodes; // pre-order, nodes[0] is the root
    std::vector<Mesh> meshes;
    std::vector<Material> materials;
    std::vector<Animation> animations;
    std::vector<Texture> textures;
    std::vector<Light> lights;
    std::vector<Camera> cameras;
    std::vector<SkippedChunk> skipped_chunks;
    uint64_t body_bytes = 0; // size of the (inflated) body after the header
    // Bytes after the end of the SCENE chunk (Assimp's loader ignores them; so does this reader, but
    // it says so): how many, and the offset of the first in the (inflated) file image.
    uint64_t trailing_bytes = 0;
    uint64_t trailing_offset = 0;
    // A compressed dump's bytes after the end of its zlib stream (ignored alike, and said): how many,
    // and the offset of the first in the file itself.
    uint64_t bytes_after_stream = 0;
    uint64_t bytes_after_stream_offset = 0;
    // Read with ReadOptions::array_views from a compressed dump: the inflated body its FileRecords
    // point into, kept alive with the scene (a plain dump's records point into the caller's data).
    std::shared_ptr<const std::byte[]> inflated_body;

    bool is_shortened() const { return header.is_shortened(); }
};

// Copies every array a scene read with ReadOptions::array_views left in the data into its vectors
// (values, faces, weights), so that the scene no longer depends on those bytes.
void copy_file_records(Scene& scene);
// True when some array of the scene is left in the data it was read from (ReadOptions::array_views).
bool holds_file_records(const Scene& scene);

// The writer profile(s) of ASSBIN-FORMAT.md §6 that this scene's header and layout fit, with the
// Assimp releases, e.g. "P5 (Assimp 5.2.5+)" or "P3/P4/P5 (Assimp 4.0+; no texture or light to tell)".
std::string writer_profile(const Scene& scene);

} // namespace assbin
