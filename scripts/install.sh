#!/usr/bin/env bash
# `make install` / `make uninstall`. Usage: scripts/install.sh install|uninstall
#
# Environment (the Makefile passes these): DESTDIR (staging root, default empty), PREFIX (default
# /usr/local), SYSCONFDIR (default /etc), BIN_DIR (where the release binaries were built).
#
# Installs:  PREFIX/bin/{showcased,showcasectl}
#            PREFIX/lib/systemd/system/showcased.{service,socket}  (ExecStart= → PREFIX/bin)
#            PREFIX/lib/systemd/system/showcase-export-sync.{path,service}  (installed disabled)
#            PREFIX/lib/sysusers.d/showcase.conf                    (the "showcase" system user)
#            SYSCONFDIR/showcase/…  from etc/showcase/, never overwriting an existing file
#            PREFIX/share/man/manN/…  from man/*.N
#            PREFIX/share/bash-completion/completions/showcasectl, PREFIX/share/fish/vendor_completions.d/showcasectl.fish,
#            the zsh completion _showcasectl in ZSH_COMPLETION_DIR: by default PREFIX/share/zsh/site-functions,
#            but /usr/share/zsh/vendor-completions for PREFIX=/usr (and the same three for showcased; Debian's zsh has /usr/local/share/zsh/site-functions
#            and /usr/share/zsh/vendor-completions on $fpath, not /usr/share/zsh/site-functions)
#            PREFIX/share/showcase/web/{showcase-widget.js,showcase-widget.css,index.html}  from examples/web/
#            PREFIX/share/showcase/install-manifest  (what `uninstall` removes, and nothing else)
# Manifest lines: "f PATH" a file we installed; "c SHA256 PATH" a configuration file we installed
# (removed only while unchanged: an edited configuration is the operator's); "d PATH" a directory
# we created (removed only when empty). Paths are without DESTDIR.
set -euo pipefail
cd "$(dirname "$0")/.."

