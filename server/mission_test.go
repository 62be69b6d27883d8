package server

import (
	"bytes"
	"context"
	"io/fs"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/bot"
	"github.com/bcserver/bcserver/internal/browse"
	"github.com/bcserver/bcserver/internal/testutil"
	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/missions"
	bcnet "github.com/bcserver/bcserver/net"
)

// running is a served configuration with its bots.
type running struct {
	srv  *engine.Server
	host *lua.Runtime
	logs *testutil.LogBuffer
	errs *missionErrs // what the mission reported
}

func serveTest(t *testing.T, mutate func(*Config)) *running {
	t.Helper()
	r, _ := serveWith(t, mutate, nil)
	return r
}

func (r *running) join(t *testing.T, name string) *bot.Bot {
	t.Helper()
	b := r.tryJoin(t, name)
	if b.State() != bot.InGame {
		t.Fatalf("bot %q did not get into the game (state %v, boot reason %d, err %v)\n%s", name, b.State(), b.BootReason(), b.Err(), r.logs)
	}
	return b
}

// await reads a bot's inbox until a message equal to want arrives.
func await(t *testing.T, b *bot.Bot, what string, want []byte, within time.Duration) {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case m := <-b.Inbox():
			if bytes.Equal(m.Payload, want) {
				return
			}
		case <-deadline:
			t.Fatalf("bot %d: no %s (%x) within %v", b.ID(), what, want, within)
		}
	}
}

func (r *running) do(t *testing.T, fn func(g *engine.Game)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.srv.Do(ctx, fn); err != nil {
		t.Fatal(err)
	}
}

// Over real UDP: the joiner gets MISSION_INIT (and the score row of the
// player before him), and chat from A reaches A and B unchanged.
func TestUDPMissionJoinAndChat(t *testing.T) {
	r := serveTest(t, func(uc *Config) { uc.Mission["system"] = "Poseidon" })
	a := r.join(t, "Alice")
	await(t, a, "MISSION_INIT", []byte{0x35, 8, 9, 0xff, 0xff}, 5*time.Second)
	b := r.join(t, "Bob")
	await(t, b, "MISSION_INIT", []byte{0x35, 8, 9, 0xff, 0xff}, 5*time.Second)
	await(t, b, "SCORE row for Alice", codec.Score{Player: 2}.AppendTo(nil), 5*time.Second)
	if err := a.Chat("hello", false); err != nil {
		t.Fatal(err)
	}
	want := codec.Chat{Sender: 2, Text: []byte("hello")}.AppendTo(nil)
	await(t, a, "own chat echo", want, 5*time.Second)
	await(t, b, "Alice's chat", want, 5*time.Second)
	var script, mapName string
	r.do(t, func(g *engine.Game) { script, mapName = g.Mission().Script, g.Mission().MapName })
	if script != "Multiplayer.Episode.Mission1.Mission1" || mapName != "DM" {
		t.Fatalf("mission %q %q", script, mapName)
	}
}

