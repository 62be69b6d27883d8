package gamespy

import (
	"context"
	"errors"
	"log/slog"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/internal/testutil"
)

func TestHeartbeatBytesMatchCapture(t *testing.T) {
	want := vector(t, "gamespy_heartbeat")
	if got := AppendHeartbeat(nil, 0, StateChanged); string(got) != string(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	tests := []struct {
		port, state int
		want        string
	}{
		{0, 0, `\heartbeat\0\gamename\bcommander`},
		{22102, 0, `\heartbeat\22102\gamename\bcommander`},
		{0, StateExiting, `\heartbeat\0\gamename\bcommander\statechanged\2`},
	}
	for _, tt := range tests {
		if got := string(AppendHeartbeat(nil, tt.port, tt.state)); got != tt.want {
			t.Errorf("AppendHeartbeat(%d, %d) = %q, want %q", tt.port, tt.state, got, tt.want)
		}
	}
}

// The heartbeat carries 0 on the stock port (the captured bytes) and the
// game port otherwise, because the 333networks master lists the server at
// the heartbeat's port and reads 0 as 22101 (gamespy.md 4).
func TestHeartbeatCarriesGamePort(t *testing.T) {
	capture := string(vector(t, "gamespy_heartbeat"))
	tests := []struct {
		gamePort          int
		first, exit, wire string
	}{
		{22101, capture, `\heartbeat\0\gamename\bcommander\statechanged\2`, "0"},
		{0, capture, `\heartbeat\0\gamename\bcommander\statechanged\2`, "0"},
		{22102, `\heartbeat\22102\gamename\bcommander\statechanged\1`, `\heartbeat\22102\gamename\bcommander\statechanged\2`, "22102"},
		{1, `\heartbeat\1\gamename\bcommander\statechanged\1`, `\heartbeat\1\gamename\bcommander\statechanged\2`, "1"},
		{65535, `\heartbeat\65535\gamename\bcommander\statechanged\1`, `\heartbeat\65535\gamename\bcommander\statechanged\2`, "65535"},
	}
	for _, tt := range tests {
		h, err := NewHeartbeater(HeartbeatOptions{Masters: []string{"192.0.2.1"}, GamePort: tt.gamePort, Logger: discard})
		if err != nil {
			t.Fatal(err)
		}
		h.MarkStateChanged() // as the stock capture
		b, to := h.Next(t0)
		if string(b) != tt.first || len(to) != 1 {
			t.Errorf("port %d: first %q to %v, want %q", tt.gamePort, b, to, tt.first)
		}
		if b, _ := h.Shutdown(); string(b) != tt.exit {
			t.Errorf("port %d: exit %q, want %q", tt.gamePort, b, tt.exit)
		}
		if got := HeartbeatPort(tt.gamePort); got != atoi(tt.wire) {
			t.Errorf("HeartbeatPort(%d) = %d", tt.gamePort, got)
		}
	}
	for _, bad := range []int{-1, 65536} {
		if _, err := NewHeartbeater(HeartbeatOptions{GamePort: bad}); err == nil || !strings.Contains(err.Error(), "game port") {
			t.Errorf("game port %d: %v", bad, err)
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

var discard = slog.New(slog.DiscardHandler)

// beats polls the schedule every second from start+from to start+to
// seconds and returns the offsets (in seconds) and payloads of the
// heartbeats sent.
func beats(h *Heartbeater, start time.Time, from, to int) (at []int, payloads []string) {
	for s := from; s <= to; s++ {
		if b, _ := h.Next(start.Add(time.Duration(s) * time.Second)); b != nil {
			at = append(at, s)
			payloads = append(payloads, string(b))
		}
	}
	return at, payloads
}

func TestHeartbeatSchedule(t *testing.T) {
	const plain = `\heartbeat\0\gamename\bcommander`
	const changed = plain + `\statechanged\1`
	h, err := NewHeartbeater(HeartbeatOptions{Masters: []string{"81.205.81.173"}, Logger: discard})
	if err != nil {
		t.Fatal(err)
	}
	if !h.Due(t0) {
		t.Fatal("first heartbeat not due at once")
	}
	// First at once, then every 30 s, 10 repeats, then silence.
	at, p := beats(h, t0, 0, 1000)
	want := []int{0, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300}
	if !slices.Equal(at, want) {
		t.Fatalf("beats at %v, want %v", at, want)
	}
	for _, s := range p {
		if s != plain {
			t.Fatalf("payload %q", s)
		}
	}
	// A state change re-arms: due at once with statechanged, then 10
	// repeats again.
	h.MarkStateChanged()
	h.MarkStateChanged() // coalesced
	if !h.Due(t0.Add(1000 * time.Second)) {
		t.Fatal("state change not due at once")
	}
	at, p = beats(h, t0, 1000, 2000)
	if len(at) != 11 || at[0] != 1000 || at[1] != 1030 || at[10] != 1300 {
		t.Fatalf("re-armed beats at %v", at)
	}
	if p[0] != changed || p[1] != plain {
		t.Fatalf("payloads %q", p[:2])
	}
	// A change in the middle of a run restarts the count.
	h.MarkStateChanged()
	at, _ = beats(h, t0, 2000, 2045)
	h.MarkStateChanged()
	at2, _ := beats(h, t0, 2046, 3000)
	if !slices.Equal(at, []int{2000, 2030}) || len(at2) != 11 || at2[0] != 2046 {
		t.Fatalf("beats %v then %v", at, at2)
	}
	// Goodbye, then nothing.
	b, to := h.Shutdown()
	if string(b) != plain+`\statechanged\2` || !slices.Equal(to, []netip.AddrPort{netip.MustParseAddrPort("81.205.81.173:27900")}) {
		t.Fatalf("shutdown %q to %v", b, to)
	}
	h.MarkStateChanged()
	if b, _ := h.Shutdown(); h.Due(t0.Add(4000*time.Second)) || b != nil {
		t.Fatal("heartbeats after shutdown")
	}
	if b, _ := h.Next(t0.Add(4000 * time.Second)); b != nil {
		t.Fatal("heartbeat after shutdown")
	}
}

func TestHeartbeatOptions(t *testing.T) {
	tests := []struct {
		name string
		opts HeartbeatOptions
		want []int
	}{
		{"unlimited repeats", HeartbeatOptions{MaxRepeats: -1, Interval: 100 * time.Second}, []int{0, 100, 200, 300, 400, 500}},
		{"two repeats then idle pace", HeartbeatOptions{MaxRepeats: 2, Interval: 10 * time.Second, IdleInterval: 200 * time.Second}, []int{0, 10, 20, 220, 420}},
		{"no masters", HeartbeatOptions{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name != "no masters" {
				tt.opts.Masters = []string{"127.0.0.1"}
			}
			tt.opts.Logger = discard
			h, err := NewHeartbeater(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if at, _ := beats(h, t0, 0, 500); !slices.Equal(at, tt.want) {
				t.Fatalf("beats at %v, want %v", at, tt.want)
			}
		})
	}
	// Shutdown before any heartbeat says nothing.
	h, _ := NewHeartbeater(HeartbeatOptions{Masters: []string{"127.0.0.1"}, Logger: discard})
	if b, to := h.Shutdown(); b != nil || to != nil {
		t.Error("goodbye without hello")
	}
}

func newLogBuffer() (*testutil.LogBuffer, *slog.Logger) {
	l := &testutil.LogBuffer{}
	return l, slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// A master name that resolves late holds the first heartbeat back instead
// of using it up on nobody: it leaves the moment the address is known, and
// the schedule counts from there.
func TestHeartbeatWaitsForResolution(t *testing.T) {
	h, err := NewHeartbeater(HeartbeatOptions{Masters: []string{"master.example"}, GamePort: 22102, Logger: discard})
	if err != nil {
		t.Fatal(err)
	}
	if got := h.ResolveDue(t0); !slices.Equal(got, []string{"master.example"}) {
		t.Fatalf("due lookups %q", got)
	}
	if got := h.ResolveDue(t0); got != nil {
		t.Fatalf("lookup handed out twice: %q", got)
	}
	// The lookup takes 8 s: nothing is sent, nothing is counted.
	if at, _ := beats(h, t0, 0, 7); at != nil || h.Due(t0.Add(7*time.Second)) {
		t.Fatalf("beats at %v before the master resolved", at)
	}
	h.Resolved(t0.Add(8*time.Second), "master.example", []netip.Addr{netip.MustParseAddr("192.0.2.7")}, nil)
	b, to := h.Next(t0.Add(8 * time.Second))
	if string(b) != `\heartbeat\22102\gamename\bcommander` || !slices.Equal(to, []netip.AddrPort{netip.MustParseAddrPort("192.0.2.7:27900")}) {
		t.Fatalf("first heartbeat %q to %v", b, to)
	}
	if at, _ := beats(h, t0, 9, 70); !slices.Equal(at, []int{38, 68}) {
		t.Fatalf("then beats at %v, want [38 68]", at)
	}
	// The name is looked up again after ResolveEvery, not before.
	if got := h.ResolveDue(t0.Add(8*time.Second + ResolveEvery - time.Second)); got != nil {
		t.Fatalf("early refresh %q", got)
	}
	if got := h.ResolveDue(t0.Add(8*time.Second + ResolveEvery)); len(got) != 1 {
		t.Fatalf("refresh %q", got)
	}
}

// Failed lookups retry with doubling waits up to ResolveRetryMax and are
// logged once; the recovery is logged once and heartbeats start at once.
func TestHeartbeatResolveBackoff(t *testing.T) {
	logs, log := newLogBuffer()
	h, err := NewHeartbeater(HeartbeatOptions{Masters: []string{"master.example:27950"}, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	now := t0
	var tries []time.Duration
	for i := 0; i < 12; i++ {
		// Poll each second until the retry is due, bounded by the cap.
		for s := 0; s <= int(ResolveRetryMax/time.Second); s++ {
			if got := h.ResolveDue(now); got != nil {
				break
			}
			now = now.Add(time.Second)
		}
		tries = append(tries, now.Sub(t0))
		h.Resolved(now, "master.example", nil, errors.New("i/o timeout"))
		if b, _ := h.Next(now); b != nil {
			t.Fatal("heartbeat without an address")
		}
	}
	var gaps []time.Duration
	for i := 1; i < len(tries); i++ {
		gaps = append(gaps, (tries[i] - tries[i-1]).Truncate(time.Second))
	}
	want := []time.Duration{2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300}
	for i := range want {
		want[i] *= time.Second
	}
	if !slices.Equal(gaps, want) {
		t.Fatalf("retry gaps %v, want %v", gaps, want)
	}
	if n := logs.Count("level=WARN", "cannot resolve master server", `master=master.example:27950`, "i/o timeout"); n != 1 {
		t.Fatalf("%d warnings, want 1:\n%s", n, logs)
	}
	// Success: logged once, heartbeat at once, backoff reset.
	now = now.Add(ResolveRetryMax)
	if h.ResolveDue(now) == nil {
		t.Fatal("retry not due")
	}
	h.Resolved(now, "master.example", []netip.Addr{netip.MustParseAddr("192.0.2.8")}, nil)
	if b, to := h.Next(now); b == nil || to[0] != netip.MustParseAddrPort("192.0.2.8:27950") {
		t.Fatalf("heartbeat %q to %v", b, to)
	}
	if n := logs.Count("level=INFO", "master server resolved", "addr=192.0.2.8:27950", "failures=12"); n != 1 {
		t.Fatalf("recovery logged %d times:\n%s", n, logs)
	}
	// A failed refresh keeps the address: heartbeats go on.
	now = now.Add(ResolveEvery)
	h.ResolveDue(now)
	h.Resolved(now, "master.example", nil, errors.New("server misbehaving"))
	if b, to := h.Next(now); b == nil || len(to) != 1 {
		t.Fatalf("stale address dropped: %q %v", b, to)
	}
	if got := h.ResolveDue(now.Add(ResolveRetryMin)); len(got) != 1 {
		t.Fatalf("backoff not reset after success: %q", got)
	}
}

// Several masters: a literal address is used at once, a name that resolves
// later gets its own first heartbeat without shifting the schedule, a master
// that moves is followed, and the goodbye goes to every master told.
func TestHeartbeatMastersResolveIndependently(t *testing.T) {
	logs, log := newLogBuffer()
	h, err := NewHeartbeater(HeartbeatOptions{
		Masters: []string{"192.0.2.1", "late.example", "dup.example", "gone.example"},
		Logger:  log,
	})
	if err != nil {
		t.Fatal(err)
	}
	addr := func(s string) netip.AddrPort { return netip.MustParseAddrPort(s) }
	if got := h.ResolveDue(t0); !slices.Equal(got, []string{"late.example", "dup.example", "gone.example"}) {
		t.Fatalf("lookups %q", got)
	}
	b, to := h.Next(t0)
	if b == nil || !slices.Equal(to, []netip.AddrPort{addr("192.0.2.1:27900")}) {
		t.Fatalf("first %q to %v", b, to)
	}
	h.Resolved(t0.Add(5*time.Second), "late.example", []netip.Addr{netip.MustParseAddr("::ffff:192.0.2.2"), netip.MustParseAddr("192.0.2.3")}, nil)
	h.Resolved(t0.Add(5*time.Second), "dup.example", []netip.Addr{netip.MustParseAddr("192.0.2.1")}, nil)
	h.Resolved(t0.Add(5*time.Second), "gone.example", nil, nil) // empty answer
	b, to = h.Next(t0.Add(5 * time.Second))
	if string(b) != `\heartbeat\0\gamename\bcommander` || !slices.Equal(to, []netip.AddrPort{addr("192.0.2.2:27900")}) {
		t.Fatalf("late master's hello %q to %v", b, to)
	}
	if b, _ := h.Next(t0.Add(6 * time.Second)); b != nil {
		t.Fatal("hello repeated")
	}
	b, to = h.Next(t0.Add(30 * time.Second))
	if b == nil || !slices.Equal(to, []netip.AddrPort{addr("192.0.2.1:27900"), addr("192.0.2.2:27900")}) {
		t.Fatalf("scheduled beat %q to %v (duplicates merged)", b, to)
	}
	if logs.Count("level=WARN", "gone.example", "no addresses") != 1 {
		t.Fatalf("empty answer not reported:\n%s", logs)
	}
	// late.example moves.
	refresh := t0.Add(5*time.Second + ResolveEvery)
	if got := h.ResolveDue(refresh); !slices.Equal(got, []string{"late.example", "dup.example", "gone.example"}) {
		t.Fatalf("refresh %q", got)
	}
	if b, to = h.Next(refresh); b == nil || len(to) != 2 { // the scheduled beat, at the old address
		t.Fatalf("scheduled beat %q to %v", b, to)
	}
	h.Resolved(refresh, "late.example", []netip.Addr{netip.MustParseAddr("192.0.2.4")}, nil)
	h.Resolved(refresh, "dup.example", []netip.Addr{netip.MustParseAddr("192.0.2.1")}, nil)
	if b, to = h.Next(refresh); b == nil || !slices.Equal(to, []netip.AddrPort{addr("192.0.2.4:27900")}) {
		t.Fatalf("moved master's hello %q to %v", b, to)
	}
	if logs.Count("master server moved", "from=192.0.2.2:27900", "addr=192.0.2.4:27900") != 1 {
		t.Fatalf("move not logged:\n%s", logs)
	}
	b, to = h.Shutdown()
	if string(b) != `\heartbeat\0\gamename\bcommander\statechanged\2` || !slices.Equal(to, []netip.AddrPort{addr("192.0.2.1:27900"), addr("192.0.2.4:27900")}) {
		t.Fatalf("goodbye %q to %v", b, to)
	}
	if h.ResolveDue(refresh.Add(time.Hour)) != nil {
		t.Fatal("lookups after shutdown")
	}
	// Outcomes nobody asked for change nothing.
	h.Resolved(refresh, "other.example", []netip.Addr{netip.MustParseAddr("192.0.2.9")}, nil)
}

func TestHeartbeatResolve(t *testing.T) {
	var lookups []string
	resolve := func(ctx context.Context, host string) ([]netip.Addr, error) {
		if _, ok := ctx.Deadline(); !ok {
			t.Error("lookup without a deadline")
		}
		lookups = append(lookups, host)
		switch host {
		case "master.example":
			return []netip.Addr{netip.MustParseAddr("192.0.2.7")}, nil
		case "empty.example":
			return nil, nil
		}
		return nil, errors.New("no such host")
	}
	h, err := NewHeartbeater(HeartbeatOptions{
		Masters: []string{"81.205.81.173", "master.example", "192.0.2.9:27950", "gone.example:27900", "empty.example", "81.205.81.173:27900"},
		Resolve: resolve,
		Logger:  discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	err = h.Resolve(context.Background(), t0)
	if err == nil || !strings.Contains(err.Error(), `"gone.example"`) || !strings.Contains(err.Error(), `"empty.example": no addresses`) {
		t.Errorf("err = %v", err)
	}
	if !slices.Equal(lookups, []string{"master.example", "gone.example", "empty.example"}) {
		t.Errorf("lookups %q (literals need none)", lookups)
	}
	_, to := h.Next(t0)
	want := []netip.AddrPort{
		netip.MustParseAddrPort("81.205.81.173:27900"),
		netip.MustParseAddrPort("192.0.2.7:27900"),
		netip.MustParseAddrPort("192.0.2.9:27950"),
	}
	if !slices.Equal(to, want) {
		t.Errorf("targets %v, want %v", to, want)
	}
	// Nothing is due again until the retry.
	if err := h.Resolve(context.Background(), t0.Add(time.Second)); err != nil || len(lookups) != 3 {
		t.Errorf("early retry: %v %q", err, lookups)
	}
}

func TestHeartbeatBadMasters(t *testing.T) {
	for _, m := range []string{"", "host:", "host:0", "host:99999", "host:port", ":27900", "[::1"} {
		if _, err := NewHeartbeater(HeartbeatOptions{Masters: []string{m}}); err == nil {
			t.Errorf("master %q accepted", m)
		} else if !strings.Contains(err.Error(), "plugin/gamespy: master") {
			t.Errorf("master %q: error %q lacks context", m, err)
		}
	}
}
