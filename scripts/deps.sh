#!/usr/bin/env bash
# Installs what a fresh Debian machine with only the Swift toolchain lacks, and nothing else.
# Each package is installed only when the thing it provides is missing; never interactive.
set -euo pipefail

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if ! pkg-config --exists yaml-0.1 2>/dev/null; then missing+=(libyaml-dev); fi
# showcasectl's tests render the man pages (man -l) and load the zsh completion (zsh -n, compinit).
command -v man >/dev/null 2>&1 || missing+=(man-db)
command -v zsh >/dev/null 2>&1 || missing+=(zsh)

if [ "${#missing[@]}" -gt 0 ]; then
    echo "deps: installing ${missing[*]}"
    if [ "$(id -u)" -ne 0 ]; then
        echo "deps: need root to install ${missing[*]} (run: sudo apt-get install -y ${missing[*]})" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
