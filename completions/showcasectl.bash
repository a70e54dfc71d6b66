# bash completion for showcasectl(1): commands, flags, storefront codes.
# Install: source it from ~/.bashrc, or copy to /usr/share/bash-completion/completions/showcasectl.
# Needs only bash (not the bash-completion package).

# Every App Store storefront, alpha-2 (alpha-3 and upper case are accepted too).
_showcasectl_storefronts="ae ag ai al am ao ar at au az ba bb be bf bg bh bj bm bn bo br bs bt bw by bz ca cd cg ch ci cl cm cn co cr cv cy cz de dk dm do dz ec ee eg es fi fj fm fr ga gb gd ge gh gm gr gt gw gy hk hn hr hu id ie il in iq is it jm jo jp ke kg kh kn kr kw ky kz la lb lc lk lr lt lu lv ly ma md me mg mk ml mm mn mo mr ms mt mu mv mw mx my mz na ne ng ni nl no np nr nz om pa pe pg ph pk pl pt pw py qa ro rs ru rw sa sb sc se sg si sk sl sn sr st sv sz tc td th tj tm tn to tr tt tw tz ua ug us uy uz vc ve vg vn vu ye za zm zw"

_showcasectl() {
    local cur prev option cmd i word
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev=""
    if ((COMP_CWORD > 0)); then prev="${COMP_WORDS[COMP_CWORD - 1]}"; fi
    # --flag=value: bash splits at '=' (COMP_WORDBREAKS), so the flag is two words back.
    if [[ "$cur" == "=" ]]; then
        option="$prev"
        cur=""
    elif [[ "$prev" == "=" ]] && ((COMP_CWORD > 1)); then
        option="${COMP_WORDS[COMP_CWORD - 2]}"
    else
        option="$prev"
    fi

    local commands="roster app storefronts watch status reload refresh check-config check export metrics changes version help"
    local globals="--socket --config --json --help --version"

    cmd=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        word="${COMP_WORDS[i]}"
        case "$word" in
        --socket | --config)
            if [[ "${COMP_WORDS[i + 1]}" != "=" ]]; then ((i++)); fi
            ;;
        -* | =) ;;
        *)
            if [[ "${COMP_WORDS[i - 1]}" != "=" ]]; then
                cmd="$word"
                break
            fi
            ;;
        esac
    done

    case "$option" in
    --storefront)
        COMPREPLY=($(compgen -W "$_showcasectl_storefronts" -- "${cur,,}"))
        return 0
        ;;
    --platform)
        COMPREPLY=($(compgen -W "ios macos" -- "$cur"))
        return 0
        ;;
    --device)
        COMPREPLY=($(compgen -W "iphone ipad watch tv vision" -- "$cur"))
        return 0
        ;;
    --socket | --config)
        COMPREPLY=($(compgen -f -- "$cur"))
        return 0
        ;;
    --host | --os-version | --locale | --wait | --max-age | --since | --limit)
        COMPREPLY=()
        return 0
        ;;
    esac

    local flags=""
    case "$cmd" in
    roster) flags="--storefront --host --platform --device --os-version --locale --wait" ;;
    app) flags="--storefront --host" ;;
    changes) flags="--storefront --host --since --limit --locale" ;;
    watch | refresh) flags="--storefront" ;;
    check) flags="--max-age" ;;
    esac

    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$flags $globals" -- "$cur"))
    elif [[ -z "$cmd" ]]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
    elif [[ "$cmd" == "check-config" ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    elif [[ "$cmd" == "help" ]]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    fi
    return 0
}

complete -F _showcasectl showcasectl
