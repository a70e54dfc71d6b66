#!/usr/bin/env bash
# make bench: the BENCHMARKS.md figures against the transport floor, in one table.
#
# Builds release binaries, generates the fixture load (a 30-app roster served by a loopback lookup-replay;
# 175 storefronts × 200 apps written as cache files), runs the daemon and the floor in alternating rounds on
# the same kind of socket with the same client, and prints one table (also .build/bench.json).
# All traffic stays on Unix sockets and 127.0.0.1. Bounded: a few minutes on 2 cores.
#
# Knobs (environment): BENCH_ROUNDS (5), BENCH_DURATION seconds per round (3), BENCH_CONNECTIONS (16),
# BENCH_PROFILE=1 also records `perf` of the daemon under the same load into .build/bench/profile.txt,
# BENCH_THREADS client threads (1), BENCH_PIN (1: client on CPU 0, servers on CPU 1, so every round gets
# the same placement instead of the scheduler's coin toss), BENCH_KEEP=1 keeps the work directory,
# BENCH_ONLY=once runs only the `showcased --once` row; BENCH_ONLY=export20 only the twenty-developer export
# row; BENCH_ONLY=site20 only the twenty-developer site row; BENCH_ONLY=icons only the icon row;
# BENCH_ONLY=history only the change-history row; BENCH_ONLY=binaries only the binary sizes and startup.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${BENCH_ROUNDS:-5}
DURATION=${BENCH_DURATION:-3}
CONNECTIONS=${BENCH_CONNECTIONS:-16}
THREADS=${BENCH_THREADS:-1}
STOREFRONTS_S=(us de jp gb fr it es ca au nl)   # the upstream-citizenship warm (S = 10)
# The varied-calls row's 30 storefronts (the first 10 are S); lookup fixtures are generated for all 30.
STOREFRONTS_V=("${STOREFRONTS_S[@]}" br mx kr cn in ru se no dk fi ch at be pt pl tr nz ie sg hk)
FANOUT_SUBSCRIBERS=${BENCH_SUBSCRIBERS:-1000}    # Watch fan-out: subscribers on one storefront
DEVELOPERS=${BENCH_DEVELOPERS:-20}               # the scale row: developers (one host each) × every storefront
SCALE_ROUNDS=${BENCH_SCALE_ROUNDS:-3}            # starts of the 20-developer daemon
SITE_TIMEOUT=${BENCH_SITE_TIMEOUT:-600}          # seconds for each export pass of the site row (else: not measured)
HOSTS_H=3                                       # hosts of the one bench developer (H = 3)
ROSTER_APPS=31                                  # the host hides itself: 30 apps in the reply
TEMPLATE=Fixtures/lookup/roster-1641000001-us.json

log() { printf 'bench: %s\n' "$*" >&2; }

