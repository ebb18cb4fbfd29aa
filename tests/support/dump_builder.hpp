// A test-side ASSBIN writer: the independent oracle for crafted files.
//
// Written from ASSBIN-FORMAT.md alone; it shares no code with the reader. A test describes a scene
// with the plain *Spec structs below, picks a WriterProfile (one of the §6 writer variants, plus
// shortened/compressed), and gets the file bytes together with the offset of every chunk it wrote.
// For hostile files there are raw building blocks (ByteWriter, assemble, compress_body) and a few
// override fields on the specs (lengths, counts, chunk ids, trailing bytes).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace assbin_test {

using Bytes = std::vector<std::byte>;
using F3 = std::array<float, 3>;
using F4 = std::array<float, 4>;  // colors r, g, b, a; quaternions w, x, y, z (file order)
using M4 = std::array<float, 16>; // row-major a1 a2 a3 a4 b1 ... d4 (file order)

inline constexpr M4 kIdentity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

// Chunk ids (§3), spelled out here so the builder does not depend on the reader's headers.
namespace chunk {
inline constexpr uint32_t kCamera = 0x1234;
inline constexpr uint32_t kLight = 0x1235;
inline constexpr uint32_t kTexture = 0x1236;
inline constexpr uint32_t kMesh = 0x1237;
inline constexpr uint32_t kNodeAnim = 0x1238;
inline constexpr uint32_t kScene = 0x1239;
inline constexpr uint32_t kBone = 0x123a;
inline constexpr uint32_t kAnimation = 0x123b;
inline constexpr uint32_t kNode = 0x123c;
inline constexpr uint32_t kMaterial = 0x123d;
inline constexpr uint32_t kMatProp = 0x123e;
} // namespace chunk

inline constexpr size_t kHeaderBytes = 512;

// ---------------------------------------------------------------------------------------------
// Raw little-endian byte writer (the building block for everything else).

class ByteWriter {
  public:
    void u8(uint8_t v);
    void u16(uint16_t v);
    void u32(uint32_t v);
    void i32(int32_t v);
    void u64(uint64_t v);
    void f32(float v);
    void f64(double v);
    // `u32 n` then n bytes (§0).
    void str(std::string_view s);
    void raw(std::span<const std::byte> bytes);
    void raw(std::string_view bytes);
    void fill(size_t count, uint8_t value);
    // Exactly `width` bytes: `s` cut to width, then NUL padding.
    void padded(std::string_view s, size_t width);

    // Writes `id` and a placeholder length; returns the mark end_chunk needs.
    size_t begin_chunk(uint32_t id);
    // Patches the length to the payload written since begin_chunk (minus `short_by`), or to
    // `length_override` when given. Returns the true payload size.
    uint64_t end_chunk(size_t mark, std::optional<uint32_t> length_override = std::nullopt,
                       uint64_t short_by = 0);
    void patch_u32(size_t position, uint32_t v);

    // A whole chunk with any id and length field around a given payload.
    void chunk(uint32_t id, std::span<const std::byte> payload,
               std::optional<uint32_t> length = std::nullopt);

    size_t size() const { return bytes_.size(); }
    void reserve(size_t n) { bytes_.reserve(n); }
    const Bytes& bytes() const { return bytes_; }
    Bytes take() { return std::move(bytes_); }

  private:
    Bytes bytes_;
};

// ---------------------------------------------------------------------------------------------
// Writer variants (§6) and header fields (§1.1).

enum class Compression {
    None,
    OldPrefix, // prefix = compressed stream length (assimp_cmd 3.0 .. 4.1.0)
    NewPrefix, // prefix = uncompressed body length (every writer from 5.0.0)
};

