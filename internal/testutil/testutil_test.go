package testutil

import (
	"fmt"
	"log/slog"
	"net/netip"
	"sync"
	"testing"
	"time"
)

// Lines written from other goroutines are seen by Seen, WaitFor and Count;
// a waiter for a text already there returns at once.
func TestLogBuffer(t *testing.T) {
	var l LogBuffer
	log := slog.New(slog.NewTextHandler(&l, nil))
	later := l.Seen("line 9")
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() { log.Info(fmt.Sprintf("line %d", i), "k", "v") })
	}
	l.WaitFor(t, "line 3", 10*time.Second)
	<-later
	wg.Wait()
	<-l.Seen("line 0")
	if n := l.Count("level=INFO", "k=v"); n != 10 {
		t.Errorf("%d lines, want 10:\n%s", n, l.String())
	}
	if n := l.Count("line 1"); n != 1 {
		t.Errorf("%d lines hold line 1", n)
	}
}

// A Wire keeps copies, opens all but a GameSpy answer, and Take forgets.
func TestWire(t *testing.T) {
	w := &Wire{Open: func(b []byte) { b[0] ^= 0xFF }}
	to := netip.MustParseAddrPort("127.0.0.1:22101")
	b := []byte{0x0F, 1}
	w.WriteToUDPAddrPort(b, to)
	b[1] = 9
	w.WriteToUDPAddrPort([]byte(`\status\`), to)
	got := w.Take()
	if len(got) != 2 || got[0].To != to || got[0].Data[0] != 0xF0 || got[0].Data[1] != 1 || string(got[1].Data) != `\status\` {
		t.Fatalf("recorded %+v", got)
	}
	if w.Take() != nil || w.TakeData() != nil {
		t.Fatal("Take did not forget")
	}
	w.WriteToUDPAddrPort([]byte{1}, to)
	if d := w.TakeData(); len(d) != 1 || d[0][0] != 0xFE {
		t.Fatalf("TakeData %v", d)
	}
}
