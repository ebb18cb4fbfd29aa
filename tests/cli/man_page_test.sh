#!/usr/bin/env bash
# assbin(1) says what --help says: `man -l` of the page made at build time (the one installed) shows
# every line of the general --help and of each verb's --help, every verb the general --help lists has
# its section, and every option each --help shows is in the page. Lines are compared with their runs
# of blanks made one space (man sets tabs where --help has spaces). At 80 columns no line of the page
# is wider than 80.
#   man_page_test.sh PROGRAM PAGE.1.gz
set -euo pipefail
program=$1
page=$2
skip() {
    echo "SKIPPED: $1"
    [ "${CI:-}" = true ] && exit 1
    exit 77
}
command -v man >/dev/null || skip "no man command (Debian package man-db): the manual page is not checked"
[ -f "$page" ] || { echo "FAIL: no page at $page (the assbin_man_page target makes it)"; exit 1; }

normal() { expand | sed 's/[[:space:]]\+/ /g; s/^ //; s/ $//' | grep -v '^$' || true; }
shown=$(MANWIDTH=250 man -l "$page" 2>&1 | col -b | normal)
failures=0
check_text() { # check_text WHAT TEXT: every line of TEXT is a line of the page
    local line missing=0
    while IFS= read -r line; do
        if ! grep -qxF -- "$line" <<<"$shown"; then
            [ "$missing" -lt 5 ] && echo "FAIL: $1: the page lacks the line: $line"
            missing=$((missing + 1))
        fi
    done < <(normal <<<"$2")
    [ "$missing" -eq 0 ] || { echo "FAIL: $1: $missing lines of its --help are not in the page"; failures=$((failures + 1)); }
}

# The page is made from the texts laid out for 73 columns (cmake/AssbinManPage.cmake): at 80 columns,
# indented by man, no line is wider than the terminal.
export COLUMNS=73
wide=$(MANWIDTH=80 man -l "$page" 2>/dev/null | col -b | expand | awk 'length > 80')
if [ -n "$wide" ]; then
    echo "FAIL: $(wc -l <<<"$wide") lines of the page are wider than 80 columns at MANWIDTH=80, the first:"
    head -3 <<<"$wide"
    failures=$((failures + 1))
fi
general=$("$program" --help)
check_text "assbin --help" "$general"
verbs=$(awk '/^verbs:/ { inside = 1; next } inside && /^  [a-z]/ { print $1; next } inside && /^   / { next } inside { exit }' <<<"$general")
[ "$(wc -w <<<"$verbs")" -ge 7 ] || { echo "FAIL: fewer than 7 verbs read from assbin --help: $verbs"; exit 1; }
options_checked=0
for verb in $verbs; do
    grep -qxF "assbin $verb" <<<"$shown" || { echo "FAIL: no section 'assbin $verb' in the page"; failures=$((failures + 1)); }
    help=$("$program" "$verb" --help)
    check_text "assbin $verb --help" "$help"
    for option in $(sed -n 's/^  \(-[^ ].*\)$/\1/p' <<<"$help" | sed 's/  .*//' | grep -oE -- '--?[A-Za-z][A-Za-z0-9-]*' | sort -u); do
        options_checked=$((options_checked + 1))
        grep -qF -- "$option" <<<"$shown" || { echo "FAIL: $verb's option $option is not in the page"; failures=$((failures + 1)); }
    done
done
echo "$(wc -w <<<"$verbs") verbs, $options_checked options checked; failures: $failures"
[ "$failures" -eq 0 ]
