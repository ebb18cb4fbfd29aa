// What a reading function was given, as Python users hand it over: a path (str or os.PathLike) or
// any object with the buffer protocol (bytes, bytearray, memoryview, a NumPy array, an mmap), read
// in place when it is C-contiguous and copied once when it is not. Anything else is a TypeError
// naming what was given; an open file is told to pass its path or its bytes.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl/filesystem.h>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

namespace assbin::python {

class SourceArgument {
  public:
    SourceArgument(const pybind11::object& source, const char* function) {
        namespace py = pybind11;
        if (PyObject_CheckBuffer(source.ptr())) {
            if (PyObject_GetBuffer(source.ptr(), &view_, PyBUF_C_CONTIGUOUS) == 0) {
                held_ = true;
                bytes_ = {static_cast<const std::byte*>(view_.buf), static_cast<size_t>(view_.len)};
                return;
            }
            PyErr_Clear(); // not contiguous: one copy, in C order
            const py::object view = py::reinterpret_steal<py::object>(PyMemoryView_FromObject(source.ptr()));
            if (!view) throw py::error_already_set();
            copy_ = view.attr("tobytes")(); // a bytes object, held for as long as the read
            bytes_ = {reinterpret_cast<const std::byte*>(PyBytes_AS_STRING(copy_.ptr())),
                      static_cast<size_t>(PyBytes_GET_SIZE(copy_.ptr()))};
            return;
        }
        if (py::isinstance<py::str>(source) || py::hasattr(source, "__fspath__")) {
            path_ = py::cast<std::filesystem::path>(source);
            return;
        }
        std::string given = py::str(py::type::of(source).attr("__name__"));
        if (source.is_none()) given = "None";
        const bool open_file = py::hasattr(source, "read") && py::hasattr(source, "fileno");
        throw py::type_error(
            std::string(function) +
            "() takes a path (str or os.PathLike) or a bytes-like object (bytes, memoryview, a "
            "NumPy array, an mmap), not " +
            given + (open_file ? " (an open file: pass its path, or what its read() returns)" : ""));
    }
    SourceArgument(const SourceArgument&) = delete;
    SourceArgument& operator=(const SourceArgument&) = delete;
    ~SourceArgument() {
        if (held_) PyBuffer_Release(&view_); // the GIL is held again by then
    }

    bool is_path() const { return path_.has_value(); }
    const std::filesystem::path& path() const { return *path_; }
    std::span<const std::byte> bytes() const { return bytes_; }

  private:
    Py_buffer view_{};
    bool held_ = false;
    pybind11::object copy_;
    std::span<const std::byte> bytes_;
    std::optional<std::filesystem::path> path_;
};

} // namespace assbin::python
