package engine_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/bot"
)

// Sixteen players behind one address (a LAN party, a NAT) connect in the
// same instant: every connect is queued at the server before it reads the
// first, so it handles all sixteen before any reply can be answered. All
// sixteen get in, every time (issue 21: before, the per-address cap of 8
// displaced the earliest connects after their reply, and those clients
// hung at the checksums, told nothing). Each round has a server of its
// own: sixteen connects take most of one address's burst of the
// strangers' budget, which refills at 10 a second.
func TestUDPCrowdBehindOneAddress(t *testing.T) {
	const crowd, rounds = 16, 20
	for round := 0; round < rounds; round++ {
		srv := startServer(t, func(c *engine.Config) { c.MaxPlayers = crowd })
		bots := make([]*bot.Bot, crowd)
		for i := range bots {
			b, err := bot.New(bot.Config{Server: srv.Addr(), Name: fmt.Sprintf("LAN%02d", i)})
			if err != nil {
				t.Fatal(err)
			}
			bots[i] = b
		}
		ctx, cancel := context.WithCancel(context.Background())
		// Hold the game loop while all sixteen connects leave their sockets.
		onGame(t, srv, func(*engine.Game) {
			for _, b := range bots {
				b.Start(ctx)
			}
			sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer scancel()
			for _, b := range bots {
				if err := b.Sync(sctx); err != nil {
					t.Errorf("round %d: %v", round, err)
				}
			}
		})
		wctx, wcancel := context.WithTimeout(context.Background(), 15*time.Second)
		for _, b := range bots {
			if err := b.WaitState(wctx, bot.InGame); err != nil || b.State() != bot.InGame {
				in := 0
				for _, o := range bots {
					if o.State() == bot.InGame {
						in++
					}
				}
				t.Fatalf("round %d: %d of %d in the game; %s is %s (%v)", round, in, crowd, b.Name(), b.State(), err)
			}
		}
		wcancel()
		var players int
		onGame(t, srv, func(g *engine.Game) { players = g.NumPlayers(true) })
		if players != crowd {
			t.Fatalf("round %d: the game has %d players in, want %d", round, players, crowd)
		}
		cancel()
		for _, b := range bots {
			b.Close()
		}
	}
}
