#!/usr/bin/env bash
# The Atom feeds of SPEC §15 as a feed reader sees them, run by `make test` (check-feeds):
#   1. lookup-replay serves Fixtures/lookup on loopback; the real daemon runs with `export.feed: true`, an absolute
#      `export.public_url` and its own `state.directory`; the first roster is the baseline, so each feed is valid
#      and empty (Python's feedparser, pinned in .build/feeds-venv: no bozo, the self link, the author);
#   2. upstream changes (an iOS app's new version with release notes, an iOS price change, a Mac app's new
#      version) and `showcasectl refresh`: ios.atom has exactly the two iOS entries and macos.atom the Mac one,
#      with their categories, titles, notes and tag: ids; `showcasectl changes --json` lists the same serials;
#   3. a restart (SIGTERM, start again, `showcasectl export`): every entry id is the same and the feed file is
#      untouched (same bytes and mtime);
#   4. when nginx is installed, the shipped snippet serves the feed as application/atom+xml and the JSON
#      documents still as JSON.
set -euo pipefail
cd "$(dirname "$0")/.."

CHECK=check-feeds
. scripts/lib.sh

bin_dir=${BIN_DIR:-$(swift build --show-bin-path 2>/dev/null)}
for exe in showcased showcasectl lookup-replay; do
    [ -x "$bin_dir/$exe" ] || fail "no built $exe in $bin_dir (run swift build first)"
done

VENV=.build/feeds-venv
python_venv "$VENV" feedparser==6.0.11
py=$VENV/bin/python3

new_work
start_replay "$bin_dir" "$work"

socket=$work/run/showcased.sock
mkdir -p "$work/run"
cat >"$work/showcase.yaml" <<CONF
hosts:
  - bundle_id: com.quietharbor.Knotbook
storefronts: [us]
lookup:
  endpoint: http://127.0.0.1:$replay_port/lookup
  rate_limit: 600/min
cache:
  directory: $work/cache
state:
  directory: $work/state
socket:
  path: $socket
export:
  directory: $work/export
  gzip: true
  feed: true
  public_url: https://example.com/showcase/v1/
CONF

tree=$work/export/v1/com.quietharbor.Knotbook/us

# 1. The baseline: valid, empty feeds.
start_daemon "$work/showcase.yaml" "$work/showcased.log"
ctl refresh >/dev/null || { cat "$work/showcased.log" >&2; fail "the first refresh failed"; }
ctl export >/dev/null || { cat "$work/showcased.log" >&2; fail "showcasectl export failed"; }
for platform in ios macos; do
    [ -f "$tree/$platform.atom" ] || fail "no $platform.atom beside $platform.json"
    [ -f "$tree/$platform.atom.gz" ] || fail "no $platform.atom.gz (export.gzip)"
done
# feed FILE PLATFORM EXPECTED-ENTRIES: parses with feedparser, checks the feed, prints one line per entry.
feed() {
    "$py" - "$1" "$2" "$3" <<'PY'
import sys, feedparser
path, platform, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
parsed = feedparser.parse(path)
def fail(message):
    sys.exit(f"{path}: {message}")
if parsed.bozo:
    fail(f"not a well-formed feed: {parsed.bozo_exception!r}")
if parsed.version != "atom10":
    fail(f"parsed as {parsed.version!r}, not Atom 1.0")
feed = parsed.feed
if not feed.get("id", "").startswith("tag:showcased,2026:com.quietharbor.Knotbook/us/"):
    fail(f"feed id {feed.get('id')!r}")
if not feed.get("updated"):
    fail("no feed updated")
if feed.get("author_detail", {}).get("name") != "Quiet Harbor Labs":
    fail(f"author {feed.get('author_detail')!r}")
selfs = [link.href for link in feed.get("links", []) if link.rel == "self"]
if selfs != [f"https://example.com/showcase/v1/com.quietharbor.Knotbook/us/{platform}.atom"]:
    fail(f"self link {selfs!r}")
if len(parsed.entries) != expected:
    fail(f"{len(parsed.entries)} entries, expected {expected}")
for entry in parsed.entries:
    if not entry.id.startswith("tag:showcased,2026:com.quietharbor.Knotbook/us/"):
        fail(f"entry id {entry.id!r}")
    if not entry.get("updated") or not entry.get("link", "").startswith("https://apps.apple.com/us/"):
        fail(f"entry {entry.id} lacks updated or its store link")
    terms = [tag.term for tag in entry.get("tags", [])]
    notes = entry.content[0].value if entry.get("content") else ""
    print(entry.id, ",".join(terms), entry.title, "|", notes.replace("\n", "\\n"))
PY
}
for platform in ios macos; do
    feed "$tree/$platform.atom" "$platform" 0 >/dev/null || fail "the baseline's $platform feed"
