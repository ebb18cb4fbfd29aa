"""What a pipeline engineer met on first use, case by case (issue: Python you can trust in threads
and pipelines). Each case failed before the fix; together they hold the module to Python's own
rules: errors of the standard classes naming the right file, numbers refused by parameter name,
names decoded as the program decodes them, comparisons that cannot pass by accident, round trips
that are stable, and no change to the host process's allocator."""

import errno
import inspect
import logging
import os
import pathlib
import pickle
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

import assbin
import assbin.aem
from conftest import fixture

HUESITOS = fixture("FBX__huesitos.fbx.assbin")
TRIANGLE = fixture("SMD__triangle.smd.assbin")
SPIDER = fixture("OBJ__spider.obj.z.assbin")


def unwritable_folder(tmp_path):
    """A folder no file can be created in: a read-only folder, or for root (whom modes do not stop)
    /sys, where creating a file is refused with EACCES."""
    if os.geteuid() == 0:
        return pathlib.Path("/sys")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    return folder


def moved_copy(tmp_path, offset):
    """HUESITOS with every vertex of mesh 0 moved by `offset` along x (the positions' bytes edited
    in place: they are one run in an uncompressed dump)."""
    data = HUESITOS.read_bytes()
    positions = assbin.read(HUESITOS).meshes[0].positions
    before = positions.tobytes()
    assert data.count(before) == 1
    moved = positions.copy()
    moved[:, 0] += offset
    path = tmp_path / "moved.assbin"
    path.write_bytes(data.replace(before, moved.tobytes()))
    return path


def latin1_copy(tmp_path):
    """HUESITOS with a node name that is Latin-1, not UTF-8 ("Armature" -> "Armatur\\xe9"), as old
    writers stored names."""
    data = HUESITOS.read_bytes()
    assert b"Armature" in data
    path = tmp_path / "latin1.assbin"
    path.write_bytes(data.replace(b"Armature", b"Armatur\xe9"))
    return path


# --- comparisons that cannot pass by accident ---------------------------------------------------

def test_ignore_refuses_a_bare_string():
    with pytest.raises(TypeError, match=r"ignore=\['\*/tangents\*'\]"):
        assbin.compare(HUESITOS, SPIDER, ignore="*/tangents*")
    assert not assbin.compare(HUESITOS, SPIDER, ignore=["*/tangents*"]).same


def test_the_default_tolerance_sees_a_small_move(tmp_path):
    moved = moved_copy(tmp_path, 0.09)
    result = assbin.compare(moved, HUESITOS)
    assert not result.same and result.total >= 256  # every vertex, and the bounds
    assert assbin.compare(moved, HUESITOS, epsilon=0.1).same  # assimp cmpdump's tolerance, when asked
    assert assbin.compare(moved, HUESITOS, epsilon=np.float32(0.1)).same  # NumPy's numbers too
    # The program agrees: exit 1 by default, 0 with --epsilon 0.1.
    from conftest import cli
    assert cli("cmp", moved, HUESITOS, check=False).returncode == 1
    assert cli("cmp", moved, HUESITOS, "--epsilon", "0.1", check=False).returncode == 0


# --- names and paths that are not UTF-8 ---------------------------------------------------------

def test_latin1_names_are_read_as_the_program_reads_them(tmp_path):
    path = latin1_copy(tmp_path)
    scene = assbin.read(path)
    names = [node.name for node in scene.nodes]
    assert "Armaturé" in names
    result = assbin.compare(path, HUESITOS)  # no UnicodeDecodeError
    assert not result.same and any("Armaturé" in d.actual for d in result.differences)
    assert isinstance(scene.validate(), list)
    converted = assbin.convert(path)
    assert converted.model.validate() == []


def test_latin1_names_are_said_once():
    code = ("import warnings, assbin, sys\nwarnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as said:\n"
            "    for _ in range(3): [n.name for n in assbin.read(sys.argv[1]).nodes]\n"
            "print(sum(issubclass(w.category, UnicodeWarning) for w in said))")
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        path = latin1_copy(pathlib.Path(folder))
        out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                             env=dict(os.environ), timeout=60)
    assert out.stdout.strip() == "1", out.stderr


