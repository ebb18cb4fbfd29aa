// The converter: an assbin::Scene becomes an aem::Model that poses like the source, following
// "How a scene becomes AEM" in ../shared/AEM-FORMAT.md rule by rule. convert() works in memory;
// write_output() puts the model and its extracted textures on disk atomically.
#pragma once

#include <aem/model.hpp>
#include <assbin/types.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace assbin::converter {

// What convert() makes: an AEM model (in the layout ConvertOptions::layout names), or a glTF 2.0
// file, binary (.glb: JSON and buffer in one file) or text (.gltf with its .bin and images beside).
enum class OutputFormat { Aem, Glb, Gltf };

// The format an output file name asks for by its extension (".aem", ".glb", ".gltf", any case), or
// nullopt for any other extension.
std::optional<OutputFormat> format_of_file_name(const std::filesystem::path& name);
// "aem", "glb", "gltf"; and the extension (with its dot) outputs of the format get.
const char* format_name(OutputFormat format);
const char* format_extension(OutputFormat format);

// The key error --quantize implies (a glTF quantized for size gives up exactness already).
inline constexpr double kQuantizedKeyError = 1e-4;

struct ConvertOptions {
    // The output's format. glTF keeps what AEM cannot hold (the node tree, every UV and colour set,
    // points and lines, cameras and lights); the layout and texture options below are AEM's.
    OutputFormat format = OutputFormat::Aem;
    // glTF: KHR_mesh_quantization, with gltfpack's bit counts: positions as 14-bit integers (the
    // dequantization folded into the mesh's node, or a skin's inverse bind matrices), normals and
    // tangents as 8-bit normalized bytes, UVs within 0..1 as 12-bit values in normalized shorts,
    // colours as normalized bytes; weights as normalized shorts (8 bits move skinned vertices by up
    // to 1e-3 of the model's size).
    bool quantize = false;
    // glTF: EXT_meshopt_compression, meshoptimizer's own encoders over every vertex attribute and
    // index buffer (required by the file; viewers decode it with meshoptimizer's decoders).
    bool meshopt = false;
    // The UV channel written to the vertices (and used for tangents); a mesh without it gets (0, 0).
    uint32_t uv_channel = 0;
    // Used for animations whose ticks per second is 0 (unspecified); 25 is the Assimp viewer's choice.
    double default_ticks_per_second = 25.0;
    // Generated normals are smoothed across edges whose faces meet at less than this angle.
    float crease_angle_degrees = 60.0f;
    // Compressed embedded textures are written byte for byte (extension from their format hint)
    // instead of being decoded and re-encoded as bottom-row-first PNG.
    bool keep_embedded_bytes = false;
    // Whether the cameras and lights an AEM model cannot hold are warnings (counted in the stats
    // either way). `render` turns it off: it draws with its own camera and lights, whatever the file.
    bool warn_cameras_and_lights_dropped = true;
    // Animation keys removed while no vertex moves more than this fraction of the model's size (the
    // diagonal of its bounding box at rest) at any source key time; every writer (AEM 2024 and
    // 2025, glTF) gets the same tracks. 0 keeps every key, as before (the default). The command line
    // and Python's convert take kQuantizedKeyError with --quantize unless given one.
    double key_error = 0;
    // Files beside the model are named from this: the 2024 AEM layout's images "<texture_stem>_<n>.png"
    // (or .jpg), a .gltf's "<texture_stem>.bin" and "<texture_stem>.<n>.png" (or .jpg); the two
    // formats never claim one name. write_output's callers pass the output file's stem (the CLI does).
    std::string texture_stem = "model";
    // Which AEM layout to write (../shared/AEM-FORMAT.md): the 2024 edition this project implements
    // (the default), or the 2025 one today's AEM runtime loads (joints, tracks, texels in the file).
    aem::Layout layout = aem::Layout::Edition2024;
    // 2025 layout: where external texture names are looked for, after the names as given relative to
    // `source_folder` (the dump's folder; the CLI sets it).
    std::filesystem::path source_folder;
    std::vector<std::filesystem::path> texture_folders;
    // 2025 layout: textures are resized to powers of two no larger than this (0: kept as they are).
    uint32_t max_texture_size = 0;
    // 2025 layout: an image of more pixels is not decoded (a warning, the factor texture instead).
    uint64_t max_texture_pixels = uint64_t{64} << 20;
    // 2025 layout: every level of every texture block-compressed, as today's AEM tools store them:
    // normal maps as BC5 (libsquish), base colour and PBR as BC7 (bc7_encode.cpp).
    bool compress_textures = false;
    // 2025 layout: threads that build MIP chains and compress, 0 for one per core. Apart from
    // `threads` because texture work is compute-bound and pays off where baking does not.
    unsigned texture_threads = 1;
    // Fill ConvertResult::vertex_origins (tests use it to compare poses vertex by vertex).
    bool record_vertex_origins = false;
    // Game-ready geometry (the default): vertices whose 92-byte records are identical (-0.0 taken
    // as +0.0) are welded into one, triangles are put in vertex-cache then overdraw order and
    // vertices in first-use order (meshoptimizer). False writes every vertex and triangle in source
    // order, one mesh per (node, mesh) reference: the converter's output before optimisation, for
    // debugging a pose against the source.
    bool optimize = true;
    // With optimize: one AEM mesh per (node, mesh) reference instead of one per material. Merging
    // keeps node animation working, since every vertex carries its own (extra) bone.
    bool keep_meshes = false;
    // Threads that bake and skin a large scene (65,536 vertices or more) block by block: 1 (the
    // default) converts on the calling thread only, 0 means one per core. The model is the same
    // either way. More threads pay off only with cores to spare and memory already mapped: on a busy
    // 2-core VM the helpers' page faults contend in the kernel (see tests/bench/convert_bench.cpp).
    unsigned threads = 1;
};

