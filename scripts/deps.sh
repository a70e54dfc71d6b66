#!/usr/bin/env bash
# Installs what a fresh Debian machine with only the Swift toolchain lacks, and nothing else.
# Each package is installed only when the thing it provides is missing; never interactive.
#   scripts/deps.sh build   what building needs (make build, make demo: works offline when present)
#   scripts/deps.sh [all]   also what make test, make release and make install need
set -euo pipefail
profile=${1:-all}
case $profile in build | all) ;; *) echo "usage: scripts/deps.sh [build|all]" >&2; exit 64 ;; esac

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if ! pkg-config --exists yaml-0.1 2>/dev/null; then missing+=(libyaml-dev); fi
# ShowcaseExport's .json.gz files: zlib through a module map (Sources/CZlib), like libyaml.
if ! pkg-config --exists zlib 2>/dev/null; then missing+=(zlib1g-dev); fi
# The daemon's upstream transport (Sources/CCurl) drives libcurl directly: its headers and the
# OpenSSL flavour's library, which the static release build links too.
installed libcurl4-openssl-dev || missing+=(libcurl4-openssl-dev)
if [ "$profile" = all ]; then
    # scripts/check-units.sh: `systemd-analyze verify` and `systemd-analyze security --offline=yes`
    # (systemd as PID 1 is not needed), and `man` for the units' Documentation= lines.
    command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
    command -v man >/dev/null 2>&1 || missing+=(man-db)
    # showcasectl's tests render the man pages (man -l) and load the zsh completion (zsh -n, compinit).
    command -v zsh >/dev/null 2>&1 || missing+=(zsh)
    # ... and the fish completion in a real fish.
    command -v fish >/dev/null 2>&1 || missing+=(fish)
    # The metrics tests validate the exposition text with `promtool check metrics` (Debian ships promtool in
    # the prometheus package; nothing is started: the package's service is only enabled where systemd runs).
    command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
    # `make deb` and its check (scripts/deb.sh, scripts/check-deb.sh): debhelper builds the package (no
    # fakeroot: Rules-Requires-Root: no), lintian judges it, debootstrap makes the throwaway Debian root it is
    # installed into.
    command -v dh >/dev/null 2>&1 || missing+=(debhelper)
    command -v dpkg-architecture >/dev/null 2>&1 || missing+=(dpkg-dev)
    command -v lintian >/dev/null 2>&1 || missing+=(lintian)
    command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
    # scripts/hardening-smoke.sh: setpriv and unshare (util-linux), a C compiler and the kernel
    # headers for the seccomp helper, python3 for the notify socket and the TLS front, openssl and
    # the CA bundle for HTTPS.
    command -v setpriv >/dev/null 2>&1 || missing+=(util-linux)
    command -v unshare >/dev/null 2>&1 || missing+=(util-linux)
    command -v cc >/dev/null 2>&1 || missing+=(gcc)
    [ -f /usr/include/linux/seccomp.h ] || missing+=(linux-libc-dev)
    command -v python3 >/dev/null 2>&1 || missing+=(python3)
    command -v openssl >/dev/null 2>&1 || missing+=(openssl)
    [ -f /etc/ssl/certs/ca-certificates.crt ] || missing+=(ca-certificates)
    # scripts/check-export-web.sh: the static export served by nginx (unprivileged, loopback), fetched
    # with curl, and the example widget rendered by headless Chromium.
    command -v nginx >/dev/null 2>&1 || missing+=(nginx)
    command -v chromium >/dev/null 2>&1 || missing+=(chromium)
    command -v curl >/dev/null 2>&1 || missing+=(curl)
    # scripts/check-export-sync.sh: showcase-export-sync.service's rclone command run against a real SFTP
    # server (sshd started by the check on a loopback port with its own config; ssh-keygen makes its keys).
    # Only the binary is wanted: see below for the system service the package would otherwise start.
    command -v rclone >/dev/null 2>&1 || missing+=(rclone)
    [ -x /usr/sbin/sshd ] || missing+=(openssh-server)
    command -v ssh-keygen >/dev/null 2>&1 || missing+=(openssh-client)
fi

if [ "${#missing[@]}" -gt 0 ]; then
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
    echo "deps: installing ${missing[*]}"
    if [ "$(id -u)" -ne 0 ]; then
        echo "deps: need root to install ${missing[*]} (run: sudo apt-get install -y ${missing[*]})" >&2
        exit 1
    fi
    # openssh-server's postinst enables and starts a system sshd on port 22 wherever systemd runs. A test
    # dependency must not open a login service: Debian's own switch, /etc/ssh/sshd_not_to_be_run, keeps
    # ssh.service and ssh.socket from starting (remove the file to use sshd as a service).
    if printf '%s\n' "${missing[@]}" | grep -qx openssh-server && ! installed openssh-server \
        && [ ! -e /etc/ssh/sshd_not_to_be_run ]; then
        echo "deps: openssh-server is for scripts/check-export-sync.sh only; creating /etc/ssh/sshd_not_to_be_run so no system sshd starts"
        mkdir -p /etc/ssh
        echo "created by showcase's scripts/deps.sh: openssh-server is installed for make test only" >/etc/ssh/sshd_not_to_be_run
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
