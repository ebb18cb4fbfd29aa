"""assbin.convert writes what `assbin convert` writes; AEM models read back with array views,
validate, and pose as `assbin aem-info --pose` does."""

import json
import os
import pickle
import stat
import threading

import numpy as np
import pytest

import assbin
import assbin.aem
from conftest import cli, cli_json, fixture

HUESITOS = fixture("FBX__huesitos.fbx.assbin")


def test_convert_writes_the_same_model_as_the_program(tmp_path):
    result = assbin.convert(HUESITOS, tmp_path / "py.aem")
    cli("convert", HUESITOS, "-o", tmp_path / "cli.aem")
    assert (tmp_path / "py.aem").read_bytes() == (tmp_path / "cli.aem").read_bytes()
    assert result.model is None
    assert result.stats["vertices"] == 128 and result.stats["triangles"] == 120
    assert result.stats["bones"] == 11 and result.stats["animations"] == 1
    assert cli("aem-info", "--validate", tmp_path / "py.aem").returncode == 0


def test_a_model_in_memory_equals_the_one_read_back(tmp_path):
    scene = assbin.read(HUESITOS)
    in_memory = assbin.convert(scene).model
    assbin.convert(HUESITOS, tmp_path / "m.aem")
    model = assbin.aem.read(tmp_path / "m.aem")
    assert model.validate() == []
    for name in ("positions", "normals", "tangents", "bitangents", "uvs", "bone_indices", "bone_weights", "indices"):
        a, b = getattr(in_memory, name), getattr(model, name)
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), name
        assert not a.flags.writeable
    assert model.positions.shape == (128, 3) and model.bone_indices.dtype == np.int32
    assert len(model.bone_parents) == 11 and model.inverse_binds.shape == (11, 4, 4)
    assert model.indices.max() < len(model.positions)


def test_pose_matches_the_program(tmp_path):
    assbin.convert(HUESITOS, tmp_path / "m.aem")
    model = assbin.aem.read(tmp_path / "m.aem")
    pose = model.pose(0, 0.5)
    program = json.loads(cli("aem-info", "--json", "--pose", "0", "0.5", tmp_path / "m.aem").stdout)
    matrices = np.array(program["pose"]["skinning_matrices"], dtype=np.float32)  # rows of each matrix
    assert pose.shape == (11, 4, 4) and pose.dtype == np.float32
    assert np.allclose(pose, matrices, rtol=1e-6, atol=1e-4)
    assert np.allclose(model.pose(None, 0), np.eye(4))
    with pytest.raises(IndexError):
        model.pose(3, 0)


def test_the_2025_layout_and_its_options(tmp_path):
    source = fixture("3DS__cube_with_diffuse_texture.3DS.assbin")
    folder = fixture("x").parents[1] / "textures" / "3DS"
    result = assbin.convert(source, tmp_path / "c.aem", layout=2025, compress=True, texture_dirs=[folder])
    assert not any("not found" in w for w in result.warnings)
    model = assbin.aem.read(tmp_path / "c.aem")
    assert model.layout == 2025 and model.validate() == []
    assert model.image_buffer.size > 0
    with pytest.raises(ValueError, match="layout=2025"):
        assbin.convert(source, tmp_path / "d.aem", compress=True)
    with pytest.raises(ValueError, match="no such folder"):
        assbin.convert(source, tmp_path / "d.aem", layout=2025, texture_dirs=["/nonexistent"])
    with pytest.raises(ValueError, match="2025 layout stores pixels"):  # refused as the program refuses it
        assbin.convert(source, tmp_path / "d.aem", layout=2025, keep_embedded_bytes=True)
    with pytest.raises(ValueError, match="keep_meshes is part of optimize=False"):
        assbin.convert(source, tmp_path / "d.aem", keep_meshes=True, optimize=False)
    assert not (tmp_path / "d.aem").exists()


def test_refusals_raise_convert_error(tmp_path):
    with pytest.raises(assbin.ConvertError) as raised:
        assbin.convert(fixture("FBX__huesitos.fbx.assbin.regress"), tmp_path / "x.aem")
    assert raised.value.refusal == "shortened"
    assert not (tmp_path / "x.aem").exists()
    with pytest.raises(FileNotFoundError) as missing:
        assbin.convert(tmp_path / "missing.assbin", tmp_path / "y.aem")
    assert missing.value.filename == str(tmp_path / "missing.assbin")


def test_results_and_models_pickle():
    result = assbin.convert(HUESITOS)
    again = pickle.loads(pickle.dumps(result))
    assert again.stats == result.stats and again.warnings == result.warnings
    assert np.array_equal(again.model.positions, result.model.positions)
    scene = assbin.read(HUESITOS)
    assert assbin.compare(pickle.loads(pickle.dumps(scene)), scene, epsilon=0).same


