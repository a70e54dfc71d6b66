#!/usr/bin/env bash
# The release showcased under the confinement systemd/showcased.service asks for, reproduced without
# systemd as PID 1 by scripts/hardening/sandbox.sh (mount namespace, setpriv, a seccomp filter
# built from the unit's own SystemCallFilter= lines, MemoryDenyWriteExecute, address families):
#   - over HTTPS, as in production: a loopback TLS front (a throwaway CA trusted only inside the
#     sandbox, bound over /etc/ssl/certs/ca-certificates.crt) before lookup-replay, so libcurl and
#     OpenSSL run inside the daemon under MemoryDenyWriteExecute= and the syscall filter;
#   - as the unit does it: socket activation (systemd-socket-activate), NOTIFY_SOCKET and
#     WATCHDOG_USEC, CONFIGURATION_DIRECTORY/CACHE_DIRECTORY/RUNTIME_DIRECTORY and no flags;
#   - it answers Roster.Get for two storefronts, Admin.Status and Admin.Reload (asked with a plain
#     Python Varlink client, independent of showcasectl), and ExecReload='s `showcasectl reload` under the
#     same confinement; sends READY=1 and WATCHDOG=1; writes its
#     cache as the unprivileged user with UMask=0077; and exits 0 on SIGTERM after STOPPING=1;
#   - controls prove the confinement is real (setpriority refused, / read-only) so a pass means something.
# Needs root and a private mount namespace (CI runs as root, where `unshare -m` works). Without them it
# FAILS rather than skipping: a check that reports success without running would hide a broken sandbox.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

passed=0
fail() {
    echo "hardening-smoke: FAIL: $*" >&2
    if [ -s "${state:-/nonexistent}/daemon.log" ]; then
        echo "--- showcased's log:" >&2
        cat "$state/daemon.log" >&2
    fi
    exit 1
}
ok() { passed=$((passed + 1)); echo "hardening-smoke: ok: $*"; }

if [ "$(id -u)" -ne 0 ]; then
    fail "NOT RUN: needs root for a private mount namespace (uid $(id -u)). Run make test as root, as CI does;
    a skipped sandbox check is not a pass."
