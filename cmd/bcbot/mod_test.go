package main

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/engine/ships/modimport"
	"github.com/bcserver/bcserver/internal/testutil"
)

// The importer's fixture mod (a scripts folder in the stock grammar, with
// stand-ins for its compiled Scripts/Multiplayer) and a stock client's
// Scripts/Multiplayer: the README's walk-through uses the same two.
var (
	fixtureScripts = filepath.Join("..", "..", "engine", "ships", "modimport", "testdata", "fixturemod", "scripts")
	stockClient    = filepath.Join("..", "..", "engine", "ships", "modimport", "testdata", "stock-client", "Multiplayer")
)

// bcbot with -pack and -client-scripts joins a modded game over loopback
// UDP (issue 34): it answers round 0xFF from the stock client folder, takes
// the host's push of the mod's Scripts/Multiplayer (each file logged), and
// flies the mod's Defiant (species 150, from the pack, with the pack's
// subsystem tail), which the host models: its health updates reach the
// bot.
func TestBotFliesModClassAfterPush(t *testing.T) {
	pack := filepath.Join(t.TempDir(), "fleet-pack")
	p, err := modimport.ImportDir(fixtureScripts, modimport.Options{Label: "Fixture Fleet 1.0", Vanilla: ships.VanillaData()})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.WriteDir(pack); err != nil {
		t.Fatal(err)
	}
	reg, err := loadPack(pack)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := checksum.LoadPushTree(filepath.Join(fixtureScripts, "Multiplayer"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := engine.DefaultConfig()
	cfg.Ships, cfg.Push, cfg.PushTree = reg, checksum.PushPush, tree
	srv, err := engine.Listen(engine.ServerOptions{Addr: "127.0.0.1:0", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = srv.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	modelled := make(chan int, 4)
	dctx, dcancel := context.WithTimeout(ctx, 5*time.Second)
	defer dcancel()
	if err := srv.Do(dctx, func(g *engine.Game) {
		g.On(engine.EvShipCreated, func(e engine.Event) {
			if s := e.(*engine.ShipCreated).Ship; s != nil && s.Model != nil {
				modelled <- int(s.Species)
			}
		})
	}); err != nil {
		t.Fatal(err)
	}

	logs := &testutil.LogBuffer{}
	health := logs.Seen("health update from the host: it models our ship")
	botCtx, stopBot := context.WithCancel(ctx)
	code := make(chan int, 1)
	go func() {
		code <- runContext(botCtx, []string{"-addr", srv.Addr().String(), "-name", "Sisko", "-timeout", "10s",
			"-pack", pack, "-client-scripts", stockClient, "-spawn", "Defiant"}, &bytes.Buffer{}, logs)
	}()
	select {
	case <-health:
	case <-time.After(20 * time.Second):
		stopBot()
		<-code
		t.Fatalf("no health update for the bot's Defiant\n%s", logs)
	}
	stopBot()
	if c := <-code; c != 0 {
		t.Fatalf("bcbot exit %d\n%s", c, logs)
	}
	select {
	case sp := <-modelled:
		if sp != 150 {
			t.Errorf("the host modelled species %d, want the Defiant's 150", sp)
		}
	default:
		t.Error("the host modelled no ship")
	}
	out := logs.String()
	for _, want := range []string{
		`msg="pushed file received" path=Scripts/Multiplayer/SpeciesToShip.pyc`,
		`msg="pushed file received" path=Scripts/Multiplayer/SpeciesToTorp.pyc`,
		`msg="pushed file received" path=Scripts/Multiplayer/Episode/Fleet/Fleet.pyc`,
		`msg="pushed file received" path=Scripts/Multiplayer/Episode/Fleet/__init__.pyc`,
		`msg="ship spawned" id=1073741823 species=150`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("bcbot's log lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "pushed file received"); n != 4 {
		t.Errorf("%d files pushed, want the 4 that differ", n)
	}
}

// A species the bot's data has no class for is refused up front; a pack
// that is no pack, likewise.
func TestBotModFlagsErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-spawn", "Defiant"},
		{"-pack", t.TempDir(), "-spawn", "Defiant"},
		{"-pack", filepath.Join(t.TempDir(), "nope")},
		{"-client-scripts", filepath.Join(t.TempDir(), "nope")},
	} {
		var errb bytes.Buffer
		if c := runContext(context.Background(), append([]string{"-addr", "127.0.0.1:9", "-timeout", "1s"}, args...), &bytes.Buffer{}, &errb); c != 2 {
			t.Errorf("%v: exit %d, want 2 before joining\n%s", args, c, errb.String())
		}
	}
}

// The health watch says once per ship whether the host models it: a
// health update (flag 0x20) for the ship, or none in time.
func TestHealthWatch(t *testing.T) {
	var logs bytes.Buffer
	h := &healthWatch{log: slog.New(slog.NewTextHandler(&logs, nil))}
	t0 := time.Unix(1000, 0)
	const ship = 0x3FFFFFFF
	health := codec.StateUpdate{ObjectID: ship, Flags: codec.StateSubsystems, Subsystems: []byte{0, 0xFF}}.AppendTo(nil)
	move := codec.StateUpdate{ObjectID: ship, Flags: codec.StatePosition}.AppendTo(nil)
	h.seen(ship, 150, move)
	h.tick(t0.Add(healthWait-time.Millisecond), ship, 150, t0)
	if logs.Len() != 0 {
		t.Fatalf("said something too early: %s", logs.String())
	}
	h.tick(t0.Add(healthWait), ship, 150, t0)
	h.tick(t0.Add(2*healthWait), ship, 150, t0)
	if n := strings.Count(logs.String(), "no health update"); n != 1 {
		t.Fatalf("%d warnings:\n%s", n, logs.String())
	}
	h.seen(ship, 150, health)
	h.seen(ship, 150, health)
	if n := strings.Count(logs.String(), "it models our ship"); n != 1 {
		t.Fatalf("%d notes:\n%s", n, logs.String())
	}
	// The next ship is watched afresh.
	h.seen(ship+0x100, 150, health)
	if n := strings.Count(logs.String(), "it models our ship"); n != 1 {
		t.Fatalf("another ship's update counted:\n%s", logs.String())
	}
}
