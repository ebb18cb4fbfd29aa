"""A small glTF 2.0 reader and evaluator for the round trip, written from the specification alone (it
shares no code and no assumption with the converter): accessors of every component type (normalized
integers included, sparse refused), node globals from TRS or matrices, animation samplers (STEP,
LINEAR with spherical interpolation of rotations, CUBICSPLINE), and skinning as the specification
states it: a skinned vertex is sum(weight * global(joint) * inverseBind(joint)) * v, the mesh node's own
transform ignored.

One meaning is added for what glTF leaves undefined: a vertex of a skinned mesh whose weights are all
zero. Assimp's glTF importer keeps no weight of 0, so such a vertex reaches a dump without any bone,
and Assimp places a vertex without bones where its mesh's node puts it. The evaluator does the same
(global(mesh node) * v), so the round trip holds that meaning.
"""

import base64
import json
import math
import pathlib
import struct

COMPONENTS = {5120: ("b", 127.0), 5121: ("B", 255.0), 5122: ("h", 32767.0), 5123: ("H", 65535.0),
              5125: ("I", None), 5126: ("f", None)}
# A material's texture slots, where glTF keeps them (pbrMetallicRoughness's or the material's own).
SLOTS = ("baseColorTexture", "metallicRoughnessTexture", "normalTexture", "occlusionTexture", "emissiveTexture")
WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}


class Document:
    """A .gltf (its buffers from data URIs or files beside it) or a .glb."""

    def __init__(self, path):
        path = pathlib.Path(path)
        self.folder = path.parent
        data = path.read_bytes()
        self.glb_bin = None
        if data[:4] == b"glTF":
            length = struct.unpack_from("<I", data, 12)[0]
            self.json = json.loads(data[20:20 + length])
            at = 20 + length
            if at + 8 <= len(data):
                bin_length = struct.unpack_from("<I", data, at)[0]
                self.glb_bin = data[at + 8:at + 8 + bin_length]
        else:
            self.json = json.loads(data)
        self._buffers = {}

    def get(self, key):
        return self.json.get(key, [])

    def buffer(self, index):
        if index not in self._buffers:
            buffer = self.json["buffers"][index]
            uri = buffer.get("uri")
            if uri is None:
                self._buffers[index] = self.glb_bin
            elif uri.startswith("data:"):
                self._buffers[index] = base64.b64decode(uri.split(",", 1)[1])
            else:
                from urllib.parse import unquote
                self._buffers[index] = (self.folder / unquote(uri)).read_bytes()
        return self._buffers[index]

    def accessor(self, index):
        """The accessor's elements as tuples of floats (normalized integers made 0..1 or -1..1)."""
        accessor = self.json["accessors"][index]
        if "sparse" in accessor:
            raise ValueError(f"accessor {index}: sparse accessors are not read by this evaluator")
        fmt, scale = COMPONENTS[accessor["componentType"]]
        width = WIDTH[accessor["type"]]
        count = accessor["count"]
        size = struct.calcsize(fmt)
        if "bufferView" not in accessor:
            return [(0.0,) * width] * count
        view = self.json["bufferViews"][accessor["bufferView"]]
        data = self.buffer(view["buffer"])
        start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
        stride = view.get("byteStride", size * width)
        if accessor["type"] in ("MAT2", "MAT3") and size < 4:
            raise ValueError(f"accessor {index}: padded matrix columns are not read by this evaluator")
        out = []
        for k in range(count):
            values = struct.unpack_from(f"<{width}{fmt}", data, start + k * stride)
            if accessor.get("normalized") and scale:
                values = tuple(max(v / scale, -1.0) for v in values)
            out.append(tuple(float(v) for v in values))
        return out


def matmul(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(4)) for c in range(4)] for r in range(4)]


def apply(m, v):
    return tuple(m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2] + m[r][3] for r in range(3))


def from_columns(m):
    return [[m[c * 4 + r] for c in range(4)] for r in range(4)]


def trs_matrix(t, q, s):
    x, y, z, w = q
    rotation = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    rows = [[rotation[r][c] * s[c] for c in range(3)] + [t[r]] for r in range(3)]
    return rows + [[0, 0, 0, 1]]


def normalize(q):
    length = math.sqrt(sum(c * c for c in q)) or 1.0
    return tuple(c / length for c in q)


def slerp(a, b, u):
    dot = sum(x * y for x, y in zip(a, b))
    if dot < 0:
        b, dot = tuple(-c for c in b), -dot
    if dot > 0.9995:
        return normalize(tuple(x + (y - x) * u for x, y in zip(a, b)))
    theta = math.acos(min(dot, 1.0))
    sa, sb = math.sin((1 - u) * theta) / math.sin(theta), math.sin(u * theta) / math.sin(theta)
    return tuple(sa * x + sb * y for x, y in zip(a, b))


def sample(doc, sampler, path, t, linear=False):
    """The value of an animation sampler at time t, as the specification interpolates it (with
    `linear`, as LINEAR between the same keys whatever the sampler says: what a dump carries)."""
    times = [k[0] for k in doc.accessor(sampler["input"])]
    values = doc.accessor(sampler["output"])
    mode = "LINEAR" if linear else sampler.get("interpolation", "LINEAR")
    cubic = sampler.get("interpolation") == "CUBICSPLINE"

    def key(k):
        return values[3 * k + 1] if cubic else values[k]

    if t <= times[0]:
        value = key(0)
    elif t >= times[-1]:
        value = key(len(times) - 1)
    else:
        k = max(i for i in range(len(times)) if times[i] <= t)
        t0, t1 = times[k], times[k + 1]
        u = (t - t0) / (t1 - t0)
        if mode == "STEP":
            value = key(k)
        elif mode == "CUBICSPLINE":
            d = t1 - t0
            p0, m0 = values[3 * k + 1], values[3 * k + 2]
            p1, m1 = values[3 * (k + 1) + 1], values[3 * (k + 1)]
            u2, u3 = u * u, u * u * u
            value = tuple((2 * u3 - 3 * u2 + 1) * a + (u3 - 2 * u2 + u) * d * b + (-2 * u3 + 3 * u2) * c +
                          (u3 - u2) * d * e for a, b, c, e in zip(p0, m0, p1, m1))
        elif path == "rotation":
            value = slerp(key(k), key(k + 1), u)
        else:
            value = tuple(a + (b - a) * u for a, b in zip(key(k), key(k + 1)))
    return normalize(value) if path == "rotation" else value


