// assbin.aem: AEM models (either layout) with their vertex records as read-only array views,
// validation and pose evaluation.
#include "array_views.hpp"
#include "bindings.hpp"
#include "model_ref.hpp"
#include "named_error.hpp"
#include "source_argument.hpp"
#include "text.hpp"
#include "value_equality.hpp"

#include <counting.hpp>

#include <aem/io.hpp>
#include <aem/pose.hpp>
#include <aem/validate.hpp>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>
#include <cstring>

namespace py = pybind11;

namespace assbin::python {

namespace {

// A field of every vertex record: `components` values of T from the field at `field`.
template <class T>
py::array vertex_field(const ModelRef& r, const void* field, py::ssize_t components) {
    const std::vector<aem::Vertex>& v = r.model->vertices;
    const T* first = v.empty() ? nullptr : static_cast<const T*>(field);
    return view_of(first, {py::ssize_t(v.size()), components}, {sizeof(aem::Vertex), sizeof(T)},
                   keep_alive(r.model));
}

const aem::Vertex* first_vertex(const ModelRef& r) {
    static const aem::Vertex kNoVertex{};
    return r.model->vertices.empty() ? &kNoVertex : &r.model->vertices.front();
}

py::array pose_array(const std::vector<Eigen::Matrix4f>& matrices) {
    py::array_t<float> out({py::ssize_t(matrices.size()), py::ssize_t(4), py::ssize_t(4)});
    auto view = out.mutable_unchecked<3>();
    for (size_t b = 0; b < matrices.size(); ++b)
        for (int row = 0; row < 4; ++row)
            for (int column = 0; column < 4; ++column)
                view(py::ssize_t(b), row, column) = matrices[b](row, column);
    return out;
}

} // namespace

void bind_aem(py::module_& m) {
    py::class_<ModelRef>(m, "Model", "An AEM model; vertex attributes are read-only views of its records.")
        .def_property_readonly(
            "layout",
            [](const ModelRef& r) { return r.model->layout == aem::Layout::Edition2025 ? 2025 : 2024; })
        .def_property_readonly(
            "positions",
            [](const ModelRef& r) { return vertex_field<float>(r, first_vertex(r)->position.data(), 3); },
            "float32 (vertices, 3), model space")
        .def_property_readonly(
            "normals",
            [](const ModelRef& r) { return vertex_field<float>(r, first_vertex(r)->normal.data(), 3); })
        .def_property_readonly(
            "tangents",
            [](const ModelRef& r) { return vertex_field<float>(r, first_vertex(r)->tangent.data(), 3); })
        .def_property_readonly(
            "bitangents",
            [](const ModelRef& r) { return vertex_field<float>(r, first_vertex(r)->bitangent.data(), 3); })
        .def_property_readonly(
            "uvs", [](const ModelRef& r) { return vertex_field<float>(r, first_vertex(r)->uv.data(), 2); })
        .def_property_readonly(
            "bone_indices",
            [](const ModelRef& r) {
                return vertex_field<int32_t>(r, first_vertex(r)->bone_indices.data(), 4);
            },
            "int32 (vertices, 4); -1 for an unused slot")
        .def_property_readonly(
            "bone_weights",
            [](const ModelRef& r) { return vertex_field<float>(r, first_vertex(r)->bone_weights.data(), 4); })
        .def_property_readonly(
            "extra_bones",
            [](const ModelRef& r) { return vertex_field<int32_t>(r, &first_vertex(r)->extra_bone, 1); },
            "int32 (vertices, 1): the 2024 layout's mesh-animation bone, -1 for none")
        .def_property_readonly("indices",
                               [](const ModelRef& r) {
                                   const std::vector<uint32_t>& i = r.model->indices;
                                   return view_of(i.data(), {py::ssize_t(i.size())}, {sizeof(uint32_t)},
                                                  keep_alive(r.model));
                               })
        .def_property_readonly("meshes",
                               [](const ModelRef& r) {
                                   py::list out;
                                   for (const aem::Mesh& mesh : r.model->meshes)
                                       out.append(py::dict(py::arg("first_index") = mesh.first_index,
                                                           py::arg("index_count") = mesh.index_count,
                                                           py::arg("material") = mesh.material));
                                   return out;
                               })
        .def_property_readonly(
            "materials",
            [](const ModelRef& r) {
                py::list out;
                for (const aem::Material& material : r.model->materials)
                    out.append(py::dict(py::arg("base_color_texture") = material.base_color_texture,
                                        py::arg("normal_texture") = material.normal_texture,
                                        py::arg("orm_texture") = material.orm_texture,
                                        py::arg("type") = material.type));
                return out;
            })
        .def_property_readonly(
            "textures",
            [](const ModelRef& r) {
                py::list out;
                for (const aem::Texture& t : r.model->textures)
                    out.append(py::dict(py::arg("file_name") = text(t.file_name),
                                        py::arg("image_offset") = t.image_offset, py::arg("width") = t.width,
                                        py::arg("height") = t.height, py::arg("channels") = t.channels,
                                        py::arg("compression") = t.compression));
                return out;
            })
        .def_property_readonly("image_buffer",
                               [](const ModelRef& r) {
                                   const std::vector<uint8_t>& b = r.model->image_buffer;
                                   return view_of(b.data(), {py::ssize_t(b.size())}, {1},
                                                  keep_alive(r.model));
                               })
        .def_property_readonly("bone_parents",
                               [](const ModelRef& r) {
                                   std::vector<int32_t> out;
                                   for (const aem::Bone& bone : r.model->bones)
                                       out.push_back(bone.parent);
                                   return out;
                               })
        .def_property_readonly("bone_names",
                               [](const ModelRef& r) {
                                   std::vector<std::string> out;
                                   for (const aem::Bone& bone : r.model->bones)
                                       out.push_back(bone.name);
                                   return text_list(out);
                               })
        .def_property_readonly(
            "inverse_binds",
            [](const ModelRef& r) {
                const std::vector<aem::Bone>& bones = r.model->bones;
                // Column-major in memory (as in the file): element (row, column) at (column * 4 + row).
                return view_of(bones.empty() ? nullptr : bones.front().inverse_bind.data(),
                               {py::ssize_t(bones.size()), 4, 4},
                               {sizeof(aem::Bone), sizeof(float), 4 * sizeof(float)}, keep_alive(r.model));
            },
            "float32 (bones, 4, 4)")
        .def_property_readonly(
            "animations",
            [](const ModelRef& r) {
                py::list out;
                for (const aem::Animation& a : r.model->animations)
                    out.append(py::dict(py::arg("name") = text(a.name), py::arg("duration") = a.duration,
                                        py::arg("first_sequence") = a.first_sequence));
                return out;
            },
            "name, duration in seconds, first sequence")
        .def(
            "validate",
            [](const ModelRef& r) {
                py::list out;
                for (const aem::Violation& v : aem::validate(*r.model))
                    out.append(py::make_tuple(aem::rule_name(v.rule), text(v.location), text(v.message)));
                return out;
            },
            "(rule, location, message) for every broken invariant; empty when valid")
        .def(
            "_pose",
            [](const ModelRef& r, std::optional<int64_t> animation, double time) {
                if (animation && (*animation < 0 || uint64_t(*animation) >= r.model->animations.size()))
                    throw py::index_error("animation " + std::to_string(*animation) +
                                          ": no such animation (the model has " +
                                          std::to_string(r.model->animations.size()) + ", numbered from 0)");
                if (!std::isfinite(time)) throw py::value_error("time must be a finite number of seconds");
                const std::optional<uint32_t> index =
                    animation ? std::optional<uint32_t>(uint32_t(*animation)) : std::nullopt;
                aem::Pose pose;
                {
                    py::gil_scoped_release unlocked;
                    pose = aem::evaluate_pose(*r.model, index, float(time));
                }
                return pose_array(pose.skinning);
            },
            py::arg("animation"), py::arg("time"))
        .def("to_bytes",
             [](const ModelRef& r) {
                 const std::vector<std::byte> bytes = aem::to_bytes(*r.model);
                 return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
             })
        .def("__reduce__",
             [](const ModelRef& r) {
                 const std::vector<std::byte> bytes = aem::to_bytes(*r.model);
                 return py::make_tuple(
                     py::module_::import("assbin").attr("_model_from_bytes"),
                     py::make_tuple(py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size())));
             })
        .def("__eq__",
             [](const ModelRef& a, const py::object& other) {
                 // Equal models are equal files: every record, name and image byte.
                 return equal_without_gil(a, other, [](const ModelRef& x, const ModelRef& y) {
                     return x.model == y.model || aem::to_bytes(*x.model) == aem::to_bytes(*y.model);
                 });
             })
        .def("__hash__",
             [](const ModelRef& r) {
                 return py::hash(py::make_tuple(int(r.model->layout), r.model->vertices.size(),
                                                r.model->indices.size(), r.model->bones.size(),
                                                r.model->animations.size()));
             })
        .def("__repr__", [](const ModelRef& r) {
            return "<assbin.aem.Model " +
                   std::string(r.model->layout == aem::Layout::Edition2025 ? "2025" : "2024") + ": " +
                   assbin_common::counted(r.model->vertices.size(), "vertex", "vertices") + ", " +
                   assbin_common::counted(r.model->indices.size() / 3, "triangle", "triangles") + ", " +
                   assbin_common::counted(r.model->bones.size(), "bone", "bones") + ">";
        });

    m.def(
        "read",
        [](const py::object& source) {
            const SourceArgument argument(source, "read");
            if (!argument.is_path()) {
                py::gil_scoped_release unlocked; // the buffer stays held by `argument`
                return ModelRef{std::make_shared<const aem::Model>(aem::read_model(argument.bytes()))};
            }
            py::gil_scoped_release unlocked;
            try {
                return ModelRef{std::make_shared<const aem::Model>(aem::read_file(argument.path()))};
            } catch (const aem::Error& error) {
                throw NamedAemError(error, argument.path());
            }
        },
        py::arg("source"),
        "Reads an AEM model (a path, or its bytes) of either layout; raises assbin.ReadError.");
}

} // namespace assbin::python
