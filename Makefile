# showcased — build, test and lint. `make test` is what CI runs (.ci/run).
SWIFT ?= swift
SWIFT_FORMAT ?= swift format

.PHONY: all deps deps-build deps-demo deps-package build test lint conformance check-export-web check-export-html \
    check-site check-export-icons check-feeds check-export-sync check-once-recipes check-hostile-export

all: build

# scripts/deps.sh installs missing Debian packages by profile, so each target pulls in only what it needs:
# building and installing (build), `make demo` and `make try` (demo: build + python3-yaml), `make deb` (package:
# build + debhelper, dpkg-dev, lintian), or everything
# `make test` runs (test: also systemd, promtool, nginx, chromium, debootstrap…). `scripts/deps.sh --dry-run
# PROFILE` lists a profile's packages; scripts/check-deps.sh (part of `make test`) holds the targets to theirs.
deps:
	@scripts/deps.sh test

deps-build:
	@scripts/deps.sh build

deps-demo:
	@scripts/deps.sh demo

deps-package:
	@scripts/deps.sh package

build: deps-build
	$(SWIFT) build

# `make test` is a list of steps, each run by scripts/step.sh with a time limit that fails it by name when it is
# passed (a hang stops there, not at CI's cap), and a table of every step's wall time printed at the end, passed or
# failed (docs/development.md, "CI's step table"). A limit is a bound against hangs, not a performance check: about
# ten times the step's time on an idle 2-core machine (a clean clone's .ci/run, 2026-12-06: make test 403 s, make
# sanitize 537 s), since five builds sharing the machine made every step five to ten times slower. Under `make -n`
# the steps are not timed or recorded.
# Conformance runs before the Swift tests: it creates .build/varlink-venv, whose reference IDL parser the
# daemon's interface test uses. SHOWCASE_REFERENCE_PARSER=required makes that test fail, not skip, without it.
# swift test's closing summary lines are printed again under the table (--keep), so a run's last lines still say
# how many tests ran.
STEP = scripts/step.sh$(if $(findstring n,$(firstword -$(MAKEFLAGS))), --untimed)
SWIFT_TEST_SUMMARY = ^(Test Suite .All tests. (passed|failed)|[[:space:]]*Executed [0-9]+ tests?,|.*Test run with [0-9]+ tests?)
.PHONY: test-steps screenshots
test:
	@$(STEP) "make test" 45m $(MAKE) --no-print-directory test-steps

# deps is a prerequisite, not a step: checking what is installed takes a second, and what it installs shows in the
# table as its own steps (apt-get update, apt-get install; scripts/deps.sh).
test-steps: deps
	@$(STEP) lint 5m $(MAKE) --no-print-directory lint
	@$(STEP) build 30m $(SWIFT) build --build-tests
	@$(STEP) conformance 10m $(MAKE) --no-print-directory conformance
	@$(STEP) --keep '$(SWIFT_TEST_SUMMARY)' "swift test" 20m \
	    env SHOWCASE_REFERENCE_PARSER=required $(SWIFT) test --skip-build
	@$(STEP) check-export-web 10m $(MAKE) --no-print-directory check-export-web
	@$(STEP) check-export-html 10m $(MAKE) --no-print-directory check-export-html
	@$(STEP) check-site 20m $(MAKE) --no-print-directory check-site
	@$(STEP) check-export-icons 10m $(MAKE) --no-print-directory check-export-icons
	@$(STEP) check-feeds 10m $(MAKE) --no-print-directory check-feeds
	@$(STEP) check-export-sync 10m $(MAKE) --no-print-directory check-export-sync
	@$(STEP) check-once-recipes 10m $(MAKE) --no-print-directory check-once-recipes
	@$(STEP) check-hostile-export 15m $(MAKE) --no-print-directory check-hostile-export
	@$(STEP) check-demo-anywhere 10m $(MAKE) --no-print-directory check-demo-anywhere
	@$(STEP) fuzz-smoke 20m $(MAKE) --no-print-directory fuzz-smoke
	@$(STEP) ship-checks 40m $(MAKE) --no-print-directory ship-checks

