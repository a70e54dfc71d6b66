#!/usr/bin/env bash
# `make demo`: showcased end to end with no internet. A loopback lookup-replay server answers from
# Fixtures/lookup/ (an invented developer, in the exact shape of Apple's responses); showcased runs
# as your user with the demo configuration (Fixtures/demo/) in a temporary directory; showcasectl
# queries it; the overlay is edited and reloaded; everything is stopped and removed on exit, except
# the static export: the daemon writes it, with export.html's fragments, into .build/demo-site/showcase (beside a
# copy of the examples/web widget and an SSI page), and the demo ends by serving it with nginx and printing the
# URLs of the widget page and the SSI page (interactive: until Ctrl-C; otherwise it checks both answer and stops).
# Expects the debug build (`make demo` builds it first); BIN_DIR overrides where the binaries are.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

bin_dir=${BIN_DIR:-$(swift build --show-bin-path)}
for exe in showcased showcasectl lookup-replay; do
    [ -x "$bin_dir/$exe" ] || { echo "demo: $bin_dir/$exe is missing; run: make demo" >&2; exit 1; }
done

bold='' plain=''
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
    bold=$(tput bold 2>/dev/null || true)
    plain=$(tput sgr0 2>/dev/null || true)
fi
step() { printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }
show() { printf '%s$ %s%s\n' "$bold" "$*" "$plain"; "$@"; }

