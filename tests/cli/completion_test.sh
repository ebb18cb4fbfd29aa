#!/usr/bin/env bash
# The bash completion (tools/completion/assbin.bash), sourced as bash-completion sources it, asked
# what a user gets at the Tab key: `assbin c` gives the verbs starting with c, `assbin convert --l`
# convert's options starting with --l, `assbin render -` every option render --help shows, an
# option's words (`--format`, `--layout`), a folder for `--out-dir`, and files after a verb.
#   completion_test.sh COMPLETION_FILE PROGRAM_DIR
set -euo pipefail
completion=$1
export PATH="$2:$PATH" # the program being completed is `assbin`, found on PATH as a user's would be
# shellcheck source=/dev/null
source "$completion"
[ "$(complete -p assbin)" = "complete -F _assbin assbin" ] || { echo "FAIL: complete -p assbin: $(complete -p assbin)"; exit 1; }

failures=0
# complete_words WORD...: COMPREPLY for the command line WORD... with the cursor at the end of the last.
complete_words() {
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    _assbin
    printf '%s\n' "${COMPREPLY[@]}" | sort
}
expect() { # expect "WORDS" EXPECTED_LINES
    local got
    got=$(eval "complete_words $1")
    if [ "$got" != "$2" ]; then
        echo "FAIL: completing '$1': got [$(tr '\n' ' ' <<<"$got")], expected [$(tr '\n' ' ' <<<"$2")]"
        failures=$((failures + 1))
    else
        echo "ok: '$1' -> $(tr '\n' ' ' <<<"$got")"
    fi
}

expect "assbin c" $'cmp\nconvert'
expect "assbin ''" $'aem-info\ncmp\nconvert\ndump\ninfo\nrender\ntree'
expect "assbin --v" "--version"
expect "assbin convert --l" "--layout"
expect "assbin convert --ke" $'--keep-embedded-bytes\n--keep-meshes\n--key-error'
expect "assbin convert x.assbin --format g" $'glb\ngltf'
expect "assbin convert x.assbin --layout ''" $'2024\n2025'
expect "assbin render x.aem --view t" "top"
expect "assbin info --jobs ''" ""

# `assbin render -`: every option render --help shows, and nothing else.
render_options=$(assbin render --help | sed -n 's/^  \(-[^ ].*\)$/\1/p' | sed 's/  .*//' |
    grep -oE -- '--?[A-Za-z][A-Za-z0-9-]*' | sort -u)
[ "$(wc -l <<<"$render_options")" -ge 15 ] || { echo "FAIL: render --help shows too few options"; exit 1; }
expect "assbin render -" "$render_options"
for option in -o --size --view --anim --sheet --texture-dir; do
    grep -qxF -- "$option" <<<"$render_options" || { echo "FAIL: render's options lack $option"; failures=$((failures + 1)); }
done

# Files and folders.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/models" "$work/more"
touch "$work/mesh.assbin" "$work/models/a.assbin"
expect "assbin info $work/me" "$work/mesh.assbin"
expect "assbin convert $work/mesh.assbin --out-dir $work/m" "$work/models"$'\n'"$work/more"
expect "assbin convert $work/mesh.assbin -o $work/models/" "$work/models/a.assbin"

echo "failures: $failures"
[ "$failures" -eq 0 ]
