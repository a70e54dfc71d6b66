#!/usr/bin/env bash
# The static export as a web server and a browser see it, run by `make test` (check-export-web):
#   1. the real daemon writes the export of Fixtures/demo's configuration: lookup-replay serves
#      Fixtures/lookup on loopback, showcased runs under umask 077 (the unit's UMask=) with an `export:`
#      section, and `showcasectl export` (Admin.Export) answers once the tree is current;
#   2. nginx runs unprivileged on a loopback port (-p/-c, pid, logs and *_temp_path in a temporary
#      directory) with the shipped location block, etc/nginx/showcase.conf, pointed at that tree;
#      checked over HTTP:
#      200 + valid JSON, `application/json; charset=utf-8`, ETag and 304 on If-None-Match,
#      `Content-Encoding: gzip` when asked (gzip_static: the .json.gz the writer put beside it),
#      CORS and Cache-Control headers, the manifest not served, and a `showcasectl reload` that changes
#      one tagline served over HTTP after the reload's answer, with no other call (polled, with a 60 s bound
#      against a hang: how soon is not asserted), while an unchanged document keeps its ETag;
#   3. headless Chromium renders examples/web/ against it with an iPhone and a Mac user agent:
#      the DOM must list exactly the apps the document has for that device and OS version;
#      with SHOWCASE_SCREENSHOTS=1 (`make screenshots`, not `make test`: nothing asserts on them) screenshots go to
#      .build/export-widget-{iphone,mac}.png;
#      and with hostile input: a document whose store links are javascript:/data: and whose icons are http: or
#      ../ gets none of them set as href or src (nginx's access log shows what was fetched), and
#      ?host=..%2F..%2Fevil (which nginx would resolve to a file outside the export) fetches nothing;
#   4. (root only) the export writer on a full disk: showcase-export-sample (the writer without a daemon)
#      on a tiny tmpfs in a private mount namespace.
# Chromium resolves no name but 127.0.0.1 (--host-resolver-rules): icons on Apple's CDN are never fetched.
set -euo pipefail
cd "$(dirname "$0")/.."
CHECK=check-export-web
. scripts/lib.sh

command -v nginx >/dev/null || fail "nginx is missing (make deps installs it)"
command -v chromium >/dev/null || fail "chromium is missing (make deps installs it)"
command -v curl >/dev/null || fail "curl is missing (make deps installs it)"
bin_dir=${BIN_DIR:-$(swift build --show-bin-path 2>/dev/null)}
for exe in showcased showcasectl lookup-replay showcase-export-sample; do
    [ -x "$bin_dir/$exe" ] || fail "no built $exe in $bin_dir (run swift build first)"
done
sample=$bin_dir/showcase-export-sample

new_work

# 1. The tree, written by the daemon under the unit's UMask=0077: the writer sets files 0644 and directories
#    0755 itself, and nginx below reads them as another user.
start_replay "$bin_dir" "$work"
config=$work/config
mkdir -p "$config" "$work/cache" "$work/run"
socket=$work/run/showcased.sock
demo_config "$work" "$socket" >"$config/showcase.yaml"
printf 'export:\n  directory: %s\n  gzip: true\n' "$work/export" >>"$config/showcase.yaml"
cp Fixtures/demo/overlay.yaml Fixtures/demo/overlay-edited.yaml "$config/"
start_daemon "$config/showcase.yaml" "$work/showcased.log"
ctl refresh >"$work/refresh.out" 2>&1 || { cat "$work/refresh.out" "$work/showcased.log" >&2; fail "showcasectl refresh failed"; }
ctl export >"$work/export.out" 2>&1 || { cat "$work/export.out" "$work/showcased.log" >&2; fail "showcasectl export failed"; }
grep -q "^exported to $work/export: .* written, .* unchanged, 0 removed$" "$work/export.out" \
    || { cat "$work/export.out" >&2; fail "showcasectl export did not print the directory and counts"; }