# Placement: with the client and the server sharing a core, each call pays both in series and the figure
# halves; which happens is the scheduler's choice per run. Pinning makes every round (daemon or floor) the
# same experiment. Needs 2+ cores and taskset (util-linux).
CLIENT_PIN=()
SERVER_PIN=()
if [ "${BENCH_PIN:-1}" = 1 ] && [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null 2>&1; then
    CLIENT_PIN=(taskset -c 0)
    SERVER_PIN=(taskset -c 1)
fi

# The same flags as `make release`/`make install`: the figures are those of the binaries we ship, and the
# build is shared with `make test`'s install and hardening checks instead of rebuilt with other flags.
RELEASE_FLAGS=(-c release --static-swift-stdlib)
log "building release binaries (${RELEASE_FLAGS[*]})"
swift build "${RELEASE_FLAGS[@]}" >&2
BIN=$(swift build "${RELEASE_FLAGS[@]}" --show-bin-path)
BENCH="$BIN/showcase-bench"

WORK=$(mktemp -d /tmp/showcase-bench.XXXXXX)   # short: socket paths must fit sockaddr_un
RESULTS=.build/bench/results.jsonl
mkdir -p .build/bench
: >"$RESULTS"
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [ "${BENCH_KEEP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

record() { tee -a "$RESULTS" >/dev/null; }
skip() { printf '{"label":"skip","row":"%s","reason":"%s"}\n' "$1" "$2" >>"$RESULTS"; log "skipped $1: $2"; }

# --- binaries: each shipped binary stripped (≤ 20 MB, SPEC §11) and its startup, exec to exit --------------------
# The shipped binaries are scripts/install.sh's; stripped as copies. Startup is the median of STARTUP_RUNS runs of
# `showcased --version` and `showcasectl --help` (no socket, no configuration: the process's own start and exit).
# `BENCH_ONLY=binaries scripts/bench.sh` builds, runs this row alone and prints the table.
STARTUP_RUNS=${BENCH_STARTUP_RUNS:-30}
startup_ms() {
    local runs=() started ended
    for ((run = 0; run < STARTUP_RUNS; run++)); do
        started=$(date +%s%N)
        "$@" >/dev/null 2>&1 || true
        ended=$(date +%s%N)
        runs+=($(((ended - started) / 1000)))
    done
    printf '%s\n' "${runs[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] / 1000 }'
}
read -r -a SHIPPED <<<"$(sed -n 's/^ *for exe in \(.*\); do$/\1/p' scripts/install.sh)"
sizes=""
for exe in "${SHIPPED[@]}"; do
    cp "$BIN/$exe" "$WORK/$exe.stripped"
    strip "$WORK/$exe.stripped"
    sizes+="${sizes:+,}\"$exe\":$(stat -c %s "$WORK/$exe.stripped")"
    rm -f "$WORK/$exe.stripped"
done
log "binaries: stripped sizes and startup ($STARTUP_RUNS runs each)"
printf '{"label":"binaries","stripped":{%s},"startupRuns":%s,"startupMs":{"showcased --version":%s,"showcasectl --help":%s}}\n' \
    "$sizes" "$STARTUP_RUNS" "$(startup_ms "$BIN/showcased" --version)" "$(startup_ms "$BIN/showcasectl" --help)" | record
if [ "${BENCH_ONLY:-}" = binaries ]; then
    echo
    "$BENCH" report --results "$RESULTS" --json .build/bench.json
    exit 0
fi

# The daemon is real once `showcased --help` documents its flags (the placeholder printed "not implemented").
DAEMON_REAL=0
if "$BIN/showcased" --help 2>&1 | grep -q -- '--socket'; then DAEMON_REAL=1; fi
CTL_REAL=0
if "$BIN/showcasectl" --help 2>&1 | grep -q 'roster'; then CTL_REAL=1; fi
REPLAY_REAL=0
if "$BIN/lookup-replay" --help 2>&1 | grep -q -- '--fixtures'; then REPLAY_REAL=1; fi

GET_US='{"method":"io.showcase.Roster.Get","parameters":{"storefront":"us"}}'

# --- fixtures -------------------------------------------------------------------------------------------
if [ -f "$TEMPLATE" ]; then
    V_LIST=$(IFS=,; echo "${STOREFRONTS_V[*]}")
    "$BENCH" gen-lookup --template "$TEMPLATE" --dir "$WORK/lookup" --storefronts "$V_LIST" \
        --apps "$ROSTER_APPS" --hosts "$HOSTS_H" >/dev/null
    # The fan-out row's changed roster: one app more in us, served as an override after the subscribers connect.
    "$BENCH" gen-lookup --template "$TEMPLATE" --dir "$WORK/lookup-changed" --storefronts us \
        --apps $((ROSTER_APPS + 1)) --hosts 1 >/dev/null
fi
# A thousand Watch connections need more descriptors than the usual soft limit, in the client and the daemon.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# write_config FILE CACHE_DIR SOCKET ENDPOINT STOREFRONTS HOSTS OVERLAY [HOSTS_FILE]
# HOSTS is a count of the bench developer's apps, or with HOSTS_FILE ignored: one bundle id per line of that file.
write_config() {
    local file=$1 cache=$2 socket=$3 endpoint=$4 storefronts=$5 hosts=$6 overlay=$7 hosts_file=${8:-} i bundle
    {
        echo "hosts:"
        if [ -n "$hosts_file" ]; then
            while read -r bundle; do [ -n "$bundle" ] && echo "  - bundle_id: $bundle"; done <"$hosts_file"
        else
            for ((i = 0; i < hosts; i++)); do
                echo "  - bundle_id: com.benchharbor.BenchApp$i"
            done
        fi
        echo "storefronts: $storefronts"
        echo "default_platform: ios"
        echo "refresh: {interval: 24h, jitter: 10%, retry: 5m}"
        echo "lookup: {endpoint: \"$endpoint\", timeout: 5s, rate_limit: 100/s}"
        echo "cache: {directory: \"$cache\"}"
        # The change history beside the cache, never the machine's /var/lib/showcase.
        echo "state: {directory: \"$cache.state\"}"
        echo "socket: {path: \"$socket\", mode: \"0600\"}"
        echo "overlay: $overlay"
    } >"$file"
}

start_replay() {   # [NAME]: sets REPLAY to the server's base URL (NAME, default replay, names its files)
    local out=$WORK/${1:-replay}.out
    "$BIN/lookup-replay" --fixtures "$WORK/lookup" --port 0 >"$out" 2>"$WORK/${1:-replay}.log" &
    PIDS+=($!)
    local i
    for ((i = 0; i < 100; i++)); do
        if [ -s "$out" ]; then REPLAY="http://127.0.0.1:$(head -1 "$out")"; return; fi
        sleep 0.05
    done
    log "lookup-replay did not start; see $WORK/${1:-replay}.log"; return 1
}

wait_socket() {   # SOCKET: until it answers a Get
    local i
    for ((i = 0; i < 200; i++)); do
        if "$BENCH" call --socket "$1" --call "$GET_US" --timeout 2 >/dev/null 2>&1; then return 0; fi
        sleep 0.05
    done
    return 1
}

# --- icons: one developer × every storefront with export.icons [128, 256] (SPEC §16) -----------------------------
# The first pass requests each distinct (artwork URL, size) once, however many storefronts list the app; a second
# pass requests none. Counted from lookup-replay's log (--serve-icons: it draws the icons its rewritten URLs name).
run_icons() {
if [ "$DAEMON_REAL" = 1 ] && [ "$REPLAY_REAL" = 1 ] && [ -f "$TEMPLATE" ] \
    && "$BIN/lookup-replay" --help 2>&1 | grep -q -- '--serve-icons'; then
    log "icons: one developer × every storefront, export.icons [128, 256]"
    "$BENCH" gen-lookup --template "$TEMPLATE" --dir "$WORK/lookup-icons" --storefronts all --apps "$ROSTER_APPS" \
        --hosts 1 >/dev/null
    "$BIN/lookup-replay" --fixtures "$WORK/lookup-icons" --port 0 --serve-icons >"$WORK/replay-icons.out" \
        2>"$WORK/replay-icons.log" &
    PIDS+=($!)
    for ((i = 0; i < 100; i++)); do [ -s "$WORK/replay-icons.out" ] && break; sleep 0.05; done
    IREPLAY="http://127.0.0.1:$(head -1 "$WORK/replay-icons.out")"
    printf 'order: []\n' >"$WORK/overlay-icons.yaml"
    write_config "$WORK/showcase-icons.yaml" "$WORK/cache-icons" "$WORK/i.sock" "$IREPLAY/lookup" all 1 \
        overlay-icons.yaml
    sed -i "s#rate_limit: 100/s}#rate_limit: 100/s, artwork_hosts: [\"$IREPLAY/\"]}#" "$WORK/showcase-icons.yaml"
    # write_config keeps the state directory (the icon index) beside the cache.
    printf 'export: {directory: "%s", gzip: true, icons: {sizes: [128, 256]}}\n' "$WORK/export-icons" \
        >>"$WORK/showcase-icons.yaml"
    "${SERVER_PIN[@]}" "$BIN/showcased" --config "$WORK/showcase-icons.yaml" >"$WORK/daemon-icons.log" 2>&1 &
    I_PID=$!
    PIDS+=("$I_PID")
    wait_socket "$WORK/i.sock" || { log "showcased did not answer; see $WORK/daemon-icons.log"; exit 1; }
    started=$(date +%s%N)
    icon_state() { # prints "documents mirrored distinct files" for the tree
        python3 - "$WORK/export-icons/v1" <<'PY'
import json, pathlib, sys
root = pathlib.Path(sys.argv[1])
docs = [json.load(open(p)) for p in root.glob("*/*/*.json")]
apps = [app for doc in docs for app in doc["apps"]]
mirrored = bool(apps) and all(set(app.get("icons", {})) == {"128", "256"} for app in apps)
files = len(list((root / "icons").glob("*"))) if (root / "icons").is_dir() else 0
print(len(docs), int(mirrored), len({app["iconUrl"] for app in apps}), files)
PY
    }
    image_requests() {
        curl -s "$IREPLAY/_replay/requests" | python3 -c 'import json, sys; print(sum("bb." in r["path"] for r in json.load(sys.stdin)))'
    }
    "$BIN/showcasectl" --socket "$WORK/i.sock" refresh >/dev/null 2>&1 || true
    state="0 0 0 0"
    for ((i = 0; i < 600; i++)); do
        "$BIN/showcasectl" --socket "$WORK/i.sock" export >/dev/null 2>&1 || true
        state=$(icon_state)
        [ "$(echo "$state" | cut -d' ' -f2)" = 1 ] && break
        sleep 0.2
    done
    ended=$(date +%s%N)
    read -r documents mirrored distinct files <<<"$state"
    first=$(image_requests)
    "$BIN/showcasectl" --socket "$WORK/i.sock" export >/dev/null 2>&1 || true
    sleep 1
    "$BIN/showcasectl" --socket "$WORK/i.sock" export >/dev/null 2>&1 || true
    second=$(($(image_requests) - first))
    printf '{"label":"icons","storefronts":%s,"documents":%s,"mirrored":%s,"distinct":%s,"sizes":2,"expected":%s,"requests":%s,"second":%s,"files":%s,"wallMs":%s}\n' \
        "$(grep -c '' <<<"$(ls "$WORK/export-icons/v1/com.benchharbor.BenchApp0")")" "$documents" "$mirrored" \
        "$distinct" "$((distinct * 2))" "$first" "$second" "$files" "$(((ended - started) / 1000000))" | record
    kill "$I_PID" 2>/dev/null || true
else
    skip icons "not measured (lookup-replay --serve-icons not available)"
fi
}

if [ "${BENCH_ONLY:-}" = icons ]; then
    run_icons
    echo
    "$BENCH" report --results "$RESULTS" --json .build/bench.json
    exit 0
fi

# --- the same over twenty developers with the web fragments, feeds and icons on: only the changed one is rendered --
# 30 apps a roster (the Get rows' size) keeps the 20 × 173 × 2 tree, with its .html, .email.html and .atom files, in
# memory for the comparison. The tagline is in developer 0's own overlay, so the 19 others' settings do not change.
# The icons (export.icons [128, 256]) come from lookup-replay --serve-icons, whose address the generated rosters'
# artwork URLs name; the reload is measured once every document lists its mirrored icons.
# `BENCH_ONLY=export20 scripts/bench.sh` builds, runs this row alone and prints the table.
export_twenty() {
    if [ "$DAEMON_REAL" = 1 ] && "$BIN/showcasectl" --help 2>&1 | grep -qE '^ +export '; then
        log "export: $DEVELOPERS developers × every storefront × 30 apps with html, feed and icons, then one developer's tagline"
        "$BIN/lookup-replay" --fixtures Fixtures/lookup --port 0 --serve-icons >"$WORK/replay-x20.out" \
            2>"$WORK/replay-x20.log" &
        PIDS+=($!)
        for ((i = 0; i < 100; i++)); do [ -s "$WORK/replay-x20.out" ] && break; sleep 0.05; done
        XREPLAY="http://127.0.0.1:$(head -1 "$WORK/replay-x20.out")"
        generated=$("$BENCH" gen-cache --template "$TEMPLATE" --dir "$WORK/cache-export20" --storefronts all --apps 30 \
            --hosts 1 --developers "$DEVELOPERS" --hosts-file "$WORK/hosts-export20.txt" --label gen-cache-export20 \
            --artwork-prefix "$XREPLAY/")
        echo "$generated" | record
        # Each developer has one host, so its rosters are the storefronts.
        per_developer=$(echo "$generated" | sed -n 's/.*"storefronts": *\([0-9]*\).*/\1/p')
        printf 'order: []\n' >"$WORK/overlay-export20.yaml"
        write_config "$WORK/showcase-export20.yaml" "$WORK/cache-export20" "$WORK/x20.sock" \
            "${REPLAY:-http://127.0.0.1:9}/lookup" all 0 "{}" "$WORK/hosts-export20.txt"
        # Developer 0's host (the first line) gets its own overlay file.
        sed -i "0,/^  - bundle_id: .*/s//&\n    overlay: overlay-export20.yaml/" "$WORK/showcase-export20.yaml"
        sed -i "s#rate_limit: 100/s}#rate_limit: 100/s, artwork_hosts: [\"$XREPLAY/\"]}#" "$WORK/showcase-export20.yaml"
        echo "export: {directory: \"$WORK/export20\", gzip: true, html: true, feed: true, icons: {sizes: [128, 256]}}" \
            >>"$WORK/showcase-export20.yaml"
        "${SERVER_PIN[@]}" "$BIN/showcased" --config "$WORK/showcase-export20.yaml" >"$WORK/daemon-export20.log" 2>&1 &
        X20_PID=$!
        PIDS+=("$X20_PID")
        wait_socket "$WORK/x20.sock" || { log "showcased did not answer; see $WORK/daemon-export20.log"; exit 1; }
        # Every document lists both mirrored sizes before the reload is timed (the icons arrive after the first pass).
        for ((i = 0; i < 120; i++)); do
            "$BIN/showcasectl" --socket "$WORK/x20.sock" export >/dev/null 2>&1 || true
            python3 - "$WORK/export20/v1" <<'PY' && break
import json, pathlib, sys
docs = [json.load(open(p)) for p in pathlib.Path(sys.argv[1]).glob("*/*/*.json")]
apps = [app for doc in docs for app in doc["apps"]]
sys.exit(0 if apps and all(set(app.get("icons", {})) == {"128", "256"} for app in apps) else 1)
PY
            sleep 1
        done
        icons_mirrored=$(ls "$WORK/export20/v1/icons" 2>/dev/null | wc -l)
        # The icons' arrival re-rendered every roster (13,900 files replaced). For the kernel's writeback window
        # (vm.dirty_expire_centisecs, 30 s) ext4 skips the inodes those replacements freed when it allocates new
        # ones, a scan that made the next pass's 1,040 file creations cost ~0.5 s more. The row times an operator's
        # reload in a settled daemon, so it waits that window out (BENCHMARKS.md, "The twenty-developer export, before → after").
        sleep $(($(cat /proc/sys/vm/dirty_expire_centisecs 2>/dev/null || echo 3000) / 100 + 2))
        "${CLIENT_PIN[@]}" "$BENCH" export-reload --socket "$WORK/x20.sock" --export-dir "$WORK/export20" \
            --overlay "$WORK/overlay-export20.yaml" --app-id 1650000102 --tagline bench-export-marker --timeout 30 \
            --rendered .html,.email.html,.atom --carrying-taglines .html,.email.html --label export-reload-20 | record
        kill "$X20_PID" 2>/dev/null || true
        # The reload's pass is the last one that wrote: its log line says how many rosters it rendered and reused.
        counts=$(grep -o '[0-9]* rosters\? rendered, [0-9]* reused' "$WORK/daemon-export20.log" | tail -1)
        rendered=$(echo "$counts" | awk '{print $1}')
        reused=$(echo "$counts" | awk '{print $4}')
        echo "{\"label\": \"export-rendered-20\", \"rendered\": ${rendered:-0}, \"reused\": ${reused:-0}, \"perDeveloper\": ${per_developer:-173}, \"icons\": ${icons_mirrored:-0}}" \
            | record
        rm -rf "$WORK/cache-export20" "$WORK/export20"
    else
        skip export-20 "not measured (export not available)"
    fi
}

# --- the site on (SPEC §18) over twenty developers: one developer's tagline re-renders only the pages showing it -----
# The twenty-developer setup (30 apps a roster, one host each) with export.site and the JSON documents only (no
# fragments, feeds or icons: the row is the site's). The tagline is in developer 0's own overlay; every storefront's
# developer page lists every developer's apps, so all of those change, as do developer 0's app pages (the app's own
# and the "More from" lists of the others); the 19 other developers' app pages must keep inode and mtime, and the
# daemon's log line for the reload's pass ("N site pages rendered, M reused") must count no more pages than change.
# `BENCH_ONLY=site20 scripts/bench.sh` builds, runs this row alone and prints the table.
site_twenty() {
    if [ "$DAEMON_REAL" = 1 ] && "$BIN/showcasectl" --help 2>&1 | grep -qE '^ +export '; then
        log "site: $DEVELOPERS developers × every storefront × 30 apps with export.site, then one developer's tagline"
        generated=$("$BENCH" gen-cache --template "$TEMPLATE" --dir "$WORK/cache-site20" --storefronts all --apps 30 \
            --hosts 1 --developers "$DEVELOPERS" --hosts-file "$WORK/hosts-site20.txt" --label gen-cache-site20)
        echo "$generated" | record
        printf 'order: []\n' >"$WORK/overlay-site20.yaml"
        write_config "$WORK/showcase-site20.yaml" "$WORK/cache-site20" "$WORK/s20.sock" \
            "${REPLAY:-http://127.0.0.1:9}/lookup" all 0 "{}" "$WORK/hosts-site20.txt"
        sed -i "0,/^  - bundle_id: .*/s//&\n    overlay: overlay-site20.yaml/" "$WORK/showcase-site20.yaml"
        echo "export: {directory: \"$WORK/export-site20\", gzip: true, site: {url: \"https://example.com/apps/\"}}" \
            >>"$WORK/showcase-site20.yaml"
        started=$(date +%s%N)
        "${SERVER_PIN[@]}" "$BIN/showcased" --config "$WORK/showcase-site20.yaml" >"$WORK/daemon-site20.log" 2>&1 &
        S20_PID=$!
        PIDS+=("$S20_PID")
        wait_socket "$WORK/s20.sock" || { log "showcased did not answer; see $WORK/daemon-site20.log"; exit 1; }
        # The first pass renders every page (20 × 173 × 30 app pages); the row times the reload after it. A daemon
        # still in a pass finishes it before it heeds SIGTERM, so the row's daemon is killed outright.
        if "$BENCH" call --socket "$WORK/s20.sock" --call '{"method":"io.showcase.Admin.Export"}' \
            --timeout "$SITE_TIMEOUT" >/dev/null 2>&1; then
            log "site: first pass $(((($(date +%s%N) - started)) / 1000000)) ms; $(find "$WORK/export-site20/site" -name index.html | wc -l) pages; showcased RSS $(ps -o rss= -p "$S20_PID") KiB"
            # Files the reload's pass writes are newer than this (the floor below rewrites exactly those).
            touch "$WORK/site-marker"
            sleep 0.05
            if "${CLIENT_PIN[@]}" "$BENCH" export-reload --socket "$WORK/s20.sock" --export-dir "$WORK/export-site20" \
                --overlay "$WORK/overlay-site20.yaml" --app-id 1650000102 --tagline bench-site-marker \
                --timeout "$SITE_TIMEOUT" --site --label site-reload-20 >"$WORK/site-reload-20.json"; then
                record <"$WORK/site-reload-20.json"
                # The reload's pass is the last one that wrote: its log line counts the pages it rendered and reused.
                counts=$(grep -o '[0-9]* site pages rendered, [0-9]* reused' "$WORK/daemon-site20.log" | tail -1)
                if [ -n "$counts" ]; then
                    echo "{\"label\": \"site-rendered-20\", \"pagesRendered\": $(echo "$counts" | awk '{print $1}'), \"pagesReused\": $(echo "$counts" | awk '{print $5}'), \"load\": \"$(cut -d' ' -f1-3 /proc/loadavg)\"}" \
                        | record
                else
                    skip site-20 "not measured (the daemon logged no site page counts; see daemon-site20.log)"
                fi
                # The floor: the files the pass rewrote (not their .gz), written again by the export's rules —
                # new file, rename, a .gz at zlib's fastest level, every core, one sync — with no rendering at all.
                kill -KILL "$S20_PID" 2>/dev/null || true
                find "$WORK/export-site20/site" -type f -newer "$WORK/site-marker" ! -name '*.gz' ! -name '.*' \
                    >"$WORK/site-changed.txt"
                # On the daemon's cores: pinned to one, the floor gets that one too.
                if [ -s "$WORK/site-changed.txt" ]; then
                    "${SERVER_PIN[@]}" python3 scripts/site-floor.py --label site-floor-20 \
                        --workers "$([ ${#SERVER_PIN[@]} -gt 0 ] && echo 1 || nproc)" --from "$WORK/site-changed.txt" \
                        | record
                fi
            else
                skip site-20 "not measured (the reload's pass did not end within ${SITE_TIMEOUT} s)"
            fi
        else
            skip site-20 "not measured (the first pass did not end within ${SITE_TIMEOUT} s; showcased RSS $(ps -o rss= -p "$S20_PID" | tr -d ' ') KiB)"
        fi
        kill -KILL "$S20_PID" 2>/dev/null || true
        rm -rf "$WORK/cache-site20" "$WORK/export-site20"
    else
        skip site-20 "not measured (export not available)"
    fi
}

# --- showcased --once, cold: exactly S + H upstream requests; wall time ≤ (S + H) / rate + 5 s -------------
# A static site's CI run (SPEC §17) on an empty cache, S storefronts and H hosts of one developer, at the
# configuration's rate limit (100/s: the row runs in well under a second plus the process's own time). Timed from
# exec to exit, the export pass included; the requests are counted by its own lookup-replay's log.
# `BENCH_ONLY=once scripts/bench.sh` builds, runs this step alone and prints the table.
if [ "$DAEMON_REAL" = 1 ] && [ "$REPLAY_REAL" = 1 ] && [ -d "$WORK/lookup" ] \
    && "$BIN/showcased" --help 2>&1 | grep -q -- '--once'; then
    start_replay replay-once
    printf 'order: []\n' >"$WORK/overlay-once.yaml"
    write_config "$WORK/showcase-once.yaml" "$WORK/cache-once" "$WORK/o.sock" "$REPLAY/lookup" \
        "[$(IFS=,; echo "${STOREFRONTS_S[*]}")]" "$HOSTS_H" overlay-once.yaml
    echo "export: {directory: \"$WORK/export-once\", gzip: true}" >>"$WORK/showcase-once.yaml"
    rate=$(sed -n 's/.*rate_limit: \([0-9]*\)\/s.*/\1/p' "$WORK/showcase-once.yaml")
    log "showcased --once on an empty cache (S=${#STOREFRONTS_S[@]}, H=$HOSTS_H, $rate/s)"
    started=$(date +%s%N)
    status=0
    "$BIN/showcased" --once --config "$WORK/showcase-once.yaml" >"$WORK/once.out" 2>"$WORK/once.log" || status=$?
    ended=$(date +%s%N)
    printf '{"label":"once","wallMs":%s,"exitStatus":%s,"ratePerSecond":%s}\n' \
        "$(((ended - started) / 1000000))" "$status" "$rate" | record
    "$BENCH" upstream-count --replay "$REPLAY" --storefronts "${#STOREFRONTS_S[@]}" --hosts "$HOSTS_H" \
        --label once-upstream | record
else
    skip once "showcased --once not available"
fi
if [ "${BENCH_ONLY:-}" = site20 ]; then
    site_twenty
    echo
    "$BENCH" report --results "$RESULTS" --json .build/bench.json
    exit 0
fi
if [ "${BENCH_ONLY:-}" = export20 ]; then
    export_twenty
    echo
    "$BENCH" report --results "$RESULTS" --json .build/bench.json
    exit 0
fi
if [ "${BENCH_ONLY:-}" = once ]; then
    echo
    "$BENCH" report --results "$RESULTS" --json .build/bench.json
    exit 0
fi

# --- a refresh that brings a new version of one app: its Changes entry and Atom entry ≤ 1 s after the cache write ---
# SPEC §15 through the real daemon: one storefront with export.feed on, the baseline warm, then upstream serves the
# same roster with one app's version bumped and Admin.Refresh fetches it. From the refresh's cache write (the cache
# file's mtime) to the first moment Roster.Changes lists the entry and to the write of the .atom that holds it.
# `BENCH_ONLY=history scripts/bench.sh` runs this step alone.
if [ "${BENCH_ONLY:-history}" = history ] && [ "$DAEMON_REAL" = 1 ] && [ "$REPLAY_REAL" = 1 ] && [ -d "$WORK/lookup" ] \
    && "$BIN/showcasectl" --help 2>&1 | grep -qE '^ +changes '; then
    start_replay replay-history
    H_SOCK=$WORK/h.sock
    printf 'order: []\n' >"$WORK/overlay-history.yaml"
    write_config "$WORK/showcase-history.yaml" "$WORK/cache-history" "$H_SOCK" "$REPLAY/lookup" "[us]" 1 \
        overlay-history.yaml
    printf 'export: {directory: "%s", gzip: true, feed: true}\n' "$WORK/export-history" >>"$WORK/showcase-history.yaml"
    "${SERVER_PIN[@]}" "$BIN/showcased" --config "$WORK/showcase-history.yaml" >"$WORK/daemon-history.log" 2>&1 &
    H_PID=$!
    PIDS+=("$H_PID")
    wait_socket "$H_SOCK" || { log "showcased did not answer; see $WORK/daemon-history.log"; exit 1; }
    "$BENCH" wait-fresh --socket "$H_SOCK" --timeout 60 --label warm-history >/dev/null
    "$BIN/showcasectl" --socket "$H_SOCK" refresh --storefront us >/dev/null   # the baseline is on disk once this answers
    python3 - "$WORK/lookup/roster-1650000001-us.json" "$WORK/history-bumped.json" <<'PY'
import json, sys
body = json.load(open(sys.argv[1]))
rows = [row for row in body["results"] if row.get("wrapperType") == "software"]
rows[-1]["version"] = "99.0.0-bench"
rows[-1]["releaseNotes"] = "bench: one new version"
json.dump(body, open(sys.argv[2], "w"))
PY
    curl -fsS -X POST "$REPLAY/_replay/override?name=roster-1650000001-us.json&file=$WORK/history-bumped.json" >/dev/null
    log "history: a refresh that brings a new version of one app"
    "$BIN/showcasectl" --socket "$H_SOCK" refresh --storefront us >/dev/null &
    REFRESH_PID=$!
    atom=$WORK/export-history/v1/com.benchharbor.BenchApp0/us/ios.atom
    changes_ns='' atom_ns='' deadline=$(($(date +%s) + 10))
    while { [ -z "$changes_ns" ] || [ -z "$atom_ns" ]; } && [ "$(date +%s)" -lt "$deadline" ]; do
        if [ -z "$changes_ns" ] && "$BIN/showcasectl" --socket "$H_SOCK" --json changes --storefront us --limit 1 2>/dev/null \
            | grep -q '99.0.0-bench'; then
            changes_ns=$(date +%s%N)
        fi
        if [ -z "$atom_ns" ] && grep -qs '99.0.0-bench' "$atom"; then atom_ns=$(stat -c %.9Y "$atom" | tr -d .); fi
        sleep 0.005
    done
    wait "$REFRESH_PID" || true
    cache_file=$(ls -t "$WORK/cache-history"/roster-1650000001-us-* 2>/dev/null | head -1)
    cache_ns=$(stat -c %.9Y "$cache_file" | tr -d .)
    printf '{"label":"history","changesMs":%s,"atomMs":%s}\n' \
        "$([ -n "$changes_ns" ] && echo $(((changes_ns - cache_ns) / 1000000)) || echo null)" \
        "$([ -n "$atom_ns" ] && echo $(((atom_ns - cache_ns) / 1000000)) || echo null)" | record
    kill "$H_PID" 2>/dev/null || true
else
    skip history "not measured (Roster.Changes or the daemon not available)"
fi
if [ "${BENCH_ONLY:-}" = history ]; then
    echo
    "$BENCH" report --results "$RESULTS" --json .build/bench.json
    exit 0
fi

# --- daemon on the S×H warm: upstream requests, then throughput, reload, showcasectl --------------------
DAEMON_SOCK=$WORK/d.sock
FLOOR_SOCK=$WORK/f.sock
if [ "$DAEMON_REAL" = 1 ] && [ "$REPLAY_REAL" = 1 ] && [ -d "$WORK/lookup" ]; then
    start_replay
    printf 'order: []\n' >"$WORK/overlay.yaml"
    write_config "$WORK/showcase.yaml" "$WORK/cache-warm" "$DAEMON_SOCK" "$REPLAY/lookup" \
        "[$(IFS=,; echo "${STOREFRONTS_S[*]}")]" "$HOSTS_H" overlay.yaml
    log "starting showcased on an empty cache (S=${#STOREFRONTS_S[@]}, H=$HOSTS_H)"
    "${SERVER_PIN[@]}" "$BIN/showcased" --config "$WORK/showcase.yaml" >"$WORK/daemon.log" 2>&1 &
    DAEMON_PID=$!
    PIDS+=("$DAEMON_PID")
    wait_socket "$DAEMON_SOCK" || { log "showcased did not answer; see $WORK/daemon.log"; exit 1; }
    "$BENCH" wait-fresh --socket "$DAEMON_SOCK" --timeout 60 --label warm | record
    "$BENCH" upstream-count --replay "$REPLAY" --storefronts "${#STOREFRONTS_S[@]}" --hosts "$HOSTS_H" | record
    "$BENCH" call --socket "$DAEMON_SOCK" --call "$GET_US" --out "$WORK/reply.json"
    log "captured the daemon's Roster.Get reply: $(wc -c <"$WORK/reply.json") bytes"
    DAEMON_SIDE=$DAEMON_SOCK
    DAEMON_SIDE_PID=$DAEMON_PID
else
    log "showcased/lookup-replay not available yet: throughput runs floor against floor (stand-in)"
    skip upstream "daemon or lookup-replay not merged yet"
    "$BENCH" fake-reply --apps 30 --out "$WORK/reply.json"
    "${SERVER_PIN[@]}" "$BENCH" floor --socket "$WORK/standin.sock" --reply-file "$WORK/reply.json" &
    DAEMON_SIDE_PID=$!
    PIDS+=("$DAEMON_SIDE_PID")
    DAEMON_SIDE=$WORK/standin.sock
    printf '{"label":"meta","daemonSide":"stand-in: a second floor (daemon not merged)"}\n' >>"$RESULTS"
fi

"${SERVER_PIN[@]}" "$BENCH" floor --socket "$FLOOR_SOCK" --reply-file "$WORK/reply.json" &
FLOOR_PID=$!
PIDS+=("$FLOOR_PID")
wait_socket "$FLOOR_SOCK"
wait_socket "$DAEMON_SIDE"

LOAD=(--call "$GET_US" --connections "$CONNECTIONS" --threads "$THREADS" --warmup 1 --duration "$DURATION")

# Instrument check: the floor against a second copy of itself, same client, same rounds. Its ratio is the
# noise of this machine right now; a daemon ratio within that distance of 75% is not a clear verdict.
"${SERVER_PIN[@]}" "$BENCH" floor --socket "$WORK/twin.sock" --reply-file "$WORK/reply.json" &
TWIN_PID=$!
PIDS+=("$TWIN_PID")
wait_socket "$WORK/twin.sock"
for ((round = 1; round <= 2; round++)); do
    "${CLIENT_PIN[@]}" "$BENCH" load --socket "$WORK/twin.sock" --server-pid "$TWIN_PID" "${LOAD[@]}" --label instrument-twin | record
    "${CLIENT_PIN[@]}" "$BENCH" load --socket "$FLOOR_SOCK" --server-pid "$FLOOR_PID" "${LOAD[@]}" --label instrument-floor | record
done
kill "$TWIN_PID" 2>/dev/null || true

for ((round = 1; round <= ROUNDS; round++)); do
    log "round $round/$ROUNDS"
    "${CLIENT_PIN[@]}" "$BENCH" load --socket "$DAEMON_SIDE" --server-pid "$DAEMON_SIDE_PID" "${LOAD[@]}" --label throughput-daemon | record
    "${CLIENT_PIN[@]}" "$BENCH" load --socket "$FLOOR_SOCK" --server-pid "$FLOOR_PID" "${LOAD[@]}" --label throughput-floor | record
done

if [ "${BENCH_PROFILE:-0}" = 1 ] && [ -n "${DAEMON_PID:-}" ] && command -v perf >/dev/null 2>&1; then
    log "profiling the daemon under the same load (perf, 3 s)"
    "${CLIENT_PIN[@]}" "$BENCH" load --socket "$DAEMON_SOCK" "${LOAD[@]}" --duration 5 --label profile >/dev/null &
    PROFILE_LOAD=$!
    sleep 1.5
    perf record -F 2000 -g -p "$DAEMON_PID" -o "$WORK/perf.data" -- sleep 3 >/dev/null 2>&1 || true
    wait "$PROFILE_LOAD" || true
    (
        set +o pipefail
        echo "# perf of showcased under ${CONNECTIONS} connections: by object, then by symbol (self, then inclusive)"
        perf report -i "$WORK/perf.data" --no-children --sort dso --stdio -g none 2>/dev/null | grep '%' | head -12
        perf report -i "$WORK/perf.data" --no-children --sort symbol --stdio -g none 2>/dev/null | grep '%' | head -40
        perf report -i "$WORK/perf.data" --children --sort symbol --stdio -g none 2>/dev/null | grep '%' | head -40
    ) 2>/dev/null | swift demangle --simplified >.build/bench/profile.txt || true   # head closes pipes early
    log "profile: .build/bench/profile.txt"
fi

if [ "$DAEMON_REAL" = 1 ] && [ -n "${DAEMON_PID:-}" ]; then
    # A real change: a tagline for the first app shown, applied by the reload, seen by the next Get.
    printf 'taglines:\n  %s: "bench-reload-marker"\n' 1650000102 >"$WORK/overlay.yaml"
    "${CLIENT_PIN[@]}" "$BENCH" reload --socket "$DAEMON_SOCK" --call "$GET_US" --connections "$CONNECTIONS" --threads "$THREADS" \
        --duration 3 --reload-at 1 --check-call "$GET_US" --expect bench-reload-marker --label reload | record
    if [ "$CTL_REAL" = 1 ]; then
        "$BENCH" exec-time --runs 21 --warmups 2 --label ctl -- \
            "$BIN/showcasectl" --socket "$DAEMON_SOCK" roster --storefront us | record
    else
        skip ctl "showcasectl roster not merged yet"
    fi
else
    skip reload "daemon not merged yet"
    skip ctl "daemon not merged yet"
fi

# --- varied calls (30 storefronts), then Watch fan-out on the same daemon ----------------------------------
if [ "$DAEMON_REAL" = 1 ] && [ "$REPLAY_REAL" = 1 ] && [ -d "$WORK/lookup" ]; then
    V_SOCK=$WORK/v.sock
    write_config "$WORK/showcase-v.yaml" "$WORK/cache-v" "$V_SOCK" "$REPLAY/lookup" "[$V_LIST]" 1 overlay.yaml
    log "starting showcased with ${#STOREFRONTS_V[@]} storefronts for the varied calls and the Watch fan-out"
    "${SERVER_PIN[@]}" "$BIN/showcased" --config "$WORK/showcase-v.yaml" >"$WORK/daemon-v.log" 2>&1 &
    V_PID=$!
    PIDS+=("$V_PID")
    wait_socket "$V_SOCK" || { log "showcased did not answer; see $WORK/daemon-v.log"; exit 1; }
    "$BENCH" wait-fresh --socket "$V_SOCK" --timeout 60 --label warm-v >/dev/null
    "$BENCH" gen-calls --storefronts "$V_LIST" --out "$WORK/rotation.txt"
    "$BENCH" median-reply --socket "$V_SOCK" --rotation-file "$WORK/rotation.txt" --out "$WORK/varied-reply.json" | record
    "${SERVER_PIN[@]}" "$BENCH" floor --socket "$WORK/vf.sock" --reply-file "$WORK/varied-reply.json" &
    VF_PID=$!
    PIDS+=("$VF_PID")
    wait_socket "$WORK/vf.sock"
    VARIED=(--connections "$CONNECTIONS" --threads "$THREADS" --warmup 1 --duration "$DURATION")
    for ((round = 1; round <= ROUNDS; round++)); do
        log "varied calls: round $round/$ROUNDS"
        "${CLIENT_PIN[@]}" "$BENCH" load --socket "$V_SOCK" --server-pid "$V_PID" --rotation-file "$WORK/rotation.txt" \
            "${VARIED[@]}" --label varied-daemon | record
        "${CLIENT_PIN[@]}" "$BENCH" load --socket "$WORK/vf.sock" --server-pid "$VF_PID" --call "$GET_US" \
            "${VARIED[@]}" --label varied-floor | record
    done
    kill "$VF_PID" 2>/dev/null || true

    log "Watch fan-out: $FANOUT_SUBSCRIBERS subscribers on us, then a refresh that adds an app"
    curl -fsS -X POST "$REPLAY/_replay/override?name=roster-1650000001-us.json&file=$WORK/lookup-changed/roster-1650000001-us.json" \
        >/dev/null
    "$BENCH" watch-fanout --socket "$V_SOCK" --subscribers "$FANOUT_SUBSCRIBERS" --storefront us \
        --cache-dir "$WORK/cache-v" --cache-prefix roster-1650000001-us- --server-pid "$V_PID" --label fanout | record
    kill "$V_PID" 2>/dev/null || true
else
    skip varied "daemon or lookup-replay not available"
    skip fanout "daemon or lookup-replay not available"
fi

# --- 175 storefronts × 200 apps from the cache: exec → ready, RSS ---------------------------------------
if [ "$DAEMON_REAL" = 1 ] && "$BENCH" help 2>/dev/null | grep -q gen-cache; then
    # `all` is every storefront ShowcaseCore knows (the contract says 175; the table decides, the row shows it).
    log "writing every storefront × 200 apps into a cache directory"
    "$BENCH" gen-cache --template "$TEMPLATE" --dir "$WORK/cache-175" --storefronts all --apps 200 \
        --hosts 1 --touch-file "$WORK/touch.txt" | record
    write_config "$WORK/showcase-175.yaml" "$WORK/cache-175" "$WORK/s.sock" "${REPLAY:-http://127.0.0.1:9}/lookup" \
        all 1 overlay.yaml
    for ((round = 1; round <= ROUNDS; round++)); do
        "$BENCH" startup --socket "$WORK/s.sock" --call "$GET_US" --touch-file "$WORK/touch.txt" \
            --log "$WORK/daemon-175.log" --label startup -- \
            "$BIN/showcased" --config "$WORK/showcase-175.yaml" | record
    done
else
    skip startup "daemon or cache generator not available yet"
fi

# --- twenty developers × every storefront × 200 apps from the cache: exec → ready, RSS ---------------------
if [ "$DAEMON_REAL" = 1 ]; then
    log "writing $DEVELOPERS developers × every storefront × 200 apps into a cache directory"
    "$BENCH" gen-cache --template "$TEMPLATE" --dir "$WORK/cache-20" --storefronts all --apps 200 --hosts 1 \
        --developers "$DEVELOPERS" --touch-file "$WORK/touch-20.txt" --hosts-file "$WORK/hosts-20.txt" \
        --label gen-cache-20 | record
    write_config "$WORK/showcase-20.yaml" "$WORK/cache-20" "$WORK/t.sock" "${REPLAY:-http://127.0.0.1:9}/lookup" \
        all 0 overlay.yaml "$WORK/hosts-20.txt"
    for ((round = 1; round <= SCALE_ROUNDS; round++)); do
        "$BENCH" startup --socket "$WORK/t.sock" --call "$GET_US" --touch-file "$WORK/touch-20.txt" \
            --log "$WORK/daemon-20.log" --timeout 120 --label startup-20 -- \
            "$BIN/showcased" --config "$WORK/showcase-20.yaml" | record
    done
    # The same load as a real catalog lists it: each storefront's own currency, price label and rating count, so
    # no app is alike in two storefronts (only what does not depend on the storefront can be shared).
    log "the same, with each storefront's own currency, price label and ratings"
    rm -rf "$WORK/cache-20"  # 2 GB of bodies: one such cache at a time
    "$BENCH" gen-cache --template "$TEMPLATE" --dir "$WORK/cache-20p" --storefronts all --apps 200 --hosts 1 \
        --developers "$DEVELOPERS" --touch-file "$WORK/touch-20p.txt" --hosts-file "$WORK/hosts-20p.txt" \
        --local-prices --label gen-cache-20-prices | record
    write_config "$WORK/showcase-20p.yaml" "$WORK/cache-20p" "$WORK/t.sock" "${REPLAY:-http://127.0.0.1:9}/lookup" \
        all 0 overlay.yaml "$WORK/hosts-20p.txt"
    for ((round = 1; round <= SCALE_ROUNDS; round++)); do
        "$BENCH" startup --socket "$WORK/t.sock" --call "$GET_US" --touch-file "$WORK/touch-20p.txt" \
            --log "$WORK/daemon-20p.log" --timeout 120 --label startup-20-prices -- \
            "$BIN/showcased" --config "$WORK/showcase-20p.yaml" | record
    done
    rm -rf "$WORK/cache-20p"
else
    skip twenty "daemon not available"
    skip twenty-prices "daemon not available"
fi

# --- export: every storefront × 200 apps from the cache, exported; a reload that changes one tagline -------------
if [ "$DAEMON_REAL" = 1 ] && "$BIN/showcasectl" --help 2>&1 | grep -qE '^ +export '; then
    log "export: every storefront × 200 apps, exported, then a reload that changes one app's tagline"
    "$BENCH" gen-cache --template "$TEMPLATE" --dir "$WORK/cache-export" --storefronts all --apps 200 \
        --hosts 1 --label gen-cache-export | record
    printf 'order: []\n' >"$WORK/overlay-export.yaml"
    write_config "$WORK/showcase-export.yaml" "$WORK/cache-export" "$WORK/x.sock" \
        "${REPLAY:-http://127.0.0.1:9}/lookup" all 1 overlay-export.yaml
    echo "export: {directory: \"$WORK/export\", gzip: true}" >>"$WORK/showcase-export.yaml"
    "${SERVER_PIN[@]}" "$BIN/showcased" --config "$WORK/showcase-export.yaml" >"$WORK/daemon-export.log" 2>&1 &
    X_PID=$!
    PIDS+=("$X_PID")
    wait_socket "$WORK/x.sock" || { log "showcased did not answer; see $WORK/daemon-export.log"; exit 1; }
    # The app after the host (which hides itself), in every storefront's iOS document.
    "${CLIENT_PIN[@]}" "$BENCH" export-reload --socket "$WORK/x.sock" --export-dir "$WORK/export" \
        --overlay "$WORK/overlay-export.yaml" --app-id 1650000102 --tagline bench-export-marker | record
    kill "$X_PID" 2>/dev/null || true
else
    skip export "not measured (export not available)"
fi

run_icons
export_twenty
site_twenty

echo
"$BENCH" report --results "$RESULTS" --json .build/bench.json
log "results: .build/bench.json (raw lines: $RESULTS)"
