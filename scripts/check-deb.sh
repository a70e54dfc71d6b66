#!/usr/bin/env bash
# Run by `make test` after `make deb`: the package in a throwaway Debian root (a debootstrap --variant=minbase
# of this machine's release, chroot'ed into inside a private mount namespace; no systemd runs there, as in a
# container or an image build, so the maintainer scripts take their no-systemd paths):
#   install   files where Debian wants them, conffiles registered, the user created, the socket enabled the
#             way deb-systemd-helper does and the service not, binaries that run without the Swift toolchain
#             (check-config accepts the shipped configuration);
#   upgrade   over itself, with an operator's edit of a conffile and a warm cache: both survive;
#   remove    binaries and units gone, configuration and cache kept;
#   purge     nothing of the package left: the tree is what it was before the install, except the kept user.
# The root is made once per machine and cached as /var/cache/showcase-ci/debootstrap-<release>-<key>.tar (key: a
# hash of the variant and package list; $SHOWCASE_CI_CACHE moves the folder), about 2 minutes from the Debian mirror
# apt uses, or $DEBIAN_MIRROR; later runs, from any clone, unpack it in seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

passed=0
fail() { echo "check-deb: FAIL: $*" >&2; exit 1; }
ok() { passed=$((passed + 1)); echo "check-deb: ok: $*"; }

version=$(sed -n 's/^ *public static let string = "\([^"]*\)"$/\1/p' Sources/ShowcaseCore/ShowcaseVersion.swift)
deb=.build/deb/showcase_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || fail "no $deb: run make deb first"
[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot, a private mount namespace)"

# --- the cached Debian root -------------------------------------------------------------------------------
. /etc/os-release
release=${VERSION_CODENAME:?/etc/os-release names no VERSION_CODENAME}
mirror=${DEBIAN_MIRROR:-$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null \
    | head -n 1)}
mirror=${mirror:-http://deb.debian.org/debian}
# What the package needs beyond minbase: its own Depends: (the first of each alternative, without versions), so
# dpkg -i needs no network later, and a new library (cmark-gfm's packages name their version) is never missed.
include=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | grep . | sort -u | paste -sd,)
[ -n "$include" ] || fail "$deb has no Depends:"
# The root outlives the clone: CI runs from a fresh clone each time, so a cache under .build/ was never found
# again. It is keyed by release and package list (a changed list makes a new root), made when absent, and
# published by a rename, so a run killed halfway leaves no half-made root for the next to find.
cache_dir=${SHOWCASE_CI_CACHE:-/var/cache/showcase-ci}
key=$(printf '%s\n' minbase "$include" | sha256sum | cut -c1-12)
cache=$cache_dir/debootstrap-$release-$key.tar
if [ ! -f "$cache" ]; then
    mkdir -p "$cache_dir"
    base=$(mktemp -d "$cache_dir/debootstrap-$release-$key.XXXXXX")
    trap 'rm -rf "$base" "$base.tar" "$base.log"' EXIT
    echo "check-deb: debootstrap $release from $mirror (once; cached as $cache)"
    scripts/step.sh debootstrap 20m debootstrap --variant=minbase --include="$include" "$release" "$base" "$mirror" \
        >"$base.log" 2>&1 || { tail -n 20 "$base.log" >&2; rm -f "$base.log"; fail "debootstrap failed or timed out"; }
    rm -f "$base.log"
    tar -C "$base" -cf "$base.tar" . && mv "$base.tar" "$cache"
    rm -rf "$base"
    trap - EXIT
fi
root=$(mktemp -d /tmp/showcase-deb-root.XXXXXX)
trap 'rm -rf "$root"' EXIT
tar -C "$root" -xf "$cache"
cp "$deb" "$root/tmp/showcase.deb"

# Runs a command in the root: own mount namespace (nothing mounted leaks out), /proc for the scripts, a clean
# environment. Its exit status is the command's.
in_root() {
    unshare --mount --propagation private -- sh -c '
        root=$1; shift
        mount -t proc proc "$root/proc" || exit 70
        exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"' sh "$root" "$@"
}
# The root's file list, without what dpkg and the system keep about themselves.
snapshot() {
    (cd "$root" && find . -xdev -mindepth 1 \( -path ./proc -o -path ./tmp -o -path ./var/lib/dpkg -o -path ./var/log \
        -o -path ./var/cache/debconf -o -path ./var/cache/ldconfig \) -prune -o -print | sort)
}
snapshot >"$root/tmp/before.list"

