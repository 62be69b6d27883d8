package server

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/engine/world"
	"github.com/bcserver/bcserver/internal/bot"
)

// The killing hit counts (missions.md 3.4-3.5): with the Lua deathmatch,
// the damage of the hit that kills is booked before the death is scored.
// A's torpedoes (Photon 500) hit B's Akira with its shield generator
// destroyed; a damage modifier makes each one 4,000 or 25,000 points
// (docs/lua-api.md "Custom rules"). Two hits that kill score 800, a
// one-shot kill 2,500 (score = damage / 10). Before the fix the lethal
// hit came after the death: 400 and 0.
func TestKillingHitScores(t *testing.T) {
	tests := []struct {
		name   string
		shots  int
		scale  float32 // DamageDealt: 500 × scale per torpedo
		points int32
	}{
		{"two hits", 2, 8, 800},
		{"one shot", 1, 50, 2500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := serveTest(t, func(uc *Config) {
				uc.Mission["restart_after"] = int64(-1)
				uc.Limits.FlowRate = 0
			})
			a := r.join(t, "Attacker")
			b := r.join(t, "Target")
			shipA := codec.FirstObjectID(int(a.Settings().Slot))
			shipB := codec.FirstObjectID(int(b.Settings().Slot))
			// A's Akira 30 units behind B's Akira, both facing +Y.
			spawn(t, a, 1, shipA, [3]float32{0, 0, 0})
			spawn(t, b, 1, shipB, [3]float32{0, 30, 0})
			shipsReady(t, r, shipA, shipB)
			r.do(t, func(g *engine.Game) {
				g.Object(shipA).SetModifiers(world.Modifiers{DamageDealt: tt.scale})
				m := g.Object(shipB).Model
				m.SetCondition(m.Class().ShieldGenerator, 0)
				// The hull holds all but the last torpedo.
				m.SetHull(float32(tt.shots)*500*tt.scale - 1000)
			})
			hits := watchHits(t, r)
			for i := range tt.shots {
				// Each from its own tube: a tube reloads in 40 s, and the
				// fair-play rules refuse a torpedo sooner.
				tube := shipA + int32(weaponOffset(t, 1, []string{"Forward Torp 1", "Forward Torp 2"}[i]))
				if err := a.Send(bot.TorpedoFire(tube, shipB, [3]float32{0, 1, 0}, a.ID()), true); err != nil {
					t.Fatal(err)
				}
				// The next torpedo once this one has landed.
				select {
				case <-hits:
				case <-time.After(10 * time.Second):
					t.Fatalf("torpedo %d never landed", i+1)
				}
			}
			want := codec.ScoreChange{Killer: int32(a.ID()), KillerKills: 1, KillerScore: tt.points,
				Victim: int32(b.ID()), VictimDeaths: 1}.AppendTo(nil)
			await(t, b, "SCORE_CHANGE with the killing hit scored", want, 10*time.Second)
		})
	}
}

// watchHits returns a channel that gets a value for every weapon hit the
// host applies.
func watchHits(t *testing.T, r *running) <-chan *engine.WeaponHit {
	t.Helper()
	ch := make(chan *engine.WeaponHit, 64)
	r.do(t, func(g *engine.Game) {
		g.On(engine.EvWeaponHit, func(e engine.Event) {
			select {
			case ch <- e.(*engine.WeaponHit):
			default:
			}
		})
	})
	return ch
}

// weaponOffset returns the id offset (object id = ship id + offset) of the
// subsystem called name in the class of species.
func weaponOffset(t *testing.T, species int, name string) int {
	t.Helper()
	reg, err := ships.Vanilla()
	if err != nil {
		t.Fatal(err)
	}
	c, _ := reg.Class(species)
	i, ok := c.SubsystemIndex(name)
	if !ok {
		t.Fatalf("%s has no %q", c.Name, name)
	}
	return c.Subsystems[i].IDOffset
}

// shipsReady waits until the game holds the ships ids with their owners'
// first StateUpdates (position and orientation): the bots' ObjCreate and StateUpdate travel over UDP, so a
// test asks the game loop (each Do runs between datagrams) until they are
// in, at most a few thousand times.
func shipsReady(t *testing.T, r *running, ids ...int32) {
	t.Helper()
	for range 5000 {
		ready := true
		r.do(t, func(g *engine.Game) {
			for _, id := range ids {
				o := g.Object(id)
				if o == nil {
					ready = false
					continue
				}
				if _, _, moved := o.Forward(); !moved {
					ready = false
				}
			}
		})
		if ready {
			return
		}
	}
	t.Fatalf("ships %#x not in the game", ids)
}