// The limit the mission announces in MISSION_INIT is server.max_players,
// and it is the one enforced: the next joiner is told "server full".
func TestUDPPlayerLimitAnnouncedIsEnforced(t *testing.T) {
	r := serveTest(t, func(uc *Config) { uc.Server.MaxPlayers = 2 })
	a := r.join(t, "Alice")
	await(t, a, "MISSION_INIT", []byte{0x35, 2, 1, 0xff, 0xff}, 5*time.Second)
	r.join(t, "Bob")
	c, err := bot.New(bot.Config{Server: r.srv.Addr(), Name: "Carl"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c.Start(ctx)
	t.Cleanup(c.Close)
	if err := c.WaitState(ctx, bot.Closed); err != nil {
		t.Fatal(err)
	}
	if c.BootReason() != bcnet.BootFull {
		t.Fatalf("third player: boot reason %d", c.BootReason())
	}
}

// copyMissions copies the built-in missions into a folder the test edits.
func copyMissions(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := fs.WalkDir(missions.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := fs.ReadFile(missions.FS(), p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// Edit a mission file during a game: the new behaviour is live within a
// second, scores are kept, nobody is dropped; a syntax error leaves the
// running version in place.
func TestUDPHotReload(t *testing.T) {
	dir := copyMissions(t)
	r := serveTest(t, func(uc *Config) { uc.Game.MissionsDir = dir })
	a := r.join(t, "Alice")
	b := r.join(t, "Bob")
	// Bob dies in a collision: the tables now hold a death for him.
	r.do(t, func(g *engine.Game) {
		pb := g.Player(3)
		ship := &engine.Object{ID: 0x3FFFFFFF + int32(pb.Slot)*0x40000, ClassID: codec.ClassShip, OwnerSlot: pb.Slot, Owner: &pb.Owner, Species: 1}
		pb.ShipID = ship.ID
		g.Emit(&engine.ShipDestroyed{Victim: ship, Cause: engine.CauseCollision})
		pb.ShipID = 0
	})
	death := codec.ScoreChange{Victim: 3, VictimDeaths: 1}.AppendTo(nil)
	await(t, a, "SCORE_CHANGE", death, 5*time.Second)

	main := filepath.Join(dir, "deathmatch", "main.lua")
	src, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	// v2 answers every chat line with a private "v2" line.
	v2 := string(src) + "\nbc.on(\"chat\", \"v2\", function(ev) bc.send(ev.from, bc.msg.chat{sender = ev.from, text = \"v2\"}) end)\n"
	saveByRename(t, main, v2)
	edited := time.Now()
	marker := codec.Chat{Sender: 2, Text: []byte("v2")}.AppendTo(nil)
	got := false
	for !got && time.Since(edited) < 20*time.Second {
		if err := a.Chat("ping", false); err != nil {
			t.Fatal(err)
		}
		deadline := time.After(50 * time.Millisecond)
	drain:
		for {
			select {
			case m := <-a.Inbox():
				if bytes.Equal(m.Payload, marker) {
					got = true
					break drain
				}
			case <-deadline:
				break drain
			}
		}
	}
	if !got {
		t.Fatalf("new behaviour not live %v after the edit", time.Since(edited))
	}
	// How fast is a benchmark figure, not a pass/fail criterion.
	t.Logf("new behaviour live %v after the edit", time.Since(edited))
	var version int
	r.do(t, func(g *engine.Game) { version = r.host.Version() })
	if version != 2 || !strings.Contains(r.logs.String(), `mission \"deathmatch\" reloaded (v2)`) {
		t.Fatalf("version %d; log:\n%s", version, r.logs.String())
	}

	// A syntax error keeps v2.
	saveByRename(t, main, v2+"\nbc.on(\n")
	r.errs.waitFor(t, lua.ErrReload, 20*time.Second, "deathmatch/main.lua")
	if err := a.Chat("still", false); err != nil {
		t.Fatal(err)
	}
	await(t, a, "v2 answer after the broken edit", marker, 3*time.Second)

	// Scores survived both: a late joiner is told Bob's death.
	c := r.join(t, "Carol")
	await(t, c, "Bob's row", codec.Score{Player: 3, Deaths: 1}.AppendTo(nil), 5*time.Second)
	for _, bb := range []*bot.Bot{a, b} {
		if bb.State() != bot.InGame {
			t.Fatalf("bot %d dropped", bb.ID())
		}
	}
	var players int
	r.do(t, func(g *engine.Game) { players = g.NumPlayers(true); version = r.host.Version() })
	if players != 3 || version != 2 {
		t.Fatalf("players %d version %d", players, version)
	}
}

// saveByRename writes a file the way most editors save: a temporary file
// renamed over the original.
func saveByRename(t *testing.T, path, content string) {
	t.Helper()
	tmp := path + ".swp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// A password set in the configuration is enforced (stock refusal, reason
// 2) and browsers see the server as locked (gamespy.md 2.1).
func TestUDPPasswordLockedAndEnforced(t *testing.T) {
	r := serveTest(t, func(uc *Config) { uc.Server.Password = "Warp9"; uc.Gamespy.Enabled = true })
	conn, err := netListenUDP()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	found, err := browse.Discover(ctx, conn, []netip.AddrPort{r.srv.Addr()}, 500*time.Millisecond)
	conn.Close()
	if err != nil || len(found) != 1 || found[0].Info["password"] != "1" || !strings.HasPrefix(found[0].Info["hostname"], "*") {
		t.Fatalf("discover: %+v %v", found, err)
	}
	for _, tc := range []struct {
		password string
		want     bot.State
	}{{"", bot.Closed}, {"warp9", bot.InGame}} {
		b, err := bot.New(bot.Config{Server: r.srv.Addr(), Name: "P" + tc.password, Password: tc.password})
		if err != nil {
			t.Fatal(err)
		}
		b.Start(ctx)
		t.Cleanup(b.Close)
		if err := b.WaitState(ctx, tc.want); err != nil {
			t.Fatal(err)
		}
		if tc.want == bot.Closed && b.BootReason() != bcnet.BootRefused {
			t.Fatalf("no password: boot reason %d", b.BootReason())
		}
	}
}