struct HeaderSpec {
    std::string magic = "ASSIMP.binary-dump.";            // 19 bytes in real files
    std::string timestamp = "Sat Jan  3 10:20:30 2015\n"; // 25 bytes: written cut or NUL-padded to 25
    uint32_t version_major = 1;
    uint32_t version_minor = 0;
    uint32_t revision = 0;
    uint32_t compile_flags = 0;
    std::optional<uint16_t> shortened;  // default: from the profile
    std::optional<uint16_t> compressed; // default: from the profile
    std::string name;                   // up to 256 bytes, NUL-padded
    std::string command;                // up to 128 bytes, NUL-padded
    uint8_t reserved_byte = 0xCD;
};

struct WriterProfile {
    std::string label;               // "P5", "P1'", ... for messages
    bool node_metadata = true;       // u32 nMeta in every node (§4.2)
    unsigned texture_hint_bytes = 8; // 4 or 8 (§4.8)
    bool light_placement = true;     // vec3 position, direction, up in lights (§4.9)
    bool mixed_double = false;       // 5.2.5+ double build: first component f64, mat4 16 x f64 (§8)
    unsigned vector_key_bytes = 20;  // 20, or 24 for P1 full dumps (§4.7); ignored when mixed_double
    uint8_t key_padding = 0xA5;      // the undefined 4 padding bytes of a 24-byte vkey
    bool short_lengths = false;      // P1 full dumps: MESH and SCENE lengths short by §3
    bool shortened = false;          // §5 bounds and hashes instead of arrays
    Compression compression = Compression::None;
    std::optional<uint32_t> prefix_override; // any u32 at offset 512 of a compressed dump
    HeaderSpec header;

    static WriterProfile p1();        // assimp_cmd 3.0 .. 4.1.0
    static WriterProfile p1_prime();  // assimp_cmd 5.0.0, 5.0.1
    static WriterProfile p2();        // library exporter 3.2 .. 3.3.1
    static WriterProfile p3();        // library exporter 4.0.0 .. 5.0.1
    static WriterProfile p4();        // AssbinFileWriter 5.1.0 .. 5.2.4
    static WriterProfile p5();        // AssbinFileWriter 5.2.5 .. master
    static WriterProfile p4_double(); // 5.1.0 .. 5.2.4 double build: flag 0x20, single layout
    static WriterProfile p5_double(); // 5.2.5+ double build: flag 0x20, mixed layout

    WriterProfile& with_shortened(bool on = true);
    WriterProfile& with_compression(Compression c);
};

// ---------------------------------------------------------------------------------------------
// Scene description. Every array is given in full; shortened output derives bounds and hashes.

// A metadata value is written by the alternative it holds, whatever `type` says (so tests can
// craft mismatches); monostate writes nothing, as for types 7, 8, 9.
using MetaValue = std::variant<std::monostate, bool, int32_t, uint64_t, float, double, std::string, F3>;

struct MetaSpec {
    std::string key;
    uint16_t type = 0;
    MetaValue value;
};

struct NodeSpec {
    std::string name;
    M4 transform = kIdentity;
    std::vector<uint32_t> meshes;
    std::vector<NodeSpec> children;
    std::vector<MetaSpec> metadata;
    // Crafting overrides.
    std::optional<uint32_t> chunk_id;          // instead of 0x123c
    std::optional<uint32_t> length_override;   // instead of the true length
    std::optional<uint32_t> declared_children; // instead of children.size()
    std::optional<uint32_t> declared_meshes;   // instead of meshes.size()
    std::optional<uint32_t> declared_metadata; // instead of metadata.size()
    Bytes trailing;                            // written after the metadata, inside the chunk
};

// A node with a name, mesh indices and children (the common case, without designated initializers:
// GCC's -Wmissing-field-initializers flags those that leave members out).
NodeSpec make_node(std::string name, std::vector<uint32_t> meshes = {}, std::vector<NodeSpec> children = {},
                   std::vector<MetaSpec> metadata = {});

struct UvSpec {
    uint32_t components = 2;
    std::vector<F3> coords; // always 3 floats per UV on disk
};

struct WeightSpec {
    uint32_t vertex = 0;
    float weight = 0.0f;
};

