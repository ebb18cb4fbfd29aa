#include "support/heavy_shapes.hpp"

#include <cmath>
#include <numbers>
#include <utility>

namespace assbin_test::shapes {

namespace {

MaterialSpec plain_material(const char* name) {
    return {{prop_string("?mat.name", name)}, std::nullopt};
}

} // namespace

MeshSpec grid_mesh(uint32_t n, float x0, float z0) {
    MeshSpec mesh;
    std::vector<F3> positions, normals, uvs;
    const size_t count = size_t{n} * n;
    positions.reserve(count);
    normals.reserve(count);
    uvs.reserve(count);
    const float step = 1.0f / static_cast<float>(n - 1);
    for (uint32_t y = 0; y < n; ++y) {
        for (uint32_t x = 0; x < n; ++x) {
            const float u = static_cast<float>(x) * step, v = static_cast<float>(y) * step;
            positions.push_back(
                {x0 + u * 10.0f, 0.25f * std::sin(u * 6.0f) * std::cos(v * 6.0f), z0 + v * 10.0f});
            normals.push_back({0.0f, 1.0f, 0.0f});
            uvs.push_back({u, v, 0.0f});
        }
    }
    mesh.positions = std::move(positions);
    mesh.normals = std::move(normals);
    mesh.uvs.push_back({2, std::move(uvs)});
    mesh.faces.reserve(size_t{n - 1} * (n - 1) * 2);
    for (uint32_t y = 0; y + 1 < n; ++y) {
        for (uint32_t x = 0; x + 1 < n; ++x) {
            const uint32_t i = y * n + x;
            mesh.faces.push_back({i, i + n, i + 1});
            mesh.faces.push_back({i + 1, i + n, i + n + 1});
        }
    }
    return mesh;
}

SceneSpec fan_disc(uint32_t triangles) {
    MeshSpec mesh;
    std::vector<F3> positions, uvs;
    positions.reserve(size_t{triangles} + 1);
    uvs.reserve(size_t{triangles} + 1);
    positions.push_back({0.0f, 0.0f, 0.0f});
    uvs.push_back({0.5f, 0.5f, 0.0f});
    for (uint32_t i = 0; i < triangles; ++i) {
        const double angle = 2.0 * std::numbers::pi * double(i) / double(triangles);
        const float x = static_cast<float>(std::cos(angle)), z = static_cast<float>(std::sin(angle));
        positions.push_back({x, 0.0f, z});
        uvs.push_back({0.5f + 0.5f * x, 0.5f + 0.5f * z, 0.0f});
    }
    mesh.positions = std::move(positions);
    mesh.uvs.push_back({2, std::move(uvs)});
    mesh.faces.reserve(triangles);
    for (uint32_t i = 0; i < triangles; ++i) {
        const uint32_t next = i + 1 == triangles ? 1 : i + 2;
        mesh.faces.push_back({0, next, i + 1}); // counter-clockwise seen from +y
    }
    SceneSpec scene;
    scene.meshes.push_back(std::move(mesh));
    scene.root = make_node("disc", {0});
    scene.materials.push_back(plain_material("disc"));
    return scene;
}

SceneSpec stacked_grids(uint32_t n, uint32_t copies) {
    SceneSpec scene;
    std::vector<uint32_t> meshes;
    const MeshSpec one = grid_mesh(n);
    for (uint32_t c = 0; c < copies; ++c) {
        scene.meshes.push_back(one);
        meshes.push_back(c);
    }
    scene.root = make_node("stack", meshes);
    scene.materials.push_back(plain_material("stack"));
    return scene;
}

SceneSpec star_polygon(uint32_t corners) {
    MeshSpec mesh;
    mesh.primitive_types = 8; // polygons
    std::vector<F3> positions, normals;
    std::vector<uint32_t> face;
    for (uint32_t i = 0; i < corners; ++i) {
        const double angle = 2.0 * std::numbers::pi * double(i) / double(corners);
        const double radius = i % 2 == 0 ? 1.0 : 0.6;
        positions.push_back({static_cast<float>(radius * std::cos(angle)),
                             static_cast<float>(radius * std::sin(angle)), 0.0f});
        normals.push_back({0.0f, 0.0f, 1.0f});
        face.push_back(i);
    }
    mesh.positions = std::move(positions);
    mesh.normals = std::move(normals);
    mesh.faces.push_back(std::move(face));
    SceneSpec scene;
    scene.meshes.push_back(std::move(mesh));
    scene.root = make_node("star", {0});
    scene.materials.push_back(plain_material("star"));
    return scene;
}

SceneSpec grid(uint32_t n) {
    SceneSpec scene;
    scene.meshes.push_back(grid_mesh(n));
    scene.root = make_node("grid", {0});
    scene.materials.push_back(plain_material("grid"));
    return scene;
}

} // namespace assbin_test::shapes