fi
if ! why=$(unshare -m --propagation private true 2>&1); then
    fail "NOT RUN: unshare -m failed (${why:-no reason given}): this machine cannot reproduce the unit's sandbox.
    Run make test where a private mount namespace works (CI's machine does); a skipped check is not a pass."
fi
for tool in setpriv systemd-socket-activate systemd-analyze cc python3 openssl; do
    command -v "$tool" >/dev/null || fail "$tool is missing (make deps)"
done

bin_dir=${BIN_DIR:-$(swift build -c release --static-swift-stdlib --show-bin-path)}
debug_dir=$(swift build --show-bin-path)
showcased=${SHOWCASED:-$bin_dir/showcased}
showcasectl=${SHOWCASECTL:-$bin_dir/showcasectl}
replay=${LOOKUP_REPLAY:-$debug_dir/lookup-replay}
[ -x "$showcased" ] || fail "no built showcased at $showcased (make release)"
[ -x "$showcasectl" ] || fail "no built showcasectl at $showcasectl (make release)"
[ -x "$replay" ] || fail "no built lookup-replay at $replay (swift build)"

# Outside /tmp and /home: the sandbox gives the daemon an empty /tmp and hides homes, as the unit does.
state=$(mktemp -d /run/showcase-smoke.XXXXXX)
chmod 0755 "$state"
replay_pid='' daemon_pid='' notify_pid='' tls_pid=''
cleanup() {
    for pid in $daemon_pid $notify_pid $tls_pid $replay_pid; do
        kill -TERM "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$state"
}
trap cleanup EXIT

mkdir -p "$state/bin" "$state/etc" "$state/cache" "$state/run"
sock=$state/run/showcased.sock
cp "$showcased" "$state/bin/showcased"
cp "$showcasectl" "$state/bin/showcasectl"
chown 65534:65534 "$state/cache" "$state/run"

"$replay" --fixtures "$repo/Fixtures/lookup" --port 0 >"$state/replay.out" 2>"$state/replay.log" &
replay_pid=$!
for _ in $(seq 100); do [ -s "$state/replay.out" ] && break; sleep 0.1; done
port=$(head -n 1 "$state/replay.out")
[ -n "$port" ] || fail "lookup-replay did not start: $(cat "$state/replay.log")"

# HTTPS in front of it, with a certificate for localhost from a CA only the sandbox trusts. The
# endpoint names localhost, so the daemon resolves a host name (NSS, /etc/hosts) as it would
# itunes.apple.com, with AF_NETLINK refused by RestrictAddressFamilies=.
system_bundle=/etc/ssl/certs/ca-certificates.crt
[ -f "$system_bundle" ] || fail "$system_bundle is missing (ca-certificates)"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 \
    -keyout "$state/tls.key" -out "$state/tls.crt" 2>"$state/openssl.log" || fail "openssl: $(cat "$state/openssl.log")"
cat "$system_bundle" "$state/tls.crt" >"$state/ca-bundle.crt"
chmod 0644 "$state/ca-bundle.crt"
python3 -u -c '
import http.server, ssl, sys, urllib.error, urllib.request
upstream, cert, key, log = sys.argv[1:5]
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
class Front(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open(log, "a") as f:
            f.write(self.path + "\n")
        try:
            with opener.open(upstream + self.path, timeout=10) as r:
                status, body = r.status, r.read()
        except urllib.error.HTTPError as e:
            status, body = e.code, e.read()
        self.send_response(status)
        self.send_header("Content-Type", "text/javascript; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Front)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1])
server.serve_forever()
' "http://127.0.0.1:$port" "$state/tls.crt" "$state/tls.key" "$state/tls-requests.log" >"$state/tls.out" 2>"$state/tls.log" &
tls_pid=$!
for _ in $(seq 100); do [ -s "$state/tls.out" ] && break; sleep 0.1; done
tls_port=$(head -n 1 "$state/tls.out")
[ -n "$tls_port" ] || fail "the TLS front did not start: $(cat "$state/tls.log")"

cat >"$state/etc/showcase.yaml" <<EOF_CONFIG
hosts:
  - bundle_id: com.quietharbor.TideLog
storefronts: [us, jp]
lookup:
  endpoint: https://localhost:$tls_port/lookup
  timeout: 5s
overlay:
  taglines:
    1641000105: "Wind roses for every harbour"
EOF_CONFIG
chmod 0644 "$state/etc/showcase.yaml"

# The notify socket systemd would listen on: every datagram, one line each.
python3 -u -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
import os; os.chmod(sys.argv[1], 0o666)
with open(sys.argv[2], "a", buffering=1) as log:
    while True:
        log.write(s.recv(4096).decode(errors="replace").replace("\n", " ") + "\n")
' "$state/run/notify" "$state/notify.log" &
notify_pid=$!
for _ in $(seq 50); do [ -S "$state/run/notify" ] && break; sleep 0.1; done
[ -S "$state/run/notify" ] || fail "the notify listener did not start"

sandbox() {
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$repo/scripts/hardening/sandbox.sh" \
        --state "$state/sandbox" --rw "$state/cache" --rw "$state/run" "$@"
}

# Controls: the confinement bites.
sandbox -- sh -c 'nice -n 1 true; touch /etc/.smoke; id -u' >"$state/control.out" 2>&1 \
    || fail "the sandbox itself failed: $(cat "$state/control.out")"
grep -q "cannot set niceness: Operation not permitted" "$state/control.out" \
    || fail "setpriority was not refused inside the sandbox: $(cat "$state/control.out")"
grep -q "Read-only file system" "$state/control.out" || fail "/etc was writable inside the sandbox"
[ "$(tail -n 1 "$state/control.out")" = 65534 ] || fail "the sandbox did not drop to uid 65534"
ok "controls: setpriority → EPERM, / read-only, uid 65534 inside the sandbox"

env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$repo/scripts/hardening/sandbox.sh" \
    --state "$state/sandbox" --rw "$state/cache" --rw "$state/run" --listen "$sock" \
    --ro-bind "$state/ca-bundle.crt" "$system_bundle" -- \
    env LIBDISPATCH_LOG=NO NOTIFY_SOCKET="$state/run/notify" WATCHDOG_USEC=2000000 \
    CONFIGURATION_DIRECTORY="$state/etc" CACHE_DIRECTORY="$state/cache" RUNTIME_DIRECTORY="$state/run" \
    "$state/bin/showcased" >"$state/daemon.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || fail "systemd-socket-activate did not listen on $sock"
# What showcased.socket's SocketUser=/SocketGroup=/SocketMode= do (systemd-socket-activate cannot).
chown 65534:65534 "$sock"
chmod "$(sed -n 's/^SocketMode=//p' systemd/showcased.socket)" "$sock"

# The client: plain Varlink from Python's standard library (independent of showcasectl). Prints the
# reply's parameters as JSON; exits 1 with the error on stderr.
vcall() {
    python3 -c '
import json, socket, sys
path, method, parameters = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
with socket.socket(socket.AF_UNIX) as s:
    s.settimeout(60)
    s.connect(path)
    s.sendall(json.dumps({"method": method, "parameters": parameters}).encode() + b"\0")
    data = b""
    while not data.endswith(b"\0"):
        chunk = s.recv(65536)
        if not chunk:
            sys.exit("connection closed without a reply")
        data += chunk
reply = json.loads(data[:-1])
if "error" in reply:
    sys.exit(json.dumps(reply))
print(json.dumps(reply["parameters"], ensure_ascii=False))
' "$sock" "$@"
}
field() { python3 -c 'import json, sys; r = json.load(sys.stdin); print(eval(sys.argv[1], {}, {"r": r}))' "$1"; }

# The first connection starts the daemon (socket activation), as with showcased.socket.
vcall io.showcase.Roster.Get '{"storefront": "us", "waitMs": 30000}' >"$state/us.json" 2>&1 \
    || fail "Roster.Get us: $(cat "$state/us.json")"
[ "$(field 'r["state"]' <"$state/us.json")" = fresh ] || fail "Roster.Get us is not fresh: $(cat "$state/us.json")"
field '[a["name"] for a in r["apps"]]' <"$state/us.json" | grep -q "Windrose" \
    || fail "Roster.Get us lacks Windrose: $(cat "$state/us.json")"
[ "$(field '[a.get("tagline") for a in r["apps"] if a["id"] == 1641000105][0]' <"$state/us.json")" \
    = "Wind roses for every harbour" ] || fail "Roster.Get us lacks the overlay's tagline"
grep -q 'entity=software' "$state/tls-requests.log" 2>/dev/null || fail "no roster request reached the HTTPS front"
ok "socket-activated under the sandbox, Roster.Get us answers from upstream over HTTPS with the overlay"

vcall io.showcase.Roster.Get '{"storefront": "JPN", "waitMs": 30000}' >"$state/jp.json" 2>&1 \
    || fail "Roster.Get jp: $(cat "$state/jp.json")"
field '[a["formattedPrice"] for a in r["apps"]]' <"$state/jp.json" | grep -q "¥800" \
    || fail "Roster.Get JPN lacks yen prices: $(cat "$state/jp.json")"
ok "Roster.Get JPN answers with the jp storefront's localized prices"

vcall io.showcase.Admin.Status '{}' >"$state/status.json" 2>&1 || fail "Admin.Status: $(cat "$state/status.json")"
vcall io.showcase.Admin.Reload '{}' >"$state/reload.json" 2>&1 || fail "Admin.Reload: $(cat "$state/reload.json")"
[ "$(field 'r["generation"]' <"$state/reload.json")" = 2 ] || fail "Admin.Reload: $(cat "$state/reload.json")"
ok "Admin.Status and Admin.Reload answer (generation 2)"

# ExecReload= as the unit runs it: the release showcasectl under the same confinement and uid as the
# daemon (systemd applies the service's sandbox to ExecReload= too), waiting for the outcome.
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$repo/scripts/hardening/sandbox.sh" \
    --state "$state/sandbox-reload" --rw "$state/cache" --rw "$state/run" -- \
    env LIBDISPATCH_LOG=NO "$state/bin/showcasectl" --socket "$sock" reload >"$state/execreload.out" 2>&1 \
    || fail "ExecReload= (showcasectl reload) under the sandbox: $(cat "$state/execreload.out")"
grep -q "generation 3" "$state/execreload.out" || fail "showcasectl reload under the sandbox: $(cat "$state/execreload.out")"
if grep -E 'Bad system call|SIGSYS|Operation not permitted' "$state/execreload.out" >&2; then
    fail "showcasectl logged a refused system call under the sandbox"
fi
ok "ExecReload= (showcasectl --socket … reload) works under the unit's confinement (generation 3)"

grep -q '^READY=1' "$state/notify.log" || grep -q 'READY=1' "$state/notify.log" \
    || fail "no READY=1 on NOTIFY_SOCKET: $(cat "$state/notify.log")"
for _ in $(seq 100); do grep -q 'WATCHDOG=1' "$state/notify.log" && break; sleep 0.1; done
grep -q 'WATCHDOG=1' "$state/notify.log" || fail "no WATCHDOG=1 with WATCHDOG_USEC set: $(cat "$state/notify.log")"
grep 'RELOADING=1' "$state/notify.log" | grep -q 'MONOTONIC_USEC=' \
    || fail "no RELOADING=1 with MONOTONIC_USEC= after the reloads: $(cat "$state/notify.log")"
ok "READY=1, WATCHDOG=1 and RELOADING=1 with MONOTONIC_USEC= reach NOTIFY_SOCKET"

files=$(find "$state/cache" -type f | wc -l)
[ "$files" -ge 2 ] || fail "expected cache files for us and jp in CACHE_DIRECTORY, found $files"
bad=$(find "$state/cache" -type f \( ! -user 65534 -o -perm /077 \) | head -n 1)
[ -z "$bad" ] || fail "cache file not private to the service user: $(ls -l "$bad")"
ok "cache written to CACHE_DIRECTORY by uid 65534 with mode 0600 (UMask=0077)"

kill -TERM "$daemon_pid"
status=0
wait "$daemon_pid" || status=$?
daemon_pid=''
[ "$status" -eq 0 ] || fail "showcased exited with $status on SIGTERM under the sandbox"
grep -q 'STOPPING=1' "$state/notify.log" || fail "no STOPPING=1 on NOTIFY_SOCKET"
if grep -E 'Bad system call|SIGSYS|Operation not permitted' "$state/daemon.log" >&2; then
    fail "showcased logged a refused system call"
fi
ok "SIGTERM: STOPPING=1, exit 0, no refused system call in the log"
echo "hardening-smoke: $passed passed, 0 failed"
