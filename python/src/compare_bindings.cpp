// assbin.compare: two scenes (or paths) by value, as `assbin cmp` compares them. The result is a
// plain dict the package turns into its Comparison class (which pickles).
#include "bindings.hpp"
#include "named_error.hpp"
#include "scene_ref.hpp"
#include "text.hpp"

#include <assbin/compare.hpp>
#include <assbin/reader.hpp>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>
#include <cstdio>
#include <optional>

namespace py = pybind11;

namespace assbin::python {

namespace {

// A scene argument: an assbin.Scene (its C++ scene, shared) or a path read here.
// `side` ("actual", "expected") names which one a read error is about.
std::shared_ptr<const Scene> scene_of(const py::object& source, std::optional<Scene>& storage,
                                      const char* side) {
    if (py::isinstance<SceneRef>(source)) return py::cast<const SceneRef&>(source).scene;
    const std::filesystem::path path = py::cast<std::filesystem::path>(source);
    {
        py::gil_scoped_release unlocked;
        try {
            storage = read_file(path);
        } catch (const ParseError& error) {
            throw NamedReadError(error, path, side);
        }
    }
    return std::shared_ptr<const Scene>(&*storage, [](const Scene*) {});
}

std::string difference_line(const Difference& d) {
    std::string line = "expected " + d.expected + ", actual " + d.actual;
    if (d.delta && std::isfinite(*d.delta)) {
        char delta[48];
        std::snprintf(delta, sizeof delta, " (delta %.9g)", *d.delta);
        line += delta;
    }
    return line;
}

} // namespace

void bind_compare(py::module_& m) {
    m.def(
        "_compare",
        [](const py::object& actual, const py::object& expected, std::optional<double> epsilon,
           std::optional<double> relative, std::optional<uint64_t> ulps, bool by_value, size_t max_diffs,
           std::vector<std::string> ignore) {
            std::optional<Scene> actual_storage, expected_storage;
            const std::shared_ptr<const Scene> a = scene_of(actual, actual_storage, "actual");
            const std::shared_ptr<const Scene> e = scene_of(expected, expected_storage, "expected");
            CompareOptions options;
            // As `assbin cmp`: exact unless a tolerance is chosen.
            options.epsilon = epsilon.value_or(0.0);
            options.relative = relative;
            options.ulps = ulps;
            options.real_properties_by_value = by_value;
            options.max_diffs = max_diffs;
            options.ignore = std::move(ignore);
            CompareResult result;
            {
                py::gil_scoped_release unlocked;
                result = compare(*a, *e, options);
            }
            py::list differences;
            for (const Difference& d : result.differences) {
                differences.append(
                    py::dict(py::arg("path") = text(d.path), py::arg("what") = text(difference_line(d)),
                             py::arg("actual") = text(d.actual), py::arg("expected") = text(d.expected),
                             py::arg("delta") = d.delta ? py::cast(*d.delta) : py::none()));
            }
            return py::dict(py::arg("same") = result.same(), py::arg("total") = result.total,
                            py::arg("ignored") = result.ignored,
                            py::arg("values_compared") = result.values_compared,
                            py::arg("shortened") = result.shortened, py::arg("differences") = differences);
        },
        py::arg("actual"), py::arg("expected"), py::arg("epsilon"), py::arg("relative"), py::arg("ulps"),
        py::arg("by_value"), py::arg("max_diffs"), py::arg("ignore"));
}

} // namespace assbin::python
