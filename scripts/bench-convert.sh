#!/usr/bin/env bash
# Whole-process speed and memory of `assbin convert` against the program it replaces: Assimp 5.2.5
# importing the same dumps with the 2024 AEM exporter's post-processing (realtime-quality preset +
# OptimizeGraph + OptimizeMeshes + PopulateArmatureData; tests/bench/assimp_import.cpp, built only
# here, never into the product), timed side by side in one run, with `cat` of the same bytes as the
# floor. Inputs:
#   - the game-ready set: every full dump of at least 20 KiB with faces in the corpus's
#     assimp-5.2.5/ (MANIFEST.tsv: 163 files), in one process, --jobs 1 and --jobs 2, the memory a
#     --jobs 1 run faults in against its peak, and the machine's CPU time both take: how many cores
#     --jobs 1 keeps busy, the most --jobs 2 could gain on two cores with the CPU it takes, the same
#     two written to memory (tmpfs) instead of disk, and that CPU against what the two set targets
#     together allow (skipped, loudly, without a corpus);
#   - generated (assbin_make_shapes): the 31 MB grid (one big mesh: 1 vs 2 threads, peak memory
#     against the AEM written, memory faulted in against the peak), discs of 30k/300k/3M triangles
#     around one vertex and 64 grids stacked at one spot (time per triangle must stay flat; the 3M
#     disc's memory faulted in), a 65,535-corner polygon; and the family of shapes built to break
#     each stage's bound, at two sizes 10x apart (scripts/bench-shapes.sh: time per element);
#   - glTF out: the set to .glb against its AEM conversion and Assimp's exporter (scripts/bench-gltf.sh).
# First, what fresh memory costs on this machine (assbin_fresh_memory_bench: first writes with 4 KiB
# and 2 MiB pages against memset): a big convert's arrays are mostly fresh pages, and on a VM whose
# host takes back idle memory a huge page can cost ten times more after a pause than just freed, so
# the same program's times move with what ran just before it.
#   scripts/bench-convert.sh [--runs N] [--corpus DIR]     best of N runs (default 3)
# The commands a ratio compares (--jobs 1, --jobs 2 and Assimp on the same input) run in turn, round
# by round (best_ms_each), so that a machine whose speed drifts does not favour the one run first.
# The targets are issue 26's; "NO" marks one not met, judged by the ratio of the best times; beside
# each verdict, the median of the same ratio taken round by round (on a machine whose speed jumps,
# a best can be one run's lucky moment). It prints its tables as docs/benchmarks.md holds them.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/bench-timing.sh # best_ms, bench_arguments, md_head
bench_arguments "$0" "$@"

scripts/install-deps.sh libassimp-dev time
# The benchmarks live under tests/ (an install check may have configured build/ without them).
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DASSBIN_BUILD_TESTS=ON -DASSBIN_BUILD_BENCHMARKS=ON >/dev/null
cmake --build build -j "$(nproc)" --target assbin_cli assbin_make_shapes assbin_assimp_import \
    assbin_fresh_memory_bench >/dev/null
assbin=build/bin/assbin
assimp=build/bin/assbin_assimp_import

work=$(mktemp -d)
trap 'rm -rf "$work" "/dev/shm/assbin-bench-$$"' EXIT
rounds_file=$work/rounds # every round's times, for the ratios' medians (bench-timing.sh)
build/bin/assbin_make_shapes "$work/shapes" >/dev/null