struct BoneSpec {
    std::string name;
    M4 offset = kIdentity;
    std::vector<WeightSpec> weights;
    std::optional<uint32_t> declared_weights;
};

struct MeshSpec {
    uint32_t primitive_types = 4;
    uint32_t material_index = 0;
    std::optional<uint32_t> vertex_count; // default: size of the first present vertex array
    std::optional<std::vector<F3>> positions;
    std::optional<std::vector<F3>> normals;
    std::optional<std::vector<F3>> tangents; // written (bit 0x4) only with bitangents
    std::optional<std::vector<F3>> bitangents;
    std::vector<std::vector<F4>> colors; // sets 0..n-1
    std::vector<UvSpec> uvs;             // channels 0..n-1
    std::vector<std::vector<uint32_t>> faces;
    std::vector<BoneSpec> bones;
    // Crafting overrides.
    std::optional<uint32_t> chunk_id;
    std::optional<uint32_t> length_override;
    std::optional<uint32_t> declared_faces;
    std::optional<uint32_t> declared_bones;
    Bytes trailing; // after the bones, inside the chunk

    uint32_t nv() const;
    uint32_t component_mask() const;
};

struct MatPropSpec {
    std::string key;
    uint32_t semantic = 0;
    uint32_t index = 0;
    uint32_t type = 0;
    Bytes data;
    std::optional<uint32_t> declared_length; // instead of data.size()
};

MatPropSpec prop_floats(std::string key, std::vector<float> values, uint32_t semantic = 0,
                        uint32_t index = 0);
MatPropSpec prop_doubles(std::string key, std::vector<double> values, uint32_t semantic = 0,
                         uint32_t index = 0);
// Type 3: u32 len, the bytes, then `terminator` (Assimp copies it from memory: not always 0).
MatPropSpec prop_string(std::string key, std::string_view value, uint8_t terminator = 0,
                        uint32_t semantic = 0, uint32_t index = 0);
MatPropSpec prop_ints(std::string key, std::vector<int32_t> values, uint32_t semantic = 0,
                      uint32_t index = 0);
MatPropSpec prop_buffer(std::string key, Bytes data, uint32_t semantic = 0, uint32_t index = 0);

struct MaterialSpec {
    std::vector<MatPropSpec> properties;
    std::optional<uint32_t> declared_properties;
};

struct VKeySpec {
    double time = 0.0;
    F3 value{};
};
struct QKeySpec {
    double time = 0.0;
    F4 value{1, 0, 0, 0}; // w, x, y, z
};

struct ChannelSpec {
    std::string node_name;
    uint32_t pre_state = 0;
    uint32_t post_state = 0;
    std::vector<VKeySpec> positions;
    std::vector<QKeySpec> rotations;
    std::vector<VKeySpec> scalings;
};

struct AnimationSpec {
    std::string name;
    double duration = 0.0;
    double ticks_per_second = 0.0;
    std::vector<ChannelSpec> channels;
};

struct TextureSpec {
    uint32_t width = 0;
    uint32_t height = 0; // 0: `data` is an embedded file of `width` bytes
    std::string hint;    // written NUL-padded (or cut) to the profile's 4 or 8 bytes
    Bytes data;          // written as given in full dumps
};
TextureSpec compressed_texture(std::string hint, Bytes file);
// `texels` holds width*height*4 bytes in b, g, r, a order.
TextureSpec argb_texture(uint32_t width, uint32_t height, Bytes texels, std::string hint = "");

struct LightSpec {
    std::string name;
    uint32_t type = 2;
    F3 position{}, direction{}, up{};
    float att_constant = 0, att_linear = 0, att_quadratic = 0;
    F3 diffuse{}, specular{}, ambient{};
    float inner_cone = 0, outer_cone = 0;
};

struct CameraSpec {
    std::string name;
    F3 position{}, look_at{}, up{};
    float horizontal_fov = 0, clip_near = 0, clip_far = 0, aspect = 0;
};

