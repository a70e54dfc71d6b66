#!/usr/bin/env bash
# The first hour from any checkout (SPEC §17, issue #34), run by `make test` (check-demo-anywhere). As root, in a
# copy of this checkout inside a folder only root may enter (as /root is on Debian):
#   1. the demo (scripts/demo.sh, not interactive) exits 0, shows Canada's French names, the change a refresh
#      records (showcasectl changes), the French Atom feed with its entry, and ends with its URLs (the widget, the
#      SSI page and the site's US developer page), which answered;
#   2. `make try` with the demo's own configuration (scripts/try.sh) exits 0 and its URLs answered; the file is
#      left as it was;
#   3. `make try` with a host the fixtures do not know exits 65, naming it and the bundle ids they know;
#   4. `make sanitize` hands ThreadSanitizer a suppressions file uid 65534 can read (showcasectl runs as that user
#      in the end-to-end suites): the recipe run with a stand-in for swift that reads it as uid 65534.
# The copy holds what a clone of this working tree holds (tracked and new files, with their edits); the binaries
# are this checkout's debug build (BIN_DIR), so no second build is made. Each step is bounded by `timeout`.
set -euo pipefail
cd "$(dirname "$0")/.."

CHECK=check-demo-anywhere
. scripts/lib.sh

[ "$(id -u)" -eq 0 ] || fail "NOT RUN: needs root (the case it guards is root in a folder only root may enter)"
for tool in setpriv nginx curl git timeout; do command -v "$tool" >/dev/null || fail "$tool is missing (make deps)"; done
bin_dir=${BIN_DIR:-$(swift build --show-bin-path 2>/dev/null)}
for exe in showcased showcasectl lookup-replay; do
    [ -x "$bin_dir/$exe" ] || fail "no built $exe in $bin_dir (run swift build first)"
done

private=$(mktemp -d "${TMPDIR:-/tmp}/showcase-private.XXXXXX")
trap 'rm -rf "$private"' EXIT
chmod 700 "$private"
clone=$private/root/showcased
mkdir -p "$clone"
chmod 700 "$private/root"
git ls-files -z --cached --others --exclude-standard \
    | while IFS= read -r -d '' file; do [ -e "$file" ] && printf '%s\0' "$file"; done \
    | tar --null -T - -cf - | tar -xf - -C "$clone"
as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
"${as_nobody[@]}" test -r "$clone/Makefile" 2>/dev/null && fail "uid 65534 can read the copy: this check would prove nothing"
ok "a copy of the checkout in $clone, which uid 65534 cannot enter"

# 1. The demo.
status=0
(cd "$clone" && CI=1 BIN_DIR=$bin_dir timeout 300 scripts/demo.sh </dev/null >"$private/demo.out" 2>&1) || status=$?
[ "$status" -eq 0 ] || { tail -n 40 "$private/demo.out" >&2; fail "the demo exited $status in a private folder"; }
expect() { # FILE TEXT WHAT: FILE contains the line-part TEXT
    grep -qF -- "$2" "$1" || { tail -n 60 "$1" >&2; fail "$3: no '$2' in the output"; }
}
expect "$private/demo.out" "Rose des vents" "the demo shows no French-Canadian name"
expect "$private/demo.out" '$ showcasectl changes --storefront ca' "the demo does not run showcasectl changes"
grep -Eq 'updated +Windrose .*2\.1\.0' "$private/demo.out" \
    || { grep -n -A8 'showcasectl changes' "$private/demo.out" >&2; fail "showcasectl changes lists no Windrose 2.1.0"; }
expect "$private/demo.out" ">Rose des vents 2.1.0</title>" "the French feed has no entry for the new version"
tail -n 20 "$private/demo.out" | grep -Eq '^  widget page: +http://127\.0\.0\.1:[0-9]+/index\.html\?storefront=de$' \
    || { tail -n 20 "$private/demo.out" >&2; fail "the demo does not end with the widget page's URL"; }
tail -n 20 "$private/demo.out" | grep -Eq '^  SSI page \(no script\): +http://127\.0\.0\.1:[0-9]+/ssi\.html$' \
    || fail "the demo does not end with the SSI page's URL"
