// The test-side ASSBIN writer. Every layout decision cites ASSBIN-FORMAT.md; nothing here comes
// from the reader.
#include "support/dump_builder.hpp"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace assbin_test {

// ---------------------------------------------------------------------------------------------
// ByteWriter

namespace {

template <class T>
void append_le(Bytes& out, T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::array<std::byte, sizeof(T)> raw{};
    std::memcpy(raw.data(), &value, sizeof(T));
    if constexpr (std::endian::native == std::endian::big) std::reverse(raw.begin(), raw.end());
    out.insert(out.end(), raw.begin(), raw.end());
}

} // namespace

void ByteWriter::u8(uint8_t v) {
    bytes_.push_back(std::byte{v});
}
void ByteWriter::u16(uint16_t v) {
    append_le(bytes_, v);
}
void ByteWriter::u32(uint32_t v) {
    append_le(bytes_, v);
}
void ByteWriter::i32(int32_t v) {
    append_le(bytes_, v);
}
void ByteWriter::u64(uint64_t v) {
    append_le(bytes_, v);
}
void ByteWriter::f32(float v) {
    append_le(bytes_, std::bit_cast<uint32_t>(v));
}
void ByteWriter::f64(double v) {
    append_le(bytes_, std::bit_cast<uint64_t>(v));
}

void ByteWriter::str(std::string_view s) {
    u32(static_cast<uint32_t>(s.size()));
    raw(s);
}

void ByteWriter::raw(std::span<const std::byte> bytes) {
    bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
}

void ByteWriter::raw(std::string_view bytes) {
    for (char c : bytes)
        bytes_.push_back(static_cast<std::byte>(c));
}

void ByteWriter::fill(size_t count, uint8_t value) {
    bytes_.insert(bytes_.end(), count, std::byte{value});
}

void ByteWriter::padded(std::string_view s, size_t width) {
    raw(s.substr(0, std::min(s.size(), width)));
    if (s.size() < width) fill(width - s.size(), 0);
}

size_t ByteWriter::begin_chunk(uint32_t id) {
    size_t mark = bytes_.size();
    u32(id);
    u32(id); // the old writers' placeholder (§3); always patched by end_chunk
    return mark;
}

uint64_t ByteWriter::end_chunk(size_t mark, std::optional<uint32_t> length_override, uint64_t short_by) {
    uint64_t payload = bytes_.size() - mark - 8;
    patch_u32(mark + 4, length_override ? *length_override : static_cast<uint32_t>(payload - short_by));
    return payload;
}

void ByteWriter::patch_u32(size_t position, uint32_t v) {
    if (position + 4 > bytes_.size()) throw std::out_of_range("ByteWriter::patch_u32 past the end");
    for (int i = 0; i < 4; ++i)
        bytes_[position + i] = std::byte{static_cast<uint8_t>(v >> (8 * i))};
}

void ByteWriter::chunk(uint32_t id, std::span<const std::byte> payload, std::optional<uint32_t> length) {
    u32(id);
    u32(length ? *length : static_cast<uint32_t>(payload.size()));
    raw(payload);
}

// ---------------------------------------------------------------------------------------------
// Profiles (§6)

WriterProfile WriterProfile::p1() {
    WriterProfile p;
    p.label = "P1";
    p.node_metadata = false;
    p.texture_hint_bytes = 4;
    p.light_placement = false;
    p.vector_key_bytes = 24;
    p.short_lengths = true;
    p.header.revision = 0x08a5041e;
    p.header.compile_flags = 0x19;
    p.header.name = "models/input.obj";
    p.header.command = "-b ";
    return p;
}

WriterProfile WriterProfile::p1_prime() {
    WriterProfile p = p1();
    p.label = "P1'";
    p.header.revision = 0x2d6c47d3;
    p.header.compile_flags = 0x11;
    return p;
}

WriterProfile WriterProfile::p2() {
    WriterProfile p;
    p.label = "P2";
    p.node_metadata = false;
    p.texture_hint_bytes = 4;
    p.light_placement = false;
    p.header.revision = 0x0ebb209a;
    p.header.compile_flags = 0x11;
    p.header.name = "out/export.assbin";
    return p;
}

WriterProfile WriterProfile::p3() {
    WriterProfile p = p2();
    p.label = "P3";
    p.node_metadata = true;
    return p;
}

