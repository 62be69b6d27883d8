# bcserver — common tasks. `make run` starts a playable server, `make test` runs every test.
GO        ?= go
STATICCHECK_VERSION ?= v0.8.2
FUZZTIME  ?= 10s
BENCHTIME ?= 1s

.PHONY: all build release run test test-short bench fuzz lint fmt clean sync-shared loadtest fairplay

all: build

# The version and commit go into -version (and the admin status).
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT    ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
LDFLAGS   := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT)
PLATFORMS ?= linux/amd64 linux/arm64 windows/amd64 windows/arm64 darwin/amd64 darwin/arm64

# Static (no cgo: the pure-Go resolver, nothing loaded from libc): the
# running server keeps ~1.3 MB fewer resident pages and starts without the
# dynamic loader.
build:
	CGO_ENABLED=0 $(GO) build -ldflags "-X main.version=$(VERSION) -X main.commit=$(COMMIT)" -o bin/ ./cmd/...

# Static binaries for every platform into dist/<os>-<arch>/ (pure Go, no
# cgo: SQLite is modernc.org/sqlite).
release:
	@set -e; for p in $(PLATFORMS); do \
	  os=$${p%/*}; arch=$${p#*/}; out=dist/$$os-$$arch; \
	  echo "== $$os/$$arch -> $$out"; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $$out/ ./cmd/...; \
	done

run:
	$(GO) run ./cmd/bcserver $(ARGS)

# Load test (README, "Load testing"): GAMES games x BOTS bots, each bot
# sending RATE relayed messages a second for SECS seconds. Without SERVER it
# starts our server (one process, -games GAMES, from PORT) and measures it;
# with SERVER=host:port (the first of GAMES consecutive ports, or a
# comma-separated list) and PIDS=pid,pid,... it measures any other server
# the same way. LOADARGS passes more bcbot flags (-loss 0.1, -blackout 10s,
# -flood connect -joiners 5, -state, ...).
GAMES    ?= 8
BOTS     ?= 16
RATE     ?= 10
SECS     ?= 10
PORT     ?= 41001
SERVER   ?=
PIDS     ?=
LOADARGS ?=
#
# PROFILE=compare runs the side-by-side comparison instead: the server
# built from the git ref BASE (default main) and the working tree's, each
# started fresh for every load of COMPARE (GAMESxBOTSxRATExSECS, default
# the issue-25 table: 6 and 8 players) and run alternately for ROUNDS
# rounds with the same bots; it prints every run and the medians with
# their ratios (README, "Load testing").
PROFILE  ?=
BASE     ?= main
ROUNDS   ?= 3
COMPARE  ?= 1x6x10x4,1x8x10x3
loadtest: build
ifeq ($(PROFILE),compare)
	@rm -rf bin/base-src && mkdir -p bin/base-src && git archive $(BASE) | tar -x -C bin/base-src
	cd bin/base-src && CGO_ENABLED=0 $(GO) build -o ../bcserver-base ./cmd/bcserver
	rm -rf bin/base-src
	bin/bcbot -compare base=bin/bcserver-base,new=bin/bcserver -rounds $(ROUNDS) -profiles $(COMPARE) -addr 127.0.0.1:$(PORT) $(LOADARGS)
else ifeq ($(SERVER),)
	@bin/bcserver -addr 127.0.0.1 -port $(PORT) -games $(GAMES) -max-players 16 -log-level warn & pid=$$!; \
	sleep 2; bin/bcbot -addr 127.0.0.1:$(PORT) -games $(GAMES) -bots $(BOTS) -rate $(RATE) -secs $(SECS) -pid $$pid $(LOADARGS); \
	rc=$$?; kill $$pid; wait $$pid; exit $$rc
else
	bin/bcbot -addr $(SERVER) -games $(GAMES) -bots $(BOTS) -rate $(RATE) -secs $(SECS) $(if $(PIDS),-pid $(PIDS)) $(LOADARGS)
endif

test:
	$(GO) test -race -timeout 10m ./...

# The fair-play proof runs (README, "Fair play"): sixteen honest bots fly
# and fight for FAIRPLAY_MATCH at 10 and at 1 StateUpdate a second through
# 30 % loss in bursts and 200 ms of jitter each way (zero violations
# expected), and each bcbot -cheat mode is flown by ten bots at once (each
# caught by its rule). `make test` runs the same for 15 s. FAIRPLAY_SEED
# varies the bots' and the link's randomness.
FAIRPLAY_MATCH ?= 10m
FAIRPLAY_SEED  ?= 0
fairplay:
	FAIRPLAY_MATCH=$(FAIRPLAY_MATCH) FAIRPLAY_SEED=$(FAIRPLAY_SEED) $(GO) test -count=1 -v -timeout 90m -run 'TestHonestMatch|TestCheatsCaught' ./internal/skirmish

test-short:
	$(GO) test -short ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...

# Every fuzz target runs for FUZZTIME. `go test -fuzz` takes one target per
# invocation, so the targets are discovered with `go test -list`. Go 1.26's
# fuzz coordinator can fail a target with a bare "context deadline exceeded"
# when FUZZTIME ends on a busy machine (go.dev/issue/75804, fixed in 1.27):
# such a run, with no failing input written, is run once more.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; \
	    for try in 1 2; do \
	      if out=$$($(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg 2>&1); then echo "$$out" | tail -1; break; fi; \
	      echo "$$out"; \
	      if [ $$try = 1 ] && echo "$$out" | grep -q 'context deadline exceeded' && ! echo "$$out" | grep -q 'Failing input written'; then \
	        echo "(the Go fuzz deadline race, go.dev/issue/75804: running $$t again)"; continue; fi; \
	      exit 1; \
	    done; \
	  done; \
	done

lint:
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...
	@test -z "$$(gofmt -l .)" || (gofmt -l .; echo "gofmt needed"; exit 1)

fmt:
	gofmt -w .

clean:
	rm -rf bin dist

# Refresh the repo's copies (testdata/vectors, the embedded vanilla data set,
# the embedded hash manifest) from the shared reference folder beside the
# checkout (or SHARED=dir). The copies make the repo self-contained; the
# drift test (internal/vectors) fails when they differ from the folder.
# The vanilla data set and manifest are also kept decoded ahead of time as
# Go values (engine/ships/vanilla_decoded.go, engine/checksum/
# vanilla_manifest.go, read at start-up instead of the JSON); the last two
# steps rewrite them from the fresh copies.
SHARED ?=
sync-shared:
	$(GO) run ./internal/tools/syncshared $(if $(SHARED),-shared $(SHARED))
	$(GO) test ./engine/ships -run '^TestVanillaDecoded$$' -update
	$(GO) test ./engine/checksum -run '^TestVanillaManifestDecoded$$' -update
