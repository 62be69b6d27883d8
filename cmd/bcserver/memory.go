package main

import (
	"context"
	"log/slog"
	"os"
	"runtime/debug"
	"time"
)

// Start-up and memory settings of the server process.
//
// Start-up allocates megabytes of short-lived garbage (ship data JSON, the
// manifest, compiling missions); collecting it at the default pace costs
// several collections before the first player can be answered. Start-up
// collects at a quarter of that pace (startupGC), then, once the games
// run, one collection frees it all and the heap is sized for play
// (runtimeGC). Holding collections off entirely is no better: a process of
// many games then pays in page faults for a heap that grows and grows.

// startupGCPercent is GOGC while the games start.
const startupGCPercent = 400

// Soft memory limit of the running server: a base for the runtime, the
// shared data and the admin server, and a share per game (its mission's
// Lua state, its players' queues). The collector works harder near it
// instead of letting the heap's headroom double a busy heap; it is a goal,
// not a cap (a heap that needs more gets it). GOMEMLIMIT, when set, wins.
const (
	memLimitBase    = 16 << 20
	memLimitPerGame = 4 << 20
)

// startupGC slows collections down until runtimeGC; it returns the GC
// percentage to go back to (GOGC, default 100; GOGC=off stays off).
func startupGC() int {
	pct := debug.SetGCPercent(startupGCPercent)
	if pct < 0 {
		debug.SetGCPercent(pct)
	}
	return pct
}

// runtimeGC restores the collector once the games run, collects start-up's
// garbage and hands it back to the system, and sets the soft limit for
// games games.
func runtimeGC(pct, games int, log *slog.Logger) {
	debug.SetGCPercent(pct)
	limit := int64(memLimitBase + memLimitPerGame*games)
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
	// Loading ship data, manifests and missions leaves megabytes of
	// garbage that an idle server would otherwise keep until its heap
	// grows enough for a collection: hand it back now.
	debug.FreeOSMemory()
	releasePages(log, "start-up", false)
	log.Debug("memory", "gc_percent", pct, "soft_limit", limit)
}

// settleDelay is how long after the games start the program file's pages
// are released a second time: the tail of the start (the collection
// above, the first ticks, the first heartbeats) touches ~0.8 MB of them
// once more, which an idle server then keeps (measured: idle VmRSS
// 8.4 -> 7.6 MB with the second release).
const settleDelay = 2 * time.Second

// releaseSettled releases the program file's pages again once the
// server has settled (delay, settleDelay in the server), unless ctx ends first or busy says
// players are already there: their games use those pages, and releasing
// them would only make every game fault them back in mid-play. This time
// they are evicted (release in pages_linux.go), so what an idle server
// keeps is the pages it runs, not the large folios around them (measured
// on Linux 6.18: idle VmRSS 7.4 -> 6.8 MB, 5.0 MB when the program file's
// pages came from writing it); the pages it then reads back cost a few
// ms of CPU once.
func releaseSettled(ctx context.Context, log *slog.Logger, delay time.Duration, busy func() bool) {
	t := time.NewTimer(delay)
	defer t.Stop()
	select {
	case <-t.C:
		if busy() {
			log.Debug("pages of the program file kept: players are connected")
			return
		}
		releasePages(log, "settled", true)
	case <-ctx.Done():
	}
}

// releasePages releases the read-only pages of the program file
// (releaseStartupPages) and logs the outcome at debug level.
func releasePages(log *slog.Logger, when string, evict bool) {
	if n, err := releaseStartupPages(evict); err != nil {
		log.Debug("pages of the program file kept", "when", when, "err", err)
	} else if n > 0 {
		log.Debug("pages of the program file released", "when", when, "bytes", n)
	}
}
