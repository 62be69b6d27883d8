package engine

import (
	"bytes"
	"context"
	"errors"
	"net/netip"
	"testing"
	"time"

	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/net/alby"
)

// fakeSocket runs the server loop on a fake clock: Receive moves the clock
// to the loop's deadline (or to the next scripted datagram) and returns at
// once, so a test counts the loop's wake-ups over minutes of game time in
// milliseconds, with no timing in its assertions.
type fakeSocket struct {
	now      time.Time
	end      time.Time // the clock stops here and the game is cancelled
	cancel   context.CancelFunc
	inbox    []fakeDatagram
	receives int
	limit    int // Receive calls allowed before it fails (a bound on a broken loop)
}

type fakeDatagram struct {
	at   time.Time
	from netip.AddrPort
	data []byte
}

var errFakeLimit = errors.New("fake socket: too many Receive calls")

func (f *fakeSocket) clock() time.Time { return f.now }

func (f *fakeSocket) Receive(deadline time.Time) ([]bcnet.Packet, error) {
	f.receives++
	if f.receives > f.limit {
		return nil, errFakeLimit
	}
	if len(f.inbox) > 0 && (deadline.IsZero() || !f.inbox[0].at.After(deadline)) {
		d := f.inbox[0]
		f.inbox = f.inbox[1:]
		f.now = later(f.now, d.at)
		return []bcnet.Packet{{Addr: d.from, Data: d.data}}, nil
	}
	if deadline.IsZero() || deadline.After(f.end) {
		f.now = later(f.now, f.end)
		f.cancel()
		return nil, nil
	}
	f.now = later(f.now, deadline)
	return nil, nil
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func (f *fakeSocket) WriteToUDPAddrPort(b []byte, _ netip.AddrPort) (int, error) { return len(b), nil }
func (f *fakeSocket) Flush() error                                               { return nil }
func (f *fakeSocket) Wake()                                                      {}
func (f *fakeSocket) Close() error                                               { return nil }
func (f *fakeSocket) LocalAddr() netip.AddrPort {
	return netip.MustParseAddrPort("127.0.0.1:22101")
}

// idleServer builds a game with the timers a real server's plugins add
// (the mission's timer scan every tick, its per-second event, GameSpy and
// metrics every second) on a fake socket that runs for d.
func idleServer(t testing.TB, d time.Duration) (*Server, *fakeSocket, context.Context) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	start := time.Unix(1_700_000_000, 0)
	f := &fakeSocket{now: start, end: start.Add(d), cancel: cancel, limit: 1 << 20}
	s, err := newServer(f, f.clock, Options{Config: DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	g := s.Game()
	g.Every(g.cfg.TickInterval, func() {})
	for range 3 {
		g.Every(time.Second, func() {})
	}
	return s, f, ctx
}

// An idle game wakes only for its ticks: its once-a-tick and
// once-a-second timers share the tick's wake-up (they start on the tick
// grid), and nothing polls in between. The old loop woke every 10 ms,
// 100 times a second.
func TestIdleLoopWakesOnlyForTicks(t *testing.T) {
	const secs = 60
	s, f, ctx := idleServer(t, secs*time.Second)
	if err := s.Run(ctx); err != nil {
		t.Fatal(err)
	}
	ticks := s.Game().Ticks()
	if ticks != secs*10 {
		t.Fatalf("%d ticks in %d s of game time, want %d", ticks, secs, secs*10)
	}
	wakeups := s.Stats().Wakeups.Load()
	// One wake-up per tick, plus the first look at the clock.
	if wakeups > ticks+1 {
		t.Fatalf("%d wake-ups for %d ticks (%d Receive calls): the loop wakes for more than its deadlines", wakeups, ticks, f.receives)
	}
	if n := s.Stats().StuckDeadlines.Load(); n != 0 {
		t.Fatalf("%d stuck deadlines", n)
	}
}

// A timer off the tick grid gets a wake-up of its own, at its time: the
// loop sleeps until the earliest deadline, not the next tick.
func TestLoopWakesForTimers(t *testing.T) {
	s, _, ctx := idleServer(t, 2*time.Second)
	g := s.Game()
	var fired []time.Duration
	g.After(250*time.Millisecond, func() { fired = append(fired, g.Now().Sub(g.epoch)) })
	g.After(1234*time.Millisecond, func() { fired = append(fired, g.Now().Sub(g.epoch)) })
	if err := s.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if len(fired) != 2 || fired[0] != 250*time.Millisecond || fired[1] != 1234*time.Millisecond {
		t.Fatalf("timers fired at %v, want [250ms 1.234s]", fired)
	}
	if w, ticks := s.Stats().Wakeups.Load(), s.Game().Ticks(); w != ticks+2+1 {
		t.Fatalf("%d wake-ups for %d ticks and 2 timers", w, ticks)
	}
}

// A connect puts a handshake deadline and the transport's retransmission
// of the reply (1 s, no round trip measured yet) among the loop's
// deadlines: the stranger who never answers is retried and then forgotten
// without any datagram waking the loop.
func TestLoopWakesForTransportTimers(t *testing.T) {
	s, f, ctx := idleServer(t, 15*time.Second)
	connect := bytes.Clone(vec(t, "transport.json", "client_connect_request"))
	alby.Encrypt(connect)
	f.inbox = append(f.inbox, fakeDatagram{at: f.now.Add(50 * time.Millisecond), from: netip.MustParseAddrPort("127.0.0.1:5000"), data: connect})
	if err := s.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if st := s.Game().TransportStats(); st.Unverified != 1 {
		t.Fatalf("the unanswered connect was not forgotten: %+v", st)
	}
	if n := s.Stats().StuckDeadlines.Load(); n != 0 {
		t.Fatalf("%d stuck deadlines", n)
	}
}

// BenchmarkIdleLoopSecond runs the server loop over one second of an idle
// game on the fake clock: the work of ten wake-ups (ticks and timers) and
// what they allocate.
func BenchmarkIdleLoopSecond(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		s, _, ctx := idleServer(b, time.Second)
		b.StartTimer()
		if err := s.Run(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
