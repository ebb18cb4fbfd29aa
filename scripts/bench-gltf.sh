#!/usr/bin/env bash
# glTF out, timed as a user waits for it: the game-ready set (every full dump of at least 20 KiB with
# faces in the corpus's assimp-5.2.5/, 163 files) converted to .glb in one process (--jobs 1),
# against its AEM conversion in the same run (target: at most 1x) and against Assimp 5.2.5's own
# exporter, `assimp export X.assbin X.glb glb2`, one process per file as a user runs it (target: at
# most 0.5x; timed only where the `assimp` command, Debian's assimp-utils, is installed). Commands a
# ratio compares run in turn, round by round (bench-timing.sh). Also counts what Assimp's exporter
# does with the set: files it failed on (crash or error) and, with Node and `npm ci` in tests/gltf,
# the files whose validator report has errors, beside ours. Last, the shapes built to break each
# stage's bound (assbin_make_shapes, as scripts/bench-shapes.sh for AEM) converted to .glb at two
# sizes 10x apart: the time per element must stay within 1.5x from the small size to the large one.
#   scripts/bench-gltf.sh [--runs N] [--corpus DIR]     best of N rounds (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/bench-timing.sh # best_ms, best_ms_each, bench_arguments, game_ready_set, md_head
bench_arguments "$0" "$@"

scripts/install-deps.sh assimp-utils gltfpack # the yardsticks: Assimp's exporter, gltfpack
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DASSBIN_BUILD_TESTS=ON -DASSBIN_BUILD_BENCHMARKS=ON >/dev/null
cmake --build build -j "$(nproc)" --target assbin_cli assbin_make_shapes >/dev/null
assbin=build/bin/assbin
if [ ! -f "$corpus/assimp-5.2.5/MANIFEST.tsv" ]; then
    echo "SKIPPED: no corpus at $corpus (assimp-5.2.5/MANIFEST.tsv): the glTF benchmark needs the game-ready set"
    exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rounds_file=$work/rounds # every round's times, for the ratios' medians (bench-timing.sh)
set_dir=$work/set
game_ready_set "$set_dir"

