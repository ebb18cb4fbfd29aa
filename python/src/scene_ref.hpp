// The C++ side of an assbin.Scene: a shared scene, which the views of its parts share too. Other
// bindings (compare, convert) take a Scene argument through it.
#pragma once

#include <assbin/reader.hpp>
#include <assbin/types.hpp>

#include <cstdint>
#include <memory>
#include <optional>

namespace assbin::python {

struct SceneRef {
    std::shared_ptr<const Scene> scene;
};

// The reader's options from assbin.read's keywords (convert takes the same ones); threads 0: one per core.
ReadOptions read_options(bool strict, std::optional<uint64_t> max_inflated_mb,
                         std::optional<uint64_t> max_inflate_ratio, std::optional<uint32_t> max_node_depth,
                         std::optional<uint64_t> max_allocation_ratio, unsigned threads);

} // namespace assbin::python
