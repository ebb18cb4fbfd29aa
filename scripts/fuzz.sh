#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) and runs each for a given time, seeding their
# corpora from tests/data. Fails when any target finds a crash, a leak, a hang or an out-of-memory.
#   scripts/fuzz.sh                       every target for 60 s (what CI does)
#   scripts/fuzz.sh --seconds 600         every target for 10 minutes
#   scripts/fuzz.sh --jobs 1 fuzz_aem     one target, one at a time
# Options: --seconds N (per target), --jobs N (targets run at once; default: cores),
#          --build-dir DIR (default build-fuzz), --corpus-dir DIR (default DIR/corpus),
#          --plain-mutator (libFuzzer's byte mutations only, to measure the structure-aware mutator
#          of fuzz/structure_mutator.cpp against them). Working corpora and logs stay in the build folder
#          (DIR/corpus/<target>, DIR/logs/<target>.log), so a later run goes on where this one
#          stopped; findings are saved as DIR/findings/<target>/crash-*, leak-*, timeout-*, oom-*.
#          Inputs in fuzz/regressions/<target>/ (past findings, fixed) are replayed first.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
jobs=$(nproc)
build_dir=build-fuzz
corpus_dir=
plain_mutator=0
targets=()
while [ $# -gt 0 ]; do
    case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    --corpus-dir) corpus_dir=$2; shift 2 ;;
    --plain-mutator) plain_mutator=1; shift ;;
    -h | --help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1 (--help lists them)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
    esac
done
all_targets=(fuzz_read_full fuzz_read_shortened fuzz_read_compressed fuzz_chunk_walker fuzz_compare
             fuzz_aem fuzz_convert)
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")

scripts/install-deps.sh clang libclang-rt-14-dev

echo "== Building the fuzz targets in $build_dir (clang, libFuzzer, ASan + UBSan)"
# -O1: libFuzzer's advice, and the compile takes a third less than at RelWithDebInfo's -O2.
CC=clang CXX=clang++ cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DASSBIN_BUILD_FUZZERS=ON \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -DNDEBUG" \
    -DASSBIN_BUILD_TESTS=OFF -DASSBIN_BUILD_BENCHMARKS=OFF -DASSBIN_WERROR=ON >/dev/null
# The AEM seeds are made by the assbin program: the Release build's when there is one (scripts/test.sh
# builds it first), else one built here (a second compile of every tool, minutes on two cores).
seed_program=build/bin/assbin
targets_to_build=(fuzzers)
if [ ! -x "$seed_program" ]; then
    seed_program=$build_dir/bin/assbin
    targets_to_build+=(assbin_cli)
fi
cmake --build "$build_dir" -j "$(nproc)" --target "${targets_to_build[@]}"

# --- seed corpora: the fixtures, picked by variant from the two header flags (offsets 60 and 62)
flags_of() { od -An -t u2 -j 60 -N 4 "$1" | tr -s ' ' | sed 's/^ //'; } # "shortened compressed"
u32_le() { perl -e 'print pack("V", $ARGV[0])' "$1"; }
corpus_dir=${corpus_dir:-$build_dir/corpus}
seed_dir() { mkdir -p "$corpus_dir/$1" && echo "$corpus_dir/$1"; }

mapfile -t fixtures < <(find tests/data -type f ! -name '*.md' ! -name '*.txt' | sort)
for fixture in "${fixtures[@]}"; do
    head -c 19 "$fixture" | grep -q "ASSIMP.binary-dump." || continue
    name=$(basename "$fixture")
    read -r shortened compressed <<<"$(flags_of "$fixture")"
    cp "$fixture" "$(seed_dir fuzz_chunk_walker)/$name"
    cp "$fixture" "$(seed_dir fuzz_read_compressed)/$name"
    if [ "$compressed" = 0 ] && [ "$shortened" = 0 ]; then
        cp "$fixture" "$(seed_dir fuzz_read_full)/$name"
        cp "$fixture" "$(seed_dir fuzz_convert)/$name"
        # fuzz_convert takes its options from header bytes 43 (UV channel) and 45 (layout, optimize,
        # keep meshes, --compress, texture size, glTF, --quantize: fuzz/fuzz_convert.cpp), where the
        # fixtures hold the timestamp's newline and 0 (UV channel 1, the defaults): each fixture is also
        # seeded with UV channel 0 and the options set, so that every stage
        # (the 2025 layout's textures and BC7, the source-order tangents, glTF and its quantized
        # writers) is reached from the first run rather than only once a mutation finds the byte.
        for choice in 01 09 19 02 04 06 20 22 60 24; do
            { head -c 43 "$fixture"; printf '\x00\x01\x'"$choice"; tail -c +47 "$fixture"; } \
                >"$(seed_dir fuzz_convert)/$name.options-$choice"
        done
    elif [ "$compressed" = 0 ]; then
        cp "$fixture" "$(seed_dir fuzz_read_shortened)/$name"
    fi
    # compare: [u32 size of A][A][B], a dump against itself, and a full dump against its shortened twin
    { u32_le "$(stat -c %s "$fixture")"; cat "$fixture" "$fixture"; } >"$(seed_dir fuzz_compare)/$name.self"
    # ... with bytes after A's SCENE chunk (uncompressed: inside the stream they are compressed too),
    # and an empty A (an expected-failure marker) against a dump
    if [ "$compressed" = 0 ]; then
        { u32_le "$(($(stat -c %s "$fixture") + 16))"; cat "$fixture"; head -c 16 /dev/zero; cat "$fixture"; } \
            >"$(seed_dir fuzz_compare)/$name.trailing"
    fi
    { u32_le 0; cat "$fixture"; } >"$(seed_dir fuzz_compare)/$name.empty"
    if [ -f "$fixture.regress" ]; then
        { u32_le "$(stat -c %s "$fixture")"; cat "$fixture" "$fixture.regress"; } \
            >"$(seed_dir fuzz_compare)/$name.twin"
    fi
