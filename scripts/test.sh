#!/usr/bin/env bash
# Builds and runs every test suite, twice: a Release build with warnings as errors, then a build
# under AddressSanitizer + UndefinedBehaviorSanitizer. The corpus sweep and the manifest check run
# when ../shared/corpus exists (or ASSBIN_CORPUS_DIR points at a corpus).
#   scripts/test.sh            both runs (what CI does)
#   scripts/test.sh --quick    the Release run only
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
[ "${1:-}" = "--quick" ] && quick=1
corpus_option=()
[ -n "${ASSBIN_CORPUS_DIR:-}" ] && corpus_option=(-DASSBIN_CORPUS_DIR="$ASSBIN_CORPUS_DIR")
jobs=$(nproc)

scripts/install-deps.sh

run_suite() { # build-dir, then extra CMake options
    local dir=$1
    shift
    cmake -S . -B "$dir" -DASSBIN_BUILD_TESTS=ON -DASSBIN_WERROR=ON "${corpus_option[@]}" "$@" >/dev/null
    cmake --build "$dir" -j "$jobs"
    (cd "$dir" && ctest --output-on-failure -j "$jobs")
}

echo "== Release build and tests"
run_suite build -DCMAKE_BUILD_TYPE=Release -DASSBIN_BUILD_BENCHMARKS=ON
if [ "$quick" -eq 0 ]; then
    echo "== AddressSanitizer + UndefinedBehaviorSanitizer build and tests"
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        run_suite build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DASSBIN_SANITIZE=ON -DASSBIN_BUILD_BENCHMARKS=OFF
fi
