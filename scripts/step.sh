#!/usr/bin/env bash
# One step of `.ci/run` or `make test`, timed and bounded (docs/development.md, "CI's step table"):
#   scripts/step.sh [--keep REGEX] NAME LIMIT COMMAND…
#       runs COMMAND with at most LIMIT of wall time (seconds, or timeout(1)'s 90s / 20m / 1h). Past it the
#       command's process group gets SIGTERM, then SIGKILL 30 s later, and the step fails as "TIMED OUT after
#       LIMIT". Its output passes through; with --keep, the lines matching REGEX (swift test's closing summary,
#       say) are printed again after the table, so the end of a run still shows them.
#   scripts/step.sh --table
#       prints the table of the steps recorded so far in $STEPS_LOG (below).
#   scripts/step.sh --untimed [--keep REGEX] NAME LIMIT COMMAND…
#       runs COMMAND alone, neither bounded nor recorded: the Makefile's steps under `make -n`, whose recursive
#       $(MAKE) calls still run (to print their recipes; scripts/check-deps.sh reads them).
# Each step appends one line to $STEPS_LOG when it ends: start and end (ns), depth, limit, result, name. A step
# run inside another (make test's sub-steps inside .ci/run's "make test") is indented under it. The outermost
# step, started without STEPS_LOG, makes the log and prints the table when it ends, passed or failed, naming the
# step that failed first; .ci/run makes the log itself and prints the table once, after its last step.
set -uo pipefail

table() {
    local log=${STEPS_LOG:?scripts/step.sh --table: STEPS_LOG names no log}
    [ -s "$log" ] || return 0
    echo
    echo "=== steps: wall time (limit) ==="
    sort -t $'\t' -k1,1n -k3,3n "$log" | awk -F '\t' '
        function span(ns) { s = ns / 1e9; return s < 10 ? sprintf("%.1f s", s) : sprintf("%d s", s + 0.5) }
        {
            printf "%-36s %9s  (%6s)  %s\n", sprintf("%*s%s", 2 * $3, "", $6), span($2 - $1), $4, $5
            if ($5 != "ok" && (first == "" || $2 < first_end)) { first = $6; first_end = $2; why = $5 }
        }
        END { if (first != "") printf "first failed step: %s, %s\n", first, why }'
    if [ -s "$log.kept" ]; then
        echo "=== kept from the steps' output ==="
        cat "$log.kept"
    fi
}

if [ "${1:-}" = --table ]; then
    table
    exit 0
fi

untimed=''
if [ "${1:-}" = --untimed ]; then
    untimed=yes
    shift
fi
keep=''
if [ "${1:-}" = --keep ]; then
    keep=$2
    shift 2
fi
[ "$#" -ge 3 ] || { echo "usage: scripts/step.sh [--keep REGEX] NAME LIMIT COMMAND… | scripts/step.sh --table" >&2; exit 64; }
name=$1 limit=$2
shift 2
[ -z "$untimed" ] || exec "$@"

owner=''
if [ -z "${STEPS_LOG:-}" ]; then
    STEPS_LOG=$(mktemp "${TMPDIR:-/tmp}/steps.XXXXXX")
    owner=yes
fi
depth=${STEPS_DEPTH:-0}
export STEPS_LOG STEPS_DEPTH=$((depth + 1))

echo "=== step: $name (limit $limit) ==="
start=$(date +%s%N)
# timeout(1) runs COMMAND in a process group of its own and signals the whole group, so what the command started
# (make's children, swift test's runner, a browser) goes too. That group is not the terminal's, so a Ctrl-C or a
# SIGTERM sent to this script is passed on to it. Stdin goes through fd 3: a background job's would be /dev/null.
exec 3<&0
out=''
if [ -n "$keep" ]; then
    out=$(mktemp "${TMPDIR:-/tmp}/step-out.XXXXXX")
    exec 4> >(tee -a "$out")
    tee_pid=$!
    timeout --kill-after=30s "$limit" "$@" <&3 >&4 2>&1 &
    pid=$!
    exec 4>&-
else
    timeout --kill-after=30s "$limit" "$@" <&3 &
    pid=$!
fi
exec 3<&-
interrupted=''
trap 'interrupted=yes; kill -TERM "$pid" 2>/dev/null' INT TERM
while :; do
    interrupted=''
    wait "$pid"
    status=$?
    # A trapped signal ends the wait early, with the command still ending: wait again for its own status.
    [ -n "$interrupted" ] || break
done
trap - INT TERM
end=$(date +%s%N)

case $status in
    0) result=ok ;;
    124) result="TIMED OUT after $limit" ;;
    137) result="KILLED (exit 137: past $limit and deaf to SIGTERM, or killed from outside)" ;;
    *) result="FAILED (exit $status)" ;;
esac
if [ -n "$out" ]; then
    # tee ends when the last writer closes: bounded, in case the command left a process holding its output.
    for _ in $(seq 50); do kill -0 "$tee_pid" 2>/dev/null || break; sleep 0.1; done
    # As printed (a reader of a run's last lines may match them exactly), under the step's name.
    { echo "--- $name:"; grep -E "$keep" "$out"; } >>"$STEPS_LOG.kept"
    rm -f "$out"
fi
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$start" "$end" "$depth" "$limit" "$result" "$name" >>"$STEPS_LOG"
if [ "$status" -ne 0 ]; then
    echo "=== step: $name: $result ===" >&2
fi
if [ -n "$owner" ]; then
    table
    rm -f "$STEPS_LOG" "$STEPS_LOG.kept"
fi
exit "$status"
