// Package enginetest runs engine servers for tests, on loopback.
package enginetest

import (
	"context"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// Run runs a game with cfg on a free loopback port until the test ends.
// The cleanup stops it and fails the test if it does not stop within 5 s,
// if Run returned an error, or if a deadline the game reported was still
// due after the Advance it woke for (the loop would have fallen back to
// polling).
func Run(t testing.TB, cfg engine.Config) *engine.Server {
	t.Helper()
	srv, err := engine.Listen(engine.ServerOptions{Addr: "127.0.0.1:0", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("server: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("server did not stop within 5 s")
		}
		if n := srv.Stats().StuckDeadlines.Load(); n != 0 {
			t.Errorf("%d deadlines still due after their Advance", n)
		}
	})
	return srv
}
