#!/usr/bin/env bash
# The corpus figures the README quotes, measured with the assbin program (build/bin/assbin):
#   - the largest inflate ratio of the corpus's compressed dumps (inflated body / compressed stream),
#     over every ASSBIN file of the corpus (ReadLimits::max_inflate_ratio's default sits above it);
#   - `cmp --by-value --relative 1e-6` on every single-precision dump of assimp-5.2.5/ that has a
#     double-precision twin written by the library writer (assimp-5.2.5-double/*.drv.full.assbin):
#     how many pairs are the same with and without --by-value.
#   scripts/corpus-figures.sh [--corpus DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

corpus=${ASSBIN_CORPUS_DIR:-../shared/corpus}
while [ $# -gt 0 ]; do
    case $1 in
    --corpus) corpus=$2; shift 2 ;;
    -h | --help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "corpus-figures.sh: unknown argument $1 (--help lists them)" >&2; exit 2 ;;
    esac
done
[ -d "$corpus" ] || { echo "corpus-figures.sh: no corpus at $corpus" >&2; exit 2; }
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target assbin_cli >/dev/null
assbin=build/bin/assbin

# field NAME JSON: the number after "NAME": in assbin's --json output.
field() { grep -o "\"$1\": *[0-9]*" <<<"$2" | head -1 | grep -o '[0-9]*$'; }

files=0 compressed=0 best_ratio=0 best_file=""
while IFS= read -r -d '' file; do
    json=$("$assbin" info --json "$file" 2>/dev/null) || continue # not a dump, or an expected failure
    files=$((files + 1))
    [ "$(field compressed "$json")" = 1 ] || continue
    compressed=$((compressed + 1))
    # The stream: the file less the 512-byte header and the 4-byte prefix.
    ratio=$(awk -v body="$(field body_bytes "$json")" -v file="$(field file_bytes "$json")" \
        'BEGIN { printf "%.1f", body / (file - 516) }')
    if awk -v a="$ratio" -v b="$best_ratio" 'BEGIN { exit !(a > b) }'; then
        best_ratio=$ratio
        best_file=$file
    fi
done < <(find "$corpus" -type f ! -name '*.tsv' ! -name '*.md' -print0) # dumps are told by their bytes
echo "inflate ratio: largest ${best_ratio}:1 of $compressed compressed dumps among $files dumps read ($best_file)"

pairs=0 same_by_value=0 same_plain=0
while IFS=$'\t' read -r path source _ variant _; do
    [ "$variant" = full ] || continue
    twin=$corpus/assimp-5.2.5-double/$(sed 's|^test/||; s|/|_|g' <<<"$source").drv.full.assbin
    [ -f "$twin" ] || continue
    pairs=$((pairs + 1))
    single=$corpus/assimp-5.2.5/$path
    # A tolerance for the double-precision writer's wider key times and products (cmp is exact by
    # default); the same one both ways, so that the figure tells what --by-value adds.
    if "$assbin" cmp "$single" "$twin" --relative 1e-6 >/dev/null 2>&1; then same_plain=$((same_plain + 1)); fi
    if "$assbin" cmp "$single" "$twin" --relative 1e-6 --by-value >/dev/null 2>&1; then
        same_by_value=$((same_by_value + 1))
    fi
done < <(tail -n +2 "$corpus/assimp-5.2.5/MANIFEST.tsv")
echo "single vs double precision: $pairs pairs; the same with --by-value: $same_by_value, without: $same_plain"
