#!/usr/bin/env bash
# The shapes built to break each stage's bound (assbin_make_shapes' families.tsv: a book of pages on
# one hinge edge, one triangle repeated, zero-area triangles, a long strip, a huge polygon, a vertex
# of huge valence, deep and wide node trees, vertices of 200 weights, an animation of a million keys),
# each converted at two sizes 10x apart: the time per element (the best whole-process time less that
# of converting one triangle, the fixed cost of a process) must stay within 1.5x from the small size
# to the large one. And the book of 100,000 pages against Assimp importing it with the same
# post-processing (tests/bench/assimp_import.cpp, built where libassimp-dev is installed) and against
# the discs' time per triangle. Run alone, or by scripts/bench-convert.sh (which passes its build and
# folders).
#   scripts/bench-shapes.sh [--runs N]     best of N rounds (default 3), small and large in turn
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/bench-timing.sh # best_ms_each, bench_arguments, md_head
if [ -z "${ASSBIN_SHAPES_DIR:-}" ]; then
    bench_arguments "$0" "$@"
    scripts/install-deps.sh libassimp-dev
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DASSBIN_BUILD_TESTS=ON -DASSBIN_BUILD_BENCHMARKS=ON >/dev/null
    cmake --build build -j "$(nproc)" --target assbin_cli assbin_make_shapes assbin_assimp_import >/dev/null
    shapes_work=$(mktemp -d)
    trap 'rm -rf "$shapes_work"' EXIT
    build/bin/assbin_make_shapes "$shapes_work/shapes" >/dev/null
    ASSBIN_SHAPES_DIR=$shapes_work/shapes
    shapes_out=$shapes_work/out
else
    shapes_out=$(mktemp -d)
    trap 'rm -rf "$shapes_out"' EXIT
fi
assbin=build/bin/assbin
assimp=build/bin/assbin_assimp_import
shapes_dir=$ASSBIN_SHAPES_DIR
one_triangle=tests/data/assimp-5.2.5/SMD__triangle.smd.assbin

shape_row() { md_row "$@"; }
md_head "Converting to AEM: the shapes that break each stage's bound" "scripts/bench-shapes.sh --runs $runs"
echo "Each family of \`build/bin/assbin_make_shapes\` converted at two sizes 10x apart, \`--jobs 1\`, written"
echo "with \`-o\`; time per element: the best whole-process time (of $runs, in turn) less that of a process"
echo "converting one triangle, divided by the elements. Target: the large size's at most 1.5x the small's."
echo
md_columns family element small large "small ns/element" "large ns/element" growth "target <= 1.5x"

# Converts one file of the family (the options column's words split on purpose).
convert_file() {
    local file=$1 options=$2
    # shellcheck disable=SC2086
    "$assbin" convert "$shapes_dir/$file" -o "$shapes_out/out.aem" --quiet --jobs 1 $options
}
convert_baseline() { "$assbin" convert "$one_triangle" -o "$shapes_out/out.aem" --quiet --jobs 1; }

failed=0
while IFS=$'\t' read -r family size file elements element options; do
    [ "$family" = family ] && continue
    if [ "$size" = small ]; then
        small_file=$file small_elements=$elements small_options=$options
        continue
    fi
    convert_small() { convert_file "$small_file" "$small_options"; }
    convert_large() { convert_file "$file" "$options"; }
    read -r base small_ms large_ms <<<"$(best_ms_each convert_baseline convert_small convert_large)"
    per_small=$(awk -v ms="$small_ms" -v b="$base" -v n="$small_elements" 'BEGIN { v = (ms - b) * 1e6 / n; printf "%.1f", (v > 0 ? v : 0) }')
    per_large=$(awk -v ms="$large_ms" -v b="$base" -v n="$elements" 'BEGIN { v = (ms - b) * 1e6 / n; printf "%.1f", (v > 0 ? v : 0) }')
    growth=$(awk -v s="$per_small" -v l="$per_large" 'BEGIN { printf "%.2f", (s > 0 ? l / s : 0) }')
    ok=$(awk -v g="$growth" 'BEGIN { print (g <= 1.5) ? "yes" : "NO" }')
    [ "$ok" = yes ] || failed=$((failed + 1))
    shape_row "$family" "$element" "$small_ms ms" "$large_ms ms" "$per_small" "$per_large" "${growth}x" "$ok"
    if [ "$family" = book ]; then book_ms=$large_ms book_per=$per_large book_file=$file; fi
    if [ "$family" = valence ]; then disc_small_per=$per_small disc_large_per=$per_large; fi
done <"$shapes_dir/families.tsv"
echo
echo "One process converting one triangle, subtracted from each: $base ms."

# The book against Assimp and against the discs.
echo
echo "The book of 100,000 pages on one hinge edge against Assimp 5.2.5 importing it with the 2024 AEM"
echo "exporter's post-processing (\`build/bin/assbin_assimp_import\`), and against the discs' time per triangle:"
echo
md_columns "" "assbin" "yardstick" "target" "met"
if [ -x "$assimp" ]; then
    import_book() { "$assimp" "$shapes_dir/$book_file"; }
    convert_book() { convert_file "$book_file" ""; }
    read -r ours theirs <<<"$(best_ms_each convert_book import_book)"
    verdict=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { print (a <= b) ? "yes" : "NO" }')
    [ "$verdict" = yes ] || failed=$((failed + 1))
    md_row "book_large, whole process" "$ours ms" "Assimp's import: $theirs ms" "at most Assimp's time" "$verdict"
else
    md_row "book_large, whole process" "" "SKIPPED: assbin_assimp_import not built (no libassimp-dev)" "" ""
fi
within=$(awk -v b="$book_per" -v s="$disc_small_per" -v l="$disc_large_per" \
    'BEGIN { ok = b >= 0.5 * s && b <= 1.5 * s && b >= 0.5 * l && b <= 1.5 * l; print ok ? "yes" : "NO" }')
[ "$within" = yes ] || failed=$((failed + 1))
md_row "book_large, ns per triangle" "$book_per" "discs of 30k / 300k: $disc_small_per / $disc_large_per" "within +-50% of both" "$within"
echo
echo "Shape targets missed: $failed."
