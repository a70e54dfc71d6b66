#!/usr/bin/env bash
# The export tree is hostile ground (SPEC §12, README "Security"): the real showcased, once as root and once as an
# unprivileged user, exports into a tree where an attacker who can write inside it has planted
#   - a storefront folder that is a symlink to a folder outside (documents must not be written there), and one that
#     is a symlink to a 0600 file outside (it must stay 0600: no chmod through a link);
#   - a FIFO at a document's temporary name (the pass must not block; SIGTERM must still stop the daemon);
#   - a hard link at a temporary name to a file outside (it must not be truncated or written);
#   - and, for a bounded number of passes, a racer that swaps a folder the pass creates for a symlink to the 0600
#     file (it must stay 0600 and unchanged).
# Each case also checks that Admin.Export reports what it found, and that nothing outside the tree changed.
# Needs root (to run the second round as uid 65534); fails rather than skipping without it.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

passed=0
fail() {
    echo "check-hostile-export: FAIL: $*" >&2
    [ -s "${run:-/nonexistent}/daemon.log" ] && { echo "--- showcased's log:" >&2; tail -n 40 "$run/daemon.log" >&2; }
    exit 1
}
ok() { passed=$((passed + 1)); echo "check-hostile-export: ok: $*"; }

[ "$(id -u)" -eq 0 ] || fail "NOT RUN: needs root to run the daemon as root and as uid 65534 (CI runs as root)"
command -v setpriv >/dev/null || fail "setpriv is missing (make deps)"
command -v python3 >/dev/null || fail "python3 is missing (make deps)"
command -v cc >/dev/null || fail "cc is missing (make deps)"

bin_dir=${BIN_DIR:-$(swift build --show-bin-path)}
for exe in showcased showcasectl lookup-replay; do
    [ -x "$bin_dir/$exe" ] || fail "no built $exe in $bin_dir (swift build)"
done

base=$(mktemp -d /tmp/showcase-hostile.XXXXXX)
chmod 0755 "$base"
replay_pid='' daemon_pid=''
cleanup() {
    for pid in $daemon_pid $replay_pid; do
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$base"
}
trap cleanup EXIT

mkdir -p "$base/bin"
cp "$bin_dir/showcased" "$bin_dir/showcasectl" "$base/bin/"
# The racer: removes the folder the moment the pass has made it (rmdir succeeds only while it is still empty, the
# window between mkdir and setting its mode) and puts a link to the private file there for a moment. In C: a
# scripting language's loop is too slow to land in that window.
cat >"$base/racer.c" <<'EOF'
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc != 4) return 64;
    long swaps = 0;
    for (long i = 0; i < 4000000000L; i++) {
        if ((i & 1023) == 0 && access(argv[3], F_OK) == 0) break;
        if (rmdir(argv[1]) == 0) {
            if (symlink(argv[2], argv[1]) == 0) {
                swaps++;
                usleep(50);
                unlink(argv[1]);
            }
        } else if (errno == ENOTEMPTY) {
            /* The pass filled it: empty it, so the next pass makes it again. */
            DIR *folder = opendir(argv[1]);
            struct dirent *entry;
            while (folder && (entry = readdir(folder)))
                if (entry->d_name[0] != '.' || (entry->d_name[1] && entry->d_name[1] != '.'))
                    unlinkat(dirfd(folder), entry->d_name, 0);
            if (folder) closedir(folder);
        }
    }
    printf("%ld\n", swaps);
    return 0;
}
EOF
cc -O2 -o "$base/racer" "$base/racer.c" || fail "could not compile the racer (make deps installs gcc)"
chmod 0755 "$base/racer"
"$bin_dir/lookup-replay" --fixtures "$repo/Fixtures/lookup" --port 0 >"$base/replay.out" 2>"$base/replay.log" &
replay_pid=$!
for _ in $(seq 100); do [ -s "$base/replay.out" ] && break; sleep 0.1; done
port=$(head -n 1 "$base/replay.out")
[ -n "$port" ] || fail "lookup-replay did not start: $(cat "$base/replay.log")"

host=com.quietharbor.TideLog
ctl() { timeout 30 "$base/bin/showcasectl" --socket "$run/run/showcased.sock" "$@"; }
# The mode of a file, and a digest of a folder's names, kinds and contents (what "nothing outside changed" means).
mode_of() { stat -c %a "$1"; }
snapshot() { (cd "$1" && find . -printf '%p %y %m %s\n' | sort && find . -type f -exec sha256sum {} + | sort); }

