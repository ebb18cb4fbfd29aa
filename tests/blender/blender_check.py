"""Runs inside Blender (`blender -b --factory-startup --python blender_check.py -- LIST REPORT
[MODULE_DIR]`): imports each .glb named in LIST (one per line, with its dump after a tab when
MODULE_DIR holds the built assbin module) with Blender's own glTF importer at its defaults ("Guess Original Bind Pose"
on) and holds what Blender shows to what the file means, by the test's own reading of the file
(tests/gltf/roundtrip/gltf_eval.py, written from the glTF specification):

- counts: meshes, vertices, materials, images, armature bones (every joint a bone), animations (an
  NLA track per glTF animation), lights and cameras;
- per material: backface culling = not doubleSided, blend mode and cutoff = alphaMode and alphaCutoff,
  each image node's extension and wrap nodes = its sampler's wrap modes, the normal map node's
  strength = the normal texture's scale;
- per spot light: its size = 2 x the outer cone angle;
- and, from the dump itself (dump_differences): lights, cameras, spot sizes from aiLight's cones,
  backface culling and image wrap modes per material from $mat.twosided and $tex.mapmodeu/v, meshes,
  bones (each that names a node);
- every vertex of every mesh object where Blender draws it: at rest in a file without animations,
  else for each animation at its first key time and at the key time nearest its middle, against the test's own skinning of the file,
  within 1e-4 of the model's size.

Writes one JSON line per file to REPORT: {"file": ..., "differences": [...], "shown": {what Blender
showed, counted}, "seconds": ...}.

Debian's Blender 3.4.1 with Debian's NumPy 1.24 cannot import any glTF mesh as shipped: its importer
uses `numpy.bool`, which NumPy 1.24 removed. This process sets `numpy.bool = bool` (the alias it
was) before importing; nothing else is changed.
"""

import json
import math
import pathlib
import sys
import time

import numpy

numpy.bool = bool  # see above: Blender 3.4's glTF importer needs the alias NumPy 1.24 removed

import bpy  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "gltf" / "roundtrip"))
import gltf_eval  # noqa: E402

WRAP_NODE = {10497: "WRAP", 33648: "PINGPONG", 33071: "CLAMP"}
SLOTS = gltf_eval.SLOTS


def animation_names(doc):
    """Each glTF animation's name as Blender gives it: "Anim_K" for an unnamed one, and a repeated
    name made unique as Blender makes names (NAME.001, NAME.002, ...), in the file's order."""
    out, taken = [], set()
    for k, animation in enumerate(doc.get("animations")):
        name = animation.get("name") or f"Anim_{k}"
        unique, n = name, 0
        while unique in taken:
            n += 1
            unique = f"{name}.{n:03d}"
        taken.add(unique)
        out.append(unique)
    return out


def expected_counts(doc):
    nodes = doc.get("nodes")
    meshes = sorted({node["mesh"] for node in nodes if "mesh" in node})
    vertices = 0
    material_variants = set()
    for m in meshes:
        for primitive in doc.get("meshes")[m]["primitives"]:
            if "indices" in primitive:
                vertices += len({int(i[0]) for i in doc.accessor(primitive["indices"])})
            else:
                vertices += doc.json["accessors"][primitive["attributes"]["POSITION"]]["count"]
            if "material" in primitive:
                material_variants.add((primitive["material"], "COLOR_0" in primitive["attributes"]))
    images = set()
    for material, _ in material_variants:
        info = doc.get("materials")[material]
        for slot in SLOTS:
            texture = (info.get("pbrMetallicRoughness", {}).get(slot) or info.get(slot) or {}).get("index")
            if texture is not None and "source" in doc.get("textures")[texture]:
                images.add(doc.get("textures")[texture]["source"])
    light_of = [node.get("extensions", {}).get("KHR_lights_punctual", {}).get("light") for node in nodes]
    return {
        "meshes": len(meshes),
        "vertices": vertices,
        "materials": len(material_variants),
        "images": len(images),
        "lights": len({light for light in light_of if light is not None}),
        "cameras": len({node["camera"] for node in nodes if "camera" in node}),
        "animations": sorted(animation_names(doc)),
    }


def shown_counts():
    tracks = set()
    for obj in bpy.data.objects:
        if obj.animation_data:
            tracks.update(track.name for track in obj.animation_data.nla_tracks)
    return {
        "meshes": len(bpy.data.meshes),
        "vertices": sum(len(mesh.vertices) for mesh in bpy.data.meshes),
        "materials": len(bpy.data.materials),
        "images": len(bpy.data.images),
        "lights": len(bpy.data.lights),
        "cameras": len(bpy.data.cameras),
        "animations": sorted(tracks),
    }


