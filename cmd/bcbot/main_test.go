package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/plugins/gamespy"
)

func TestBotJoinsAndDiscovers(t *testing.T) {
	srv, err := engine.Listen(engine.ServerOptions{Addr: "127.0.0.1:0", Config: engine.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Game().AddPlugin(gamespy.NewPlugin(gamespy.DefaultConfig(), gamespy.PluginOptions{GamePort: int(srv.Addr().Port())})); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = srv.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	var out, errb bytes.Buffer
	code := run([]string{"-addr", srv.Addr().String(), "-name", "Tester", "-chat", "hi", "-chat", "there", "-idle", "300ms", "-timeout", "5s"}, &out, &errb)
	if code != 0 || !strings.Contains(errb.String(), "joined the game") || !strings.Contains(errb.String(), `text=hi`) || !strings.Contains(errb.String(), `text=there`) {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	if code := run([]string{"-h"}, &out, &errb); code != 0 {
		t.Fatalf("-h: exit %d", code)
	}
	out.Reset()
	if code := run([]string{"-discover", "-targets", srv.Addr().String()}, &out, &errb); code != 0 || !strings.Contains(out.String(), `"bcserver"`) {
		t.Fatalf("discover exit %d: %q", code, out.String())
	}
	// A server that is not there: the join times out with an error.
	if code := run([]string{"-addr", "127.0.0.1:9", "-timeout", "300ms"}, &out, &errb); code != 1 {
		t.Fatalf("dead server: exit %d", code)
	}
}

// Play-testing actions: one bot flies a Sovereign and fires at the other's
// Akira, which self-destructs; the server sees the spawns, the hits and a
// self-destruct death.
func TestBotPlays(t *testing.T) {
	srv, err := engine.Listen(engine.ServerOptions{Addr: "127.0.0.1:0", Config: engine.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = srv.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	var mu sync.Mutex
	var spawned, hits int
	selfDestructed := make(chan struct{})
	joined := make(chan struct{}, 4)
	dctx, dcancel := context.WithTimeout(ctx, 5*time.Second)
	defer dcancel()
	err = srv.Do(dctx, func(g *engine.Game) {
		g.On(engine.EvShipCreated, func(engine.Event) { mu.Lock(); spawned++; mu.Unlock() })
		g.On(engine.EvPlayerInGame, func(engine.Event) { joined <- struct{}{} })
		g.On(engine.EvWeaponHit, func(e engine.Event) {
			if e.(*engine.WeaponHit).ShooterID == 2 {
				mu.Lock()
				hits++
				mu.Unlock()
			}
		})
		g.On(engine.EvShipDestroyed, func(e engine.Event) {
			if e.(*engine.ShipDestroyed).Cause == engine.CauseSelfDestruct {
				close(selfDestructed)
			}
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	botCtx, stopBots := context.WithCancel(ctx)
	var wg sync.WaitGroup
	codes := make([]int, 2)
	logs := make([]bytes.Buffer, 2)
	for i, args := range [][]string{
		{"-name", "Shooter", "-spawn", "Sovereign", "-fire-at", "3", "-fire-every", "100ms"},
		{"-name", "Target", "-spawn", "akira", "-pos", "0,40,0", "-self-destruct", "1500ms"},
	} {
		wg.Add(1)
		go func(i int, args []string) {
			defer wg.Done()
			codes[i] = runContext(botCtx, append([]string{"-addr", srv.Addr().String(), "-timeout", "10s"}, args...), &bytes.Buffer{}, &logs[i])
		}(i, args)
		// The shooter is player 2, the target 3: one after the other.
		select {
		case <-joined:
		case <-time.After(10 * time.Second):
			t.Fatalf("bot %d did not join", i)
		}
	}
	select {
	case <-selfDestructed:
	case <-time.After(20 * time.Second):
		t.Fatalf("no self-destruct\n%s\n%s", logs[0].String(), logs[1].String())
	}
	stopBots()
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if spawned < 2 || hits == 0 || codes[0] != 0 || codes[1] != 0 {
		t.Fatalf("spawned %d hits %d codes %v\n%s\n%s", spawned, hits, codes, logs[0].String(), logs[1].String())
	}
}
