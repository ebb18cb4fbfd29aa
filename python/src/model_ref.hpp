// The C++ side of an assbin.aem.Model: a shared model, whose arrays are views of its records.
#pragma once

#include <aem/model.hpp>

#include <memory>

namespace assbin::python {

struct ModelRef {
    std::shared_ptr<const aem::Model> model;
};

} // namespace assbin::python
