#!/usr/bin/env bash
# SPEC §14 end to end, run by `make test` (check-export-html):
#   1. the real daemon with `export.html: true` exports us, jp, ca in English and French, sa (Arabic) and il
#      (Hebrew) from lookup-replay (Fixtures/lookup), with a hostile overlay tagline (markup, quotes, </script>), a
#      planted us roster whose name and price carry NUL, C0/C1 controls and noncharacters, a planted sa roster whose
#      name carries an unterminated right-to-left override (U+202E), and an empty platform (Knotbook's own overlay
#      excludes every Mac app);
#   2. every <platform>.html and .email.html is parsed by html5lib in strict mode (pinned, venv in
#      .build/web-venv): no parse error, the markup of §14 against its document (order, one link per row, lang,
#      names, taglines, prices; dir="rtl" on ar/he documents and each name, tagline and price alone in an
#      isolate (<bdi>, dir="auto" in the email), the badge outside it (SPEC §19)), the JSON-LD against the fields Google's software-app
#      documentation lists,
#      the email rules (presentation table, inline styles, no script/style/class, https URLs, sized images),
#      an empty roster an empty file, .gz beside each; banner.html names the host's trackId;
#   3. nginx (unprivileged, etc/nginx/showcase.conf) serves the tree, examples/web/ and test pages, one of which
#      includes a fragment with SSI (no JavaScript); headless Chromium renders the widget and the SSI page at
#      iPhone (390×844), iPad (820×1180), Mac (1440×900) and desktop (1920×1080) sizes in light and dark mode.
#      A probe (scripts/web/probe.js) reports the DOM: language, order, one link per row, rows ≥ 44 px, the store
#      label beside the icon, visible focus, names, taglines and prices computed as bidi isolates, the host page's
#      computed styles equal to a page without the stylesheet, the block hidden when empty and when
#      data-storefront="auto" finds no exported region; the Arabic and Hebrew widget and SSI pages right to left.
#      With SHOWCASE_SCREENSHOTS=1 (`make screenshots`, not `make test`: nothing asserts on them), screenshots of
#      the widget and the SSI page at each size in light and dark mode go to .build/screenshots/ for a person;
#   4. SPEC §19 "Access": scripts/check-access.py runs axe-core (WCAG 2.0/2.1 A and AA), the app-link-name and the
#      visible-focus checks over the example widget page, the French widget page, the fr and jp SSI pages, a plain
#      host page that stays white in dark mode including the us fragment, and a newsletter page going dark around
#      the ca/fr email variant, at phone and desktop widths in light and dark mode; its screenshots (always taken)
#      go to .build/screenshots/access/export/. The email variants' images must have alt="" and their links the
#      app's name (step 2).
set -euo pipefail
cd "$(dirname "$0")/.."
CHECK=check-export-html
. scripts/lib.sh

for tool in nginx chromium curl; do command -v "$tool" >/dev/null || fail "$tool is missing (make deps installs it)"; done
bin_dir=${BIN_DIR:-$(swift build --show-bin-path 2>/dev/null)}
for exe in showcased showcasectl lookup-replay; do
    [ -x "$bin_dir/$exe" ] || fail "no built $exe in $bin_dir (run swift build first)"
done
venv=.build/web-venv
python_venv "$venv" html5lib==1.1 six==1.17.0 webencodings==0.5.1
py() { "$venv/bin/python3" scripts/check-export-html.py "$@"; }

new_work

# 1. The tree.
start_replay "$bin_dir" "$work"
mkdir -p "$work/cache" "$work/run"
# Upstream text with every kind of code point HTML must not carry (SPEC §20): NUL, C0 controls, DEL, C1 controls
# and noncharacters in the us roster's first iOS name and price; the fragments below must parse without error.
"$venv/bin/python3" - Fixtures/lookup/roster-1641000001-us.json >"$work/poisoned-us.json" <<'PY'
import json, sys
body = json.load(open(sys.argv[1], encoding="utf-8"))
bad = "".join(map(chr, [0, 1, 8, 11, 12, 14, 31, 0x7F, 0x80, 0x85, 0x9F, 0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE,
                        0x10FFFF]))
row = next(r for r in body["results"] if r.get("kind") == "software")
row["trackName"] = "Tide" + bad + "\tLog"
row["formattedPrice"] = bad + "Free"
json.dump(body, sys.stdout)
PY
curl -fsS -X POST --data-binary @"$work/poisoned-us.json" \
    "http://127.0.0.1:$replay_port/_replay/override?name=roster-1641000001-us.json" >/dev/null \
    || fail "lookup-replay refused the planted roster"
