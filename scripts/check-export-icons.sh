#!/usr/bin/env bash
# Mirrored icons (SPEC §16) as a web server and a browser see them, run by `make test` (check-export-icons):
#   1. lookup-replay --serve-icons answers the demo's lookups with artwork URLs on itself and draws invented
#      icons there; the real daemon exports the demo's configuration with export.icons (128 and 256 px) and a
#      state.directory, and `showcasectl export` is repeated until every app of every document lists both sizes;
#   2. nginx with the shipped etc/nginx/showcase.conf serves an icon as image/png with
#      Cache-Control: public, max-age=31536000, immutable (and nosniff), while a document keeps its JSON typing;
#   3. headless Chromium loads a page of ours from the same nginx that shows the document's apps with their
#      mirrored icons; every name but 127.0.0.1 fails to resolve (--host-resolver-rules) and the net log
#      (--log-net-log) must list no request of the page to any origin but its own, while nginx's access log shows
#      the icons were fetched from the tree, and a control page showing the upstream iconUrl is caught.
set -euo pipefail
cd "$(dirname "$0")/.."
CHECK=check-export-icons
. scripts/lib.sh

for tool in nginx chromium curl python3; do command -v "$tool" >/dev/null || fail "$tool is missing (make deps installs it)"; done
bin_dir=${BIN_DIR:-$(swift build --show-bin-path 2>/dev/null)}
for exe in showcased showcasectl lookup-replay; do
    [ -x "$bin_dir/$exe" ] || fail "no built $exe in $bin_dir (run swift build first)"
done
new_work

# 1. The tree, with icons.
start_replay "$bin_dir" "$work" --serve-icons
mkdir -p "$work/config" "$work/cache" "$work/run"
socket=$work/run/showcased.sock
# demo_config allows the replay's artwork host and keeps the state directory (the icon index) in $work/state.
demo_config "$work" "$socket" >"$work/config/showcase.yaml"
printf 'export:\n  directory: %s\n  gzip: true\n  icons:\n    sizes: [128, 256]\n' "$work/export" >>"$work/config/showcase.yaml"
cp Fixtures/demo/overlay.yaml "$work/config/"
start_daemon "$work/config/showcase.yaml" "$work/showcased.log"
ctl refresh >"$work/refresh.out" 2>&1 || { cat "$work/refresh.out" "$work/showcased.log" >&2; fail "showcasectl refresh failed"; }
host=com.quietharbor.TideLog
mirrored() { # every app of the host's documents lists 128 and 256
    python3 - "$work/export/v1/$host" <<'PY'
import json, pathlib, sys
apps = [app for path in pathlib.Path(sys.argv[1]).glob("*/*.json") for app in json.load(open(path))["apps"]]
sys.exit(0 if apps and all(set(app.get("icons", {})) == {"128", "256"} for app in apps) else 1)
PY
}
for _ in $(seq 100); do
    ctl export >"$work/export.out" 2>&1 || { cat "$work/export.out" "$work/showcased.log" >&2; fail "showcasectl export failed"; }
    mirrored && break
    sleep 0.2
done
mirrored || { cat "$work/showcased.log" >&2; fail "the documents never listed every app's 128 and 256 px icons"; }
icons=$(find "$work/export/v1/icons" -type f | wc -l)
ok "every app of $host's documents lists its mirrored 128 and 256 px icons ($icons files in v1/icons/)"

# 2. nginx: image types and immutable caching for icons, JSON for documents.
start_nginx "$work/nginx" "$work/export" "        location /page/ { alias $work/page/; }"
icon=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["apps"][0]["icons"]["128"])' \
    "$work/export/v1/$host/us/ios.json")
curl -sS -D "$work/h" -o "$work/b" "$base/showcase/v1/$icon" >/dev/null || fail "GET $icon failed"
header() { sed -n "s/^$1: *//Ip" "$work/h" | tr -d '\r' | tail -n 1; }
[ "$(header Content-Type)" = image/png ] || fail "$icon is served as '$(header Content-Type)', not image/png"
[ "$(header Cache-Control)" = "public, max-age=31536000, immutable" ] \
    || fail "$icon has Cache-Control '$(header Cache-Control)'"
