package main

import (
	"log/slog"
	"os"
	"runtime/debug"

	"github.com/bcserver/bcserver/engine/ships"
)

// Start-up and memory settings of the server process.
//
// Start-up allocates megabytes of short-lived garbage (ship data JSON, the
// manifest, compiling missions); collecting it while it is made costs
// several collections before the first player can be answered. The
// collector is held off until the games run (startupGC), with a hard
// ceiling, then one collection frees it all and the heap is sized for
// play (runtimeGC).

// startupLimit bounds the heap while collections are held off at start:
// a configuration that needs more simply collects on the way.
const startupLimit = 256 << 20

// Soft memory limit of the running server: a base for the runtime, the
// shared data and the admin server, and a share per game (its mission's
// Lua state, its players' queues). The collector works harder near it
// instead of letting the heap's headroom double a busy heap; it is a goal,
// not a cap (a heap that needs more gets it). GOMEMLIMIT, when set, wins.
const (
	memLimitBase    = 16 << 20
	memLimitPerGame = 4 << 20
)

// startupGC holds collections off until runtimeGC; it returns the GC
// percentage to go back to (GOGC, default 100).
func startupGC() int {
	pct := debug.SetGCPercent(-1)
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(startupLimit)
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
	if n, err := releaseStartupPages(); err != nil {
		log.Debug("start-up pages of the program file kept", "err", err)
	} else if n > 0 {
		log.Debug("start-up pages of the program file released", "bytes", n)
	}
	log.Debug("memory", "gc_percent", pct, "soft_limit", limit)
}

// prewarm loads the built-in ship data on another core while the
// configuration is read and the sockets are bound; the games then find it
// loaded (it is loaded once and shared). An error is reported where it
// always was, by the game that needs the data.
func prewarm() {
	go func() { _, _ = ships.Vanilla() }()
}
