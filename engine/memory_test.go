package engine

import (
	"fmt"
	"runtime"
	"testing"
)

// BenchmarkPlayerMemory reports the heap a joined player with a ship
// costs the game: 16 players join and spawn, everyone's messages are
// ACKed, and the live heap is compared with the empty game's.
func BenchmarkPlayerMemory(b *testing.B) {
	var per float64
	for b.Loop() {
		heap := func() uint64 {
			runtime.GC()
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			return ms.HeapAlloc
		}
		t := &testing.T{}
		l := newLAN(t, DefaultConfig())
		before := heap()
		const n = 16
		l.g.cfg.MaxPlayers = n
		for i := 0; i < n; i++ {
			l.join(fmt.Sprint("P", i))
		}
		for i, c := range l.cs {
			l.send(c, retarget(vec(b, "simulation.json", "objcreateteam_akira_spawn"), i, 1, 7), true)
		}
		for range 3 {
			l.now = l.now.Add(l.g.cfg.TickInterval)
			l.g.Advance(l.now)
			l.pump(nil)
		}
		after := heap()
		per = float64(after-before) / n
		runtime.KeepAlive(l)
	}
	b.ReportMetric(per, "B/player")
}