# The screenshots nothing asserts on, for a person to look at: the widget and an nginx SSI page at iPhone, iPad, Mac
# and desktop sizes in light and dark mode, the Arabic and Hebrew ones right to left at iPhone and desktop sizes
# (.build/screenshots/), and the export widget on an iPhone and a Mac
# (.build/export-widget-{iphone,mac}.png). Each script runs its checks too (they set up what is shot); `make test`
# runs the same checks without the screenshots.
screenshots: deps
	$(SWIFT) build
	SHOWCASE_SCREENSHOTS=1 scripts/check-export-html.sh
	SHOWCASE_SCREENSHOTS=1 scripts/check-export-web.sh

# docs/<interface>.varlink, generated from the IDL compiled into the daemon (ShowcaseAPI's ShowcaseInterfaces): run
# after editing the IDL (InterfaceFileTests fails until the files match).
.PHONY: interfaces
interfaces:
	$(SWIFT) build --build-tests
	SHOWCASE_WRITE_INTERFACES=1 $(SWIFT) test --skip-build --filter InterfaceFileTests

# Third-party Varlink clients (Python, Go) against our server: scripts/varlink-conformance.sh.
conformance:
	SWIFT="$(SWIFT)" scripts/varlink-conformance.sh

# The static export served by a real nginx and rendered by the example widget in headless Chromium.
check-export-web:
	scripts/check-export-web.sh

# SPEC §14 through the binary: every HTML fragment and email variant parsed by html5lib (strict) with its JSON-LD
# and email rules checked, the widget and an nginx SSI page rendered in headless Chromium at iPhone, iPad, Mac and
# desktop sizes in light and dark mode (their screenshots: `make screenshots`), and SPEC §19's access rules
# (scripts/check-access.py: axe-core's WCAG 2.0/2.1 A and AA rules, link names, visible focus) on the widget,
# fragment and email pages at phone and desktop widths, light and dark (screenshots in .build/screenshots/access/).
check-export-html:
	scripts/check-export-html.sh

# The site (SPEC §18, §19 "Access"), scripts/check-site.sh: a self-test on a hand-written site and a defective copy
# of it, then the site `showcased --once` writes, through the W3C Nu HTML Checker (vnu.jar), extruct's JSON-LD,
# hreflang reciprocity and the sitemap, and every page through scripts/check-access.py (axe-core, phone and desktop,
# light and dark; screenshots in .build/screenshots/access/site/). `scripts/check-site.sh SITE URL` checks a site
# directory served at URL without the daemon.
check-site:
	scripts/check-site.sh

# Mirrored icons (SPEC §16): the daemon mirrors the replay's invented icons, nginx serves them immutable, and a
# page served from the tree makes no request to any other origin (Chromium's net log).
check-export-icons:
	scripts/check-export-icons.sh

# The Atom feeds (SPEC §15) parsed by Python's feedparser (pinned, .build/feeds-venv): valid while empty, the
# entries a changed upstream brings, ids stable across a restart, and nginx's type for .atom.
check-feeds:
	scripts/check-feeds.sh

# showcase-export-sync.service's rclone command (read from the unit and the README) against a real SFTP server
# (sshd on loopback), the copy served by a second nginx: same bytes and ETags, nothing re-sent, removals synced.
check-export-sync:
	scripts/check-export-sync.sh

# examples/ci/'s recipes, their shell steps run for real: two `showcased --once` builds of a throwaway site with
# the cache saved and restored between them (README "Static sites and CI").
check-once-recipes:
	scripts/check-once-recipes.sh

# The real daemon, as root and as uid 65534, exporting into a tree with planted symlinks, a FIFO, a hard link and a
# folder-swapping racer: nothing outside the tree may change (README "Security").
check-hostile-export:
	scripts/check-hostile-export.sh

