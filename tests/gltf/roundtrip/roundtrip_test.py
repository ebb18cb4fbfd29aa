"""Round trips from real sources, an oracle that does not share the converter's assumptions: each glTF
source of make_sources.py is dumped by Debian's `assimp` (assimp-utils 5.2.5: `assimp dump IN OUT -b`)
where it is installed, else the dump committed beside this file (made the same way) is used; the
dump is converted back to glTF by `assbin convert`, and the result is held to the source on
everything the dump carries: per material (by name) double-sided, alpha mode and cutoff, base colour
factor, metallic and roughness, normal scale, occlusion strength, emissive factor, the base colour
texture's transform (offset, rotation, scale) and its sampler's wrap modes; per light (by name) type,
colour times intensity and spot cones; per camera yfov, aspect ratio, near and far planes; per named
node its global transform (TRS and matrix nodes, nested).

    python3 roundtrip_test.py ASSBIN_PROGRAM [--update]   (--update rewrites the committed dumps)

Prints one line per difference, then "roundtrip: N passed, M failed" and exits 1 when M > 0.
"""

import json
import math
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import make_sources  # noqa: E402

TOLERANCE = 1e-5  # float32 through the dump


def close(a, b):
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    return isinstance(b, (int, float)) and math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def material_facts(doc, material):
    """What a viewer reads of a material, with glTF's defaults filled in."""
    pbr = material.get("pbrMetallicRoughness", {})
    facts = {
        "doubleSided": material.get("doubleSided", False),
        "alphaMode": material.get("alphaMode", "OPAQUE"),
        "metallicFactor": pbr.get("metallicFactor", 1.0),
        "roughnessFactor": pbr.get("roughnessFactor", 1.0),
        "emissiveFactor": material.get("emissiveFactor", [0, 0, 0]),
    }
    if facts["alphaMode"] == "MASK":
        facts["alphaCutoff"] = material.get("alphaCutoff", 0.5)
    if "baseColorFactor" in pbr or "baseColorTexture" not in pbr:
        facts["baseColorFactor"] = pbr.get("baseColorFactor", [1, 1, 1, 1])
    if "normalTexture" in material:
        facts["normalTexture.scale"] = material["normalTexture"].get("scale", 1.0)
    if "occlusionTexture" in material:
        facts["occlusionTexture.strength"] = material["occlusionTexture"].get("strength", 1.0)
    info = pbr.get("baseColorTexture")
    if info is not None:
        transform = info.get("extensions", {}).get("KHR_texture_transform", {})
        facts["transform.offset"] = transform.get("offset", [0, 0])
        facts["transform.rotation"] = transform.get("rotation", 0.0)
        facts["transform.scale"] = transform.get("scale", [1, 1])
        texture = doc["textures"][info["index"]]
        sampler = doc.get("samplers", [])[texture["sampler"]] if "sampler" in texture else {}
        facts["wrapS"] = sampler.get("wrapS", 10497)
        facts["wrapT"] = sampler.get("wrapT", 10497)
    return facts


def light_facts(light):
    colour = [c * light.get("intensity", 1.0) for c in light.get("color", [1, 1, 1])]
    facts = {"type": light["type"], "color * intensity": colour}
    if light["type"] == "spot":
        spot = light.get("spot", {})
        facts["innerConeAngle"] = spot.get("innerConeAngle", 0.0)
        facts["outerConeAngle"] = spot.get("outerConeAngle", math.pi / 4)
    return facts


def camera_facts(camera):
    perspective = camera["perspective"]
    facts = {"yfov": perspective["yfov"], "znear": perspective["znear"]}
    for key in ("aspectRatio", "zfar"):
        if key in perspective:
            facts[key] = perspective[key]
    return facts


def matmul(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(4)) for c in range(4)] for r in range(4)]


def local_matrix(node):
    """A node's transform as rows, from its column-major matrix or its T·R·S."""
    if "matrix" in node:
        m = node["matrix"]
        return [[m[c * 4 + r] for c in range(4)] for r in range(4)]
    tx, ty, tz = node.get("translation", [0, 0, 0])
    x, y, z, w = node.get("rotation", [0, 0, 0, 1])
    sx, sy, sz = node.get("scale", [1, 1, 1])
    rotation = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    scale = (sx, sy, sz)
    rows = [[rotation[r][c] * scale[c] for c in range(3)] + [(tx, ty, tz)[r]] for r in range(3)]
    return rows + [[0, 0, 0, 1]]