# Every run writes everything into an empty folder: the previous run's output folder is moved aside
# (untimed), and all of them are removed when the script ends. Not deleted between runs: on ext4
# without a journal (this VM's disk), every file created after thousands were deleted makes the
# kernel scan past the recently freed inodes (recently_deleted, 20% of a corpus run's profile), a
# cost of the benchmark's own clean-up, not of converting.
set_aside=0
before_each_run() {
    if [ -e "$work/out" ]; then
        set_aside=$((set_aside + 1))
        mv "$work/out" "$work/out.$BASHPID.$set_aside"
    fi
}
# Peak resident memory and memory faulted in, both in MB: every fresh page is zeroed by the kernel,
# at several microseconds a page on this VM. A minor fault brings in one page, or one transparent
# huge page (2 MiB) where the program asked for them: those are counted from the kernel's
# thp_fault_alloc (system-wide; the machine is otherwise idle while benchmarking), the other
# faults at the page size.
thp_faults() { awk '$1 == "thp_fault_alloc" { print $2; found = 1 } END { if (!found) print 0 }' /proc/vmstat; }
peak_and_faulted_mb() {
    before_each_run
    local huge_before huge_after measured
    huge_before=$(thp_faults)
    measured=$(/usr/bin/time -f "%M %R" "$@" 2>&1 >/dev/null | tail -1)
    huge_after=$(thp_faults)
    awk -v page="$(getconf PAGESIZE)" -v huge=$((huge_after - huge_before)) -v measured="$measured" 'BEGIN {
        split(measured, m, " ")
        small = m[2] > huge ? m[2] - huge : 0
        printf "%.0f %.0f\n", m[1] / 1024, (small * page + huge * 2097152) / 1048576 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# rounds_median A B [SUFFIX]: " (rounds' median R)", the median of A/B round by round
# (round_ratio_median), for the target column beside the verdict, which the ratio of bests decides.
rounds_median() { printf " (rounds' median %s%s)" "$(round_ratio_median "$1" "$2")" "${3:-}"; }
verdict() { awk -v value="$1" -v op="$2" -v target="$3" \
    'BEGIN { ok = (op == "<=") ? value <= target : value >= target; printf "%s", ok ? "yes" : "NO" }'; }
convert_ms() { best_ms "$assbin" convert "$@" --out-dir "$work/out" --quiet; }
# one_two_assimp_ms INPUT ASSIMP_INPUT...: the best times (ms) of converting INPUT with one job and
# with two, and of Assimp importing ASSIMP_INPUT... (left out when its importer is not built), run in
# turn round by round (best_ms_each). The functions it times read its locals (bash's dynamic scope).
one_two_assimp_ms() {
    local input=$1
    shift
    local assimp_inputs=("$@")
    convert_one() { "$assbin" convert "$input" --out-dir "$work/out" --quiet --jobs 1; }
    convert_two() { "$assbin" convert "$input" --out-dir "$work/out" --quiet --jobs 2; }
    import_assimp() { "$assimp" "${assimp_inputs[@]}"; }
    if [ -x "$assimp" ]; then
        best_ms_each convert_one convert_two import_assimp
    else
        best_ms_each convert_one convert_two
    fi
}

# The machine's busy CPU time so far, in ms (all processes, kernel threads included: the flusher
# threads that write a convert's files to disk work for it; the machine is otherwise idle): user,
# nice, system, irq and softirq, not idle, iowait or the time the hypervisor gave others (steal).
machine_busy_ms() {
    awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { printf "%.0f", ($2 + $3 + $4 + $7 + $8) * 1000 / hz }' /proc/stat
}
# set_cpu_medians OUT: "wall1 cpu1 wall2 cpu2", the medians in ms over $runs rounds (--jobs 1, then
# --jobs 2, in each) of converting the set into OUT (a folder's name, emptied before each run): the
# wall time, and the machine's busy CPU time while it ran (machine_busy_ms).
set_cpu_medians() {
    local out=$1 round jobs start end busy_start busy_end
    : >"$work/cpu_rounds"
    for round in $(seq "$runs"); do
        for jobs in 1 2; do
            if [ "$out" = "$work/out" ]; then before_each_run; else rm -rf "$out"; fi
            busy_start=$(machine_busy_ms)
            start=$(date +%s%N)
            if ! "$assbin" convert "$set_dir" --out-dir "$out" --quiet --jobs "$jobs"; then
                echo "benchmark: converting the set into $out with --jobs $jobs failed; run it by hand to see why" >&2
                return 1
            fi
            end=$(date +%s%N)
            busy_end=$(machine_busy_ms)
            echo "$jobs $(((end - start) / 1000000)) $((busy_end - busy_start))" >>"$work/cpu_rounds"
        done
    done
    awk 'function median(list, count,    i, j, v) {
            for (i = 2; i <= count; ++i) { v = list[i]; for (j = i - 1; j >= 1 && list[j] > v; --j) list[j + 1] = list[j]; list[j + 1] = v }
            return (count % 2) ? list[(count + 1) / 2] : (list[count / 2] + list[count / 2 + 1]) / 2
        }
        { n[$1]++; wall[$1, n[$1]] = $2; cpu[$1, n[$1]] = $3 }
        END {
            for (jobs = 1; jobs <= 2; ++jobs) {
                for (i = 1; i <= n[jobs]; ++i) { w[i] = wall[jobs, i]; c[i] = cpu[jobs, i] }
                printf "%.0f %.0f ", median(w, n[jobs]), median(c, n[jobs])
            }
        }' "$work/cpu_rounds"
}

