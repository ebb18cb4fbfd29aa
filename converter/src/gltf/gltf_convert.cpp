// A dump as a glTF 2.0 file: the node tree with its names and transforms, meshes where nodes name
// them (skinned ones from the scene root with their skins), cameras, lights and animations; then
// the document as one .glb or as .gltf text with its .bin and images beside it.
// Cost: linear in the nodes, meshes, keys and images (each stage's own file says how).
#include "gltf/gltf_convert.hpp"

#include <Eigen/SVD>

#include <algorithm>
#include <cmath>

namespace assbin::converter::gltf {

std::optional<uint32_t> node_named(const Build& build, const std::string& name) {
    const std::vector<uint32_t>& nodes = build.graph.nodes_named(name);
    if (nodes.empty()) return std::nullopt;
    return nodes.front();
}

void set_transform(Node& node, const Eigen::Matrix4d& matrix) {
    const RestPose pose = decompose(matrix);
    node.translation = matrix.topRightCorner<3, 1>();
    node.rotation = pose.rotation.cast<double>().normalized();
    const Eigen::Matrix3d linear = matrix.topLeftCorner<3, 3>();
    Eigen::Vector3d scale(linear.col(0).norm(), linear.col(1).norm(), linear.col(2).norm());
    if (linear.determinant() < 0) scale = -scale;
    node.scale = scale;
}

namespace {

Eigen::Matrix4d matrix_of(const assbin::Matrix4& m) {
    return m.cast<double>();
}

// Node `n` of the dump as one glTF node, or two where its transform has shear (T·R·S cannot hold
// it): the outer T·R1·S and an inner R2 from the singular value decomposition of its 3x3 part, so
// that their product is the matrix exactly. An animated node stays one node (its channels replace
// the whole T·R·S; AEM does the same).
void write_node(Build& build, uint32_t n, size_t& sheared) {
    const assbin::Node& source = build.scene.nodes[n];
    const Eigen::Matrix4d local = matrix_of(source.transform);
    const int64_t parent =
        source.parent < 0 ? int64_t{-1} : int64_t{build.content_of[static_cast<size_t>(source.parent)]};
    Node node;
    node.name = source.name;
    node.source = n;
    const RestPose pose = decompose(local);
    if (pose.exact || build.channels.animated[n]) {
        set_transform(node, local);
        if (!pose.exact) ++sheared;
        build.node_of[n] = build.content_of[n] = build.add_node(std::move(node), parent);
        return;
    }
    const Eigen::Matrix3d linear = local.topLeftCorner<3, 3>();
    const Eigen::JacobiSVD<Eigen::Matrix3d> svd(linear, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Eigen::Matrix3d u = svd.matrixU(), v = svd.matrixV();
    // L = U Σ Vᵀ with U and V made rotations by negating a column (Σ takes the sign): Σ = Uᵀ L V.
    if (u.determinant() < 0) u.col(2) = -u.col(2);
    if (v.determinant() < 0) v.col(2) = -v.col(2);
    const Eigen::Vector3d sigma = (u.transpose() * linear * v).diagonal();
    node.translation = local.topRightCorner<3, 1>();
    node.rotation = Eigen::Quaterniond(u).normalized();
    node.scale = sigma;
    const uint32_t outer = build.add_node(std::move(node), parent);
    Node inner;
    inner.name = source.name;
    inner.source = n;
    inner.rotation = Eigen::Quaterniond(Eigen::Matrix3d(v.transpose())).normalized();
    build.node_of[n] = outer;
    build.content_of[n] = build.add_node(std::move(inner), outer);
}

// The meshes node `n` names: one unskinned mesh on the node itself, more as children of it; each
// skinned one on a node of its own at the scene root with a skin whose joints are its bones' nodes.
void place_meshes(Build& build, uint32_t n, size_t& joints_total) {
    const assbin::Node& source = build.scene.nodes[n];
    const uint32_t content = build.content_of[n];
    size_t unskinned = 0;
    for (const uint32_t m : source.meshes)
        unskinned += build.meshes[m].mesh >= 0 && !build.meshes[m].skinned;
    for (const uint32_t m : source.meshes) {
        const MeshOut& out = build.meshes[m];
        if (out.mesh < 0) continue;
        // Quantized positions are dequantized by the transform of the node holding the mesh.
        Eigen::Matrix4d dequantize = Eigen::Matrix4d::Identity();
        dequantize.topLeftCorner<3, 3>() *= out.dequantize_scale;
        dequantize.topRightCorner<3, 1>() = out.dequantize_offset;
        const bool quantized = !dequantize.isIdentity(0);
        if (!out.skinned) {
            if (unskinned == 1 && !quantized) {
                build.nodes[content].mesh = out.mesh;
            } else {
                Node child;
                child.name = source.name;
                child.source = n;
                child.mesh = out.mesh;
                set_transform(child, dequantize);
                build.add_node(std::move(child), content);
            }
            continue;
        }
        std::vector<float> inverse_binds;
        std::string joints;
        size_t with_node = 0;
        for (size_t k = 0; k < out.joint_node.size(); ++k) {
            const int32_t joint = out.joint_node[k];
            const uint32_t node = joint < 0 ? content : build.content_of[static_cast<size_t>(joint)];
            joints += (k ? "," : "") + std::to_string(node);
            // Column-major, as glTF's MAT4: the bone's offset; for the vertices no bone weighs, whose
            // joint is the node that places the mesh, the identity: joint global · identity · v is
            // where that node puts them, at rest and as it moves (Assimp shows them so).
            Eigen::Matrix4f matrix = joint < 0 ? Eigen::Matrix4f::Identity()
                                               : Eigen::Matrix4f(out.inverse_bind[with_node++].cast<float>());
            if (quantized)
                matrix = (matrix.cast<double>() * dequantize).cast<float>(); // folded into the skin
            if (!matrix.allFinite()) matrix.setIdentity(); // a node scaled to nothing has no inverse
            matrix.row(3) << 0, 0, 0, 1; // affine, as glTF requires exactly (a dump's can be 1 + 1e-7)
            inverse_binds.insert(inverse_binds.end(), matrix.data(), matrix.data() + 16);
        }
        joints_total += out.joint_node.size();
        // glTF viewers always skin: where a bone's node at rest times its offset is not the mesh
        // node's transform, the rest pose shown is the skinned one, not the dump's bind pose (which
        // Assimp shows unskinned). Said once per mesh.
        with_node = 0;
        for (size_t k = 0; k < out.joint_node.size(); ++k) {
            if (out.joint_node[k] < 0) continue;
            const Eigen::Matrix4d skinned =
                build.graph.global[static_cast<size_t>(out.joint_node[k])] * out.inverse_bind[with_node++];
            const double size = std::max(1.0, build.graph.global[n].cwiseAbs().maxCoeff());
            if ((skinned - build.graph.global[n]).cwiseAbs().maxCoeff() > 1e-4 * size) {
                ++build.inconsistent_skins;
                break;
            }
        }
        const uint32_t accessor =
            build.doc.add_accessor(std::span<const float>(inverse_binds), kFloat, "MAT4", 16, kNoTarget);
        Node skinned;
        skinned.name = source.name;
        skinned.source = n;
        skinned.mesh = out.mesh;
        skinned.skin = static_cast<int32_t>(
            build.doc.add(build.doc.skins, "\"inverseBindMatrices\":" + std::to_string(accessor) +
                                               ",\"joints\":[" + joints + "]"));
        build.add_node(std::move(skinned), -1);
    }
}

std::string node_json(const Node& node) {
    std::string out;
    const auto field = [&](const std::string& text) { out += (out.empty() ? "" : ",") + text; };
    if (!node.name.empty()) field("\"name\":" + json_string(node.name));
    if (!node.children.empty()) {
        std::string list;
        for (size_t c = 0; c < node.children.size(); ++c)
            list += (c ? "," : "") + std::to_string(node.children[c]);
        field("\"children\":[" + list + "]");
    }
    if (node.translation != Eigen::Vector3d::Zero())
        field("\"translation\":" + json_floats(node.translation));
    const Eigen::Quaterniond& q = node.rotation;
    if (q.w() != 1 || q.x() != 0 || q.y() != 0 || q.z() != 0) {
        const Eigen::Vector4f xyzw =
            Eigen::Vector4f(float(q.x()), float(q.y()), float(q.z()), float(q.w())).normalized();
        field("\"rotation\":" + json_floats(xyzw));
    }
    if (node.scale != Eigen::Vector3d::Ones()) field("\"scale\":" + json_floats(node.scale));
    if (node.mesh >= 0) field("\"mesh\":" + std::to_string(node.mesh));
    if (node.skin >= 0) field("\"skin\":" + std::to_string(node.skin));
    if (node.camera >= 0) field("\"camera\":" + std::to_string(node.camera));
    if (node.light >= 0)
        field("\"extensions\":{\"KHR_lights_punctual\":{\"light\":" + std::to_string(node.light) + "}}");
    return out;
}

void refuse_non_finite_nodes(const assbin::Scene& scene) {
    for (uint32_t n = 0; n < scene.nodes.size(); ++n) {
        if (!scene.nodes[n].transform.allFinite()) {
            throw ConvertError(Refusal::NonFinite, detail::node_label(scene, n) +
                                                       "'s transform holds NaN or infinity, which glTF "
                                                       "cannot store");
        }
    }
}

// Names are UTF-8 in glTF; older tools wrote Latin-1 (json_string reads such bytes so): said once.
void report_names_not_utf8(const assbin::Scene& scene, Report& report) {
    size_t count = 0;
    for (const assbin::Node& node : scene.nodes)
        count += !is_utf8(node.name);
    for (const assbin::Material& material : scene.materials)
        count += !is_utf8(material.name());
    for (const assbin::Animation& animation : scene.animations)
        count += !is_utf8(animation.name);
    for (const assbin::Camera& camera : scene.cameras)
        count += !is_utf8(camera.name);
    for (const assbin::Light& light : scene.lights)
        count += !is_utf8(light.name);
    if (count > 0) {
        report.warn(detail::count_of(count, "name is", "names are") +
                    " not UTF-8: each byte that is not part of a UTF-8 character is read as Latin-1");
    }
}

} // namespace

// Called by convert() for the glTF formats with the prepared scene every format shares.
void convert_scene_to_gltf(const assbin::Scene& scene, const ConvertOptions& options,
                           detail::PreparedScene& prepared, ConvertResult& result, Report& report) {
    refuse_non_finite_nodes(scene);
    Build build(scene, options, report, result.stats, prepared);
    build.node_of.assign(scene.nodes.size(), 0);
    build.content_of.assign(scene.nodes.size(), 0);
    build.file_stem = options.texture_stem;
    if (options.format == OutputFormat::Gltf) build.files = &result.textures;
    size_t sheared = 0;
    for (uint32_t n = 0; n < scene.nodes.size(); ++n)
        write_node(build, n, sheared);
    if (sheared > 0) {
        report.warn(detail::count_of(sheared, "animated node's", "animated nodes'") +
                    " transform has shear, which translation, rotation and scale cannot hold; its rest "
                    "pose is approximated");
    }
    if (options.quantize) build.doc.use_extension("KHR_mesh_quantization", true);
    write_meshes(build);
    // A scene with nothing to draw is still a glTF file: its nodes, cameras, lights, lines and points
    // (AEM, which holds triangles alone, refuses it).
    report_names_not_utf8(scene, report);
    size_t joints = 0;
    for (uint32_t n = 0; n < scene.nodes.size(); ++n)
        place_meshes(build, n, joints);
    if (build.inconsistent_skins > 0) {
        report.warn(
            detail::count_of(build.inconsistent_skins, "skinned mesh is", "skinned meshes are") +
            " not placed by the mesh's node when the bones stand at their rest transforms: Assimp shows "
            "a skinned mesh without an animation unskinned, at its node, but glTF viewers always skin, "
            "so the file at rest shows the skinned pose; animations pose as in Assimp");
    }
    write_cameras_and_lights(build);
    write_animations(build);
    for (const Node& node : build.nodes)
        build.doc.nodes.push_back(node_json(node));
    if (options.record_vertex_origins) {
        result.gltf_origins = std::move(build.origins);
        result.gltf_mesh_sources = std::move(build.mesh_sources);
        result.gltf_animation_sources = std::move(build.animation_sources);
        for (const Node& node : build.nodes)
            result.gltf_node_sources.push_back(node.source);
    }
    result.stats.bones = joints;
    result.stats.animations = build.doc.animations.size();
    result.stats.cameras = build.doc.cameras.size();
    result.stats.lights = build.doc.lights.size();
    result.stats.nodes = build.nodes.size();
    build.doc.merge_views();
    if (options.meshopt) build.doc.compress_with_meshopt();
    if (options.format == OutputFormat::Glb) {
        result.encoded = build.doc.glb();
    } else {
        const std::string bin_name = options.texture_stem + ".bin";
        const std::string text = build.doc.json(bin_name);
        const auto* chars = reinterpret_cast<const std::byte*>(text.data());
        result.encoded.assign(chars, chars + text.size());
        const std::vector<std::byte>& bin = build.doc.binary();
        if (!bin.empty()) result.textures.insert(result.textures.begin(), TextureFile{bin_name, bin});
    }
    if (result.encoded.size() > UINT32_MAX) {
        throw ConvertError(Refusal::Internal, "the glTF file would hold " +
                                                  std::to_string(result.encoded.size()) +
                                                  " bytes, more than a GLB's 32-bit length can say");
    }
}

} // namespace assbin::converter::gltf
