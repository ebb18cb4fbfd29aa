"""assbin.read on every fixture: counts, dtypes, shapes and values equal the C++ library's (as the
`assbin info --json` program reports them); arrays are read-only views sharing the scene's memory."""

import gc

import numpy as np
import pytest

import assbin
from conftest import cli_json, dump_fixtures, fixture

FIXTURES = dump_fixtures()


def test_there_are_fixtures():
    assert len(FIXTURES) >= 40


def world_bounds(scene):
    """Every mesh reference's positions through its node's global transform: (min, max)."""
    points = []
    globals_ = []
    for node in scene.nodes:
        local = np.asarray(node.transform, dtype=np.float64)
        globals_.append(local if node.parent < 0 else globals_[node.parent] @ local)
        for m in node.mesh_indices:
            positions = scene.meshes[m].positions
            if positions is None or len(positions) == 0:
                continue
            homogeneous = np.c_[positions.astype(np.float64), np.ones(len(positions))]
            points.append((homogeneous @ globals_[-1].T)[:, :3])
    if not points:
        return None
    points = np.concatenate(points)
    return points.min(axis=0), points.max(axis=0)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_arrays_equal_what_the_cpp_library_reports(path):
    scene = assbin.read(path)
    info = cli_json("info", "--json", path)
    assert len(scene.meshes) == info["counts"]["meshes"]
    assert len(scene.nodes) == info["counts"]["nodes"]
    assert len(scene.materials) == info["counts"]["materials"]
    assert len(scene.animations) == info["counts"]["animations"]
    assert len(scene.textures) == info["counts"]["textures"]
    assert len(scene.lights) == info["counts"]["lights"]
    assert len(scene.cameras) == info["counts"]["cameras"]
    assert scene.is_shortened == info["header"]["shortened"]
    for mesh, facts in zip(scene.meshes, info["meshes"]):
        assert mesh.vertex_count == facts["vertices"]
        assert mesh.face_count == facts["faces"]
        assert len(mesh.bones) == facts["bones"]
        assert mesh.uv_components == facts["uv_components"]
        assert len(mesh.uvs) == facts["uv_channels"]
        assert len(mesh.colors) == facts["color_sets"]
        if scene.is_shortened:
            assert len(mesh.face_hashes) == facts["face_hashes"]
            assert mesh.positions is None
            assert "positions" in mesh.bounds
            continue
        if facts["positions"]:
            assert mesh.positions.dtype == np.float32
            assert mesh.positions.shape == (mesh.vertex_count, 3)
        for uv, components in zip(mesh.uvs, mesh.uv_components):
            assert uv.shape == (mesh.vertex_count, components)  # the meaningful components only
        for colors in mesh.colors:
            assert colors.shape == (mesh.vertex_count, 4)
        assert (mesh.normals is not None) == facts["normals"]
        assert (mesh.tangents is not None) == facts["tangents"]
        offsets = mesh.face_offsets
        assert offsets.dtype == np.uint32
        assert len(offsets) == (mesh.face_count + 1 if mesh.face_count else 0)
        assert len(mesh.face_indices) == (offsets[-1] if len(offsets) else 0)
        sizes = np.diff(offsets.astype(np.int64))
        assert int((sizes == 3).sum()) == facts["face_sizes"].get("3", 0)
        if len(mesh.face_indices):
            assert int(mesh.face_indices.max()) == facts["max_index"]
        if mesh.faces is not None:
            assert mesh.faces.shape == (mesh.face_count, sizes[0])
            assert np.array_equal(mesh.faces.ravel(), mesh.face_indices)
        else:
            assert len(set(sizes.tolist())) != 1
        assert sum(len(b.weights) for b in mesh.bones) == facts["bone_weights"]
        for bone in mesh.bones:
            assert bone.vertex_ids.dtype == np.uint32 and bone.weights.dtype == np.float32
            assert bone.offset.shape == (4, 4)
            assert len(bone.vertex_ids) == bone.weight_count
    if not scene.is_shortened and info.get("bounds"):
        low, high = world_bounds(scene)
        assert np.allclose(low, info["bounds"]["min"], rtol=1e-4, atol=1e-4)
        assert np.allclose(high, info["bounds"]["max"], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("path", [p for p in FIXTURES if "compressed" not in p.name], ids=lambda p: p.name)
def test_a_scene_written_back_is_the_same_by_value(path, tmp_path):
    scene = assbin.read(path)
    out = tmp_path / "again.assbin"
    assbin.write(scene, out, shortened=scene.is_shortened)
    result = cli_json("cmp", "--json", "--epsilon", "0", out, path)
    assert result["totals"]["same"] == 1, result


def test_views_are_read_only_and_share_the_scene_memory():
    scene = assbin.read(fixture("FBX__huesitos.fbx.assbin"))
    mesh = scene.meshes[0]
    first, second = mesh.positions, scene.meshes[0].positions
    assert np.shares_memory(first, second)  # two views of one array, not two copies
    assert not first.flags.writeable and not first.flags.owndata
    with pytest.raises(ValueError):
        first[0, 0] = 1.0
    weights = mesh.bones[0].weights
    assert weights.strides == (8,)  # a view into the (vertex, weight) records
    # The view keeps the scene alive after every other reference is gone.
    expected = first.copy()
    del scene, mesh, second
    gc.collect()
    assert np.array_equal(first, expected)


def test_a_dump_read_from_bytes_equals_one_read_from_its_path():
    path = fixture("X__anim_test.x.assbin")
    a, b = assbin.read(path), assbin.read(path.read_bytes())
    assert np.array_equal(a.meshes[0].positions, b.meshes[0].positions)
    assert assbin.compare(a, b, epsilon=0).same


def test_nodes_materials_animations_and_textures():
    scene = assbin.read(fixture("FBX__huesitos.fbx.assbin"))
    assert scene.nodes[0].parent == -1
    assert all(scene.nodes[c].parent == 0 for c in scene.nodes[0].children)
    assert scene.nodes[0].transform.shape == (4, 4)
    assert any(isinstance(v, (bool, int, float, str)) for n in scene.nodes for v in n.metadata.values())
    material = scene.materials[0]
    assert material.name == "Material.001"
    assert material.get("?mat.name") == "Material.001"
    assert len(material.get("$clr.diffuse")) >= 3
    assert material.get("no-such-key") is None
    animation = scene.animations[0]
    assert animation.name == "Armature|Action"
    times, values = animation.channels[0].rotations
    assert times.dtype == np.float64 and values.shape == (len(times), 4)
    assert np.allclose(np.linalg.norm(values, axis=1), 1, atol=1e-3)  # unit quaternions, x y z w
    textured = assbin.read(fixture("glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin"))
    texture = textured.textures[0]
    assert texture.is_file and texture.format_hint == "png"
    assert bytes(texture.data[:4]) == b"\x89PNG"
    lights = assbin.read(fixture("Collada__lights.dae.assbin")).lights
    assert len(lights) > 0 and len(lights[0].diffuse) == 3


def test_a_shortened_dump_gives_bounds_and_face_hashes():
    scene = assbin.read(fixture("FBX__huesitos.fbx.assbin.regress"))
    mesh = scene.meshes[0]
    low, high = mesh.bounds["positions"]
    full = assbin.read(fixture("FBX__huesitos.fbx.assbin")).meshes[0].positions
    assert np.allclose(low, full.min(axis=0)) and np.allclose(high, full.max(axis=0))
    assert len(mesh.face_hashes) == (mesh.face_count + 511) // 512
    assert mesh.face_hashes.dtype == np.uint32