action=${1:?usage: scripts/install.sh install|uninstall}
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
SYSCONFDIR=${SYSCONFDIR:-/etc}
case $PREFIX:$SYSCONFDIR in
    /*:/*) ;;
    *) echo "install: PREFIX ($PREFIX) and SYSCONFDIR ($SYSCONFDIR) must be absolute paths; pass e.g. PREFIX=/usr" >&2; exit 64 ;;
esac
if [ "$PREFIX" = /usr ]; then
    ZSH_COMPLETION_DIR=${ZSH_COMPLETION_DIR:-/usr/share/zsh/vendor-completions}
else
    ZSH_COMPLETION_DIR=${ZSH_COMPLETION_DIR:-$PREFIX/share/zsh/site-functions}
fi
manifest_rel=$PREFIX/share/showcase/install-manifest
manifest=$DESTDIR$manifest_rel

live_systemd() { [ -z "$DESTDIR" ] && [ -d /run/systemd/system ] && [ "$(id -u)" -eq 0 ]; }

install_main() {
    local bin_dir=${BIN_DIR:?BIN_DIR must name the release build directory}
    local entries=()
    local -A seen=()
    # A reinstall keeps the directories and configuration files an earlier install created.
    if [ -f "$manifest" ]; then
        while read -r kind rest; do
            case $kind in d | c) entries+=("$kind $rest") ;; esac
        done <"$manifest"
    fi
    for e in "${entries[@]}"; do seen[$e]=1; done
    add() { [ -n "${seen[$1]:-}" ] || { entries+=("$1"); seen[$1]=1; }; }

    mkdirs() { # create a directory (and parents), recording the ones that did not exist
        local missing=() d=$1
        # Stops at / as well: DESTDIR itself is made below, and $DESTDIR/ of a fresh DESTDIR is
        # not a directory yet, so "until it exists" alone would walk dirname / forever.
        while [ "$d" != / ] && [ ! -d "$DESTDIR$d" ]; do missing=("$d" "${missing[@]}"); d=$(dirname "$d"); done
        for d in "${missing[@]}"; do
            install -d -m 0755 "$DESTDIR$d"
            add "d $d"
        done
    }
    put() { # put MODE SOURCE DEST
        mkdirs "$(dirname "$3")"
        install -m "$1" "$2" "$DESTDIR$3"
        add "f $3"
        echo "  $3"
    }

    echo "install: into ${DESTDIR:-/} (PREFIX=$PREFIX, SYSCONFDIR=$SYSCONFDIR)"
    # A staging root that does not exist yet is the usual packaging call: create it (it is not ours
    # to remove, so it is not in the manifest).
    [ -z "$DESTDIR" ] || install -d -m 0755 "$DESTDIR"
    for exe in showcased showcasectl; do
        [ -x "$bin_dir/$exe" ] || { echo "install: no built $exe in $bin_dir" >&2; exit 1; }
        put 0755 "$bin_dir/$exe" "$PREFIX/bin/$exe"
    done

    local tmp
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' RETURN
    for unit in showcased.service showcased.socket; do
        sed "s#/usr/local/bin/#$PREFIX/bin/#g" "systemd/$unit" >"$tmp/$unit"
        put 0644 "$tmp/$unit" "$PREFIX/lib/systemd/system/$unit"
    done
    # The export's sync pair is installed, never enabled: it needs the operator's rclone remote first.
    for unit in showcase-export-sync.path showcase-export-sync.service; do
        put 0644 "systemd/$unit" "$PREFIX/lib/systemd/system/$unit"
    done
    put 0644 systemd/showcase.sysusers "$PREFIX/lib/sysusers.d/showcase.conf"

    # Configuration: copied only where nothing exists yet.
    if [ -d etc/showcase ]; then
        while IFS= read -r -d '' src; do
            local dest=$SYSCONFDIR/showcase/${src#etc/showcase/}
            if [ -e "$DESTDIR$dest" ]; then
                echo "  $dest exists: kept as it is (the shipped version is $src)"
                continue
            fi
            mkdirs "$(dirname "$dest")"
            install -m 0644 "$src" "$DESTDIR$dest"
            add "c $(sha256sum <"$DESTDIR$dest" | cut -d' ' -f1) $dest"
            echo "  $dest"
        done < <(find etc/showcase -type f -print0 | sort -z)
    fi

    local page section
    for page in man/*.[0-9]; do
        [ -e "$page" ] || continue
        section=${page##*.}
        put 0644 "$page" "$PREFIX/share/man/man$section/$(basename "$page")"
    done

    local bash_completion zsh_completion
    bash_completion=$(ls completions/showcasectl.bash completions/showcasectl 2>/dev/null | head -n 1 || true)
    zsh_completion=$(ls completions/_showcasectl completions/showcasectl.zsh 2>/dev/null | head -n 1 || true)
    [ -z "$bash_completion" ] || put 0644 "$bash_completion" "$PREFIX/share/bash-completion/completions/showcasectl"
    [ -z "$zsh_completion" ] || put 0644 "$zsh_completion" "$ZSH_COMPLETION_DIR/_showcasectl"
    # fish reads vendor completions from <data dir>/fish/vendor_completions.d for each XDG_DATA_DIRS entry
    # (/usr/local/share and /usr/share by default).
    [ ! -f completions/showcasectl.fish ] \
        || put 0644 completions/showcasectl.fish "$PREFIX/share/fish/vendor_completions.d/showcasectl.fish"
    # showcased's own (its flags: --once for a static site's CI run, --cache-dir, --max-wait…).
    [ ! -f completions/showcased.bash ] \
        || put 0644 completions/showcased.bash "$PREFIX/share/bash-completion/completions/showcased"
    [ ! -f completions/_showcased ] || put 0644 completions/_showcased "$ZSH_COMPLETION_DIR/_showcased"
    [ ! -f completions/showcased.fish ] \
        || put 0644 completions/showcased.fish "$PREFIX/share/fish/vendor_completions.d/showcased.fish"

    # The web widget (SPEC §14): the script, its stylesheet (which also styles the daemon's HTML fragments) and
    # the example page, for a site to copy or serve from here.
    local asset
    for asset in showcase-widget.js showcase-widget.css index.html; do
        put 0644 "examples/web/$asset" "$PREFIX/share/showcase/web/$asset"
    done

    mkdirs "$(dirname "$manifest_rel")"
    add "f $manifest_rel"
    printf '%s\n' "${entries[@]}" >"$tmp/manifest"
    install -m 0644 "$tmp/manifest" "$manifest"
    echo "  $manifest_rel (what make uninstall removes)"

    if live_systemd; then
        command -v systemd-sysusers >/dev/null && systemd-sysusers "$PREFIX/lib/sysusers.d/showcase.conf"
        systemctl daemon-reload
        echo "install: done. Start it with: systemctl enable --now showcased.socket showcased.service"
    else
        echo "install: done. On the target machine: systemd-sysusers; systemctl daemon-reload;"
        echo "         systemctl enable --now showcased.socket showcased.service"
    fi
}

uninstall_main() {
    if [ ! -f "$manifest" ]; then
        echo "uninstall: nothing to do: no manifest at $manifest (was it installed with this DESTDIR and PREFIX?)" >&2
        exit 0
    fi
    local dirs=() kind a b
    while read -r kind a b; do
        case $kind in
            f) rm -f "$DESTDIR$a" && echo "  removed $a" ;;
            c)
                if [ -f "$DESTDIR$b" ] && [ "$(sha256sum <"$DESTDIR$b" | cut -d' ' -f1)" = "$a" ]; then
                    rm -f "$DESTDIR$b" && echo "  removed $b"
                elif [ -e "$DESTDIR$b" ]; then
                    echo "  kept $b: edited since it was installed"
                fi
                ;;
            d) dirs+=("$a") ;;
        esac
    done <"$manifest"
    # Deepest first; a directory that still holds something not ours stays.
    local d
    while IFS= read -r d; do
        [ -n "$d" ] || continue
        rmdir "$DESTDIR$d" 2>/dev/null && echo "  removed $d/" || true
    done < <(printf '%s\n' "${dirs[@]}" | awk '{ print length($0) "\t" $0 }' | sort -rn | cut -f2-)
    if live_systemd; then systemctl daemon-reload; fi
    echo "uninstall: done (the \"showcase\" user and /var/cache/showcase are left in place)"
}

case $action in
    install) install_main ;;
    uninstall) uninstall_main ;;
    *) echo "usage: scripts/install.sh install|uninstall" >&2; exit 64 ;;
esac
