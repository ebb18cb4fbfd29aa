"""Files that cannot be read raise assbin.ReadError with the byte offset, the chunk path and the
message the `assbin` program prints; limits are keyword arguments."""

import os
import pickle
import subprocess
import sys

import pytest

import assbin
from conftest import cli, fixture


def message_of_cli(path):
    """What `assbin info` prints after "assbin: error: FILE: "."""
    err = cli("info", path, check=False).stderr.strip()
    return err.split(": ", 3)[-1] if err.startswith("assbin: error: ") else err


@pytest.mark.parametrize("keep", [100, 700, 2000, 20000])
def test_a_cut_dump_raises_read_error_with_offset_and_chunk_path(tmp_path, keep):
    whole = fixture("X__anim_test.x.assbin").read_bytes()
    cut = tmp_path / "cut.assbin"
    cut.write_bytes(whole[:keep])
    with pytest.raises(assbin.ReadError) as raised:
        assbin.read(cut)
    error = raised.value
    assert error.code == "truncated"  # one condition, one code, wherever the cut lands
    assert "cut short" in str(error)
    assert 0 < error.offset <= keep
    assert error.chunk_path
    assert error.filename == str(cut)
    assert str(error).startswith(f"{cut}: at byte {error.offset} in {error.chunk_path}: ")
    assert str(error) in cli("info", cut, check=False).stderr  # the program's own words


def test_a_cut_compressed_dump_says_cut_short(tmp_path):
    whole = fixture("OBJ__spider.obj.z.assbin").read_bytes()
    cut = tmp_path / "cut.assbin"
    cut.write_bytes(whole[:20000])
    with pytest.raises(assbin.ReadError, match="the compressed stream is cut short") as raised:
        assbin.read(cut)
    assert raised.value.code == "truncated"


def test_limits_are_keyword_arguments():
    path = fixture("OBJ__spider.obj.z.assbin")  # inflates 5.3 times
    with pytest.raises(assbin.ReadError) as raised:
        assbin.read(path, max_inflate_ratio=2)
    assert raised.value.code == "limit-exceeded"
    assert raised.value.limit == "max_inflate_ratio"
    assert "max_inflate_ratio= raises it (a multiple of the compressed stream's size)" in str(raised.value)
    assert len(assbin.read(path, max_inflate_ratio=8).meshes) == 19
    deep = fixture("FBX__huesitos.fbx.assbin")  # nodes 9 deep
    with pytest.raises(assbin.ReadError, match="depth"):
        assbin.read(deep, max_node_depth=4)


def test_strict_refuses_trailing_bytes(tmp_path):
    padded = tmp_path / "padded.assbin"
    padded.write_bytes(fixture("SMD__triangle.smd.assbin").read_bytes() + b"\0" * 16)
    assert assbin.read(padded).trailing_bytes == 16
    with pytest.raises(assbin.ReadError):
        assbin.read(padded, strict=True)


def test_missing_and_foreign_files(tmp_path):
    with pytest.raises(FileNotFoundError) as raised:
        assbin.read(tmp_path / "missing.assbin")
    assert raised.value.filename == str(tmp_path / "missing.assbin")
    with pytest.raises(assbin.ReadError, match="not an ASSBIN dump"):
        assbin.read(b"not a dump at all" * 40)
    with pytest.raises(assbin.ReadError, match="not an AEM model"):
        assbin.aem.read(fixture("SMD__triangle.smd.assbin"))


def test_read_errors_pickle():
    with pytest.raises(assbin.ReadError) as raised:
        assbin.read(b"ASSIMP.binary-dump.")
    again = pickle.loads(pickle.dumps(raised.value))
    assert (again.offset, again.chunk_path, again.code, str(again)) == (
        raised.value.offset, raised.value.chunk_path, raised.value.code, str(raised.value))


def test_without_numpy_the_import_says_what_to_install():
    # NumPy hidden from this interpreter (a None entry makes its import fail as if it were missing).
    run = subprocess.run([sys.executable, "-c", "import sys; sys.modules['numpy'] = None; import assbin"],
                         capture_output=True, text=True, env=dict(os.environ))
    assert run.returncode != 0
    assert "ImportError: assbin needs NumPy" in run.stderr, run.stderr
    assert f"'{sys.executable} -m pip install numpy'" in run.stderr
    assert "python3-numpy" in run.stderr
