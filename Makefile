# bcserver — common tasks. `make run` starts a playable server, `make test` runs every test.
GO        ?= go
STATICCHECK_VERSION ?= v0.8.2
FUZZTIME  ?= 10s
BENCHTIME ?= 1s

.PHONY: all build run test test-short bench fuzz lint fmt clean sync-shared

all: build

build:
	$(GO) build -o bin/ ./cmd/...

run:
	$(GO) run ./cmd/bcserver $(ARGS)

test:
	$(GO) test -race -timeout 10m ./...

test-short:
	$(GO) test -short ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...

# Every fuzz target runs for FUZZTIME. `go test -fuzz` takes one target per
# invocation, so the targets are discovered with `go test -list`.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; \
	    $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

lint:
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...
	@test -z "$$(gofmt -l .)" || (gofmt -l .; echo "gofmt needed"; exit 1)

fmt:
	gofmt -w .

clean:
	rm -rf bin

# Refresh the repo's copies (testdata/vectors, the embedded vanilla data set,
# the embedded hash manifest) from the shared reference folder beside the
# checkout (or SHARED=dir). The copies make the repo self-contained; the
# drift test (internal/vectors) fails when they differ from the folder.
SHARED ?=
sync-shared:
	$(GO) run ./internal/tools/syncshared $(if $(SHARED),-shared $(SHARED))
