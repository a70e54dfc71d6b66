# showcased — build, test and lint. `make test` is what CI runs (.ci/run).
SWIFT ?= swift
SWIFT_FORMAT ?= swift format

.PHONY: all deps build test lint conformance

all: build

deps:
	@scripts/deps.sh

build: deps
	$(SWIFT) build

test: deps lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) conformance

# Third-party Varlink clients (Python, Go) against our server: scripts/varlink-conformance.sh.
conformance:
	SWIFT="$(SWIFT)" scripts/varlink-conformance.sh

lint:
	$(SWIFT_FORMAT) lint --strict --recursive Package.swift Sources Tests

# --- benchmarks (SPEC §11): release build, daemon vs the transport floor, one table -----------------------
.PHONY: bench
bench: deps
	@scripts/bench.sh
