#!/usr/bin/env bash
# The static export as a web server and a browser see it, run by `make test` (check-export-web):
#   1. showcase-export-sample writes the export of Fixtures/demo's configuration from Fixtures/lookup
#      (the writer the daemon uses; no daemon, no network);
#   2. nginx runs unprivileged on a loopback port (-p/-c, pid, logs and *_temp_path in a temporary
#      directory) with the shipped location block, etc/nginx/showcase.conf, pointed at that tree;
#      checked over HTTP:
#      200 + valid JSON, `application/json; charset=utf-8`, ETag and 304 on If-None-Match,
#      `Content-Encoding: gzip` when asked (gzip_static: the .json.gz the writer put beside it),
#      CORS and Cache-Control headers, the manifest not served, and an export that changes one
#      tagline visible over HTTP within a second while an unchanged document keeps its ETag;
#   3. headless Chromium renders examples/web/ against it with an iPhone and a Mac user agent:
#      the DOM must list exactly the apps the document has for that device and OS version;
#      screenshots go to .build/export-widget-{iphone,mac}.png.
# Chromium resolves no name but 127.0.0.1 (--host-resolver-rules): icons on Apple's CDN are never fetched.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "check-export-web: FAIL: $*" >&2; exit 1; }
pass=0
ok() { echo "check-export-web: ok: $*"; pass=$((pass + 1)); }

command -v nginx >/dev/null || fail "nginx is missing (make deps installs it)"
command -v chromium >/dev/null || fail "chromium is missing (make deps installs it)"
command -v curl >/dev/null || fail "curl is missing (make deps installs it)"
bin_dir=${BIN_DIR:-$(swift build --show-bin-path 2>/dev/null)}
sample=$bin_dir/showcase-export-sample
[ -x "$sample" ] || fail "no built showcase-export-sample at $sample (run swift build first)"

work=$(mktemp -d)
nginx_pid=
cleanup() {
    if [ -n "$nginx_pid" ] && kill -0 "$nginx_pid" 2>/dev/null; then
        kill "$nginx_pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$nginx_pid" 2>/dev/null || break; sleep 0.1; done
    fi
    rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"

# 1. The tree, written by the export writer under the unit's UMask=0077: it sets files 0644 and directories
#    0755 itself, and nginx below reads them as another user.
config=$work/config
mkdir -p "$config"
cp Fixtures/demo/showcase.yaml Fixtures/demo/overlay.yaml Fixtures/demo/overlay-edited.yaml "$config/"
(umask 077 && "$sample" --fixtures Fixtures/lookup --config "$config/showcase.yaml" --directory "$work/export") \
    >"$work/sample.log" || { cat "$work/sample.log" >&2; fail "showcase-export-sample could not write the tree"; }
mkdir -p "$work/web"
cp examples/web/* "$work/web/"

# 2. nginx, unprivileged: as root it drops to nobody, which owns only its prefix directory.
snippet=etc/nginx/showcase.conf
[ -f "$snippet" ] || fail "$snippet is missing"
mkdir -p "$work/nginx"
sed "s#/var/lib/showcase/export#$work/export#g" "$snippet" >"$work/nginx/showcase.conf"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/nginx/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $work/nginx/client_body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    include /etc/nginx/mime.types;
    server {
        listen 127.0.0.1:$port;
        server_name localhost;
        include $work/nginx/showcase.conf;
        location /widget/ { alias $work/web/; }
    }
}
CONF
run_as=()
if [ "$(id -u)" -eq 0 ]; then
    chown -R nobody:nogroup "$work/nginx"
    run_as=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
fi
"${run_as[@]}" nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
nginx_pid=$!
base=http://127.0.0.1:$port
for _ in $(seq 100); do
    curl -s -o /dev/null "$base/showcase/v1/index.json" && break
    kill -0 "$nginx_pid" 2>/dev/null || { cat "$work/nginx/error.log" >&2; fail "nginx exited at startup"; }
    sleep 0.1
done

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
# the Mac documents do not).
mac=/showcase/v1/$host/de/macos.json
get "$mac" >/dev/null
mac_etag=$(header ETag)
get "$doc" >/dev/null
cp "$config/overlay-edited.yaml" "$config/overlay.yaml"
(umask 077 && "$sample" --fixtures Fixtures/lookup --config "$config/showcase.yaml" --directory "$work/export") \
    >"$work/sample.log" || { cat "$work/sample.log" >&2; fail "the second export failed"; }
changed_at=$(date +%s%N)
seen=
while [ $(($(date +%s%N) - changed_at)) -lt 1000000000 ]; do
    get "$doc" >/dev/null
    if grep -q 'Windrosen für jeden Hafen' "$work/b" && [ "$(header ETag)" != "$etag" ]; then seen=yes; break; fi
    sleep 0.05
done
[ -n "$seen" ] || fail "the changed tagline was not served within a second of the export"
get "$mac" >/dev/null
[ "$(header ETag)" = "$mac_etag" ] || fail "an unchanged document's ETag changed ($mac_etag → $(header ETag))"
ok "a changed tagline is served within a second with a new ETag; an unchanged document keeps its ETag"

# 3. The widget in headless Chromium, iPhone (iOS 17.4) and Mac.
iphone_ua='Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
mac_ua='Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'
page="$base/widget/index.html?storefront=de&host=$host"
chrome() { # NAME UA WIDTH,HEIGHT: DOM to $work/NAME.html, screenshot to .build/export-widget-NAME.png
    local flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir="$work/chrome-$1"
        --host-resolver-rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1" --user-agent="$2" --virtual-time-budget=5000)
    timeout 120 chromium "${flags[@]}" --dump-dom "$page" >"$work/$1.html" 2>"$work/$1.err" \
        || { tail -5 "$work/$1.err" >&2; fail "chromium --dump-dom failed for the $1 user agent"; }
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
dom, document, device, os_version = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
html = open(dom, encoding="utf-8").read()
def version(text): return [int(part) for part in text.split(".")]
def floor_ok(app):
    if not os_version: return True
    a, b = version(app["minimumOsVersion"]), version(os_version)
    width = max(len(a), len(b))
    return a + [0] * (width - len(a)) <= b + [0] * (width - len(b))
apps = json.load(open(document, encoding="utf-8"))["apps"]
expected = [str(app["id"]) for app in apps
            if (not device or device in app.get("devices", ["iphone", "ipad"])) and floor_ok(app)]
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
ok "the widget lists the Mac App Store apps for a Mac; screenshots in .build/export-widget-{iphone,mac}.png"

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