md_head "This machine's fresh memory" "scripts/bench-convert.sh --runs $runs (build/bin/assbin_fresh_memory_bench)"
echo "A big conversion's arrays are mostly fresh pages: first writes to 256 MiB with 4 KiB pages, and with"
echo "2 MiB pages after a 3 s pause and at once, against memset of the same memory resident."
echo
echo '```text'
build/bin/assbin_fresh_memory_bench --mib 256 --idle 3
echo '```'

md_head "Converting to AEM: whole processes against Assimp's import" "scripts/bench-convert.sh --runs $runs"
echo "\`assbin convert\` against Assimp 5.2.5 importing the same dumps with the 2024 AEM exporter's"
echo "post-processing (\`build/bin/assbin_assimp_import\`), best of $runs rounds run in turn (beside each"
echo "verdict, the median of the ratio round by round); every run writes into an empty folder on disk."
echo
md_columns "input" "assbin" "yardstick" "ratio" "target"
row() { md_row "$@"; }

# --- the game-ready corpus set, one process
set_dir=$work/set
if [ -f "$corpus/assimp-5.2.5/MANIFEST.tsv" ]; then
    game_ready_set "$set_dir"
    cat_ms=$(best_ms cat "${files[@]}")
    times=$(one_two_assimp_ms "$set_dir" "${files[@]}")
    read -r one two yard <<<"$times"
    if [ -x "$assimp" ]; then
        row "${#files[@]} corpus dumps, --jobs 1 (vs Assimp)" "$one ms" "$yard ms" "$(ratio "$one" "$yard")" \
            "<= 0.5: $(verdict "$(ratio "$one" "$yard")" "<=" 0.5)$(rounds_median convert_one import_assimp)"
    else
        row "${#files[@]} corpus dumps, --jobs 1" "$one ms" "(no Assimp)" "" "SKIPPED: assbin_assimp_import not built"
    fi
    row "the same, --jobs 2 (vs --jobs 1)" "$two ms" "$one ms" "$(ratio "$one" "$two")x" \
        ">= 1.8x: $(verdict "$(ratio "$one" "$two")" ">=" 1.8)$(rounds_median convert_one convert_two x)"
    row "the same, cat of the dumps" "$cat_ms ms" "" "" ""
    # What --jobs 2 can gain is bounded by the CPU it takes: on two cores its wall time is at least
    # half of it, so 2 x (--jobs 1's wall) / (--jobs 2's CPU) is its ceiling. --jobs 1 keeps more than
    # one core busy part of the time (its writer thread, and the kernel's flusher writing the files,
    # beside the converter), which two jobs cannot: the same runs into memory (tmpfs, no disk) show
    # what writing to disk takes from --jobs 2.
    medians=$(set_cpu_medians "$work/out") # an assignment: a failed run ends the script (set -e)
    read -r wall1 cpu1 wall2 cpu2 <<<"$medians"
    row "the same, --jobs 1: CPU (machine-wide) vs wall" "$cpu1 ms" "$wall1 ms" "$(ratio "$cpu1" "$wall1")" \
        "cores busy (medians of $runs)"
    row "the same, --jobs 2: CPU vs --jobs 1's CPU" "$cpu2 ms" "$cpu1 ms" "$(ratio "$cpu2" "$cpu1")x" \
        "$(ratio "$cpu2" "$wall2") cores busy"
    row "  --jobs 2's ceiling on 2 cores (2 x wall / CPU)" "" "" \
        "$(awk -v w="$wall1" -v c="$cpu2" 'BEGIN { printf "%.2f", 2 * w / c }')x" "the most it could gain"
    # The set's outputs take 35 MB; a container's /dev/shm can be as small as 64 MB.
    memory_out=/dev/shm/assbin-bench-$$
    shm_free_mb=$( (df --output=avail -m /dev/shm 2>/dev/null || echo 0) | tail -1 | tr -d ' ')
    if [ -d /dev/shm ] && [ -w /dev/shm ] && [ "${shm_free_mb:-0}" -ge 128 ]; then
        medians=$(set_cpu_medians "$memory_out")
        rm -rf "$memory_out"
        read -r mwall1 _ mwall2 _ <<<"$medians"
        row "  written to memory (tmpfs): --jobs 2 vs --jobs 1" "$mwall2 ms" "$mwall1 ms" \
            "$(ratio "$mwall1" "$mwall2")x" "no disk writes (medians of $runs)"
    else
        row "SKIPPED: /dev/shm is not a writable folder with 128 MB free: the set's runs written to memory are missing" "" "" "" ""
    fi
    if [ -x "$assimp" ]; then
        # Both targets at once: --jobs 2's wall <= 0.5 / 1.8 of Assimp's, and at least half its CPU.
        allowed=$(awk -v y="$yard" 'BEGIN { printf "%.0f", y * 2 * 0.5 / 1.8 }')
        row "  CPU both set targets allow (Assimp x 2 x 0.5 / 1.8)" "$cpu2 ms" "$allowed ms" \
            "$(ratio "$cpu2" "$allowed")" "<= 1 for both to be reachable"
    fi
    read -r set_peak set_faulted < <(peak_and_faulted_mb "$assbin" convert "$set_dir" --out-dir "$work/out" \
        --jobs 1 --quiet)
    row "the same, --jobs 1, memory faulted in (vs the peak)" "$set_faulted MB" "$set_peak MB" \
        "$(ratio "$set_faulted" "$set_peak")x" ""