WriterProfile WriterProfile::p4() {
    WriterProfile p = p3();
    p.label = "P4";
    p.texture_hint_bytes = 8;
    p.header.revision = 0x5d3c2a61;
    p.header.command = "-b ";
    return p;
}

WriterProfile WriterProfile::p5() {
    WriterProfile p = p4();
    p.label = "P5";
    p.light_placement = true;
    p.header.revision = 0;
    p.header.compile_flags = 0x15;
    return p;
}

WriterProfile WriterProfile::p4_double() {
    WriterProfile p = p4();
    p.label = "P4 double";
    p.header.compile_flags = 0x31;
    return p;
}

WriterProfile WriterProfile::p5_double() {
    WriterProfile p = p5();
    p.label = "P5 double";
    p.mixed_double = true;
    p.header.compile_flags = 0x31;
    return p;
}

WriterProfile& WriterProfile::with_shortened(bool on) {
    shortened = on;
    return *this;
}

WriterProfile& WriterProfile::with_compression(Compression c) {
    compression = c;
    return *this;
}

// ---------------------------------------------------------------------------------------------
// Spec helpers

NodeSpec make_node(std::string name, std::vector<uint32_t> meshes, std::vector<NodeSpec> children,
                   std::vector<MetaSpec> metadata) {
    NodeSpec n;
    n.name = std::move(name);
    n.meshes = std::move(meshes);
    n.children = std::move(children);
    n.metadata = std::move(metadata);
    return n;
}

uint32_t MeshSpec::nv() const {
    if (vertex_count) return *vertex_count;
    if (positions) return static_cast<uint32_t>(positions->size());
    if (normals) return static_cast<uint32_t>(normals->size());
    if (tangents) return static_cast<uint32_t>(tangents->size());
    if (!colors.empty()) return static_cast<uint32_t>(colors[0].size());
    if (!uvs.empty()) return static_cast<uint32_t>(uvs[0].coords.size());
    return 0;
}

uint32_t MeshSpec::component_mask() const {
    uint32_t mask = 0;
    if (positions) mask |= 0x1;
    if (normals) mask |= 0x2;
    if (tangents && bitangents) mask |= 0x4;
    for (size_t n = 0; n < uvs.size() && n < 8; ++n)
        mask |= 0x100u << n;
    for (size_t n = 0; n < colors.size() && n < 8; ++n)
        mask |= 0x10000u << n;
    return mask;
}

namespace {

template <class T>
Bytes pod_bytes(const std::vector<T>& values) {
    Bytes out;
    for (const T& v : values)
        append_le(out, v);
    return out;
}

} // namespace

MatPropSpec prop_floats(std::string key, std::vector<float> values, uint32_t semantic, uint32_t index) {
    return {std::move(key), semantic, index, 1, pod_bytes(values), std::nullopt};
}

MatPropSpec prop_doubles(std::string key, std::vector<double> values, uint32_t semantic, uint32_t index) {
    return {std::move(key), semantic, index, 2, pod_bytes(values), std::nullopt};
}

MatPropSpec prop_string(std::string key, std::string_view value, uint8_t terminator, uint32_t semantic,
                        uint32_t index) {
    ByteWriter w;
    w.str(value);
    w.u8(terminator);
    return {std::move(key), semantic, index, 3, w.take(), std::nullopt};
}

MatPropSpec prop_ints(std::string key, std::vector<int32_t> values, uint32_t semantic, uint32_t index) {
    return {std::move(key), semantic, index, 4, pod_bytes(values), std::nullopt};
}

MatPropSpec prop_buffer(std::string key, Bytes data, uint32_t semantic, uint32_t index) {
    return {std::move(key), semantic, index, 5, std::move(data), std::nullopt};
}

TextureSpec compressed_texture(std::string hint, Bytes file) {
    TextureSpec t;
    t.width = static_cast<uint32_t>(file.size());
    t.height = 0;
    t.hint = std::move(hint);
    t.data = std::move(file);
    return t;
}

TextureSpec argb_texture(uint32_t width, uint32_t height, Bytes texels, std::string hint) {
    TextureSpec t;
    t.width = width;
    t.height = height;
    t.hint = std::move(hint);
    t.data = std::move(texels);
    return t;
}

Bytes to_bytes(std::string_view s) {
    Bytes out;
    for (char c : s)
        out.push_back(static_cast<std::byte>(c));
    return out;
}