# --- install ------------------------------------------------------------------------------------------------
in_root dpkg -i /tmp/showcase.deb >"$root/tmp/install.log" 2>&1 || { cat "$root/tmp/install.log" >&2; fail "dpkg -i"; }
for path in usr/bin/showcased usr/bin/showcasectl; do
    [ -x "$root/$path" ] || fail "/$path is not installed"
done
for path in lib/systemd/system/showcased.service lib/systemd/system/showcased.socket usr/lib/sysusers.d/showcase.conf \
    etc/showcase/showcase.yaml etc/showcase/overlay.yaml usr/share/man/man1/showcasectl.1.gz \
    usr/share/man/man5/showcase.yaml.5.gz usr/share/man/man8/showcased.8.gz \
    usr/share/bash-completion/completions/showcasectl usr/share/zsh/vendor-completions/_showcasectl \
    usr/share/fish/vendor_completions.d/showcasectl.fish usr/share/doc/showcase/examples/nginx/showcase.conf \
    usr/share/doc/showcase/copyright usr/share/showcase/web/showcase-widget.js \
    usr/share/showcase/web/showcase-widget.css usr/share/showcase/web/index.html; do
    [ -f "$root/$path" ] || fail "/$path is not installed"
done
grep -qx 'ExecStart=/usr/bin/showcased' "$root/lib/systemd/system/showcased.service" \
    || fail "showcased.service does not start /usr/bin/showcased"
grep -q '^ExecReload=/usr/bin/showcasectl ' "$root/lib/systemd/system/showcased.service" \
    || fail "showcased.service does not reload with /usr/bin/showcasectl"
[ ! -e "$root/usr/share/showcase/install-manifest" ] || fail "the package ships make install's manifest"
ok "files in place: binaries, units (ExecStart=/usr/bin/showcased), sysusers.d, man pages, three completions, nginx example"

# The license (README "License"): debian/copyright in DEP-5 form grants LICENSE's MIT terms, word for word.
copyright=$root/usr/share/doc/showcase/copyright
grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$copyright" \
    || fail "/usr/share/doc/showcase/copyright is not DEP-5 (no Format: line)"
grep -qx 'License: Expat' "$copyright" || fail "/usr/share/doc/showcase/copyright does not say License: Expat (MIT)"
grep -qx 'Copyright: 2026 showcased maintainers' "$copyright" || fail "/usr/share/doc/showcase/copyright names no copyright holder"
diff <(sed -n '/^Permission is hereby granted/,$p' LICENSE) \
    <(sed -n '/^ Permission is hereby granted/,/^[^ ]/p' "$copyright" | sed -e 's/^ //' -e 's/^\.$//') >/dev/null \
    || fail "the license text in /usr/share/doc/showcase/copyright differs from LICENSE"
maintainer=$(dpkg-deb -f "$deb" Maintainer)
[ "$maintainer" = "showcased maintainers <maintainers@showcased.invalid>" ] || fail "the package's Maintainer is $maintainer"
ok "copyright: DEP-5, MIT (Expat) with LICENSE's text; Maintainer: $maintainer"

conffiles=$(in_root dpkg-query -W -f='${Conffiles}\n' showcase | awk 'NF { print $1 }' | sort)
expected=$(cd etc && find showcase -type f | sed 's#^#/etc/#' | sort)
[ "$conffiles" = "$expected" ] || fail "conffiles are [$conffiles], expected every file of etc/showcase: [$expected]"
ok "every file in /etc/showcase is a conffile"

user=$(in_root getent passwd showcase) || fail "postinst did not create the showcase user"
[ "$(echo "$user" | cut -d: -f6,7)" = "/nonexistent:/usr/sbin/nologin" ] || fail "showcase user is $user"
in_root getent group showcase >/dev/null || fail "postinst did not create the showcase group"
[ -L "$root/etc/systemd/system/sockets.target.wants/showcased.socket" ] \
    || fail "showcased.socket is not enabled (no sockets.target.wants link)"
