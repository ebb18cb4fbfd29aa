#!/usr/bin/env bash
# Holds two builds of assbin to the same conversions of every dump under a folder, byte for byte:
# every output file and every file's --json report, for AEM (2024, 2025, 2025 --compress,
# --no-optimize, --keep-meshes) and glTF (.glb, .gltf). Run it with the build before a change and
# the build after, e.g.
#   scripts/same-convert-output.sh OLD/bin/assbin build/bin/assbin ../shared/corpus [--texture-dir DIR]
# (--texture-dir defaults to FOLDER/assimp-5.2.5-textures when that exists). Prints a Markdown table
# of what differs per conversion and the first files that do; exit 1 when anything differs.
set -euo pipefail
[ $# -eq 3 ] || [ $# -eq 5 ] || { sed -n '2,8p' "$0"; exit 2; }
old=$1 new=$2 folder=$3
textures=$folder/assimp-5.2.5-textures
[ $# -eq 5 ] && { [ "$4" = --texture-dir ] || { sed -n '2,8p' "$0"; exit 2; }; textures=$5; }
texture_options=()
[ -d "$textures" ] && texture_options=(--texture-dir "$textures")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jobs=$(nproc)
conversions=(
    "aem 2024|"
    "aem 2025|--layout 2025"
    "aem 2025 --compress|--layout 2025 --compress"
    "aem --no-optimize|--no-optimize"
    "aem --keep-meshes|--keep-meshes"
    "glb|--format glb"
    "gltf|--format gltf"
)
echo "| conversion | outputs | outputs that differ | reports that differ |"
echo "|---|---|---|---|"
differ_total=0
for conversion in "${conversions[@]}"; do
    name=${conversion%%|*}
    read -r -a options <<<"${conversion#*|}"
    # Only the 2025 layout and glTF look for image files (the 2024 layout names them).
    [[ "${conversion#*|}" == *--layout* || "${conversion#*|}" == *--format* ]] && options+=("${texture_options[@]}")
    for side in old new; do
        binary=$old
        [ "$side" = new ] && binary=$new
        # Exit 1 means some file was refused or failed, as it may be on both sides: the reports say which.
        "$binary" convert "$folder" --out-dir "$work/$side" "${options[@]}" --jobs "$jobs" --json >"$work/$side.json" 2>/dev/null || [ $? -eq 1 ]
    done
    outputs=$(find "$work/old" -type f | wc -l)
    differing=$(diff -rq "$work/old" "$work/new" | tee "$work/differing" | wc -l || true)
    # One report line per file: the records as the program printed them, in input order.
    reports=$(/usr/bin/python3 - "$work" <<'PYTHON'
import json, sys
work = sys.argv[1]
def records(side):  # the output folder's own name taken out of the records
    text = open(f"{work}/{side}.json").read().replace(f"{work}/{side}/", "OUT/")
    return json.loads(text)["files"]
old, new = records("old"), records("new")
by_input = {record["input"]: record for record in new}
print(sum(1 for record in old if by_input.get(record["input"]) != record) + abs(len(old) - len(new)))
PYTHON
)
    echo "| $name | $outputs | $differing | $reports |"
    head -3 "$work/differing" | sed 's/^/    /' >&2
    differ_total=$((differ_total + differing + reports))
    rm -rf "$work/old" "$work/new"
done
[ "$differ_total" -eq 0 ]
