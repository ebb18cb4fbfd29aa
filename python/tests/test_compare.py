"""assbin.compare agrees with `assbin cmp` (paths or scenes, every tolerance)."""

import pickle

import assbin
from conftest import cli_json, fixture

A = fixture("SMD__triangle.smd.assbin")
B = fixture("X__anim_test.x.assbin")


def test_the_same_file_is_the_same():
    result = assbin.compare(A, A)
    assert result.same and bool(result) and result.total == 0 and result.differences == []
    assert result.values_compared > 0


def test_differences_match_the_program():
    result = assbin.compare(A, B, max_diffs=500)
    program = cli_json("cmp", "--json", "--max-diffs", "500", A, B)["pairs"][0]
    assert not result.same
    assert result.total == program["total_differences"]
    assert [d.path for d in result.differences] == [d["path"] for d in program["differences"]]
    assert [d.actual for d in result.differences] == [d["actual"] for d in program["differences"]]
    first = result.differences[0]
    assert first.what.startswith("expected ")


def test_tolerances_and_ignore():
    full = fixture("FBX__huesitos.fbx.assbin")
    shortened = fixture("FBX__huesitos.fbx.assbin.regress")
    assert assbin.compare(full, shortened).same  # the full one's bounds and hashes are derived
    scene = assbin.read(full)
    assert assbin.compare(scene, full, epsilon=0).same
    assert assbin.compare(scene, full, ulps=0).same
    assert assbin.compare(scene, full, relative=0).same
    limited = assbin.compare(A, B, max_diffs=3)
    assert len(limited.differences) == 3 and limited.total > 3
    ignored = assbin.compare(A, B, ignore=["*"])
    assert ignored.same and ignored.ignored == limited.total


def test_comparisons_pickle():
    result = assbin.compare(A, B)
    assert pickle.loads(pickle.dumps(result)) == result
