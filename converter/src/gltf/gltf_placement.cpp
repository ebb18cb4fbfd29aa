// Cameras and lights on the nodes that name them. Assimp gives each its own placement inside the
// node (position, look-at or direction, up); glTF's look down their node's -Z with +Y up, so that
// placement becomes a child node wherever it is not already glTF's. Mapping rules (docs/gltf.md):
// a camera's yfov from Assimp's horizontal field of view and aspect by the trigonometric relation
// (the angles of one frustum), except in a dump of Assimp's own glTF importer, which stores
// yfov · aspect as the horizontal angle: there yfov = horizontal / aspect gives the source's back; a light's
// colour is its diffuse colour divided by its largest component, which becomes the intensity; glTF lights
// fall off by the inverse square, so other attenuations are said in a warning; spot cone angles: aiLight's
// are the whole cone's (light.h; the Collada, FBX and Blender importers store them so), KHR_lights_punctual's
// are from the centre, so they are halved — except in a dump of Assimp's own glTF importer, which copies
// glTF's half angles into aiLight (such a dump is told by the $mat.gltf.* keys that importer gives every
// material); then limited to glTF's 0 <= inner < outer <= pi/2. That importer before Assimp 5.3.0 also
// copied a camera's node translation into its position: there the copy is not applied twice.
#include "gltf/gltf_convert.hpp"

#include <cmath>
#include <numbers>

