// The compiled half of the `assbin` package (assbin/__init__.py re-exports it). Errors become the
// package's Python exceptions: assbin.ReadError (offset, chunk_path, code) for dumps and AEM files
// that cannot be read, assbin.ConvertError (refusal) for scenes the converter refuses.
#include "bindings.hpp"

#include <aem/io.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/error.hpp>
#include <assbin/writer.hpp>

namespace py = pybind11;

namespace assbin::python {

namespace {

// Raises the package's exception class `name` built from `args` (the GIL is held here).
void raise(const char* name, const py::tuple& args) {
    const py::object type = py::module_::import("assbin").attr(name);
    PyErr_SetObject(type.ptr(), type(*args).ptr());
}

} // namespace

void bind_errors(py::module_&) {
    py::register_exception_translator([](std::exception_ptr pending) {
        try {
            if (pending) std::rethrow_exception(pending);
        } catch (const ParseError& error) {
            raise("ReadError", py::make_tuple(std::string(error.what()), error.offset(), error.chunk_path(),
                                              error_code_name(error.code())));
        } catch (const aem::Error& error) {
            raise("ReadError",
                  py::make_tuple(std::string(error.what()), 0, "", aem::error_code_name(error.code())));
        } catch (const converter::ConvertError& error) {
            raise("ConvertError",
                  py::make_tuple(std::string(error.what()), converter::refusal_name(error.refusal())));
        } catch (const WriteError& error) {
            PyErr_SetString(PyExc_OSError, error.what());
        }
    });
}

} // namespace assbin::python

PYBIND11_MODULE(_assbin, module) {
    module.doc() = "assbin's C++ library: read, write, compare and convert Assimp ASSBIN dumps; AEM models";
    assbin::python::bind_errors(module);
    assbin::python::bind_scene(module);
    assbin::python::bind_compare(module);
    assbin::python::bind_convert(module);
    py::module_ aem = module.def_submodule("aem", "AEM models: read, validate, pose");
    assbin::python::bind_aem(aem);
}