done
# AEM seeds: models converted from the fixtures by the assbin program, in both layouts (the 2025 ones
# with their textures' MIP chains, as stored and block-compressed)
for fixture in tests/data/assimp-5.2.5/{FBX__huesitos.fbx,glTF2__simple_skin__simple_skin.gltf,3DS__RotatingCube.3DS,SMD__triangle.smd,Collada__box_nested_animation.dae,glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf}.assbin; do
    for variant in 2024 2025 2025-compressed; do # the last with BC5 and BC7 texture chains
        options=(--layout 2024)
        [ "$variant" = 2025 ] && options=(--layout 2025 --max-texture-size 32)
        [ "$variant" = 2025-compressed ] && options=(--layout 2025 --max-texture-size 32 --compress)
        out="$(seed_dir fuzz_aem)/$(basename "$fixture" .assbin).$variant.aem"
        [ -f "$out" ] || "$seed_program" convert "$fixture" -o "$out" "${options[@]}" >/dev/null
    done
    rm -f "$(dirname "$out")"/*.png
done

mkdir -p "$build_dir/logs"
sanitizer_env=(ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0
               UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASSBIN_FUZZ_PLAIN_MUTATOR=$plain_mutator)

# --- replay: every input that once made a target fail (fuzz/regressions/<target>/, committed) must
# pass now, before any time is spent fuzzing; each also seeds its target's corpus.
replayed=0
for target in "${targets[@]}"; do
    regressions=(fuzz/regressions/"$target"/*)
    [ -e "${regressions[0]}" ] || continue
    cp "${regressions[@]}" "$(seed_dir "$target")/"
    replayed=$((replayed + ${#regressions[@]}))
    if ! env "${sanitizer_env[@]}" "$build_dir/fuzz/$target" "${regressions[@]}" \
        >"$build_dir/logs/$target.replay.log" 2>&1; then
        echo "fuzz.sh: $target fails again on an input of fuzz/regressions/$target/:" \
            "see $build_dir/logs/$target.replay.log" >&2
        exit 1
    fi
done
echo "== Replayed $replayed inputs that once made a target fail: all pass"

# --- run
run_target() {
    local target=$1 findings="$build_dir/findings/$1/"
    mkdir -p "$findings"
    env "${sanitizer_env[@]}" \
        "$build_dir/fuzz/$target" "$corpus_dir/$target" -dict=fuzz/assbin.dict \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 -max_len=200000 -print_final_stats=1 \
        -artifact_prefix="$findings" >"$build_dir/logs/$target.log" 2>&1
}
mutator="structure-aware mutator (fuzz/structure_mutator.cpp) where the target has it"
[ "$plain_mutator" = 1 ] && mutator="libFuzzer's byte mutations only"
echo "== Fuzzing ${#targets[@]} targets for $seconds s each, $jobs at a time; $mutator"
declare -A status
running=()
for target in "${targets[@]}"; do
    run_target "$target" &
    running+=("$!:$target")
    if [ ${#running[@]} -ge "$jobs" ]; then
        entry=${running[0]}
        running=("${running[@]:1}")
        if wait "${entry%%:*}"; then status[${entry#*:}]=0; else status[${entry#*:}]=$?; fi
    fi
done
for entry in "${running[@]}"; do
    if wait "${entry%%:*}"; then status[${entry#*:}]=0; else status[${entry#*:}]=$?; fi
done

# --- report: executions, rate, corpus, outcome
failed=0
printf '%-22s %12s %9s %8s %8s  %s\n' target executions "exec/s" corpus coverage outcome
for target in "${targets[@]}"; do
    log="$build_dir/logs/$target.log"
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    corpus=$(find "$corpus_dir/$target" -type f | wc -l)
    coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    outcome=clean
    if [ "${status[$target]}" != 0 ]; then
        outcome="FINDING (exit ${status[$target]}): see $log and $build_dir/findings/$target/"
        failed=1
    fi
    printf '%-22s %12s %9s %8s %8s  %s\n' "$target" "${runs:-?}" "${rate:-?}" "$corpus" "${coverage:-?}" "$outcome"
done
exit $failed
