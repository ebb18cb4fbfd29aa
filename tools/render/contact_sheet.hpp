// A contact sheet: one labelled thumbnail per file, laid out in a grid, rendered on several
// threads (each with its own headless OpenGL context).
#pragma once

#include "model_renderer.hpp"

#include <functional>
#include <string>
#include <vector>

namespace assbin::render {

struct SheetEntry {
    std::string label;               // printed under the thumbnail (cut to fit)
    std::string path;                // how failures name it (the file as found)
    std::function<Picture()> render; // throws std::exception with a reason when it cannot
};

struct SheetResult {
    Picture sheet;
    std::vector<std::string> failures; // "path: reason", in entry order
};

// Lays `entries` out in a near-square grid of `thumbnail`-sized cells with a label strip each,
// rendering on up to `threads` threads; `progress(done, total)` is called on the calling thread.
// A failed entry's cell is dark red with "FAILED" and the start of its reason, above its label. Throws
// std::runtime_error when not even one OpenGL context can be made (the message says which packages to
// install).
SheetResult render_sheet(const std::vector<SheetEntry>& entries, uint32_t thumbnail_width,
                         uint32_t thumbnail_height, unsigned threads,
                         const std::function<void(size_t, size_t)>& progress);

} // namespace assbin::render