Bytes concat(std::initializer_list<std::span<const std::byte>> parts) {
    Bytes out;
    for (auto part : parts)
        out.insert(out.end(), part.begin(), part.end());
    return out;
}

// ---------------------------------------------------------------------------------------------
// The body writer (§4)

namespace {

class BodyWriter {
  public:
    BodyWriter(const WriterProfile& profile, uint64_t image_base) : p_(profile), base_(image_base) {}

    void scene(const SceneSpec& s);
    void deep_chain(uint32_t depth);

    Bytes take() { return w_.take(); }
    std::vector<ChunkInfo> chunks() { return std::move(chunks_); }
    ByteWriter& writer() { return w_; }

  private:
    struct Open {
        size_t mark;
        size_t record;
    };

    Open open(uint32_t id, std::string path) {
        Open o{w_.begin_chunk(id), chunks_.size()};
        chunks_.push_back({id, std::move(path), base_ + o.mark, 0, 0});
        return o;
    }
    uint64_t close(Open o, std::optional<uint32_t> length_override = std::nullopt, uint64_t short_by = 0) {
        uint64_t payload = w_.end_chunk(o.mark, length_override, short_by);
        chunks_[o.record].payload = payload;
        chunks_[o.record].length =
            length_override ? *length_override : static_cast<uint32_t>(payload - short_by);
        return payload;
    }

    bool full() const { return !p_.shortened; }

    // Compound types (§0): the mixed double layout widens the first component and matrices.
    void first(float v) { p_.mixed_double ? w_.f64(v) : w_.f32(v); }
    void vec3(const F3& v) {
        first(v[0]);
        w_.f32(v[1]);
        w_.f32(v[2]);
    }
    void vec4(const F4& v) { // col4 and quat (w first) share the shape
        first(v[0]);
        w_.f32(v[1]);
        w_.f32(v[2]);
        w_.f32(v[3]);
    }
    void mat4(const M4& m) {
        for (float v : m)
            p_.mixed_double ? w_.f64(v) : w_.f32(v);
    }
    void vkey(const VKeySpec& k, bool padded) {
        w_.f64(k.time);
        vec3(k.value);
        if (padded) w_.fill(4, p_.key_padding);
    }
    void qkey(const QKeySpec& k) {
        w_.f64(k.time);
        vec4(k.value);
    }

    void vec3_array(const std::vector<F3>& values) {
        if (full()) {
            for (const F3& v : values)
                vec3(v);
        } else {
            auto b = bounds_of(std::span<const F3>(values));
            vec3(b.min);
            vec3(b.max);
        }
    }

    void node(const NodeSpec& n, const std::string& path);
    void node_fields(const NodeSpec& n);
    void meta(const MetaSpec& m);
    uint64_t mesh(const MeshSpec& m, const std::string& path);
    void faces(const MeshSpec& m);
    void bone(const BoneSpec& b, const std::string& path);
    void material(const MaterialSpec& m, const std::string& path);
    void animation(const AnimationSpec& a, const std::string& path);
    void channel(const ChannelSpec& c, const std::string& path);
    void texture(const TextureSpec& t, const std::string& path);
    void light(const LightSpec& l, const std::string& path);
    void camera(const CameraSpec& c, const std::string& path);

