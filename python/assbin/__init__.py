"""Read, compare and convert Assimp's binary scene dumps (ASSBIN) without Assimp.

    scene = assbin.read("model.fbx.assbin")          # any Assimp version; compressed; shortened
    mesh = scene.meshes[0]
    mesh.positions                                     # float32 (N, 3), a read-only view (no copy)
    assbin.compare("run/a.assbin", "db/a.assbin")      # Comparison(same, differences, ...)
    assbin.convert("model.fbx.assbin", "model.aem")    # ConvertResult(stats, warnings)
    model = assbin.aem.read("model.aem")               # AEM model: arrays, validate(), pose()

Arrays are views of the C++ scene's memory and keep it alive; the GIL is released while reading,
comparing and converting; every object pickles (worker processes can return them). Rotations are
quaternions as (x, y, z, w), NumPy's and glTF's order (Assimp stores w first). A file that cannot
be opened raises Python's own OSError (FileNotFoundError, IsADirectoryError, PermissionError); one
that can be opened but not read raises ReadError; a wrong argument type raises TypeError.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

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
)
from . import _assbin

sys.modules[__name__ + ".aem"] = aem  # `import assbin.aem` and pickling find the submodule

__all__ = [
    "read", "write", "compare", "convert", "Scene", "Mesh", "Node", "Bone", "Material",
    "MaterialProperty", "Animation", "NodeChannel", "Texture", "Light", "Camera", "Header",
    "ReadError", "ConvertError", "Comparison", "Difference", "ConvertResult", "aem",
]

PathLike = Union[str, "os.PathLike[str]"]
Buffer = Any  # any object with the buffer protocol (bytes, bytearray, memoryview, NumPy array, mmap)


class ReadError(Exception):
    """A dump or AEM file that cannot be read: where (byte offset, chunk path) and what was expected.

    `filename` names the file (None for bytes), `side` is "actual" or "expected" when
    assbin.compare read it, `limit` the keyword that raises the limit it hit (max_inflate_ratio,
    ...) or None, `code` a short stable name ("truncated", "limit-exceeded", ...). str(error) is the
    line the `assbin` program prints after "assbin: error: ".
    """

    def __init__(self, message: str, offset: int = 0, chunk_path: str = "", code: str = "",
                 filename: Optional[str] = None, side: Optional[str] = None, limit: Optional[str] = None):
        super().__init__(message, offset, chunk_path, code, filename, side, limit)
        self.message = message
        self.offset = offset
        self.chunk_path = chunk_path
        self.code = code
        self.filename = filename
        self.side = side
        self.limit = limit

    def __str__(self) -> str:
        where = f"{self.filename}: " if self.filename else ""
        return (f"{self.side.upper()} " if self.side else "") + where + self.message


def _with_filename(error: OSError, path) -> OSError:
    """The OSError of a file that cannot be opened, naming it (the C++ side knows only the cause)."""
    if error.filename is None and error.errno is not None:
        return type(error)(error.errno, error.strerror, os.fspath(path))
    return error


def _source(source):
    """A path as a str for the C++ side; bytes-like objects pass as they are (TypeError there)."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return source


def read(source: Union[PathLike, "Buffer"], *, strict: bool = False, max_inflated_mb: Optional[int] = None,
         max_inflate_ratio: Optional[int] = None, max_node_depth: Optional[int] = None,
         max_allocation_ratio: Optional[int] = None, threads: int = 0) -> Scene:
    """Reads a dump of any Assimp version: full, compressed or shortened.

    `source` is a path (str or os.PathLike) or the dump's bytes in any object with the buffer
    protocol (bytes, bytearray, memoryview, a NumPy array, an mmap: read in place when contiguous).
    The limits are the reader's (the program's --max-* options); `strict` refuses bytes after the
    scene; `threads` decode meshes (0: one per core). The GIL is released while reading.
    Raises ReadError, OSError (FileNotFoundError, ...) and TypeError.
    """
    try:
        return _assbin.read(_source(source), strict=strict, max_inflated_mb=max_inflated_mb,
                            max_inflate_ratio=max_inflate_ratio, max_node_depth=max_node_depth,
                            max_allocation_ratio=max_allocation_ratio, threads=threads)
    except OSError as error:
        raise _with_filename(error, source) from None


