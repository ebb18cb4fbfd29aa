# Sourced by the benchmark scripts (bench.sh, bench-convert.sh): how a whole process is timed.
# best_ms COMMAND...: the best wall time of $runs runs, in milliseconds, output discarded. A run
# that ends with another exit status than $expect_status (default 0) stops the benchmark with a
# message naming the command: a timing of a failed command is no timing. Call it as
# `x=$(best_ms ...)` so that under `set -e` the failure ends the script. A script that defines
# before_each_run gets it called, untimed, before every run.
best_ms() {
    local best="" start end took status
    for _ in $(seq "$runs"); do
        if declare -F before_each_run >/dev/null; then before_each_run; fi
        start=$(date +%s%N)
        status=0
        "$@" >/dev/null 2>&1 || status=$?
        end=$(date +%s%N)
        if [ "$status" -ne "${expect_status:-0}" ]; then
            echo "benchmark: '$1 $2 $3 ...' exited with $status (expected ${expect_status:-0}); run it by hand to see why" >&2
            return 1
        fi
        took=$(((end - start) / 1000))
        if [ -z "$best" ] || [ "$took" -lt "$best" ]; then best=$took; fi
    done
    awk -v us="$best" 'BEGIN { printf "%.2f", us / 1000 }'
}

# best_ms_each FUNCTION...: the best wall time of each function (a command wrapped in a shell
# function) over $runs rounds, each round running every function once, in turn; the times in
# milliseconds, space-separated, in the order given. For the rows that are ratios: on a machine whose
# speed drifts (a VM beside busy neighbours), runs of one command after the other would set one
# period's speed against another's, and the ratio with it. Failures stop it as best_ms's do.
# With $rounds_file set, every run's time is also written there ("round function microseconds",
# the file emptied first) for round_ratio_median.
best_ms_each() {
    local -A best=()
    local round function start end took status
    if [ -n "${rounds_file:-}" ]; then : >"$rounds_file"; fi
    for round in $(seq "$runs"); do
        for function in "$@"; do
            if declare -F before_each_run >/dev/null; then before_each_run; fi
            start=$(date +%s%N)
            status=0
            "$function" >/dev/null 2>&1 || status=$?
            end=$(date +%s%N)
            if [ "$status" -ne 0 ]; then
                echo "benchmark: '$function' (round $round) exited with $status; run it by hand to see why" >&2
                return 1
            fi
            took=$(((end - start) / 1000))
            if [ -z "${best[$function]:-}" ] || [ "$took" -lt "${best[$function]}" ]; then best[$function]=$took; fi
            if [ -n "${rounds_file:-}" ]; then echo "$round $function $took" >>"$rounds_file"; fi
        done
    done
    for function in "$@"; do
        awk -v us="${best[$function]}" 'BEGIN { printf "%.2f ", us / 1000 }'
    done
}

# round_ratio_median A B: the median over the last best_ms_each's rounds of A's time / B's time in
# the same round (the runs next to each other in time): a second view of a ratio, less swayed than
# the ratio of bests by one run that caught a fast moment of a machine whose speed jumps.
round_ratio_median() {
    awk -v a="$1" -v b="$2" '$2 == a { ta[$1] = $3 } $2 == b { tb[$1] = $3 }
        END {
            n = 0
            for (r in ta) if (r in tb && tb[r] > 0) ratios[++n] = ta[r] / tb[r]
            for (i = 2; i <= n; ++i) { v = ratios[i]; for (j = i - 1; j >= 1 && ratios[j] > v; --j) ratios[j + 1] = ratios[j]; ratios[j + 1] = v }
            if (n == 0) printf "-"
            else printf "%.2f", (n % 2) ? ratios[(n + 1) / 2] : (ratios[n / 2] + ratios[n / 2 + 1]) / 2
        }' "$rounds_file"
}

# bench_arguments SCRIPT ARG...: the options the corpus benchmarks share. Sets runs (--runs N,
# default 3) and corpus (--corpus DIR, default $ASSBIN_CORPUS_DIR or ../shared/corpus); --help
# prints SCRIPT's header comment; anything else is a usage error (exit 2).
bench_arguments() {
    local script=$1
    shift
    runs=3
    corpus=${ASSBIN_CORPUS_DIR:-../shared/corpus}
    while [ $# -gt 0 ]; do
        case $1 in
        --runs) runs=$2; shift 2 ;;
        --corpus) corpus=$2; shift 2 ;;
        -h | --help) sed -n '2,/^set -/p' "$script" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "$(basename "$script"): unknown argument $1 (--help lists them)" >&2; exit 2 ;;
        esac
    done
}

# game_ready_set DIR: the game-ready set, every full dump of at least 20 KiB with faces in the
# corpus's assimp-5.2.5/ (MANIFEST.tsv; the one point cloud, without faces, is not game geometry),
# linked into DIR under its own path (the folder keeps names apart: one output each); sets `files`
# to the dumps themselves and reads them once (the page cache holds them for every timed run).
game_ready_set() {
    local set_dir=$1 path variant faces file
    mkdir -p "$set_dir"
    files=()
    while IFS=$'\t' read -r path _ _ variant _ _ _ _ _ _ _ _ _ _ _ _ _ faces _; do
        [ "$variant" = full ] && [ "${faces:-0}" -gt 0 ] || continue
        file=$corpus/assimp-5.2.5/$path
        [ "$(stat -c %s "$file")" -ge 20480 ] || continue
        mkdir -p "$set_dir/$(dirname "$path")"
        ln -s "$(realpath "$file")" "$set_dir/$path"
        files+=("$file")
    done < <(tail -n +2 "$corpus/assimp-5.2.5/MANIFEST.tsv")
    cat "${files[@]}" >/dev/null
}

# The tables every benchmark script prints are the ones docs/benchmarks.md holds, in its format
# (Markdown), so that the page is a copy of what the scripts print on the machine it names.
# md_head TITLE COMMAND: a table's head: its title, then the command that printed it, the machine,
# the commit and the date.
md_head() {
    local cpu memory system commit
    cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //; s/ \+/ /g')
    memory=$(awk '$1 == "MemTotal:" { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
    system=$( (. /etc/os-release && echo "$PRETTY_NAME") 2>/dev/null || uname -sr)
    commit=$(git rev-parse --short HEAD 2>/dev/null || echo "no commit")
    git diff --quiet HEAD 2>/dev/null || commit="$commit + changes"
    echo
    echo "## $1"
    echo
    echo "\`$2\` · $(nproc) cores, $cpu, $memory, $system · commit $commit · $(date -u +%Y-%m-%d)"
    echo
}
# md_row CELL...: one row of a Markdown table. md_columns HEADING...: the heading row and its rule.
md_row() {
    local cell line="|"
    for cell in "$@"; do line+=" $cell |"; done
    echo "$line"
}
md_columns() {
    local heading rule="|"
    md_row "$@"
    for heading in "$@"; do rule+="---|"; done
    echo "$rule"
}