# Locking's `Lock`, not Synchronization.Mutex: ThreadSanitizer cannot see Mutex's locking on Linux (Lock.swift).
# FoundationEssentials, not Foundation, in Sources/ (the shipped modules); the tools under Tools/ are not shipped
# and may use Foundation.
# A comment states the rule; the profile that led to it (callgrind, perf, heaptrack, instruction counts) goes in
# BENCHMARKS.md, "Why the hot paths look as they do". COST_COMMENTS_PENDING: files whose figures are still to move
# (being rewritten for #21); drop each once its comments are moved.
COST_COMMENTS_PENDING =
# scripts/check-layout.py: every target's charter in Package.swift ("May use …") is exactly its dependencies and
# imports, Sources/ holds only what the products are built from (the tools live under Tools/), and no comment there
# points to BENCHMARKS.md (the rule in the code, the figures behind it in BENCHMARKS.md); no function in
# Sources/ShowcaseExport is over 80 lines (scripts/check-function-length.py). The daemon's state has one owner:
# only StateOwner, RateLimiter, Upstream, DaemonLog and WatchHub hold a lock, and every DaemonState transition
# returns a StateChange (scripts/check-single-owner.py).
lint:
	$(SWIFT_FORMAT) lint --strict --recursive Package.swift Sources Tools Tests
	@python3 scripts/check-layout.py >/dev/null
	@python3 scripts/check-function-length.py
	@python3 scripts/check-single-owner.py --self-test && python3 scripts/check-single-owner.py
	@if grep -rnE '\bMutex *[<(]' --include='*.swift' Sources Tools Tests | grep -v '^Sources/Locking/'; then \
	    echo "lint: use Locking's Lock instead of Synchronization.Mutex (see Sources/Locking/Lock.swift)" >&2; \
	    exit 1; fi
	@if grep -rnE '^(@preconcurrency )?import Foundation(Networking)?$$' --include='*.swift' Sources; then \
	    echo "lint: import FoundationEssentials, not Foundation, in the shipped binaries' modules: Foundation links ICU" \
	        "(about 40 MB a binary; SPEC §11, scripts/check-sizes.sh)" >&2; \
	    exit 1; fi
	@if grep -rnE '//.*(callgrind|heaptrack|valgrind|perf (record|stat|trace)|\bIr\b|[0-9] instructions)' \
	    --include='*.swift' Sources | grep -vE '^($(COST_COMMENTS_PENDING)):'; then \
	    echo "lint: a comment cites a profile; keep the rule in the code and move the figures to BENCHMARKS.md" \
	        "(\"Why the hot paths look as they do\")" >&2; \
	    exit 1; fi
	@if grep -rnE '^[^/]*(ISO8601|DateFormatter|\.formatted\()' --include='*.swift' Sources \
	    | grep -v '^Sources/ShowcaseCore/Time/RFC3339.swift:'; then \
	    echo "lint: write and read timestamps with ShowcaseCore's RFC3339 (one formatter for every reply, document," \
	        "feed and log line; docs/renderers.md)" >&2; \
	    exit 1; fi

# --- fuzzing and sanitizers (README "Development") ----------------------------------------------------
# `make fuzz FUZZ_SECONDS=N` runs every libFuzzer target N seconds (default 60) from Fixtures/fuzz/;
# `make fuzz-smoke` (part of `make test`) runs each for 20 s, one target per core at a time (scripts/fuzz.sh), so a
# regression is caught in CI.
# `make sanitize` runs the unit and end-to-end suites under AddressSanitizer and ThreadSanitizer, each in its own
# build path; .ci/run calls it after `make test`.
.PHONY: fuzz fuzz-smoke sanitize
FUZZ_SECONDS ?= 60
SANITIZE_UNIT_SUITES = LockingTests|DirectorySafetyTests|ShowcaseCoreTests|ShowcaseConfigTests|VarlinkTests|ShowcaseAPITests|ShowcaseExportTests|ShowcaseHistoryTests
SANITIZE_SUITES ?= $(SANITIZE_UNIT_SUITES)|ShowcaseDaemonTests|ShowcaseCtlTests

fuzz: deps-build
	SWIFT="$(SWIFT)" FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh

fuzz-smoke: deps-build
	SWIFT="$(SWIFT)" FUZZ_SECONDS=20 scripts/fuzz.sh