def write(scene: Scene, path: PathLike, *, compressed: bool = False, shortened: bool = False) -> None:
    """Writes the scene as a dump in the current Assimp layout, atomically (temporary, then rename).

    Raises OSError when the file cannot be written, TypeError for a scene that is not a Scene.
    """
    if not isinstance(scene, Scene):
        raise TypeError(f"write() takes an assbin.Scene, not {type(scene).__name__}")
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"write() takes a path (str or os.PathLike), not {type(path).__name__}")
    _assbin.write(scene, os.fspath(path), compressed=compressed, shortened=shortened)


def _aem_read(source: Union[PathLike, "Buffer"]) -> "aem.Model":
    """Reads an AEM model of either layout: a path, or its bytes in any object with the buffer
    protocol. Raises assbin.ReadError, OSError (FileNotFoundError, ...) and TypeError."""
    try:
        return _compiled_aem_read(_source(source))
    except OSError as error:
        raise _with_filename(error, source) from None


_compiled_aem_read = aem.read
_aem_read.__name__ = _aem_read.__qualname__ = "read"
_aem_read.__module__ = "assbin.aem"
aem.read = _aem_read


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
    # Without a destination: the files a written model would have beside it, by name (extracted
    # embedded textures for AEM 2024: what stats["textures_written"] counts); empty with one.
    textures: Dict[str, bytes] = field(default_factory=dict)


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
    try:
        result = _assbin._compare(_path_or_scene(actual, "compare"), _path_or_scene(expected, "compare"), epsilon,
                                  relative, ulps, by_value, max_diffs, list(ignore))
    except OSError as error:
        if error.filename is None:  # which side could not be opened
            missing = next((side for side in (actual, expected)
                            if isinstance(side, (str, os.PathLike)) and not os.path.isfile(side)), actual)
            raise _with_filename(error, missing) from None
        raise
    differences = [Difference(**d) for d in result.pop("differences")]
    return Comparison(differences=differences, **result)


def convert(source: Union[PathLike, Scene], destination: Optional[PathLike] = None, *,
            layout: int = 2024, compress: bool = False, texture_dirs: Sequence[PathLike] = (),
            uv_channel: int = 0, ticks_per_second: float = 25.0, crease_angle: float = 60.0,
            optimize: bool = True, keep_meshes: bool = False, keep_embedded_bytes: bool = False,
            max_texture_size: int = 0, threads: int = 1, format: Optional[str] = None,
            quantize: bool = False, meshopt: bool = False, strict: bool = False,
            max_inflated_mb: Optional[int] = None, max_inflate_ratio: Optional[int] = None,
            max_node_depth: Optional[int] = None, max_allocation_ratio: Optional[int] = None) -> ConvertResult:
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
    `threads` (0: one per core) read and convert one big file; `strict` and the max_* limits are
    assbin.read's, for a source given as a path. Without a destination, ConvertResult.textures holds
    the files that would be written beside the model, by name. Raises ReadError, ConvertError, OSError;
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
    try:
        result = _assbin._convert(_path_or_scene(source, "convert"),
                                  None if destination is None else os.fspath(destination),
                                  layout, compress, [os.fspath(f) for f in texture_dirs], uv_channel,
                                  ticks_per_second, crease_angle, optimize, keep_meshes,
                                  keep_embedded_bytes, max_texture_size, threads, format, quantize, meshopt,
                                  strict, max_inflated_mb, max_inflate_ratio, max_node_depth,
                                  max_allocation_ratio)
    except OSError as error:
        raise _with_filename(error, source if isinstance(source, (str, os.PathLike)) else destination) from None
    return ConvertResult(stats=result["stats"], warnings=list(result["warnings"]), model=result["model"],
                         format=result["format"], data=result["data"], textures=dict(result["textures"]))


def _path_or_scene(value, function: str):
    if isinstance(value, Scene):
        return value
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    raise TypeError(f"{function}() takes a path (str or os.PathLike) or an assbin.Scene, not {type(value).__name__}")


# What pickled scenes, their parts and models are rebuilt with (compiled functions do not pickle by
# reference).
def _scene_from_bytes(data: bytes) -> Scene:
    return read(data)


def _scene_from_state(data: bytes, extras: tuple) -> Scene:
    return _assbin._restore_extras(read(data), extras)


def _part(scene: Scene, kind: str, index: int, second: int = 0):
    if kind == "bones":
        return scene.meshes[index].bones[second]
    if kind == "channels":
        return scene.animations[index].channels[second]
    return getattr(scene, kind)[index]


def _model_from_bytes(data: bytes) -> "aem.Model":
    return aem.read(data)
