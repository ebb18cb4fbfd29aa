#!/usr/bin/env bash
# Source coverage of the reader and the converter reached by the fuzz corpora (llvm-cov): builds the
# fuzz targets instrumented for coverage (no sanitizers), replays every input of each target's corpus
# and of fuzz/regressions/ once, and reports line coverage per file, for the reader (read_*.cpp and
# the byte, chunk and inflate layers under it), the converter and the AEM library, with every line
# never reached written to DIR/unreached.txt.
#   scripts/fuzz-coverage.sh                                  corpora of scripts/fuzz.sh (build-fuzz/corpus)
#   scripts/fuzz-coverage.sh --corpus-dir DIR --require-reader 90 --require-converter 70
# Options: --corpus-dir DIR (default build-fuzz/corpus), --build-dir DIR (default build-fuzz-coverage),
#          --require-reader PERCENT, --require-converter PERCENT (exit 1 when that part's line coverage
#          is below it).
set -euo pipefail
cd "$(dirname "$0")/.."

corpus_dir=build-fuzz/corpus
build_dir=build-fuzz-coverage
require_reader=
require_converter=
while [ $# -gt 0 ]; do
    case $1 in
    --corpus-dir) corpus_dir=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    --require-reader) require_reader=$2; shift 2 ;;
    --require-converter) require_converter=$2; shift 2 ;;
    -h | --help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "fuzz-coverage.sh: unknown argument $1 (--help lists them)" >&2; exit 2 ;;
    esac
done
[ -d "$corpus_dir" ] || { echo "fuzz-coverage.sh: no corpus folder $corpus_dir (run scripts/fuzz.sh first)" >&2; exit 2; }

scripts/install-deps.sh clang libclang-rt-14-dev llvm

echo "== Building the fuzz targets for coverage in $build_dir"
# Unoptimised: coverage counts lines, not speed, and the build is most of this step's time.
CC=clang CXX=clang++ cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DASSBIN_BUILD_FUZZERS=ON \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O0 -DNDEBUG" \
    -DASSBIN_FUZZ_COVERAGE=ON -DASSBIN_BUILD_TESTS=OFF -DASSBIN_BUILD_BENCHMARKS=OFF -DASSBIN_WERROR=ON >/dev/null
cmake --build "$build_dir" -j "$(nproc)" --target fuzzers

profiles="$build_dir/profiles"
rm -rf "$profiles"
mkdir -p "$profiles"
objects=()
inputs_replayed=0
for binary in "$build_dir"/fuzz/fuzz_*; do
    target=$(basename "$binary")
    folders=()
    [ -d "$corpus_dir/$target" ] && folders+=("$corpus_dir/$target")
    [ -d "fuzz/regressions/$target" ] && folders+=("fuzz/regressions/$target")
    [ ${#folders[@]} -gt 0 ] || continue
    count=$(find "${folders[@]}" -type f | wc -l)
    inputs_replayed=$((inputs_replayed + count))
    echo "   $target: $count inputs"
    # -runs=0 executes every input of the folders once and stops; -max_len as in scripts/fuzz.sh.
    LLVM_PROFILE_FILE="$profiles/$target-%p.profraw" "$binary" -runs=0 -max_len=200000 "${folders[@]}" \
        >"$profiles/$target.log" 2>&1 || { echo "fuzz-coverage.sh: $target failed, see $profiles/$target.log" >&2; exit 1; }
    objects+=(-object "$binary")
done
llvm-profdata merge -sparse "$profiles"/*.profraw -o "$build_dir/fuzz.profdata"

# The first -object is the main binary for llvm-cov; the rest follow it.
# "N functions have mismatched data": the fuzz targets' own helpers, compiled once per target with
# other definitions (FUZZ_VARIANT); the library sources reported here are the same object code in all.
report() { # report FILE... -> llvm-cov's per-file table of those sources
    llvm-cov report "${objects[@]:1}" -instr-profile="$build_dir/fuzz.profdata" "$@" 2> >(grep -v "mismatched data" >&2)
}
reader_files=(assbin/src/read_*.cpp assbin/src/byte_reader.cpp assbin/src/chunk_walker.cpp
              assbin/src/inflate.cpp assbin/src/layout.cpp)
converter_files=(converter/src/*/*.cpp) # pipeline/, geometry/, skeleton/, materials/
aem_files=(aem/src/*.cpp)
total_line() { # TOTAL row -> "covered/lines percent"
    awk '$1 == "TOTAL" { lines = $8; missed = $9; printf "%d/%d lines, %.1f%%", lines - missed, lines, 100 * (lines - missed) / lines }'
}

echo "== Line coverage from $inputs_replayed inputs (corpora in $corpus_dir)"
report "${reader_files[@]}" | tee "$build_dir/reader.txt"
echo
report "${converter_files[@]}" | tee "$build_dir/converter.txt" | tail -1
report "${aem_files[@]}" | tee "$build_dir/aem.txt" | tail -1

# Lines with a count of 0, as FILE:LINE: source, for the reader, converter and AEM library.
llvm-cov show "${objects[@]:1}" -instr-profile="$build_dir/fuzz.profdata" -format=text \
    "${reader_files[@]}" "${converter_files[@]}" "${aem_files[@]}" 2> >(grep -v "mismatched data" >&2) |
    awk -v root="$PWD/" '/^\/.*:$/ { file = substr($0, 1, length($0) - 1)
                                     if (index(file, root) == 1) file = substr(file, length(root) + 1); next }
         match($0, /^ *[0-9]+\| *0\|/) { split($0, part, "|"); gsub(/ /, "", part[1]); print file ":" part[1] ":" part[3] }' \
    >"$build_dir/unreached.txt"

reader=$(total_line <"$build_dir/reader.txt")
echo
echo "reader:    $reader"
echo "converter: $(total_line <"$build_dir/converter.txt")"
echo "aem:       $(total_line <"$build_dir/aem.txt")"
echo "lines never reached: $(wc -l <"$build_dir/unreached.txt") (listed in $build_dir/unreached.txt)"
# require PART REPORT PERCENT: exit 1 (after both checks) when PART's line coverage is below PERCENT.
below=0
require() {
    local percent
    percent=$(awk '$1 == "TOTAL" { printf "%.1f", 100 * ($8 - $9) / $8 }' "$2")
    if awk -v p="$percent" -v r="$3" 'BEGIN { exit !(p < r) }'; then
        echo "fuzz-coverage.sh: the $1's line coverage $percent% is below $3%" >&2
        below=1
    fi
}
[ -z "$require_reader" ] || require reader "$build_dir/reader.txt" "$require_reader"
[ -z "$require_converter" ] || require converter "$build_dir/converter.txt" "$require_converter"
exit "$below"