def test_an_output_never_replaces_its_input(tmp_path):
    source = tmp_path / "in.assbin"
    source.write_bytes(open(HUESITOS, "rb").read())
    before = source.read_bytes()
    (tmp_path / "link.assbin").symlink_to(source)
    os.link(source, tmp_path / "hard.assbin")
    for destination in (source, tmp_path / "link.assbin", tmp_path / "hard.assbin"):
        with pytest.raises(ValueError, match=r"is the input .* \(the same file\)"):
            assbin.convert(source, destination)
        assert source.read_bytes() == before
    with pytest.raises(ValueError, match="is a folder, not a file"):
        assbin.convert(source, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hard.assbin", "in.assbin", "link.assbin"]


def test_a_fifo_is_written_into_and_stays_one(tmp_path):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received = {}

    def drain():
        with open(fifo, "rb") as stream:
            received["bytes"] = stream.read()

    reader = threading.Thread(target=drain, daemon=True)  # never holds the interpreter if no writer comes
    reader.start()
    assbin.convert(HUESITOS, fifo)
    reader.join(timeout=30)
    assert received["bytes"][:3] == b"AEM"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)

    reader = threading.Thread(target=drain, daemon=True)  # never holds the interpreter if no writer comes
    reader.start()
    assbin.write(assbin.read(HUESITOS), fifo)
    reader.join(timeout=30)
    assert received["bytes"].startswith(b"ASSIMP.binary-dump.")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["out.fifo"]


def test_gltf_out_by_extension_or_format(tmp_path):
    skin = fixture("glTF2__simple_skin__simple_skin.gltf.assbin")
    result = assbin.convert(skin, tmp_path / "skin.glb")
    assert result.format == "glb" and result.model is None and result.data is None
    data = (tmp_path / "skin.glb").read_bytes()
    assert data[:4] == b"glTF" and int.from_bytes(data[8:12], "little") == len(data)
    assert result.stats["bones"] == 2 and result.stats["animations"] == 1
    in_memory = assbin.convert(skin, format="glb")
    assert in_memory.data == data  # the same bytes, written or returned
    text = assbin.convert(skin, tmp_path / "skin.gltf")
    assert text.format == "gltf"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["skin.bin", "skin.glb", "skin.gltf"]
    with pytest.raises(ValueError, match="is a glb file, but format is 'aem'"):
        assbin.convert(skin, tmp_path / "x.glb", format="aem")
    with pytest.raises(ValueError, match="give a destination"):
        assbin.convert(skin, format="gltf")
    with pytest.raises(ValueError, match="uv_channel: AEM options"):
        assbin.convert(skin, format="glb", uv_channel=1)
    small = assbin.convert(skin, format="glb", quantize=True).data
    assert b"KHR_mesh_quantization" in small and small != data
    assert b"EXT_meshopt_compression" in assbin.convert(skin, format="glb", meshopt=True).data
    with pytest.raises(ValueError, match="quantize is a glTF option"):
        assbin.convert(skin, quantize=True)


def test_key_error_removes_keys_within_its_bound_and_zero_keeps_them():
    every = assbin.convert(fixture("X__anim_test.x.assbin"))
    reduced = assbin.convert(fixture("X__anim_test.x.assbin"), key_error=1e-4)
    assert every.stats["keys_removed"] == 0
    assert reduced.stats["keys_removed"] > 0
    assert reduced.stats["keys"] + reduced.stats["keys_removed"] == every.stats["keys"]
    assert every.stats["key_error_measured"] == 0
    # the keys it removes lie on the lines the others make (a measured 0); a tenth of the bound is left
    # to float players
    assert 0 <= reduced.stats["key_error_measured"] <= 0.9e-4
    # quantize implies 1e-4 unless told otherwise; key_error=0 keeps every key.
    quantized = assbin.convert(fixture("X__anim_test.x.assbin"), format="glb", quantize=True)
    assert quantized.stats["keys_removed"] == reduced.stats["keys_removed"]
    assert 0 < quantized.stats["key_error_measured"] <= 0.9e-4  # its rotations rounded to 16 bits
    exact = assbin.convert(fixture("X__anim_test.x.assbin"), format="glb", quantize=True, key_error=0)
    assert exact.stats["keys_removed"] == 0 and exact.stats["key_error_measured"] == 0
    assert len(quantized.data) < len(exact.data)
    with pytest.raises(ValueError, match="key_error must be 0 to 0.1"):
        assbin.convert(fixture("X__anim_test.x.assbin"), key_error=0.5)
    with pytest.raises(TypeError, match="key_error must be a number"):
        assbin.convert(fixture("X__anim_test.x.assbin"), key_error="1e-4")
