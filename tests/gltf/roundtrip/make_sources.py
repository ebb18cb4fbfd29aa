"""glTF sources made for the round trip (roundtrip_test.py): each covers what glTF and Assimp share,
so that source -> `assimp dump -b` (Debian's assimp-utils 5.2.5) -> `assbin convert` -> glTF can be
held to the source. Writes SOURCE.gltf files (buffers and images embedded) into the folder given.

    python3 make_sources.py FOLDER
"""

import base64
import json
import math
import pathlib
import struct
import sys

# A 2 x 2 PNG (a chequer): the image every texture of the sources shows.
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==")


def quad_document():
    """One quad (positions, normals, UVs, 16-bit indices) with the buffers and one image embedded."""
    positions = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]
    normals = [0, 0, 1] * 4
    uvs = [0, 1, 1, 1, 1, 0, 0, 0]
    indices = [0, 1, 2, 0, 2, 3]
    data = (struct.pack("<12f", *positions) + struct.pack("<12f", *normals) + struct.pack("<8f", *uvs) +
            struct.pack("<6H", *indices) + b"\0\0")
    return {
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": len(data),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48},
                        {"buffer": 0, "byteOffset": 48, "byteLength": 48},
                        {"buffer": 0, "byteOffset": 96, "byteLength": 32},
                        {"buffer": 0, "byteOffset": 128, "byteLength": 12}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 0]},
                      {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC3"},
                      {"bufferView": 2, "componentType": 5126, "count": 4, "type": "VEC2"},
                      {"bufferView": 3, "componentType": 5123, "count": 6, "type": "SCALAR"}],
        "images": [{"uri": "data:image/png;base64," + base64.b64encode(PNG).decode()}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2},
                                    "indices": 3, "material": 0}]}],
    }


def masked_mirror():
    """MASK with a cutoff, double-sided, mirror x clamp, a texture transform with offset, rotation and
    scale, normal scale, emissive, factors; a spot light with cones; a perspective camera with an aspect."""
    doc = quad_document()
    doc["extensionsUsed"] = ["KHR_texture_transform", "KHR_lights_punctual"]
    doc["samplers"] = [{"wrapS": 33648, "wrapT": 33071}]
    doc["textures"] = [{"source": 0, "sampler": 0}]
    doc["materials"] = [{
        "name": "masked", "doubleSided": True, "alphaMode": "MASK", "alphaCutoff": 0.3,
        "pbrMetallicRoughness": {
            "baseColorTexture": {"index": 0, "extensions": {"KHR_texture_transform": {
                "offset": [0.1, 0.2], "rotation": 0.3927, "scale": [2, 3]}}},
            "metallicFactor": 0.25, "roughnessFactor": 0.75},
        "normalTexture": {"index": 0, "scale": 0.5}, "emissiveFactor": [0.1, 0.2, 0.3]}]
    doc["extensions"] = {"KHR_lights_punctual": {"lights": [
        {"name": "spot", "type": "spot", "color": [1, 0.5, 0.25], "intensity": 2,
         "spot": {"innerConeAngle": 0.3, "outerConeAngle": 0.6}}]}}
    doc["cameras"] = [{"type": "perspective",
                       "perspective": {"yfov": 0.7, "aspectRatio": 1.5, "znear": 0.1, "zfar": 100}}]
    doc["nodes"] = [{"name": "quad", "mesh": 0}, {"name": "cam", "camera": 0, "translation": [0, 0, 5]},
                    {"name": "spot", "extensions": {"KHR_lights_punctual": {"light": 0}}, "translation": [0, 3, 0]}]
    doc["scenes"] = [{"nodes": [0, 1, 2]}]
    doc["scene"] = 0
    return doc


