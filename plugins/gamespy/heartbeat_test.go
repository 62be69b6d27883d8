package gamespy

import (
	"context"
	"errors"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"
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
		{22101, 0, `\heartbeat\22101\gamename\bcommander`},
		{0, StateExiting, `\heartbeat\0\gamename\bcommander\statechanged\2`},
	}
	for _, tt := range tests {
		if got := string(AppendHeartbeat(nil, tt.port, tt.state)); got != tt.want {
			t.Errorf("AppendHeartbeat(%d, %d) = %q, want %q", tt.port, tt.state, got, tt.want)
		}
	}
}

// beats polls the schedule every second from start+from to start+to
// seconds and returns the offsets (in seconds) and payloads of the
// heartbeats sent.
func beats(h *Heartbeater, start time.Time, from, to int) (at []int, payloads []string) {
	for s := from; s <= to; s++ {
		if b := h.Next(start.Add(time.Duration(s) * time.Second)); b != nil {
			at = append(at, s)
			payloads = append(payloads, string(b))
		}
	}
	return at, payloads
}

func TestHeartbeatSchedule(t *testing.T) {
	const plain = `\heartbeat\0\gamename\bcommander`
	const changed = plain + `\statechanged\1`
	h, err := NewHeartbeater(HeartbeatOptions{Masters: []string{"81.205.81.173"}})
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
	if got := string(h.Shutdown()); got != plain+`\statechanged\2` {
		t.Fatalf("shutdown %q", got)
	}
	h.MarkStateChanged()
	if h.Due(t0.Add(4000*time.Second)) || h.Shutdown() != nil {
		t.Fatal("heartbeats after shutdown")
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
	h, _ := NewHeartbeater(HeartbeatOptions{Masters: []string{"127.0.0.1"}})
	if h.Shutdown() != nil {
		t.Error("goodbye without hello")
	}
}

func TestHeartbeatTargets(t *testing.T) {
	lookups := 0
	resolve := func(_ context.Context, host string) ([]netip.Addr, error) {
		lookups++
		switch host {
		case "master.example":
			return []netip.Addr{netip.MustParseAddr("::ffff:192.0.2.7"), netip.MustParseAddr("192.0.2.8")}, nil
		case "empty.example":
			return nil, nil
		}
		return nil, errors.New("no such host")
	}
	h, err := NewHeartbeater(HeartbeatOptions{
		Masters: []string{"81.205.81.173", "master.example", "192.0.2.9:27950", "gone.example:27900", "empty.example", "81.205.81.173:27900"},
		Resolve: resolve,
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := h.Targets(context.Background())
	want := []netip.AddrPort{
		netip.MustParseAddrPort("81.205.81.173:27900"),
		netip.MustParseAddrPort("192.0.2.7:27900"),
		netip.MustParseAddrPort("192.0.2.9:27950"),
	}
	if !slices.Equal(got, want) {
		t.Errorf("targets %v, want %v", got, want)
	}
	if err == nil || !strings.Contains(err.Error(), `"gone.example:27900"`) || !strings.Contains(err.Error(), `"empty.example"`) {
		t.Errorf("err = %v", err)
	}
	if lookups != 3 {
		t.Errorf("%d lookups, want 3 (literals need none)", lookups)
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
