"""Read, compare and convert Assimp's binary scene dumps (ASSBIN) without Assimp.

    scene = assbin.read("model.fbx.assbin")          # any Assimp version; compressed; shortened
    mesh = scene.meshes[0]
    mesh.positions                                     # float32 (N, 3), a read-only view (no copy)
    assbin.compare("run/a.assbin", "db/a.assbin")      # Comparison(same, differences, ...)
    assbin.convert("model.fbx.assbin", "model.aem")    # ConvertResult(stats, warnings)
    model = assbin.aem.read("model.aem")               # AEM model: arrays, validate(), pose()

Arrays are views of the C++ scene's memory and keep it alive; the GIL is released while reading,
comparing and converting; every result pickles (worker processes can return them).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Iterable, List, Optional, Sequence, Union

from ._assbin import (  # noqa: F401  (re-exported)
    Animation,
    Bone,
    Camera,
    Header,
    Light,
    Material,
    MaterialProperty,
    Mesh,
    Node,
    NodeChannel,
    Scene,
    Texture,
    aem,
    read,
    write,
)
from . import _assbin

sys.modules[__name__ + ".aem"] = aem  # `import assbin.aem` and pickling find the submodule

__all__ = [
    "read", "write", "compare", "convert", "Scene", "Mesh", "Node", "Bone", "Material",
    "MaterialProperty", "Animation", "NodeChannel", "Texture", "Light", "Camera", "Header",
    "ReadError", "ConvertError", "Comparison", "Difference", "ConvertResult", "aem",
]

PathLike = Union[str, "os.PathLike[str]"]


class ReadError(Exception):
    """A dump or AEM file that cannot be read: where (byte offset, chunk path) and what was expected.

    str(error) is the message the `assbin` program prints after the file name.
    """

    def __init__(self, message: str, offset: int = 0, chunk_path: str = "", code: str = ""):
        super().__init__(message, offset, chunk_path, code)
        self.message = message
        self.offset = offset
        self.chunk_path = chunk_path
        self.code = code

    def __str__(self) -> str:
        return self.message


class ConvertError(Exception):
    """A scene the converter refuses (shortened, no triangles, a name too long, ...)."""

    def __init__(self, message: str, refusal: str = ""):
        super().__init__(message, refusal)
        self.message = message
        self.refusal = refusal

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Difference:
    """One difference: its scene path, a sentence, and both values as text."""

    path: str
    what: str
    actual: str
    expected: str
    delta: Optional[float] = None


@dataclass(frozen=True)
class Comparison:
    """What assbin.compare found: `same`, every difference counted, the first kept."""

    same: bool
    total: int
    ignored: int
    values_compared: int
    shortened: bool
    differences: List[Difference] = field(default_factory=list)

    def __bool__(self) -> bool:
        return self.same


@dataclass(frozen=True)
class ConvertResult:
    """What assbin.convert did: its statistics, warnings, and the model (AEM) or the .glb bytes
    when no path was given."""

    stats: dict
    warnings: List[str]
    model: Optional["aem.Model"] = None
    format: str = "aem"
    data: Optional[bytes] = None  # the .glb file's bytes, for format="glb" without a destination


def compare(actual: Union[PathLike, Scene], expected: Union[PathLike, Scene], *,
            epsilon: Optional[float] = None, relative: Optional[float] = None,
            ulps: Optional[int] = None, by_value: bool = False, max_diffs: int = 50,
            ignore: Iterable[str] = ()) -> Comparison:
    """Compares ACTUAL against EXPECTED by value, as `assbin cmp` does (paths or scenes).

    Floats match within `epsilon` (absolute; 0.1 by default, as `assimp cmpdump`), `relative` or
    `ulps`; choosing relative or ulps replaces the default epsilon. `by_value` compares float and
    double material properties by value; `ignore` skips paths matching globs ('*/tangents*').
    """
    if epsilon is not None and not epsilon >= 0:
        raise ValueError("epsilon must be a number of 0 or more")
    if relative is not None and not relative >= 0:
        raise ValueError("relative must be a number of 0 or more")
    if ulps is not None and ulps < 0:
        raise ValueError("ulps must be 0 or more")
    if max_diffs < 0:
        raise ValueError("max_diffs must be 0 or more")
    result = _assbin._compare(_path_or_scene(actual), _path_or_scene(expected), epsilon, relative,
                              ulps, by_value, max_diffs, list(ignore))
    differences = [Difference(**d) for d in result.pop("differences")]
    return Comparison(differences=differences, **result)


def convert(source: Union[PathLike, Scene], destination: Optional[PathLike] = None, *,
            layout: int = 2024, compress: bool = False, texture_dirs: Sequence[PathLike] = (),
            uv_channel: int = 0, ticks_per_second: float = 25.0, crease_angle: float = 60.0,
            optimize: bool = True, keep_meshes: bool = False, keep_embedded_bytes: bool = False,
            max_texture_size: int = 0, threads: int = 1, format: Optional[str] = None,
            quantize: bool = False, meshopt: bool = False) -> ConvertResult:
    """Converts a full dump (path or Scene) to an AEM model or a glTF 2.0 file, as `assbin convert` does.

    `format` is "aem", "glb" or "gltf"; by default the destination's extension (.glb, .gltf)
    chooses, else "aem". A .glb without a destination comes back as bytes (ConvertResult.data);
    a .gltf needs a destination (its .bin and images go beside it); `quantize` writes glTF with
    KHR_mesh_quantization (as `--quantize`), `meshopt` with EXT_meshopt_compression. `layout`, `compress`,
    `max_texture_size`, `uv_channel`, `crease_angle`, `keep_meshes` and `keep_embedded_bytes`
    are AEM's; `texture_dirs` serves the 2025 layout and glTF.

    With `destination`, the model and its textures are written there atomically; without, the
    model is returned in memory (ConvertResult.model). `layout` is 2024 (the specification) or
    2025 (today's AEM runtime; `compress`, `texture_dirs`, `max_texture_size` apply to it).
    `threads` (0: one per core) read and convert one big file. Raises ReadError, ConvertError;
    ValueError, before anything is read, when `destination` is the source file (by any name) or an
    existing folder. An existing FIFO or character device is written into as a stream.
    """
    for folder in texture_dirs:
        if not os.path.isdir(folder):
            raise ValueError(f"texture_dirs: {folder}: no such folder")
    named = None
    if destination is not None:
        named = {".aem": "aem", ".glb": "glb", ".gltf": "gltf"}.get(os.path.splitext(os.fspath(destination))[1].lower())
    if format is not None and format not in ("aem", "glb", "gltf"):
        raise ValueError("format must be 'aem', 'glb' or 'gltf'")
    if format is not None and named is not None and format != named:
        raise ValueError(f"the destination is a {named} file, but format is {format!r}")
    format = format or named or "aem"
    if quantize and format == "aem":
        raise ValueError("quantize is a glTF option (KHR_mesh_quantization): format='glb' or 'gltf'")
    if meshopt and format == "aem":
        raise ValueError("meshopt is a glTF option (EXT_meshopt_compression): format='glb' or 'gltf'")
    if format == "gltf" and destination is None:
        raise ValueError("format='gltf' writes a .bin and images beside the .gltf: give a destination "
                         "(or use format='glb' for the file's bytes in memory)")
    if format != "aem":
        aem_only = {"layout": layout != 2024, "compress": compress, "max_texture_size": max_texture_size != 0,
                    "uv_channel": uv_channel != 0, "crease_angle": crease_angle != 60.0,
                    "keep_meshes": keep_meshes, "keep_embedded_bytes": keep_embedded_bytes}
        given = [name for name, set_ in aem_only.items() if set_]
        if given:
            raise ValueError(f"{', '.join(given)}: AEM options; glTF keeps every UV channel and has no such choice")
    if keep_embedded_bytes and layout == 2025:
        raise ValueError("keep_embedded_bytes keeps files beside a 2024 model; the 2025 layout stores pixels")
    if keep_meshes and not optimize:
        raise ValueError("keep_meshes is part of optimize=False (one mesh per node and mesh): give one of them")
    result = _assbin._convert(_path_or_scene(source), None if destination is None else os.fspath(destination),
                              layout, compress, [os.fspath(f) for f in texture_dirs], uv_channel,
                              ticks_per_second, crease_angle, optimize, keep_meshes,
                              keep_embedded_bytes, max_texture_size, threads, format, quantize, meshopt)
    return ConvertResult(stats=result["stats"], warnings=list(result["warnings"]), model=result["model"],
                         format=result["format"], data=result["data"])


def _path_or_scene(value):
    return value if isinstance(value, Scene) else os.fspath(value)


# What pickled scenes and models are rebuilt with (compiled functions do not pickle by reference).
def _scene_from_bytes(data: bytes) -> Scene:
    return read(data)


def _model_from_bytes(data: bytes) -> "aem.Model":
    return aem.read(data)
