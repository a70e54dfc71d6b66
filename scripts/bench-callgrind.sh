#!/usr/bin/env bash
# Instructions per Roster.Get, counted by callgrind in showcased (user space only; the kernel's copy is not
# in it). Instruction counts do not move with the neighbours' load, so before/after comparisons of an
# optimisation hold on a busy machine where calls/s would not.
#
# Phases, each between two callgrind dumps (a dump resets the counters), N calls over 16 connections:
# Each figure is Ir between the dumps divided by the calls answered in between (the load's own count).
#   hit      — the same Roster.Get us again and again (reply cache hit, parse memo hit)
#   varied   — the varied-calls rotation of `make bench` (60 calls over 30 storefronts), all cached
#   miss     — every call new (osVersion 16.1, 16.2, …): parsed, resolved and encoded each time
#   watch    — 1,000 Watch subscribers on us: each one's connect, Watch call and current state, per subscriber
#   fanout   — then Admin.Refresh with a changed us roster: the whole refresh (fetch, decode, cache write) and
#              every subscriber's new-revision reply, per subscriber (the dump between the two is taken by
#              watch-fanout's --before-refresh, once every subscriber has its first state)
# CALLGRIND_PHASES picks some of them ("hit varied miss fanout", the default; fanout prints watch and fanout).
# Prints "phase Ir/call" lines. Needs valgrind; uses the release binaries (`make bench` builds them);
# SHOWCASED=PATH measures another build of the daemon (say, one from before an optimisation).
#
# valgrind runs a copy of the daemon without its debug sections: valgrind 3.19 (Debian 12) gives up on the DWARF 5
# that clang writes for the C targets (CSystem, CCurl) — "Possibly corrupted debuginfo file. I can't recover" — and
# the daemon never starts. The symbol table stays, so callgrind_annotate still names every function. Every wait is
# bounded and says what it waited for when it gives up, with the end of the daemon's log.
set -euo pipefail
cd "$(dirname "$0")/.."
CALLS=${CALLGRIND_CALLS:-4000}
MISS_CALLS=${CALLGRIND_MISS_CALLS:-400}   # a miss costs ~100× a hit: fewer, so the load's 60 s bound holds
BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)
BENCH="$BIN/showcase-bench"
WORK=$(mktemp -d /tmp/showcase-cg.XXXXXX)
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [ "${BENCH_KEEP:-0}" = 1 ]; then echo "kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
STOREFRONTS=us,de,jp,gb,fr,it,es,ca,au,nl,br,mx,kr,cn,in,ru,se,no,dk,fi,ch,at,be,pt,pl,tr,nz,ie,sg,hk
"$BENCH" gen-lookup --template Fixtures/lookup/roster-1641000001-us.json --dir "$WORK/lookup" \
    --storefronts "$STOREFRONTS" --apps 31 --hosts 1 >/dev/null
"$BIN/lookup-replay" --fixtures "$WORK/lookup" --port 0 >"$WORK/replay.out" 2>/dev/null &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$WORK/replay.out" ] && break; sleep 0.05; done
[ -s "$WORK/replay.out" ] || { echo "bench-callgrind: lookup-replay did not print its port within 5 s" >&2; exit 1; }
REPLAY="http://127.0.0.1:$(head -1 "$WORK/replay.out")"
cat >"$WORK/showcase.yaml" <<YAML
hosts:
  - bundle_id: com.benchharbor.BenchApp0
storefronts: [$STOREFRONTS]
default_platform: ios
refresh: {interval: 24h, jitter: 10%, retry: 5m}
lookup: {endpoint: "$REPLAY/lookup", timeout: 5s, rate_limit: 100/s}
cache: {directory: "$WORK/cache"}
socket: {path: "$WORK/d.sock", mode: "0600"}
YAML
give_up() {   # WHAT: says what was not reached, shows the daemon's log, ends the run
    echo "bench-callgrind: gave up waiting for $1; the end of the daemon's log (valgrind's own lines included):" >&2
    tail -20 "$WORK/daemon.log" >&2 || true
    exit 1
}
# A thousand Watch connections need more descriptors than the usual soft limit, in the client and the daemon.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
strip --strip-debug -o "$WORK/showcased" "${SHOWCASED:-$BIN/showcased}"
valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.out" "$WORK/showcased" --config "$WORK/showcase.yaml" \
    >"$WORK/daemon.log" 2>&1 &
DAEMON=$!
PIDS+=("$DAEMON")
GET_US='{"method":"io.showcase.Roster.Get","parameters":{"storefront":"us"}}'
# The daemon under valgrind answers after some seconds; 120 s at most, and not a moment after valgrind exits.
deadline=$((SECONDS + 120))
until "$BENCH" call --socket "$WORK/d.sock" --call "$GET_US" --timeout 5 >/dev/null 2>&1; do
    kill -0 "$DAEMON" 2>/dev/null || give_up "the daemon's first answer (valgrind exited)"
    [ "$SECONDS" -lt "$deadline" ] || give_up "the daemon's first answer on $WORK/d.sock (120 s)"
    sleep 0.2
done
"$BENCH" wait-fresh --socket "$WORK/d.sock" --timeout 120 >/dev/null ||
    give_up "every storefront fresh in Admin.Status (120 s)"