def material_signature(doc, material):
    """What Blender should show of a glTF material: culling, blend, cutoff, normal strength and one
    (extension, S wrap node, T wrap node) per texture it draws."""
    mode = material.get("alphaMode", "OPAQUE")
    textures = []
    for slot in SLOTS:
        info = material.get("pbrMetallicRoughness", {}).get(slot) or material.get(slot)
        if info is None:
            continue
        texture = doc.get("textures")[info["index"]]
        sampler = doc.get("samplers")[texture["sampler"]] if "sampler" in texture else {}
        wrap = (sampler.get("wrapS", 10497), sampler.get("wrapT", 10497))
        if wrap == (10497, 10497):
            textures.append(("REPEAT", None, None))
        elif wrap == (33071, 33071):
            textures.append(("EXTEND", None, None))
        else:
            textures.append(("EXTEND", WRAP_NODE[wrap[0]], WRAP_NODE[wrap[1]]))
    normal = material.get("normalTexture")
    return (not material.get("doubleSided", False),
            {"OPAQUE": "OPAQUE", "MASK": "CLIP", "BLEND": "BLEND"}[mode],
            round(material.get("alphaCutoff", 0.5), 5) if mode == "MASK" else None,
            round(normal.get("scale", 1.0), 5) if normal else None,
            tuple(sorted(textures, key=str)))


def shown_image_signature(node):
    """An image node's extension and the wrap node (WRAP, PINGPONG, or CLAMP for none) Blender put on
    each UV axis, when it split them (its importer does for any wrap pair but REPEAT x REPEAT and
    CLAMP x CLAMP)."""
    wraps = [None, None]
    links = node.inputs[0].links
    if links and links[0].from_node.type == "COMBXYZ":
        combine = links[0].from_node
        for axis in (0, 1):
            feed = combine.inputs[axis].links
            wraps[axis] = feed[0].from_node.operation if feed and feed[0].from_node.type == "MATH" else "CLAMP"
    return (node.extension, wraps[0], wraps[1])


def shown_signature(material):
    textures = []
    strength = None
    for node in material.node_tree.nodes if material.node_tree else []:
        if node.type == "NORMAL_MAP":
            strength = round(node.inputs["Strength"].default_value, 5)
        if node.type == "TEX_IMAGE" and node.image is not None:
            textures.append(shown_image_signature(node))
    mode = material.blend_method
    return (material.use_backface_culling, mode,
            round(material.alpha_threshold, 5) if mode == "CLIP" else None, strength,
            tuple(sorted(textures, key=str)))


def blender_axes(points):
    """glTF's +Y up as Blender's +Z up (its importer's conversion: x, y, z -> x, -z, y)."""
    return [(x, -z, y) for x, y, z in points]


def shown_points(depsgraph):
    points = []
    for obj in bpy.data.objects:
        if obj.type != "MESH":
            continue
        evaluated = obj.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        coords = numpy.empty(len(mesh.vertices) * 3)
        mesh.vertices.foreach_get("co", coords)
        matrix = numpy.array(evaluated.matrix_world)
        coords = coords.reshape(-1, 3) @ matrix[:3, :3].T + matrix[:3, 3]
        points += [tuple(p) for p in coords.tolist()]
        evaluated.to_mesh_clear()
    return points


def rest_state():
    """Every object's transform and every pose bone's basis as imported, to restore between actions."""
    state = []
    for obj in bpy.data.objects:
        state.append((obj, obj.matrix_basis.copy(), [(b, b.matrix_basis.copy()) for b in obj.pose.bones]
                      if obj.pose else []))
    return state


def pose_at(state, animation_name, seconds):
    """Blender's scene with only `animation_name`'s actions active (None: none), at `seconds`."""
    scene = bpy.context.scene
    for obj, basis, bones in state:
        obj.matrix_basis = basis
        for bone, bone_basis in bones:
            bone.matrix_basis = bone_basis
        if obj.animation_data:
            action = None
            for track in obj.animation_data.nla_tracks:
                track.mute = True
                if track.name == animation_name and track.strips:
                    action = track.strips[0].action
            obj.animation_data.action = action
    frame = seconds * scene.render.fps
    scene.frame_set(int(math.floor(frame)), subframe=frame - math.floor(frame))
    return bpy.context.evaluated_depsgraph_get()


MAP_MODE_WRAP = {0: 10497, 1: 33071, 2: 33648, 3: 33071}  # aiTextureMapMode: wrap, clamp, mirror, decal


