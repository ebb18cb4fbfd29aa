#!/usr/bin/env bash
# Whole-process speed and memory of the assbin verbs against the page-cache limit, as ratios to
# baselines timed in the same run (so they hold on a noisy machine): `cat` of the same bytes, and
# libdeflate's own gunzip of the same body. Public tools only: the assbin program, cat,
# libdeflate-gunzip and /usr/bin/time. The input is a generated 700x700 grid dump of 31 MB (plain
# and compressed) from the read benchmark's generator, and the same vertices in 64 meshes (for
# `info --jobs 1` against `--jobs 2`); the in-process ratios come from that benchmark
# (assbin_read_bench).
#   scripts/bench.sh              best of 9 runs each
#   scripts/bench.sh --runs 21
# The targets are issue 18's (info against cat: issue 51's 2.5x); "NO" marks one not met yet. It prints its tables as docs/benchmarks.md
# holds them (Markdown, headed by the command, the machine, the commit and the date).
set -euo pipefail
cd "$(dirname "$0")/.."

runs=9
while [ $# -gt 0 ]; do
    case $1 in
    --runs) runs=$2; shift 2 ;;
    -h | --help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown argument $1 (--help lists them)" >&2; exit 2 ;;
    esac
done

scripts/install-deps.sh libdeflate-tools time gzip
# The benchmarks live under tests/ (an install check may have configured build/ without them).
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DASSBIN_BUILD_TESTS=ON -DASSBIN_BUILD_BENCHMARKS=ON >/dev/null
cmake --build build -j "$(nproc)" --target assbin_cli assbin_read_bench >/dev/null
assbin=build/bin/assbin

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build/bin/assbin_read_bench --runs 3 --keep --json >"$work/read_bench.json" 2>"$work/kept.txt"
generated=$(sed -n 's/^kept //p' "$work/kept.txt")
mv "$generated"/bench.assbin "$work/grid.assbin"
mv "$generated"/bench.z.assbin "$work/grid.z.assbin"
mv "$generated"/many.assbin "$work/many.assbin" # the same grid's bytes in 64 meshes
rm -rf "$generated"
grid=$work/grid.assbin
# The twin differs in one float of the positions (bytes 8,192 on lie inside them), so cmp must read
# both whole and compare every value.
cp "$grid" "$work/twin.assbin"
printf '\x41' | dd of="$work/twin.assbin" bs=1 seek=8195 conv=notrunc status=none
# The compressed dump's own deflate stream (after the 512-byte header, the 4-byte prefix and the
# 2-byte zlib head, before the 4-byte Adler-32), wrapped as gzip for libdeflate's own inflate: the
# same bytes to inflate. The gzip trailer (CRC-32 and size of the body) is taken from gzip itself.
tail -c +513 "$grid" >"$work/body"
{
    printf '\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff'
    tail -c +519 "$work/grid.z.assbin" | head -c -4
    gzip -1 -c "$work/body" | tail -c 8
} >"$work/body.gz"
cmp -s <(libdeflate-gunzip -c "$work/body.gz") "$work/body" ||
    { echo "bench.sh: the rewrapped stream does not inflate to the body" >&2; exit 1; }

source scripts/bench-timing.sh # best_ms
cat_both() { cat "$1" "$2"; }
peak_kb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }

cat "$grid" >/dev/null # warm the page cache
cat "$work/twin.assbin" "$work/grid.z.assbin" "$work/body.gz" >/dev/null
"$assbin" cmp "$work/twin.assbin" "$grid" >/dev/null 2>&1 && { echo "bench.sh: the twin does not differ" >&2; exit 1; }

cat_ms=$(best_ms cat "$grid")
cat2_ms=$(best_ms cat_both "$grid" "$work/twin.assbin")
gunzip_ms=$(best_ms libdeflate-gunzip -c "$work/body.gz")
info_ms=$(best_ms "$assbin" info "$grid")
tree_ms=$(best_ms "$assbin" tree "$grid")
zinfo_ms=$(best_ms "$assbin" info "$work/grid.z.assbin")
cmp_ms=$(expect_status=1 best_ms "$assbin" cmp "$work/twin.assbin" "$grid") # 1: they differ
version_ms=$(best_ms "$assbin" --version)
many1_ms=$(best_ms "$assbin" info --jobs 1 "$work/many.assbin")
many2_ms=$(best_ms "$assbin" info --jobs 2 "$work/many.assbin")
info_kb=$(peak_kb "$assbin" info "$grid")
file_kb=$(($(stat -c %s "$grid") / 1024))

line() { # line NAME VALUE BASELINE TARGET UNIT
    awk -v n="$1" -v v="$2" -v b="$3" -v t="$4" -v u="$5" 'BEGIN {
        r = v / b; printf "| %s | %.2f %s | %.2f %s | %.2fx | <= %s | %s |\n", n, v, u, b, u, r, t, (r <= t ? "yes" : "NO") }'
}
md_head "Reading: whole processes against cat and inflate" "scripts/bench.sh --runs $runs"
echo "The 700x700 grid dump, $(awk -v b="$(stat -c %s "$grid")" 'BEGIN { printf "%.1f", b / 1e6 }') MB plain and" \
    "$(awk -v b="$(stat -c %s "$work/grid.z.assbin")" 'BEGIN { printf "%.1f", b / 1e6 }') MB compressed (assbin_read_bench" \
    "generates it), warm page cache; best of $runs runs. A process that does nothing (\`assbin --version\`)" \
    "takes ${version_ms} ms of each."
echo
md_columns "whole process" "assbin" "baseline" "ratio" "target" "met"
line "\`assbin info GRID\` / \`cat GRID\`" "$info_ms" "$cat_ms" 2.5 ms
line "\`assbin tree GRID\` / \`cat GRID\`" "$tree_ms" "$cat_ms" 2 ms
line "\`assbin info GRID.z\` / libdeflate-gunzip of its stream" "$zinfo_ms" "$gunzip_ms" 1.2 ms
line "\`assbin cmp TWIN GRID\` (one float differs) / \`cat\` of both" "$cmp_ms" "$cat2_ms" 4 ms
line "peak memory of \`assbin info GRID\` / file size" "$((info_kb / 1024))" "$((file_kb / 1024))" 1.2 MB
awk -v a="$many1_ms" -v b="$many2_ms" 'BEGIN {
    printf "| `assbin info MANY` (the grid in 64 meshes), `--jobs 2` / `--jobs 1` | %.2f ms | %.2f ms | %.2fx faster | | |\n", b, a, a / b }'

md_head "Reading: in process against memcpy and inflate" "scripts/bench.sh --runs $runs (build/bin/assbin_read_bench)"
echo "\`read_scene\` of the same grid beside baselines timed in the same run, each the best of 3 runs and"
echo "0.3 s: memory reused, and fresh pages (each costs the kernel a fault and a zero-fill)."
echo
md_columns "in process" "value" "target" "met"
/usr/bin/python3 - "$work/read_bench.json" <<'PYTHON'
import json, sys
report = json.load(open(sys.argv[1]))
for key, ratio in report["ratios"].items():
    sign = ">=" if ratio["at_least"] else "<="
    print(f"| {ratio['label']} | {ratio['value']:.2f}x | {sign} {ratio['target']:.2f} | {'yes' if ratio['ok'] else 'NO'} |")
PYTHON
