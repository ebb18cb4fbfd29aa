# Type stubs of the assbin package (the compiled part is assbin._assbin).
import os
from typing import Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import aem as aem

PathLike = Union[str, os.PathLike[str]]
Vec3 = Tuple[float, float, float]

class ReadError(Exception):
    message: str
    offset: int
    chunk_path: str
    code: str
    def __init__(self, message: str, offset: int = 0, chunk_path: str = "", code: str = "") -> None: ...

class ConvertError(Exception):
    message: str
    refusal: str
    def __init__(self, message: str, refusal: str = "") -> None: ...

class Header:
    timestamp: str
    version_major: int
    version_minor: int
    revision: int
    compile_flags: int
    shortened: bool
    compressed: bool
    source_name: str
    command: str
    compressed_prefix: int

class Node:
    index: int
    name: str
    transform: npt.NDArray[np.float32]
    parent: int
    children: List[int]
    mesh_indices: List[int]
    metadata: dict

class Bone:
    name: str
    offset: npt.NDArray[np.float32]
    weight_count: int
    vertex_ids: npt.NDArray[np.uint32]
    weights: npt.NDArray[np.float32]

class Mesh:
    index: int
    vertex_count: int
    face_count: int
    primitive_types: int
    material_index: int
    positions: Optional[npt.NDArray[np.float32]]
    normals: Optional[npt.NDArray[np.float32]]
    tangents: Optional[npt.NDArray[np.float32]]
    bitangents: Optional[npt.NDArray[np.float32]]
    colors: List[npt.NDArray[np.float32]]
    uvs: List[npt.NDArray[np.float32]]
    uv_components: List[int]
    face_indices: npt.NDArray[np.uint32]
    face_offsets: npt.NDArray[np.uint32]
    faces: Optional[npt.NDArray[np.uint32]]
    bones: List[Bone]
    bounds: dict
    face_hashes: npt.NDArray[np.uint32]

class MaterialProperty:
    key: str
    semantic: int
    index: int
    type: str
    value: Union[str, List[float], List[int], bytes]

class Material:
    name: str
    properties: List[MaterialProperty]
    def get(self, key: str, semantic: int = 0, index: int = 0) -> Union[None, str, List[float], List[int], bytes]: ...

class NodeChannel:
    node_name: str
    pre_state: int
    post_state: int
    positions: Tuple[npt.NDArray[np.float64], npt.NDArray[np.float32]]
    rotations: Tuple[npt.NDArray[np.float64], npt.NDArray[np.float32]]
    scalings: Tuple[npt.NDArray[np.float64], npt.NDArray[np.float32]]

class Animation:
    name: str
    duration: float
    ticks_per_second: float
    channels: List[NodeChannel]

class Texture:
    width: int
    height: int
    format_hint: str
    is_file: bool
    data: npt.NDArray[np.uint8]
    texels: Optional[npt.NDArray[np.uint8]]

class Light:
    name: str
    type: int
    position: Vec3
    direction: Vec3
    up: Vec3
    attenuation_constant: float
    attenuation_linear: float
    attenuation_quadratic: float
    diffuse: Vec3
    specular: Vec3
    ambient: Vec3
    inner_cone: float
    outer_cone: float

class Camera:
    name: str
    position: Vec3
    look_at: Vec3
    up: Vec3
    horizontal_fov: float
    clip_near: float
    clip_far: float
    aspect: float

class Scene:
    header: Header
    profile: str
    is_shortened: bool
    flags: int
    body_bytes: int
    trailing_bytes: int
    nodes: List[Node]
    meshes: List[Mesh]
    materials: List[Material]
    animations: List[Animation]
    textures: List[Texture]
    lights: List[Light]
    cameras: List[Camera]
    skipped_chunks: List[dict]
    def validate(self) -> List[Tuple[str, str, str]]: ...
    def to_bytes(self, *, compressed: bool = False, shortened: bool = False) -> bytes: ...

class Difference:
    path: str
    what: str
    actual: str
    expected: str
    delta: Optional[float]

class Comparison:
    same: bool
    total: int
    ignored: int
    values_compared: int
    shortened: bool
    differences: List[Difference]
    def __bool__(self) -> bool: ...

class ConvertResult:
    stats: dict
    warnings: List[str]
    model: Optional[aem.Model]
    format: str
    data: Optional[bytes]

def read(source: Union[PathLike, bytes], *, strict: bool = False, max_inflated_mb: Optional[int] = None,
         max_inflate_ratio: Optional[int] = None, max_node_depth: Optional[int] = None,
         max_allocation_ratio: Optional[int] = None, threads: int = 0) -> Scene: ...
def write(scene: Scene, path: PathLike, *, compressed: bool = False, shortened: bool = False) -> None: ...
def compare(actual: Union[PathLike, Scene], expected: Union[PathLike, Scene], *, epsilon: Optional[float] = None,
            relative: Optional[float] = None, ulps: Optional[int] = None, by_value: bool = False,
            max_diffs: int = 50, ignore: Iterable[str] = ()) -> Comparison: ...
def convert(source: Union[PathLike, Scene], destination: Optional[PathLike] = None, *, layout: int = 2024,
            compress: bool = False, texture_dirs: Sequence[PathLike] = (), uv_channel: int = 0,
            ticks_per_second: float = 25.0, crease_angle: float = 60.0, optimize: bool = True,
            keep_meshes: bool = False, keep_embedded_bytes: bool = False, max_texture_size: int = 0,
            threads: int = 1, format: Optional[str] = None, quantize: bool = False,
            meshopt: bool = False) -> ConvertResult: ...
