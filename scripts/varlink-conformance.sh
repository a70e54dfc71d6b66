#!/usr/bin/env bash
# Varlink conformance: runs clients nobody on this project wrote against our server.
#   1. the reference Python implementation's certification client (pip `varlink`, in a venv
#      under .build/varlink-venv),
#   2. Debian varlink-go's `varlink-go-certification -client`,
#   3. the Python CLI's `info`, `help` and `call` (it exits 0 even on errors, so its output
#      is checked instead),
#   4. the Python IDL parser on the daemon's interfaces exported under docs/ (required) and any
#      other *.varlink file under Sources/.
# 1-3 run against `varlink-certify` (the org.varlink.certification interface on our Varlink
# module). Then, the other way round, `varlink-certify --client` (our VarlinkClient) runs the
# certification sequence against the Go and Python reference servers.
# Installs only what is missing. Fails loudly, naming the step that failed.
set -euo pipefail

cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
VENV=.build/varlink-venv
WORK="$(mktemp -d /tmp/varlink-conformance.XXXXXX)"
SOCKET="$WORK/certify.sock"
SERVER_PID=""
REFERENCE_PID=""

fail() {
    echo "varlink-conformance: FAILED: $*" >&2
    exit 1
}

cleanup() {
    for pid in $SERVER_PID $REFERENCE_PID; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

# apt_install PACKAGE: apt-get install (after an update when the first try fails), each a bounded step.
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
apt_install() {
    scripts/step.sh "apt-get install $1" 10m "${as_root[@]}" apt-get install -y -qq "$1" >/dev/null \
        || { scripts/step.sh "apt-get update" 10m "${as_root[@]}" apt-get update -qq \
            && scripts/step.sh "apt-get install $1" 10m "${as_root[@]}" apt-get install -y -qq "$1" >/dev/null; }
}

# --- tools -------------------------------------------------------------------------------
if ! command -v varlink-go-certification >/dev/null 2>&1; then
    echo "varlink-conformance: installing Debian package varlink-go"
    export DEBIAN_FRONTEND=noninteractive
    apt_install varlink-go || fail "could not install varlink-go (apt-get install -y varlink-go)"
fi

if [ ! -x "$VENV/bin/python3" ]; then
    if ! python3 -m venv "$VENV" >/dev/null 2>&1; then
        echo "varlink-conformance: installing python3-venv"
        rm -rf "$VENV"
        export DEBIAN_FRONTEND=noninteractive
        apt_install python3-venv || fail "could not install python3-venv"
        python3 -m venv "$VENV" || fail "python3 -m venv $VENV"
    fi
fi
if ! "$VENV/bin/python3" -c 'import varlink' >/dev/null 2>&1; then
    echo "varlink-conformance: pip install varlink into $VENV"
    scripts/step.sh "pip install varlink" 10m "$VENV/bin/pip" install -q varlink || fail "pip install varlink"
fi
PY="$VENV/bin/python3"

# --- server ------------------------------------------------------------------------------
"$SWIFT" build --product varlink-certify >/dev/null || fail "swift build --product varlink-certify"
BIN="$("$SWIFT" build --show-bin-path)/varlink-certify"
"$BIN" --varlink="unix:$SOCKET" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 100); do
    [ -S "$SOCKET" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || fail "varlink-certify exited: $(cat "$WORK/server.log")"
    sleep 0.05
done
[ -S "$SOCKET" ] || fail "varlink-certify did not create $SOCKET"

# --- clients -----------------------------------------------------------------------------
run_step() { # name, command...
    local name="$1"
    shift
    if ! out="$(timeout 60 "$@" 2>&1)"; then
        echo "$out" >&2
        fail "$name"
    fi
    printf '%s\n' "$out"
}

out="$(run_step "Python certification client" "$PY" -m varlink.tests.test_certification --client --varlink="unix:$SOCKET")"
grep -q "Certification passed" <<<"$out" || { echo "$out" >&2; fail "Python certification client did not report 'Certification passed'"; }
echo "varlink-conformance: Python certification client passed"

out="$(run_step "Go certification client" varlink-go-certification -client -varlink "unix:$SOCKET")"
grep -q "^End: 'true'" <<<"$out" || { echo "$out" >&2; fail "Go certification client did not end with End: 'true'"; }
echo "varlink-conformance: Go certification client passed"

# The Python CLI prints errors (and tracebacks) but exits 0: check what it printed.
cli() { # expected-regex, args...
    local expect="$1"
    shift
    local output
    output="$(timeout 30 "$PY" -m varlink.cli "$@" 2>&1)" || { echo "$output" >&2; fail "varlink.cli $*"; }
    if grep -qE "Traceback|'error':|VarlinkError|ConnectionError" <<<"$output" || ! grep -qE "$expect" <<<"$output"; then
        echo "$output" >&2
        fail "varlink.cli $* (expected output matching: $expect)"
    fi
}
cli "org\.varlink\.certification" info "unix:$SOCKET"
cli "^interface org\.varlink\.certification" help "unix:$SOCKET/org.varlink.certification"
cli "^interface org\.varlink\.service" help "unix:$SOCKET/org.varlink.service"
cli '"client_id": "[0-9a-f]{32}"' call "unix:$SOCKET/org.varlink.certification.Start" '{}'
# And the CLI must see our standard errors as errors.
output="$(timeout 30 "$PY" -m varlink.cli call "unix:$SOCKET/org.varlink.certification.Nope" '{}' 2>&1 || true)"
grep -q "org.varlink.service.MethodNotFound" <<<"$output" || { echo "$output" >&2; fail "varlink.cli call of a missing method did not report MethodNotFound"; }
echo "varlink-conformance: Python CLI info, help and call passed"

# --- our client against the reference servers --------------------------------------------
kill "$SERVER_PID" 2>/dev/null || true
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""
reference_server() { # name, socket, command...
    local name="$1" socket="$2"
    shift 2
    "$@" >"$WORK/reference.log" 2>&1 &
    REFERENCE_PID=$!
    for _ in $(seq 1 100); do
        [ -S "$socket" ] && break
        kill -0 "$REFERENCE_PID" 2>/dev/null || fail "$name server exited: $(cat "$WORK/reference.log")"
        sleep 0.05
    done
    [ -S "$socket" ] || fail "$name server did not create $socket"
    out="$(run_step "our client against the $name server" "$BIN" --client --varlink="unix:$socket")"
    grep -q "Certification passed" <<<"$out" || { echo "$out" >&2; fail "our client against the $name server"; }
    kill "$REFERENCE_PID" 2>/dev/null || true
    wait "$REFERENCE_PID" 2>/dev/null || true
    REFERENCE_PID=""
    echo "varlink-conformance: our client passed against the $name certification server"
}
reference_server Go "$WORK/go.sock" varlink-go-certification -varlink "unix:$WORK/go.sock"
reference_server Python "$WORK/py.sock" "$PY" -m varlink.tests.test_certification --varlink="unix:$WORK/py.sock"

# --- IDL files ---------------------------------------------------------------------------
# The daemon's own interfaces, exported under docs/ (a Swift test keeps them byte-identical to the
# compiled-in IDL), and any other *.varlink file in the tree. Missing exports fail: a step that finds
# nothing to parse would pass without checking anything.
for name in io.showcase.Roster io.showcase.Admin; do
    [ -f "docs/$name.varlink" ] || fail "docs/$name.varlink is missing: export the daemon's $name IDL there"
done
mapfile -t idl_files < <(find docs Sources -name '*.varlink' 2>/dev/null | sort)
for file in "${idl_files[@]}"; do
    parsed=$("$PY" -c 'import sys, varlink; print(varlink.Interface(open(sys.argv[1]).read()).name)' "$file") \
        || fail "the Python Varlink parser rejects $file"
    [ "$parsed.varlink" = "$(basename "$file")" ] || fail "$file declares interface $parsed; name the file after it"
done
echo "varlink-conformance: the Python parser accepts ${#idl_files[@]} IDL file(s): ${idl_files[*]}"

echo "varlink-conformance: all third-party clients and servers passed"
