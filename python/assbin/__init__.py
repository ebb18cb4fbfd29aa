"""Read, compare and convert Assimp's binary scene dumps (ASSBIN) without Assimp.

    scene = assbin.read("model.fbx.assbin")          # any Assimp version; compressed; shortened
    mesh = scene.meshes[0]
    mesh.positions                                     # float32 (N, 3), a read-only view (no copy)
    assbin.compare("run/a.assbin", "db/a.assbin")      # Comparison(same, differences, ...)
    assbin.convert("model.fbx.assbin", "model.aem")    # ConvertResult(stats, warnings)
    model = assbin.aem.read("model.aem")               # AEM model: arrays, validate(), pose()

Arrays are views of the C++ scene's memory and keep it alive; the GIL is released while reading,
comparing and converting, and every function may be called from many threads at once; every object
pickles (worker processes can return them) and equal objects pickle to equal bytes. Rotations are
quaternions as (x, y, z, w), NumPy's and glTF's order (Assimp stores w first). A file that cannot
be opened or written raises Python's own OSError (FileNotFoundError, IsADirectoryError,
PermissionError, ...) with errno and filename set as open() sets them; one that can be opened but
not read raises ReadError; a wrong argument type raises TypeError, a number out of range ValueError
naming the parameter. Conversion warnings also go to the "assbin" logger.
"""

from __future__ import annotations

import logging as _logging
import os as _os
import sys as _sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Union

try:
    import numpy as _numpy  # noqa: F401  (the compiled module imports it too, before any thread can)
except ImportError as _missing:  # said with what to do, not as a bare "No module named 'numpy'"
    raise ImportError(
        f"assbin needs NumPy (every array it gives is a NumPy array), and this Python ({_sys.executable}) "
        f"cannot import it ({_missing}): install it for this interpreter: '{_sys.executable} -m pip install "
        "numpy', or on Debian 'apt-get install python3-numpy' for /usr/bin/python3"
    ) from _missing

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

_sys.modules[__name__ + ".aem"] = aem  # `import assbin.aem` and pickling find the submodule
_log = _logging.getLogger(__name__)
_log.addHandler(_logging.NullHandler())  # silent unless the application configures logging

__all__ = [
    "read", "write", "compare", "convert", "release_memory", "Scene", "Mesh", "Node", "Bone", "Material",
    "MaterialProperty", "Animation", "NodeChannel", "Texture", "Light", "Camera", "Header",
    "ReadError", "ConvertError", "Comparison", "Difference", "ConvertResult", "aem",
]

PathLike = Union[str, "_os.PathLike[str]"]
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


def __dir__() -> List[str]:
    return sorted(__all__)


_MAGIC = b"ASSIMP.binary-dump."
_UINT32 = 2**32 - 1
_QUANTIZED_KEY_ERROR = 1e-4  # what quantize implies for key_error (the converter's kQuantizedKeyError)
_UINT64 = 2**64 - 1