def integer_key(material, key, semantic=0):
    """An integer material key as Assimp's aiGetMaterialIntegerArray reads it: an integer, a 1-byte
    buffer as that byte, a buffer of 4-byte integers, floats truncated; None when absent."""
    value = material.get(key, semantic)
    if value is None or isinstance(value, str):
        return None
    if isinstance(value, bytes):
        if len(value) == 1:
            return int.from_bytes(value, "little", signed=True)
        return int.from_bytes(value[:4], "little", signed=True) if len(value) >= 4 else None
    return int(value[0]) if value else None


def image_signature(wrap):
    if wrap == (10497, 10497):
        return ("REPEAT", None, None)
    if wrap == (33071, 33071):
        return ("EXTEND", None, None)
    return ("EXTEND", WRAP_NODE[wrap[0]], WRAP_NODE[wrap[1]])


def dump_differences(dump_path):
    """What Blender shows held to the dump itself, read by the project's Python module (its reader's
    raw keys; their meaning taken here from Assimp's getters and light.h): lights, cameras, spot
    sizes, backface culling and each image node's wrap modes per uniquely named material, meshes,
    and every bone a bone."""
    import assbin  # the built module, on sys.path from the driver (Blender's Python is Debian's)
    scene = assbin.read(dump_path)
    found = []
    drawable = [light for light in scene.lights if light.type in (1, 2, 3)]  # ambient and area: none in glTF
    if len(drawable) != len(bpy.data.lights):
        found.append(f"dump: {len(drawable)} directional, point and spot lights, Blender shows {len(bpy.data.lights)}")
    cameras = [c for c in scene.cameras if 0 < c.horizontal_fov < math.pi]
    if len(cameras) != len(bpy.data.cameras):
        found.append(f"dump: {len(cameras)} cameras with a field of view, Blender shows {len(bpy.data.cameras)}")
    # aiLight's cone angles are the whole cone's (light.h), except in a dump of Assimp's glTF importer
    # (its $mat.gltf.* keys), which copies glTF's half angles: Blender's spot size is the whole cone,
    # at most 180 degrees (glTF's outer cone is at most 90).
    from_gltf = any(p.key.startswith("$mat.gltf.") for m in scene.materials for p in m.properties)
    want_spots = sorted(round(min((2 if from_gltf else 1) * light.outer_cone, math.pi), 3)
                        for light in drawable if light.type == 3)
    shown_spots = sorted(round(light.spot_size, 3) for light in bpy.data.lights if light.type == "SPOT")
    if want_spots != shown_spots:
        found.append(f"dump: spot cones give sizes {want_spots}, Blender shows {shown_spots}")
    names = [m.name for m in scene.materials]
    for material in scene.materials:
        if not material.name or names.count(material.name) > 1 or material.name not in bpy.data.materials:
            continue
        shown = bpy.data.materials[material.name]
        two_sided = integer_key(material, "$mat.twosided")
        if shown.use_backface_culling != (not two_sided):
            found.append(f"dump: material {material.name!r} is {'two' if two_sided else 'single'}-sided, "
                         f"Blender's backface culling is {shown.use_backface_culling}")
        wraps = {image_signature((MAP_MODE_WRAP.get(integer_key(material, "$tex.mapmodeu", p.semantic), 10497),
                                  MAP_MODE_WRAP.get(integer_key(material, "$tex.mapmodev", p.semantic), 10497)))
                 for p in material.properties if p.key == "$tex.file" and p.index == 0}
        for node in shown.node_tree.nodes if shown.node_tree else []:
            if node.type == "TEX_IMAGE" and node.image is not None:
                signature = shown_image_signature(node)
                if signature not in wraps:
                    found.append(f"dump: material {material.name!r}: an image node wraps {signature}, "
                                 f"its textures' map modes say {sorted(wraps, key=str)}")
    placed = {m for node in scene.nodes for m in node.mesh_indices}
    if len(placed) != len(bpy.data.meshes):
        found.append(f"dump: {len(placed)} meshes placed by nodes, Blender shows {len(bpy.data.meshes)}")
    bones = {bone.name for armature in bpy.data.armatures for bone in armature.bones}
    node_names = {node.name for node in scene.nodes}
    for mesh in scene.meshes:
        for bone in mesh.bones:  # a bone that names no node moves nothing in Assimp either
            if bone.name in node_names and bone.name not in bones:
                found.append(f"dump: bone {bone.name!r} is no bone of Blender's armatures")
    return found