done
ok "the baseline's feeds parse as Atom 1.0 with no entries, the author and the self link"

# 2. Upstream moves: TideLog 2.4.0 with notes, Lanternlight repriced, TideLog for Mac 2.6.0.
"$py" - Fixtures/lookup/roster-1641000001-us.json "$work/changed.json" <<'PY'
import json, sys
body = json.load(open(sys.argv[1]))
for row in body["results"]:
    if row.get("trackId") == 1641000101:
        row.update(version="2.4.0", currentVersionReleaseDate="2026-12-01T08:00:00Z",
                   releaseNotes="Tide alarms & <faster> charts\nand a \u001b control character")
    if row.get("trackId") == 1641000103:
        row.update(price=1.99, formattedPrice="$1.99")
    if row.get("trackId") == 1641000201:
        row.update(version="2.6.0", releaseNotes="Menu bar tides")
json.dump(body, open(sys.argv[2], "w"))
PY
curl -fsS -X POST --data-binary "@$work/changed.json" \
    "http://127.0.0.1:$replay_port/_replay/override?name=roster-1641000001-us.json" >/dev/null \
    || fail "could not override the us roster on lookup-replay"
ctl refresh >/dev/null || { cat "$work/showcased.log" >&2; fail "the refresh with changes failed"; }
ctl export >/dev/null || fail "showcasectl export failed"
feed "$tree/ios.atom" ios 2 >"$work/ios.entries" || fail "the ios feed after the changes"
feed "$tree/macos.atom" macos 1 >"$work/macos.entries" || fail "the macos feed after the changes"
grep -q ' updated TideLog: Tide Tables 2.4.0 | Tide alarms & <faster> charts\\nand a  control character$' \
    "$work/ios.entries" || { cat "$work/ios.entries" >&2; fail "the updated entry's title or notes"; }
grep -q ' price Lanternlight | $' "$work/ios.entries" || { cat "$work/ios.entries" >&2; fail "the price entry"; }
grep -q ' updated TideLog for Mac 2.6.0 | Menu bar tides$' "$work/macos.entries" \
    || { cat "$work/macos.entries" >&2; fail "the Mac entry"; }
serials=$(ctl --json changes --storefront us | "$py" -c \
    'import json, sys; print(" ".join(str(c["serial"]) for c in json.load(sys.stdin)["changes"]))')
[ "$serials" = "3 2 1" ] || fail "showcasectl changes lists serials '$serials', expected '3 2 1'"
ok "after one refresh: ios.atom has the update and the price change, macos.atom the Mac update (serials $serials)"

# 3. Ids and bytes survive a restart.
cut -d' ' -f1 "$work/ios.entries" "$work/macos.entries" >"$work/ids.before"
stat -c %Y "$tree/ios.atom" >"$work/mtime.before"
stop_pid "$daemon_pid"
start_daemon "$work/showcase.yaml" "$work/showcased-restart.log"
ctl export >/dev/null || fail "showcasectl export after the restart failed"
feed "$tree/ios.atom" ios 2 | cut -d' ' -f1 >"$work/ids.after" || fail "the ios feed after the restart"
feed "$tree/macos.atom" macos 1 | cut -d' ' -f1 >>"$work/ids.after" || fail "the macos feed after the restart"
diff "$work/ids.before" "$work/ids.after" >&2 || fail "entry ids changed across the restart"
[ "$(stat -c %Y "$tree/ios.atom")" = "$(cat "$work/mtime.before")" ] || fail "ios.atom was rewritten by the restart"
ok "entry ids are stable across a restart and the feed is left untouched ($(tr '\n' ' ' <"$work/ids.after"))"

# 4. The shipped nginx snippet's types.
if command -v nginx >/dev/null && command -v curl >/dev/null; then
    start_nginx "$work/nginx" "$work/export" ""
    url=$base/showcase/v1/com.quietharbor.Knotbook/us
    type=$(curl -fsS -o /dev/null -w '%{content_type}' "$url/ios.atom") || fail "nginx did not serve ios.atom"
    [ "$type" = "application/atom+xml" ] || fail "nginx serves ios.atom as '$type'"
    gz=$(curl -fsS -o /dev/null -H 'Accept-Encoding: gzip' -w '%{content_type}' "$url/ios.atom")
    [ "$gz" = "application/atom+xml" ] || fail "nginx serves the gzip of ios.atom as '$gz'"
    json=$(curl -fsS -o /dev/null -w '%{content_type}' "$url/ios.json")
    [ "$json" = "application/json; charset=utf-8" ] || fail "nginx serves ios.json as '$json'"
    ok "nginx serves the feed as $type (gzip too) and the document as $json"
else
    echo "check-feeds: nginx or curl missing: the snippet's types were not checked (make deps installs them)"
fi
echo "check-feeds: PASS"
