"""The module on many threads at once, from a fresh interpreter that has not imported NumPy: first
the five lines that deadlocked (two threads touching their first arrays together), then 8 threads
that each read (from a path and from bytes), convert, pose, compare and write back, `--rounds`
times. Run by test_threads_and_dask.py in fresh interpreters under a timeout, and by CTest's
python_threads_tsan under ThreadSanitizer (a TSan build of the module, the runtime preloaded).

    python3 threads_workload.py --data tests/data [--rounds N] [--threads N]
"""

import argparse
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import assbin  # not NumPy: the module must stand the first array touched on two threads at once


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--threads", type=int, default=8)
    options = parser.parse_args()
    assert "numpy" not in sys.modules or "assbin" in sys.modules  # NumPy only as the module brings it
    folder = os.path.join(options.data, "assimp-5.2.5")
    files = [os.path.join(folder, name) for name in ("FBX__huesitos.fbx.assbin", "X__anim_test.x.assbin")]

    # The five lines of the report: two threads, each its first array.
    with ThreadPoolExecutor(2) as pool:
        shapes = list(pool.map(lambda p: assbin.read(p).meshes[0].positions.shape, files))
    assert shapes == [(256, 3), (2520, 3)], shapes

    skinned = os.path.join(folder, "FBX__huesitos.fbx.assbin")
    compressed = os.path.join(folder, "OBJ__spider.obj.z.assbin")
    data = open(compressed, "rb").read()
    expected_scene = assbin.read(skinned)
    start = threading.Barrier(options.threads)

    def work(worker: int) -> int:
        start.wait()  # all at once
        done = 0
        for round_ in range(options.rounds):
            scene = assbin.read(skinned, threads=2)
            assert scene.meshes[0].positions.shape == (256, 3)
            assert scene.meshes[0].bones[0].weights.dtype.kind == "f"
            # One scene shared by every thread: its faces are made from the file's records on first use.
            shared = expected_scene.meshes[0]
            assert len(shared.face_offsets) == shared.face_count + 1 and shared.face_indices.size > 0
            assert len(assbin.read(data, threads=2).meshes) == 19
            result = assbin.convert(skinned if (worker + round_) % 2 else scene, threads=2)
            model = result.model
            assert model.validate() == []
            pose = model.pose(0, 0.1 * round_)
            assert pose.shape == (len(model.bone_names), 4, 4)
            assert model.positions.shape[1] == 3
            glb = assbin.convert(scene, format="glb", threads=2).data
            assert glb[:4] == b"glTF"
            assert assbin.compare(scene, expected_scene).same
            assert assbin.read(scene.to_bytes()) == scene
            done += 7
        return done

    with ThreadPoolExecutor(options.threads) as pool:
        operations = sum(pool.map(work, range(options.threads)))
    print(f"{operations} operations on {options.threads} threads, and the five lines: no deadlock")
    return 0


if __name__ == "__main__":
    sys.exit(main())
