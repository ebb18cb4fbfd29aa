#!/usr/bin/env bash
# The program's memory allocator, in one run, on the inputs where it matters: what the program does
# (glibc, with its blocks of 4 MiB and more advised onto transparent huge pages: tools/huge_page_new.cpp,
# the default), glibc alone (ASSBIN_HUGE_PAGES=0), glibc with its tunables instead (huge pages for
# the heap, a trim threshold of 64 MiB) and mimalloc (Debian's libmimalloc2.0, LD_PRELOAD, with and
# without its large OS pages). Whole processes: wall time (best of N, the allocators taking turns
# round by round) and peak resident memory (/usr/bin/time), on the 31 MB grid converted with one and
# two threads, the 3M-triangle disc, 64 grids stacked, `info` of the grid, and the corpus's
# game-ready set (163 files; skipped, loudly, without a corpus).
#   scripts/bench-allocators.sh [--runs N] [--corpus DIR]     best of N rounds (default 3)
# The last column names the fastest and says how far the program's own choice is from it: a library
# that beats it by 10% of wall time at an equal or lower peak should replace it (issue 51's rule,
# which retired the program's hand-written pool of large blocks).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/bench-timing.sh # bench_arguments, game_ready_set, md_head, md_row, md_columns
bench_arguments "$0" "$@"
scripts/install-deps.sh time libmimalloc2.0 # the yardstick only, never linked into the product
mimalloc=$(ls /usr/lib/*/libmimalloc.so.2* 2>/dev/null | head -1)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DASSBIN_BUILD_TESTS=ON -DASSBIN_BUILD_BENCHMARKS=ON >/dev/null
cmake --build build -j "$(nproc)" --target assbin_cli assbin_make_shapes >/dev/null
assbin=$(realpath build/bin/assbin)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build/bin/assbin_make_shapes "$work/shapes" >/dev/null
shapes=$work/shapes

# The allocators, as environments for the same program.
names=(program glibc glibc-tunables mimalloc mimalloc-large-pages)
environment() {
    case $1 in
    program) echo "" ;;
    glibc) echo "ASSBIN_HUGE_PAGES=0" ;;
    glibc-tunables) echo "ASSBIN_HUGE_PAGES=0 GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.trim_threshold=67108864" ;;
    mimalloc) echo "ASSBIN_HUGE_PAGES=0 LD_PRELOAD=$mimalloc" ;;
    mimalloc-large-pages) echo "ASSBIN_HUGE_PAGES=0 LD_PRELOAD=$mimalloc MIMALLOC_LARGE_OS_PAGES=1" ;;
    esac
}

# measure NAME COMMAND...: "wall_ms peak_mb" of one run of the command under allocator NAME.
measure() {
    local name=$1 start end peak
    shift
    rm -rf "$work/out" && mkdir -p "$work/out"
    start=$(date +%s%N)
    peak=$(env $(environment "$name") /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1)
    end=$(date +%s%N)
    echo "$(((end - start) / 1000000)) $((peak / 1024))"
}

# row LABEL COMMAND...: every allocator, round by round; the best wall and the peak of each.
row() {
    local label=$1 name result wall peak
    shift
    declare -A best_wall=() best_peak=()
    for _ in $(seq "$runs"); do
        for name in "${names[@]}"; do
            [ -n "$mimalloc" ] || [[ $name != mimalloc* ]] || continue
            result=$(measure "$name" "$@")
            wall=${result% *}
            peak=${result#* }
            if [ -z "${best_wall[$name]:-}" ] || [ "$wall" -lt "${best_wall[$name]}" ]; then best_wall[$name]=$wall; fi
            if [ -z "${best_peak[$name]:-}" ] || [ "$peak" -gt "${best_peak[$name]}" ]; then best_peak[$name]=$peak; fi
        done
    done
    local cells=("$label") library_best="" library_name=""
    for name in "${names[@]}"; do
        if [ -z "${best_wall[$name]:-}" ]; then cells+=("not installed"); continue; fi
        cells+=("${best_wall[$name]} ms, ${best_peak[$name]} MB")
        [ "$name" = program ] && continue
        if [ -z "$library_best" ] || [ "${best_wall[$name]}" -lt "$library_best" ]; then
            library_best=${best_wall[$name]}
            library_name=$name
        fi
    done
    local program_wall=${best_wall[program]} program_peak=${best_peak[program]} verdict
    verdict=$(awk -v p="$program_wall" -v l="$library_best" -v pp="$program_peak" -v lp="${best_peak[$library_name]}" \
        -v n="$library_name" 'BEGIN {
            gain = (l - p) / l * 100
            if (gain >= 0) printf "program (%.0f%% faster than %s)", gain, n
            else printf "%s (%.0f%% faster than the program%s)", n, -gain, (lp > pp ? ", at a higher peak" : "") }')
    cells+=("$verdict")
    md_row "${cells[@]}"
}

md_head "The program's allocator: glibc with huge-page advice against glibc and mimalloc" \
    "scripts/bench-allocators.sh --runs $runs"
md_columns "input" "${names[@]}" "fastest (a library 10% ahead at no higher peak should replace the program's)"
row "convert the 31 MB grid, 1 thread" "$assbin" convert "$shapes/grid_700.assbin" -o "$work/out/grid.aem" --jobs 1 --quiet
row "convert the 31 MB grid, 2 threads" "$assbin" convert "$shapes/grid_700.assbin" -o "$work/out/grid.aem" --jobs 2 --quiet
row "convert the 3M-triangle disc" "$assbin" convert "$shapes/disc_3m.assbin" -o "$work/out/disc.aem" --quiet
row "convert 64 grids stacked" "$assbin" convert "$shapes/stack_64.assbin" -o "$work/out/stack.aem" --quiet
row "info of the 31 MB grid" "$assbin" info "$shapes/grid_700.assbin"
if [ -f "$corpus/assimp-5.2.5/MANIFEST.tsv" ]; then
    game_ready_set "$work/set"
    row "convert the 163-file set, --jobs 1" "$assbin" convert "$work/set" --out-dir "$work/out" --jobs 1 --quiet
else
    echo
    echo "SKIPPED: the 163-file set (no corpus at $corpus; --corpus DIR)" >&2
fi