def blended_repeat():
    """BLEND with a half-transparent base colour, single-sided, repeat x mirror, an offset-only texture
    transform, an occlusion strength; a point and a directional light; a camera without an aspect;
    TRS and matrix nodes, one inside the other, both holding the mesh."""
    doc = quad_document()
    doc["extensionsUsed"] = ["KHR_texture_transform", "KHR_lights_punctual"]
    doc["samplers"] = [{"wrapS": 10497, "wrapT": 33648}]
    doc["textures"] = [{"source": 0, "sampler": 0}]
    doc["materials"] = [{
        "name": "blended", "alphaMode": "BLEND",
        "pbrMetallicRoughness": {
            "baseColorFactor": [0.8, 0.6, 0.4, 0.5],
            "baseColorTexture": {"index": 0, "extensions": {"KHR_texture_transform": {"offset": [0.25, -0.5]}}},
            "metallicFactor": 0.0, "roughnessFactor": 0.5},
        "occlusionTexture": {"index": 0, "strength": 0.4}}]
    doc["extensions"] = {"KHR_lights_punctual": {"lights": [
        {"name": "bulb", "type": "point", "color": [0.2, 0.4, 1.0], "intensity": 5},
        {"name": "sun", "type": "directional", "color": [1, 1, 1], "intensity": 3}]}}
    doc["cameras"] = [{"type": "perspective", "perspective": {"yfov": 0.9, "znear": 0.5, "zfar": 50}}]
    # TRS and matrix nodes, nested: a rotated, scaled parent and a child placed by a matrix.
    doc["nodes"] = [{"name": "quad", "mesh": 0, "children": [4],
                     "translation": [1, 2, 3], "rotation": [0, 0.38268343, 0, 0.92387953], "scale": [2, 2, 2]},
                    {"name": "cam", "camera": 0, "translation": [0, 0, 4]},
                    {"name": "bulb", "extensions": {"KHR_lights_punctual": {"light": 0}}, "translation": [1, 1, 1]},
                    {"name": "sun", "extensions": {"KHR_lights_punctual": {"light": 1}}},
                    {"name": "child", "mesh": 0,
                     "matrix": [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0.5, -0.5, 2, 1]}]
    doc["scenes"] = [{"nodes": [0, 1, 2, 3]}]
    doc["scene"] = 0
    return doc


class Buffers:
    """Accessors appended to one embedded buffer, each in a view of its own (4-byte aligned)."""

    def __init__(self, doc):
        self.doc, self.data = doc, b""
        doc.setdefault("bufferViews", [])
        doc.setdefault("accessors", [])

    def add(self, kind, fmt, rows, component, **extra):
        if len(self.data) % 4:
            self.data += b"\0" * (4 - len(self.data) % 4)
        flat = [v for row in rows for v in (row if isinstance(row, (list, tuple)) else [row])]
        packed = struct.pack(f"<{len(flat)}{fmt}", *flat)
        self.doc["bufferViews"].append({"buffer": 0, "byteOffset": len(self.data), "byteLength": len(packed)})
        self.data += packed
        accessor = {"bufferView": len(self.doc["bufferViews"]) - 1, "componentType": component,
                    "count": len(rows), "type": kind, **extra}
        self.doc["accessors"].append(accessor)
        return len(self.doc["accessors"]) - 1

    def floats(self, kind, rows, bounds=False):
        extra = {}
        if bounds:
            extra = {"min": [min(r[c] for r in rows) for c in range(len(rows[0]))],
                     "max": [max(r[c] for r in rows) for c in range(len(rows[0]))]}
        return self.add(kind, "f", rows, 5126, **extra)

    def finish(self):
        self.doc["buffers"] = [{"byteLength": len(self.data),
                                "uri": "data:application/octet-stream;base64," + base64.b64encode(self.data).decode()}]


