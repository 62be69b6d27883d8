// Package prewarm loads the built-in ship data and checksum manifest on
// another core while the rest of the program initializes. bcserver imports
// it for that effect alone.
//
// The server needs both before its first game binds its socket, and
// loading them takes about a millisecond. Started from main, the loading
// goroutine waited most of that for the runtime to start a thread for it,
// so the game waited too; started from this package's init, which runs
// early (it imports little, and packages initialize in import path order),
// it overlaps the two milliseconds the Prometheus, SQLite and protobuf
// packages take to initialize after it, and the data is ready before main
// runs. Each is loaded once and shared (ships.Vanilla, checksum.Vanilla);
// an error is reported where it always was, by the game that needs the
// data. Commands that need neither (replay, import) load them for nothing
// on the spare core.
//
// The loading runs at a lower priority (background.Lower): when the kernel
// put it on the core of the thread running the inits, that thread waited
// for it (main reached 0.3-0.4 ms later, median of 60 starts, 2 cores).
// Should main need the data first, it waits for it as it would anyway.
package prewarm

import (
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/internal/background"
)

func init() {
	go func() {
		_ = background.Lower() // refused (a sandbox): it runs at the usual priority
		_, _ = ships.Vanilla()
		_, _ = checksum.Vanilla()
	}()
}