# The end-to-end suites spawn the binaries of the build they run from (Tests/Support/BuiltProducts.swift), so
# showcased, showcasectl and lookup-replay are sanitized too and get these options: a report halts the process
# that hit it with a distinctive status (86 ASan, 87 TSan), and the harness fails the test that started it,
# quoting the report from the child's log. LeakSanitizer is off: what it reports at exit is Foundation's Process
# and XCTest's runner, not memory errors (which ASan still halts on). ASan's quarantine of freed memory is cut to
# 16 MB so the memory bounds the hostile-client tests assert stay meaningful. scripts/tsan.supp says what may
# be suppressed (nothing is); ThreadSanitizer reads it in every sanitized process, showcasectl run as uid 65534
# included, so it is handed over as a copy in a folder any user may enter (the checkout may lie in /root, 0700;
# scripts/check-demo-anywhere.sh checks it). SWIFT_BACKTRACE=enable=no: on a Swift trap, the runtime's backtracer
# copies every thread's stack, which ASan reports as a stack-buffer-underflow that hides the real message (the
# trap's own is then printed).
SANITIZE_ASAN_OPTIONS = detect_leaks=0:halt_on_error=1:exitcode=86:quarantine_size_mb=16
SANITIZE_TSAN_OPTIONS = halt_on_error=1:exitcode=87

# Four steps under one, "make sanitize" (scripts/step.sh, as in `make test`): the step table shows each.
.PHONY: sanitize-steps
sanitize:
	@$(STEP) "make sanitize" 45m $(MAKE) --no-print-directory sanitize-steps

sanitize-steps: deps
	@$(STEP) "sanitize ASan build" 20m $(SWIFT) build --build-tests --sanitize=address --build-path .build/asan
	@$(STEP) --keep '$(SWIFT_TEST_SUMMARY)' "sanitize ASan" 25m \
	    env ASAN_OPTIONS=$(SANITIZE_ASAN_OPTIONS) SWIFT_BACKTRACE=enable=no \
	    $(SWIFT) test --skip-build --sanitize=address --build-path .build/asan --filter '$(SANITIZE_SUITES)'
	@$(STEP) "sanitize TSan build" 20m $(SWIFT) build --build-tests --sanitize=thread --build-path .build/tsan
	@supp=$$(mktemp -d /tmp/showcase-tsan.XXXXXX) && trap 'rm -rf "$$supp"' EXIT && chmod 755 "$$supp" \
	    && install -m 644 scripts/tsan.supp "$$supp/tsan.supp" \
	    && $(STEP) --keep '$(SWIFT_TEST_SUMMARY)' "sanitize TSan" 25m \
	    env TSAN_OPTIONS=$(SANITIZE_TSAN_OPTIONS):suppressions=$$supp/tsan.supp SWIFT_BACKTRACE=enable=no \
	    $(SWIFT) test --skip-build --sanitize=thread --build-path .build/tsan --filter '$(SANITIZE_SUITES)'

# --- benchmarks (BENCHMARKS.md): release build, daemon vs the transport floor, one table -----------------------
.PHONY: bench
bench: deps
	@scripts/bench.sh

# ---- ship: install, uninstall, demo and the checks they add to `make test` ------------------
# `make install` builds release binaries once (--static-swift-stdlib, so they run without the
# Swift toolchain) and installs them, the systemd units, the configuration (never overwriting),
# man pages and completions; `make uninstall` removes exactly what the manifest lists.
PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
DESTDIR ?=
RELEASE_FLAGS = -c release --static-swift-stdlib
# The shipped products: the binaries scripts/install.sh installs (its install loop is the one list; debian/rules and
# scripts/check-sizes.sh read it too). The release build makes these alone: the tools that are not shipped
# (showcase-bench, lookup-replay, varlink-certify, showcase-export-sample) are built where they are used, in the
# debug build `make test` makes, or in scripts/bench.sh's own release build.
SHIPPED_PRODUCTS := $(shell sed -n 's/^ *for exe in \(.*\); do$$/\1/p' scripts/install.sh)

