package server

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/world"
	"github.com/bcserver/bcserver/internal/bot"
)

// spawn sends a bot's ObjCreateTeam for a ship of the given species with
// the given object id (the captured Akira body with its species replaced)
// and places it at pos facing +Y.
func spawn(t *testing.T, b *bot.Bot, species uint8, id int32, pos [3]float32) {
	t.Helper()
	// The species' own subsystem tail: the server checks it against the
	// class (simulation.md 3.4).
	raw, err := bot.Spawn(int(b.Settings().Slot), b.ID(), "ship", species, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Send(raw, true); err != nil {
		t.Fatal(err)
	}
	up := codec.StateUpdate{ObjectID: id, Flags: codec.StatePosition | codec.StateForward | codec.StateUp,
		Position: pos, Forward: codec.Dir3{0, 127, 0}, Up: codec.Dir3{0, 0, 127}}
	if err := b.Send(up.AppendTo(nil), false); err != nil {
		t.Fatal(err)
	}
}

// deathLog collects, per victim ship, the death messages a bot saw, in
// order: 'X' ObjectExploding, 'B' Explosion, 'S' SCORE_CHANGE.
type deathLog struct {
	seq     []byte
	explode []codec.ObjectExploding
	scores  []codec.ScoreChange
	endGame []int32
}

func (d *deathLog) take(p []byte) {
	switch p[0] {
	case codec.OpPythonEvent:
		if ev, err := codec.DecodeObjectExploding(p); err == nil {
			d.seq = append(d.seq, 'X')
			d.explode = append(d.explode, ev)
		}
	case codec.OpExplosion:
		d.seq = append(d.seq, 'B')
	case codec.OpScoreChange:
		if sc, err := codec.DecodeScoreChange(p); err == nil {
			d.seq = append(d.seq, 'S')
			sc.Extras = append([]byte(nil), sc.Extras...)
			d.scores = append(d.scores, sc)
		}
	case codec.OpEndGame:
		if e, err := codec.DecodeEndGame(p); err == nil {
			d.seq = append(d.seq, 'E')
			d.endGame = append(d.endGame, e.Reason)
		}
	}
}

// until reads b's messages into d until done() holds, and reports whether
// it did within the wait. Waiting is the only use of time: a slow machine
// makes the test slower, not different.
func until(b *bot.Bot, d *deathLog, wait time.Duration, done func() bool) bool {
	deadline := time.After(wait)
	for !done() {
		select {
		case m := <-b.Inbox():
			d.take(m.Payload)
		case <-deadline:
			return done()
		}
	}
	return true
}

// A match between two bots plays out end to end over UDP with the Lua
// deathmatch: B dies by ramming (collision kill credited to A), then by A's
// phasers — a stock client's StartFiring 0x07, the banks beaming on the
// host — again and again until A's score passes the frag limit (1 ×
// 10,000 points) and the game ends with reason 3. Both players see every
// death as the stock host sends it: ObjectExploding (then Explosion for
// weapon kills) then SCORE_CHANGE naming A. A's phasers deal 300 times
// their stock damage (a damage modifier, docs/lua-api.md "Custom rules"),
// so a quantum kills and the real-time test takes seconds, not the
// minutes a stock Sovereign needs to score 10,000.
func TestMatchPlaysOut(t *testing.T) {
	r := serveTest(t, func(uc *Config) {
		uc.Mission["frag_limit"] = int64(1)
		uc.Mission["restart_after"] = int64(-1)
		uc.Limits.FlowRate = 0
	})
	a := r.join(t, "Attacker")
	b := r.join(t, "Target")
	shipA := codec.FirstObjectID(int(a.Settings().Slot))
	shipB := codec.FirstObjectID(int(b.Settings().Slot))
	// B's Akira (mass 70) flies nose first into the stern of
	// A's Sovereign (mass 100). The same collision hurts the Akira more
	// (force / mass × 900 + 500 per contact, no shields: simulation.md
	// 5.2), and its bow holds its hull, so B dies first; the Sovereign's
	// stern takes it on the hull, far from its bridge.
	spawn(t, a, 5, shipA, [3]float32{0, 0, 0})
	spawn(t, b, 1, shipB, [3]float32{0, -30, 0})
	var da, db deathLog

	// Ramming: B reports A's ship hitting its bow, again after the host's
	// 1 s per-pair cooldown until the Akira gives way.
	ram := codec.CollisionEffect{Code: codec.EventObjectCollision, Src: shipA, Target: shipB,
		Contacts: codec.AppendContact(nil, codec.CollisionContact{Dir: codec.Dir3{0, 127, 0}, Dist: 216}), Force: 700}.AppendTo(nil)
	died := func() bool { return len(db.scores) > 0 }
	for i := 0; i < 30 && !died(); i++ {
		if err := b.Send(ram, true); err != nil {
			t.Fatal(err)
		}
		until(b, &db, 1500*time.Millisecond, died)
	}
	if !until(a, &da, 10*time.Second, func() bool { return len(da.scores) > 0 }) {
		t.Fatalf("A saw no death after the ramming: %q", da.seq)
	}
	for name, d := range map[string]*deathLog{"A": &da, "B": &db} {
		if len(d.explode) != 1 || string(d.seq) != "XS" {
			t.Fatalf("%s after the ramming: %q", name, d.seq)
		}
		ev, sc := d.explode[0], d.scores[0]
		if ev.Src != 0 || ev.Dst != shipB || ev.FiringPlayer != int32(a.ID()) || ev.Lifetime != 12.9 {
			t.Fatalf("%s: ObjectExploding %+v", name, ev)
		}
		if sc.Killer != int32(a.ID()) || sc.KillerKills != 1 || sc.Victim != int32(b.ID()) || sc.VictimDeaths != 1 {
			t.Fatalf("%s: SCORE_CHANGE %+v", name, sc)
		}
	}

	// Phasers until the game ends.
	r.do(t, func(g *engine.Game) { g.Object(shipA).SetModifiers(world.Modifiers{DamageDealt: 300}) })
	phasers := shipA + int32(weaponOffset(t, 5, "Phasers"))
	victim := shipB
	respawned := 0
	deadline := time.Now().Add(60 * time.Second)
	for len(db.endGame) == 0 && time.Now().Before(deadline) {
		if n := len(db.explode); n > respawned {
			// The last death was seen: respawn with a new id, as a client
			// does after its explosion (simulation.md 11). Beams that
			// overtake the creation on the way are refused and sent again.
			respawned = n
			victim = shipB + int32(n)*0x100
			spawn(t, b, 1, victim, [3]float32{0, 30, 0})
		}
		// The stock client sends StartFiring as a pair; one that overtakes
		// the respawn names no ship yet and is sent again.
		for range 2 {
			if err := a.Send(bot.StartFiring(phasers, victim), true); err != nil {
				t.Fatal(err)
			}
		}
		n := len(db.explode)
		until(b, &db, 500*time.Millisecond, func() bool { return len(db.explode) > n || len(db.endGame) > 0 })
	}
	deaths := len(db.explode)
	until(a, &da, 10*time.Second, func() bool { return len(da.endGame) > 0 })
	if len(db.endGame) != 1 || db.endGame[0] != codec.EndScoreLimitReached || len(da.endGame) != 1 {
		t.Fatalf("no END_GAME(3): A %q B %q after %d deaths", da.seq, db.seq, deaths)
	}
	for name, d := range map[string]*deathLog{"A": &da, "B": &db} {
		// Every weapon death: ObjectExploding, Explosion, SCORE_CHANGE;
		// the last SCORE_CHANGE comes before END_GAME.
		want := "XS"
		for range len(d.explode) - 1 {
			want += "XBS"
		}
		want += "E"
		if string(d.seq) != want {
			t.Fatalf("%s: death messages %q, want %q", name, d.seq, want)
		}
		for i, sc := range d.scores {
			if sc.Killer != int32(a.ID()) || sc.KillerKills != int32(i+1) || sc.VictimDeaths != int32(i+1) {
				t.Fatalf("%s: SCORE_CHANGE %d %+v", name, i, sc)
			}
		}
		if last := d.scores[len(d.scores)-1]; last.KillerScore < 10000 {
			t.Fatalf("%s: final score %d below the limit", name, last.KillerScore)
		}
	}
	t.Logf("game ended after %d deaths; A's final score %d", len(db.explode), db.scores[len(db.scores)-1].KillerScore)
}
