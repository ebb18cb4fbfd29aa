#!/usr/bin/env bash
# The Python module's speed: assbin.read of the 31 MB grid (assbin_make_shapes, as bench.sh and
# bench-convert.sh make it) against reading its bytes into Python (open().read()), one and two
# threads, and pyassimp where it is installed (python/bench/read_bench.py). Debian's /usr/bin/python3,
# the interpreter the module is built for.
#   scripts/bench-python.sh [--runs N]     best of N runs (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-timing.sh # bench_arguments, md_head
bench_arguments "$0" "$@"
scripts/install-deps.sh python3-pyassimp # the yardstick only, never the product
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DASSBIN_BUILD_TESTS=ON -DASSBIN_BUILD_BENCHMARKS=ON >/dev/null
cmake --build build -j "$(nproc)" --target assbin_python assbin_make_shapes >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build/bin/assbin_make_shapes "$work/shapes" >/dev/null
md_head "Python: assbin.read against reading the bytes" "scripts/bench-python.sh --runs $runs"
PYTHONPATH=build/python /usr/bin/python3 python/bench/read_bench.py "$work/shapes/grid_700.assbin" --runs "$runs"
