#!/usr/bin/env bash
# SPEC §11 "binaries": each stripped release binary ≤ 20 MB (10⁶ bytes). The binaries are the ones
# scripts/install.sh installs (and so the .deb ships), read from its install loop so a new one is checked too.
# Each is stripped as a copy (the build's own file keeps its symbols) and must also be free of ICU and of
# Foundation's non-Essentials libraries: one `import Foundation` anywhere in a binary's module graph links
# them back (about 40 MB). A size is not a timing, so this check may fail the build.
# Reuses the release build `make release` makes (swift build -c release --static-swift-stdlib), or BIN_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

LIMIT=${SIZE_LIMIT_BYTES:-20000000}
bin_dir=${BIN_DIR:-$(swift build -c release --static-swift-stdlib --show-bin-path)}
read -r -a binaries <<<"$(sed -n 's/^ *for exe in \(.*\); do$/\1/p' scripts/install.sh)"
[ "${#binaries[@]}" -gt 0 ] || { echo "check-sizes: FAIL: no binary list in scripts/install.sh" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for exe in "${binaries[@]}"; do
    [ -x "$bin_dir/$exe" ] || { echo "check-sizes: FAIL: no built $exe in $bin_dir (run make release)" >&2; exit 1; }
    cp "$bin_dir/$exe" "$work/$exe"
    strip "$work/$exe"
    size=$(stat -c %s "$work/$exe")
    if [ "$size" -gt "$LIMIT" ]; then
        echo "check-sizes: FAIL: $exe is $size bytes stripped, over the $LIMIT-byte limit" >&2
        failed=1
    else
        echo "check-sizes: ok: $exe is $size bytes stripped (limit $LIMIT)"
    fi
    # ICU's data (icudt*_dat) and Foundation's Internationalization module are what `import Foundation` adds.
    # (nm to a file: with pipefail, grep -q closing the pipe early would fail the pipeline and hide a match.)
    nm "$bin_dir/$exe" >"$work/$exe.symbols"
    if grep -qE ' icudt[0-9]+_dat$|FoundationInternationalization' "$work/$exe.symbols"; then
        echo "check-sizes: FAIL: $exe links ICU (some module in its graph imports Foundation, not FoundationEssentials)" >&2
        failed=1
    fi
done
exit "$failed"