before_each_run() { rm -rf "$work/out"; }
to_glb() { "$assbin" convert "$set_dir" --out-dir "$work/out" --format glb --quiet --jobs 1; }
to_aem() { "$assbin" convert "$set_dir" --out-dir "$work/out" --quiet --jobs 1; }
# Assimp's exporter, one process per file; a file it fails on counts its time all the same.
assimp_glb() {
    mkdir -p "$work/out"
    local k=0
    for file in "${files[@]}"; do
        k=$((k + 1))
        (assimp export "$file" "$work/out/$k.glb" glb2) >/dev/null 2>&1 || true
    done
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { awk -v value="$1" -v target="$2" 'BEGIN { printf "%s", value <= target ? "yes" : "NO" }'; }
row() { md_row "$@"; }

md_head "glTF out: the game-ready set against its AEM conversion and Assimp's exporter" "scripts/bench-gltf.sh --runs $runs"
echo "The ${#files[@]}-file game-ready set (every full dump of at least 20 KiB with faces in the corpus's"
echo "\`assimp-5.2.5/\`) to \`.glb\` in one process (\`--jobs 1\`), against its AEM conversion and against"
echo "Assimp 5.2.5's exporter (\`assimp export X.assbin X.glb glb2\`, one process per file), best of $runs rounds"
echo "run in turn; beside each verdict the median of the ratio round by round."
echo
md_columns "" "assbin" "yardstick" "ratio" "target"
if command -v assimp >/dev/null; then
    read -r glb aem yard <<<"$(best_ms_each to_glb to_aem assimp_glb)"
else
    read -r glb aem <<<"$(best_ms_each to_glb to_aem)"
fi
row "to .glb, one process (vs its AEM conversion)" "$glb ms" "$aem ms" "$(ratio "$glb" "$aem")" \
    "<= 1: $(verdict "$(ratio "$glb" "$aem")" 1) (rounds' median $(round_ratio_median to_glb to_aem))"
if command -v assimp >/dev/null; then
    row "to .glb (vs assimp export ... glb2, per file)" "$glb ms" "$yard ms" "$(ratio "$glb" "$yard")" \
        "<= 0.5: $(verdict "$(ratio "$glb" "$yard")" 0.5) (rounds' median $(round_ratio_median to_glb assimp_glb))"
else
    row "to .glb (vs assimp export ... glb2)" "$glb ms" "(no assimp)" "" "SKIPPED: apt-get install assimp-utils"
fi

# What each writes, and what the validator says of it.
rm -rf "$work/out" "$work/assimp"
to_glb
ours=$(find "$work/out" -name '*.glb' | wc -l)
ours_bytes=$(find "$work/out" -name '*.glb' -printf '%s\n' | awk '{ s += $1 } END { printf "%.1f", s / 1048576 }')
written_row="$ours of ${#files[@]}, $ours_bytes MB"
validator=tests/gltf/validate.js
can_validate=0
if command -v node >/dev/null && [ -f tests/gltf/node_modules/gltf-validator/package.json ]; then can_validate=1; fi
count_invalid() { # files whose report has errors (or that the validator cannot read)
    xargs -0 -n 100 node "$validator" | awk '/"failure"/ || /"errors":[1-9]/ { n++ } END { print n + 0 }'
}
invalid_row="SKIPPED: the validator needs node and npm ci in tests/gltf"
if [ "$can_validate" -eq 1 ]; then
    invalid_row=$(find "$work/out" -name '*.glb' -print0 | count_invalid)
fi
assimp_written_row="(no assimp)" assimp_invalid_row="(no assimp)"
if command -v assimp >/dev/null; then
    mkdir -p "$work/assimp"
    failed=0
    k=0
    for file in "${files[@]}"; do
        k=$((k + 1))
        (assimp export "$file" "$work/assimp/$k.glb" glb2) >/dev/null 2>&1 || failed=$((failed + 1))
    done
    written=$(find "$work/assimp" -name '*.glb' -size +0 | wc -l)
    assimp_written_row="$written of ${#files[@]} ($failed crashed or failed)"
    assimp_invalid_row="-"
    if [ "$can_validate" -eq 1 ]; then
        assimp_invalid_row=$(find "$work/assimp" -name '*.glb' -size +0 -print0 | count_invalid)
    fi
fi
row "files written" "$written_row" "$assimp_written_row" "" ""
row "files with glTF-Validator errors" "$invalid_row" "$assimp_invalid_row" "" "0"

# --- --quantize against gltfpack (Debian's gltfpack) given our plain .glb and the same bit counts:
# bytes other than images, file by file (target: ours at most 1.1x gltfpack's for each).
md_head "glTF out: --quantize against gltfpack" "scripts/bench-gltf.sh --runs $runs"
if command -v gltfpack >/dev/null; then
    rm -rf "$work/quantized" "$work/exact" && mkdir -p "$work/quantized" "$work/exact" "$work/gltfpack"
    "$assbin" convert "$set_dir" --out-dir "$work/quantized" --format glb --quantize --jobs 1 --json >"$work/quantized.json"
    # The same with every animation key (--quantize implies --key-error 1e-4).
    "$assbin" convert "$set_dir" --out-dir "$work/exact" --format glb --quantize --key-error 0 --quiet --jobs 1
    largest_key_error=$(/usr/bin/python3 -c 'import json, sys; print("%.2g" % max([f.get("key_error_measured", 0) for f in json.load(open(sys.argv[1]))["files"]] or [0]))' "$work/quantized.json")
    # Bytes of a .glb other than its images (the buffer views images point at), the bytes of its UV
    # sets that no texture of their primitive's material reads (gltfpack drops those; we keep them),
    # and the bytes of its animation keys (sampler inputs and outputs).
    glb_bytes_without_images() {
        /usr/bin/python3 - "$@" <<'PYTHON'
import json, struct, sys
def sets_read(node, found):
    if isinstance(node, dict):
        if isinstance(node.get("index"), int):
            transform = node.get("extensions", {}).get("KHR_texture_transform", {})
            found.add(transform.get("texCoord", node.get("texCoord", 0)))
        for value in node.values():
            sets_read(value, found)
    elif isinstance(node, list):
        for value in node:
            sets_read(value, found)
    return found
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    length = struct.unpack_from("<I", data, 12)[0]
    document = json.loads(data[20:20 + length])
    views = document.get("bufferViews", [])
    images = sum(views[image["bufferView"]]["byteLength"] for image in document.get("images", []) if "bufferView" in image)
    unread = 0
    for mesh in document.get("meshes", []):
        for primitive in mesh["primitives"]:
            material = document["materials"][primitive["material"]] if "material" in primitive else {}
            read = sets_read(material, set())
            for name, index in primitive["attributes"].items():
                if name.startswith("TEXCOORD_") and int(name[9:]) not in read:
                    accessor = document["accessors"][index]
                    unread += accessor["count"] * (4 if accessor["componentType"] == 5123 else 8)
    accessors = document.get("accessors", [])
    keys = {s[k] for a in document.get("animations", []) for s in a["samplers"] for k in ("input", "output")}
    key_bytes = 0
    for index in keys:
        accessor = accessors[index]
        size = {5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}[accessor["componentType"]]
        width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}[accessor["type"]]
        key_bytes += accessor["count"] * size * width
    print(len(data) - images, unread, key_bytes)
PYTHON
    }
    : >"$work/sizes"
    while IFS= read -r plain; do
        relative=${plain#"$work/out/"}
        ours_file=$work/quantized/$relative
        theirs_file=$work/gltfpack/${relative//\//_}
        gltfpack -i "$plain" -o "$theirs_file" -vp 14 -vt 12 -vn 8 >/dev/null 2>&1 || continue
        # gltfpack told to keep the nodes, materials and constant tracks we keep. It has no flag to keep
        # unread UV sets, nor one to keep animation keys as they are (it resamples them, at 1 Hz at the
        # least), so the row that compares with it leaves both out of both sides.
        keeping_file=${theirs_file%.glb}.keep.glb
        gltfpack -i "$plain" -o "$keeping_file" -vp 14 -vt 12 -vn 8 -kn -km -ac >/dev/null 2>&1 || continue
        # per file: bytes, unread UV bytes and key bytes of ours, of gltfpack's, of gltfpack keeping's,
        # (and ours with every key)
        echo "$(glb_bytes_without_images "$ours_file" "$theirs_file" "$keeping_file" "$work/exact/$relative" | tr '\n' ' ')" >>"$work/sizes"
    done < <(find "$work/out" -name '*.glb' | sort)
    gltfpack_version=$( (gltfpack -h 2>&1 || true) | head -1 | sed 's/^gltfpack //; s/ .*//')
    echo "Bytes other than images of each file written with \`--quantize\` (14-bit positions, 12-bit UVs,"
    echo "8-bit normals), against gltfpack $gltfpack_version given our plain \`.glb\` with the same bit counts"
    echo "(\`gltfpack -vp 14 -vt 12 -vn 8\`), summed over the files both wrote."
    echo
    md_columns "" "assbin --quantize" "gltfpack" "ratio" "target"
    awk '{ ours += $1; unread += $2; theirs += $4; n++
           same = $1 - $2 - $3; same_theirs = $7 - $8 - $9; ours_same += same; keeping += same_theirs
           if ($1 > 1.1 * $4) over++; if ($1 - $2 > 1.1 * $4) over_read++; if (same > 1.1 * same_theirs) over_same++ }
        END { printf "| %d files | %.2f MB | %.2f MB | %.2fx | each <= 1.1x: %s (%d files over) |\n",
              n, ours / 1048576, theirs / 1048576, ours / theirs, over ? "NO" : "yes", over
              printf "| the same, ours less the UV sets no texture reads (%.2f MB: gltfpack drops them, we keep them) | %.2f MB | %.2f MB | %.2fx | (%d files over 1.1x) |\n",
              unread / 1048576, (ours - unread) / 1048576, theirs / 1048576, (ours - unread) / theirs, over_read
              printf "| like for like: gltfpack keeping nodes, materials and constant tracks (`-kn -km -ac`), animation keys and unread UV sets left out of both | %.2f MB | %.2f MB | %.2fx | (%d files over 1.1x) |\n",
              ours_same / 1048576, keeping / 1048576, ours_same / keeping, over_same }' "$work/sizes"
    # The animation keys (issue 66): ours against ours with every key, and against gltfpack's, which
    # resamples at 30 Hz and bounds no error.
    awk -v largest="$largest_key_error" '$12 > 0 { animated++; keys += $3; theirs += $6; every += $12 }
        END { printf "| animation keys of the %d animated files: `--quantize` (its key error 1e-4; the largest measured %s of a model'"'"'s size) against `--quantize --key-error 0` | %.3f MB | %.3f MB | %.2fx | <= 0.3x: %s |\n",
              animated, largest, keys / 1048576, every / 1048576, keys / every, keys <= 0.3 * every ? "yes" : "NO"
              printf "| the same keys against gltfpack'"'"'s (30 Hz, no bound) | %.3f MB | %.3f MB | %.2fx | about 0.5x: %s |\n",
              keys / 1048576, theirs / 1048576, keys / theirs, keys <= 0.55 * theirs ? "yes" : "NO" }' "$work/sizes"
