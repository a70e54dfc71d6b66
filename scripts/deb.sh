#!/usr/bin/env bash
# `make deb`: builds .build/deb/showcase_<version>_<arch>.deb the Debian way (debian/, debhelper compat 13, dh),
# then has lintian judge it: any error or warning fails the build; every override (informational tags only) is
# explained in debian/showcase.lintian-overrides.
#
# The version comes from Sources/ShowcaseCore/ShowcaseVersion.swift (the one place it is written): this script
# writes debian/changelog from it (the file is generated, not kept in git), then runs `debian/rules binary`,
# which builds the release binaries (shared with `make release`/`make install`) and stages them with
# scripts/install.sh PREFIX=/usr. Prints the package's path last.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "deb: $*" >&2; exit 1; }

version=$(sed -n 's/^ *public static let string = "\([^"]*\)"$/\1/p' Sources/ShowcaseCore/ShowcaseVersion.swift)
[[ "$version" =~ ^[0-9][0-9A-Za-z.+~-]*$ ]] \
    || fail "cannot read a Debian-compatible version from Sources/ShowcaseCore/ShowcaseVersion.swift (got '$version')"
arch=$(dpkg --print-architecture)
out=$PWD/.build/deb
deb=$out/showcase_${version}_${arch}.deb
mkdir -p "$out"
rm -f "$deb"

# A native package (debian/source/format): the version is the release number itself. The date is the last
# commit's, so two builds of one commit write the same changelog.
date=$(git log -1 --format=%cD 2>/dev/null || date -R)
cat >debian/changelog <<CHANGELOG
showcase ($version) unstable; urgency=medium

  * Release $version (ShowcaseVersion.swift); changes: the git history.

 -- showcased maintainers <maintainers@showcased.invalid>  $date
CHANGELOG

echo "deb: building showcase $version for $arch (release binaries, static Swift runtime)"
DEB_DESTDIR="$out" SWIFT="${SWIFT:-swift}" debian/rules binary >"$out/build.log" 2>&1 \
    || { tail -n 40 "$out/build.log" >&2; fail "debian/rules binary failed (whole log: $out/build.log)"; }
[ -f "$deb" ] || fail "debian/rules binary did not produce $deb (log: $out/build.log)"

echo "deb: lintian $deb"
lintian --fail-on error,warning --display-info --tag-display-limit 0 "$deb" | tee "$out/lintian.log" \
    || fail "lintian reports errors or warnings (above); fix them, or override one in debian/showcase.lintian-overrides with why"
echo "deb: $deb"
