// The pieces of the `assbin._assbin` extension module, one file each (module.cpp puts them
// together): the scene and its parts, comparison, conversion, and the AEM model.
#pragma once

#include <pybind11/pybind11.h>

namespace assbin::python {

void bind_errors(pybind11::module_& module);
void bind_scene(pybind11::module_& module);
void bind_compare(pybind11::module_& module);
void bind_convert(pybind11::module_& module);
void bind_aem(pybind11::module_& aem_module);

} // namespace assbin::python