for host in com.quietharbor.TideLog com.quietharbor.Knotbook; do
    for storefront in us de jp; do
        for platform in ios macos; do
            [ -f "$work/export/v1/$host/$storefront/$platform.json" ] || fail "no $host/$storefront/$platform.json"
        done
    done
done
ok "the daemon exported 2 hosts × 3 storefronts × 2 platforms ($(cat "$work/export.out"))"
mkdir -p "$work/web"
cp examples/web/* "$work/web/"
# Hostile input for the widget (step 3): a document no daemon would export (upstream URLs are checked), served
# beside the export, and a file outside it that ?host=..%2F..%2Fevil would reach once nginx resolves the dots.
sed -e 's#data-src="/showcase/v1/"#data-src="/hostile/v1/"#' examples/web/index.html >"$work/web/hostile.html"
mkdir -p "$work/hostile/v1/com.example.Hostile/us" "$work/hostile/v1/icons" "$work/evil/de"

# 2. nginx, unprivileged: as root it drops to nobody, which owns only its prefix directory.
start_nginx "$work/nginx" "$work/export" "        location /widget/ { alias $work/web/; }
        location /hostile/ { alias $work/hostile/; }
        location /evil/ { alias $work/evil/; }"
python3 - "$work" "$base" <<'PY'
import json, sys
work, base = sys.argv[1], sys.argv[2]
good = "https://apps.apple.com/us/app/safe/id{}?uo=4"
icon = "https://is1-ssl.mzstatic.com/image/thumb/safe.png"
def app(id, store, icon):
    return {"id": id, "artistId": 1, "name": f"App {id}", "bundleId": f"com.example.App{id}", "genre": "Utilities",
            "platform": "ios", "devices": ["iphone", "ipad"], "minimumOsVersion": "15.0", "iconUrl": icon,
            "storeUrl": store}
apps = [app(1, "javascript:alert(document.domain)//", icon), app(2, "data:text/html,<script>alert(1)</script>", icon),
        app(3, "java\tscript:alert(1)", icon), app(4, "//evil.example/us/app/x/id4", icon),
        app(5, good.format(5), base + "/evil-icon.png"), app(6, good.format(6), "../../evil/icon.png"),
        app(7, good.format(7), "javascript:alert(7)"), app(8, good.format(8), "icons/safe-8.png"),
        dict(app(9, good.format(9), icon), icons={"64": "icons/m64.png", "128": "icons/m128.png", "512": "../m512.png"})]
json.dump({"apps": apps}, open(f"{work}/hostile/v1/com.example.Hostile/us/ios.json", "w"))
json.dump({"apps": [app(9, "https://evil.example/us/app/x/id9", icon)]}, open(f"{work}/evil/de/ios.json", "w"))
PY

# GET URL [curl options…]: headers to $work/h, body to $work/b, prints the status.
get() {
    local url=$1
    shift
    curl -sS --max-time 10 -D "$work/h" -o "$work/b" -w '%{http_code}' "$@" "$base$url"
}
header() { sed -n "s/^$1: *//Ip" "$work/h" | tr -d '\r' | tail -n 1; }

host=com.quietharbor.TideLog
doc=/showcase/v1/$host/de/ios.json
for url in /showcase/v1/index.json "$doc" "/showcase/v1/$host/jp/macos.json"; do
    [ "$(get "$url")" = 200 ] || fail "GET $url did not answer 200"
    python3 -m json.tool "$work/b" >/dev/null || fail "GET $url is not valid JSON"
    [ "$(header Content-Type)" = "application/json; charset=utf-8" ] \
        || fail "GET $url: Content-Type is '$(header Content-Type)', not application/json; charset=utf-8"
    [ "$(header Access-Control-Allow-Origin)" = "*" ] || fail "GET $url: no Access-Control-Allow-Origin: *"
    case "$(header Cache-Control)" in
        *max-age=*stale-while-revalidate=*) ;;
        *) fail "GET $url: Cache-Control '$(header Cache-Control)' lacks max-age and stale-while-revalidate" ;;
    esac
