# bash completion for showcased(8): its flags, and file or directory names after those that take them.
# Install: source it from ~/.bashrc, or copy to /usr/share/bash-completion/completions/showcased.
# Needs only bash (not the bash-completion package).

_showcased() {
    local cur prev word i once=0
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev=""
    if ((COMP_CWORD > 0)); then prev="${COMP_WORDS[COMP_CWORD - 1]}"; fi
    case "$prev" in
    --config | --socket)
        COMPREPLY=($(compgen -f -- "$cur"))
        return 0
        ;;
    --cache-dir)
        COMPREPLY=($(compgen -d -- "$cur"))
        return 0
        ;;
    --max-wait)
        COMPREPLY=($(compgen -W "30s 1m 5m 10m 30m" -- "$cur"))
        return 0
        ;;
    esac
    for ((i = 1; i < COMP_CWORD; i++)); do
        word="${COMP_WORDS[i]}"
        [[ "$word" == "--once" ]] && once=1
    done
    # --once opens no socket; --max-wait and --json only mean something with it.
    local flags="--config --cache-dir --once --socket --help --version"
    if ((once)); then flags="--config --cache-dir --max-wait --json"; fi
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    return 0
}

complete -F _showcased showcased