.PHONY: release install uninstall demo try check-demo-anywhere ship-checks check-deps check-units check-sizes check-install hardening-smoke

release: deps-build
	for product in $(SHIPPED_PRODUCTS); do $(SWIFT) build $(RELEASE_FLAGS) --product $$product || exit 1; done

install: release
	DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" SYSCONFDIR="$(SYSCONFDIR)" \
	    BIN_DIR="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)" scripts/install.sh install

uninstall:
	DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" SYSCONFDIR="$(SYSCONFDIR)" scripts/install.sh uninstall

# `make demo` (scripts/demo.sh) runs the daemon against the offline replay of Fixtures/lookup/ and serves what it
# exported with nginx; `make try CONFIG=FILE` (scripts/try.sh) runs FILE with `showcased --once` against the same
# replay (FILE is not modified: a copy points at the replay and a scratch directory), serves the tree and prints its
# URLs; a host or storefront the fixtures do not know is named with the ones they know (exit 65). Both build the
# debug binaries into .build/debug/ (`swift build --show-bin-path`) and work from any checkout, as any user.
demo: deps-demo
	$(SWIFT) build --product showcased
	$(SWIFT) build --product showcasectl
	$(SWIFT) build --product lookup-replay
	scripts/demo.sh

try: deps-demo
	@[ -n "$(CONFIG)" ] || { echo "usage: make try CONFIG=FILE (e.g. make try CONFIG=Fixtures/demo/showcase.yaml)" >&2; exit 64; }
	$(SWIFT) build --product showcased
	$(SWIFT) build --product showcasectl
	$(SWIFT) build --product lookup-replay
	scripts/try.sh "$(CONFIG)"

# make demo and make try in a copy of this checkout inside a folder only root may enter (as /root is), as root,
# not interactive: both succeed and their URLs answer; make try names an unknown host (exit 65); and the
# suppressions `make sanitize` hands to ThreadSanitizer are readable by uid 65534 (scripts/check-demo-anywhere.sh).
check-demo-anywhere:
	scripts/check-demo-anywhere.sh

# Run by `make test` after the debug build: unit files, the daemon under the hardening options
# that can be reproduced without systemd as PID 1, an install into a temporary DESTDIR, and the Debian
# package installed, upgraded, removed and purged in a throwaway Debian root.
# Each is a step of its own in the step table (scripts/step.sh). The release binaries are built once, in the
# release step; the checks after it run their scripts directly, so no step builds them again (make check-sizes,
# hardening-smoke, check-install and check-deb alone do, as their prerequisites).
ship-checks:
	@$(STEP) check-deps 5m scripts/check-deps.sh
	@$(STEP) check-units 10m scripts/check-units.sh
	@$(STEP) release 30m $(MAKE) --no-print-directory release
	@$(STEP) check-sizes 5m scripts/check-sizes.sh
	@$(STEP) hardening-smoke 10m scripts/hardening-smoke.sh
	@$(STEP) check-install 10m scripts/check-install.sh
	@$(STEP) deb 15m $(MAKE) --no-print-directory deb
	@$(STEP) check-deb 25m scripts/check-deb.sh

# What each target's dependency profile installs (scripts/deps.sh --dry-run): make install, make release and
# make deb never pull in the test tools (a browser, nginx, prometheus, lintian for install…).
check-deps:
	scripts/check-deps.sh

check-units:
	scripts/check-units.sh

# SPEC §11: each shipped binary ≤ 20 MB stripped, and none links ICU (scripts/check-sizes.sh).
check-sizes: release
	scripts/check-sizes.sh

hardening-smoke: release
	scripts/hardening-smoke.sh

check-install: release
	scripts/check-install.sh

# `make deb`: .build/deb/showcase_<version>_<arch>.deb from debian/ (debhelper), lintian-clean of errors.
.PHONY: deb check-deb
deb: deps-package release
	SWIFT="$(SWIFT)" scripts/deb.sh

check-deb: deb
	scripts/check-deb.sh
# ---- end ship -------------------------------------------------------------------------------
