"""glTF sources made for the round trip (roundtrip_test.py): each covers what glTF and Assimp share,
so that source -> `assimp dump -b` (Debian's assimp-utils 5.2.5) -> `assbin convert` -> glTF can be
held to the source. Writes SOURCE.gltf files (buffers and images embedded) into the folder given.

    python3 make_sources.py FOLDER
"""

import base64
import json
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


SOURCES = {"masked_mirror": masked_mirror, "blended_repeat": blended_repeat}


def main(argv):
    folder = pathlib.Path(argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    for name, make in SOURCES.items():
        (folder / f"{name}.gltf").write_text(json.dumps(make(), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