else
    row "SKIPPED: no corpus at $corpus (set --corpus or ASSBIN_CORPUS_DIR): the 163-file rows are missing" "" "" "" ""
fi

# --- one big mesh
grid=$work/shapes/grid_700.assbin
cat "$grid" >/dev/null
times=$(one_two_assimp_ms "$grid" "$grid")
read -r g1 g2 gy <<<"$times"
grid_vs_assimp=$(rounds_median convert_one import_assimp)
grid_speedup=$(rounds_median convert_one convert_two x)
read -r peak faulted < <(peak_and_faulted_mb "$assbin" convert "$grid" --out-dir "$work/out" --jobs 1 --quiet)
aem_mb=$(awk -v b="$(stat -c %s "$work/out/grid_700.aem")" 'BEGIN { printf "%.1f", b / 1048576 }')
if [ -x "$assimp" ]; then
    row "grid 700x700 (977k triangles), --jobs 1 (vs Assimp)" "$g1 ms" "$gy ms" "$(ratio "$g1" "$gy")" \
        "<= 0.5: $(verdict "$(ratio "$g1" "$gy")" "<=" 0.5)$grid_vs_assimp"
fi
row "grid, --jobs 2 (vs --jobs 1)" "$g2 ms" "$g1 ms" "$(ratio "$g1" "$g2")x" \
    ">= 1.5x: $(verdict "$(ratio "$g1" "$g2")" ">=" 1.5)$grid_speedup"
