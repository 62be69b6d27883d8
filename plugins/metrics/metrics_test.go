package metrics

import (
	"testing"
	"time"
)

// The observer sits on the packet and tick paths: it must not allocate.
func TestObserverAllocs(t *testing.T) {
	m := New(Options{})
	o := observer{m}
	if n := testing.AllocsPerRun(1000, func() {
		o.BatchDone(30 * time.Microsecond)
		o.TickDone(time.Millisecond)
		o.ReceiveDelay(5 * time.Microsecond)
	}); n != 0 {
		t.Fatalf("%v allocations per observation", n)
	}
	if n := testing.AllocsPerRun(1000, func() { m.ObserveLua("deathmatch", time.Microsecond, 50*time.Millisecond) }); n != 0 {
		t.Fatalf("%v allocations per Lua observation", n)
	}
}

// BenchmarkObserve is the cost the metrics add to one loop pass that
// handled datagrams (one histogram observation).
func BenchmarkObserve(b *testing.B) {
	m := New(Options{})
	o := observer{m}
	b.ReportAllocs()
	for b.Loop() {
		o.BatchDone(25 * time.Microsecond)
	}
}
