# loupe's build, test and benchmark entry points. `make test` is what CI runs.
GO       ?= go
CACHE    ?= $(CURDIR)/.cache

export LOUPE_CACHE := $(CACHE)
# The persistent tree cache of the loupe processes make runs (tests, demo)
# goes under .cache too, not into the user's cache folder.
export LOUPE_TREE_CACHE_DIR ?= $(CACHE)/trees

.PHONY: demo build dist cross test test-deps vet race parity difftest-full difftest-collections difftest-custom-projects adversarial fuzz grammars grammars-check bench js js-deps js-build test-js playground playground-serve

# has SUITE: true when the Debian packages of one optional suite are
# installed (scripts/test-deps.sh installs them as root, and otherwise
# prints what to install).
HAS := scripts/test-deps.sh --has

# The main job on bundled defaults: structural searches over testdata/demo.
demo: build
	bin/loupe run -p 'console.log($$$$$$ARGS)' testdata/demo
	bin/loupe run -p 'class $$NAME extends $$PARENT { $$$$$$BODY }' testdata/demo

# The version stamped into the binaries: `git describe --tags` (v0.4.0 on
# a tag, v0.4.0-3-g1a2b3c4 past one, -dirty with uncommitted changes), which
# loupe --version prints without the "v". Empty without a tag: the binary
# then reports "dev+COMMIT" from its build information. `make dist
# VERSION=...` overrides it.
VERSION := $(shell git describe --tags --dirty 2>/dev/null)

build:
	CGO_ENABLED=0 $(GO) build -ldflags "-X main.version=$(VERSION)" -o bin/loupe ./cmd/loupe

# The platforms loupe is released for: make dist builds each, make cross
# (part of make test) checks each still builds.
DIST_TARGETS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64 freebsd/amd64

# The release files in dist/: per target an archive
# loupe_VERSION_OS_ARCH.tar.gz (.zip for windows) with the binary, LICENSE
# and README.md; the npm package's tarball; SHA256SUMS. The same commit
# gives the same bytes (see scripts/dist.sh).
dist: js-deps
	GO="$(GO)" LOUPE_VERSION="$(VERSION)" scripts/dist.sh $(DIST_TARGETS)

# loupe built for every release target (cgo off; nothing written), and vet
# as windows and darwin, so no platform breaks unnoticed.
cross:
	@for t in $(DIST_TARGETS); do \
	  echo "CGO_ENABLED=0 GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) build -o /dev/null ./cmd/loupe"; \
	  CGO_ENABLED=0 GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) build -o /dev/null ./cmd/loupe || exit 1; \
	done
	CGO_ENABLED=0 GOOS=windows $(GO) vet ./...
	CGO_ENABLED=0 GOOS=darwin $(GO) vet ./...

# vet also checks, as GOOS=js, the packages the npm package's module is
# built from (their tests included).
vet:
	CGO_ENABLED=0 $(GO) build ./...
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet $$(GOOS=js GOARCH=wasm $(GO) list -deps ./wasm | grep '^github.com/loupe-dev/loupe')
	@out=$$(gofmt -l $$(git ls-files --cached --others --exclude-standard '*.go' | grep -v '/testdata/')); \
	  test -z "$$out" || { echo "gofmt needed:"; echo "$$out"; exit 1; }

# Everything, on a fresh machine too: test-deps first installs what is
# missing (or, when not root, prints one line per suite that is skipped).
# The npm package's tests drive bin/loupe's MCP server too.
test: test-deps vet cross build js
	@if $(HAS) grammars-check; then $(MAKE) grammars-check; fi
	$(GO) test -count=1 ./...
	@if $(HAS) cgo; then $(MAKE) race parity; fi
	cd js && node --test test/

# What the tests need beyond Go and Node: the wasm toolchain, a C compiler,
# Chromium and the pinned Python corpus from Debian, the reference ast-grep
# from npm. Idempotent; see the script.
test-deps:
	scripts/test-deps.sh

# The concurrent packages again under the race detector (needs cgo).
race:
	$(GO) test -count=1 -race ./core/tree/ ./core/search/ ./host/... ./tools/astgrep/ ./cmd/loupe/mcp/ ./cmd/loupe/lsp/

# Parity: every language's trees from loupe's modules (wazero) must equal
# native tree-sitter's from the same pinned C sources (cgo, gcc), node by
# node. LOUPE_PARITY_FULL=1 runs the whole corpus instead of a bounded one.
parity:
	CGO_ENABLED=1 $(GO) test -count=1 -tags parity ./tests/parity/

# The differential suites (against the real ast-grep) and the parity test on
# their whole corpora instead of the bounded subsets `make test` runs.
difftest-full:
	LOUPE_DIFFTEST_FULL=1 $(GO) test -count=1 -timeout 3h ./tests/difftest/
	LOUPE_PARITY_FULL=1 CGO_ENABLED=1 $(GO) test -count=1 -timeout 1h -tags parity ./tests/parity/

