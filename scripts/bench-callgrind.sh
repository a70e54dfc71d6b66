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
#   fanout   — 1,000 Watch subscribers on us, then Admin.Refresh with a changed us roster: the whole
#              refresh (fetch, decode, cache write) and every subscriber's new-revision reply, per subscriber
# Prints "phase Ir/call" lines. Needs valgrind; uses the release binaries (`make bench` builds them);
# SHOWCASED=PATH measures another build of the daemon (say, one from before an optimisation).
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
valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.out" "${SHOWCASED:-$BIN/showcased}" --config "$WORK/showcase.yaml" \
    >"$WORK/daemon.log" 2>&1 &
DAEMON=$!
PIDS+=("$DAEMON")
GET_US='{"method":"io.showcase.Roster.Get","parameters":{"storefront":"us"}}'
for _ in $(seq 600); do
    "$BENCH" call --socket "$WORK/d.sock" --call "$GET_US" --timeout 5 >/dev/null 2>&1 && break
    sleep 0.1
done
"$BENCH" wait-fresh --socket "$WORK/d.sock" --timeout 120 >/dev/null
"$BENCH" gen-calls --storefronts "$STOREFRONTS" --out "$WORK/rotation.txt"
IFS=, read -r -a CODES <<<"$STOREFRONTS"
for ((k = 1; k <= MISS_CALLS + 400; k++)); do
    printf '{"method":"io.showcase.Roster.Get","parameters":{"storefront":"%s","osVersion":"16.%d"}}\n' \
        "${CODES[k % ${#CODES[@]}]}" "$k"
done >"$WORK/unique.txt"

dump=0
measure() {   # NAME LOAD-ARGS…: Ir between two dumps around one load run, per call answered in it
    local name=$1 out ir replies
    shift
    callgrind_control -d "$DAEMON" >/dev/null
    dump=$((dump + 1))
    out=$("$BENCH" load --socket "$WORK/d.sock" "$@" 2>/dev/null)
    callgrind_control -d "$DAEMON" >/dev/null
    dump=$((dump + 1))
    ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$WORK/cg.out.$dump")
    # The calls answered, not the calls asked for: a --calls run under valgrind may end at the load's timeout.
    replies=$(sed -n 's/.*"totalReplies":\([0-9]*\).*/\1/p' <<<"$out")
    printf '%-7s %8.0f Ir/call  (%d calls answered)\n' "$name" "$(echo "$ir / $replies" | bc -l)" "$replies"
}
phase() {   # NAME LOAD-ARGS…: a warm-up that fills the caches, then N calls measured
    local name=$1
    shift
    "$BENCH" load --socket "$WORK/d.sock" --connections 16 --calls 400 "$@" >/dev/null 2>&1
    measure "$name" --connections 16 --calls "$CALLS" "$@"
}
phase hit --call "$GET_US"
phase varied --rotation-file "$WORK/rotation.txt"
# Every call new: the first 400 unique calls warm up, the measured ones are asked once each as well.
head -400 "$WORK/unique.txt" >"$WORK/unique-warm.txt"
tail -n +401 "$WORK/unique.txt" | head -"$MISS_CALLS" >"$WORK/unique-rest.txt"
"$BENCH" load --socket "$WORK/d.sock" --connections 16 --calls 400 --rotation-file "$WORK/unique-warm.txt" >/dev/null 2>&1
measure miss --connections 1 --calls "$MISS_CALLS" --rotation-file "$WORK/unique-rest.txt"
SUBSCRIBERS=${CALLGRIND_SUBSCRIBERS:-1000}
"$BENCH" gen-lookup --template Fixtures/lookup/roster-1641000001-us.json --dir "$WORK/lookup-changed" \
    --storefronts us --apps 32 --hosts 1 >/dev/null
curl -fsS -X POST "$REPLAY/_replay/override?name=roster-1650000001-us.json&file=$WORK/lookup-changed/roster-1650000001-us.json" \
    >/dev/null
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
callgrind_control -d "$DAEMON" >/dev/null
dump=$((dump + 1))
"$BENCH" watch-fanout --socket "$WORK/d.sock" --subscribers "$SUBSCRIBERS" --storefront us --cache-dir "$WORK/cache" \
    --cache-prefix roster-1650000001-us- --timeout 300 >"$WORK/fanout.json"
callgrind_control -d "$DAEMON" >/dev/null
dump=$((dump + 1))
ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$WORK/cg.out.$dump")
printf '%-7s %8.0f Ir/subscriber  (%d subscribers: connect, Watch, first state, refresh, new revision)\n' fanout \
    "$(echo "$ir / $SUBSCRIBERS" | bc -l)" "$SUBSCRIBERS"
if [ -n "${CALLGRIND_ANNOTATE:-}" ]; then
    for file in "$WORK"/cg.out.[0-9]*; do
        echo "== $file"
        callgrind_annotate "$file" 2>/dev/null | head -40 | swift demangle --simplified
    done
fi