    const WriterProfile& p_;
    uint64_t base_;
    ByteWriter w_;
    std::vector<ChunkInfo> chunks_;
};

std::string indexed(const std::string& parent, const char* name, size_t i) {
    return parent + "/" + name + "[" + std::to_string(i) + "]";
}

template <class T>
uint32_t count_of(const std::optional<uint32_t>& declared, const std::vector<T>& v) {
    return declared ? *declared : static_cast<uint32_t>(v.size());
}

// §4.1
void BodyWriter::scene(const SceneSpec& s) {
    Open o = open(chunk::kScene, "scene");
    w_.u32(s.flags);
    w_.u32(static_cast<uint32_t>(s.meshes.size()));
    w_.u32(static_cast<uint32_t>(s.materials.size()));
    w_.u32(static_cast<uint32_t>(s.animations.size()));
    w_.u32(static_cast<uint32_t>(s.textures.size()));
    w_.u32(static_cast<uint32_t>(s.lights.size()));
    w_.u32(static_cast<uint32_t>(s.cameras.size()));
    node(s.root, "scene/node");
    w_.raw(s.after_root);
    uint64_t deficit = 0;
    for (size_t i = 0; i < s.meshes.size(); ++i)
        deficit += mesh(s.meshes[i], indexed("scene", "mesh", i));
    for (size_t i = 0; i < s.materials.size(); ++i)
        material(s.materials[i], indexed("scene", "material", i));
    for (size_t i = 0; i < s.animations.size(); ++i)
        animation(s.animations[i], indexed("scene", "animation", i));
    for (size_t i = 0; i < s.textures.size(); ++i)
        texture(s.textures[i], indexed("scene", "texture", i));
    for (size_t i = 0; i < s.lights.size(); ++i)
        light(s.lights[i], indexed("scene", "light", i));
    for (size_t i = 0; i < s.cameras.size(); ++i)
        camera(s.cameras[i], indexed("scene", "camera", i));
    w_.raw(s.trailing);
    close(o, s.length_override, deficit);
}

// §4.2
void BodyWriter::node_fields(const NodeSpec& n) {
    w_.str(n.name);
    mat4(n.transform);
    w_.u32(count_of(n.declared_children, n.children));
    w_.u32(count_of(n.declared_meshes, n.meshes));
    if (p_.node_metadata) w_.u32(count_of(n.declared_metadata, n.metadata));
    for (uint32_t m : n.meshes)
        w_.u32(m);
}

void BodyWriter::node(const NodeSpec& n, const std::string& path) {
    Open o = open(n.chunk_id.value_or(chunk::kNode), path);
    node_fields(n);
    for (size_t i = 0; i < n.children.size(); ++i)
        node(n.children[i], indexed(path, "node", i));
    if (p_.node_metadata) {
        for (const MetaSpec& m : n.metadata)
            meta(m);
    }
    w_.raw(n.trailing);
    close(o, n.length_override);
}

void BodyWriter::meta(const MetaSpec& m) {
    w_.str(m.key);
    w_.u16(m.type);
    std::visit(
        [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, bool>)
                w_.u8(v ? 1 : 0);
            else if constexpr (std::is_same_v<T, int32_t>)
                w_.i32(v);
            else if constexpr (std::is_same_v<T, uint64_t>)
                w_.u64(v);
            else if constexpr (std::is_same_v<T, float>)
                w_.f32(v); // f32 in every build (§4.2)
            else if constexpr (std::is_same_v<T, double>)
                w_.f64(v);
            else if constexpr (std::is_same_v<T, std::string>)
                w_.str(v);
            else if constexpr (std::is_same_v<T, F3>)
                vec3(v);
        },
        m.value);
}

void BodyWriter::deep_chain(uint32_t depth) {
    Open scene = open(chunk::kScene, "scene");
    w_.u32(0);
    for (int i = 0; i < 6; ++i)
        w_.u32(0);
    std::vector<Open> opened;
    opened.reserve(depth);
    NodeSpec n;
    n.name = "n";
    for (uint32_t level = 0; level < depth; ++level) {
        opened.push_back({w_.begin_chunk(chunk::kNode), 0});
        n.declared_children = level + 1 < depth ? 1 : 0;
        node_fields(n);
    }
    for (auto it = opened.rbegin(); it != opened.rend(); ++it)
        w_.end_chunk(it->mark);
    close(scene);
}

// §4.3. Returns this mesh's contribution to SCENE's P1 length deficit.
uint64_t BodyWriter::mesh(const MeshSpec& m, const std::string& path) {
    Open o = open(m.chunk_id.value_or(chunk::kMesh), path);
    uint32_t mask = m.component_mask();
    w_.u32(m.primitive_types);
    w_.u32(m.nv());
    w_.u32(count_of(m.declared_faces, m.faces));
    w_.u32(count_of(m.declared_bones, m.bones));
    w_.u32(m.material_index);
    w_.u32(mask);
    if (mask & 0x1) vec3_array(*m.positions);
    if (mask & 0x2) vec3_array(*m.normals);
    if (mask & 0x4) {
        vec3_array(*m.tangents);
        vec3_array(*m.bitangents);
    }
    for (const auto& set : m.colors) { // colors before UVs
        if (full()) {
            for (const F4& c : set)
                vec4(c);
        } else {
            auto b = bounds_of(std::span<const F4>(set));
            vec4(b.min);
            vec4(b.max);
        }
    }
    for (const UvSpec& uv : m.uvs) {
        w_.u32(uv.components);
        vec3_array(uv.coords);
    }
    faces(m);
    for (size_t i = 0; i < m.bones.size(); ++i)
        bone(m.bones[i], indexed(path, "bone", i));
    w_.raw(m.trailing);
    uint64_t deficit = (p_.short_lengths && full()) ? short_length_deficit(m) : 0;
    close(o, m.length_override, deficit);
    return deficit;
}