# The list tools paged to the last item on all of GOROOT/src and larger
# analysis answers, instead of the bounded subsets `make test` runs.
.PHONY: paging-full
paging-full:
	LOUPE_PAGING_FULL=1 $(GO) test -count=1 -timeout 1h -run TestPagingCorpora -v ./tools/

# Rule collections written by others (sgconfig.yml projects with rules,
# tests and snapshots), checked out by hand and named in
# LOUPE_RULE_COLLECTIONS (colon-separated): loupe test and scan against
# ast-grep on each, whole and rule file by rule file.
difftest-collections: build
	@test -n "$(LOUPE_RULE_COLLECTIONS)" || { echo "set LOUPE_RULE_COLLECTIONS to checkouts of ast-grep rule collections (colon-separated)"; exit 2; }
	LOUPE_BIN=$(CURDIR)/bin/loupe $(GO) test -count=1 -v -timeout 1h -run TestRuleCollections ./tests/difftest/

# Real projects whose own sgconfig.yml declares custom languages, checked out
# by hand and named in LOUPE_CUSTOM_PROJECTS (colon-separated): each grammar
# built by gcc for ast-grep and by loupe grammar build for loupe, then scan,
# run -p of the rules' patterns and test compared. LOUPE_CUSTOM_GRAMMARS
# (NAME=DIR,...) names grammar sources a project builds from elsewhere.
difftest-custom-projects: build js
	@test -n "$(LOUPE_CUSTOM_PROJECTS)" || { echo "set LOUPE_CUSTOM_PROJECTS to checkouts of projects with custom languages in sgconfig.yml (colon-separated)"; exit 2; }
	LOUPE_BIN=$(CURDIR)/bin/loupe $(GO) test -count=1 -v -timeout 1h -run TestCustomProjects ./tests/difftest/

# The adversarial suite at full size (`make test` runs it bounded): the
# symlink-swap race over 10,000 calls of the Go API and 5,000 through the
# npm package, then the abort-to-idle latency of every Go face.
adversarial: js
	LOUPE_ADVERSARIAL_FULL=1 $(GO) test -count=1 -v -run . ./tests/adversarial/
	cd js && LOUPE_ADVERSARIAL_FULL=1 node --test test/swap.test.mjs
	$(GO) test -run '^$$' -bench AbortToIdle -benchtime 20x ./tests/adversarial/

# Each fuzz target for FUZZTIME (the seeds alone run in `make test`).
FUZZTIME ?= 60s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzResolve$$' -fuzztime $(FUZZTIME) ./core/search/
	$(GO) test -run '^$$' -fuzz '^FuzzTransform$$' -fuzztime $(FUZZTIME) ./core/rule/
	$(GO) test -run '^$$' -fuzz '^FuzzParseRule$$' -fuzztime $(FUZZTIME) ./core/rule/
	$(GO) test -run '^$$' -fuzz '^FuzzParseRuleJSON$$' -fuzztime $(FUZZTIME) ./core/rule/
	$(GO) test -run '^$$' -fuzz '^FuzzTemplate$$' -fuzztime $(FUZZTIME) ./core/rewrite/
	$(GO) test -run '^$$' -fuzz '^FuzzMeterModule$$' -fuzztime $(FUZZTIME) ./host/

# Rebuild every grammar module from its pinned sources (needs clang-19,
# lld-19, wasi-libc and libclang-rt-19-dev-wasm32 from Debian).
grammars:
	$(GO) run ./grammars/internal/build

# Prove the committed modules are reproducible: rebuild some and compare bytes.
grammars-check:
	$(GO) run ./grammars/internal/build -check json go

# Go benchmarks, then loupe against ast-grep (wall, CPU, RSS, match counts;
# loupe cold, warm from its tree cache, and its parse floor) on the
# typescript, Go and Python corpora, then the npm package against
# @ast-grep/napi, its cold start, its worker pool, its abort-to-idle latency
# and what fuel metering costs a custom language.
bench: build js
	$(GO) test -run '^$$' -bench . -benchmem ./...
	CGO_ENABLED=1 $(GO) test -run '^$$' -bench BenchmarkParse -tags parity ./tests/parity/
	$(GO) run ./tests/benchcmp
	node js/bench/bench.mjs
	node js/bench/coldstart.mjs
	node js/bench/workers.mjs
	node js/bench/abort.mjs
	node js/bench/custom.mjs
	node js/bench/budget.mjs
	node js/bench/agentloop.mjs

# structural_analysis measured against the TypeScript compiler (its
# LanguageService's call hierarchy, references and definitions) on every
# shared-name symbol of pinned npm projects, instead of the bounded sample
# `make test` runs, against go/types on the Go standard library's go/...
# and net/http packages, and against pyright's language server on
# node-gyp's gyp/ and CPython 3.11's json, email and http
# (tests/analysiseval/pyright.mjs): precision and recall by bare name,
# qualified, and resolved only.
# LOUPE_ANALYSIS_EVAL_VERBOSE=1 lists every miss.
.PHONY: analysis-eval
analysis-eval: test-deps
	LOUPE_ANALYSIS_EVAL=full $(GO) test -count=1 -v -timeout 30m -run TestEval ./tests/analysiseval/