[ ! -e "$root/etc/systemd/system/multi-user.target.wants/showcased.service" ] \
    || fail "showcased.service was enabled, though the shipped configuration names example hosts"
ok "user and group showcase created; showcased.socket enabled, showcased.service left to the operator"

# The chroot holds no Swift toolchain at all: the binaries run on Debian's libraries alone.
in_root showcased --version >"$root/tmp/out" 2>&1 || { cat "$root/tmp/out" >&2; fail "showcased --version"; }
grep -q "$version" "$root/tmp/out" || fail "showcased --version does not print $version: $(cat "$root/tmp/out")"
in_root showcasectl check-config /etc/showcase/showcase.yaml >"$root/tmp/out" 2>&1 \
    || { cat "$root/tmp/out" >&2; fail "showcasectl check-config rejects the shipped /etc/showcase/showcase.yaml"; }
ok "showcased --version and showcasectl check-config /etc/showcase/showcase.yaml work in a root without Swift"

# --- upgrade over itself --------------------------------------------------------------------------------------
echo "# edited by the operator" >>"$root/etc/showcase/showcase.yaml"
cp "$root/etc/showcase/showcase.yaml" "$root/tmp/edited.yaml"
mkdir -p "$root/var/cache/showcase" "$root/var/lib/showcase/export"
echo '{}' >"$root/var/cache/showcase/roster.json"
echo '{}' >"$root/var/lib/showcase/export/index.json"
in_root dpkg -i /tmp/showcase.deb >"$root/tmp/upgrade.log" 2>&1 || { cat "$root/tmp/upgrade.log" >&2; fail "upgrade"; }
cmp -s "$root/etc/showcase/showcase.yaml" "$root/tmp/edited.yaml" || fail "the upgrade lost the operator's edit"
[ -f "$root/var/cache/showcase/roster.json" ] && [ -f "$root/var/lib/showcase/export/index.json" ] \
    || fail "the upgrade removed the cache or the export"
[ "$(in_root dpkg-query -W -f='${Status} ${Version}' showcase)" = "install ok installed $version" ] \
    || fail "after the upgrade showcase is not installed at $version"
ok "upgrade over itself keeps the edited conffile, the cache and the export"

# --- remove ---------------------------------------------------------------------------------------------------
in_root dpkg -r showcase >"$root/tmp/remove.log" 2>&1 || { cat "$root/tmp/remove.log" >&2; fail "dpkg -r"; }
[ ! -e "$root/usr/bin/showcased" ] && [ ! -e "$root/lib/systemd/system/showcased.service" ] \
    || fail "dpkg -r left the binaries or the units"
cmp -s "$root/etc/showcase/showcase.yaml" "$root/tmp/edited.yaml" || fail "dpkg -r removed the configuration"
[ -f "$root/var/cache/showcase/roster.json" ] || fail "dpkg -r removed the cache (only purge may)"
[ "$(in_root dpkg-query -W -f='${Status}' showcase)" = "deinstall ok config-files" ] || fail "state after dpkg -r"
ok "remove: binaries and units gone, configuration and cache kept"

# --- purge ----------------------------------------------------------------------------------------------------
in_root dpkg -P showcase >"$root/tmp/purge.log" 2>&1 || { cat "$root/tmp/purge.log" >&2; fail "dpkg -P"; }
snapshot >"$root/tmp/after.list"
# The kept user's account lines live in files that existed before; only the shadow tools' backups and
# adduser's lock file (/run/adduser) may be new.
left=$(comm -13 "$root/tmp/before.list" "$root/tmp/after.list" | grep -vxE '\./etc/(passwd|group|shadow|gshadow)-|\./run/adduser' || true)
[ -z "$left" ] || { echo "$left" >&2; fail "purge left these behind"; }
gone=$(comm -23 "$root/tmp/before.list" "$root/tmp/after.list")
[ -z "$gone" ] || { echo "$gone" >&2; fail "install and purge removed these, which were there before"; }
in_root dpkg-query -W showcase >/dev/null 2>&1 && fail "dpkg still knows showcase after purge"
ok "purge: configuration, cache, export and unit links gone; the tree is as before (the showcase user is kept)"

echo "check-deb: $passed passed, 0 failed"
