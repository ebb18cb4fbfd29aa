"""The module behaves like Python: standard exceptions where Python has one, every object a user
holds pickles whole, any buffer reads without a copy, the scene is a sequence of meshes, and the
functions have signatures."""

import errno
import inspect
import mmap
import os
import pickle

import numpy as np
import pytest

import assbin
from conftest import fixture

FIXTURES = ["FBX__huesitos.fbx.assbin", "OBJ__spider.obj.z.assbin", "Collada__lights.dae.assbin",
            "OpenGEX__camera.ogex.assbin", "FBX__box_orphant_embedded_texture.fbx.assbin",
            "generated__uv1d_scalar_texcoord.gltf.assbin", "X__anim_test.x.assbin",
            "FBX__huesitos.fbx.assbin.regress"]


def _same(a, b):
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.shape == b.shape and a.dtype == b.dtype and \
            np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


def _documented(obj):
    """Every public attribute the class documents (its properties), with its value."""
    names = [n for n, v in inspect.getmembers(type(obj)) if isinstance(v, property)]
    return {n: getattr(obj, n) for n in names}


def _check_round_trip(obj):
    again = pickle.loads(pickle.dumps(obj))
    assert type(again) is type(obj)
    before, after = _documented(obj), _documented(again)
    assert before.keys() == after.keys()
    for name in before:
        if name in ("bones", "channels", "properties"):
            continue  # parts of their own: checked one by one
        assert _same(before[name], after[name]), f"{type(obj).__name__}.{name} changed in pickling"
    return again


@pytest.mark.parametrize("name", FIXTURES)
def test_every_class_a_user_holds_pickles_with_every_attribute_equal(name):
    scene = assbin.read(fixture(name))
    again = pickle.loads(pickle.dumps(scene))
    assert again == scene
    assert _same(_documented(again.header), _documented(scene.header))  # compressed, names, timestamp
    assert again.header == scene.header
    assert again.profile == scene.profile
    for kind in ("nodes", "meshes", "materials", "animations", "textures", "lights", "cameras"):
        for part in getattr(scene, kind):
            _check_round_trip(part)
    for mesh in scene.meshes:
        for bone in mesh.bones:
            _check_round_trip(bone)
    for animation in scene.animations:
        for channel in animation.channels:
            _check_round_trip(channel)
    for material in scene.materials:
        for prop in material.properties:
            assert pickle.loads(pickle.dumps(prop)) == prop
    _check_round_trip(scene.header)


def test_a_compressed_scene_keeps_its_header_through_pickling():
    scene = assbin.read(fixture("OBJ__spider.obj.z.assbin"))
    again = pickle.loads(pickle.dumps(scene))
    assert again.header.compressed and scene.header.compressed
    assert (again.header.source_name, again.header.command, again.header.compile_flags,
            again.header.timestamp) == (scene.header.source_name, scene.header.command,
                                        scene.header.compile_flags, scene.header.timestamp)


def test_io_errors_are_oserrors_naming_the_file(tmp_path):
    with pytest.raises(FileNotFoundError) as missing:
        assbin.read(tmp_path / "none.assbin")
    assert missing.value.errno == errno.ENOENT and missing.value.filename == str(tmp_path / "none.assbin")
    with pytest.raises(IsADirectoryError):
        assbin.read(tmp_path)
    with pytest.raises(FileNotFoundError):
        assbin.aem.read(tmp_path / "none.aem")
    with pytest.raises(FileNotFoundError):
        assbin.compare(tmp_path / "none.assbin", fixture("SMD__triangle.smd.assbin"))
    if os.geteuid() != 0:  # root reads anything
        locked = tmp_path / "locked.assbin"
        locked.write_bytes(fixture("SMD__triangle.smd.assbin").read_bytes())
        locked.chmod(0)
        with pytest.raises(PermissionError):
            assbin.read(locked)
    # A failed write is an OSError too, in write and in convert alike.
    scene = assbin.read(fixture("SMD__triangle.smd.assbin"))
    plain = tmp_path / "plain"
    plain.write_text("a file where a folder should be")
    with pytest.raises(OSError):
        assbin.write(scene, plain / "x.assbin")
    with pytest.raises(OSError) as convert_failed:
        assbin.convert(scene, plain / "x.aem")
    assert not isinstance(convert_failed.value, assbin.ReadError)


@pytest.mark.parametrize("wrong", [3, None, 2.5, ["a"], object()])
def test_wrong_argument_types_raise_type_error(wrong):
    with pytest.raises(TypeError, match="takes a path"):
        assbin.read(wrong)
    with pytest.raises(TypeError, match="takes a path"):
        assbin.aem.read(wrong)
    with pytest.raises(TypeError):
        assbin.compare(wrong, fixture("SMD__triangle.smd.assbin"))
    with pytest.raises(TypeError):
        assbin.convert(wrong)


def test_an_open_file_is_told_to_pass_its_path_or_bytes():
    with open(fixture("SMD__triangle.smd.assbin"), "rb") as file:
        with pytest.raises(TypeError, match="an open file"):
            assbin.read(file)


