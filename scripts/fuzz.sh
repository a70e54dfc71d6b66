#!/usr/bin/env bash
# libFuzzer over the code that reads untrusted bytes (README "Development"):
#   fuzz-config   the YAML reader and the configuration loader
#   fuzz-varlink  the JSON parser and Varlink framing (a real server over a socketpair)
#   fuzz-lookup   the lookup decoder (roster and host identity)
#   fuzz-cache    the cache record reader (headers, apps section, identity and diagnostic files)
#   fuzz-urls     the URL rules upstream store and icon URLs pass (and lookup.artwork_hosts entries)
#   fuzz-images   the image header reader (PNG, JPEG, WebP) mirrored icons pass, and the icon URL sizing
#   fuzz-history  the change history log reader (entries checked on read, a log set aside, then recorded after)
# Each runs FUZZ_SECONDS (default 60), FUZZ_JOBS (default: the number of cores) at a time, from its seed corpus
# Fixtures/fuzz/<target>/; new inputs go to
# .build/fuzz/corpus/<target>/ (never into the repository). A crash leaves its input as
# .build/fuzz/crashes/<target>/crash-* and fails the script: turn it into a regression test.
# The build (address sanitizer + fuzzer instrumentation) lives in .build/fuzz, apart from the normal build:
# the targets are declared in Package.swift only when SHOWCASE_FUZZ is set.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-"config varlink lookup cache urls images history"}
build=.build/fuzz
flags=(--build-path "$build" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)

mkdir -p "$build"
for target in $targets; do
    echo "fuzz: building fuzz-$target"
    if ! SHOWCASE_FUZZ=1 $SWIFT build "${flags[@]}" --product "fuzz-$target" >"$build/build-$target.log" 2>&1; then
        grep -E 'error|warning: unre' "$build/build-$target.log" | head -n 40 >&2
        echo "fuzz: building fuzz-$target failed (log: $build/build-$target.log)" >&2
        exit 1
    fi
done
bin=$(SHOWCASE_FUZZ=1 $SWIFT build "${flags[@]}" --show-bin-path)

# fuzz_one TARGET: runs one target for $seconds; its log in $build/TARGET.log, its exit status in $build/TARGET.status.
fuzz_one() {
    local target=$1 corpus=$build/corpus/$1 crashes=$build/crashes/$1 tmp=$build/tmp/$1 status=0
    mkdir -p "$corpus" "$crashes"
    # -timeout: one input taking over 10 s is a hang; -rss_limit_mb: memory per input stays bounded.
    # The config, cache and history targets write their inputs to files: keep those under .build/fuzz/tmp/<target>.
    # SWIFT_BACKTRACE=enable=no (FuzzingDriver also sets it when unset): on a Swift trap (a failed precondition)
    # the runtime's crash handler would copy every thread's stack for swift-backtrace, and ASan reports that copy
    # as a stack-buffer-underflow in whichever frame it reads first (the Varlink loop thread parked in epoll_wait,
    # say), aborting before the trap is reported. Without it, libFuzzer reports the trap ("deadly signal") and
    # saves the input.
    rm -rf "$tmp" && mkdir -p "$tmp"
    TMPDIR="$PWD/$tmp/" ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no \
        "$bin/fuzz-$target" "$corpus" "Fixtures/fuzz/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 -max_len=65536 \
        -artifact_prefix="$crashes/" -print_final_stats=1 >"$build/$target.log" 2>&1 || status=$?
    echo "$status" >"$build/$target.status"
}

# FUZZ_JOBS targets at a time (default: one per core): each fuzzer runs on one thread, so on two cores two
# targets take the time one did, each still fuzzed FUZZ_SECONDS.
jobs_max=${FUZZ_JOBS:-$(nproc)}
for target in $targets; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
    echo "fuzz: $target for ${seconds}s"
    rm -f "$build/$target.status"
    fuzz_one "$target" &
done
wait
failed=()
for target in $targets; do
    if [ "$(cat "$build/$target.status" 2>/dev/null)" != 0 ]; then
        grep -E 'Precondition failed|Fatal error' "$build/$target.log" | head -n 5 >&2 || true
        tail -n 40 "$build/$target.log" >&2
        failed+=("$target")
    else
        grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$build/$target.log" | sed "s/^/fuzz: $target /"
    fi
done
if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: FAILED: ${failed[*]} (inputs in $build/crashes/)" >&2
    exit 1
fi
echo "fuzz: no crash in ${targets} (${seconds}s each)"