# A name with an unterminated right-to-left override (SPEC §19): unisolated, it would run on over the price and
# badge after it. Knotbook's row, shown on TideLog's pages.
"$venv/bin/python3" - Fixtures/lookup/roster-1641000001-sa.json >"$work/poisoned-sa.json" <<'PY'
import json, sys
body = json.load(open(sys.argv[1], encoding="utf-8"))
row = next(r for r in body["results"] if r.get("trackId") == 1641000102)
row["trackName"] = "\u202eKnotbook – دفتر العُقد"
json.dump(body, sys.stdout)
PY
curl -fsS -X POST --data-binary @"$work/poisoned-sa.json" \
    "http://127.0.0.1:$replay_port/_replay/override?name=roster-1641000001-sa.json" >/dev/null \
    || fail "lookup-replay refused the planted sa roster"
socket=$work/run/showcased.sock
hostile='</span></a><b>bold</b><script>alert(1)</script> & "quotes" '"''"'apos'"''"' </script><!--'
cat >"$work/showcase.yaml" <<YAML
hosts:
  - bundle_id: com.quietharbor.TideLog
    app_id: 1641000101
  - bundle_id: com.quietharbor.Knotbook
    overlay: {excluded: [1641000201, 1641000202, 1641000203, 1641000204, 1641000205]}
storefronts: [us, jp, {code: ca, languages: [en, fr]}, sa, il]
lookup:
  endpoint: http://127.0.0.1:$replay_port/lookup
  rate_limit: 600/min
cache:
  directory: $work/cache
socket:
  path: $socket
export:
  directory: $work/export
  gzip: true
  html: true
overlay:
  order: [1641000103]
  excluded: [1641000112]
  taglines:
    1641000103: {default: "A night light that knows the tide", fr: "Une veilleuse qui connaît la marée"}
    1641000105: '$hostile'
YAML
start_daemon "$work/showcase.yaml" "$work/showcased.log"
ctl refresh >"$work/refresh.out" 2>&1 || { cat "$work/refresh.out" "$work/showcased.log" >&2; fail "showcasectl refresh failed"; }
ctl export >"$work/export.out" 2>&1 || { cat "$work/export.out" "$work/showcased.log" >&2; fail "showcasectl export failed"; }
v1=$work/export/v1
tide=$v1/com.quietharbor.TideLog
ok "the daemon exported with export.html: true ($(cat "$work/export.out"))"

# 2. Every fragment, parsed.
py fragments "$v1" || fail "a fragment is wrong (above)"
ok "every fragment and email variant parses as HTML5 without error and matches its document"
[ ! -s "$v1/com.quietharbor.Knotbook/us/macos.html" ] && [ -f "$v1/com.quietharbor.Knotbook/us/macos.html" ] \
    && [ ! -s "$v1/com.quietharbor.Knotbook/us/macos.email.html" ] || fail "the empty platform's fragments are not empty files"
grep -q 'Casse-têtes de cordage' "$tide/ca/fr/ios.html" || fail "ca/fr/ios.html lacks the French names"
grep -q 'Casse-têtes de cordage' "$tide/ca/en/ios.html" && fail "ca/en/ios.html has the French names"
grep -q 'lang="fr-CA"' "$tide/ca/fr/ios.html" && grep -q 'lang="en-CA"' "$tide/ca/ios.html" \
    && grep -q 'lang="ja-JP"' "$tide/jp/ios.html" || fail "a fragment's lang is not fr-CA / en-CA / ja-JP"
grep -qF '&lt;/span&gt;&lt;/a&gt;&lt;b&gt;bold&lt;/b&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &#39;apos&#39;' \
    "$tide/us/ios.html" || fail "the hostile tagline is not escaped as character references"
grep -qF '\u003c/span\u003e\u003c/a\u003e\u003cb\u003ebold' "$tide/us/ios.html" || fail "the hostile tagline is not escaped in the JSON-LD"
ok "fr-CA names in ca/fr/, lang per storefront and language, an empty platform writes empty files, hostile text escaped"
grep -q '<section class="showcase" lang="ar-SA" dir="rtl"' "$tide/sa/ios.html" \
    && grep -q '<section class="showcase" lang="he-IL" dir="rtl"' "$tide/il/ios.html" \
    && grep -q '<table role="presentation" lang="ar-SA" dir="rtl"' "$tide/sa/ios.email.html" \
    || fail "an Arabic or Hebrew fragment or email variant is not dir=rtl"
