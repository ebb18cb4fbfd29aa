# bash completion for assbin(1): verbs, each verb's options, the words some options take, and files.
# Installed as share/bash-completion/completions/assbin, where bash-completion loads it on first use;
# or `source tools/completion/assbin.bash` by hand. The verbs and options are read from the program's
# own --help (the program being completed, as typed), so they follow it without a list kept here:
# the general --help's "verbs:" block, and in a verb's --help every option line's "-x [ --long ]" or
# "--long" column (read once per verb and shell).

declare -gA _assbin_options_of=()

# The verbs the general --help lists.
_assbin_verbs() {
    "$1" --help 2>/dev/null | awk '/^verbs:/ { inside = 1; next } inside && /^  [a-z]/ { print $1; next } inside { exit }'
}

# Every option a verb's --help shows: on each option line, the option column (up to two spaces).
_assbin_verb_options() {
    local program=$1 verb=$2
    if [ -z "${_assbin_options_of[$program $verb]+set}" ]; then
        _assbin_options_of[$program $verb]=$("$program" "$verb" --help 2>/dev/null |
            sed -n 's/^  \(-[^ ].*\)$/\1/p' | sed 's/  .*//' | grep -oE -- '--?[A-Za-z][A-Za-z0-9-]*' | sort -u)
    fi
    printf '%s\n' "${_assbin_options_of[$program $verb]}"
}

_assbin() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    local prev=""
    [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
    local program=${COMP_WORDS[0]}
    program=${program/#\~/$HOME}
    command -v "$program" >/dev/null 2>&1 || program=assbin
    COMPREPLY=()

    # The verb is the first word after the program that is not an option.
    local verb="" k
    for ((k = 1; k < COMP_CWORD; ++k)); do
        case ${COMP_WORDS[k]} in
        -*) ;;
        *) verb=${COMP_WORDS[k]}; break ;;
        esac
    done
    if [ -z "$verb" ]; then
        if [[ $cur == -* ]]; then
            mapfile -t COMPREPLY < <(compgen -W "--help --version" -- "$cur")
        else
            mapfile -t COMPREPLY < <(compgen -W "$(_assbin_verbs "$program")" -- "$cur")
        fi
        return 0
    fi

    # The word an option takes.
    case $prev in
    --format) mapfile -t COMPREPLY < <(compgen -W "aem glb gltf" -- "$cur"); return 0 ;;
    --layout) mapfile -t COMPREPLY < <(compgen -W "2024 2025" -- "$cur"); return 0 ;;
    --view) mapfile -t COMPREPLY < <(compgen -W "front back left right top iso" -- "$cur"); return 0 ;;
    --out-dir | --texture-dir)
        compopt -o filenames 2>/dev/null || true
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        return 0
        ;;
    -o | --output | --sheet | --html | --known-failures)
        compopt -o filenames 2>/dev/null || true
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return 0
        ;;
    --jobs | -j | --size | --yaw | --pitch | --time | --anim | --epsilon | --relative | --ulps | --max-diffs | \
        --ignore | --uv-channel | --ticks-per-second | --crease-angle | --max-texture-size | --depth | \
        --max-nodes | --background | --source-name | --pose | --max-inflated-mb | --max-inflate-ratio | \
        --max-node-depth | --max-allocation-ratio)
        return 0 # a number or a name: nothing to offer
        ;;
    esac

    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_assbin_verb_options "$program" "$verb")" -- "$cur")
    else
        compopt -o filenames 2>/dev/null || true
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
    return 0
}

complete -F _assbin assbin
