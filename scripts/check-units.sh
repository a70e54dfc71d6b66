#!/usr/bin/env bash
# Checks systemd/showcased.{service,socket} without systemd as PID 1:
#   1. `systemd-analyze verify` on both units; it exits 0 on unknown keys and bad values, so any
#      output on stderr is a failure too;
#   2. `systemd-analyze security --offline=yes` on the service rates it 2.0 or lower (the hardening target README states).
#      --threshold= counts on the internal 0–100 scale (the printed level is that divided by ten;
#      systemd 252 fails `--threshold=2` for a level of 1.2), so 2.0 is --threshold=20; the printed
#      level is checked as well, independently of that scale;
#   3. the two units agree with each other and with the documented paths (socket path, owner, mode).
# verify insists that ExecStart=/ExecReload= binaries exist, so it runs on a temporary copy whose
# paths point at the built binaries (SHOWCASED/SHOWCASECTL, default: `swift build`'s bin path), and
# that Documentation=man: pages exist, so it gets a MANPATH built from the repository's man/.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "check-units: FAIL: $*" >&2; exit 1; }

command -v systemd-analyze >/dev/null || fail "systemd-analyze is missing (make deps installs the systemd package)"

units=${UNIT_DIR:-systemd}
bin_dir=${BIN_DIR:-$(swift build --show-bin-path 2>/dev/null)}
showcased=${SHOWCASED:-$bin_dir/showcased}
showcasectl=${SHOWCASECTL:-$bin_dir/showcasectl}
[ -x "$showcased" ] || fail "no built showcased at $showcased (run swift build first)"
[ -x "$showcasectl" ] || fail "no built showcasectl at $showcasectl (run swift build first)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/units"
sed -e "s#/usr/local/bin/showcasectl#$showcasectl#g" -e "s#/usr/local/bin/showcased#$showcased#g" \
    "$units/showcased.service" >"$work/units/showcased.service"
cp "$units/showcased.socket" "$work/units/showcased.socket"
# The export's sync pair (shipped disabled) is verified with them.
sync_units=(showcase-export-sync.path showcase-export-sync.service)
for unit in "${sync_units[@]}"; do cp "$units/$unit" "$work/units/$unit"; done

# Documentation=man:NAME(N) is checked with `man`: give it the repository's pages.
man_args=()
if compgen -G 'man/*.[0-9]' >/dev/null; then
    for page in man/*.[0-9]; do
        section=${page##*.}
        mkdir -p "$work/man/man$section"
        cp "$page" "$work/man/man$section/"
    done
    export MANPATH="$work/man"
else
    echo "check-units: note: man/ has no pages yet; verifying without the Documentation= check"
    man_args=(--man=no)
fi

# 1. verify: exit status and stderr both count.
(cd "$work/units" && systemd-analyze verify "${man_args[@]}" ./showcased.service ./showcased.socket \
    "${sync_units[@]/#/./}") \
    2>"$work/verify.err" || { cat "$work/verify.err" >&2; fail "systemd-analyze verify exited non-zero"; }
if [ -s "$work/verify.err" ]; then
    cat "$work/verify.err" >&2
    fail "systemd-analyze verify printed warnings (it exits 0 on unknown keys; stderr is the signal)"
fi
echo "check-units: systemd-analyze verify: clean"

# 2. security exposure.
if ! (cd "$work/units" && systemd-analyze security --offline=yes --threshold=20 ./showcased.service) \
    >"$work/security.out" 2>&1; then
    grep -E '✗|Overall' "$work/security.out" >&2 || cat "$work/security.out" >&2
    fail "systemd-analyze security exposure is above 2.0"
fi
level=$(sed -n 's/.*Overall exposure level for showcased.service: \([0-9.]*\).*/\1/p' "$work/security.out")
[ -n "$level" ] || { cat "$work/security.out" >&2; fail "no overall exposure level in systemd-analyze security's output"; }
awk -v l="$level" 'BEGIN { exit !(l <= 2.0) }' || fail "exposure level $level is above 2.0"
echo "check-units: systemd-analyze security --offline=yes: exposure $level (limit 2.0)"

# 3. consistency between the units (and with the documented paths).
key() { sed -n "s/^$2=//p" "$1" | tail -n 1; }
svc=$units/showcased.service
sock=$units/showcased.socket
[ "$(key $sock ListenStream)" = /run/showcase/showcased.sock ] || fail "$sock: ListenStream must be /run/showcase/showcased.sock"
[ "$(key $sock SocketMode)" = 0660 ] || fail "$sock: SocketMode must be 0660"
[ "$(key $sock SocketUser)" = "$(key $svc User)" ] || fail "SocketUser= differs from the service's User="
[ "$(key $sock SocketGroup)" = "$(key $svc Group)" ] || fail "SocketGroup= differs from the service's Group="
[ "$(key $svc Type)" = notify ] || fail "$svc: Type must be notify"
[ "$(key $svc RuntimeDirectory)" = showcase ] || fail "$svc: RuntimeDirectory must be showcase"
[ "$(key $svc RuntimeDirectoryPreserve)" = yes ] \
    || fail "$svc: RuntimeDirectoryPreserve=yes is needed, or stopping the service deletes the activated socket"
[ "$(key $svc CacheDirectory)" = showcase ] || fail "$svc: CacheDirectory must be showcase"
[ "$(key $svc ConfigurationDirectory)" = showcase ] || fail "$svc: ConfigurationDirectory must be showcase"
grep -q '^ReadWritePaths=.*/var/lib/prometheus/node-exporter' "$svc" \
    || fail "$svc: ReadWritePaths= must make node_exporter's textfile directory writable for metrics.textfile"
[ "$(key $svc StateDirectory)" = showcase ] \
    || fail "$svc: StateDirectory must be showcase (the export lives in /var/lib/showcase/export)"
case "$(key $svc ExecReload)" in *showcasectl*reload*) ;; *) fail "$svc: ExecReload must wait for the outcome (showcasectl reload)" ;; esac
grep -q "^u $(key $svc User) " "$units/showcase.sysusers" || fail "$units/showcase.sysusers does not create the service's user"
sync_path=$units/showcase-export-sync.path
sync_service=$units/showcase-export-sync.service
[ "$(key $sync_path PathChanged)" = /var/lib/showcase/export/v1/index.json ] \
    || fail "$sync_path: PathChanged must watch the export's index.json under StateDirectory=showcase"
[ "$(key $sync_path Unit)" = showcase-export-sync.service ] || fail "$sync_path: Unit must be showcase-export-sync.service"
grep -q '^#.*ExecStart=/usr/bin/rclone sync --checksum' "$sync_service" \
    || fail "$sync_service: the commented rclone sync --checksum ExecStart is missing"
[ "$(key $sync_service User)" = "$(key $svc User)" ] || fail "$sync_service: must read the export as the daemon's user"
echo "check-units: units agree with each other and with the documented paths"
echo "check-units: 3 passed, 0 failed"