"$BENCH" gen-calls --storefronts "$STOREFRONTS" --out "$WORK/rotation.txt"
IFS=, read -r -a CODES <<<"$STOREFRONTS"
for ((k = 1; k <= MISS_CALLS + 400; k++)); do
    printf '{"method":"io.showcase.Roster.Get","parameters":{"storefront":"%s","osVersion":"16.%d"}}\n' \
        "${CODES[k % ${#CODES[@]}]}" "$k"
done >"$WORK/unique.txt"

dump=0
dump_counters() {   # asks callgrind for a dump (which resets its counters) and waits until the file is there
    timeout 120 callgrind_control -d "$DAEMON" >/dev/null || give_up "callgrind's dump $((dump + 1)) (120 s)"
    dump=$((dump + 1))
    [ -s "$WORK/cg.out.$dump" ] || give_up "the file of callgrind's dump $dump"
}
measure() {   # NAME LOAD-ARGS…: Ir between two dumps around one load run, per call answered in it
    local name=$1 out ir replies
    shift
    dump_counters
    out=$("$BENCH" load --socket "$WORK/d.sock" "$@" 2>/dev/null) || true
    dump_counters
    ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$WORK/cg.out.$dump")
    # The calls answered, not the calls asked for: a --calls run under valgrind may end at the load's timeout.
    replies=$(sed -n 's/.*"totalReplies":\([0-9]*\).*/\1/p' <<<"$out")
    [ "${replies:-0}" -gt 0 ] || give_up "any reply to the $name load"
    printf '%-7s %8.0f Ir/call  (%d calls answered)\n' "$name" "$(echo "$ir / $replies" | bc -l)" "$replies"
}
phase() {   # NAME LOAD-ARGS…: a warm-up that fills the caches, then N calls measured
    local name=$1
    shift
    "$BENCH" load --socket "$WORK/d.sock" --connections 16 --calls 400 "$@" >/dev/null 2>&1
    measure "$name" --connections 16 --calls "$CALLS" "$@"
}
PHASES=" ${CALLGRIND_PHASES:-hit varied miss fanout} "
if [[ $PHASES == *" hit "* ]]; then phase hit --call "$GET_US"; fi
if [[ $PHASES == *" varied "* ]]; then phase varied --rotation-file "$WORK/rotation.txt"; fi
if [[ $PHASES == *" miss "* ]]; then
    # Every call new: the first 400 unique calls warm up, the measured ones are asked once each as well.
    head -400 "$WORK/unique.txt" >"$WORK/unique-warm.txt"
    tail -n +401 "$WORK/unique.txt" | head -"$MISS_CALLS" >"$WORK/unique-rest.txt"
    "$BENCH" load --socket "$WORK/d.sock" --connections 16 --calls 400 --rotation-file "$WORK/unique-warm.txt" \
        >/dev/null 2>&1 || true
    measure miss --connections 1 --calls "$MISS_CALLS" --rotation-file "$WORK/unique-rest.txt"
fi
if [[ $PHASES == *" fanout "* ]]; then
    SUBSCRIBERS=${CALLGRIND_SUBSCRIBERS:-1000}
    "$BENCH" gen-lookup --template Fixtures/lookup/roster-1641000001-us.json --dir "$WORK/lookup-changed" \
        --storefronts us --apps 32 --hosts 1 >/dev/null
    curl -fsS -X POST "$REPLAY/_replay/override?name=roster-1650000001-us.json&file=$WORK/lookup-changed/roster-1650000001-us.json" \
        >/dev/null
    dump_counters
    "$BENCH" watch-fanout --socket "$WORK/d.sock" --subscribers "$SUBSCRIBERS" --storefront us --cache-dir "$WORK/cache" \
        --cache-prefix roster-1650000001-us- --timeout 300 \
        --before-refresh "timeout 120 callgrind_control -d $DAEMON >/dev/null" >"$WORK/fanout.json" ||
        give_up "$SUBSCRIBERS Watch subscribers and their new revision (300 s)"
    dump=$((dump + 1))   # the one --before-refresh took
    dump_counters
    per_subscriber() {   # NAME DUMP WHAT
        local ir
        ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$WORK/cg.out.$2")
        printf '%-7s %8.0f Ir/subscriber  (%d subscribers: %s)\n' "$1" "$(echo "$ir / $SUBSCRIBERS" | bc -l)" \
            "$SUBSCRIBERS" "$3"
    }
    per_subscriber watch $((dump - 1)) "connect, Watch, current state"
    per_subscriber fanout "$dump" "refresh, cache write, new revision to every subscriber"
fi
if [ -n "${CALLGRIND_ANNOTATE:-}" ]; then
    set +o pipefail   # head ends the pipes early
    for file in "$WORK"/cg.out.[0-9]*; do
        echo "== $file: self, then inclusive"
        callgrind_annotate "$file" 2>/dev/null | grep -E '^ *[0-9,]+ \(' | head -30 | swift demangle --simplified
        callgrind_annotate --inclusive=yes "$file" 2>/dev/null | grep -E '^ *[0-9,]+ \(' | head -40 |
            swift demangle --simplified
    done
fi
