#!/usr/bin/env bash
# The CI recipes of examples/ci/ run for real, by `make test` (check-once-recipes; README "Static sites and CI"):
# for each recipe, a throwaway git repository of a static site (showcase.yaml, a Makefile whose `site` target
# writes public/) is built twice from fresh clones, with the recipe's own variables and its own shell lines
# (the `showcased --once` step, the site build and the publish step, taken from the recipe's text):
#   1. cold: the run exits 0, fetches S + H rosters and identities from lookup-replay (loopback, drawing the
#      artwork with --serve-icons), mirrors every icon the documents reference once (export.icons) and says so,
#      and the site ships the export, icons and all, under public/showcase/;
#   2. the cached directories saved as a tarball after run 1, restored into the second clone with every
#      mtime changed (as a CI cache restore does): the run makes no upstream request, fetches no icon, and
#      public/showcase/ is byte-identical to the first build's.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "check-once-recipes: FAIL: $*" >&2; exit 1; }
ok() { echo "check-once-recipes: ok: $*"; }

command -v curl >/dev/null || fail "curl is missing (make deps installs it)"
command -v git >/dev/null || fail "git is missing"
bin_dir=${BIN_DIR:-$(swift build --show-bin-path 2>/dev/null)}
for exe in showcased lookup-replay; do
    [ -x "$bin_dir/$exe" ] || fail "no built $exe in $bin_dir (run swift build first)"
done

