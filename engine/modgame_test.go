package engine

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/scriptmsg"
	"github.com/bcserver/bcserver/internal/testutil"
	"github.com/bcserver/bcserver/net/alby"
)

func kmMsg(op byte, ints ...int32) []byte {
	var w codec.Writer
	w.U8(op)
	for _, v := range ints {
		w.I32(v)
	}
	return w.Bytes()
}

func spawnSpecies(t *testing.T, slot, player int, species byte) []byte {
	m, err := codec.DecodeObjCreate(vec(t, "simulation.json", "objcreateteam_akira_spawn"))
	if err != nil {
		panic(err)
	}
	m.OwnerSlot, m.OwnerPlayer = uint8(slot), uint8(player)
	m.ObjectID = codec.FirstObjectID(slot)
	m.Ship.Species = species
	return m.AppendTo(nil)
}

func countOp(ms [][]byte, op byte) int {
	n := 0
	for _, m := range ms {
		if len(m) > 0 && m[0] == op {
			n++
		}
	}
	return n
}

// The Kobayashi Maru example table (mods.md 6.3): 205 re-maps and goes to
// everyone once, sender included; 211 deletes and goes once; 212-214 stay
// on the host; foreign objects are refused; missions see decoded fields.
func TestModScriptMessages(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ScriptMessages = scriptmsg.KobayashiMaru()
	l := newLAN(t, cfg, "Kirk", "Sulu")
	a, b := l.cs[0], l.cs[1]
	var seen []*ScriptMessage
	handle := false
	l.g.On(EvScriptMessage, func(e Event) {
		ev := e.(*ScriptMessage)
		seen = append(seen, ev)
		if handle {
			ev.Handled = true
		}
	})
	l.send(a, spawnSpecies(t, 0, 2, 1), true)
	ship := l.g.Object(shipA)
	if ship == nil || ship.NetPlayerID != 2 {
		t.Fatal("no ship")
	}

	// 205 for the sender's ship: applied, forwarded to both.
	got := l.send(a, kmMsg(205, shipA, 3), true)
	if countOp(got[0], 205) != 1 || countOp(got[1], 205) != 1 || ship.NetPlayerID != 3 || ship.Create[2] != 3 {
		t.Fatalf("205: %d %d, net player id %d", countOp(got[0], 205), countOp(got[1], 205), ship.NetPlayerID)
	}
	if ev := seen[len(seen)-1]; ev.Decl == nil || ev.Decl.Name != "MP_NEW_NET_PLAYER_ID" || ev.Fields[1].Int != 3 {
		t.Fatalf("event %+v", ev)
	}
	// 205 by Sulu for Kirk's ship naming neither Sulu's ship nor Sulu:
	// refused; naming Sulu himself passes the hardening.
	spoofed := l.g.Stats.Spoofed.Load()
	if got := l.send(b, kmMsg(205, shipA, 2), true); countOp(got[0], 205)+countOp(got[1], 205) != 0 || l.g.Stats.Spoofed.Load() != spoofed+1 {
		t.Fatal("a foreign 205 was forwarded")
	}
	if got := l.send(b, kmMsg(205, shipA, 3), true); countOp(got[0], 205) != 1 {
		t.Fatal("a 205 giving the ship to its sender was refused")
	}
	// Malformed: counted, dropped.
	bad := l.g.Stats.Malformed.Load()
	if got := l.send(a, kmMsg(205, shipA), true); countOp(got[1], 205) != 0 || l.g.Stats.Malformed.Load() != bad+1 {
		t.Fatal("a short 205 went through")
	}
	// 212-214 stay on the host.
	for _, op := range []byte{212, 213, 214} {
		args := []int32{shipA}
		if op == 212 {
			args = []int32{0, shipA, 0}
		}
		if got := l.send(a, kmMsg(op, args...), true); countOp(got[0], op)+countOp(got[1], op) != 0 {
			t.Fatalf("%d forwarded", op)
		}
	}
	// A mission that takes a message stops the policy.
	handle = true
	if got := l.send(a, kmMsg(205, shipA, 2), true); countOp(got[1], 205) != 0 || ship.NetPlayerID != 3 {
		t.Fatal("a handled 205 was applied")
	}
	handle = false
	// 211: the ship leaves the books without a 0x14, once.
	got = l.send(a, kmMsg(211, shipA), true)
	if countOp(got[0], 211) != 1 || countOp(got[1], 211) != 1 || countOp(got[1], codec.OpDestroyObject) != 0 || l.g.Object(shipA) != nil {
		t.Fatalf("211: %v", got)
	}
	if got := l.send(a, kmMsg(211, shipA), true); countOp(got[1], 211) != 0 {
		t.Fatal("a second 211 for the same id was forwarded")
	}
	// An undeclared type goes to the mission as bytes only.
	l.send(a, []byte{0xC8, 1}, true)
	if ev := seen[len(seen)-1]; ev.Decl != nil || ev.Payload[0] != 0xC8 {
		t.Fatalf("undeclared: %+v", ev)
	}
}

