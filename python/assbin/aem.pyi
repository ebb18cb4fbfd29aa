# Type stubs of assbin.aem (AEM models).
import os
from typing import List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

class Model:
    layout: int
    positions: npt.NDArray[np.float32]
    normals: npt.NDArray[np.float32]
    tangents: npt.NDArray[np.float32]
    bitangents: npt.NDArray[np.float32]
    uvs: npt.NDArray[np.float32]
    bone_indices: npt.NDArray[np.int32]
    bone_weights: npt.NDArray[np.float32]
    extra_bones: npt.NDArray[np.int32]
    indices: npt.NDArray[np.uint32]
    meshes: List[dict]
    materials: List[dict]
    textures: List[dict]
    image_buffer: npt.NDArray[np.uint8]
    bone_parents: List[int]
    bone_names: List[str]
    inverse_binds: npt.NDArray[np.float32]
    animations: List[dict]
    def validate(self) -> List[Tuple[str, str, str]]: ...
    def pose(self, animation: Optional[int], time: float) -> npt.NDArray[np.float32]: ...
    def to_bytes(self) -> bytes: ...

def read(source: Union[str, os.PathLike[str], bytes]) -> Model: ...
