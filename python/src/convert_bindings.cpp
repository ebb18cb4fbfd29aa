// assbin.convert: a dump (path or Scene) to an AEM model or a glTF file, written atomically with its textures
// (write_output) or returned in memory; the options are the CLI's. Returns a dict the package
// turns into its ConvertResult class.
#include "bindings.hpp"
#include "model_ref.hpp"
#include "named_error.hpp"
#include "scene_ref.hpp"
#include "text.hpp"

#include "output_target.hpp"

#include <assbin/converter/convert.hpp>
#include <assbin/reader.hpp>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <optional>
#include <stdexcept>
#include <thread>

namespace py = pybind11;

namespace assbin::python {

namespace {

py::dict stats_dict(const converter::ConvertStats& s) {
    py::dict d;
#define ASSBIN_STAT(field) d[#field] = s.field
    ASSBIN_STAT(vertices);
    ASSBIN_STAT(triangles);
    ASSBIN_STAT(meshes);
    ASSBIN_STAT(meshes_omitted);
    ASSBIN_STAT(bones);
    ASSBIN_STAT(animations);
    ASSBIN_STAT(textures_written);
    ASSBIN_STAT(polygons_triangulated);
    ASSBIN_STAT(points_dropped);
    ASSBIN_STAT(lines_dropped);
    ASSBIN_STAT(colour_sets_dropped);
    ASSBIN_STAT(uv_channels_dropped);
    ASSBIN_STAT(cameras_dropped);
    ASSBIN_STAT(lights_dropped);
    ASSBIN_STAT(texture_slots_dropped);
    ASSBIN_STAT(empty_faces);
    ASSBIN_STAT(faces_out_of_range);
    ASSBIN_STAT(faces_non_finite);
    ASSBIN_STAT(vertices_lost_influences);
    ASSBIN_STAT(meshes_normals_generated);
    ASSBIN_STAT(meshes_tangents_generated);
    ASSBIN_STAT(vertices_split_for_tangents);
    ASSBIN_STAT(source_vertices);
    ASSBIN_STAT(source_meshes);
    ASSBIN_STAT(source_vertices_transformed);
    ASSBIN_STAT(vertices_transformed);
    ASSBIN_STAT(degenerate_triangles);
    ASSBIN_STAT(meshes_ordered_linearly);
    ASSBIN_STAT(lines);
    ASSBIN_STAT(points);
    ASSBIN_STAT(cameras);
    ASSBIN_STAT(lights);
    ASSBIN_STAT(nodes);
    ASSBIN_STAT(keys);
    ASSBIN_STAT(keys_removed);
    ASSBIN_STAT(key_error_measured);
#undef ASSBIN_STAT
    return d;
}

} // namespace

void bind_convert(py::module_& m) {
    m.def(
        "_convert",
        [](const py::object& source, std::optional<std::filesystem::path> destination, int layout,
           bool compress, std::vector<std::filesystem::path> texture_dirs, uint32_t uv_channel,
           double ticks_per_second, float crease_angle, bool optimize, bool keep_meshes,
           bool keep_embedded_bytes, uint32_t max_texture_size, unsigned threads, const std::string& format,
           bool quantize, bool meshopt, double key_error, bool strict, std::optional<uint64_t> max_inflated_mb,
           std::optional<uint64_t> max_inflate_ratio, std::optional<uint32_t> max_node_depth,
           std::optional<uint64_t> max_allocation_ratio) {
            if (layout != 2024 && layout != 2025) throw py::value_error("layout must be 2024 or 2025");
            if (format == "aem" && layout == 2024 &&
                (compress || max_texture_size > 0 || !texture_dirs.empty()))
                throw py::value_error("compress, max_texture_size and texture_dirs work on the 2025 layout's "
                                      "textures: pass layout=2025");
            if (uv_channel > 7) throw py::value_error("uv_channel must be 0..7");
            if (!(ticks_per_second > 0)) throw py::value_error("ticks_per_second must be positive");
            if (!(crease_angle >= 0 && crease_angle <= 180))
                throw py::value_error("crease_angle must be 0..180");
            if (!(key_error >= 0 && key_error <= 0.1)) throw py::value_error("key_error must be 0..0.1");
            converter::ConvertOptions options;
            options.format = format == "glb"    ? converter::OutputFormat::Glb
                             : format == "gltf" ? converter::OutputFormat::Gltf
                                                : converter::OutputFormat::Aem;
            options.quantize = quantize;
            options.meshopt = meshopt;
            options.layout = layout == 2025 ? aem::Layout::Edition2025 : aem::Layout::Edition2024;
            options.compress_textures = compress;
            options.texture_folders = std::move(texture_dirs);
            options.uv_channel = uv_channel;
            options.default_ticks_per_second = ticks_per_second;
            options.crease_angle_degrees = crease_angle;
            options.key_error = key_error;
            options.optimize = optimize;
            options.keep_meshes = keep_meshes;
            options.keep_embedded_bytes = keep_embedded_bytes;
            options.max_texture_size = max_texture_size;
            options.threads = options.texture_threads = threads;
            if (destination) options.texture_stem = destination->stem().string();
            std::shared_ptr<const Scene> scene;
            std::optional<std::filesystem::path> path;
            if (py::isinstance<SceneRef>(source))
                scene = py::cast<const SceneRef&>(source).scene;
            else
                path = py::cast<std::filesystem::path>(source);
            // No output replaces an input (common/output_target.hpp), refused before anything is read;
            // the run is registered even for a Scene, so that the images it reads are inputs too. Nor
            // a file holding something else than the output writes, unless named with its extension.
            const assbin_common::InputFiles inputs(path ? std::vector<std::filesystem::path>{*path}
                                                        : std::vector<std::filesystem::path>{});
            if (destination) {
                try {
                    assbin_common::refuse_input_as_output(*destination, inputs);
                    if (assbin_common::output_kind(*destination) == assbin_common::OutputKind::File) {
                        const assbin_common::Content writes =
                            options.format == converter::OutputFormat::Glb ? assbin_common::Content::Glb
                            : options.format == converter::OutputFormat::Gltf
                                ? assbin_common::Content::GltfJson
                                : assbin_common::Content::Aem;
                        assbin_common::refuse_other_content(*destination, writes, "convert");
                    }
                } catch (const assbin_common::OutputRefused& refused) {
                    throw py::value_error(refused.what());
                }
            }
            converter::ConvertResult result;
            {
                py::gil_scoped_release unlocked;
                const ReadOptions read = read_options(strict, max_inflated_mb, max_inflate_ratio,
                                                      max_node_depth, max_allocation_ratio, threads);
                if (path) {
                    options.source_folder = path->parent_path();
                    try {
                        scene = std::make_shared<const Scene>(read_file(*path, read));
                    } catch (const ParseError& error) {
                        throw NamedReadError(error, *path);
                    }
                }
                result = converter::convert(*scene, options);
                if (destination) {
                    try {
                        converter::drop_textures_for_stream(result, *destination);
                        converter::write_output(result, *destination);
                    } catch (...) { // an output that cannot be written: OSError naming it
                        rethrow_as_output_error(*destination);
                    }
                }
            }
            py::dict out(py::arg("stats") = stats_dict(result.stats),
                         py::arg("warnings") = text_list(result.warnings));
            out["format"] = converter::format_name(result.format);
            out["data"] = py::none();
            out["model"] = py::none();
            if (!destination && result.format == converter::OutputFormat::Aem)
                out["model"] =
                    py::cast(ModelRef{std::make_shared<const aem::Model>(std::move(result.model))});
            if (!destination && result.format == converter::OutputFormat::Glb)
                out["data"] =
                    py::bytes(reinterpret_cast<const char*>(result.encoded.data()), result.encoded.size());
            // Without a destination the textures a written model would have beside it come back by
            // name (what textures_written counts); with one they are on disk.
            py::dict textures;
            if (!destination) {
                for (const converter::TextureFile& file : result.textures)
                    textures[text(file.name)] =
                        py::bytes(reinterpret_cast<const char*>(file.bytes.data()), file.bytes.size());
            }
            out["textures"] = textures;
            return out;
        },
        py::arg("source"), py::arg("destination"), py::arg("layout"), py::arg("compress"),
        py::arg("texture_dirs"), py::arg("uv_channel"), py::arg("ticks_per_second"), py::arg("crease_angle"),
        py::arg("optimize"), py::arg("keep_meshes"), py::arg("keep_embedded_bytes"),
        py::arg("max_texture_size"), py::arg("threads"), py::arg("format"), py::arg("quantize"),
        py::arg("meshopt"), py::arg("key_error"), py::arg("strict"), py::arg("max_inflated_mb"), py::arg("max_inflate_ratio"),
        py::arg("max_node_depth"), py::arg("max_allocation_ratio"));
}

} // namespace assbin::python