[ "$(header X-Content-Type-Options)" = nosniff ] || fail "$icon lacks X-Content-Type-Options: nosniff"
cmp -s "$work/b" "$work/export/v1/$icon" || fail "the icon served differs from the file in the tree"
curl -sS -D "$work/h" -o /dev/null "$base/showcase/v1/$host/us/ios.json"
[ "$(header Content-Type)" = "application/json; charset=utf-8" ] || fail "documents lost their JSON typing"
ok "icons are image/png with Cache-Control immutable and nosniff; documents stay application/json"

# 3. A page of ours: the document's apps with their mirrored icons (PAGE_ICON=icons), and a control page that shows
#    the upstream iconUrl instead (PAGE_ICON=iconUrl, which names the replay: another origin), so the net log check is
#    seen to catch a foreign request.
mkdir -p "$work/page"
page() { # FILE FIELD
    cat >"$work/page/$1" <<HTML
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>icons</title></head>
<body><ul id="apps"></ul>
<script>
const root = "/showcase/v1/";
const field = "$2";
fetch(root + "$host/us/ios.json").then(r => r.json()).then(doc => {
  const list = document.getElementById("apps");
  const loads = doc.apps.map(app => new Promise(done => {
    const item = document.createElement("li");
    const img = new Image(64, 64);
    img.onload = img.onerror = () => { item.dataset.loaded = img.naturalWidth; done(); };
    if (field === "icons") {
      img.srcset = root + app.icons["128"] + " 1x, " + root + app.icons["256"] + " 2x";
      img.src = root + app.icons["128"];
    } else {
      img.src = app.iconUrl;
    }
    item.dataset.appId = app.id;
    item.append(img, app.name);
    list.append(item);
  }));
  Promise.all(loads).then(() => { document.body.dataset.state = "ready"; });
});
</script></body></html>
HTML
}
page index.html icons
page control.html iconUrl
chmod -R a+rX "$work/page"
browse() { # PAGE: DOM to $work/PAGE.html, net log to $work/PAGE.netlog
    chromium_flags "$work/chrome-$1" "$mac_ua"
    timeout 120 chromium "${chromium_args[@]}" --disable-background-networking --disable-component-update \
        --log-net-log="$work/$1.netlog" --dump-dom "$base/page/$1" >"$work/$1.dom" 2>"$work/$1.err" \
        || { tail -5 "$work/$1.err" >&2; fail "chromium failed on $1"; }
    grep -q 'data-state="ready"' "$work/$1.dom" || fail "$1 did not finish loading its icons"
}
# foreign NETLOG: the URLs the page's own requests (network isolation key on 127.0.0.1, which Chromium's background
# requests never have) asked for on any other origin than nginx's; fails when the page made no request at all.
foreign() {
    python3 - "$1" "$base" <<'PY'
import json, sys
raw = open(sys.argv[1], encoding="utf-8", errors="replace").read().rstrip().rstrip(",")
log = json.loads(raw if raw.endswith("}") else raw + "]}")
start = next(v for k, v in log["constants"]["logEventTypes"].items() if k == "URL_REQUEST_START_JOB")
origin = sys.argv[2]
requests = [e["params"] for e in log["events"] if e["type"] == start and "url" in e.get("params", {})]
page = [p["url"] for p in requests if "http://127.0.0.1" in p.get("network_isolation_key", "")]
assert page, "the net log lists no request of the page: the check would prove nothing"
for url in sorted({u for u in page if not u.startswith(origin + "/")}):
    print(url)
PY
}
browse index.html
loaded=$(grep -o 'data-loaded="[0-9]*"' "$work/index.html.dom" | grep -vc 'data-loaded="0"' || true)
[ "$loaded" -gt 0 ] || fail "no icon loaded in the page"
grep -q "GET /showcase/v1/icons/" "$work/nginx/access.log" || fail "nginx served no icon (the check would prove nothing)"
others=$(foreign "$work/index.html.netlog") || fail "the net log could not be read"
[ -z "$others" ] || fail "the page made requests to other origins: $(echo "$others" | head -3)"
browse control.html
control=$(foreign "$work/control.html.netlog") || fail "the control net log could not be read"
echo "$control" | grep -q "^http://127.0.0.1:$replay_port/" \
    || fail "the control page's requests to the replay's origin were not seen: the check would prove nothing"
ok "the page showed $loaded apps with mirrored icons and requested no other origin (the control page's upstream iconUrl requests were caught)"

echo "$CHECK: $pass passed, 0 failed"
