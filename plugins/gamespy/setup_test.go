package gamespy

import (
	"context"
	"errors"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/browse"
)

// sentDatagram is one datagram a game sent.
type sentDatagram struct {
	to netip.AddrPort
	b  string
}

// captureOut records what a game sends; used from the test goroutine only,
// which owns the game.
type captureOut struct{ sent []sentDatagram }

func (c *captureOut) WriteToUDPAddrPort(b []byte, to netip.AddrPort) (int, error) {
	c.sent = append(c.sent, sentDatagram{to, string(b)})
	return len(b), nil
}

// take returns and forgets what was sent so far.
func (c *captureOut) take() []sentDatagram {
	s := c.sent
	c.sent = nil
	return s
}

// await receives from ch, failing the test if nothing comes in time (a
// guard against a hang, not a synchronisation).
func await[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("timed out")
		panic("unreachable")
	}
}

type answer struct {
	addrs []netip.Addr
	err   error
}

// slowResolver answers each lookup with what the test sends on answers,
// reporting the host asked on asked.
func slowResolver(asked chan<- string, answers <-chan answer) Resolver {
	return func(ctx context.Context, host string) ([]netip.Addr, error) {
		asked <- host
		select {
		case a := <-answers:
			return a.addrs, a.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// newTestGame builds a game on a fake clock starting at t0 that sends into
// the returned capture.
func newTestGame(t *testing.T, p *Plugin) (*engine.Game, *captureOut) {
	t.Helper()
	out := &captureOut{}
	g, err := engine.NewGame(engine.Options{Config: engine.DefaultConfig(), Out: out, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.AddPlugin(p); err != nil {
		t.Fatal(err)
	}
	return g, out
}

// A master name that resolves slowly, and then fails, does not cost the
// first heartbeat: it leaves as soon as the address is known, the failure
// is logged once, and every plugin line names the component once.
func TestPluginSlowResolver(t *testing.T) {
	logs, log := newLogBuffer()
	asked, answers := make(chan string, 1), make(chan answer)
	stored := make(chan struct{}, 1)
	cfg := DefaultConfig()
	cfg.Masters = []string{"master.example"}
	p := NewPlugin(cfg, PluginOptions{GamePort: 22102, Resolve: slowResolver(asked, answers), Logger: log})
	p.lookedUp = func() { stored <- struct{}{} }
	g, out := newTestGame(t, p)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }

	g.Advance(at(0))
	if host := await(t, asked); host != "master.example" {
		t.Fatalf("looked up %q", host)
	}
	// The lookup hangs for 40 s, then fails: nothing is sent meanwhile.
	for s := 1; s <= 40; s++ {
		g.Advance(at(s))
	}
	answers <- answer{err: errors.New("i/o timeout")}
	await(t, stored)
	g.RunPosted()
	if got := out.take(); got != nil {
		t.Fatalf("sent %v before the master resolved", got)
	}
	// The retry comes after ResolveRetryMin and fails again, then succeeds.
	g.Advance(at(41))
	select {
	case h := <-asked:
		t.Fatalf("retried %q before the backoff", h)
	default:
	}
	g.Advance(at(42))
	await(t, asked)
	answers <- answer{err: errors.New("i/o timeout")}
	await(t, stored)
	g.RunPosted()
	g.Advance(at(46))
	await(t, asked)
	answers <- answer{addrs: []netip.Addr{netip.MustParseAddr("192.0.2.7")}}
	await(t, stored)
	g.RunPosted() // the lookup wakes the game: the heartbeat leaves now
	want := []sentDatagram{{netip.MustParseAddrPort("192.0.2.7:27900"), `\heartbeat\22102\gamename\bcommander`}}
	if got := out.take(); !slices.Equal(got, want) {
		t.Fatalf("first heartbeat %v, want %v", got, want)
	}
	// The schedule counts from the first heartbeat actually sent.
	for s := 47; s <= 76; s++ {
		g.Advance(at(s))
	}
	if got := out.take(); len(got) != 1 || got[0].to != want[0].to {
		t.Fatalf("second heartbeat %v, want one at 76 s", got)
	}
	// The responder logs through the plugin too.
	browser := netip.MustParseAddrPort("192.0.2.50:50000")
	for range 2 * DefaultRateBurst {
		g.HandleDatagram(at(80), browser, []byte(browse.StatusQuery))
	}
	g.Flush(at(80))
	out.take()
	if logs.Count("query rate-limited") == 0 {
		t.Errorf("no responder line:\n%s", logs)
	}
	g.Shutdown(at(80))
	if got := out.take(); len(got) != 1 || got[0].b != `\heartbeat\22102\gamename\bcommander\statechanged\2` {
		t.Fatalf("goodbye %v", got)
	}

	if n := logs.Count("level=WARN", "cannot resolve master server", "i/o timeout"); n != 1 {
		t.Errorf("%d warnings for two failures, want 1:\n%s", n, logs)
	}
	if n := logs.Count("master server resolved", "failures=2"); n != 1 {
		t.Errorf("recovery logged %d times:\n%s", n, logs)
	}
	for line := range strings.SplitSeq(logs.String(), "\n") {
		if n := strings.Count(line, "component="); line != "" && (n != 1 || !strings.Contains(line, "component=plugin/gamespy")) {
			t.Errorf("log line with %d components: %s", n, line)
		}
	}
}

// One process, several games: each game has its own Plugin and each game's
// heartbeats announce its own port. A Plugin serves one game only.
func TestPluginPerGame(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Masters = []string{"192.0.2.1"}
	want := map[int]string{
		22101: `\heartbeat\0\gamename\bcommander`,
		22102: `\heartbeat\22102\gamename\bcommander`,
		22150: `\heartbeat\22150\gamename\bcommander`,
	}
	var games []*engine.Game
	var outs []*captureOut
	ports := []int{22101, 22102, 22150}
	var first *Plugin
	for _, port := range ports {
		p := NewPlugin(cfg, PluginOptions{GamePort: port})
		g, out := newTestGame(t, p)
		games, outs = append(games, g), append(outs, out)
		if first == nil {
			first = p
		}
	}
	for i, g := range games {
		g.Advance(t0)
		if got := outs[i].take(); len(got) != 1 || got[0].b != want[ports[i]] {
			t.Errorf("game on %d sent %v, want %q", ports[i], got, want[ports[i]])
		}
	}
	if err := games[1].AddPlugin(first); err == nil || !strings.Contains(err.Error(), "one Plugin per game") {
		t.Errorf("plugin added to a second game: %v", err)
	}
}