done
cmp -s "$work/b" "$work/export/v1/$host/jp/macos.json" || fail "the body served differs from the file the writer wrote"
ok "200, valid JSON, application/json; charset=utf-8, CORS and Cache-Control on index.json and documents"

[ "$(get "$doc")" = 200 ] || fail "GET $doc"
etag=$(header ETag)
[ -n "$etag" ] || fail "GET $doc has no ETag"
[ "$(get "$doc" -H "If-None-Match: $etag")" = 304 ] || fail "If-None-Match: $etag did not answer 304"
ok "ETag $etag, and 304 on If-None-Match"

[ "$(get "$doc" -H 'Accept-Encoding: gzip')" = 200 ] || fail "GET $doc with Accept-Encoding: gzip"
[ "$(header Content-Encoding)" = gzip ] || fail "Accept-Encoding: gzip did not get Content-Encoding: gzip"
gzip -dc "$work/b" | cmp -s - "$work/export/v1/$host/de/ios.json" || fail "the gzip body does not inflate to the document"
cmp -s "$work/b" "$work/export/v1/$host/de/ios.json.gz" || fail "nginx compressed on the fly instead of serving the .json.gz"
ok "Content-Encoding: gzip from the .json.gz beside the document (gzip_static)"

status=$(get /showcase/v1/.showcase-manifest)
[ "$status" = 404 ] || [ "$status" = 403 ] || fail "the manifest is served (status $status); it must not be"
ok "the writer's manifest is not served"

# A reload that changes one tagline: Windrose gains one in overlay-edited.yaml (iOS documents change,
# the Mac documents do not). The daemon exports by itself after the reload; nothing else is called.
mac=/showcase/v1/$host/de/macos.json
get "$mac" >/dev/null
mac_etag=$(header ETag)
get "$doc" >/dev/null
cp "$config/overlay-edited.yaml" "$config/overlay.yaml"
ctl reload >"$work/reload.out" 2>&1 || { cat "$work/reload.out" >&2; fail "showcasectl reload failed"; }
# The daemon exports on its own after the reload: poll until the change is served. The 60 s bound stops a hang;
# it is not a latency check (on a loaded machine the export may take seconds).
seen=
for _ in $(seq 600); do
    get "$doc" >/dev/null
    if grep -q 'Windrosen für jeden Hafen' "$work/b" && [ "$(header ETag)" != "$etag" ]; then seen=yes; break; fi
    sleep 0.1
done
[ -n "$seen" ] || { cat "$work/showcased.log" >&2; fail "the changed tagline was not served within 60 s of the reload"; }
get "$mac" >/dev/null
[ "$(header ETag)" = "$mac_etag" ] || fail "an unchanged document's ETag changed ($mac_etag → $(header ETag))"
ok "a reload's changed tagline is served after its answer with a new ETag, nothing else called; an unchanged document keeps its ETag"

# 3. The widget in headless Chromium, iPhone (iOS 17.4) and Mac.
page="$base/widget/index.html?storefront=de&host=$host"
chrome() { # NAME UA WIDTH,HEIGHT: DOM to $work/NAME.html; with SHOWCASE_SCREENSHOTS=1, a screenshot at that size
    #        to .build/export-widget-NAME.png
    chromium_flags "$work/chrome-$1" "$2"
    local flags=("${chromium_args[@]}")
    timeout 120 chromium "${flags[@]}" --dump-dom "$page" >"$work/$1.html" 2>"$work/$1.err" \
        || { tail -5 "$work/$1.err" >&2; fail "chromium --dump-dom failed for the $1 user agent"; }
    [ -n "$3" ] && [ "${SHOWCASE_SCREENSHOTS:-}" = 1 ] || return 0
    mkdir -p .build
    timeout 120 chromium "${flags[@]}" --window-size="$3" --screenshot="$PWD/.build/export-widget-$1.png" "$page" \
        >/dev/null 2>>"$work/$1.err" || { tail -5 "$work/$1.err" >&2; fail "chromium --screenshot failed for $1"; }
    [ -s ".build/export-widget-$1.png" ] || fail "no screenshot for $1"
}
chrome iphone "$iphone_ua" 390,900
chrome mac "$mac_ua" 1000,700

