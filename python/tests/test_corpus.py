"""A sweep from Python: every dump under ASSBIN_CORPUS_DIR (picked by magic) reads, and its arrays
have the shapes its counts say; the files the corpus lists as cut by a crashed writer raise
ReadError. Skipped, loudly (a failure under CI=true), without a corpus."""

import os
import pathlib

import numpy as np

import assbin
from conftest import DATA, MAGIC, skip_or_fail


def expected_failures():
    lines = (DATA / "corpus-expected-failures.txt").read_text().splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def test_every_corpus_dump_reads_from_python():
    corpus = pathlib.Path(os.environ.get("ASSBIN_CORPUS_DIR", ""))
    if not corpus.is_dir() or not os.environ.get("ASSBIN_CORPUS_DIR"):
        skip_or_fail(f"the corpus sweep from Python: no corpus at '{corpus}' (ASSBIN_CORPUS_DIR)")
    must_fail = expected_failures()
    read = failed = vertices = 0
    unexpected = []
    for path in sorted(corpus.rglob("*")):
        if not path.is_file():
            continue
        with open(path, "rb") as file:
            if file.read(len(MAGIC)) != MAGIC:
                continue
        try:
            scene = assbin.read(path)
        except assbin.ReadError as error:
            failed += 1
            if path.name not in must_fail:
                unexpected.append(f"{path}: {error}")
            continue
        if path.name in must_fail:
            unexpected.append(f"{path}: read, but listed as an expected failure")
        read += 1
        for mesh in scene.meshes:
            if scene.is_shortened or mesh.positions is None:
                continue
            assert mesh.positions.shape == (mesh.vertex_count, 3), path
            assert len(mesh.face_offsets) == (mesh.face_count + 1 if mesh.face_count else 0), path
            vertices += len(mesh.positions)
            if len(mesh.face_indices):
                assert int(np.max(mesh.face_indices)) < 2**32
    assert not unexpected, "\n".join(unexpected[:20])
    assert failed == len(must_fail)
    assert read > 1000, f"only {read} dumps under {corpus}"
    print(f"{read} dumps read ({vertices} vertices), {failed} expected failures")
