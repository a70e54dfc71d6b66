#!/usr/bin/env bash
# `make demo`: showcased end to end with no internet. A loopback lookup-replay server answers from
# Fixtures/lookup/ (an invented developer, in the exact shape of Apple's responses); showcased runs
# as your user with the demo configuration (Fixtures/demo/) in a temporary directory; showcasectl
# queries it, Canada in English and in French included; the overlay is edited and reloaded; upstream then moves
# (the replay switches to the fixtures' second revision, Fixtures/lookup/revision-2/: Windrose 2.1.0) and a refresh
# records the change, which `showcasectl changes` and the French Atom feed show. Everything is stopped and removed
# on exit, except the static export: the daemon writes it, with fragments, feeds and icons, into
# .build/demo-site/showcase (beside a copy of the examples/web widget and an SSI page), and the demo ends by serving
# a copy of it with nginx, unprivileged (scripts/lib.sh serve_site: the checkout may lie in a folder no other user
# may enter), and printing the URLs of the widget page and the SSI page (interactive: until Ctrl-C; otherwise it
# checks they answer and stops). Works from any checkout, as any user, root included.
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
CHECK=demo
. scripts/lib.sh
step() { printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }
show() { printf '%s$ %s%s\n' "$bold" "$*" "$plain"; "$@"; }