grep -qF "<span class=\"showcase-name\"><bdi>"$'\u202e'"Knotbook" "$tide/sa/ios.html" \
    && grep -qF "<span dir=\"auto\" style=\"font-size:16px;font-weight:600;line-height:22px\">"$'\u202e'"Knotbook" \
        "$tide/sa/ios.email.html" \
    || fail "the planted right-to-left override is not alone in its isolate (fragment and email)"
ok "ar-SA and he-IL fragments and email variants say dir=rtl; a name's U+202E stays inside its isolate"
[ "$(cat "$tide/banner.html")" = '<meta name="apple-itunes-app" content="app-id=1641000101">' ] \
    || fail "TideLog's banner.html is '$(cat "$tide/banner.html")'"
[ "$(cat "$v1/com.quietharbor.Knotbook/banner.html")" = '<meta name="apple-itunes-app" content="app-id=1641000102">' ] \
    || fail "Knotbook's banner.html (trackId from its identity lookup) is wrong"
ok "banner.html names each host's own trackId"

# 3. nginx with SSI pages and the widget; headless Chromium.
mkdir -p "$work/web" "$work/pages"
cp examples/web/index.html examples/web/showcase-widget.js examples/web/showcase-widget.css "$work/web/"
cp scripts/web/probe.js "$work/pages/"
host_page() { # NAME HEAD BODY [END]: a host page, HEAD in its <head>, BODY in its <main>, END after it
    cat >"$work/pages/$1.html" <<HTML
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Harbor news</title>
$2
</head>
<body>
<main>
<h1>Harbor news</h1>
$3
</main>
${4:-}
</body>
</html>
HTML
}
stylesheet='<link rel="stylesheet" href="/widget/showcase-widget.css">'
page() { # NAME SECTION [nostyle]: a host page with its own styles and elements around SECTION
    local head="<meta name=\"color-scheme\" content=\"light dark\">"
    [ "${3:-}" = nostyle ] || head+=$'\n'$stylesheet
    host_page "$1" "$head
<style>body { font: 17px/1.5 Georgia, serif; margin: 24px; } @media (prefers-color-scheme: dark) { body { background: #111; color: #eee; } }</style>" \
        "<p>The host page's own text, with <a id=\"host-link\" href=\"/\">a link</a>.</p>
<ul id=\"host-list\"><li>The host page's own list</li></ul>
$2" '<script src="/widget/showcase-widget.js"></script>
<script src="/pages/probe.js"></script>'
}
widget() { # HOST STOREFRONT [EXTRA ATTRIBUTES]
    echo "<section class=\"showcase\" data-src=\"/showcase/v1/\" data-host=\"$1\" data-storefront=\"$2\" ${3:-} hidden></section>"
}
page widget-fr "$(widget com.quietharbor.TideLog ca 'data-locale="fr-CA"')"
page widget-auto "$(widget com.quietharbor.TideLog auto)"
page widget-empty "$(widget com.quietharbor.Knotbook us)"
page ssi-fr '<!--#include virtual="/showcase/v1/com.quietharbor.TideLog/ca/fr/ios.html" -->'
page ssi-jp '<!--#include virtual="/showcase/v1/com.quietharbor.TideLog/jp/ios.html" -->'
page ssi-empty '<!--#include virtual="/showcase/v1/com.quietharbor.Knotbook/us/macos.html" -->'
page widget-ar "$(widget com.quietharbor.TideLog sa)"
page widget-he "$(widget com.quietharbor.TideLog il)"
page ssi-ar '<!--#include virtual="/showcase/v1/com.quietharbor.TideLog/sa/ios.html" -->'
page ssi-he '<!--#include virtual="/showcase/v1/com.quietharbor.TideLog/il/ios.html" -->'
page control '' nostyle
# SPEC §19 "Access" (step 4): a host page with no styles of its own around a fragment, which stays white in dark
# mode (the block must not turn its text light on it), and a newsletter including the email variant in a reader
# whose background goes dark in dark mode while the email keeps its inline colors.
plain() { # NAME INCLUDE [HOST_STYLE]
    host_page "$1" "$stylesheet
${3:+<style>$3</style>}" \
        "<p>A host page with no styles of its own but what its reader gives it.</p>
<!--#include virtual=\"/showcase/v1/$2\" -->"
}
plain ssi-white com.quietharbor.TideLog/us/ios.html
plain email com.quietharbor.TideLog/ca/fr/ios.email.html \
    '@media (prefers-color-scheme: dark) { body { background: #111; color: #eee; } }'
start_nginx "$work/nginx" "$work/export" "        location /widget/ { alias $work/web/; }
        location /pages/ { alias $work/pages/; ssi on; }"

curl -sS --max-time 10 "$base/pages/ssi-fr.html" >"$work/ssi-fr.served"
cmp -s <(sed -n '/<section/,/<\/section>/p' "$work/ssi-fr.served") "$tide/ca/fr/ios.html" \
    || fail "nginx SSI did not include ca/fr/ios.html as it is"
curl -sS --max-time 10 "$base/pages/ssi-empty.html" | grep -q '<section' && fail "the SSI of an empty fragment shows a section"
ok "nginx SSI includes the fragment byte for byte without JavaScript; an empty one includes nothing"

declare -A agent=([iphone]="$iphone_ua" [ipad]="$ipad_ua" [mac]="$mac_ua" [desktop]="$windows_ua")
declare -A size=([iphone]=390,844 [ipad]=820,1180 [mac]=1440,900 [desktop]=1920,1080)
declare -A scheme=([light]=1 [dark]=0)
run=0
dom() { # PAGE DEVICE LIGHT|DARK [LANG]: the DOM after the page settled, to $work/PAGE-DEVICE-SCHEME.html
    run=$((run + 1))
    chromium_flags "$work/chrome-$run" "${agent[$2]}"
    timeout 120 chromium "${chromium_args[@]}" --blink-settings="preferredColorScheme=${scheme[$3]}" \
        --lang="${4:-en-US}" --accept-lang="${4:-en-US}" --dump-dom "$base/pages/$1.html" \
        >"$work/$1-$2-$3${4:+-$4}.html" 2>"$work/chrome-$run.err" \
        || { tail -5 "$work/chrome-$run.err" >&2; fail "chromium --dump-dom failed for $1 ($2, $3)"; }
    echo "$work/$1-$2-$3${4:+-$4}.html"
}
shot() { # PAGE DEVICE LIGHT|DARK: .build/screenshots/PAGE-DEVICE-SCHEME.png at the device's size
    run=$((run + 1))
    chromium_flags "$work/chrome-$run" "${agent[$2]}"
    timeout 120 chromium "${chromium_args[@]}" --blink-settings="preferredColorScheme=${scheme[$3]}" \
        --window-size="${size[$2]}" --screenshot="$PWD/.build/screenshots/$1-$2-$3.png" "$base/pages/$1.html" \
        >/dev/null 2>"$work/chrome-$run.err" || { tail -5 "$work/chrome-$run.err" >&2; fail "chromium --screenshot failed for $1 ($2, $3)"; }
    [ -s ".build/screenshots/$1-$2-$3.png" ] || fail "no screenshot $1-$2-$3.png"
}

fr=$tide/ca/fr
for mode in light dark; do
    control=$(dom control iphone "$mode")
    py probe "$(dom widget-fr iphone "$mode")" "{\"lang\": \"fr-CA\", \"state\": \"ready\", \"visible\": true, \"dark\": $([ $mode = dark ] && echo true || echo false), \"ids\": \"@$fr/ios.json iphone 17.4\"}" \
        || fail "the widget's fr-CA iPhone rendering ($mode) is wrong"
    py same-host "$work/widget-fr-iphone-$mode.html" "$control" || fail "the widget's stylesheet changed the host page ($mode)"
    py probe "$(dom ssi-fr iphone "$mode")" "{\"lang\": \"fr-CA\", \"visible\": true, \"ids\": \"@$fr/ios.json\"}" \
        || fail "the SSI page's rendering ($mode) is wrong"
    py same-host "$work/ssi-fr-iphone-$mode.html" "$control" || fail "the fragment's stylesheet changed the host page ($mode)"
done
light=$(grep -o '"textColor":"[^"]*"' "$work/widget-fr-iphone-light.html")
dark=$(grep -o '"textColor":"[^"]*"' "$work/widget-fr-iphone-dark.html")
[ "$light" != "$dark" ] || fail "the rows' text color is the same in light and dark mode ($light)"
ok "widget and SSI page: fr-CA, the document's order, one link per row ≥ 44 px, label beside the icon, focus visible, host page untouched, light and dark"
py probe "$(dom widget-fr mac light)" "{\"lang\": \"fr-CA\", \"state\": \"ready\", \"ids\": \"@$fr/macos.json\"}" \
    || fail "the widget's Mac rendering is wrong"
grep -q 'Mac App Store' "$work/widget-fr-mac-light.html" || fail "the Mac rendering has no Mac App Store label"
py probe "$(dom widget-fr desktop light)" "{\"state\": \"ready\", \"ids\": \"@$fr/ios.json\"}" || fail "the desktop rendering is wrong"
ok "Mac: the Mac App Store apps of ca/fr; desktop: every iOS app"
py probe "$(dom widget-auto iphone light fr-CA)" "{\"lang\": \"fr-CA\", \"state\": \"ready\", \"ids\": \"@$fr/ios.json iphone 17.4\"}" \
    || fail "data-storefront=auto with navigator.language fr-CA did not show ca in French"
py probe "$(dom widget-auto iphone light de-DE)" '{"state": "error", "visible": false, "ids": []}' \
    || fail "data-storefront=auto with de-DE (de is not exported) did not hide the block"
ok "data-storefront=auto: fr-CA picks ca in French; de-DE (not exported) hides the block"
py probe "$(dom widget-empty mac light)" '{"state": "empty", "visible": false, "ids": []}' \
    || fail "an empty roster did not hide the widget"
py probe "$(dom ssi-empty mac light)" '{"present": false}' || fail "an empty fragment's page shows a block"
py probe "$(dom ssi-jp iphone light)" '{"lang": "ja-JP", "visible": true}' || fail "the jp fragment's page is wrong"
ok "an empty roster hides the widget and the SSI include shows nothing; jp is ja-JP"
for rtl in ar:sa:ar-SA he:il:he-IL; do
    IFS=: read -r name storefront lang <<<"$rtl"
    for mode in light dark; do
        py probe "$(dom "widget-$name" iphone "$mode")" "{\"lang\": \"$lang\", \"dir\": \"rtl\", \"state\": \"ready\", \"visible\": true, \"ids\": \"@$tide/$storefront/ios.json iphone 17.4\"}" \
            || fail "the widget's $lang rendering ($mode) is wrong"
        py probe "$(dom "ssi-$name" iphone "$mode")" "{\"lang\": \"$lang\", \"dir\": \"rtl\", \"visible\": true, \"ids\": \"@$tide/$storefront/ios.json\"}" \
            || fail "the $lang SSI page's rendering ($mode) is wrong"
    done
done
ok "Arabic and Hebrew: the widget and the SSI page right to left, the badge beside the icon on the text's side, every name, tagline and price an isolate"

if [ "${SHOWCASE_SCREENSHOTS:-}" = 1 ]; then
    rm -f .build/screenshots/*.png
    mkdir -p .build/screenshots
    for device in iphone ipad mac desktop; do
        for mode in light dark; do
            shot widget-fr "$device" "$mode"
            shot ssi-fr "$device" "$mode"
        done
    done
    for page in widget-ar ssi-ar widget-he ssi-he; do
        for device in iphone desktop; do
            shot "$page" "$device" light
        done
        shot "$page" iphone dark
    done
    ok "28 screenshots in .build/screenshots/ (widget-fr and ssi-fr × iphone, ipad, mac, desktop × light, dark; widget and ssi in ar and he × iphone light and dark, desktop light)"
fi

# 4. SPEC §19 "Access": axe-core's WCAG 2.0/2.1 A and AA rules, app link names and visible focus on the example
#    widget page (examples/web/index.html), the French widget, the SSI pages and the plain pages above, phone and
#    desktop, light and dark (scripts/check-access.py; screenshots in .build/screenshots/access/export/).
"$venv/bin/python3" scripts/check-export-html.py names "$v1" >"$work/names.json"
access_tools
/usr/bin/python3 scripts/check-access.py --axe "$axe_js" --shots .build/screenshots/access/export \
    --names "$work/names.json" "$base/widget/index.html" "$base/pages/widget-fr.html" "$base/pages/ssi-fr.html" \
    "$base/pages/ssi-jp.html" "$base/pages/ssi-white.html" "$base/pages/email.html" || fail "a page fails SPEC §19's access rules (above)"
ok "axe-core finds no WCAG 2.0/2.1 A or AA violation on the widget, fragment and email pages (phone, desktop, light, dark); app links are named after their app; focus is visible"

echo "$CHECK: $pass passed, 0 failed"