// What a conversion did, for the one-line summary and the totals.
struct ConvertStats {
    size_t vertices = 0;
    size_t triangles = 0;
    size_t meshes = 0;         // AEM meshes: one per material used, or per reference (keep_meshes)
    size_t meshes_omitted = 0; // references whose mesh kept no triangle
    size_t bones = 0;
    size_t animations = 0;
    size_t textures_written = 0; // embedded textures extracted beside the model
    size_t polygons_triangulated = 0;
    size_t points_dropped = 0;
    size_t lines_dropped = 0;
    size_t colour_sets_dropped = 0; // vertex colour sets of the meshes with vertices (AEM has none)
    size_t uv_channels_dropped = 0; // UV channels other than the one converted, likewise
    size_t cameras_dropped = 0;
    size_t lights_dropped = 0;
    size_t texture_slots_dropped = 0; // texture files named in slots the layout has no place for
    size_t empty_faces = 0;
    size_t faces_out_of_range = 0;       // faces dropped because an index is not below the vertex count
    size_t faces_non_finite = 0;         // faces dropped because a corner's position is NaN or infinite
    size_t vertices_lost_influences = 0; // emitted vertices that had more than four bone weights
    size_t meshes_normals_generated = 0;
    size_t meshes_tangents_generated = 0;
    size_t vertices_split_for_tangents = 0; // vertices whose corners fall in different MikkTSpace groups
    // Geometry before and after optimisation, for "before -> after" reports and batch totals.
    // ACMR (vertices transformed per triangle, 16-entry FIFO cache) = transformed / triangles.
    size_t source_vertices = 0;             // vertices written in source order (what optimize=false gives)
    size_t source_meshes = 0;               // one per (node, mesh) reference with triangles
    size_t source_vertices_transformed = 0; // by the source-order index buffer
    size_t vertices_transformed = 0;        // by the written index buffer
    size_t degenerate_triangles = 0;        // triangles with two equal corners: kept, counted
    // Output meshes whose vertices carry so many triangles (a fan, stacked duplicates) that
    // Forsyth's vertex-cache order would cost more than linear time: ordered by Tipsify instead.
    size_t meshes_ordered_linearly = 0;
    // glTF only: what it keeps that AEM drops.
    size_t lines = 0;  // written as LINES primitives
    size_t points = 0; // written as POINTS primitives
    size_t cameras = 0;
    size_t lights = 0;
    size_t nodes = 0; // glTF nodes (the dump's, plus those placing cameras, lights and skinned meshes)
    // Animation keys (options.key_error): the keys of the tracks written, and how many of them the
    // reduction removed.
    size_t keys = 0;
    size_t keys_removed = 0;
    // The largest distance any vertex moved, at a source key time, because keys were removed (and
    // glTF rotations rounded to 16 bits), as a fraction of the model's size: measured on the tracks
    // written, against the same tracks with every key (at most key_error).
    double key_error_measured = 0;
};