demo=$(mktemp -d "${TMPDIR:-/tmp}/showcase-demo.XXXXXX")
replay_pid='' daemon_pid=''
cleanup() {
    local status=$?
    if [ -n "$daemon_pid" ] && kill -0 "$daemon_pid" 2>/dev/null; then
        kill -TERM "$daemon_pid" 2>/dev/null || true
        wait "$daemon_pid" 2>/dev/null || true
    fi
    if [ -n "${nginx_pid:-}" ] && kill -0 "$nginx_pid" 2>/dev/null; then
        kill -TERM "$nginx_pid" 2>/dev/null || true
    fi
    if [ -n "$replay_pid" ] && kill -0 "$replay_pid" 2>/dev/null; then
        kill -TERM "$replay_pid" 2>/dev/null || true
        wait "$replay_pid" 2>/dev/null || true
    fi
    if [ "$status" -ne 0 ] && [ -s "$demo/showcased.log" ]; then
        echo "demo: failed; showcased's log:" >&2
        sed 's/^/  /' "$demo/showcased.log" >&2
    fi
    rm -rf "$demo"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# 1. The loopback lookup server: it prints its port on the first line.
step "lookup-replay serves Fixtures/lookup/ on 127.0.0.1 (no internet needed)"
"$bin_dir/lookup-replay" --fixtures "$repo/Fixtures/lookup" --port 0 >"$demo/replay.out" 2>"$demo/replay.log" &
replay_pid=$!
for _ in $(seq 100); do
    [ -s "$demo/replay.out" ] && break
    kill -0 "$replay_pid" 2>/dev/null || { cat "$demo/replay.log" >&2; exit 1; }
    sleep 0.1
done
port=$(head -n 1 "$demo/replay.out")
[ -n "$port" ] || { echo "demo: lookup-replay did not print its port" >&2; exit 1; }
echo "lookup endpoint: http://127.0.0.1:$port/lookup"

# 2. The demo configuration, pointed at the loopback server and the temporary directory.
step "the demo configuration ($demo/etc)"
mkdir -p "$demo/etc" "$demo/cache" "$demo/run"
sed -e "s#^\(  endpoint:\).*#\1 http://127.0.0.1:$port/lookup#" \
    -e "s#^\(  directory:\).*#\1 $demo/cache#" \
    -e "s#^\(  path:\).*#\1 $demo/run/showcased.sock#" \
    Fixtures/demo/showcase.yaml >"$demo/etc/showcase.yaml"
# The static export, kept after the demo with the widget beside it (an earlier demo's tree is replaced).
site=$repo/.build/demo-site
rm -rf "$site"
mkdir -p "$site"
cp examples/web/* "$site/"
printf 'export:                              # the static export: JSON documents for web servers\n  directory: %s\n  html: true                           # and HTML fragments, email variants, banner.html (SPEC §14)\n' \
    "$site/showcase" >>"$demo/etc/showcase.yaml"
# A page of yours that includes a fragment with nginx SSI: no JavaScript.
cat >"$site/ssi.html" <<'EOF_SSI'
<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <title>More from this developer — an nginx SSI include of showcased's fragment</title>
  <!--#include virtual="/showcase/v1/com.quietharbor.TideLog/banner.html" -->
  <link rel="stylesheet" href="showcase-widget.css">
</head>
<body>
  <h1>Quiet Harbor Labs</h1>
  <p>This list is the daemon's de/ios.html fragment, included by nginx (no JavaScript).</p>
  <!--#include virtual="/showcase/v1/com.quietharbor.TideLog/de/ios.html" -->
</body>
</html>
EOF_SSI
cp Fixtures/demo/overlay.yaml "$demo/etc/overlay.yaml"
socket=$demo/run/showcased.sock
# The commands shown are what a user types: the binaries are on PATH, and RUNTIME_DIRECTORY (what systemd sets for
# the service) names the demo's socket directory, so showcasectl finds the daemon without --socket.
export PATH="$bin_dir:$PATH" RUNTIME_DIRECTORY=$demo/run
ctl() { show showcasectl "$@"; }
ctl check-config "$demo/etc/showcase.yaml"

# 3. The daemon, as this user, logging to a file.
step "showcased starts: it answers at once and warms us, de and jp in the background"
printf '%s$ showcased --config %s 2>showcased.log &%s\n' "$bold" "$demo/etc/showcase.yaml" "$plain"
showcased --config "$demo/etc/showcase.yaml" --socket "$socket" 2>"$demo/showcased.log" &
daemon_pid=$!
ready=''
for _ in $(seq 300); do
    if showcasectl status >/dev/null 2>&1; then ready=yes; break; fi
    kill -0 "$daemon_pid" 2>/dev/null || break
    sleep 0.1
done
[ -n "$ready" ] || { echo "demo: showcased did not answer on $socket" >&2; exit 1; }
echo "showcased (pid $daemon_pid) answers on $socket"

step "the roster for the US store (waits up to 30 s for the first fetch)"
ctl roster --storefront us --wait 30

step "the Japanese store: names and prices as that storefront gives them, Japanese taglines"
ctl roster --storefront jp --wait 30

step "the German Mac App Store: Mac apps only (kind mac-software), never mixed into iOS answers"
ctl roster --storefront DEU --platform macos --wait 30

step "status: one line per storefront"
ctl status

# 4. The operator edits the overlay and reloads: the new order applies with no upstream request.
step "edit the overlay: pin Windrose first and give it a tagline, then reload"
show diff -u "$demo/etc/overlay.yaml" "$repo/Fixtures/demo/overlay-edited.yaml" || true
cp Fixtures/demo/overlay-edited.yaml "$demo/etc/overlay.yaml"
ctl reload
ctl roster --storefront us

# 5. The static export: what a website gets, with no daemon and no Varlink on its side.
step "the static export: the daemon keeps one JSON document per host, storefront and platform current"
ctl export
printf '%s$ find %s -type f | sort%s\n' "$bold" "$site/showcase" "$plain"
find "$site/showcase" -type f -not -name '.*' -printf '%P\n' | sort | sed 's/^/  /'
step "one document (the German iOS store; the reload above already changed Windrose's tagline here)"
show sed -n '1,40p' "$site/showcase/v1/com.quietharbor.TideLog/de/ios.json"
echo "  … (the rest of the apps)"

step "stop: SIGTERM finishes in-flight replies and cache writes, then exits 0"
kill -TERM "$daemon_pid"
status=0
wait "$daemon_pid" || status=$?
daemon_pid=''
echo "showcased exited with status $status"
[ "$status" -eq 0 ] || exit 1

step "the web fragment beside it (export.html): the same list as HTML with schema.org data, for includes"
show sed -n '1,4p' "$site/showcase/v1/com.quietharbor.TideLog/de/ios.html"
echo "  … (one <li> per app, then the JSON-LD)"

# 6. What a website shows: nginx serves the tree (etc/nginx/showcase.conf), the widget and an SSI page.
if command -v nginx >/dev/null; then
    CHECK=demo
    . scripts/lib.sh
    chmod 755 "$demo"   # as root, nginx runs as nobody, who must reach its prefix inside
    start_nginx "$demo/nginx" "$site/showcase" "        location / { root $site; ssi on; }"
    for url in "$base/index.html?storefront=de" "$base/ssi.html"; do
        curl -sf -o /dev/null "$url" || { echo "demo: nginx does not serve $url" >&2; exit 1; }
    done
    step "nginx serves the export, the widget and a page including the fragment (stays in $site)"
    echo "  widget page:           $base/index.html?storefront=de   (JavaScript; the page's language picks fr/en/…)"
    echo "  SSI page (no script):  $base/ssi.html"
    if [ -t 0 ] && [ -z "${CI:-}" ]; then
        echo "  open them in a browser; press Ctrl-C to stop nginx and end the demo"
        wait "$nginx_pid" || true
    fi
    stop_pid "$nginx_pid"
else
    step "see what a website shows: serve the widget and the export (they stay in $site)"
    echo "  python3 -m http.server --bind 127.0.0.1 --directory $site 8000   # then open /?storefront=de"
    echo "  (install nginx to see the SSI page too: make deps)"
fi

step "run it for real"
cat <<EOF_REAL
  make install                                   # release binaries, units, /etc/showcase, man pages
  \$EDITOR /etc/showcase/showcase.yaml            # your host app's bundle id and storefronts
  showcasectl check-config /etc/showcase/showcase.yaml
  systemctl enable --now showcased.socket showcased.service
  showcasectl roster --storefront de --wait 30   # waits for the first fetch (else: warming, exit 75)
  journalctl -u showcased                        # the daemon's log
Read README.md for configuration, operations and troubleshooting.
EOF_REAL