tail -n 20 "$private/demo.out" | grep -Eq '^  site: +http://127\.0\.0\.1:[0-9]+/showcase/site/us/index\.html ' \
    || fail "the demo does not end with the site's URL"
ok "the demo exits 0 as root in a private folder: French names, Windrose 2.1.0 in showcasectl changes and the French feed, its URLs answered"

# 2. make try with the demo's configuration.
cp "$clone/Fixtures/demo/showcase.yaml" "$private/demo-config.before"
status=0
(cd "$clone" && CI=1 BIN_DIR=$bin_dir timeout 120 scripts/try.sh Fixtures/demo/showcase.yaml </dev/null \
    >"$private/try.out" 2>&1) || status=$?
[ "$status" -eq 0 ] || { tail -n 40 "$private/try.out" >&2; fail "make try with the demo's configuration exited $status"; }
expect "$private/try.out" "com.quietharbor.TideLog ca/fr: fresh" "make try's report has no fresh French Canadian roster"
grep -Eq '^  widget page: +http://127\.0\.0\.1:[0-9]+/index\.html' "$private/try.out" \
    || { cat "$private/try.out" >&2; fail "make try printed no widget page URL"; }
expect "$private/try.out" "/showcase/v1/com.quietharbor.TideLog/us/ios.json" "make try printed no document URL"
cmp -s "$private/demo-config.before" "$clone/Fixtures/demo/showcase.yaml" || fail "make try modified the configuration"
ok "make try CONFIG=Fixtures/demo/showcase.yaml exits 0, its URLs answered, the file untouched"

# 3. make try with a host the fixtures do not know.
cat >"$private/unknown.yaml" <<'EOF'
hosts:
  - bundle_id: com.example.NotInTheFixtures
storefronts: [us]
EOF
status=0
(cd "$clone" && CI=1 BIN_DIR=$bin_dir timeout 60 scripts/try.sh "$private/unknown.yaml" </dev/null \
    >"$private/unknown.out" 2>&1) || status=$?
[ "$status" -eq 65 ] || { cat "$private/unknown.out" >&2; fail "make try with an unknown host exited $status, not 65"; }
expect "$private/unknown.out" "host com.example.NotInTheFixtures: the fixtures know no app" "the unknown host is not named"
expect "$private/unknown.out" "com.lamplight.Beacon, com.quietharbor.Knotbook, com.quietharbor.TideLog" \
    "the bundle ids the fixtures know are not named"
ok "make try with an unknown host exits 65 and names it and the bundle ids the fixtures know"

# 4. make sanitize's suppressions, read as uid 65534 by a stand-in for swift (build: nothing; test: the read).
cat >"$private/swift" <<'EOF'
#!/bin/sh
[ "$1" = test ] || exit 0
for options in "$ASAN_OPTIONS" "$TSAN_OPTIONS"; do
    file=$(printf '%s\n' "$options" | tr ':' '\n' | sed -n 's/^suppressions=//p')
    [ -n "$file" ] || continue
    setpriv --reuid=65534 --regid=65534 --clear-groups -- cat "$file" >/dev/null || exit 87
    echo "suppressions read as uid 65534: $file" >>"$SUPPRESSIONS_LOG"
done
EOF
chmod 755 "$private/swift"
status=0
# env -u STEPS_LOG: the stand-in run's steps are not CI's (scripts/step.sh); it prints its own table into the log.
SUPPRESSIONS_LOG=$private/suppressions.log timeout 120 env -u STEPS_LOG make -C "$clone" --no-print-directory sanitize \
    SWIFT="$private/swift" >"$private/sanitize.out" 2>&1 || status=$?
[ "$status" -eq 0 ] || { cat "$private/sanitize.out" >&2; fail "make sanitize's suppressions are unreadable for uid 65534"; }
grep -q 'suppressions read as uid 65534' "$private/suppressions.log" 2>/dev/null \
    || { cat "$private/sanitize.out" >&2; fail "make sanitize passed ThreadSanitizer no suppressions file"; }
ok "make sanitize hands ThreadSanitizer suppressions uid 65534 can read"

echo "$CHECK: $pass passed"