// An extracted texture: its name (beside the model, as the AEM texture section says) and bytes.
struct TextureFile {
    std::string name;
    std::vector<std::byte> bytes;
};

// Where an AEM vertex came from: the node holding the mesh, the mesh and its vertex.
struct VertexOrigin {
    uint32_t node = 0;
    uint32_t mesh = 0;
    uint32_t vertex = 0;
};

// An external image a conversion looked for, by the name a material gives: the file it found (empty
// when none was) and the content it read (XXH3 of the bytes, as --skip-existing keys files). What
// --skip-existing keys besides the dump: an image edited, added where one was missing, or removed
// makes the output stale.
struct ImageLookup {
    std::string name;
    std::filesystem::path found;
    bool read = false; // found and read whole (a file that could not be read keys nothing)
    uint64_t bytes = 0;
    uint64_t xxh3 = 0;
};

struct ConvertResult {
    OutputFormat format = OutputFormat::Aem;
    aem::Model model;                  // OutputFormat::Aem
    std::vector<std::byte> encoded;    // the .glb or .gltf file's bytes (other formats)
    std::vector<std::string> warnings; // one sentence each, naming the mesh, node or material
    ConvertStats stats;
    std::vector<TextureFile> textures;        // to write beside the model (a .gltf's .bin and images too)
    std::vector<ImageLookup> image_lookups;   // every external image looked for, in order (2025 layout, glTF)
    std::vector<VertexOrigin> vertex_origins; // per model vertex, when options.record_vertex_origins
    // glTF, when options.record_vertex_origins: per glTF mesh, per primitive, per vertex, the dump
    // vertex it came from (of the dump mesh the glTF mesh stands for); per glTF node, the dump node
    // it stands for or places a mesh, camera or light of (-1 for none).
    std::vector<std::vector<std::vector<uint32_t>>> gltf_origins;
    std::vector<int64_t> gltf_node_sources;
    std::vector<uint32_t> gltf_mesh_sources;                   // per glTF mesh: the dump mesh
    std::vector<uint32_t> gltf_animation_sources;              // per glTF animation: the dump animation
    std::vector<std::pair<std::string, double>> stage_seconds; // time per conversion stage, in order
};

// Why a scene is refused. Each is a fact about the input, never a converter fault, except Internal.
enum class Refusal {
    Shortened,    // the dump holds bounds and hashes instead of vertices and faces
    NoTriangles,  // no mesh keeps a triangle (no meshes, only points/lines, or only broken faces)
    NameTooLong,  // a texture or animation name over 127 bytes (up to its first NUL, as C reads it)
    NonFinite,    // a node transform holds NaN or infinity, so no vertex has a place
    BadReference, // a mesh, material, embedded texture or bone-weight vertex index outside its array
    Internal,     // the model broke an AEM invariant: a converter bug, reported instead of written
};

// A short stable name for the refusal ("shortened", "no-triangles", ...).
const char* refusal_name(Refusal refusal);

