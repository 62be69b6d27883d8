package engine

import (
	"net/netip"
	"testing"
	"time"
)

type nopWriter struct{}

func (nopWriter) WriteToUDPAddrPort(b []byte, _ netip.AddrPort) (int, error) { return len(b), nil }

// BenchmarkSendCounting is what the socket counters add to every datagram
// sent (the counting writer around the socket), against the bare writer.
func BenchmarkSendCounting(b *testing.B) {
	d := make([]byte, 120)
	to := netip.MustParseAddrPort("127.0.0.1:22101")
	b.Run("bare", func(b *testing.B) {
		var w nopWriter
		b.ReportAllocs()
		for b.Loop() {
			_, _ = w.WriteToUDPAddrPort(d, to)
		}
	})
	b.Run("counted", func(b *testing.B) {
		var st ServerStats
		w := countingWriter{nopWriter{}, &st}
		b.ReportAllocs()
		for b.Loop() {
			_, _ = w.WriteToUDPAddrPort(d, to)
		}
		if st.DatagramsOut.Load() == 0 {
			b.Fatal("not counted")
		}
	})
}

type recordingObserver struct{ ticks, batches int }

func (r *recordingObserver) TickDone(time.Duration)     { r.ticks++ }
func (r *recordingObserver) BatchDone(time.Duration)    { r.batches++ }
func (r *recordingObserver) ReceiveDelay(time.Duration) {}

// The observer sees one TickDone per Advance that ran ticks, none for one
// that did not.
func TestObserverTicks(t *testing.T) {
	start := time.Unix(1000, 0)
	g, err := NewGame(Options{Config: DefaultConfig(), Now: start})
	if err != nil {
		t.Fatal(err)
	}
	var o recordingObserver
	g.SetObserver(&o)
	g.Advance(start.Add(50 * time.Millisecond))
	if o.ticks != 0 {
		t.Fatalf("%d ticks before the first tick is due", o.ticks)
	}
	g.Advance(start.Add(100 * time.Millisecond))
	g.Advance(start.Add(300 * time.Millisecond))
	if o.ticks != 2 {
		t.Fatalf("%d TickDone for two passes with ticks", o.ticks)
	}
	g.SetObserver(nil)
	g.Advance(start.Add(400 * time.Millisecond))
	if o.ticks != 2 {
		t.Fatal("observed after removal")
	}
}
