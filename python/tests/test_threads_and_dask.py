"""The GIL is released while reading (two threads read faster than one), and the Dask recipe
(examples/dask_convert.py) converts a folder on a 2-worker LocalCluster into valid models."""

import os
import pathlib
import subprocess
import shutil
import sys
import threading
import time

import pytest

import assbin
import assbin.aem
from conftest import fixture, skip_or_fail


def spins_beside(work, calls):
    """How often another thread runs Python while `work` is called `calls` times. The interpreter is
    told not to switch threads on its own (a 100 s switch interval), so the other thread runs only
    where a call lets go of the GIL."""
    done = threading.Event()
    spins = 0

    def caller():
        for _ in range(calls):
            work()
        done.set()

    def spinner():
        nonlocal spins
        while not done.is_set():
            spins += 1
            time.sleep(0)  # hands the GIL back as soon as the caller wants it

    interval = sys.getswitchinterval()
    sys.setswitchinterval(100)
    try:
        threads = [threading.Thread(target=caller), threading.Thread(target=spinner)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    return spins


def test_reading_releases_the_gil():
    """While one thread is inside assbin.read, another runs Python. (How much faster two threads
    read than one is measured by scripts/bench-python.sh, not asserted here.)"""
    # A compressed dump: each read inflates and parses for about 0.3 ms with the GIL let go, long
    # enough for the other thread to be scheduled even on a busy machine.
    data = fixture("OBJ__spider.obj.z.assbin").read_bytes()
    model = assbin.convert(fixture("X__anim_test.x.assbin")).model
    # The control: validate() keeps the GIL (it is quick), so the other thread hardly ever runs.
    held = spins_beside(model.validate, 300)
    released = spins_beside(lambda: assbin.read(data, threads=1), 300)
    assert held <= 3, f"the control let the other thread run {held} times"
    assert released >= 30, f"the other thread ran {released} times during 300 reads"


def test_threads_in_fresh_interpreters_never_deadlock():
    """The five lines that deadlocked (two threads touching their first arrays before NumPy was
    imported), then reads, converts, poses and compares on 8 threads: 200 fresh interpreters, two at a
    time, each under a timeout (a deadlock is a timeout here, not a hung suite)."""
    from concurrent.futures import ThreadPoolExecutor
    workload = pathlib.Path(__file__).with_name("threads_workload.py")
    data = os.environ.get("ASSBIN_TEST_DATA_DIR", str(pathlib.Path(__file__).parents[2] / "tests" / "data"))

    def run(_):
        try:
            done = subprocess.run([sys.executable, str(workload), "--data", data, "--rounds", "1"],
                                  capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            return "timed out (a deadlock)"
        return None if done.returncode == 0 else f"exit {done.returncode}: {done.stderr[-2000:]}"

    with ThreadPoolExecutor(2) as pool:
        failures = [f for f in pool.map(run, range(200)) if f]
    assert not failures, f"{len(failures)} of 200 runs failed; the first: {failures[0]}"


def load_recipe():
    examples = pathlib.Path(os.environ.get("ASSBIN_PYTHON_EXAMPLES", pathlib.Path(__file__).parents[1] / "examples"))
    sys.path.insert(0, str(examples))
    try:
        import dask_convert
    finally:
        sys.path.pop(0)
    return dask_convert


def test_the_dask_recipe_converts_a_folder_on_a_local_cluster(tmp_path):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        skip_or_fail("the Dask recipe: python3-distributed is not installed")
    recipe = load_recipe()
    source = tmp_path / "dumps"
    (source / "nested").mkdir(parents=True)
    shutil.copy(fixture("FBX__huesitos.fbx.assbin"), source / "huesitos.fbx.assbin")
    shutil.copy(fixture("X__anim_test.x.assbin"), source / "nested" / "anim.x.assbin")
    shutil.copy(fixture("OBJ__box_UTF16BE.obj.assbin"), source / "empty.obj.assbin")  # refused: no meshes
    shutil.copy(fixture("FBX__huesitos.fbx.assbin"), source / "blocked.fbx.assbin")
    output = tmp_path / "models"
    (output / "blocked.fbx.aem").mkdir(parents=True)  # a folder where its model should go
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        results = recipe.convert_folder(source, output, client=client)
    by_name = {pathlib.Path(r["source"]).name: r for r in results}
    assert set(by_name) == {"huesitos.fbx.assbin", "anim.x.assbin", "empty.obj.assbin", "blocked.fbx.assbin"}
    assert by_name["empty.obj.assbin"]["error"].startswith("no-triangles")
    assert by_name["blocked.fbx.assbin"]["error"].startswith("ValueError: ")  # reported; the rest went on
    assert "blocked.fbx.aem" in by_name["blocked.fbx.assbin"]["error"]
    for name, relative in (("huesitos.fbx.assbin", "huesitos.fbx.aem"), ("anim.x.assbin", "nested/anim.x.aem")):
        assert by_name[name]["error"] is None
        model = assbin.aem.read(output / relative)
        assert model.validate() == []
        assert by_name[name]["stats"]["vertices"] == len(model.positions)