// Thrown by convert() when the scene cannot become a valid AEM model; what() is a sentence naming
// the mesh, material or node at fault.
class ConvertError : public std::runtime_error {
  public:
    ConvertError(Refusal refusal, const std::string& message)
        : std::runtime_error(message), refusal_(refusal) {}
    Refusal refusal() const { return refusal_; }

  private:
    Refusal refusal_;
};

// Converts a full dump. Throws ConvertError when the scene is refused (see Refusal); recoverable
// problems (dropped faces, unknown bone or channel names, broken texture references, ...) become
// warnings. The model passes aem::validate().
ConvertResult convert(const assbin::Scene& scene, const ConvertOptions& options = {});
// The same for a scene the caller gives up: its meshes' arrays are released as soon as they are
// baked into the model, before the tangents and optimisation (for a mesh of a million triangles,
// 29 MB less at the peak). The scene is left valid but without meshes.
ConvertResult convert(assbin::Scene&& scene, const ConvertOptions& options = {});

// The file an external image name resolves to, as convert() finds it: the name as given (Windows
// separators taken as '/') relative to options.source_folder, then each of options.texture_folders;
// in each, by file name ignoring case when the exact name is missing. nullopt when none is found.
std::optional<std::filesystem::path> find_image_file(const std::string& name, const ConvertOptions& options);

// Writes every texture of `result` beside `aem_path` and the model at `aem_path`, each to a
// temporary name first; renames happen only once all of them are complete, the model last. On
// failure the temporaries, and any file this call already renamed into place, are removed and
// aem::Error (code Io, or as aem::write_model) is thrown: no partial output is ever left.
// The output is refused (aem::Error, naming it and why) when it is one of the inputs of a run under
// way (an assbin_common::InputFiles of this process) or an existing folder, block device or socket.
// An existing character device or FIFO is written into as a stream, without its textures.
void write_output(const ConvertResult& result, const std::filesystem::path& aem_path);

// Whether `aem_path` is an existing character device or FIFO, which the model is streamed into.
bool output_is_stream(const std::filesystem::path& aem_path);
// For a model going into a stream: its texture files, which have no folder to go beside it, are
// dropped from `result` with a warning that counts them (write_output would skip them silently).
void drop_textures_for_stream(ConvertResult& result, const std::filesystem::path& aem_path);

// Outputs of a batch written one after another and made durable together: add() writes an output's
// files to temporaries without waiting for the disk, commit() flushes each file system once, renames
// every output's files into place (its textures, then its model) and flushes once more for the
// renames. Two waits for the disk per batch instead of two per file (a batch of four files or fewer,
// such as one model and its textures, flushes each file instead: a file system's flush also waits
// for every other program's writing); what is left is what write_output leaves: each output whole
// in place or none of it, never a partial file.
class OutputBatch {
  public:
    OutputBatch();
    ~OutputBatch(); // removes the temporaries of outputs added and not committed
    OutputBatch(const OutputBatch&) = delete;
    OutputBatch& operator=(const OutputBatch&) = delete;

    // Writes the output's files to temporaries. Throws as write_output (nothing of it is kept).
    // Returns the model's temporary, which holds the bytes commit() puts at aem_path.
    std::filesystem::path add(const ConvertResult& result, const std::filesystem::path& aem_path);
    // Publishes every output added since the last commit. Returns, per output in the order added,
    // an empty string or why it could not be written (its files are then removed).
    std::vector<std::string> commit();
    size_t size() const { return outputs_.size(); }

  private:
    struct Output;
    std::vector<std::unique_ptr<Output>> outputs_;
};

// Removes the temporary files that write_output() calls and OutputBatch objects hold at this moment.
// Async-signal- safe: a program's SIGINT/SIGTERM handler calls it so that an interrupted conversion leaves no
// partial file behind (SIGKILL cannot be caught; its temporaries keep a hidden ".name.tmp-" name).
void remove_pending_outputs() noexcept;

} // namespace assbin::converter
