#!/usr/bin/env bash
# Run by `make test` (ship-checks): each Makefile target installs only the Debian packages its profile in
# scripts/deps.sh names (SPEC §17: `make install` installs what building and running needs; the test tools are
# installed by `make test` alone). For each target, the profiles its recipe calls are read from `make -n`
# (nothing is built or installed) and their packages from `scripts/deps.sh --dry-run`, which lists them
# whether or not this machine has them.
set -euo pipefail
cd "$(dirname "$0")/.."

passed=0
fail() { echo "check-deps: FAIL: $*" >&2; exit 1; }
ok() { passed=$((passed + 1)); echo "check-deps: ok: $*"; }

# The packages TARGET's recipes (and its prerequisites') would have scripts/deps.sh install.
packages_of() {
    local target=$1 profiles
    profiles=$(${MAKE:-make} --no-print-directory -n "$target" PREFIX=/usr DESTDIR=/nonexistent \
        | sed -n 's#^\(.*/\)\{0,1\}scripts/deps\.sh\( \(.*\)\)\{0,1\}$#[\3]#p' | sort -u)
    [ -n "$profiles" ] || fail "make $target calls no scripts/deps.sh profile"
    local p
    # `[]` is a call without a profile: scripts/deps.sh's default.
    for p in $profiles; do p=${p#[}; p=${p%]}; scripts/deps.sh --dry-run $p; done | sort -u
}

# refuse TARGET PACKAGE…: TARGET's packages include none of PACKAGE….
refuse() {
    local target=$1 packages found=()
    shift
    packages=$(packages_of "$target")
    local p
    for p in "$@"; do grep -qx "$p" <<<"$packages" && found+=("$p"); done
    [ "${#found[@]}" -eq 0 ] || fail "make $target would install ${found[*]} (its packages: $(echo $packages))"
    ok "make $target installs $(echo $packages): none of $*"
}
# require TARGET PACKAGE…: TARGET's packages include every PACKAGE….
require() {
    local target=$1 packages
    shift
    packages=$(packages_of "$target")
    local p
    for p in "$@"; do grep -qx "$p" <<<"$packages" || fail "make $target would not install $p (its packages: $(echo $packages))"; done
    ok "make $target installs $*"
}

test_tools=(chromium chromium-driver python3-selenium default-jre-headless nginx prometheus lintian debootstrap fish zsh
    systemd man-db)
build_packages=(pkg-config libyaml-dev zlib1g-dev libcurl4-openssl-dev libcmark-gfm-dev libcmark-gfm-extensions-dev
    iso-codes)
for target in install release build demo try; do
    require "$target" "${build_packages[@]}"
    refuse "$target" "${test_tools[@]}" debhelper dpkg-dev
done
# make demo and make try point configurations at the offline replay with Python's yaml module; make install has
# no use for it.
require demo python3-yaml
require try python3-yaml
refuse install python3-yaml
require deb "${build_packages[@]}" debhelper dpkg-dev lintian
refuse deb chromium chromium-driver default-jre-headless nginx prometheus debootstrap fish zsh
require test "${build_packages[@]}" debhelper lintian chromium chromium-driver python3-selenium default-jre-headless \
    nginx prometheus debootstrap zsh fish systemd

echo "check-deps: $passed passed, 0 failed"
