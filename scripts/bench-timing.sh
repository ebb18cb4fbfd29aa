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
