"""Typical use of the package, written as a typed pipeline would write it: `mypy --strict` must
accept it against the package's stubs (CTest python_mypy_strict), and must refuse the lines in
test_trust_walk.py's typing check (a bare string for `ignore`)."""

from __future__ import annotations

import pathlib
from typing import List, Optional

import numpy as np
import numpy.typing as npt

import assbin
import assbin.aem


def positions_of(path: pathlib.Path) -> List[npt.NDArray[np.float32]]:
    scene = assbin.read(path, threads=1)
    first: assbin.Mesh = scene[0]
    return [p for p in (first.positions, *(mesh.positions for mesh in scene.meshes[1:])) if p is not None]


def regression(actual: pathlib.Path, expected: pathlib.Path) -> bool:
    result = assbin.compare(actual, expected, epsilon=1e-6, ignore=["*/tangents*"])
    for difference in result.differences:
        print(difference.path, difference.what)
    return result.same


def convert(source: pathlib.Path, output: pathlib.Path) -> Optional[str]:
    try:
        result = assbin.convert(source, output, layout=2025)
    except assbin.ConvertError as error:
        return f"{error.refusal}: {error.filename}"
    except assbin.ReadError as error:
        return f"{error.code}: {error.filename}"
    except OSError as error:
        return f"{error.strerror}: {error.filename}"
    model = assbin.aem.read(output)
    pose = model.pose(0 if model.animations else None, 0.5)
    assert pose.shape[1:] == (4, 4)
    assert model == assbin.aem.read(model.to_bytes())
    return "; ".join(result.warnings) or None


def round_trip(path: pathlib.Path) -> bool:
    scene = assbin.read(path)
    return assbin.read(scene.to_bytes(keep_header=True)) == scene