def every_slot():
    """Each texture slot (base colour, metallic-roughness, normal, occlusion, emissive) on UV set 0
    or 1, each through a sampler of its own wrap modes, one of them with a texture transform on set 1;
    two UV sets that differ, so a set swapped shows."""
    doc = {"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_texture_transform"]}
    buffers = Buffers(doc)
    positions = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
    position = buffers.floats("VEC3", positions, bounds=True)
    normal = buffers.floats("VEC3", [(0, 0, 1)] * 4)
    uv0 = buffers.floats("VEC2", [(0, 1), (1, 1), (1, 0), (0, 0)])
    uv1 = buffers.floats("VEC2", [(0.25, 0.75), (2, 0.5), (1.5, -1), (0.5, 0)])
    indices = buffers.add("SCALAR", "H", [0, 1, 2, 0, 2, 3], 5123)
    buffers.finish()
    doc["images"] = [{"uri": "data:image/png;base64," + base64.b64encode(PNG).decode()}]
    # One sampler per slot: (wrapS, wrapT), no two alike.
    wraps = [(33071, 10497), (33648, 33071), (10497, 33648), (33648, 33648), (33071, 33071)]
    doc["samplers"] = [{"wrapS": s, "wrapT": t} for s, t in wraps]
    doc["textures"] = [{"source": 0, "sampler": k} for k in range(len(wraps))]
    doc["materials"] = [{
        "name": "every slot",
        "pbrMetallicRoughness": {
            "baseColorTexture": {"index": 0, "texCoord": 1},
            "metallicRoughnessTexture": {"index": 1, "texCoord": 0},
            "metallicFactor": 0.5, "roughnessFactor": 0.5},
        "normalTexture": {"index": 2, "texCoord": 1, "scale": 0.75,
                          "extensions": {"KHR_texture_transform": {"offset": [0.5, 0.25], "scale": [2, 2]}}},
        "occlusionTexture": {"index": 3, "texCoord": 0, "strength": 0.6},
        "emissiveTexture": {"index": 4, "texCoord": 1}, "emissiveFactor": [1, 0.5, 0.25]}]
    doc["meshes"] = [{"primitives": [{"attributes": {"POSITION": position, "NORMAL": normal, "TEXCOORD_0": uv0,
                                                     "TEXCOORD_1": uv1}, "indices": indices, "material": 0}]}]
    doc["nodes"] = [{"name": "quad", "mesh": 0}]
    doc["scenes"] = [{"nodes": [0]}]
    doc["scene"] = 0
    return doc