def _number(name: str, value, minimum: int = 0, maximum: int = _UINT64, optional: bool = False):
    """`value` as a whole number in minimum..maximum, else ValueError naming the parameter (TypeError
    for something that is not a whole number)."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = value.__index__()
        except AttributeError:
            raise TypeError(f"{name} must be a whole number{' or None' if optional else ''}, "
                            f"not {type(value).__name__}") from None
    if not minimum <= value <= maximum:
        raise ValueError(f"{name} must be {minimum} to {maximum}, not {value}")
    return value


def _source(source, function: str):
    """A path as the C++ side takes it (str or bytes, os.fspath); bytes-like objects pass as they are
    (their content), except bytes that are not a dump but name an existing file: a path given as
    bytes, refused rather than read as content."""
    if isinstance(source, (str, _os.PathLike)):
        return _os.fspath(source)
    if isinstance(source, bytes) and not source.startswith(_MAGIC) and len(source) < 4096 \
            and b"\0" not in source and source and _os.path.exists(source):
        raise TypeError(f"{function}() reads bytes as a file's content, and these name a file: "
                        f"pass the path as str or os.PathLike (os.fsdecode({source!r}))")
    return source


def _read_limits(max_inflated_mb, max_inflate_ratio, max_node_depth, max_allocation_ratio, threads):
    return dict(max_inflated_mb=_number("max_inflated_mb", max_inflated_mb, optional=True),
                max_inflate_ratio=_number("max_inflate_ratio", max_inflate_ratio, optional=True),
                max_node_depth=_number("max_node_depth", max_node_depth, maximum=_UINT32, optional=True),
                max_allocation_ratio=_number("max_allocation_ratio", max_allocation_ratio, optional=True),
                threads=_number("threads", threads, maximum=4096))


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
    limits = _read_limits(max_inflated_mb, max_inflate_ratio, max_node_depth, max_allocation_ratio, threads)
    return _assbin.read(_source(source, "read"), strict=strict, **limits)


def release_memory() -> None:
    """Gives back the memory the module keeps for the next read.

    A dump read from a path is read into a block of memory the module recycles: when the scene is
    gone its block is kept (at most 4 blocks, 256 MiB in all) so that the next read finds its pages
    already there. A long-lived worker that is done reading can give them back; nothing else in the
    process's allocator is changed by the module."""
    _assbin._release_spare_blocks()


def write(scene: Scene, path: PathLike, *, compressed: Optional[bool] = None, shortened: Optional[bool] = None,
          keep_header: bool = True) -> None:
    """Writes the scene as a dump in the current Assimp layout, atomically (temporary, then rename).

    `compressed` and `shortened` default to how the scene was read. With `keep_header` (the
    default) the header keeps the scene's time, source name, command, revision and compile flags,
    so that read(path) == scene; keep_header=False writes today's time and the output's path as
    Assimp 5.1+ does. A symlink stays a link: the file it points to is replaced. Raises OSError
    (with errno and filename) when the file cannot be written, TypeError for a scene that is not a
    Scene, ValueError for a scene that cannot be written so (a shortened scene written full) and for
    an existing file that holds something other than a dump unless its name ends in .assbin or
    .regress (the output rule: a PNG, a model or a page is never replaced by a dump by mistake).
    """
    if not isinstance(scene, Scene):
        raise TypeError(f"write() takes an assbin.Scene, not {type(scene).__name__}")
    if not isinstance(path, (str, bytes, _os.PathLike)):
        raise TypeError(f"write() takes a path (str or os.PathLike), not {type(path).__name__}")
    _assbin.write(scene, _os.fsdecode(path), compressed=compressed, shortened=shortened, keep_header=keep_header)


def _scene_to_bytes(self: Scene, *, compressed: Optional[bool] = None, shortened: Optional[bool] = None,
                    keep_header: bool = True) -> bytes:
    """The scene as a dump in the current Assimp layout; options as assbin.write's
    (read(scene.to_bytes()) == scene)."""
    return self._to_bytes(compressed, shortened, keep_header)


def _material_get(self: Material, key: str, semantic: int = 0, index: int = 0):
    """The value of the property, or None: material.get('$tex.file', 1) is the first diffuse texture."""
    return self._get(key, _number("semantic", semantic, maximum=_UINT32), _number("index", index, maximum=_UINT32))


def _model_pose(self: "aem.Model", animation: Optional[int], time: float):
    """Every joint's skinning matrix (global · inverse bind) at `time` seconds: float32 (joints, 4, 4);
    animation None gives the bind pose (identity). IndexError for an animation the model does not
    have, ValueError for a time that is not finite."""
    if animation is not None:
        if isinstance(animation, bool) or not isinstance(animation, int):
            raise TypeError(f"animation must be an int or None, not {type(animation).__name__}")
        if animation < 0:
            raise ValueError(f"animation must be 0 or more (None for the bind pose), not {animation}")
    if isinstance(time, bool) or not isinstance(time, (int, float)):
        try:
            time = float(time)
        except (TypeError, ValueError):
            raise TypeError(f"time must be a number of seconds, not {type(time).__name__}") from None
    return self._pose(animation, time)


