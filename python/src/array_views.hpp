// Read-only NumPy arrays over memory a C++ object owns (a scene's vertex arrays, a model's vertex
// records): no copy; each array holds a reference to its owner, so the owner lives as long as any
// array of it does.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

namespace assbin::python {

// A shared owner, kept alive by the capsule every view carries as its NumPy base.
template <class Owner>
pybind11::capsule keep_alive(const std::shared_ptr<const Owner>& owner) {
    return pybind11::capsule(new std::shared_ptr<const Owner>(owner),
                             [](void* p) { delete static_cast<std::shared_ptr<const Owner>*>(p); });
}

// `shape` and `strides` (in bytes) over `data`, of element type T, not writeable.
pybind11::array read_only_view(const pybind11::dtype& dtype, const void* data,
                               std::vector<pybind11::ssize_t> shape, std::vector<pybind11::ssize_t> strides,
                               const pybind11::capsule& owner);

template <class T>
pybind11::array view_of(const T* data, std::vector<pybind11::ssize_t> shape,
                        std::vector<pybind11::ssize_t> strides, const pybind11::capsule& owner) {
    return read_only_view(pybind11::dtype::of<T>(), data, std::move(shape), std::move(strides), owner);
}

} // namespace assbin::python
