# Sourced by the benchmark scripts (bench.sh, bench-convert.sh): how a whole process is timed.
# best_ms COMMAND...: the best wall time of $runs runs, in milliseconds, output discarded (a failing
# run is timed like any other: the scripts check outcomes apart). A script that defines
# before_each_run gets it called, untimed, before every run.
best_ms() {
    local best="" start end took
    for _ in $(seq "$runs"); do
        if declare -F before_each_run >/dev/null; then before_each_run; fi
        start=$(date +%s%N)
        "$@" >/dev/null 2>&1 || true
        end=$(date +%s%N)
        took=$(((end - start) / 1000))
        if [ -z "$best" ] || [ "$took" -lt "$best" ]; then best=$took; fi
    done
    awk -v us="$best" 'BEGIN { printf "%.2f", us / 1000 }'
}