def key_times(doc, animation):
    times = set()
    for sampler in animation.get("samplers", []):
        times.update(k[0] for k in doc.accessor(sampler["input"]))
    return sorted(times)


def globals_at(doc, animation=None, t=0.0, linear=False):
    """Every node's global matrix, with `animation` (a dict of the document) applied at time t."""
    nodes = doc.get("nodes")
    trs = []
    for node in nodes:
        trs.append({"translation": tuple(node.get("translation", (0, 0, 0))),
                    "rotation": tuple(node.get("rotation", (0, 0, 0, 1))),
                    "scale": tuple(node.get("scale", (1, 1, 1)))})
    animated = set()
    if animation is not None:
        for channel in animation.get("channels", []):
            target = channel["target"]
            if target.get("path") not in ("translation", "rotation", "scale") or "node" not in target:
                continue
            sampler = animation["samplers"][channel["sampler"]]
            trs[target["node"]][target["path"]] = sample(doc, sampler, target["path"], t, linear)
            animated.add(target["node"])
    local = [from_columns(node["matrix"]) if "matrix" in node and n not in animated
             else trs_matrix(trs[n]["translation"], trs[n]["rotation"], trs[n]["scale"])
             for n, node in enumerate(nodes)]
    parent = {}
    for p, node in enumerate(nodes):
        for child in node.get("children", []):
            parent[child] = p
    out = []
    for n in range(len(nodes)):
        matrix, at = local[n], n
        while at in parent:
            at = parent[at]
            matrix = matmul(local[at], matrix)
        out.append(matrix)
    return out


def world_points(doc, animation=None, t=0.0, linear=False, uv_sets=0):
    """Every vertex of every mesh instance where a viewer draws it at time t: {node name: [points]};
    with uv_sets, each point is followed by that many UV pairs (None for a set the primitive lacks)."""
    globals_ = globals_at(doc, animation, t, linear)
    skins = doc.get("skins")
    out = {}
    for n, node in enumerate(doc.get("nodes")):
        if "mesh" not in node:
            continue
        points = []
        skin = skins[node["skin"]] if "skin" in node else None
        joint_matrices = None
        if skin is not None:
            inverse_binds = ([from_columns(m) for m in doc.accessor(skin["inverseBindMatrices"])]
                             if "inverseBindMatrices" in skin else
                             [trs_matrix((0, 0, 0), (0, 0, 0, 1), (1, 1, 1))] * len(skin["joints"]))
            joint_matrices = [matmul(globals_[j], inverse_binds[k]) for k, j in enumerate(skin["joints"])]
        for primitive in doc.get("meshes")[node["mesh"]]["primitives"]:
            attributes = primitive["attributes"]
            positions = doc.accessor(attributes["POSITION"])
            uvs = [doc.accessor(attributes[f"TEXCOORD_{k}"]) if f"TEXCOORD_{k}" in attributes else None
                   for k in range(uv_sets)]
            skinned = joint_matrices is not None and "JOINTS_0" in attributes
            joints = doc.accessor(attributes["JOINTS_0"]) if skinned else None
            weights = doc.accessor(attributes["WEIGHTS_0"]) if skinned else None
            for v, p in enumerate(positions):
                if not skinned or all(w == 0 for w in weights[v]):
                    point = apply(globals_[n], p)  # a vertex without weights: see above
                else:
                    acc = [0.0, 0.0, 0.0]
                    for joint, weight in zip(joints[v], weights[v]):
                        if weight:
                            q = apply(joint_matrices[int(joint)], p)
                            acc = [a + weight * c for a, c in zip(acc, q)]
                    point = tuple(acc)
                points.append((point,) + tuple(uv[v] if uv else None for uv in uvs) if uv_sets else point)
        out.setdefault(node.get("name", f"node {n}"), []).extend(points)
    return out


def unmatched(want, got, tolerance):
    """The points of `want` with no point of `got` within tolerance in every coordinate. A point is a
    position, or (position, uv, ...) as world_points gives with uv_sets (a UV of None matches only
    None). Linear in the points: `got` is hashed on a grid of the tolerance's size."""
    def position(point):
        return point[0] if point and isinstance(point[0], tuple) else point

    def near(a, b):
        if isinstance(a, tuple) and a and isinstance(a[0], tuple):
            return all((x is None and y is None) or (x is not None and y is not None and near(x, y))
                       for x, y in zip(a, b))
        return all(abs(x - y) <= tolerance for x, y in zip(a, b))

    cells = {}
    for point in got:
        cells.setdefault(tuple(math.floor(c / tolerance) for c in position(point)), []).append(point)
    out = []
    for point in want:
        x, y, z = (math.floor(c / tolerance) for c in position(point))
        if not any(near(point, other) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)
                   for other in cells.get((x + dx, y + dy, z + dz), ())):
            out.append(point)
    return out
