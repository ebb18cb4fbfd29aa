#include "array_views.hpp"

namespace py = pybind11;

namespace assbin::python {

py::array read_only_view(const py::dtype& dtype, const void* data, std::vector<py::ssize_t> shape,
                         std::vector<py::ssize_t> strides, const py::capsule& owner) {
    // An empty array still needs a valid pointer for NumPy; its base keeps the owner anyway.
    static const char kNothing[16] = {};
    py::array array(dtype, std::move(shape), std::move(strides), data ? data : kNothing, owner);
    py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return array;
}

} // namespace assbin::python
