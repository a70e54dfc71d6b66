#!/usr/bin/env bash
# `make try CONFIG=FILE`: your configuration run once against the offline replay, and the result served.
#   1. showcasectl check-config FILE (its errors name your file's lines);
#   2. lookup-replay serves Fixtures/lookup/ on loopback (with --serve-icons: invented icons); FILE is copied into a
#      scratch directory with lookup.endpoint and artwork_hosts pointed at the replay and the cache, state and export
#      directories inside it (scripts/replay-config.py; FILE itself is never modified). A host whose bundle_id the
#      fixtures do not know, or a storefront they have no roster for, is named with the ones they know: exit 65;
#   3. `showcased --once` writes the export as a static-site build would (its report and exit status shown);
#   4. nginx, unprivileged, serves a copy of the tree with the examples/web widget and an SSI page (scripts/lib.sh
#      serve_site, shared with make demo) and the URLs are printed: interactive, until Ctrl-C; otherwise the
#      script checks they answer and stops. Without nginx it prints a python3 http.server command instead.
# Exit status: showcased --once's (0 every roster fresh), 65 for what the fixtures cannot answer, 64 for a usage
# error, 66 for a FILE that cannot be read, check-config's status for a FILE it rejects (78: not valid).
# Expects the debug build (`make try` builds it first); BIN_DIR overrides where the binaries are; the scratch
# directory is removed on exit unless KEEP=1.
set -euo pipefail
[ "$#" -eq 1 ] && [ -n "$1" ] || { echo "usage: make try CONFIG=FILE   (or scripts/try.sh FILE)" >&2; exit 64; }
[ -r "$1" ] && [ -f "$1" ] || { echo "try: cannot read the configuration '$1'" >&2; exit 66; }
config=$(realpath "$1")
cd "$(dirname "$0")/.."

CHECK=try
. scripts/lib.sh
bin_dir=${BIN_DIR:-$(swift build --show-bin-path)}
for exe in showcased showcasectl lookup-replay; do
    [ -x "$bin_dir/$exe" ] || { echo "try: $bin_dir/$exe is missing; run: make try CONFIG=$1" >&2; exit 1; }
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/showcase-try.XXXXXX")
replay_pid='' nginx_pid='' served=''
cleanup() {
    stop_site
    stop_pid "$replay_pid"
    if [ "${KEEP:-}" = 1 ]; then echo "try: kept $scratch" >&2; else rm -rf "$scratch"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== $config"
status=0
"$bin_dir/showcasectl" check-config "$config" || status=$?
[ "$status" -eq 0 ] || exit "$status"

start_replay "$bin_dir" "$scratch" --serve-icons
echo "== the offline replay: http://127.0.0.1:$replay_port/lookup (Fixtures/lookup/, invented data)"
replay_config "$config" "$scratch" --fixtures Fixtures/lookup >"$scratch/showcase.yaml" || status=$?
[ "$status" -eq 0 ] || exit "$status"
echo "   run from a copy with lookup.endpoint and artwork_hosts at the replay, cache, state and export in $scratch"

echo "== showcased --once"
"$bin_dir/showcased" --once --config "$scratch/showcase.yaml" --max-wait 60s 2>"$scratch/showcased.log" || status=$?
if [ "$status" -ne 0 ]; then
    sed 's/^/   /' "$scratch/showcased.log" >&2
    echo "try: showcased --once exited $status (showcased(8), EXIT STATUS)" >&2
    exit "$status"
fi

# What the widget and the SSI page show first: the configuration's first host and storefront, and its document on
# the default platform (index.json lists what the run exported).
read -r host storefront document < <(python3 - "$scratch/showcase.yaml" "$scratch/site/showcase/v1/index.json" <<'PY'
import json, sys, yaml
config = yaml.safe_load(open(sys.argv[1]))
documents = json.load(open(sys.argv[2]))["documents"]
host = config["hosts"][0]["bundle_id"]
platform = config.get("default_platform") or "ios"
storefronts = config.get("storefronts") or ["us"]
first = storefronts[0] if isinstance(storefronts, list) else "us"
first = str(first.get("code") if isinstance(first, dict) else first).lower()
def rank(entry):
    return (entry["host"] != host, entry["storefront"] != first, entry["platform"] != platform, "language" in entry)
best = sorted(documents, key=rank)[0]
print(best["host"], best["storefront"], best["path"])
PY
)
site_pages "$scratch/site" "$host" "$storefront"
tree=$scratch/site/showcase/v1
if command -v nginx >/dev/null; then
    serve_site "$scratch/site"
    urls=("$base/index.html" "$base/showcase/v1/index.json" "$base/showcase/v1/$document")
    [ -f "$tree/$host/$storefront/ios.html" ] && urls+=("$base/ssi.html")
    answers "${urls[@]}"
    echo "== nginx serves the export of $config"
    echo "  widget page:           $base/index.html   (?host=BUNDLE_ID&storefront=CC for another)"
    echo "  index of the export:   $base/showcase/v1/index.json"
    echo "  one document:          $base/showcase/v1/$document"
    [ -f "$tree/$host/$storefront/ios.html" ] && echo "  SSI page (no script):  $base/ssi.html"
    serve_until_interrupted
else
    echo "== serve it: python3 -m http.server --bind 127.0.0.1 --directory $scratch/site 8000 (install nginx: make deps)"
    [ "${KEEP:-}" = 1 ] || echo "   (run with KEEP=1 to keep $scratch)"
fi
