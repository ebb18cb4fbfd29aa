#include "support/heavy_shapes.hpp"

#include <algorithm>
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

namespace {

// `mesh` (its faces) with these positions, normals and one 2-component UV channel, alone in a scene.
SceneSpec one_mesh_scene(MeshSpec mesh, std::vector<F3> positions, std::vector<F3> normals,
                         std::vector<F3> uvs, const char* name);

SceneSpec one_mesh_scene(MeshSpec mesh, const char* name) {
    SceneSpec scene;
    scene.meshes.push_back(std::move(mesh));
    scene.root = make_node(name, {0});
    scene.materials.push_back(plain_material(name));
    return scene;
}

SceneSpec one_mesh_scene(MeshSpec mesh, std::vector<F3> positions, std::vector<F3> normals,
                         std::vector<F3> uvs, const char* name) {
    mesh.positions = std::move(positions);
    mesh.normals = std::move(normals);
    mesh.uvs.push_back({2, std::move(uvs)});
    return one_mesh_scene(std::move(mesh), name);
}

// A small triangle with normals and UVs, for the node trees.
MeshSpec small_triangle() {
    MeshSpec mesh;
    mesh.positions = std::vector<F3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh.normals = std::vector<F3>{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    mesh.uvs.push_back({2, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}});
    mesh.faces.push_back({0, 1, 2});
    return mesh;
}

M4 translation(float x, float y, float z) {
    return {1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z, 0, 0, 0, 1};
}

} // namespace

SceneSpec book(uint32_t pages, bool both_windings) {
    MeshSpec mesh;
    std::vector<F3> positions{{0, 0, 0}, {0, 1, 0}}, normals{{0, 0, 1}, {0, 0, 1}}, uvs{{0, 0, 0}, {0, 1, 0}};
    for (uint32_t p = 0; p < pages; ++p) {
        const double angle = std::numbers::pi * (double(p) + 0.5) / double(pages);
        positions.push_back({static_cast<float>(std::cos(angle)), 0.5f, static_cast<float>(std::sin(angle))});
        normals.push_back({0, 0, 1});
        // Each page its own UVs at the tip: its tangent at the hinge differs from every other page's.
        // A page wound the other way is mapped the other way too (u mirrored), so that its UVs keep
        // the orientation of the others': MikkTSpace then groups it with the page it pairs with at
        // the hinge, and which page that is shows in the frames.
        const bool reversed = both_windings && p >= pages - pages / 4;
        uvs.push_back({reversed ? -1.0f : 1.0f, static_cast<float>(0.5 + 0.4 * std::sin(angle)), 0.0f});
        const uint32_t edge = 2 + p;
        if (reversed)
            mesh.faces.push_back({1, 0, edge});
        else
            mesh.faces.push_back({0, 1, edge});
    }
    return one_mesh_scene(std::move(mesh), std::move(positions), std::move(normals), std::move(uvs), "book");
}

SceneSpec repeated_triangle(uint32_t copies) {
    MeshSpec mesh = small_triangle();
    mesh.faces.assign(copies, {0, 1, 2});
    return one_mesh_scene(std::move(mesh), "repeated");
}

SceneSpec zero_area(uint32_t triangles) {
    MeshSpec mesh;
    std::vector<F3> positions, normals, uvs;
    for (uint32_t t = 0; t < triangles; ++t) {
        const float x = static_cast<float>(t % 1000), z = static_cast<float>(t / 1000);
        const uint32_t first = static_cast<uint32_t>(positions.size());
        positions.push_back({x, 0, z});
        positions.push_back({x + 0.5f, 0, z});
        positions.push_back(t % 2 == 0 ? F3{x, 0, z}
                                       : F3{x + 1.0f, 0, z}); // two corners at one place, or a line
        for (int k = 0; k < 3; ++k) {
            normals.push_back({0, 1, 0});
            uvs.push_back({x / 1000.0f, z / 1000.0f, 0});
        }
        mesh.faces.push_back({first, first + 1, first + 2});
    }
    return one_mesh_scene(std::move(mesh), std::move(positions), std::move(normals), std::move(uvs),
                          "zero_area");
}

SceneSpec long_strip(uint32_t triangles) {
    MeshSpec mesh;
    const uint32_t quads = triangles / 2;
    std::vector<F3> positions, normals, uvs;
    for (uint32_t i = 0; i <= quads; ++i) {
        const float x = static_cast<float>(i) * 0.01f;
        for (const float z : {0.0f, 0.01f}) {
            positions.push_back({x, 0, z});
            normals.push_back({0, 1, 0});
            uvs.push_back({x, z, 0});
        }
    }
    for (uint32_t i = 0; i < quads; ++i) {
        const uint32_t a = 2 * i;
        mesh.faces.push_back({a, a + 1, a + 2});
        mesh.faces.push_back({a + 2, a + 1, a + 3});
    }
    return one_mesh_scene(std::move(mesh), std::move(positions), std::move(normals), std::move(uvs), "strip");
}

