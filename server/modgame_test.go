package server

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/engine/world"
	"github.com/bcserver/bcserver/internal/bot"
)

// pycOf stands in for a compiled script: the .pyc magic, a timestamp, and
// a body naming the module, so every file hashes differently.
func pycOf(body string) []byte { return append([]byte{0x99, 0x4E, 0x0D, 0x0A, 1, 0, 0, 0}, body...) }

// modInstall lays out an install with the fixture mod: the mod's .py
// sources (what `bcserver import` reads) and compiled stand-ins for what
// the checksum rounds hash: scripts/, ships/, mainmenu/ and the
// Scripts/Multiplayer tree with the mod's species tables and a mod
// mission.
func modInstall(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	scripts := filepath.Join(root, "scripts")
	if err := os.CopyFS(scripts, os.DirFS(filepath.Join(fixtureMod, "scripts"))); err != nil {
		t.Fatal(err)
	}
	for rel, body := range map[string]string{
		"App.pyc":                                   "app",
		"Autoexec.pyc":                              "autoexec",
		"ships/Defiant.pyc":                         "defiant ship",
		"ships/Intrepid.pyc":                        "intrepid ship",
		"ships/Hardpoints/defiant.pyc":              "defiant hardpoint",
		"ships/Hardpoints/intrepid.pyc":             "intrepid hardpoint",
		"mainmenu/mainmenu.pyc":                     "menu",
		"Multiplayer/SpeciesToShip.pyc":             "fleet species",
		"Multiplayer/SpeciesToTorp.pyc":             "fleet torpedoes",
		"Multiplayer/__init__.pyc":                  "",
		"Multiplayer/Episode/__init__.pyc":          "",
		"Multiplayer/Episode/Fleet/Fleet.pyc":       "fleet battle mission",
		"Multiplayer/Episode/Fleet/__init__.pyc":    "",
		"Multiplayer/Episode/Mission1/Mission1.pyc": "stock deathmatch",
	} {
		p := filepath.Join(scripts, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, pycOf(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// The fixture mod's game end to end over loopback UDP (issue 20): the
// host is set up the documented way (bchash manifest, `bcserver import`,
// [mod]); a bot with the mod's files but the stock Scripts/Multiplayer
// joins, is pushed the mod's species tables and mission (bytes checked),
// flies the imported Defiant (species 150) and takes collision damage
// computed from the pack's data; another flies the Intrepid, which has no
// data, and is relayed without a model.
func TestModdedGameEndToEnd(t *testing.T) {
	install := modInstall(t)
	work := t.TempDir()
	man, err := checksum.Build(install, checksum.BuildOptions{Name: "Fixture Fleet 1.0"})
	if err != nil {
		t.Fatal(err)
	}
	var mb bytes.Buffer
	if err := man.WriteJSON(&mb); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "fleet-manifest.json"), mb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	importPack(t, filepath.Join(install, "scripts"), filepath.Join(work, "fleet-pack"), "fleet-pack")
	cfgPath := filepath.Join(work, "bcserver.toml")
	if err := os.WriteFile(cfgPath, []byte(`
[checksum]
validation = "strict"

[mod]
packs          = ["fleet-pack"]
manifest       = "fleet-manifest.json"
client_scripts = "`+filepath.ToSlash(filepath.Join(install, "scripts", "Multiplayer"))+`"
`), 0o644); err != nil {
		t.Fatal(err)
	}
	file, err := LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	r := serveTest(t, func(uc *Config) {
		uc.Checksum, uc.Mod, uc.dir = file.Checksum, file.Mod, file.dir
		uc.Limits.FlowRate = 0
	})
	var pack *ships.Registry
	damaged := make(chan *engine.ShipDamaged, 16)
	r.do(t, func(g *engine.Game) {
		pack = g.Ships()
		g.On(engine.EvShipDamaged, func(e engine.Event) {
			ev := *e.(*engine.ShipDamaged)
			select {
			case damaged <- &ev:
			default:
			}
		})
	})

	// The host's Scripts/Multiplayer, as the client must end up with it.
	hostFiles, err := bot.LoadClientFiles(os.DirFS(filepath.Join(install, "scripts")), "Multiplayer")
	if err != nil {
		t.Fatal(err)
	}
	// A: the mod's ships, but the stock Scripts/Multiplayer.
	stock := bot.NewClientFiles(map[string][]byte{
		"SpeciesToShip.pyc":             pycOf("stock species"),
		"SpeciesToTorp.pyc":             pycOf("stock torpedoes"),
		"__init__.pyc":                  pycOf(""),
		"Episode/__init__.pyc":          pycOf(""),
		"Episode/Mission1/Mission1.pyc": pycOf("stock deathmatch"),
	})
	a := joinMod(t, r, "Sisko", man, stock)
	want := []string{
		"Scripts/Multiplayer/SpeciesToShip.pyc", "Scripts/Multiplayer/SpeciesToTorp.pyc",
		"Scripts/Multiplayer/Episode/Fleet/Fleet.pyc", "Scripts/Multiplayer/Episode/Fleet/__init__.pyc",
	}
	got := stock.Received()
	if len(got) != len(want) || a.PushErr() != nil {
		t.Fatalf("pushed %+v (%v), want %q", got, a.PushErr(), want)
	}
	for i, f := range got {
		rel := strings.TrimPrefix(f.Path, "Scripts/Multiplayer/")
		host, _ := hostFiles.File(rel)
		mine, _ := stock.File(rel)
		if f.Path != want[i] || !bytes.Equal(mine, host) || f.Hash != checksum.FileHash(host) {
			t.Errorf("file %d: %s, bytes equal %t", i, f.Path, bytes.Equal(mine, host))
		}
	}
	for rel, data := range hostFiles.Files() {
		if strings.HasSuffix(rel, ".pyc") {
			if mine, _ := stock.File(rel); !bytes.Equal(mine, data) {
				t.Errorf("%s differs from the host's after the push", rel)
			}
		}
	}
	// B: the whole mod, nothing to push.
	full := bot.NewClientFiles(hostFiles.Files())
	b := joinMod(t, r, "Worf", man, full)
	if n := len(full.Received()); n != 0 {
		t.Fatalf("a client with the mod's files was pushed %d files", n)
	}

	// A flies the imported Defiant, B the Intrepid (no data: relay-only).
	shipA := codec.FirstObjectID(int(a.Settings().Slot))
	shipB := codec.FirstObjectID(int(b.Settings().Slot))
	defiant, err := bot.SpawnFrom(pack, int(a.Settings().Slot), a.ID(), "Sisko", 150, shipA)
	if err != nil {
		t.Fatal(err)
	}
	intrepid, err := bot.SpawnFrom(pack, int(b.Settings().Slot), b.ID(), "Worf", 16, shipB)
	if err != nil {
		t.Fatal(err)
	}
	send := func(c *bot.Bot, p []byte, reliable bool) {
		t.Helper()
		if err := c.Send(p, reliable); err != nil {
			t.Fatal(err)
		}
	}
	send(a, defiant, true)
	send(b, intrepid, true)
	send(a, bot.Move(shipA, [3]float32{0, 0, 0}, [3]float32{0, 1, 0}), false)
	send(b, bot.Move(shipB, [3]float32{0, 10, 0}, [3]float32{0, -1, 0}), false)
	// Both see the other's creation exactly as sent: the Intrepid's
	// bytes go through unchanged although the host has no model of it.
	awaitBytes(t, a, "the Intrepid's creation", intrepid)
	awaitBytes(t, b, "the Defiant's creation", defiant)
	var hasModel [2]bool
	r.do(t, func(g *engine.Game) {
		hasModel[0] = g.Object(shipA) != nil && g.Object(shipA).Model != nil
		hasModel[1] = g.Object(shipB) != nil && g.Object(shipB).Model != nil
	})
	if !hasModel[0] || hasModel[1] {
		t.Fatalf("models: Defiant %t, Intrepid %t", hasModel[0], hasModel[1])
	}
	r.logs.WaitFor(t, "ship class without data", 5*time.Second)
	if !strings.Contains(r.logs.String(), "species=16") || !strings.Contains(r.logs.String(), "ship_script=Intrepid") {
		t.Errorf("relay-only log:\n%s", r.logs.String())
	}

	// The Intrepid rams the Defiant: A reports it (the reporter is the
	// ship hit); the damage follows the pack's mass for the Defiant.
	const force = 50
	ram := codec.CollisionEffect{Code: codec.EventObjectCollision, Src: shipB, Target: shipA,
		Contacts: codec.AppendContact(nil, codec.CollisionContact{Dir: codec.Dir3{0, 127, 0}, Dist: 200}), Force: force}.AppendTo(nil)
	send(a, ram, true)
	select {
	case ev := <-damaged:
		wantDamage := world.CollisionDamage(force, 55, 1) // the Defiant's SetMass in the mod's hardpoint
		if ev.Ship == nil || ev.Ship.ID != shipA || ev.Damage != float64(wantDamage) || ev.Cause != engine.CauseCollision {
			t.Fatalf("damage event %+v, want %v HP to the Defiant", ev, wantDamage)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no damage to the Defiant")
	}
	// Subsystem health reaches the players for the Defiant (flag 0x20,
	// the pack's subsystem list), never for the Intrepid.
	sawDefiant := awaitMatch(t, b, "a subsystem update of the Defiant", func(p []byte) bool {
		su, err := codec.DecodeStateUpdate(p, codec.SubsystemsToEnd)
		return err == nil && p[0] == codec.OpStateUpdate && su.ObjectID == shipA && su.Flags&codec.StateSubsystems != 0
	})
	if !sawDefiant {
		t.Fatal("no 0x20 for the Defiant")
	}
	deadline := time.After(1500 * time.Millisecond)
	for done := false; !done; {
		select {
		case m := <-a.Inbox():
			if su, err := codec.DecodeStateUpdate(m.Payload, codec.SubsystemsToEnd); err == nil && m.Payload[0] == codec.OpStateUpdate && su.ObjectID == shipB && su.Flags&codec.StateSubsystems != 0 {
				t.Fatal("flag 0x20 for the relay-only Intrepid")
			}
		case <-deadline:
			done = true
		}
	}
}

func joinMod(t *testing.T, r *running, name string, man *checksum.Manifest, files *bot.ClientFiles) *bot.Bot {
	t.Helper()
	b, err := bot.New(bot.Config{Server: r.srv.Addr(), Name: name, Manifest: man, Files: files})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b.Start(ctx)
	t.Cleanup(func() { b.Close(); cancel() })
	wctx, wcancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer wcancel()
	if err := b.WaitState(wctx, bot.InGame); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, r.logs.String())
	}
	return b
}

func awaitBytes(t *testing.T, b *bot.Bot, what string, want []byte) {
	t.Helper()
	if !awaitMatch(t, b, what, func(p []byte) bool { return bytes.Equal(p, want) }) {
		t.Fatalf("bot %d: no %s", b.ID(), what)
	}
}

func awaitMatch(t *testing.T, b *bot.Bot, what string, match func([]byte) bool) bool {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case m := <-b.Inbox():
			if match(m.Payload) {
				return true
			}
		case <-deadline:
			t.Logf("bot %d: no %s within 10 s", b.ID(), what)
			return false
		}
	}
}