def _aem_read(source: Union[PathLike, "Buffer"]) -> "aem.Model":
    """Reads an AEM model of either layout: a path, or its bytes in any object with the buffer
    protocol. Raises assbin.ReadError, OSError (FileNotFoundError, ...) and TypeError."""
    return _compiled_aem_read(_source(source, "read"))


_compiled_aem_read = aem.read
_aem_read.__name__ = _aem_read.__qualname__ = "read"
_aem_read.__module__ = "assbin.aem"
aem.read = _aem_read


def _install_method(cls, name: str, function) -> None:
    """A Python method on a compiled class (so that inspect.signature and keywords work)."""
    function.__name__ = name
    function.__qualname__ = f"{cls.__name__}.{name}"
    function.__module__ = cls.__module__
    setattr(cls, name, function)


_install_method(Scene, "to_bytes", _scene_to_bytes)
_install_method(Material, "get", _material_get)
_install_method(aem.Model, "pose", _model_pose)


class ConvertError(Exception):
    """A scene the converter refuses (shortened, no triangles, a name too long, ...): `refusal` is a
    short stable name ("no-triangles", ...), `filename` the source's path (None for a Scene)."""

    def __init__(self, message: str, refusal: str = "", filename: Optional[str] = None):
        super().__init__(message, refusal, filename)
        self.message = message
        self.refusal = refusal
        self.filename = filename

    def __str__(self) -> str:
        return (f"{self.filename}: " if self.filename else "") + self.message


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

    By default floats must be equal (0 == -0, NaN == NaN): nothing is forgiven, as `assbin cmp`
    by default. `epsilon` (absolute; 0.1 is `assimp cmpdump`'s), `relative` or `ulps` forgive float
    noise; a value matches when any given tolerance allows it. `by_value` compares float and double
    material properties by value; `ignore` is a list of globs of paths to skip ('*/tangents*'): a
    bare string is refused (TypeError), since its characters would each be a pattern.
    """
    tolerances = {}
    for name, value in (("epsilon", epsilon), ("relative", relative)):
        if value is not None:
            if isinstance(value, bool):
                raise TypeError(f"{name} must be a number, not bool")
            try:
                value = float(value)  # NumPy's floats too
            except (TypeError, ValueError):
                raise TypeError(f"{name} must be a number, not {type(value).__name__}") from None
            if not 0 <= value < float("inf"):
                raise ValueError(f"{name} must be a finite number of 0 or more, not {value!r}")
        tolerances[name] = value
    epsilon, relative = tolerances["epsilon"], tolerances["relative"]
    ulps = _number("ulps", ulps, optional=True)
    max_diffs = _number("max_diffs", max_diffs)
    if isinstance(ignore, (str, bytes)):
        raise TypeError(f"ignore takes a list of glob patterns, not one string: ignore=[{ignore!r}]")
    patterns = list(ignore)
    for pattern in patterns:
        if not isinstance(pattern, str):
            raise TypeError(f"ignore takes glob patterns as str, not {type(pattern).__name__}")
    result = _assbin._compare(_path_or_scene(actual, "compare"), _path_or_scene(expected, "compare"), epsilon,
                              relative, ulps, by_value, max_diffs, patterns)
    differences = [Difference(**d) for d in result.pop("differences")]
    return Comparison(differences=differences, **result)


def convert(source: Union[PathLike, Scene], destination: Optional[PathLike] = None, *,
            layout: int = 2024, compress: bool = False, texture_dirs: Sequence[PathLike] = (),
            uv_channel: int = 0, ticks_per_second: float = 25.0, crease_angle: float = 60.0,
            optimize: bool = True, keep_meshes: bool = False, keep_embedded_bytes: bool = False,
            max_texture_size: int = 0, threads: int = 1, format: Optional[str] = None,
            quantize: bool = False, meshopt: bool = False, key_error: Optional[float] = None, strict: bool = False,
            max_inflated_mb: Optional[int] = None, max_inflate_ratio: Optional[int] = None,
            max_node_depth: Optional[int] = None, max_allocation_ratio: Optional[int] = None) -> ConvertResult:
    """Converts a full dump (path or Scene) to an AEM model or a glTF 2.0 file, as `assbin convert` does.

    `format` is "aem", "glb" or "gltf"; by default the destination's extension (.glb, .gltf)
    chooses, else "aem". A .glb without a destination comes back as bytes (ConvertResult.data);
    a .gltf needs a destination (its .bin and images go beside it); `quantize` writes glTF with
    KHR_mesh_quantization (as `--quantize`), `meshopt` with EXT_meshopt_compression. `layout`, `compress`,
    `max_texture_size`, `uv_channel`, `crease_angle`, `keep_meshes` and `keep_embedded_bytes`
    are AEM's; `texture_dirs` serves the 2025 layout and glTF. `key_error` (as `--key-error`)
    removes animation keys while no vertex moves more than that fraction of the model's size at any
    key time (every format; 0 keeps every key; by default 0, or 1e-4 with `quantize`); stats["keys"]
    and stats["keys_removed"] count them and stats["key_error_measured"] says the largest error found.

    With `destination`, the model and its textures are written there atomically; without, the
    model is returned in memory (ConvertResult.model). `layout` is 2024 (the specification) or
    2025 (today's AEM runtime; `compress`, `texture_dirs`, `max_texture_size` apply to it).
    `threads` (0: one per core) read and convert one big file; `strict` and the max_* limits are
    assbin.read's, for a source given as a path. Without a destination, ConvertResult.textures holds
    the files that would be written beside the model, by name. Raises ReadError, ConvertError, OSError;
    ValueError, before anything is read, when `destination` is the source file (by any name), an
    existing folder, or an existing file holding something other than what it writes unless named
    with that format's extension. An existing FIFO or character device, "-" and /dev/stdout are
    written into as a stream; an image the conversion reads is never replaced by one it writes.
    """
    if isinstance(texture_dirs, (str, bytes, _os.PathLike)):
        raise TypeError("texture_dirs takes a list of folders, not one path: texture_dirs=[...]")
    for folder in texture_dirs:
        if not _os.path.isdir(folder):
            raise ValueError(f"texture_dirs: {_os.fsdecode(folder)}: no such folder")
    uv_channel = _number("uv_channel", uv_channel, maximum=7)
    max_texture_size = _number("max_texture_size", max_texture_size, maximum=_UINT32)
    limits = _read_limits(max_inflated_mb, max_inflate_ratio, max_node_depth, max_allocation_ratio, threads)
    if key_error is None:  # as on the command line: --quantize reduces keys too unless told otherwise
        key_error = _QUANTIZED_KEY_ERROR if quantize else 0.0
    for name, value in (("ticks_per_second", ticks_per_second), ("crease_angle", crease_angle),
                        ("key_error", key_error)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    if not 0 < ticks_per_second < float("inf"):
        raise ValueError(f"ticks_per_second must be a finite number above 0, not {ticks_per_second!r}")
    if not 0 <= crease_angle <= 180:
        raise ValueError(f"crease_angle must be 0 to 180 degrees, not {crease_angle!r}")
    if not 0 <= key_error <= 0.1:
        raise ValueError(f"key_error must be 0 to 0.1 (a fraction of the model's size, such as 1e-4), not {key_error!r}")
    named = None
    if destination is not None:
        if not isinstance(destination, (str, bytes, _os.PathLike)):
            raise TypeError(f"convert() writes to a path (str or os.PathLike), not {type(destination).__name__}")
        destination = _os.fsdecode(destination)
        extension = _os.path.splitext(destination)[1]
        named = {".aem": "aem", ".glb": "glb", ".gltf": "gltf"}.get(extension.lower())
        if named is None and extension and not _is_stream(destination) and not _same_file(source, destination):
            raise ValueError(f"{destination}: the extension {extension} names no format convert writes; "
                             "use .aem, .glb or .gltf (as `assbin convert -o` does)")
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
    source_argument = _path_or_scene(source, "convert")
    try:
        result = _assbin._convert(source_argument, destination,
                                  layout, compress, [_os.fsdecode(f) for f in texture_dirs], uv_channel,
                                  float(ticks_per_second), float(crease_angle), optimize, keep_meshes,
                                  keep_embedded_bytes, max_texture_size, limits.pop("threads"), format, quantize,
                                  meshopt, float(key_error), strict, **limits)
    except ConvertError as error:
        if error.filename is None and not isinstance(source_argument, Scene):
            error.filename = _os.fsdecode(source_argument)
        raise
    warnings = list(result["warnings"])
    for warning in warnings:
        _log.warning("%s: %s", "a scene" if isinstance(source_argument, Scene) else _os.fsdecode(source_argument),
                     warning)
    return ConvertResult(stats=result["stats"], warnings=warnings, model=result["model"],
                         format=result["format"], data=result["data"], textures=dict(result["textures"]))


def _same_file(source, destination: str) -> bool:
    """Whether the destination is the source file (refused first, naming both, as the CLI does)."""
    try:
        return isinstance(source, (str, bytes, _os.PathLike)) and _os.path.samefile(source, destination)
    except OSError:
        return False


def _is_stream(path: str) -> bool:
    """An existing character device or FIFO, written into whatever its name (/dev/null)."""
    import stat
    try:
        mode = _os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _path_or_scene(value, function: str):
    if isinstance(value, Scene):
        return value
    if isinstance(value, (str, _os.PathLike)):
        return _os.fspath(value)
    if isinstance(value, bytes):  # a path as bytes, as open() takes it
        return _os.fsdecode(value)
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


# Value equality for the views of a scene's parts (what pickling gives back is a view of another
# scene): two parts are equal when every documented attribute is, arrays bit for bit (NaN equal to
# itself), parts within parts (a mesh's bones, a material's properties) by the same rule.
def _value_key(value):
    if isinstance(value, _numpy.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (list, tuple)):
        return tuple(_value_key(item) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((key, _value_key(item)) for key, item in value.items()))
    if isinstance(value, float) and value != value:
        return ("nan",)
    if type(value) in _PART_CLASSES:
        return _part_key(value)
    return value


def _part_key(part):
    cls = type(part)
    return (cls.__name__,) + tuple((name, _value_key(getattr(part, name))) for name in _PART_CLASSES[cls])


def _part_eq(self, other):
    if type(other) is not type(self):
        return NotImplemented
    return self is other or _part_key(self) == _part_key(other)


def _part_hash(self):  # cheap and consistent with ==: equal parts have equal names and places
    return hash((type(self).__name__, getattr(self, "name", None), getattr(self, "node_name", None),
                 getattr(self, "index", None), getattr(self, "mesh_index", None)))


_PART_CLASSES = {cls: tuple(sorted(name for name in dir(cls) if isinstance(getattr(cls, name), property)))
                 for cls in (Node, Mesh, Bone, Material, Animation, NodeChannel, Texture)}
for _cls in _PART_CLASSES:
    _cls.__eq__ = _part_eq
    _cls.__hash__ = _part_hash
del _cls


def _scene_getitem(self: Scene, index):
    """scene[i] is scene.meshes[i] (slices too): a scene is the sequence of its meshes."""
    return self.meshes[index]


_install_method(Scene, "__getitem__", _scene_getitem)
