// Meshes and bones: vertex streams element by element (full) or their bounds (shortened), faces
// index by index or their hashes, bone weights or their bounds.
#include "compare_context.hpp"

#include <cstring>

namespace assbin::detail {

namespace {

template <class T>
constexpr size_t components_of() {
    return static_cast<size_t>(T::RowsAtCompileTime);
}

// Full: values element by element when both hold the same number (a count difference is reported
// once, by the caller). Shortened: min and max per component.
template <class T>
void compare_stream(Comparer& comparer, std::string_view name, const VertexStream<T>& actual,
                    const VertexStream<T>& expected) {
    constexpr size_t n = components_of<T>();
    const char* const* names = n == 3 ? kXyz : kRgba;
    if (comparer.shortened) {
        comparer.float_bounds(joined(name, ".min"), actual.bounds.min.data(), expected.bounds.min.data(), n,
                              names);
        comparer.float_bounds(joined(name, ".max"), actual.bounds.max.data(), expected.bounds.max.data(), n,
                              names);
        return;
    }
    // Copied, or left in the files (ReadOptions::array_views): the same records either way.
    const FileRecords<T> a = actual.records(), e = expected.records();
    if (a.size() != e.size() || a.empty()) return;
    comparer.float_records(name, a.bytes, e.bytes, a.size(), n, names);
}

void compare_optional_stream(Comparer& comparer, std::string_view name,
                             const std::optional<VertexStream<Vec3>>& actual,
                             const std::optional<VertexStream<Vec3>>& expected) {
    const std::string where = joined("/", name);
    if (comparer.presence(where, actual.has_value(), expected.has_value()) && actual) {
        compare_stream(comparer, where, *actual, *expected);
    }
}

void compare_face_indices(Comparer& comparer, const FaceList& actual, const FaceList& expected) {
    const size_t faces = actual.size();
    if (actual.offsets == expected.offsets && actual.indices == expected.indices) {
        comparer.counted(faces + expected.indices.size()); // every size and index
        return;
    }
    comparer.counted(faces);
    for (size_t f = 0; f < faces; ++f) {
        const std::span<const uint32_t> a = actual.face(f), e = expected.face(f);
        std::string where = "/faces";
        if (a.size() != e.size()) {
            append_index(where, f);
            comparer.report(joined(where, ".size"), std::to_string(e.size()), std::to_string(a.size()),
                            double(a.size()) - double(e.size()));
            continue;
        }
        if (std::memcmp(a.data(), e.data(), a.size_bytes()) == 0) {
            comparer.counted(a.size());
            continue;
        }
        append_index(where, f);
        comparer.u32_array(where, a, e, false); // counts its values
    }
}

// Faces left in a file's records (ReadOptions::array_views) as a flat list, to compare index by index.
FaceList copied_faces(const FaceList& faces) {
    FaceList copy;
    faces.for_each([&copy](size_t, std::span<const uint32_t> face) {
        copy.offsets.push_back(static_cast<uint32_t>(copy.indices.size()));
        copy.indices.insert(copy.indices.end(), face.begin(), face.end());
    });
    if (!copy.offsets.empty()) copy.offsets.push_back(static_cast<uint32_t>(copy.indices.size()));
    return copy;
}

void compare_faces(Comparer& comparer, const Mesh& actual, const Mesh& expected, bool same_face_count) {
    if (!same_face_count) return; // reported once as face_count
    if (comparer.shortened) {
        if (actual.face_hashes.size() == expected.face_hashes.size()) {
            comparer.u32_array("/face_hashes", actual.face_hashes, expected.face_hashes, true);
        }
        return;
    }
    const std::span<const std::byte> a = actual.faces.file_records, e = expected.faces.file_records;
    if (a.empty() && e.empty()) {
        if (actual.faces.size() == expected.faces.size())
            compare_face_indices(comparer, actual.faces, expected.faces);
        return;
    }
    // Both in their files with the same index width and bytes: every size and index is the same.
    if (a.size() == e.size() && actual.faces.file_wide_indices == expected.faces.file_wide_indices &&
        std::memcmp(a.data(), e.data(), a.size()) == 0) {
        const size_t index_bytes = actual.faces.file_wide_indices ? 4 : 2;
        comparer.counted(actual.face_count + (a.size() - 2 * size_t{actual.face_count}) / index_bytes);
        return;
    }
    const FaceList actual_faces = a.empty() ? actual.faces : copied_faces(actual.faces);
    const FaceList expected_faces = e.empty() ? expected.faces : copied_faces(expected.faces);
    if (actual_faces.size() == expected_faces.size())
        compare_face_indices(comparer, actual_faces, expected_faces);
}

void compare_weights(Comparer& comparer, const Bone& actual, const Bone& expected) {
    // Copied, or left in the files (ReadOptions::array_views).
    const FileRecords<VertexWeight> a = actual.weight_records(), e = expected.weight_records();
    comparer.counted(2 * a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const VertexWeight a_i = a[i], e_i = e[i];
        const bool same_vertex = a_i.vertex == e_i.vertex;
        const bool same_weight = comparer.matches(a_i.weight, e_i.weight);
        if (same_vertex && same_weight) continue;
        if (!comparer.detail_wanted()) {
            comparer.count_difference();
            if (!same_vertex && !same_weight) comparer.count_difference();
            continue;
        }
        std::string where = "/weights";
        append_index(where, i);
        if (!same_vertex) {
            comparer.report(joined(where, ".vertex"), std::to_string(e_i.vertex), std::to_string(a_i.vertex),
                            double(a_i.vertex) - double(e_i.vertex));
        }
        if (!same_weight) {
            comparer.report(joined(where, ".weight"), format_number(e_i.weight), format_number(a_i.weight),
                            double(a_i.weight) - double(e_i.weight));
        }
    }
}

void compare_bone(Comparer& comparer, const Bone& actual, const Bone& expected) {
    comparer.text("/name", actual.name, expected.name);
    comparer.matrix("/offset", actual.offset, expected.offset);
    const bool same_count = comparer.exact("/weight_count", actual.weight_count, expected.weight_count);
    if (comparer.shortened) {
        const auto bound = [&comparer](const char* label, const VertexWeight& a, const VertexWeight& e) {
            comparer.exact(joined(label, ".vertex"), a.vertex, e.vertex);
            comparer.real(joined(label, ".weight"), a.weight, e.weight);
        };
        bound("/weights.min", actual.weight_bounds.min, expected.weight_bounds.min);
        bound("/weights.max", actual.weight_bounds.max, expected.weight_bounds.max);
        return;
    }
    if (same_count && actual.weight_records().size() == expected.weight_records().size())
        compare_weights(comparer, actual, expected);
}

} // namespace

void compare_mesh(Comparer& comparer, const Mesh& actual, const Mesh& expected) {
    static constexpr Comparer::FlagName kPrimitives[] = {{kPrimitivePoint, "point"},
                                                         {kPrimitiveLine, "line"},
                                                         {kPrimitiveTriangle, "triangle"},
                                                         {kPrimitivePolygon, "polygon"},
                                                         {kPrimitiveNgonEncoding, "ngon-encoding"}};
    comparer.flags("/primitive_types", actual.primitive_types, expected.primitive_types, kPrimitives);
    comparer.exact("/material_index", actual.material_index, expected.material_index);
    comparer.exact("/vertex_count", actual.vertex_count, expected.vertex_count);
    const bool same_faces = comparer.exact("/face_count", actual.face_count, expected.face_count);
    compare_optional_stream(comparer, "positions", actual.positions, expected.positions);
    compare_optional_stream(comparer, "normals", actual.normals, expected.normals);
    compare_optional_stream(comparer, "tangents", actual.tangents, expected.tangents);
    compare_optional_stream(comparer, "bitangents", actual.bitangents, expected.bitangents);
    comparer.exact("/color_sets.count", actual.color_sets.size(), expected.color_sets.size());
    for (size_t i = 0; i < std::min(actual.color_sets.size(), expected.color_sets.size()); ++i) {
        compare_stream(comparer, part("color", i), actual.color_sets[i], expected.color_sets[i]);
    }
    comparer.exact("/uv_channels.count", actual.uv_channels.size(), expected.uv_channels.size());
    for (size_t i = 0; i < std::min(actual.uv_channels.size(), expected.uv_channels.size()); ++i) {
        const std::string where = part("uv", i);
        comparer.exact(joined(where, ".components"), actual.uv_channels[i].component_count,
                       expected.uv_channels[i].component_count);
        compare_stream<Vec3>(comparer, where, actual.uv_channels[i], expected.uv_channels[i]);
    }
    compare_faces(comparer, actual, expected, same_faces);
    comparer.exact("/bones.count", actual.bones.size(), expected.bones.size());
    for (size_t i = 0; i < std::min(actual.bones.size(), expected.bones.size()); ++i) {
        Comparer::Scope scope(comparer, named_part("bone", i, expected.bones[i].name));
        compare_bone(comparer, actual.bones[i], expected.bones[i]);
    }
}

} // namespace assbin::detail