void BodyWriter::faces(const MeshSpec& m) {
    if (!full()) {
        for (uint32_t h : face_hashes(m.faces))
            w_.u32(h);
        return;
    }
    bool wide = m.nv() >= 65536;
    for (const auto& f : m.faces) {
        w_.u16(static_cast<uint16_t>(f.size()));
        for (uint32_t index : f)
            wide ? w_.u32(index) : w_.u16(static_cast<uint16_t>(index));
    }
}

// §4.4
void BodyWriter::bone(const BoneSpec& b, const std::string& path) {
    Open o = open(chunk::kBone, path);
    w_.str(b.name);
    w_.u32(count_of(b.declared_weights, b.weights));
    mat4(b.offset);
    auto weight = [&](const WeightSpec& ws) {
        w_.u32(ws.vertex);
        w_.f32(ws.weight);
    };
    if (full()) {
        for (const WeightSpec& ws : b.weights)
            weight(ws);
    } else {
        auto bounds = bounds_of(std::span<const WeightSpec>(b.weights));
        weight(bounds.min);
        weight(bounds.max);
    }
    close(o);
}

// §4.5
void BodyWriter::material(const MaterialSpec& m, const std::string& path) {
    Open o = open(chunk::kMaterial, path);
    w_.u32(count_of(m.declared_properties, m.properties));
    for (size_t i = 0; i < m.properties.size(); ++i) {
        const MatPropSpec& prop = m.properties[i];
        Open po = open(chunk::kMatProp, indexed(path, "property", i));
        w_.str(prop.key);
        w_.u32(prop.semantic);
        w_.u32(prop.index);
        w_.u32(prop.declared_length.value_or(static_cast<uint32_t>(prop.data.size())));
        w_.u32(prop.type);
        w_.raw(prop.data);
        close(po);
    }
    close(o);
}

// §4.6
void BodyWriter::animation(const AnimationSpec& a, const std::string& path) {
    Open o = open(chunk::kAnimation, path);
    w_.str(a.name);
    w_.f64(a.duration);
    w_.f64(a.ticks_per_second);
    w_.u32(static_cast<uint32_t>(a.channels.size()));
    for (size_t i = 0; i < a.channels.size(); ++i)
        channel(a.channels[i], indexed(path, "channel", i));
    close(o);
}

// §4.7
void BodyWriter::channel(const ChannelSpec& c, const std::string& path) {
    Open o = open(chunk::kNodeAnim, path);
    w_.str(c.node_name);
    w_.u32(static_cast<uint32_t>(c.positions.size()));
    w_.u32(static_cast<uint32_t>(c.rotations.size()));
    w_.u32(static_cast<uint32_t>(c.scalings.size()));
    w_.u32(c.pre_state);
    w_.u32(c.post_state);
    if (full()) {
        bool padded = !p_.mixed_double && p_.vector_key_bytes == 24;
        for (const VKeySpec& k : c.positions)
            vkey(k, padded);
        for (const QKeySpec& k : c.rotations)
            qkey(k);
        for (const VKeySpec& k : c.scalings)
            vkey(k, padded);
    } else {
        // Bounds for each array whose pointer was non-null: count > 0 in every observed file.
        if (!c.positions.empty()) {
            auto b = bounds_of(std::span<const VKeySpec>(c.positions));
            vkey(b.min, false);
            vkey(b.max, false);
        }
        if (!c.rotations.empty()) {
            auto b = bounds_of(std::span<const QKeySpec>(c.rotations));
            qkey(b.min);
            qkey(b.max);
        }
        if (!c.scalings.empty()) {
            auto b = bounds_of(std::span<const VKeySpec>(c.scalings));
            vkey(b.min, false);
            vkey(b.max, false);
        }
    }
    close(o);
}