row "grid, peak memory (vs the AEM written)" "$peak MB" "$aem_mb MB" "$(ratio "$peak" "$aem_mb")x" \
    "<= 3x: $(verdict "$(ratio "$peak" "$aem_mb")" "<=" 3)"
row "grid, memory faulted in (vs the peak)" "$faulted MB" "$peak MB" "$(ratio "$faulted" "$peak")x" ""
grid_cat=$(best_ms cat "$grid")
row "grid, cat" "$grid_cat ms" "" "" ""

# --- high valence: time per triangle must not grow with the size. The four shapes (and Assimp on the
# 300k disc) run in turn, round by round, so that the spread sets runs of one period against each
# other.
shapes=(disc_30k:30000 disc_300k:300000 disc_3m:3000000 stack_64:968832)
convert_shape() { "$assbin" convert "$work/shapes/$1.assbin" --out-dir "$work/out" --quiet --jobs 1; }
convert_disc_30k() { convert_shape disc_30k; }
convert_disc_300k() { convert_shape disc_300k; }
convert_disc_3m() { convert_shape disc_3m; }
convert_stack_64() { convert_shape stack_64; }
shape_functions=(convert_disc_30k convert_disc_300k convert_disc_3m convert_stack_64)
disc_assimp() { "$assimp" "$work/shapes/disc_300k.assbin"; }
if [ -x "$assimp" ]; then shape_functions+=(disc_assimp); fi
read -r -a shape_ms <<<"$(best_ms_each "${shape_functions[@]}")"
per_triangle=()
for k in "${!shapes[@]}"; do
    name=${shapes[$k]%%:*}
    triangles=${shapes[$k]##*:}
    ms=${shape_ms[$k]}
    yard="" cmp=""
    if [ -x "$assimp" ] && [ "$name" = disc_300k ]; then
        yard=${shape_ms[${#shapes[@]}]}
        cmp="no slower than Assimp: $(verdict "$(ratio "$ms" "$yard")" "<=" 1)$(rounds_median convert_disc_300k disc_assimp)"
        yard="$yard ms"
    fi
    ns=$(awk -v ms="$ms" -v t="$triangles" 'BEGIN { printf "%.0f", ms * 1e6 / t }')
    per_triangle+=("$ns")
    row "$name ($triangles triangles), --jobs 1: $ns ns/triangle" "$ms ms" "$yard" "" "$cmp"
done
read -r disc_peak disc_faulted < <(peak_and_faulted_mb "$assbin" convert "$work/shapes/disc_3m.assbin" \
    --out-dir "$work/out" --jobs 1 --quiet)
row "disc_3m, memory faulted in (vs the peak)" "$disc_faulted MB" "$disc_peak MB" \
    "$(ratio "$disc_faulted" "$disc_peak")x" ""
spread=$(printf '%s\n' "${per_triangle[@]}" | sort -n | awk 'NR == 1 { low = $1 } { high = $1 } END { printf "%.2f", high / low }')
row "time per triangle, largest / smallest of the four" "" "" "${spread}x" \
    "<= 1.5x: $(verdict "$spread" "<=" 1.5)"
star=$(convert_ms "$work/shapes/star_65535.assbin" --jobs 1)
row "star_65535 (one polygon of 65,535 corners)" "$star ms" "" "" ""

# --- the shapes built to break each stage's bound, at two sizes 10x apart (scripts/bench-shapes.sh)
echo
ASSBIN_SHAPES_DIR=$work/shapes runs=$runs scripts/bench-shapes.sh

# --- glTF out: the same set to .glb, against its AEM conversion and Assimp's exporter (scripts/bench-gltf.sh)
scripts/bench-gltf.sh --runs "$runs" --corpus "$corpus"
