package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/server"
)

// rssFile returns the process's resident pages of mapped files, in kB.
func rssFile(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "RssFile:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no RssFile in /proc/self/status")
	return 0
}

// Releasing the program file's start-up pages shrinks the file-backed RSS
// and leaves the program running (its code and tables fault back in),
// both as the start-up does (unmapped, kept in the page cache) and as the
// settled release does (evicted, read back a page at a time).
func TestReleaseStartupPages(t *testing.T) {
	for _, evict := range []bool{false, true} {
		// Touch the tables again so there is something to release.
		if _, err := server.DefaultConfig().Runtime(); err != nil {
			t.Fatal(err)
		}
		before := rssFile(t)
		released, err := releaseStartupPages(evict)
		if err != nil {
			t.Fatalf("evict=%v: %v", evict, err)
		}
		if released == 0 {
			t.Fatalf("evict=%v: no mapping of the program file was released", evict)
		}
		after := rssFile(t)
		if after >= before {
			t.Fatalf("evict=%v: RssFile %d kB before, %d kB after", evict, before, after)
		}
		// Code and read-only data still work: the embedded default
		// configuration decodes into the runtime settings.
		if _, err := server.DefaultConfig().Runtime(); err != nil {
			t.Fatal(err)
		}
		t.Logf("evict=%v: released %d MB of address space; RssFile %d kB -> %d kB", evict, released>>20, before, after)
	}
}

// The settled release happens only while nobody plays.
func TestReleaseSettledSkipsBusy(t *testing.T) {
	for _, busy := range []bool{false, true} {
		var b bytes.Buffer
		log := slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelDebug}))
		releaseSettled(context.Background(), log, 0, func() bool { return busy })
		released := strings.Contains(b.String(), "when=settled")
		kept := strings.Contains(b.String(), "players are connected")
		if released == busy || kept != busy {
			t.Errorf("busy=%v: log %q", busy, b.String())
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var b bytes.Buffer
	releaseSettled(ctx, slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelDebug})), time.Hour, func() bool { return false })
	if b.Len() != 0 {
		t.Errorf("ended context: log %q", b.String())
	}
}