// §4.8
void BodyWriter::texture(const TextureSpec& t, const std::string& path) {
    Open o = open(chunk::kTexture, path);
    w_.u32(t.width);
    w_.u32(t.height);
    w_.padded(t.hint, p_.texture_hint_bytes);
    if (full()) w_.raw(t.data);
    close(o);
}

// §4.9
void BodyWriter::light(const LightSpec& l, const std::string& path) {
    Open o = open(chunk::kLight, path);
    w_.str(l.name);
    w_.u32(l.type);
    if (p_.light_placement) {
        vec3(l.position);
        vec3(l.direction);
        vec3(l.up);
    }
    if (l.type != 1) {
        w_.f32(l.att_constant);
        w_.f32(l.att_linear);
        w_.f32(l.att_quadratic);
    }
    vec3(l.diffuse);
    vec3(l.specular);
    vec3(l.ambient);
    if (l.type == 3) {
        w_.f32(l.inner_cone);
        w_.f32(l.outer_cone);
    }
    close(o);
}

// §4.10
void BodyWriter::camera(const CameraSpec& c, const std::string& path) {
    Open o = open(chunk::kCamera, path);
    w_.str(c.name);
    vec3(c.position);
    vec3(c.look_at);
    vec3(c.up);
    w_.f32(c.horizontal_fov);
    w_.f32(c.clip_near);
    w_.f32(c.clip_far);
    w_.f32(c.aspect);
    close(o);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Header, compression, assembly (§1, §2)

Bytes build_header(const WriterProfile& profile) {
    const HeaderSpec& h = profile.header;
    ByteWriter w;
    w.padded(h.magic, 19);
    w.padded(h.timestamp, 25);
    w.u32(h.version_major);
    w.u32(h.version_minor);
    w.u32(h.revision);
    w.u32(h.compile_flags);
    w.u16(h.shortened.value_or(profile.shortened ? 1 : 0));
    w.u16(h.compressed.value_or(profile.compression != Compression::None ? 1 : 0));
    w.padded(h.name, 256);
    w.padded(h.command, 128);
    w.fill(64, h.reserved_byte);
    if (w.size() != kHeaderBytes) throw std::logic_error("header is not 512 bytes");
    return w.take();
}

Bytes zlib_compress(std::span<const std::byte> data) {
    uLongf bound = compressBound(static_cast<uLong>(data.size()));
    Bytes out(bound);
    int rc = compress2(reinterpret_cast<Bytef*>(out.data()), &bound,
                       reinterpret_cast<const Bytef*>(data.data()), static_cast<uLong>(data.size()), 9);
    if (rc != Z_OK) throw std::runtime_error("compress2 failed");
    out.resize(bound);
    return out;
}

Bytes compress_body(std::span<const std::byte> body, Compression c, std::optional<uint32_t> prefix_override) {
    Bytes stream = zlib_compress(body);
    uint32_t prefix = c == Compression::OldPrefix ? static_cast<uint32_t>(stream.size())
                                                  : static_cast<uint32_t>(body.size());
    ByteWriter w;
    w.u32(prefix_override.value_or(prefix));
    w.raw(stream);
    return w.take();
}

Bytes assemble(const WriterProfile& profile, std::span<const std::byte> body) {
    Bytes out = build_header(profile);
    if (profile.compression == Compression::None) {
        out.insert(out.end(), body.begin(), body.end());
    } else {
        Bytes packed = compress_body(body, profile.compression, profile.prefix_override);
        out.insert(out.end(), packed.begin(), packed.end());
    }
    return out;
}

Dump build_body(const SceneSpec& scene, const WriterProfile& profile) {
    BodyWriter bw(profile, kHeaderBytes);
    bw.scene(scene);
    Dump d;
    d.body = bw.take();
    d.chunks = bw.chunks();
    return d;
}

Dump build_dump(const SceneSpec& scene, const WriterProfile& profile) {
    Dump d = build_body(scene, profile);
    d.bytes = assemble(profile, d.body);
    return d;
}

Bytes deep_node_chain_body(uint32_t depth, const WriterProfile& profile) {
    BodyWriter bw(profile, kHeaderBytes);
    bw.deep_chain(depth);
    return bw.take();
}

const ChunkInfo& Dump::chunk(std::string_view path) const {
    for (const ChunkInfo& c : chunks) {
        if (c.path == path) return c;
    }
    throw std::out_of_range("no chunk " + std::string(path));
}

} // namespace assbin_test
