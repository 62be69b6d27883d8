package main

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/world"
)

// scriptedWeapons is a weapon model that hits with the given damages in
// turn, at once, so a test controls exactly what the mission books.
type scriptedWeapons struct {
	damage []float32
	n      int
}

func (w *scriptedWeapons) Fire(_ *world.World, _ world.Shot) (world.Hit, bool) {
	if w.n >= len(w.damage) {
		return world.Hit{}, false
	}
	w.n++
	return world.Hit{Damage: w.damage[w.n-1]}, true
}

// The killing hit counts (missions.md 3.4-3.5): with the Lua deathmatch,
// the damage of the hit that kills is booked before the death is scored,
// so 4000 + 16000 points of damage score 2000 and a one-shot kill of 25000
// scores 2500 (score = damage / 10). Before the fix the lethal hit came
// after the death: 400 and 0.
func TestKillingHitScores(t *testing.T) {
	tests := []struct {
		name   string
		shots  []float32
		points int32
	}{
		{"two hits", []float32{4000, 16000}, 2000},
		{"one shot", []float32{25000}, 2500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := serveTest(t, func(uc *UserConfig) {
				uc.Mission["restart_after"] = int64(-1)
				uc.Limits.FlowRate = 0
			})
			r.do(t, func(g *engine.Game) { g.SetWeaponModel(&scriptedWeapons{damage: tt.shots}) })
			a := r.join(t, "Attacker")
			b := r.join(t, "Target")
			shipA := codec.FirstObjectID(int(a.Settings().Slot))
			shipB := codec.FirstObjectID(int(b.Settings().Slot))
			// A's Sovereign 30 units behind B's Akira: B's rear shield
			// (5000) takes the hits first.
			spawn(t, a, 5, shipA, [3]float32{0, 0, 0})
			spawn(t, b, 1, shipB, [3]float32{0, 30, 0})
			beam := codec.BeamFire{BeamID: shipA + int32(forwardPhaser(t, 5)), Info: 2, Dir: codec.Dir3{0, 127, 0},
				Flags: codec.BeamArg | codec.BeamHasTarget, Target: shipB}.AppendTo(nil)
			for range tt.shots {
				if err := a.Send(beam, true); err != nil {
					t.Fatal(err)
				}
			}
			want := codec.ScoreChange{Killer: int32(a.ID()), KillerKills: 1, KillerScore: tt.points,
				Victim: int32(b.ID()), VictimDeaths: 1}.AppendTo(nil)
			await(t, b, "SCORE_CHANGE with the killing hit scored", want, 10*time.Second)
		})
	}
}