// A ship of a species without class data is relayed and replayed to late
// joiners, gets no subsystem block, and is logged once per species with
// the stock reader's view of the byte (mods.md 4).
func TestRelayOnlyShip(t *testing.T) {
	var logs bytes.Buffer
	cfg := DefaultConfig()
	w := &testutil.Wire{Open: alby.Decrypt}
	g, err := NewGame(Options{Config: cfg, Out: w, Now: t0, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	l := &lan{t: t, g: g, w: w, now: t0}
	a := l.join("Kirk")
	l.join("Sulu")
	spawn := spawnSpecies(t, 0, 2, 200)
	got := l.send(a, spawn, true)
	if len(got[1]) == 0 || !bytes.Equal(got[1][len(got[1])-1], spawn) {
		t.Fatal("not relayed")
	}
	o := g.Object(shipA)
	if o == nil || o.Model != nil || o.Species != 200 {
		t.Fatalf("object %+v", o)
	}
	l.send(a, spawnSpecies(t, 0, 2, 200), true) // a respawn: no second log line
	if n := strings.Count(logs.String(), "ship class without data"); n != 1 || !strings.Contains(logs.String(), "stock_reads=-56") {
		t.Fatalf("%d log lines:\n%s", n, logs.String())
	}
	// Subsystem updates: none for it, to anyone.
	l.send(a, codec.StateUpdate{ObjectID: shipA, Flags: codec.StatePosition, Position: [3]float32{1, 2, 3}}.AppendTo(nil), false)
	for i := 0; i < 3; i++ {
		l.now = l.now.Add(cfg.TickInterval)
		g.Advance(l.now)
		l.pump(nil)
	}
	moved := false
	for i, c := range l.cs {
		for _, m := range c.ev.msgs {
			if m[0] != codec.OpStateUpdate {
				continue
			}
			su, err := codec.DecodeStateUpdate(m, codec.SubsystemsToEnd)
			if err != nil || su.ObjectID != shipA {
				continue
			}
			if su.Flags&codec.StateSubsystems != 0 {
				t.Fatalf("flag 0x20 for a relay-only ship: %X", m)
			}
			// The owner's movement reaches the others in host-shaped updates.
			moved = moved || i == 1 && su.Flags&codec.StatePosition != 0 && su.Position == [3]float32{1, 2, 3}
		}
	}
	if !moved {
		t.Fatal("the relay-only ship's movement did not reach the other player")
	}
	// A late joiner gets the creation bytes unchanged.
	late := l.join("Chekov")
	found := false
	for _, m := range late.ev.msgs {
		found = found || bytes.Equal(m, spawn)
	}
	if !found {
		t.Fatal("late joiner did not get the relay-only ship")
	}
}