def shared_skins():
    """Two meshes skinned by two skins that share joints (listed in different orders, each skin with a
    joint of its own), one of them with vertices whose weights are all zero, under a parent that is
    not at the identity; animations with LINEAR, STEP and CUBICSPLINE samplers on rotations,
    translations and scales, at times the two animations do not share."""
    doc = {"asset": {"version": "2.0"}}
    buffers = Buffers(doc)
    # A strip of 3 x 2 quads along y (rows at y = 0, 1, 2, 3), bent by joints at y = 0, 1.5 and 3.
    positions = [(x, y, 0) for y in range(4) for x in (0, 1)]
    triangles = [i for r in range(3) for i in (2 * r, 2 * r + 1, 2 * r + 3, 2 * r, 2 * r + 3, 2 * r + 2)]
    strip_position = buffers.floats("VEC3", positions, bounds=True)
    strip_indices = buffers.add("SCALAR", "H", triangles, 5123)
    # Skin 0 joints: [root, middle, tip]; rows 0-1 on root/middle, row 2 on middle/tip, row 3 unweighted.
    joints_a = [(0, 1, 0, 0)] * 4 + [(1, 2, 0, 0)] * 2 + [(0, 0, 0, 0)] * 2
    weights_a = [(1, 0, 0, 0)] * 2 + [(0.5, 0.5, 0, 0)] * 2 + [(0.25, 0.75, 0, 0)] * 2 + [(0, 0, 0, 0)] * 2
    joints_0 = buffers.add("VEC4", "B", joints_a, 5121)
    weights_0 = buffers.floats("VEC4", weights_a)
    # Skin 1 joints: [tip, side, middle] (the same joints in another order, and one of its own).
    joints_b = [(2, 0, 0, 0)] * 2 + [(2, 1, 0, 0)] * 2 + [(1, 0, 0, 0)] * 2 + [(0, 1, 0, 0)] * 2
    weights_b = [(1, 0, 0, 0)] * 2 + [(0.6, 0.4, 0, 0)] * 2 + [(1, 0, 0, 0)] * 2 + [(0.3, 0.7, 0, 0)] * 2
    joints_1 = buffers.add("VEC4", "B", joints_b, 5121)
    weights_1 = buffers.floats("VEC4", weights_b)

    def translation(x, y, z):
        return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]

    # Joint globals at rest: root (0,0,0), middle (0,1.5,0), tip (0,3,0), side (2,1.5,0).
    bind_a = buffers.floats("MAT4", [translation(0, 0, 0), translation(0, -1.5, 0), translation(0, -3, 0)])
    bind_b = buffers.floats("MAT4", [translation(0, -3, 0), translation(-2, -1.5, 0), translation(0, -1.5, 0)])
    # Animation "bend": LINEAR rotation of the middle, CUBICSPLINE translation of the tip, STEP scale of
    # the side joint.
    times_bend = buffers.floats("SCALAR", [0.0, 0.5, 1.0])
    rotations = [(0, 0, 0, 1), (0, 0, 0.38268343, 0.92387953), (0, 0, 0.70710678, 0.70710678)]
    rotation_out = buffers.floats("VEC4", rotations)
    cubic_translations = [(0, 0, 0), (0, 1.5, 0), (0.5, 0, 0),
                          (0.25, 0, 0), (0.5, 1.5, 0.5), (-0.5, 0, 0),
                          (0, 0, 0), (1, 1.5, 0), (0, 0, 0)]
    translation_out = buffers.floats("VEC3", cubic_translations)
    times_step = buffers.floats("SCALAR", [0.0, 0.25, 0.75])
    scale_out = buffers.floats("VEC3", [(1, 1, 1), (2, 1, 1), (1, 0.5, 1)])
    # Animation "sway": CUBICSPLINE rotation of the root, LINEAR translation of the middle.
    times_sway = buffers.floats("SCALAR", [0.0, 0.4, 1.2, 2.0])
    cubic_rotations = []
    for angle in (0.0, 0.3, -0.2, 0.1):
        value = (math.sin(angle / 2), 0, 0, math.cos(angle / 2))
        cubic_rotations += [(0, 0, 0, 0), value, (0, 0, 0, 0)]
    sway_rotation = buffers.floats("VEC4", cubic_rotations)
    sway_translation = buffers.floats("VEC3", [(0, 1.5, 0), (0.2, 1.5, 0), (0, 1.7, 0.3), (0, 1.5, 0)])
    buffers.finish()
    doc["meshes"] = [
        {"name": "strip", "primitives": [{"attributes": {"POSITION": strip_position, "JOINTS_0": joints_0,
                                                         "WEIGHTS_0": weights_0}, "indices": strip_indices}]},
        {"name": "twin", "primitives": [{"attributes": {"POSITION": strip_position, "JOINTS_0": joints_1,
                                                        "WEIGHTS_0": weights_1}, "indices": strip_indices}]}]
    doc["skins"] = [{"joints": [1, 2, 3], "inverseBindMatrices": bind_a, "skeleton": 1},
                    {"joints": [3, 4, 2], "inverseBindMatrices": bind_b, "skeleton": 1}]
    doc["nodes"] = [
        {"name": "holder", "translation": [5, 0, 0], "rotation": [0, 0.38268343, 0, 0.92387953], "children": [5, 6]},
        {"name": "root", "children": [2, 4]},
        {"name": "middle", "translation": [0, 1.5, 0], "children": [3]},
        {"name": "tip", "translation": [0, 1.5, 0]},
        {"name": "side", "translation": [2, 1.5, 0]},
        {"name": "strip node", "mesh": 0, "skin": 0},
        {"name": "twin node", "mesh": 1, "skin": 1}]
    doc["animations"] = [
        {"name": "bend",
         "samplers": [{"input": times_bend, "output": rotation_out, "interpolation": "LINEAR"},
                      {"input": times_bend, "output": translation_out, "interpolation": "CUBICSPLINE"},
                      {"input": times_step, "output": scale_out, "interpolation": "STEP"}],
         "channels": [{"sampler": 0, "target": {"node": 2, "path": "rotation"}},
                      {"sampler": 1, "target": {"node": 3, "path": "translation"}},
                      {"sampler": 2, "target": {"node": 4, "path": "scale"}}]},
        {"name": "sway",
         "samplers": [{"input": times_sway, "output": sway_rotation, "interpolation": "CUBICSPLINE"},
                      {"input": times_sway, "output": sway_translation, "interpolation": "LINEAR"}],
         "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}},
                      {"sampler": 1, "target": {"node": 2, "path": "translation"}}]}]
    doc["scenes"] = [{"nodes": [0, 1]}]
    doc["scene"] = 0
    return doc


SOURCES = {"masked_mirror": masked_mirror, "blended_repeat": blended_repeat, "every_slot": every_slot,
           "shared_skins": shared_skins}


def main(argv):
    folder = pathlib.Path(argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    for name, make in SOURCES.items():
        (folder / f"{name}.gltf").write_text(json.dumps(make(), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