def test_paths_that_are_not_utf8_are_named_as_given(tmp_path):
    name = os.fsdecode(b"caf\xe9")  # 'caf\udce9', as os.listdir would give it
    missing = tmp_path / (name + ".assbin")
    with pytest.raises(FileNotFoundError) as raised:
        assbin.read(missing)
    assert raised.value.filename == str(missing)
    cut = tmp_path / (name + "-cut.assbin")
    cut.write_bytes(HUESITOS.read_bytes()[:3000])
    with pytest.raises(assbin.ReadError) as read_error:
        assbin.read(cut)
    assert read_error.value.filename == str(cut)
    with pytest.raises(assbin.ReadError) as compared:
        assbin.compare(cut, HUESITOS)
    assert compared.value.filename == str(cut) and compared.value.side == "actual"
    folder = tmp_path / name
    folder.mkdir()
    with pytest.raises(IsADirectoryError) as raised_folder:
        assbin.read(folder)
    assert raised_folder.value.filename == str(folder)


# --- errors of the standard classes, naming the file --------------------------------------------

def test_an_output_that_cannot_be_written_names_the_output(tmp_path):
    folder = unwritable_folder(tmp_path)
    with pytest.raises(PermissionError) as raised:
        assbin.convert(HUESITOS, folder / "out.aem")
    assert raised.value.filename == str(folder / "out.aem") and raised.value.errno == errno.EACCES
    with pytest.raises(PermissionError) as written:
        assbin.write(assbin.read(HUESITOS), folder / "w.assbin")
    assert written.value.filename == str(folder / "w.assbin") and written.value.errno == errno.EACCES
    with pytest.raises(FileNotFoundError) as no_folder:
        assbin.convert(HUESITOS, tmp_path / "nodir" / "out.aem")
    assert no_folder.value.filename == str(tmp_path / "nodir" / "out.aem")
    with pytest.raises(FileNotFoundError):
        assbin.write(assbin.read(HUESITOS), tmp_path / "nodir" / "w.assbin")


def test_errors_name_their_file():
    with pytest.raises(OSError) as device:
        assbin.read("/dev/null")
    assert device.value.filename == "/dev/null" and "device" in str(device.value)
    with pytest.raises(ValueError) as refused:  # a folder where the output should go
        assbin.convert(HUESITOS, "/tmp")
    assert "/tmp" in str(refused.value)


def test_a_cut_aem_file_and_a_refused_scene_name_their_file(tmp_path):
    model = tmp_path / "m.aem"
    assbin.convert(HUESITOS, model)
    cut = tmp_path / "cut.aem"
    cut.write_bytes(model.read_bytes()[:500])
    with pytest.raises(assbin.ReadError) as raised:
        assbin.aem.read(cut)
    assert raised.value.filename == str(cut) and raised.value.code == "truncated"
    empty = fixture("OBJ__box_UTF16BE.obj.assbin")  # no meshes: refused
    with pytest.raises(assbin.ConvertError) as refusal:
        assbin.convert(empty)
    assert refusal.value.filename == str(empty) and refusal.value.refusal == "no-triangles"
    assert str(refusal.value).startswith(f"{empty}: ")


@pytest.mark.parametrize("call, parameter", [
    (lambda: assbin.read(HUESITOS, threads=-1), "threads"),
    (lambda: assbin.read(HUESITOS, max_node_depth=-5), "max_node_depth"),
    (lambda: assbin.read(HUESITOS, max_inflated_mb=-1), "max_inflated_mb"),
    (lambda: assbin.convert(HUESITOS, threads=-1), "threads"),
    (lambda: assbin.convert(HUESITOS, max_texture_size=-1), "max_texture_size"),
    (lambda: assbin.convert(HUESITOS, uv_channel=-1), "uv_channel"),
    (lambda: assbin.convert(HUESITOS, uv_channel=8), "uv_channel"),
    (lambda: assbin.convert(HUESITOS, max_node_depth=-5), "max_node_depth"),
    (lambda: assbin.convert(HUESITOS, ticks_per_second=0), "ticks_per_second"),
    (lambda: assbin.compare(HUESITOS, HUESITOS, ulps=-1), "ulps"),
    (lambda: assbin.compare(HUESITOS, HUESITOS, epsilon=-1), "epsilon"),
    (lambda: assbin.compare(HUESITOS, HUESITOS, relative=float("nan")), "relative"),
    (lambda: assbin.compare(HUESITOS, HUESITOS, max_diffs=-1), "max_diffs"),
    (lambda: assbin.convert(HUESITOS).model.pose(-1, 0.5), "animation"),
    (lambda: assbin.read(HUESITOS).materials[0].get("$clr.diffuse", -1), "semantic"),
])
def test_numbers_out_of_range_are_value_errors_naming_the_parameter(call, parameter):
    with pytest.raises(ValueError, match=parameter) as raised:
        call()
    assert "_convert" not in str(raised.value) and "incompatible function arguments" not in str(raised.value)