def named_globals(doc):
    """Every named node's global transform (a name on several nodes: the first)."""
    nodes = doc.get("nodes", [])
    parent = {}
    for p, node in enumerate(nodes):
        for child in node.get("children", []):
            parent[child] = p
    out = {}
    for n, node in enumerate(nodes):
        matrix, at = local_matrix(node), n
        while at in parent:
            at = parent[at]
            matrix = matmul(local_matrix(nodes[at]), matrix)
        out.setdefault(node.get("name"), matrix)
    return out


def differences(source, back):
    found = []
    # Every named node of the source stands where it stood (the writer may add nodes between).
    globals_back = named_globals(back)
    for name, matrix in named_globals(source).items():
        if name is None:
            continue
        if name not in globals_back:
            found.append(f"node {name!r} missing")
        elif not close(sum(matrix, []), sum(globals_back[name], [])):
            found.append(f"node {name!r} stands at {globals_back[name]}, the source's {matrix}")

    def compare(what, want, got):
        for key, value in want.items():
            if key not in got:
                found.append(f"{what}: {key} missing (the source has {value})")
            elif not (close(value, got[key]) if not isinstance(value, (str, bool)) else value == got[key]):
                found.append(f"{what}: {key} is {got[key]}, the source's {value}")

    by_name = {m.get("name"): m for m in back.get("materials", [])}
    for material in source.get("materials", []):
        name = material["name"]
        if name not in by_name:
            found.append(f"material {name!r} missing")
            continue
        compare(f"material {name!r}", material_facts(source, material), material_facts(back, by_name[name]))
    lights_back = {l.get("name"): l for l in back.get("extensions", {}).get("KHR_lights_punctual", {}).get("lights", [])}
    for light in source.get("extensions", {}).get("KHR_lights_punctual", {}).get("lights", []):
        if light["name"] not in lights_back:
            found.append(f"light {light['name']!r} missing")
            continue
        compare(f"light {light['name']!r}", light_facts(light), light_facts(lights_back[light["name"]]))
    cameras_back = back.get("cameras", [])
    for k, camera in enumerate(source.get("cameras", [])):
        if k >= len(cameras_back):
            found.append(f"camera {k} missing")
            continue
        want = camera_facts(camera)
        if "aspectRatio" not in want:  # Assimp keeps no aspect it was not given: 0, written without one
            cameras_back[k]["perspective"].pop("aspectRatio", None)
        compare(f"camera {k}", want, camera_facts(cameras_back[k]))
    return found


def main(argv):
    program, update = argv[1], "--update" in argv
    assimp = shutil.which("assimp")
    if update and not assimp:
        print("roundtrip: --update needs Debian's assimp (apt-get install assimp-utils)")
        return 2
    if not assimp:
        message = "Debian's assimp is not installed: the committed dumps are used (made by assimp-utils 5.2.5)"
        print(f"SKIPPED: live dumps: {message}")
        if os.environ.get("CI") == "true":  # CI installs it (scripts/install-deps.sh): every check must run
            print("roundtrip: 0 passed, 1 failed")
            return 1
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        make_sources.main(["make_sources.py", str(work)])
        for name in make_sources.SOURCES:
            source = work / f"{name}.gltf"
            committed = HERE / f"{name}.gltf.assbin"
            dump = work / f"{name}.gltf.assbin"
            if assimp:
                run = subprocess.run([assimp, "dump", str(source), str(dump), "-b"], capture_output=True, text=True)
                if run.returncode != 0:
                    print(f"FAILED   {name}: assimp dump exited {run.returncode}: {run.stderr.strip()}")
                    failed += 1
                    continue
                if update:
                    shutil.copyfile(dump, committed)
            else:
                shutil.copyfile(committed, dump)
            back = work / f"{name}.back.gltf"
            run = subprocess.run([program, "convert", str(dump), "-o", str(back)], capture_output=True, text=True)
            if run.returncode != 0:
                print(f"FAILED   {name}: assbin convert exited {run.returncode}: {run.stderr.strip()}")
                failed += 1
                continue
            found = differences(json.loads(source.read_text()), json.loads(back.read_text()))
            for line in found:
                print(f"FAILED   {name}: {line}")
            if found:
                failed += 1
            else:
                print(f"same     {name}: every material, light, camera and node as the source says")
                passed += 1
    print(f"roundtrip: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
