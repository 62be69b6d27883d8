package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/world"
	"github.com/bcserver/bcserver/internal/testutil"
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
		{"-name", "Target", "-spawn", "akira", "-pos", "0,40,0", "-self-destruct", "3s"},
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

// startServer runs an engine server on a loopback port until the test
// ends (or stop is called); setup runs on its goroutine first.
func startServer(t *testing.T, setup func(g *engine.Game)) (srv *engine.Server, stop func()) {
	t.Helper()
	srv, err := engine.Listen(engine.ServerOptions{Addr: "127.0.0.1:0", Config: engine.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = srv.Run(ctx); close(done) }()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	dctx, dcancel := context.WithTimeout(ctx, 5*time.Second)
	defer dcancel()
	if err := srv.Do(dctx, setup); err != nil {
		t.Fatal(err)
	}
	return srv, stop
}

// wait waits for a signal, failing the test after a bounded time.
func wait(t *testing.T, ch <-chan struct{}, what string, logs fmt.Stringer) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(20 * time.Second):
		t.Fatalf("no %s\n%s", what, logs)
	}
}

// A play-tester for a team objective: the bot announces its team before
// each spawn, fires torpedoes (TorpedoFire 0x19) at a host ship it names,
// flies again after a restart, and when the server goes away says so and
// exits.
func TestBotPlaysTeamObjective(t *testing.T) {
	var mu sync.Mutex
	var teams, spawns int
	torpedoHit := make(chan struct{})
	respawned := make(chan struct{})
	var hitOnce, spawnOnce sync.Once
	var freighter int32
	srv, stop := startServer(t, func(g *engine.Game) {
		o, err := g.PrepareHostShip(engine.HostShipSpec{Species: 16, Name: "Freighter", Set: "Multi1", Position: [3]float32{0, 45, 0}, Team: -1})
		if err != nil {
			t.Error(err)
			return
		}
		if err := g.AddHostShip(o); err != nil {
			t.Error(err)
		}
		freighter = o.ID
		g.On(engine.EvScriptMessage, func(e engine.Event) {
			if m := e.(*engine.ScriptMessage); len(m.Payload) == 6 && m.Payload[0] == codec.OpTeam && m.Payload[5] == 1 {
				mu.Lock()
				teams++
				mu.Unlock()
			}
		})
		g.On(engine.EvShipCreated, func(e engine.Event) {
			if s := e.(*engine.ShipCreated).Ship; s.OwnerID() == 2 {
				mu.Lock()
				spawns++
				if spawns == 2 {
					spawnOnce.Do(func() { close(respawned) })
				}
				mu.Unlock()
			}
		})
		g.On(engine.EvWeaponHit, func(e engine.Event) {
			if h := e.(*engine.WeaponHit); h.ShooterID == 2 && h.Kind == world.KindTorpedo && h.Target.ID == freighter {
				hitOnce.Do(func() { close(torpedoHit) })
			}
		})
	})
	var logs testutil.LogBuffer
	code := make(chan int, 1)
	go func() {
		code <- runContext(context.Background(), []string{"-addr", srv.Addr().String(), "-timeout", "10s", "-name", "Gunner",
			"-spawn", "Sovereign", "-team", "1", "-weapons", "torpedo", "-fire-at", "freighter", "-fire-every", "100ms"}, &bytes.Buffer{}, &logs)
	}()
	wait(t, torpedoHit, "torpedo hit on the freighter", &logs)
	dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Do(dctx, func(g *engine.Game) { g.EndGame(codec.EndItsJustOver); g.RestartGame() }); err != nil {
		t.Fatal(err)
	}
	wait(t, respawned, "respawn after the restart", &logs)
	stop()
	select {
	case c := <-code:
		if c != 1 || !strings.Contains(logs.String(), "the server shut down") {
			t.Fatalf("exit %d after the server stopped\n%s", c, logs.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the bot plays on after the server stopped\n%s", logs.String())
	}
	mu.Lock()
	defer mu.Unlock()
	if teams < 2 {
		t.Fatalf("TEAM announced %d times for 2 spawns\n%s", teams, logs.String())
	}
	if strings.Contains(logs.String(), "has no phaser") {
		t.Fatalf("warned about phasers it was not asked to fire\n%s", logs.String())
	}
}

// A bot the server refuses (between matches: the game takes no players)
// says why in one line and exits.
func TestBotRefusedSaysWhy(t *testing.T) {
	srv, _ := startServer(t, func(g *engine.Game) { g.EndGame(codec.EndTimeUp) })
	var out, errb bytes.Buffer
	code := run([]string{"-addr", srv.Addr().String(), "-timeout", "10s", "-spawn", "Akira"}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "refused by the server") || !strings.Contains(errb.String(), "not taking players") {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
}