namespace assbin::converter::gltf {

namespace {

// The node a camera or light named `name` hangs from: its node's content, or a new scene root
// (said) when no node has the name.
int64_t owner_of(Build& build, const std::string& name, size_t& unplaced) {
    if (const std::optional<uint32_t> node = node_named(build, name)) return build.content_of[*node];
    ++unplaced;
    return -1;
}

// The transform taking glTF's camera/light frame (looking down -Z, +Y up) to Assimp's placement.
// nullopt when it is the identity.
std::optional<Eigen::Matrix4d> placement(const Eigen::Vector3f& position, Eigen::Vector3f look,
                                         Eigen::Vector3f up) {
    if (!look.allFinite() || look.norm() < 1e-12f) look = Eigen::Vector3f(0, 0, -1);
    if (!up.allFinite() || up.norm() < 1e-12f) up = Eigen::Vector3f(0, 1, 0);
    const Eigen::Vector3d forward = look.cast<double>().normalized();
    Eigen::Vector3d right = forward.cross(up.cast<double>());
    if (right.norm() < 1e-9)
        right =
            forward.cross(std::abs(forward.y()) < 0.9 ? Eigen::Vector3d::UnitY() : Eigen::Vector3d::UnitX());
    right.normalize();
    const Eigen::Vector3d true_up = right.cross(forward);
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m.block<3, 1>(0, 0) = right;
    m.block<3, 1>(0, 1) = true_up;
    m.block<3, 1>(0, 2) = -forward;
    m.block<3, 1>(0, 3) =
        position.allFinite() ? Eigen::Vector3d(position.cast<double>()) : Eigen::Vector3d::Zero();
    if (m.isIdentity(1e-9)) return std::nullopt;
    return m;
}

// Attaches (camera or light) to `owner`, through a child node holding the placement if needed.
void attach(Build& build, int64_t owner, const std::string& name, const std::optional<Eigen::Matrix4d>& place,
            bool camera, uint32_t index) {
    Node holder;
    holder.name = name;
    (camera ? holder.camera : holder.light) = static_cast<int32_t>(index);
    if (!place && owner >= 0 && (camera ? build.nodes[owner].camera : build.nodes[owner].light) < 0) {
        (camera ? build.nodes[owner].camera : build.nodes[owner].light) = static_cast<int32_t>(index);
        return;
    }
    if (place) set_transform(holder, *place);
    build.add_node(std::move(holder), owner);
}

// Whether Assimp's glTF importer made the dump: it gives every material $mat.gltf.* keys (alpha
// mode, cutoff, ...), which no other importer writes.
bool made_by_gltf_importer(const assbin::Scene& scene) {
    for (const assbin::Material& material : scene.materials)
        for (const assbin::MaterialProperty& property : material.properties)
            if (property.key.starts_with("$mat.gltf.")) return true;
    return false;
}

// Whether `camera`'s position is its node's translation copied by Assimp's glTF importer before
// 5.3.0 (fixed by Assimp commit 9915e875, "glTF2: Fix incorrect camera position"): such a camera
// stands twice as far from its node's parent as the source says. A glTF camera has no position
// of its own, so in a dump of that importer a position equal to the node's translation is always
// the copy.
bool position_copied_from_node(const Build& build, const assbin::Camera& camera) {
    const std::optional<uint32_t> node = node_named(build, camera.name);
    if (!node || camera.position.isZero(0)) return false;
    const Eigen::Vector3f translation = build.scene.nodes[*node].transform.topRightCorner<3, 1>();
    return (translation - camera.position).cwiseAbs().maxCoeff() <= 1e-6f * (1 + translation.norm());
}

void write_cameras(Build& build, size_t& unplaced) {
    size_t dropped = 0, near_fixed = 0, copied_positions = 0;
    const bool from_gltf = made_by_gltf_importer(build.scene);
    for (const assbin::Camera& camera : build.scene.cameras) {
        const double hfov = camera.horizontal_fov;
        if (!std::isfinite(hfov) || hfov <= 0 || hfov >= std::numbers::pi) {
            ++dropped;
            continue;
        }
        const double aspect = std::isfinite(camera.aspect) && camera.aspect > 0 ? camera.aspect : 0.0;
        const double yfov = aspect <= 0 ? hfov
                            : from_gltf ? hfov / aspect // the importer's own relation, undone
                                        : 2 * std::atan(std::tan(hfov / 2) / aspect);
        double znear = camera.clip_near;
        if (!std::isfinite(znear) || znear <= 0) {
            znear = 1e-3;
            ++near_fixed;
        }
        std::string perspective = "\"yfov\":" + json_number(yfov) + ",\"znear\":" + json_number(znear);
        if (std::isfinite(camera.clip_far) && camera.clip_far > znear)
            perspective += ",\"zfar\":" + json_number(camera.clip_far);
        if (aspect > 0) perspective += ",\"aspectRatio\":" + json_number(aspect);
        std::string object = "\"type\":\"perspective\",\"perspective\":{" + perspective + "}";
        if (!camera.name.empty()) object = "\"name\":" + json_string(camera.name) + "," + object;
        const uint32_t index = build.doc.add(build.doc.cameras, object);
        const int64_t owner = owner_of(build, camera.name, unplaced);
        Eigen::Vector3f position = camera.position;
        if (from_gltf && position_copied_from_node(build, camera)) {
            position.setZero();
            ++copied_positions;
        }
        attach(build, owner, camera.name, placement(position, camera.look_at, camera.up), true, index);
    }
    build.stats.cameras_dropped = dropped;
    if (copied_positions > 0)
        build.report.warn(detail::count_of(copied_positions, "camera's", "cameras'") +
                          " position repeats its node's translation (Assimp's glTF importer before 5.3.0 "
                          "copied it there): placed by the node alone, as the source was");
    if (dropped > 0)
        build.report.warn(detail::count_of(dropped, "camera", "cameras") +
                          " with a field of view outside 0..180 degrees dropped (glTF needs one)");
    if (near_fixed > 0)
        build.report.warn(detail::count_of(near_fixed, "camera's", "cameras'") +
                          " near plane of 0 or less written as 0.001 (glTF needs a positive one)");
}

void write_lights(Build& build, size_t& unplaced) {
    size_t dropped = 0, attenuations = 0, cones = 0;
    const double cone_to_gltf =
        made_by_gltf_importer(build.scene) ? 1.0 : 0.5; // whole cone -> from the centre
    for (const assbin::Light& light : build.scene.lights) {
        const auto type = static_cast<assbin::LightType>(light.type);
        const char* kind = type == assbin::LightType::Directional ? "directional"
                           : type == assbin::LightType::Point     ? "point"
                           : type == assbin::LightType::Spot      ? "spot"
                                                                  : nullptr;
        if (!kind) {
            ++dropped;
            continue;
        }
        const Eigen::Vector3f colour = light.diffuse.allFinite()
                                           ? Eigen::Vector3f(light.diffuse.cwiseMax(0.0f))
                                           : Eigen::Vector3f::Zero();
        const float intensity = colour.maxCoeff();
        const Eigen::Vector3f unit =
            intensity > 0 ? Eigen::Vector3f(colour / intensity) : Eigen::Vector3f::Zero();
        std::string object = "\"type\":\"" + std::string(kind) + "\",\"color\":" + json_floats(unit) +
                             ",\"intensity\":" + json_float(intensity);
        if (!light.name.empty()) object = "\"name\":" + json_string(light.name) + "," + object;
        if (type != assbin::LightType::Directional) {
            const bool inverse_square = light.attenuation_constant == 0 && light.attenuation_linear == 0 &&
                                        light.attenuation_quadratic == 1;
            const bool none = light.attenuation_constant == 1 && light.attenuation_linear == 0 &&
                              light.attenuation_quadratic == 0;
            attenuations += !inverse_square && !none;
        }
        if (type == assbin::LightType::Spot) {
            const double half_pi = std::numbers::pi / 2;
            const double wanted_outer = light.outer_cone * cone_to_gltf;
            const double wanted_inner = light.inner_cone * cone_to_gltf;
            double outer =
                std::isfinite(wanted_outer) ? std::clamp<double>(wanted_outer, 1e-6, half_pi) : half_pi / 2;
            double inner = std::isfinite(wanted_inner) ? std::clamp<double>(wanted_inner, 0.0, half_pi) : 0.0;
            if (inner >= outer) inner = outer * 0.999;
            cones += outer != wanted_outer || inner != wanted_inner;
            object += ",\"spot\":{\"innerConeAngle\":" + json_number(inner) +
                      ",\"outerConeAngle\":" + json_number(outer) + "}";
        }
        const uint32_t index = build.doc.add(build.doc.lights, object);
        build.doc.use_extension("KHR_lights_punctual");
        const int64_t owner = owner_of(build, light.name, unplaced);
        const bool directed = type != assbin::LightType::Point;
        const Eigen::Vector3f look = directed ? light.direction : Eigen::Vector3f(0, 0, -1);
        attach(build, owner, light.name, placement(light.position, look, light.up), false, index);
    }
    build.stats.lights_dropped = dropped;
    if (dropped > 0)
        build.report.warn(detail::count_of(dropped, "ambient, area or undefined light",
                                           "ambient, area or undefined lights") +
                          " dropped: KHR_lights_punctual has directional, point and spot lights only");
    if (attenuations > 0)
        build.report.warn(
            detail::count_of(attenuations, "light's", "lights'") +
            " attenuation is not an inverse square; glTF's lights fall off by the inverse square");
    if (cones > 0)
        build.report.warn(detail::count_of(cones, "spot light's cone angles", "spot lights' cone angles") +
                          " limited to glTF's 0 <= inner < outer <= 90 degrees");
}

} // namespace

void write_cameras_and_lights(Build& build) {
    size_t unplaced = 0;
    write_cameras(build, unplaced);
    write_lights(build, unplaced);
    if (unplaced > 0)
        build.report.warn(detail::count_of(unplaced, "camera or light names", "cameras or lights name") +
                          " no node; placed at the scene root");
}

} // namespace assbin::converter::gltf