work=$(mktemp -d)
replay_pid=''
cleanup() {
    if [ -n "$replay_pid" ]; then kill "$replay_pid" 2>/dev/null || true; wait "$replay_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

"$bin_dir/lookup-replay" --fixtures Fixtures/lookup --port 0 --serve-icons >"$work/replay.out" 2>"$work/replay.log" &
replay_pid=$!
for _ in $(seq 100); do
    [ -s "$work/replay.out" ] && break
    kill -0 "$replay_pid" 2>/dev/null || { cat "$work/replay.log" >&2; fail "lookup-replay exited"; }
    sleep 0.1
done
replay=http://127.0.0.1:$(head -n 1 "$work/replay.out")
requests() { curl -fsS "$replay/_replay/requests" | { grep -o '"path":"/lookup"' || true; } | wc -l; }
icon_requests() { curl -fsS "$replay/_replay/requests" | { grep -oE '"path":"[^"]*bb\.[a-z]+"' || true; } | wc -l; }

# One line of the recipe: the first line but comments holding PATTERN, without a YAML `run:` key or list dash.
recipe_line() { # FILE PATTERN
    local line
    line=$(grep -v -E '^[[:space:]]*#' "$1" | grep -m 1 -F -- "$2") || fail "$1 has no line with '$2'"
    line=${line#"${line%%[![:space:]]*}"}
    line=${line#- }
    line=${line#run: }
    printf '%s\n' "$line"
}

check_recipe() { # RECIPE
    local recipe=$1 name site vars once build publish cached
    name=$(basename "$recipe" .yml)
    site=$work/$name-site
    # The recipe's variables (SHOWCASE_*, SITE_OUTPUT), as it sets them.
    vars=$(grep -E '^  (SHOWCASE_[A-Z]+|SITE_OUTPUT): ' "$recipe" | sed -E 's/^  ([A-Z_]+): ([^ ]+).*/export \1=\2/')
    eval "$vars"
    [ "$SHOWCASE_CACHE" = .showcase-cache ] && [ "$SHOWCASE_EXPORT" = showcase-export ] \
        || fail "$name: the variables changed; update this check"
    once=$(recipe_line "$recipe" 'showcased --once')
    build=$(recipe_line "$recipe" 'make site')
    publish=$(recipe_line "$recipe" 'cp -R "$SHOWCASE_EXPORT/."')
    cached=$(grep -cE '^ +(- )?(\.showcase-cache|\.showcase-state|showcase-export)/?$' "$recipe") || true
    [ "$cached" = 3 ] || fail "$name: the recipe must cache .showcase-cache, .showcase-state and showcase-export"

    # The site's repository.
    mkdir -p "$site"
    cat >"$site/showcase.yaml" <<YAML
hosts:
  - bundle_id: com.quietharbor.TideLog
  - bundle_id: com.quietharbor.Knotbook
storefronts: [us, de, jp]
refresh: {interval: 24h, jitter: 10%, retry: 5m}
lookup: {endpoint: "$replay/lookup", timeout: 5s, rate_limit: 600/min, artwork_hosts: ["$replay/"]}
export: {directory: showcase-export, gzip: true, feed: true, icons: {sizes: [128]}}
state: {directory: .showcase-state}
YAML
    printf 'site:\n\tmkdir -p public && echo "<h1>Quiet Harbor</h1>" >public/index.html\n' >"$site/Makefile"
    printf '.showcase-cache/\n.showcase-state/\nshowcase-export/\npublic/\n' >"$site/.gitignore"
    git -C "$site" init -q && git -C "$site" add -A
    git -C "$site" -c user.name=ci -c user.email=ci@example.org commit -q -m site

    run_build() { # CLONE: the recipe's lines in a fresh clone, showcased on PATH
        (
            cd "$1"
            export PATH="$bin_dir:$PATH"
            eval "$once" >"$1.report" && eval "$build" && eval "$publish"
        ) >"$1.log" 2>&1 || { cat "$1.log" >&2; fail "$name: the recipe's steps failed in $(basename "$1")"; }
    }

    curl -fsS -X POST "$replay/_replay/requests/clear" >/dev/null
    git clone -q "$site" "$work/$name-1"
    run_build "$work/$name-1"
    local cold
    cold=$(requests)
    [ "$cold" = 5 ] || fail "$name: the cold run made $cold upstream requests, not S + H = 3 + 2"
    [ -f "$work/$name-1/public/showcase/v1/com.quietharbor.TideLog/de/ios.json" ] \
        || fail "$name: the site does not ship the export"
    local icons shipped listed
    icons=$(icon_requests)
    shipped=$(find "$work/$name-1/public/showcase/v1/icons" -type f -name '*.png' 2>/dev/null | wc -l)
    listed=$(grep -c '"128": "icons/' "$work/$name-1/public/showcase/v1/com.quietharbor.TideLog/de/ios.json") \
        || fail "$name: the published documents list no icons"
    [ "$icons" -gt 0 ] && [ "$shipped" -gt 0 ] && [ "$shipped" -le "$icons" ] \
        || fail "$name: $icons icon requests, $shipped icons published"
    grep -qx "icons: $icons of $icons mirrored" "$work/$name-1.report" \
        || fail "$name: the report does not say 'icons: $icons of $icons mirrored': $(cat "$work/$name-1.report")"
    ok "$name: cold run, $cold requests (S + H), $icons icons mirrored once, the export published with the site"

    # The CI cache: saved as a tarball, restored into a fresh clone with every mtime changed.
    # The feeds (export.feed) make the state directory count: without it the second run starts a new history
    # baseline and every feed's <updated> moves.
    tar -C "$work/$name-1" -cf "$work/$name-cache.tar" "$SHOWCASE_CACHE" .showcase-state "$SHOWCASE_EXPORT"
    git clone -q "$site" "$work/$name-2"
    tar -C "$work/$name-2" -xf "$work/$name-cache.tar"
    find "$work/$name-2/$SHOWCASE_CACHE" "$work/$name-2/.showcase-state" "$work/$name-2/$SHOWCASE_EXPORT" \
        -exec touch -h -d '2001-01-01' {} +
    curl -fsS -X POST "$replay/_replay/requests/clear" >/dev/null
    run_build "$work/$name-2"
    local warm
    warm=$(requests)
    [ "$warm" = 0 ] || fail "$name: the run after the restore made $warm upstream requests"
    [ "$(icon_requests)" = 0 ] || fail "$name: the run after the restore fetched $(icon_requests) icons again"
    diff -r "$work/$name-1/public/showcase" "$work/$name-2/public/showcase" >"$work/$name.diff" 2>&1 \
        || fail "$name: the second build's showcase files differ from the first's: $(head -c 2000 "$work/$name.diff")"
    ok "$name: after a restore with new mtimes, no request, no icon fetched and byte-identical showcase files"
}

for recipe in examples/ci/github-actions.yml examples/ci/gitlab-ci.yml; do
    check_recipe "$recipe"
done
echo "check-once-recipes: all checks passed"