def test_any_buffer_reads_and_contiguous_ones_without_a_copy():
    path = fixture("FBX__huesitos.fbx.assbin")
    data = path.read_bytes()
    expected = assbin.read(path)
    as_array = np.frombuffer(data, dtype=np.uint8)
    for source in (data, bytearray(data), memoryview(data), as_array):
        assert assbin.read(source) == expected
    with open(path, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        assert assbin.read(mapped) == expected
    # Not contiguous (every other byte of a doubled copy): read from one copy, the same scene.
    doubled = np.repeat(as_array, 2)[::2]
    assert not doubled.flags.c_contiguous
    assert assbin.read(doubled) == expected
    model_bytes = assbin.convert(path).model.to_bytes()
    assert assbin.aem.read(np.frombuffer(model_bytes, dtype=np.uint8)).to_bytes() == model_bytes


def test_compare_says_which_side_could_not_be_read(tmp_path):
    good = fixture("OBJ__spider.obj.z.assbin")
    cut = tmp_path / "cut.assbin"
    cut.write_bytes(good.read_bytes()[:20000])
    for actual, expected, side in ((good, cut, "expected"), (cut, good, "actual")):
        with pytest.raises(assbin.ReadError) as raised:
            assbin.compare(actual, expected)
        assert raised.value.side == side
        assert raised.value.filename == str(cut)
        assert str(raised.value).startswith(f"{side.upper()} {cut}: ")


def test_a_cut_file_is_one_code_plain_or_compressed(tmp_path):
    for name in ("X__anim_test.x.assbin", "OBJ__spider.obj.z.assbin"):
        whole = fixture(name).read_bytes()
        cut = tmp_path / name
        cut.write_bytes(whole[:len(whole) * 2 // 3])
        with pytest.raises(assbin.ReadError) as raised:
            assbin.read(cut)
        assert raised.value.code == "truncated", str(raised.value)


def test_convert_without_a_destination_returns_the_textures_bytes():
    result = assbin.convert(fixture("FBX__box_orphant_embedded_texture.fbx.assbin"))
    assert result.stats["textures_written"] == len(result.textures) > 0
    for name, data in result.textures.items():
        assert name.endswith(".png") and data.startswith(b"\x89PNG")


def test_convert_takes_the_reader_limits():
    with pytest.raises(assbin.ReadError) as raised:
        assbin.convert(fixture("OBJ__spider.obj.z.assbin"), max_inflate_ratio=2)
    assert raised.value.limit == "max_inflate_ratio"
    with pytest.raises(assbin.ReadError, match="node-depth"):
        assbin.convert(fixture("FBX__huesitos.fbx.assbin"), max_node_depth=2)


def test_the_scene_is_a_sequence_of_its_meshes_and_compares_by_value():
    scene = assbin.read(fixture("OBJ__spider.obj.z.assbin"))
    assert len(scene) == len(scene.meshes) == 19
    assert [m.index for m in scene] == list(range(19))
    assert scene.meshes is scene.meshes  # made once, not at every access
    again = assbin.read(fixture("OBJ__spider.obj.z.assbin"))
    assert scene == again and hash(scene) == hash(again)  # equal scenes hash alike
    assert len({scene, again}) == 1
    assert scene != assbin.read(fixture("SMD__triangle.smd.assbin"))
    assert scene != "a scene"


def test_uvs_have_their_meaningful_components_and_full_dumps_have_bounds():
    scene = assbin.read(fixture("generated__uv1d_scalar_texcoord.gltf.assbin"))
    for mesh in scene.meshes:
        for uv, components in zip(mesh.uvs, mesh.uv_components):
            assert uv.shape[1] == components
    mesh = assbin.read(fixture("FBX__huesitos.fbx.assbin")).meshes[0]
    low, high = mesh.bounds["positions"]
    assert np.allclose(low, mesh.positions.min(axis=0)) and np.allclose(high, mesh.positions.max(axis=0))
    assert low != (0.0, 0.0, 0.0)


def test_every_class_has_a_repr_and_every_function_a_signature():
    scene = assbin.read(fixture("Collada__lights.dae.assbin"))
    held = [scene, scene.header, *scene.nodes[:2], *scene.meshes[:1], *scene.materials[:1],
            *scene.lights, *scene.cameras]
    rigged = assbin.read(fixture("FBX__huesitos.fbx.assbin"))
    held += [rigged.meshes[0].bones[0], rigged.animations[0], rigged.animations[0].channels[0],
             rigged.materials[0].properties[0]]
    held += list(assbin.read(fixture("FBX__box_orphant_embedded_texture.fbx.assbin")).textures)
    for obj in held:
        text = repr(obj)
        assert text.startswith("<assbin.") and " object at 0x" not in text, text
    for function in (assbin.read, assbin.write, assbin.compare, assbin.convert, assbin.aem.read):
        assert "source" in str(inspect.signature(function)) or "scene" in str(inspect.signature(function)) \
            or "actual" in str(inspect.signature(function))
    assert "(x, y, z, w)" in assbin.__doc__