def check(path, tally, dump=None):
    differences = []
    bpy.ops.wm.read_factory_settings(use_empty=True)
    doc = gltf_eval.Document(path)
    try:
        bpy.ops.import_scene.gltf(filepath=str(path))
    except Exception as error:  # Blender's importer raising is what this test exists to find
        return [f"Blender's import failed: {error}"]
    want, shown = expected_counts(doc), shown_counts()
    for key, value in shown.items():
        tally[key] = tally.get(key, 0) + (len(value) if isinstance(value, list) else value)
    tally["bones"] = tally.get("bones", 0) + sum(len(armature.bones) for armature in bpy.data.armatures)
    for key, value in want.items():
        if shown[key] != value:
            differences.append(f"{key}: Blender shows {shown[key]}, the file has {value}")
    # Materials, as multisets of what each shows (Blender names and splits them its own way).
    used = {(p["material"], "COLOR_0" in p["attributes"]) for node in doc.get("nodes") if "mesh" in node
            for p in doc.get("meshes")[node["mesh"]]["primitives"] if "material" in p}
    want_materials = sorted((material_signature(doc, doc.get("materials")[m]) for m, _ in used), key=str)
    shown_materials = sorted((shown_signature(m) for m in bpy.data.materials), key=str)
    if want_materials != shown_materials:
        missing = [s for s in want_materials if s not in shown_materials]
        extra = [s for s in shown_materials if s not in want_materials]
        differences.append(f"materials differ: the file's {missing[:3]} against Blender's {extra[:3]}")
    # Every joint is a bone.
    bones = {bone.name for armature in bpy.data.armatures for bone in armature.bones}
    for skin in doc.get("skins"):
        for joint in skin["joints"]:
            name = doc.get("nodes")[joint].get("name")
            if name is not None and name not in bones:
                differences.append(f"joint {name!r} is no bone of Blender's armatures")
    # Spot sizes.
    lights = doc.json.get("extensions", {}).get("KHR_lights_punctual", {}).get("lights", [])
    used_lights = {node.get("extensions", {}).get("KHR_lights_punctual", {}).get("light")
                   for node in doc.get("nodes")} - {None}
    want_spots = sorted(round(2 * lights[k].get("spot", {}).get("outerConeAngle", math.pi / 4), 4)
                        for k in used_lights if lights[k]["type"] == "spot")
    shown_spots = sorted(round(light.spot_size, 4) for light in bpy.data.lights if light.type == "SPOT")
    if want_spots != shown_spots:
        differences.append(f"spot sizes: Blender shows {shown_spots}, the file's cones give {want_spots}")
    if dump is not None:
        differences += dump_differences(dump)
    # Poses: at rest, then each animation's first key time and the key time nearest its middle.
    rest = [p for points in gltf_eval.world_points(doc).values() for p in points]
    if rest:
        lo = [min(p[c] for p in rest) for c in range(3)]
        hi = [max(p[c] for p in rest) for c in range(3)]
        tolerance = 1e-4 * max(math.dist(lo, hi), 1e-6)
        state = rest_state()
        # At rest only without animations: Blender shows an animated file in its first animation's
        # pose, its armature at rest in the guessed bind pose, never the nodes' own transforms.
        cases = [] if doc.get("animations") else [(None, None, 0.0)]
        for animation, name in zip(doc.get("animations"), animation_names(doc)):
            times = gltf_eval.key_times(doc, animation)
            middle = min(times, key=lambda t: abs(t - (times[0] + times[-1]) / 2))
            cases += [(animation, name, times[0]), (animation, name, middle)]
        for animation, name, seconds in cases:
            want = blender_axes(p for points in gltf_eval.world_points(doc, animation, seconds).values()
                                for p in points)
            got = shown_points(pose_at(state, name, seconds))
            tally["poses"] = tally.get("poses", 0) + 1
            lost = len(gltf_eval.unmatched(want, got, tolerance)) + len(gltf_eval.unmatched(got, want, tolerance))
            if lost:
                when = "at rest" if animation is None else f"animation {name!r} at {seconds:g} s"
                differences.append(f"{when}: {lost} vertices of the file's skinning and Blender's "
                                   f"differ by more than {tolerance:.3g}")
    return differences


def main():
    arguments = sys.argv[sys.argv.index("--") + 1:]
    if len(arguments) > 2:  # the folder of the built assbin module, to read the dumps
        sys.path.insert(0, arguments[2])
    files = pathlib.Path(arguments[0]).read_text().split("\n")
    with open(arguments[1], "w") as report:
        for line in filter(None, files):
            name, _, dump = line.partition("\t")
            start = time.monotonic()
            tally = {}
            try:
                differences = check(pathlib.Path(name), tally, dump or None)
            except Exception as error:  # an error of the check itself: reported, the sweep goes on
                differences = [f"the check failed: {type(error).__name__}: {error}"]
            report.write(json.dumps({"file": name, "differences": differences, "shown": tally,
                                     "seconds": round(time.monotonic() - start, 3)}) + "\n")
            report.flush()


main()
