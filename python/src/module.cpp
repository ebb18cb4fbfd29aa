// The compiled half of the `assbin` package (assbin/__init__.py re-exports it). Errors become the
// package's Python exceptions: assbin.ReadError (offset, chunk_path, code, filename) for dumps and
// AEM files that cannot be read, assbin.ConvertError (refusal) for scenes the converter refuses,
// and Python's own OSError subclasses, with errno, filename and filename2, for files that cannot be
// opened or written.
#include "bindings.hpp"
#include "named_error.hpp"
#include "text.hpp"

#include <atomic_file.hpp>
#include <limit_words.hpp>

#include <aem/io.hpp>
#include <assbin/converter/convert.hpp>
#include <assbin/error.hpp>
#include <assbin/writer.hpp>

#include <pybind11/numpy.h>

#include <cerrno>
#include <cstring>
#include <string_view>

namespace py = pybind11;

namespace assbin::python {

int errno_in(const std::string& text) {
    if (text == "no such file" || text.ends_with(": no such file")) return ENOENT;
    if (text.find("is a folder") != std::string::npos) return EISDIR;
    // The project's readers and writers quote the system's words: "cannot open its folder (No such
    // file or directory)". strerror speaks the C locale here (Python sets LC_CTYPE only).
    for (int number = 1; number < 134; ++number) {
        const std::string quoted = std::string("(") + std::strerror(number) + ")";
        if (text.find(quoted) != std::string::npos) return number;
    }
    return 0;
}

void rethrow_as_output_error(const std::filesystem::path& output) {
    // A message "FILE: cause" names the file that failed (the model, or a texture beside it).
    const auto about = [&](const std::string& message) -> FileError {
        const std::string name = output.string();
        if (message.starts_with(name + ": ")) return FileError(message.substr(name.size() + 2), output);
        const std::string folder = output.has_parent_path() ? output.parent_path().string() + "/" : "";
        const size_t colon = message.find(": ", folder.size());
        if (colon != std::string::npos && message.starts_with(folder) &&
            message.find('/', folder.size()) > colon)
            return FileError(message.substr(colon + 2), message.substr(0, colon));
        return FileError(message, output);
    };
    try {
        throw;
    } catch (const FileError&) {
        throw;
    } catch (const assbin_common::OutputError& error) {
        throw FileError(error.cause(), error.file());
    } catch (const WriteError& error) {
        throw FileError(error.message(), error.path().empty() ? output : std::filesystem::path(error.path()));
    } catch (const aem::Error& error) {
        if (error.code() != aem::ErrorCode::Io) throw;
        throw about(error.what());
    }
}

namespace {

// Raises the package's exception class `name` built from `args` (the GIL is held here).
void raise(const char* name, const py::tuple& args) {
    const py::object type = py::module_::import("assbin").attr(name);
    PyErr_SetObject(type.ptr(), type(*args).ptr());
}

// Python's own OSError(errno, text, filename, None, filename2): the constructor picks the subclass
// (FileNotFoundError, PermissionError, IsADirectoryError, ...) from errno, as open() does. A cause
// the system gave no errno for (a FIFO or a device refused as a dump) is EINVAL, a plain OSError
// that still names the file.
void raise_os_error(const std::string& message, const std::filesystem::path& file, int number,
                    const std::optional<std::filesystem::path>& file2 = std::nullopt) {
    if (number == 0) number = errno_in(message);
    if (number == 0 && !file.empty()) number = EINVAL;
    const py::object os_error = py::module_::import("builtins").attr("OSError");
    const py::object name = file.empty() ? py::object(py::none()) : py::object(path_text(file));
    const py::object name2 = file2 ? py::object(path_text(*file2)) : py::object(py::none());
    py::object error;
    if (number != 0) {
        error = os_error(number, text(message), name, py::none(), name2);
    } else {
        error = os_error(text(file.empty() ? message : file.string() + ": " + message));
        error.attr("filename") = name;
        error.attr("filename2") = name2;
    }
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
}

void raise_read_error(const ParseError& error, const std::filesystem::path& file, const std::string& side) {
    if (error.code() == ErrorCode::Io) return raise_os_error(error.message(), file, 0);
    std::string message = error.what();
    py::object limit = py::none();
    if (error.limit() != Limit::None) { // the keyword of assbin.read (and convert) that raises it
        const assbin_common::LimitWords words = assbin_common::limit_words(error.limit());
        message += "; " + std::string(words.keyword) + "= raises it (" + std::string(words.unit) + ")";
        limit = py::str(std::string(words.keyword));
    }
    raise("ReadError",
          py::make_tuple(text(message), error.offset(), text(error.chunk_path()),
                         error_code_name(error.code()),
                         file.empty() ? py::object(py::none()) : py::object(path_text(file)),
                         side.empty() ? py::object(py::none()) : py::object(py::str(side)), limit));
}

void raise_aem_error(const aem::Error& error, const std::filesystem::path& file) {
    if (error.code() == aem::ErrorCode::Io) return raise_os_error(error.what(), file, 0);
    raise("ReadError", py::make_tuple(text(error.what()), 0, "", aem::error_code_name(error.code()),
                                      file.empty() ? py::object(py::none()) : py::object(path_text(file))));
}

} // namespace

void bind_errors(py::module_&) {
    py::register_exception_translator([](std::exception_ptr pending) {
        try {
            if (pending) std::rethrow_exception(pending);
        } catch (const NamedReadError& error) {
            raise_read_error(error, error.file, error.side);
        } catch (const ParseError& error) {
            raise_read_error(error, {}, "");
        } catch (const NamedAemError& error) {
            raise_aem_error(error, error.file);
        } catch (const aem::Error& error) {
            raise_aem_error(error, {});
        } catch (const FileError& error) {
            raise_os_error(error.what(), error.file, error.error_number, error.file2);
        } catch (const converter::ConvertError& error) {
            raise("ConvertError",
                  py::make_tuple(text(error.what()), converter::refusal_name(error.refusal())));
        } catch (const WriteError& error) { // the scene cannot be written as it is (files: FileError)
            PyErr_SetString(PyExc_ValueError, error.what());
        } catch (const assbin_common::OutputError& error) {
            raise_os_error(error.cause(), error.file(), 0);
        }
    });
}

} // namespace assbin::python

PYBIND11_MODULE(_assbin, module) {
    // NumPy is imported, and pybind11's table of its C API filled, here, while Python holds the
    // import lock for this module: pybind11 fills that table in a function-local static on first
    // use, and a first use on two threads at once deadlocked (one thread in the static's guard
    // importing NumPy, which lets go of the GIL; the other waiting for the guard holding the GIL).
    // The module leaves the process's allocator as it found it (no mallopt).
    py::module_::import("numpy");
    py::detail::npy_api::get();
    module.doc() = "assbin's C++ library: read, write, compare and convert Assimp ASSBIN dumps; AEM models";
    assbin::python::bind_errors(module);
    assbin::python::bind_scene(module);
    assbin::python::bind_compare(module);
    assbin::python::bind_convert(module);
    py::module_ aem = module.def_submodule("aem", "AEM models: read, validate, pose");
    assbin::python::bind_aem(aem);
}
