package main

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/fairplay"
	"github.com/bcserver/bcserver/internal/testutil"
)

// bcbot -cheat flies a modified client: each mode is caught by the host's
// fair-play rule for it, and an unknown mode or a missing -spawn is a
// usage error.
func TestCheatFlag(t *testing.T) {
	for _, tt := range []struct {
		cheat, spawn string
		rule         fairplay.Rule
	}{
		{"teleport", "Akira", fairplay.Teleport},
		{"arc", "BirdOfPrey", fairplay.Arc},
	} {
		t.Run(tt.cheat, func(t *testing.T) {
			caught := make(chan struct{})
			var once sync.Once
			srv, _ := startServer(t, func(g *engine.Game) {
				g.On(engine.EvViolation, func(e engine.Event) {
					if e.(*engine.Violation).Rule == tt.rule {
						once.Do(func() { close(caught) })
					}
				})
			})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var logs testutil.LogBuffer
			done := make(chan int, 1)
			go func() {
				done <- runContext(ctx, []string{"-addr", srv.Addr().String(), "-timeout", "10s", "-name", "Cheater",
					"-spawn", tt.spawn, "-cheat", tt.cheat, "-weapons", "all", "-idle", "20s"}, &bytes.Buffer{}, &logs)
			}()
			wait(t, caught, tt.cheat+" caught", &logs)
			cancel()
			<-done
		})
	}
	for _, args := range [][]string{{"-cheat", "wallhack", "-spawn", "Akira"}, {"-cheat", "speed"}} {
		var errb bytes.Buffer
		if c := runContext(context.Background(), append([]string{"-addr", "127.0.0.1:9", "-timeout", "1s"}, args...), &bytes.Buffer{}, &errb); c != 2 {
			t.Errorf("%v: exit %d (%s)", args, c, errb.String())
		}
	}
}