struct SceneSpec {
    uint32_t flags = 0;
    NodeSpec root = make_node("root");
    std::vector<MeshSpec> meshes;
    std::vector<MaterialSpec> materials;
    std::vector<AnimationSpec> animations;
    std::vector<TextureSpec> textures;
    std::vector<LightSpec> lights;
    std::vector<CameraSpec> cameras;
    // Crafting overrides.
    std::optional<uint32_t> length_override;
    Bytes after_root; // raw bytes between the root node and the first mesh
    Bytes trailing;   // raw bytes after the last camera, inside SCENE
};

// ---------------------------------------------------------------------------------------------
// Output.

struct ChunkInfo {
    uint32_t id = 0;
    std::string path;     // "scene", "scene/node", "scene/node/node[1]", "scene/mesh[0]/bone[2]", ...
    uint64_t offset = 0;  // of the chunk head in the file image (512-byte header + body)
    uint32_t length = 0;  // the length field as written
    uint64_t payload = 0; // the bytes actually written after the head
    uint64_t end() const { return offset + 8 + payload; }
};

struct Dump {
    Bytes bytes; // the file
    Bytes body;  // the uncompressed body (one SCENE chunk, plus nothing)
    std::vector<ChunkInfo> chunks;

    // The chunk with this builder path; throws std::out_of_range when absent.
    const ChunkInfo& chunk(std::string_view path) const;
};

// The whole file for `scene` as `profile` writes it.
Dump build_dump(const SceneSpec& scene, const WriterProfile& profile);
// Just the SCENE chunk (the body), with chunk offsets counted from the body start + 512.
Dump build_body(const SceneSpec& scene, const WriterProfile& profile);
// The 512-byte header.
Bytes build_header(const WriterProfile& profile);
// Header + body, compressed per profile.compression (with its prefix).
Bytes assemble(const WriterProfile& profile, std::span<const std::byte> body);
// zlib compress2 at level 9, no prefix.
Bytes zlib_compress(std::span<const std::byte> data);
// `u32 prefix` + zlib stream, the prefix chosen by `c` (or `prefix_override`).
Bytes compress_body(std::span<const std::byte> body, Compression c,
                    std::optional<uint32_t> prefix_override = std::nullopt);
// A SCENE body whose root starts a chain of `depth` nested nodes (the root is depth 1), written
// without recursion so that any depth works.
Bytes deep_node_chain_body(uint32_t depth, const WriterProfile& profile);

// ---------------------------------------------------------------------------------------------
// §5 shortened semantics, exposed so tests can state expected values.

// Paul Hsieh's SuperFastHash in Assimp's incremental form (seed = previous hash).
uint32_t super_fast_hash(std::span<const std::byte> data, uint32_t hash);
// SFH of one u32 written as 4 little-endian bytes.
uint32_t sfh_u32(uint32_t value, uint32_t hash);
// One hash per block of 512 faces.
std::vector<uint32_t> face_hashes(const std::vector<std::vector<uint32_t>>& faces);

template <size_t N>
struct FloatBounds {
    std::array<float, N> min;
    std::array<float, N> max;
};
FloatBounds<3> bounds_of(std::span<const F3> values);
FloatBounds<4> bounds_of(std::span<const F4> values);
struct WeightBounds {
    WeightSpec min, max;
};
WeightBounds bounds_of(std::span<const WeightSpec> weights);
struct VKeyBounds {
    VKeySpec min, max;
};
VKeyBounds bounds_of(std::span<const VKeySpec> keys);
struct QKeyBounds {
    QKeySpec min, max;
};
QKeyBounds bounds_of(std::span<const QKeySpec> keys);

// P1 MESH length deficit (§3) for a mesh written in full.
uint64_t short_length_deficit(const MeshSpec& mesh);

// Plain byte helpers.
Bytes to_bytes(std::string_view s);
Bytes concat(std::initializer_list<std::span<const std::byte>> parts);

} // namespace assbin_test
