package loadgen

import (
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// servers starts n games on loopback for one test.
func servers(t *testing.T, n int) []netip.AddrPort {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var addrs []netip.AddrPort
	var done []chan struct{}
	for range n {
		cfg := engine.DefaultConfig()
		cfg.MaxPlayers = 16
		srv, err := engine.Listen(engine.ServerOptions{Addr: "127.0.0.1:0", Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		d := make(chan struct{})
		go func() { _ = srv.Run(ctx); close(d) }()
		addrs = append(addrs, srv.Addr())
		done = append(done, d)
	}
	t.Cleanup(func() {
		cancel()
		for _, d := range done {
			<-d
		}
	})
	return addrs
}

// The load tool against real servers over loopback UDP: every bot of two
// games joins the stock way, every message reaches every other bot of its
// game exactly once, latencies and tick rates are measured; through the
// lossy proxy at 20 % loss each way nothing is lost either.
func TestRunDeliversEverything(t *testing.T) {
	if testing.Short() {
		t.Skip("loopback load run")
	}
	for _, tt := range []struct {
		name string
		loss float64
	}{{"clean", 0}, {"10% loss", 0.1}} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{Servers: servers(t, 2), Bots: 3, Rate: 10, Duration: time.Second,
				Warmup: 300 * time.Millisecond, Drain: 5 * time.Second, JoinTimeout: 30 * time.Second,
				Loss: tt.loss, Seed: 7}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			rep, err := Run(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Log("\n" + rep.String())
			if len(rep.Errors) > 0 {
				t.Fatalf("errors: %v", rep.Errors)
			}
			if rep.Games != 2 || rep.BotsPerGame != 3 || rep.Sent < 2*3*5 {
				t.Fatalf("%d games x %d bots sent %d messages", rep.Games, rep.BotsPerGame, rep.Sent)
			}
			if rep.Expected != 2*rep.Sent || rep.Delivered != rep.Expected || rep.Duplicates != 0 {
				t.Fatalf("delivered %d of %d (%d duplicates) for %d sent", rep.Delivered, rep.Expected, rep.Duplicates, rep.Sent)
			}
			if rep.P50 <= 0 || rep.Max < rep.P99 || rep.P99 < rep.P50 {
				t.Fatalf("latencies p50 %v p99 %v max %v", rep.P50, rep.P99, rep.Max)
			}
			if len(rep.TickRate) != 2 || rep.TickRate[0] <= 0 || rep.TickRate[1] <= 0 {
				t.Fatalf("tick rates %v", rep.TickRate)
			}
		})
	}
}

// Floods at a real game over loopback (spoofed sources need a raw socket:
// root or CAP_NET_RAW, else skipped): connects from one address and from
// 100 spoofed ones, and junk, while real clients join and the bots play.
// Every joiner gets in, every copy is delivered.
func TestRunUnderFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("loopback load run")
	}
	if s, err := newRawSender(); err != nil {
		t.Skipf("no raw socket: %v", err)
	} else {
		s.close()
	}
	for _, kind := range []string{FloodConnect, FloodSpoof, FloodJunk} {
		t.Run(kind, func(t *testing.T) {
			cfg := Config{Servers: servers(t, 1), Bots: 4, Rate: 10, Duration: time.Second,
				Warmup: 300 * time.Millisecond, Drain: 5 * time.Second, JoinTimeout: 30 * time.Second,
				Flood: &Flood{Kind: kind, Rate: 5000, Sources: 100, Joiners: 4}}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			rep, err := Run(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Log("\n" + rep.String())
			if rep.FloodError != "" || rep.FloodSent < 2000 {
				t.Fatalf("flood sent %d: %s", rep.FloodSent, rep.FloodError)
			}
			if rep.JoinersTried != 4 || rep.JoinedIn != 4 {
				t.Fatalf("%d of %d real joiners got in during the flood: %v", rep.JoinedIn, rep.JoinersTried, rep.Errors)
			}
			if rep.Delivered != rep.Expected || rep.Duplicates != 0 || rep.Sent == 0 {
				t.Fatalf("delivered %d of %d (%d duplicates)", rep.Delivered, rep.Expected, rep.Duplicates)
			}
		})
	}
}