SceneSpec deep_chain(uint32_t depth) {
    SceneSpec scene;
    scene.meshes.push_back(small_triangle());
    scene.materials.push_back(plain_material("deep"));
    NodeSpec node = make_node("n" + std::to_string(depth), {0});
    node.transform = translation(0.001f, 0, 0);
    for (uint32_t d = depth - 1; d > 0; --d) {
        NodeSpec parent = make_node("n" + std::to_string(d), {0}, {});
        parent.transform = translation(0.001f, 0, 0);
        parent.children.push_back(std::move(node));
        node = std::move(parent);
    }
    scene.root = std::move(node);
    return scene;
}

SceneSpec wide_tree(uint32_t children) {
    SceneSpec scene;
    scene.meshes.push_back(small_triangle());
    scene.materials.push_back(plain_material("wide"));
    scene.root = make_node("root");
    scene.root.children.reserve(children);
    for (uint32_t c = 0; c < children; ++c) {
        NodeSpec child = make_node("c" + std::to_string(c), {0});
        child.transform = translation(static_cast<float>(c % 1000), 0, static_cast<float>(c / 1000));
        scene.root.children.push_back(std::move(child));
    }
    return scene;
}

SceneSpec heavy_weights(uint32_t n, uint32_t bones) {
    MeshSpec mesh = grid_mesh(n);
    const uint32_t vertices = n * n;
    NodeSpec skeleton = make_node("skeleton");
    for (uint32_t b = 0; b < bones; ++b) {
        BoneSpec bone;
        bone.name = "bone" + std::to_string(b);
        bone.weights.reserve(vertices);
        for (uint32_t v = 0; v < vertices; ++v)
            bone.weights.push_back(
                {v, 1.0f / static_cast<float>(bones) * (1.0f + 0.01f * static_cast<float>((v + b) % 7))});
        mesh.bones.push_back(std::move(bone));
        skeleton.children.push_back(make_node("bone" + std::to_string(b)));
    }
    SceneSpec scene;
    scene.meshes.push_back(std::move(mesh));
    scene.materials.push_back(plain_material("skin"));
    scene.root = make_node("root", {}, {make_node("body", {0}), std::move(skeleton)});
    return scene;
}

SceneSpec long_animation(uint32_t keys) {
    SceneSpec scene = one_mesh_scene(small_triangle(), "animated");
    ChannelSpec channel;
    channel.node_name = "animated";
    channel.positions.reserve(keys);
    channel.rotations.reserve(keys);
    channel.scalings.reserve(keys);
    for (uint32_t k = 0; k < keys; ++k) {
        const double time = double(k);
        const float s = static_cast<float>(std::sin(time * 0.01)),
                    c = static_cast<float>(std::cos(time * 0.005));
        channel.positions.push_back({time, {s, 0, 0}});
        channel.rotations.push_back({time, {c, 0, static_cast<float>(std::sin(time * 0.005)), 0}});
        channel.scalings.push_back({time, {1, 1 + 0.1f * s, 1}});
    }
    AnimationSpec animation;
    animation.name = "long";
    animation.duration = keys > 0 ? double(keys - 1) : 0.0;
    animation.ticks_per_second = 1000.0;
    animation.channels.push_back(std::move(channel));
    scene.animations.push_back(std::move(animation));
    return scene;
}

SceneSpec skeleton_animation(uint32_t bones, uint32_t keys, bool scattered_times) {
    constexpr uint32_t kChainLength = 10;
    SceneSpec scene;
    scene.meshes.push_back(small_triangle());
    scene.materials.push_back(plain_material("skeleton"));
    scene.root = make_node("root");
    AnimationSpec animation;
    animation.name = "motion";
    animation.ticks_per_second = 100.0;
    animation.duration = double(keys);
    for (uint32_t first = 0; first < bones; first += kChainLength) {
        const uint32_t last = std::min(bones, first + kChainLength) - 1;
        NodeSpec chain;
        for (uint32_t b = last + 1; b-- > first;) { // built from its end up
            NodeSpec bone = make_node("bone" + std::to_string(b), {0});
            bone.transform = translation(1.0f, 0, b == first ? float(first / kChainLength) : 0.0f);
            if (b != last) bone.children.push_back(std::move(chain));
            chain = std::move(bone);
        }
        scene.root.children.push_back(std::move(chain));
    }
    for (uint32_t b = 0; b < bones; ++b) {
        ChannelSpec channel;
        channel.node_name = "bone" + std::to_string(b);
        channel.positions.reserve(keys);
        channel.rotations.reserve(keys);
        const double offset = scattered_times ? double(b + 1) / double(bones + 2) : 0.0;
        uint32_t noise = 2463534242u + b; // xorshift: capture's jitter on a smooth swing
        for (uint32_t k = 0; k < keys; ++k) {
            noise ^= noise << 13;
            noise ^= noise >> 17;
            noise ^= noise << 5;
            const double time = double(k) + offset;
            const double angle =
                0.3 * std::sin(time * 0.02 + double(b)) + 0.002 * (double(noise % 1000) / 1000.0 - 0.5);
            channel.positions.push_back({time, {1.0f, 0, 0}});
            channel.rotations.push_back(
                {time,
                 {static_cast<float>(std::cos(angle / 2)), 0, 0, static_cast<float>(std::sin(angle / 2))}});
        }
        animation.channels.push_back(std::move(channel));
    }
    scene.animations.push_back(std::move(animation));
    return scene;
}

} // namespace assbin_test::shapes