# --- the Dask recipe goes on past any failure ---------------------------------------------------

def test_the_recipe_reports_an_output_it_cannot_write_and_goes_on(tmp_path):
    from test_threads_and_dask import load_recipe
    recipe = load_recipe()
    source = tmp_path / "dumps"
    source.mkdir()
    for name in ("a.fbx.assbin", "b.fbx.assbin"):
        shutil.copy(HUESITOS, source / name)
    output = tmp_path / "models"
    (output / "a.fbx.aem").mkdir(parents=True)  # a folder where a's model should go
    results = {pathlib.Path(r["source"]).name: r
               for r in (recipe.convert_one(str(source / n), str(source), str(output))
                         for n in ("a.fbx.assbin", "b.fbx.assbin"))}
    assert results["a.fbx.assbin"]["error"] and "a.fbx.aem" in results["a.fbx.assbin"]["error"]
    assert results["b.fbx.assbin"]["error"] is None
    assert assbin.aem.read(output / "b.fbx.aem").validate() == []


# --- no change to the host's allocator ----------------------------------------------------------

def test_importing_the_module_leaves_the_allocator_alone():
    """The report's measure: free 800 MB of unrelated NumPy arrays; the process gives it back."""
    code = ("import assbin, numpy as np\n"
            "def rss(): return int(open('/proc/self/statm').read().split()[1]) * 4096 >> 20\n"
            "before = rss()\n"
            "arrays = [np.ones(1 << 20) for _ in range(100)]\n"
            "held = rss()\n"
            "del arrays\n"
            "print(before, held, rss())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={k: v for k, v in os.environ.items() if k != "ASSBIN_SYSTEM_MALLOC"})
    before, held, after = map(int, out.stdout.split())
    assert held - before >= 700
    assert after <= before * 1.1 + 10, f"{after} MB resident after freeing, {before} MB before"


# --- stable round trips and value equality ------------------------------------------------------

@pytest.mark.parametrize("name", ["FBX__huesitos.fbx.assbin", "OBJ__spider.obj.z.assbin",
                                  "FBX__huesitos.fbx.assbin.regress", "X__anim_test.x.assbin"])
def test_a_scene_written_and_read_back_is_equal(name, tmp_path):
    scene = assbin.read(fixture(name))
    assert assbin.read(scene.to_bytes()) == scene
    assbin.write(scene, tmp_path / "again.assbin")
    again = assbin.read(tmp_path / "again.assbin")
    assert again == scene and again.header == assbin.read(scene.to_bytes()).header
    assert again.header.source_name == scene.header.source_name
    fresh = assbin.read(scene.to_bytes(keep_header=False))
    assert fresh != scene and fresh.header.timestamp != scene.header.timestamp or \
        scene.header.source_name == ""


def test_equal_scenes_pickle_to_equal_bytes():
    first = pickle.dumps(assbin.read(HUESITOS))
    time.sleep(1.05)  # the header's time has second resolution
    assert pickle.dumps(assbin.read(HUESITOS)) == first


def test_write_through_a_symlink_keeps_the_link(tmp_path):
    target = tmp_path / "real.assbin"
    target.write_bytes(b"old")
    link = tmp_path / "link.assbin"
    link.symlink_to(target)
    assbin.write(assbin.read(TRIANGLE), link)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert assbin.read(target) == assbin.read(TRIANGLE)


def test_every_part_equals_its_pickled_copy():
    scene = assbin.read(HUESITOS)
    assert scene.meshes[0].bones[0] == scene.meshes[0].bones[0]
    parts = [*scene.nodes, *scene.meshes, *scene.meshes[0].bones, *scene.materials, *scene.animations,
             *scene.animations[0].channels]
    for part in parts:
        again = pickle.loads(pickle.dumps(part))
        assert again == part and hash(again) == hash(part), repr(part)
    assert scene.meshes[0].bones[0] != scene.meshes[0].bones[1]
    assert scene.nodes[0] != scene.nodes[1]
    model = assbin.convert(HUESITOS).model
    assert pickle.loads(pickle.dumps(model)) == model and model == assbin.aem.read(model.to_bytes())
    assert model != assbin.convert(fixture("X__anim_test.x.assbin")).model


# --- rough edges --------------------------------------------------------------------------------

def test_convert_applies_the_programs_extension_rule(tmp_path):
    with pytest.raises(ValueError, match=r"\.obj names no format"):
        assbin.convert(HUESITOS, tmp_path / "o.obj")
    assert not (tmp_path / "o.obj").exists()


def test_methods_have_signatures():
    assert list(inspect.signature(assbin.Scene.to_bytes).parameters) == \
        ["self", "compressed", "shortened", "keep_header"]
    assert list(inspect.signature(assbin.Material.get).parameters) == ["self", "key", "semantic", "index"]
    assert list(inspect.signature(assbin.aem.Model.pose).parameters) == ["self", "animation", "time"]


def test_a_scene_is_a_sequence_of_its_meshes():
    scene = assbin.read(SPIDER)
    assert scene[0] == scene.meshes[0] and scene[-1] == scene.meshes[-1]
    assert scene[1:3] == scene.meshes[1:3]
    with pytest.raises(IndexError):
        scene[len(scene)]


def test_a_bytes_path_is_refused_not_read_as_content():
    with pytest.raises(TypeError, match="name a file"):
        assbin.read(os.fsencode(HUESITOS))
    with pytest.raises(TypeError, match="name a file"):
        assbin.aem.read(os.fsencode(HUESITOS))


def test_the_module_shows_only_its_own_names():
    names = dir(assbin)
    for private in ("Any", "Dict", "os", "sys", "Optional"):
        assert private not in names
    assert {"read", "compare", "convert", "Scene", "ReadError"} <= set(names)


def test_reprs_count_in_words():
    assert "1 mesh," in repr(assbin.read(TRIANGLE))
    assert "1 animation" not in repr(assbin.read(TRIANGLE))  # (not a claim: just no "1 meshes")
    assert "1 meshes" not in repr(assbin.read(TRIANGLE))


def test_conversion_warnings_reach_logging(caplog):
    with caplog.at_level(logging.WARNING, logger="assbin"):
        result = assbin.convert(HUESITOS)
    assert result.warnings
    logged = [r.getMessage() for r in caplog.records if r.name == "assbin"]
    assert len(logged) == len(result.warnings)
    assert all(str(HUESITOS) in line for line in logged)


def test_reads_recycle_the_modules_own_blocks_and_give_them_back():
    """A scene read from a path keeps its arrays in a block the module recycles; when the scene is
    gone the block is kept for the next read (bounded), and release_memory() gives it back."""
    import gc
    assbin.release_memory()
    assert assbin._assbin._spare_blocks() == (0, 0)
    scene = assbin.read(HUESITOS)
    positions = scene.meshes[0].positions
    del scene
    gc.collect()
    assert assbin._assbin._spare_blocks() == (0, 0)  # the array still holds the block
    assert positions.shape == (256, 3) and np.isfinite(positions).all()
    del positions
    gc.collect()
    blocks, kept = assbin._assbin._spare_blocks()
    assert blocks == 1 and kept >= HUESITOS.stat().st_size
    again = assbin.read(HUESITOS)  # into the kept block
    assert assbin._assbin._spare_blocks() == (0, 0)
    assert again == assbin.read(HUESITOS.read_bytes())
    del again
    gc.collect()
    assbin.release_memory()
    assert assbin._assbin._spare_blocks() == (0, 0)


def test_arrays_read_from_a_path_are_those_read_from_bytes():
    """From a path the arrays stay in the file's bytes (views, faces made from the records on first
    use); from bytes they are copied: every array the same, on every fixture dump."""
    from conftest import dump_fixtures
    for path in dump_fixtures():
        viewed, copied = assbin.read(path), assbin.read(path.read_bytes())
        assert viewed == copied, path
        for a, b in zip(viewed.meshes, copied.meshes):
            for name in ("positions", "normals", "tangents", "bitangents", "face_indices", "face_offsets",
                         "faces", "uv_components"):
                x, y = getattr(a, name), getattr(b, name)
                assert (x is None) == (y is None), (path, name)
                if x is not None:
                    assert np.array_equal(np.asarray(x), np.asarray(y), equal_nan=True), (path, a.index, name)
            for x, y in zip(a.uvs + a.colors, b.uvs + b.colors):
                assert np.array_equal(x, y, equal_nan=True), (path, a.index)
            for x, y in zip(a.bones, b.bones):
                assert np.array_equal(x.vertex_ids, y.vertex_ids) and np.array_equal(x.weights, y.weights)
            assert a.bounds.keys() == b.bounds.keys()
        assert [m.positions.flags.writeable for m in viewed.meshes if m.positions is not None] == \
            [False] * sum(m.positions is not None for m in viewed.meshes)
