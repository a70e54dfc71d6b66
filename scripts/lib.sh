# Shell functions the scripts/check-*.sh share. Source it after `cd` to the repository root; the caller defines
# fail() (its own prefix) before calling these.

# stop_pid PID: SIGTERM, then wait up to 10 s for it to go.
stop_pid() {
    if [ -n "$1" ] && kill -0 "$1" 2>/dev/null; then
        kill "$1" 2>/dev/null || true
        for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    fi
}

# start_lookup_replay BIN_DIR WORK: lookup-replay serving Fixtures/lookup on a free loopback port; sets
# replay_pid and replay_port (its log is WORK/replay.log).
start_lookup_replay() {
    "$1/lookup-replay" --fixtures Fixtures/lookup --port 0 >"$2/replay.out" 2>"$2/replay.log" &
    replay_pid=$!
    for _ in $(seq 100); do
        [ -s "$2/replay.out" ] && break
        kill -0 "$replay_pid" 2>/dev/null || { cat "$2/replay.log" >&2; fail "lookup-replay exited"; }
        sleep 0.1
    done
    replay_port=$(head -n 1 "$2/replay.out")
    [ -n "$replay_port" ] || fail "lookup-replay did not print its port"
}
