#!/usr/bin/env bash
# Builds and runs every test suite, twice: a Release build with warnings as errors, then a build
# under AddressSanitizer + UndefinedBehaviorSanitizer; then the Python module's threads under
# ThreadSanitizer (build-tsan); then runs every libFuzzer target for
# ASSBIN_FUZZ_SECONDS (default 60) each and reports the reader's and converter's line coverage from
# the corpora that grew (scripts/fuzz-coverage.sh; fails below 90% for the reader, 70% for the converter). The corpus sweep and the manifest check run when
# ../shared/corpus exists (or ASSBIN_CORPUS_DIR points at a corpus). After the Release tests,
# scripts/check-install.sh installs that build and uses it as a C++ user would (and the .deb packages).
#   scripts/test.sh            all of it (what CI does)
#   scripts/test.sh --quick    the Release run only (its install check: static only)
# A check this machine cannot run (no root, no corpus, no Chromium, no Node) is reported skipped with
# its reason, and listed after each test run; under CI=true such a skip is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
[ "${1:-}" = "--quick" ] && quick=1
corpus_option=()
[ -n "${ASSBIN_CORPUS_DIR:-}" ] && corpus_option=(-DASSBIN_CORPUS_DIR="$ASSBIN_CORPUS_DIR")
jobs=$(nproc)

# Each step's start is printed, and at the end how long each took: CI must finish within its budget
# (90 minutes on a fresh 2-core machine), and this says where the time goes.
step_names=()
step_starts=()
step() {
    step_names+=("$1")
    step_starts+=("$SECONDS")
    echo "== $1 (at $((SECONDS / 60)) min $((SECONDS % 60)) s)"
}
print_step_times() {
    local k end
    echo "== Time per step (total $((SECONDS / 60)) min $((SECONDS % 60)) s):"
    for k in "${!step_names[@]}"; do
        end=${step_starts[$((k + 1))]:-$SECONDS}
        printf '  %4d s  %s\n' "$((end - step_starts[k]))" "${step_names[$k]}"
    done
}

step "Packages (apt-get, npm)"
# chromium: the cmp --html report is opened in a real browser; nodejs and npm: the original MikkTSpace
# (npm package `mikktspace`, WebAssembly, pinned in tests/tangents/package-lock.json) is the
# reference the converter's tangents are checked against.
scripts/install-deps.sh chromium
command -v npm >/dev/null || scripts/install-deps.sh nodejs npm # a Node from elsewhere brings its own npm
(cd tests/tangents && npm ci --no-audit --no-fund --loglevel=error)
# Khronos's glTF-Validator (npm package `gltf-validator`, pinned in tests/gltf/package-lock.json): every
# glTF file the converter writes must pass it with no error and no warning.
(cd tests/gltf && npm ci --no-audit --no-fund --loglevel=error)

run_suite() { # build-dir, then extra CMake options
    local dir=$1
    shift
    cmake -S . -B "$dir" -DASSBIN_BUILD_TESTS=ON -DASSBIN_WERROR=ON "${corpus_option[@]}" "$@" >/dev/null
    local started=$SECONDS
    cmake --build "$dir" -j "$jobs"
    echo "== $dir built in $((SECONDS - started)) s"
    (cd "$dir" && ctest --output-on-failure -j "$jobs")
    # What could not run here, and why (each such check prints "SKIPPED: why"; under CI=true a
    # skip fails its test instead: CI is set up to run everything).
    local skipped
    skipped=$(grep -h "^SKIPPED: " "$dir/Testing/Temporary/LastTest.log" 2>/dev/null | sort -u || true)
    if [ -n "$skipped" ]; then
        echo "== Skipped checks in $dir ($(echo "$skipped" | wc -l)):"
        echo "$skipped"
    fi
}

step "Release build and tests"
run_suite build -DCMAKE_BUILD_TYPE=Release -DASSBIN_BUILD_BENCHMARKS=ON
step "Install: prefix, consumer project, shared libraries, Debian packages (scripts/check-install.sh)"
install_checks=(--build-dir build)
[ "$quick" -eq 1 ] && install_checks+=(--static-only)
scripts/check-install.sh "${install_checks[@]}"
if [ "$quick" -eq 0 ]; then
    step "AddressSanitizer + UndefinedBehaviorSanitizer build and tests"
    # -O1 with line tables only (-g1): the sanitizers' reports still name each frame's file and line,
    # and the build takes about half as long as at -O2 -g (a converter test file: 55 -> 28 s), the
    # largest step of a CI run (34 of its 75 minutes at -O2 -g).
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        run_suite build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
        -DASSBIN_SANITIZE=ON -DASSBIN_BUILD_BENCHMARKS=OFF
    step "ThreadSanitizer: the Python module on many threads (build-tsan, the module alone)"
    # Only the module and the libraries it links are built (-O1, line tables); the interpreter is not
    # instrumented, so the test preloads the TSan runtime (python/CMakeLists.txt, python_threads_tsan).
    cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
        -DASSBIN_TSAN=ON -DASSBIN_BUILD_TESTS=OFF -DASSBIN_BUILD_BENCHMARKS=OFF -DASSBIN_WERROR=ON \
        "${corpus_option[@]}" >/dev/null
    cmake --build build-tsan -j "$jobs" --target assbin_python
    (cd build-tsan && ctest -R python_threads_tsan --output-on-failure)
    step "Fuzzing every target for ${ASSBIN_FUZZ_SECONDS:-60} s (clang, libFuzzer, ASan + UBSan)"
    scripts/fuzz.sh --seconds "${ASSBIN_FUZZ_SECONDS:-60}"
    step "Coverage of the reader and converter from the fuzz corpora (llvm-cov; the reader must reach 90%, the converter 70%)"
    scripts/fuzz-coverage.sh --require-reader 90 --require-converter 70
fi
print_step_times