else
    echo "SKIPPED: gltfpack is not installed (apt-get install gltfpack)"
fi

# --- the shapes that break each stage's bound, to .glb
build/bin/assbin_make_shapes "$work/shapes" >/dev/null
md_head "glTF out: the shapes that break each stage's bound" "scripts/bench-gltf.sh --runs $runs"
echo "The families of \`build/bin/assbin_make_shapes\` converted to \`.glb\` at two sizes 10x apart, \`--jobs 1\`;"
echo "time per element of the whole process, best of $runs. Target: the large size's at most 1.5x the small's."
echo
md_columns family element small large "small ns/element" "large ns/element" growth "target <= 1.5x"
declare -A small_ms small_n
while IFS=$'\t' read -r family size file elements element options; do
    # shellcheck disable=SC2086 # the options column's words are split on purpose
    ms=$(best_ms "$assbin" convert "$work/shapes/$file" -o "$work/shape.glb" --quiet --jobs 1 $options)
    if [ "$size" = small ]; then
        small_ms[$family]=$ms
        small_n[$family]=$elements
        continue
    fi
    awk -v f="$family" -v e="$element" -v sm="${small_ms[$family]}" -v sn="${small_n[$family]}" -v lm="$ms" -v ln="$elements" 'BEGIN {
        a = sm * 1e6 / sn; b = lm * 1e6 / ln; r = b / a
        printf "| %s | %s | %.2f ms | %.2f ms | %.1f | %.1f | %.2fx | %s |\n", f, e, sm, lm, a, b, r, (r <= 1.5 ? "yes" : "NO") }'
done < <(tail -n +2 "$work/shapes/families.tsv")
