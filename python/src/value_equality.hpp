// `==` for a class whose equality is a C++ computation over data the object shares (a scene, a
// model): the computation runs with the GIL released, so that other threads run meanwhile, and
// nothing of Python is touched until the GIL is held again — Python's True and False are objects
// too (Scene.__eq__ once made its bool without the GIL; ThreadSanitizer found it).
#pragma once

#include <pybind11/pybind11.h>

#include <utility>

namespace assbin::python {

// NotImplemented when `other` is not a Ref; else `same(a, b)`, called without the GIL (it must
// touch no Python object), as Python's bool.
template <class Ref, class Same>
pybind11::object equal_without_gil(const Ref& a, const pybind11::object& other, Same&& same) {
    namespace py = pybind11;
    if (!py::isinstance<Ref>(other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
    const Ref& b = other.cast<const Ref&>();
    bool equal = false;
    {
        py::gil_scoped_release unlocked;
        equal = std::forward<Same>(same)(a, b);
    }
    return py::bool_(equal);
}

} // namespace assbin::python
