// The C++ side of an assbin.Scene: a shared scene, which the views of its parts share too. Other
// bindings (compare, convert) take a Scene argument through it.
#pragma once

#include <assbin/types.hpp>

#include <memory>

namespace assbin::python {

struct SceneRef {
    std::shared_ptr<const Scene> scene;
};

} // namespace assbin::python
