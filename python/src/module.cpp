// The compiled half of the `assbin` package (assbin/__init__.py re-exports it). Errors become the
// package's Python exceptions: assbin.ReadError (offset, chunk_path, code) for dumps and AEM files
// that cannot be read, assbin.ConvertError (refusal) for scenes the converter refuses.
#include "bindings.hpp"
#include "named_error.hpp"

#include <atomic_file.hpp>
#include <limit_words.hpp>

#include <aem/io.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/error.hpp>
#include <assbin/writer.hpp>

#include <cerrno>
#include <cstdlib>
#include <string_view>

#include <malloc.h>

namespace py = pybind11;

namespace assbin::python {

namespace {

// Raises the package's exception class `name` built from `args` (the GIL is held here).
void raise(const char* name, const py::tuple& args) {
    const py::object type = py::module_::import("assbin").attr(name);
    PyErr_SetObject(type.ptr(), type(*args).ptr());
}

// A file that cannot be opened is Python's own OSError: OSError(errno, text, filename) makes the
// subclass (FileNotFoundError, IsADirectoryError, PermissionError) that `except OSError` and
// `except FileNotFoundError` catch. The reader's words say which.
void raise_os_error(const std::string& message, const std::string& file) {
    int number = 0;
    if (message == "no such file")
        number = ENOENT;
    else if (message.starts_with("is a folder"))
        number = EISDIR;
    else if (message.find("Permission denied") != std::string::npos)
        number = EACCES;
    const py::object os_error = py::module_::import("builtins").attr("OSError");
    const py::object error = number == 0    ? os_error(message) // no errno to tell: the sentence alone
                             : file.empty() ? os_error(number, message)
                                            : os_error(number, message, file);
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
}

void raise_read_error(const ParseError& error, const std::string& file, const std::string& side) {
    if (error.code() == ErrorCode::Io) return raise_os_error(error.message(), file);
    std::string message = error.what();
    py::object limit = py::none();
    if (error.limit() != Limit::None) { // the keyword of assbin.read (and convert) that raises it
        const assbin_common::LimitWords words = assbin_common::limit_words(error.limit());
        message += "; " + std::string(words.keyword) + "= raises it (" + std::string(words.unit) + ")";
        limit = py::str(std::string(words.keyword));
    }
    raise("ReadError",
          py::make_tuple(message, error.offset(), error.chunk_path(), error_code_name(error.code()),
                         file.empty() ? py::object(py::none()) : py::object(py::str(file)),
                         side.empty() ? py::object(py::none()) : py::object(py::str(side)), limit));
}

} // namespace

void bind_errors(py::module_&) {
    py::register_exception_translator([](std::exception_ptr pending) {
        try {
            if (pending) std::rethrow_exception(pending);
        } catch (const NamedReadError& error) {
            raise_read_error(error, error.file, error.side);
        } catch (const ParseError& error) {
            raise_read_error(error, "", "");
        } catch (const aem::Error& error) {
            if (error.code() == aem::ErrorCode::Io) return raise_os_error(error.what(), "");
            raise("ReadError",
                  py::make_tuple(std::string(error.what()), 0, "", aem::error_code_name(error.code())));
        } catch (const converter::ConvertError& error) {
            raise("ConvertError",
                  py::make_tuple(std::string(error.what()), converter::refusal_name(error.refusal())));
        } catch (const WriteError& error) {
            PyErr_SetString(PyExc_OSError, error.what());
        } catch (const assbin_common::OutputError& error) {
            PyErr_SetString(PyExc_OSError, error.what());
        }
    });
}

} // namespace assbin::python

namespace {

// A pipeline reads dump after dump: with glibc's defaults a big scene's arrays are mmapped, or the
// heap's free top trimmed, when it is dropped, and the next read faults every page in afresh (the
// 31 MB grid: 7,600 faults and most of the time of each read). Arrays up to 32 MiB (glibc's
// largest threshold) come from the heap instead, and up to 256 MiB of free heap is kept for the
// next read: the process keeps what its largest scene took, as any cache would. Set once, when
// the module loads; ASSBIN_SYSTEM_MALLOC=1 leaves glibc's defaults alone.
void keep_memory_for_the_next_read() {
    const char* keep_defaults = std::getenv("ASSBIN_SYSTEM_MALLOC");
    if (keep_defaults && *keep_defaults && std::string_view(keep_defaults) != "0") return;
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

} // namespace

PYBIND11_MODULE(_assbin, module) {
    keep_memory_for_the_next_read();
    module.doc() = "assbin's C++ library: read, write, compare and convert Assimp ASSBIN dumps; AEM models";
    assbin::python::bind_errors(module);
    assbin::python::bind_scene(module);
    assbin::python::bind_compare(module);
    assbin::python::bind_convert(module);
    py::module_ aem = module.def_submodule("aem", "AEM models: read, validate, pose");
    assbin::python::bind_aem(aem);
}