# The expected ids come from the documents themselves, filtered the way the widget must: platform by
# document, devices (missing = iphone + ipad) and the OS floor numerically.
check_dom() { # NAME DOCUMENT DEVICE OS_VERSION
    python3 - "$work/$1.html" "$work/export/v1/$host/de/$2" "$3" "$4" <<'PY' || fail "the widget's $1 rendering is wrong"
import json, re, sys
sys.path.insert(0, "scripts/web")
from visitor import expected_ids
dom, document, device, os_version = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
html = open(dom, encoding="utf-8").read()
apps = json.load(open(document, encoding="utf-8"))["apps"]
expected = expected_ids(document, device, os_version)
shown = re.findall(r'data-app-id="(\d+)"', html)
state = re.search(r'data-state="(\w+)"', html)
print(f"  {dom.rsplit('/', 1)[-1]}: state {state.group(1) if state else None}, shown {shown}")
assert state and state.group(1) == "ready", "the widget did not finish (data-state)"
assert shown == expected, f"expected {expected}"
assert len(shown) < len(apps) or not os_version, "the OS floor filtered nothing: the check would prove nothing"
for app in apps:
    if str(app["id"]) in shown:
        assert app["name"].replace("&", "&amp;") in html, f"{app['name']} missing"
        assert app["storeUrl"].replace("&", "&amp;") in html, f"store link of {app['name']} missing"
PY
}
check_dom iphone ios.json iphone 17.4
grep -q 'data-app-id="1641000104"' "$work/iphone.html" && fail "Galley (iOS 18.0) was shown to an iOS 17.4 iPhone"
grep -q 'Windrosen für jeden Hafen' "$work/iphone.html" || fail "the iPhone rendering lacks the storefront's tagline"
grep -q '2,99 €' "$work/iphone.html" || fail "the iPhone rendering lacks the storefront's price"
ok "the widget lists the iOS apps for an iOS 17.4 iPhone (Galley's 18.0 floor hidden), with tagline and price"
check_dom mac macos.json "" ""
grep -q 'Mac App Store' "$work/mac.html" || fail "the Mac rendering has no Mac App Store link"
grep -q 'data-app-id="1641000103"' "$work/mac.html" && fail "an iOS app was shown to a Mac"
ok "the widget lists the Mac App Store apps for a Mac"
if [ "${SHOWCASE_SCREENSHOTS:-}" = 1 ]; then ok "screenshots in .build/export-widget-{iphone,mac}.png"; fi

