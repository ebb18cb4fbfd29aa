#!/usr/bin/env bash
# Holds two builds of assbin to the same `info --json` (and `tree --json`) output on every dump under a
# folder, byte for byte: run it with the build before a change and the build after, e.g.
#   scripts/same-info-output.sh OLD/bin/assbin build/bin/assbin ../shared/corpus
# Prints the files that differ (with the first differing lines) and a count; exit 1 when any differs.
set -euo pipefail
[ $# -eq 3 ] || { sed -n '2,5p' "$0"; exit 2; }
old=$1 new=$2 folder=$3
differ=0 files=0
while IFS= read -r -d '' file; do
    [ "$(head -c 19 "$file" 2>/dev/null | tr -d '\0')" = "ASSIMP.binary-dump." ] || continue # dumps only, whatever their name
    files=$((files + 1))
    for verb in info tree; do
        if ! cmp -s <("$old" "$verb" --json "$file" 2>&1; echo "exit $?") \
                    <("$new" "$verb" --json "$file" 2>&1; echo "exit $?"); then
            differ=$((differ + 1))
            echo "differs: $verb --json $file"
            diff <("$old" "$verb" --json "$file" 2>&1) <("$new" "$verb" --json "$file" 2>&1) | head -6 || true
        fi
    done
done < <(find "$folder" -type f -print0 | sort -z)
echo "$files files, $differ outputs differ"
[ "$differ" -eq 0 ]
