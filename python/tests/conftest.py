"""Where the tests find things: the fixture dumps, the built `assbin` program, the corpus.

CTest passes them by environment (python/CMakeLists.txt); run by hand from the build folder:
    PYTHONPATH=build/python ASSBIN_TEST_DATA_DIR=tests/data ASSBIN_CLI=build/bin/assbin \
        /usr/bin/python3 -m pytest python/tests
"""

import json
import os
import pathlib
import subprocess

import pytest

DATA = pathlib.Path(os.environ.get("ASSBIN_TEST_DATA_DIR", pathlib.Path(__file__).parents[2] / "tests" / "data"))
CLI = os.environ.get("ASSBIN_CLI", str(pathlib.Path(__file__).parents[2] / "build" / "bin" / "assbin"))
MAGIC = b"ASSIMP.binary-dump."


def dump_fixtures():
    """Every fixture that is a dump (by its first bytes), sorted."""
    return sorted(p for p in DATA.rglob("*") if p.is_file() and p.read_bytes()[:19] == MAGIC)


def fixture(name):
    return DATA / "assimp-5.2.5" / name


def cli(*args, check=True):
    result = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"assbin {' '.join(map(str, args))} exited {result.returncode}: {result.stderr}")
    return result


def cli_json(*args):
    """The program's --json output, whatever its exit code says (cmp exits 1 on a difference)."""
    return json.loads(cli(*args, check=False).stdout)


def skip_or_fail(reason):
    """A check that cannot run here says so; under CI=true, where everything must run, it fails."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"a check CI must run was skipped: {reason}")
    pytest.skip(reason)