# Hostile input: only https: links and icons inside the tree are set; a host that leaves the tree fetches nothing.
page="$base/widget/hostile.html?storefront=us&host=com.example.Hostile"
chrome hostile "$iphone_ua" ""
shown=$(grep -o 'data-app-id="[0-9]*"' "$work/hostile.html" | tr -dc '0-9\n' | tr '\n' ' ' || true)
[ "$shown" = "5 6 7 8 9 " ] || fail "the hostile document showed apps '$shown', expected only 5 6 7 8 9 (safe store links)"
grep -Eiq '(href|src)="[[:space:]]*(javascript|data|java[[:space:]]|//)' "$work/hostile.html" \
    && fail "the widget set a javascript:, data: or //host URL: $(grep -Eio '(href|src)="[^"]*"' "$work/hostile.html" | head -3)"
grep -q 'href="https://apps.apple.com/us/app/safe/id5?uo=4"' "$work/hostile.html" || fail "a safe store link is missing"
grep -q 'GET /hostile/v1/icons/safe-8.png' "$work/nginx/access.log" \
    || fail "the relative icon inside the tree was not fetched (the check would prove nothing)"
grep -Eq 'GET /(evil-icon|evil/)' "$work/nginx/access.log" \
    && fail "the widget fetched an http: or ../ icon: $(grep -E 'GET /(evil-icon|evil/)' "$work/nginx/access.log" | head -2)"
# App 9's document mirrors its icon (64 and 128 px, paths relative to v1/): the 1× one is fetched from the tree,
# relative to data-src; its ../ path is never used.
grep -q 'GET /hostile/v1/icons/m64.png' "$work/nginx/access.log" \
    || fail "the mirrored 64-px icon was not fetched relative to data-src: $(grep icons/ "$work/nginx/access.log" | head -3)"
grep -q 'm512' "$work/nginx/access.log" && fail "a mirrored icon path with ../ was fetched"
ok "a document's javascript:, data: and //host store links are not rendered as links; http: and ../ icons not fetched; mirrored icons used relative to data-src"
page="$base/widget/index.html?storefront=de&host=..%2F..%2Fevil"
chrome traversal "$iphone_ua" ""
grep -q 'data-app-id=' "$work/traversal.html" && fail "?host=..%2F..%2Fevil rendered apps"
grep -q 'data-state="error"' "$work/traversal.html" || fail "?host=..%2F..%2Fevil did not hide the block"
grep -v 'GET /widget/' "$work/nginx/access.log" | grep -Eq 'GET [^ ]*(evil|%2F)' \
    && fail "?host=..%2F..%2Fevil fetched $(grep -v 'GET /widget/' "$work/nginx/access.log" | grep -E 'GET [^ ]*(evil|%2F)' | head -2)"
page="$base/widget/index.html?storefront=..%2F..&host=$host"
chrome traversal-storefront "$iphone_ua" ""
grep -q 'data-app-id=' "$work/traversal-storefront.html" && fail "?storefront=..%2F.. rendered apps"
ok "?host=..%2F..%2Fevil and ?storefront=..%2F.. show nothing and fetch nothing"

# 4. A full disk is an error in the report, never a crash, and the last export stays as it was: a tiny
#    tmpfs in a private mount namespace holds the demo's export, then not every storefront's.
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
    mkdir -p "$work/full"
    unshare -m sh -c '
        mount -t tmpfs -o size=256k,mode=0755 tmpfs "$1/full" || exit 90
        "$2" --fixtures Fixtures/lookup --config "$3" --directory "$1/full/export" >"$1/full-first.log" || exit 91
        cp "$1/full/export/v1/index.json" "$1/index-before.json"
        "$2" --fixtures Fixtures/lookup --config "$3" --directory "$1/full/export" --storefronts all \
            >"$1/full-second.log" 2>&1
        echo $? >"$1/full-status"
        cmp -s "$1/full/export/v1/index.json" "$1/index-before.json" || exit 92
        python3 -m json.tool "$1/full/export/v1/com.quietharbor.TideLog/de/ios.json" >/dev/null || exit 93
    ' sh "$work" "$sample" "$config/showcase.yaml" \
        || { cat "$work"/full-*.log >&2 || true; fail "the full-disk export left a damaged tree (step $?)"; }
    [ "$(cat "$work/full-status")" = 1 ] \
        || { cat "$work/full-second.log" >&2; fail "a full disk did not end as a reported failure (exit $(cat "$work/full-status"))"; }
    grep -q 'No space left on device' "$work/full-second.log" \
        || { cat "$work/full-second.log" >&2; fail "the full-disk report does not say the disk is full"; }
    ok "a full disk is reported ($(grep -c 'No space left' "$work/full-second.log") errors), the previous index.json and documents intact"
else
    echo "check-export-web: note: the full-disk check needs root and unshare -m (a private tmpfs); not run"
fi

echo "check-export-web: $pass passed, 0 failed"