round() {
    local who=$1 uid=$2
    run=$base/$who
    mkdir -p "$run/etc" "$run/cache" "$run/run" "$run/export" "$run/outside/folder"
    cat >"$run/etc/showcase.yaml" <<EOF
hosts:
  - bundle_id: $host
storefronts: [us, de, jp]
lookup:
  endpoint: http://127.0.0.1:$port/lookup
  timeout: 5s
  rate_limit: 600/min
cache:
  directory: $run/cache
state:
  directory: $run/state
socket:
  path: $run/run/showcased.sock
  mode: "0600"
export:
  directory: $run/export
EOF
    # What the attacker points at: a folder of "documents" and a private file, both the daemon user's own.
    echo foreign >"$run/outside/folder/ios.json"
    mkdir -p "$run/outside/host/us" "$run/outside/host/de"
    for name in us/ios.json us/ios.json.gz us/macos.json de/ios.json; do echo foreign >"$run/outside/host/$name"; done
    echo secret >"$run/outside/secret"
    chmod 0600 "$run/outside/secret"
    chown -R "$uid:$uid" "$run"

    local runner=()
    [ "$uid" -eq 0 ] || runner=(setpriv --reuid "$uid" --regid "$uid" --clear-groups --)
    "${runner[@]}" "$base/bin/showcased" --config "$run/etc/showcase.yaml" 2>"$run/daemon.log" &
    daemon_pid=$!
    for _ in $(seq 100); do
        ctl status >/dev/null 2>&1 && break
        kill -0 "$daemon_pid" 2>/dev/null || fail "$who: showcased exited at start"
        sleep 0.1
    done
    for storefront in us de jp; do
        ctl roster --storefront "$storefront" --wait 30 >/dev/null || fail "$who: no $storefront roster"
    done
    ctl export >/dev/null || fail "$who: the first export failed"
    local tree=$run/export/v1/$host
    [ -f "$tree/us/ios.json" ] || fail "$who: the first export wrote no us/ios.json"
    local before
    before=$(snapshot "$run/outside")

    # Folders swapped for links: us to a folder outside, jp to the private file.
    rm -rf "$tree/us" "$tree/jp"
    ln -s "$run/outside/folder" "$tree/us"
    ln -s "$run/outside/secret" "$tree/jp"
    # A FIFO and a hard link at the temporary names of de's documents (changed by nothing: a reload forces no
    # rewrite, so de's documents are removed first to make the pass write them).
    rm -f "$tree/de/ios.json" "$tree/de/macos.json"
    mkfifo "$tree/de/.ios.json.showcase-tmp"
    ln "$run/outside/secret" "$tree/de/.macos.json.showcase-tmp" 2>/dev/null ||
        fail "$who: could not make the hard link (same file system expected)"
    chown -h "$uid:$uid" "$tree/us" "$tree/jp" "$tree/de/.ios.json.showcase-tmp"

    local report
    report=$(ctl --json export) || true
    [ -n "$report" ] || fail "$who: Admin.Export did not answer within 30 s (blocked on the FIFO?)"
    python3 - "$report" "$tree" <<'EOF' || fail "$who: Admin.Export did not report what was planted: $report"
import json, sys
errors = json.loads(sys.argv[1])["errors"]
tree = sys.argv[2]
for needle in ["/us is a symbolic link", "/jp is a symbolic link", ".ios.json.showcase-tmp", ".macos.json.showcase-tmp"]:
    assert any(needle in error for error in errors), needle
EOF
    ok "$who: Admin.Export answers and reports the links, the FIFO and the hard link"
    [ "$(snapshot "$run/outside")" = "$before" ] || fail "$who: something outside the tree changed"
    [ "$(mode_of "$run/outside/secret")" = 600 ] || fail "$who: the private file's mode changed"
    [ -p "$tree/de/.ios.json.showcase-tmp" ] || fail "$who: the FIFO was not left alone"
    ok "$who: nothing outside the tree was written, chmodded or removed; the FIFO is left alone"

    # The host dropped by a reload while its folder is a link to the outside folder: nothing there is removed.
    rm -rf "$tree"
    ln -s "$run/outside/host" "$tree"
    chown -h "$uid:$uid" "$tree"
    sed -i "s#^  - bundle_id: .*#  - bundle_id: com.quietharbor.Knotbook#" "$run/etc/showcase.yaml"
    ctl reload >/dev/null || fail "$who: reload failed"
    # The new host's identity is fetched after the reload: its documents exist once its roster is served.
    ctl roster --storefront us --host com.quietharbor.Knotbook --wait 30 >/dev/null ||
        fail "$who: no roster for the reloaded host"
    ctl export >/dev/null 2>&1 || true
    [ "$(snapshot "$run/outside")" = "$before" ] || fail "$who: dropping the host removed files through its link"
    ok "$who: a host dropped while its folder is a link removes nothing outside"
    rm -f "$tree"

    # The racer: for a bounded number of passes, Knotbook's us folder is removed and replaced by a link to the
    # private file as fast as a loop can, while exports recreate it.
    [ -d "$run/export/v1/com.quietharbor.Knotbook/us" ] || fail "$who: the reloaded host's us folder was not exported"
    local racer_pid stop=$run/racer.stop
    "${runner[@]}" "$base/racer" "$run/export/v1/com.quietharbor.Knotbook/us" "$run/outside/secret" "$stop" \
        >"$run/racer.out" &
    racer_pid=$!
    for _ in $(seq 150); do ctl export >/dev/null 2>&1 || true; done
    touch "$stop"
    wait "$racer_pid" || fail "$who: the racer failed"
    local swaps
    swaps=$(cat "$run/racer.out")
    [ "${swaps:-0}" -gt 0 ] || fail "$who: the racer never swapped a folder the pass made (it did not race)"
    [ "$(mode_of "$run/outside/secret")" = 600 ] || fail "$who: the racer made the private file $(mode_of "$run/outside/secret")"
    [ "$(cat "$run/outside/secret")" = secret ] || fail "$who: the private file's content changed"
    ok "$who: 150 passes against a racer that swapped $swaps new folders for links: the private file stays 0600"

    # SIGTERM ends the daemon within lookup.timeout + 1 s, whatever is planted.
    kill -TERM "$daemon_pid"
    for _ in $(seq 60); do kill -0 "$daemon_pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$daemon_pid" 2>/dev/null && fail "$who: showcased still runs 6 s after SIGTERM"
    wait "$daemon_pid" || fail "$who: showcased exited $? on SIGTERM"
    daemon_pid=''
    ok "$who: SIGTERM stops it within 6 s, exit 0"
}

round root 0
round unprivileged 65534
echo "check-hostile-export: $passed passed, 0 failed"