demo=$(mktemp -d "${TMPDIR:-/tmp}/showcase-demo.XXXXXX")
replay_pid='' daemon_pid='' nginx_pid='' served=''
cleanup() {
    local status=$?
    if [ -n "$daemon_pid" ] && kill -0 "$daemon_pid" 2>/dev/null; then
        kill -TERM "$daemon_pid" 2>/dev/null || true
        wait "$daemon_pid" 2>/dev/null || true
    fi
    stop_site
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
# --serve-icons: the fixtures' artwork URLs name the replay, which draws invented icons there (no Apple artwork).
start_replay "$bin_dir" "$demo" --serve-icons
port=$replay_port
echo "lookup endpoint: http://127.0.0.1:$port/lookup"

# 2. The demo configuration, pointed at the loopback server and the temporary directory.
step "the demo configuration ($demo/etc)"
mkdir -p "$demo/etc" "$demo/cache" "$demo/run"
cp Fixtures/demo/showcase.yaml Fixtures/demo/overlay.yaml Fixtures/demo/support.md Fixtures/demo/privacy.md "$demo/etc/"
# The static export, kept after the demo with the widget beside it (an earlier demo's tree is replaced).
site=$repo/.build/demo-site
rm -rf "$site"
replay_config "$demo/etc/showcase.yaml" "$demo" --export "$site/showcase" --socket "$demo/run/showcased.sock" \
    >"$demo/etc/replay.yaml"
mv "$demo/etc/replay.yaml" "$demo/etc/showcase.yaml"
echo "Fixtures/demo/showcase.yaml with lookup.endpoint and artwork_hosts at the replay, cache, state and socket here,"
echo "and the export in $site/showcase"
# The widget and a page of yours that includes a fragment with nginx SSI (no JavaScript) beside the export.
site_pages "$site" com.quietharbor.TideLog de
socket=$demo/run/showcased.sock
# The commands shown are what a user types: the binaries are on PATH, and RUNTIME_DIRECTORY (what systemd sets for
# the service) names the demo's socket directory, so showcasectl finds the daemon without --socket.
export PATH="$bin_dir:$PATH" RUNTIME_DIRECTORY=$demo/run
ctl() { show showcasectl "$@"; }
ctl check-config "$demo/etc/showcase.yaml"

# 3. The daemon, as this user, logging to a file.
step "showcased starts: it answers at once and warms us, de, jp and ca (English and French) in the background"
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

step "Canada in French: one storefront, two languages (each its own roster); names as the French store gives them"
ctl roster --storefront ca --locale fr --wait 30
# Canada in English too is fetched once before upstream moves below: that first roster is the baseline.
showcasectl roster --storefront ca --wait 30 >/dev/null

step "status: one line per storefront"
ctl status

# 4. The operator edits the overlay and reloads: the new order applies with no upstream request.
step "edit the overlay: pin Windrose first and give it a tagline, then reload"
show diff -u "$demo/etc/overlay.yaml" "$repo/Fixtures/demo/overlay-edited.yaml" || true
cp Fixtures/demo/overlay-edited.yaml "$demo/etc/overlay.yaml"
ctl reload
ctl roster --storefront us

# 5. Upstream moves: the replay answers from the fixtures' second revision (Windrose 2.1.0 with release notes), and a
#    refresh records the change. The first roster of each storefront was the baseline, which records nothing.
step "upstream moves: Windrose 2.1.0 ships (the replay switches to Fixtures/lookup/revision-2/), then a refresh"
show curl -fsS -X POST "http://127.0.0.1:$port/_replay/override?dir=$repo/Fixtures/lookup/revision-2"
echo
ctl refresh
step "the change history: what changed in the Canadian store, newest first"
ctl changes --storefront ca

# 6. The static export: what a website gets, with no daemon and no Varlink on its side.
step "the static export: the daemon keeps one JSON document per host, storefront and platform current"
ctl export
# The icons download in the background (the JSON never waits for them); the next pass lists them.
for _ in $(seq 50); do
    [ "$(find "$site/showcase/v1/icons" -type f 2>/dev/null | wc -l)" -gt 0 ] && break
    sleep 0.2
done
sleep 1
ctl export
printf '%s$ find %s -type f | sort%s\n' "$bold" "$site/showcase" "$plain"
find "$site/showcase" -type f -not -name '.*' -not -path '*/v1/icons/*' -not -path '*/ca/*' -not -path '*/jp/*' \
    -printf '%P\n' | sort | sed 's/^/  /'
echo "  … and the same for jp, ca and ca/fr (Canada's French documents, fragments and feeds)"
echo "  v1/icons/: $(find "$site/showcase/v1/icons" -type f 2>/dev/null | wc -l) mirrored icons (<16 hex of SHA-256>.png)"
step "one document (the German iOS store; the reload above already changed Windrose's tagline here)"
show sed -n '1,40p' "$site/showcase/v1/com.quietharbor.TideLog/de/ios.json"
echo "  … (the rest of the apps)"

step "the French Atom feed of Canada's iOS apps (export.feed): one entry, Windrose's update, in French"
show sed -n '1,40p' "$site/showcase/v1/com.quietharbor.TideLog/ca/fr/ios.atom"

step "the static site beside it (export.site, SPEC §18): a developer page per storefront and language, a page per app"
printf '%s$ find %s/site/us -name index.html | sort%s\n' "$bold" "$site/showcase" "$plain"
find "$site/showcase/site/us" -name index.html -printf 'us/%P\n' | sort | sed 's/^/  /'
echo "  … and the same for de, jp, ca and ca/fr; with sitemap.xml and showcase.css"

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

# 7. What a website shows: nginx serves the tree (etc/nginx/showcase.conf), the widget and an SSI page.
if command -v nginx >/dev/null; then
    serve_site "$site"
    answers "$base/index.html?storefront=de" "$base/ssi.html" "$base/index.html?storefront=ca" \
        "$base/showcase/v1/com.quietharbor.TideLog/ca/fr/ios.json" "$base/showcase/site/us/index.html" \
        "$base/showcase/site/us/1641000101/" "$base/showcase/site/us/1641000101/support/" \
        "$base/showcase/site/showcase.css" "$base/showcase/site/sitemap.xml"
    step "nginx serves the export, the widget, a page including the fragment and the site (a copy of $site)"
    echo "  widget page:           $base/index.html?storefront=de"
    echo "  in Canada:             $base/index.html?storefront=ca   (a browser set to French gets the French list)"
    echo "  SSI page (no script):  $base/ssi.html"
    echo "  site:                  $base/showcase/site/us/index.html   (links, the storefront switcher, support pages)"
    serve_until_interrupted
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
Or try your own configuration against this offline replay first: make try CONFIG=your-showcase.yaml
The binaries are in $bin_dir (swift build --show-bin-path).
Read README.md for configuration, operations and troubleshooting.
EOF_REAL