# structural_analysis's tables of the standard library types: TypeScript's
# (analysis/libtypes_ts.txt), read from typescript@$(TS_LIB_VERSION)'s
# lib.*.d.ts, and Python's (analysis/libtypes_py.txt), from the typeshed
# stubs pyright@$(PY_LIB_VERSION) bundles (both npm pack'ed into
# .cache/corpora when missing), and Go's method sets
# (analysis/libtypes_go.txt), from the sources of the toolchain go.mod
# names.
TS_LIB_VERSION = 5.9.3
TS_LIB_DIR = .cache/corpora/typescript-$(TS_LIB_VERSION)/package
PY_LIB_VERSION = 1.1.414
PY_LIB_DIR = .cache/corpora/pyright-$(PY_LIB_VERSION)/package
.PHONY: analysis-libtypes
analysis-libtypes:
	@test -d $(TS_LIB_DIR) || { mkdir -p $(dir $(TS_LIB_DIR)) && cd $(dir $(TS_LIB_DIR)) && \
		tar xzf "$$(npm pack --silent typescript@$(TS_LIB_VERSION))" && rm -f typescript-$(TS_LIB_VERSION).tgz; }
	$(GO) run ./analysis/internal/libgen -lib $(TS_LIB_DIR)/lib -version $(TS_LIB_VERSION) -o analysis/libtypes_ts.txt
	@test -d $(PY_LIB_DIR) || { mkdir -p $(dir $(PY_LIB_DIR)) && cd $(dir $(PY_LIB_DIR)) && \
		tar xzf "$$(npm pack --silent pyright@$(PY_LIB_VERSION))" && rm -f pyright-$(PY_LIB_VERSION).tgz; }
	$(GO) run ./analysis/internal/pylibgen -stdlib $(PY_LIB_DIR)/dist/typeshed-fallback/stdlib -version $(PY_LIB_VERSION) -o analysis/libtypes_py.txt
	$(GO) run ./analysis/internal/golibgen -o analysis/libtypes_go.txt

# The project index (loupe index) on GOROOT/src, LiveKit's protocol (a
# pnpm workspace beside a Go module, from the Go module proxy) and, when
# Debian's rust-src is installed, the Rust source: files, packages,
# symbols, build time, database size, the rebuild after one file changes,
# and each project-index tool's latency (p50, p95); then the npm package's
# stat pass before a project-index call (js/bench/indexpass.mjs) on
# GOROOT/src/net and GOROOT/src. The README quotes the numbers.
LIVEKIT_PROTOCOL = github.com/livekit/protocol@v1.54.0
.PHONY: bench-index
bench-index: build js
	$(GO) run ./tests/indexbench "$$($(GO) env GOROOT)/src" \
	  "$$($(GO) mod download -json $(LIVEKIT_PROTOCOL) | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p')" \
	  $$(ls -d /usr/src/rustc-* 2>/dev/null | head -1)
	node js/bench/indexpass.mjs "$$($(GO) env GOROOT)/src/net" "$$($(GO) env GOROOT)/src"

# The npm package's TypeScript types of each tool's parameters and
# structured result (js/src/tooltypes.ts), generated from the tool
# registry; a test fails when they are stale.
.PHONY: js-types
js-types:
	$(GO) run ./tools/internal/tstypes

# The npm package: its dev dependencies, then everything it ships.
js: js-deps js-build

# npm ci in js/ when node_modules is missing or package-lock.json changed
# since the last install (npm writes node_modules/.package-lock.json last).
js-deps:
	@cd js && if [ ! -e node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then \
	  echo 'cd js && npm ci --no-audit --no-fund'; npm ci --no-audit --no-fund; fi

# What the package ships, under JS_DIST (an absolute path): the TypeScript
# shim, the Go core as GOOS=js wasm, Go's matching wasm_exec.js and the
# grammar modules. npm pack runs this (js/scripts/prepack.mjs); it needs
# js-deps' TypeScript.
JS_DIST ?= $(CURDIR)/js/dist
js-build:
	cd js && ./node_modules/.bin/tsc -p tsconfig.json --outDir "$(JS_DIST)"
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags=-s -o "$(JS_DIST)/loupe.wasm" ./wasm
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" "$(JS_DIST)/wasm_exec.js"
	mkdir -p "$(JS_DIST)/grammars" && cp grammars/wasm/*.wasm "$(JS_DIST)/grammars/"

test-js: build js
	cd js && node --test test/

# The browser playground (js/playground): built into js/playground/dist/
# from the npm package's build, and served on http://127.0.0.1:$(PORT)/.
PORT ?= 8080
playground: js
	node js/playground/build.mjs

playground-serve: playground
	PORT=$(PORT) node js/playground/serve.mjs
