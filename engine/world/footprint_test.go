package world

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// Where damage lands (simulation.md 5.2-5.3, Corrections 40-43): the
// single-player measurements of the stock executable, replayed through the
// messages a stock client sends. The target is a Galaxy at the origin with
// its nose along +Y, shields down and repair off, so every point a shot
// takes off a subsystem stays visible.

// galaxyTarget spawns the Galaxy as player 1's ship, bare.
func galaxyTarget(b *battle) *Object {
	g := b.spawn(1, 3, [3]float32{}, [3]float32{0, 1, 0})
	g.sim.shields = [6]float32{}
	g.Model.SetCondition(g.Model.Class().Repair, 0)
	return g
}

// damaged names the subsystems of o that lost condition since before.
func damaged(o *Object, before []float32) []string {
	var out []string
	c := o.Model.Class()
	for i := range before {
		if o.Model.Condition(i) < before[i] {
			out = append(out, c.Subsystems[i].Name)
		}
	}
	slices.Sort(out)
	return out
}

func conditions(o *Object) []float32 {
	out := make([]float32, len(o.Model.Class().Subsystems))
	for i := range out {
		out[i] = o.Model.Condition(i)
	}
	return out
}

// The measured footprints of §6.1 H2 and §4 (`torpedo_galaxy_front_57_noshields`,
// `phaser_high_{stbd,bottom,aft}_57_noshields`): photons from ahead take the
// sensor array and all four forward tubes besides the hull; beams from
// starboard destroy Star Warp, from below reach the warp core and from
// astern touch nothing but the hull. Beams aim at the target's power plant
// (no StartFiring offset), the torpedoes at the point their 0x19 names, here
// the power plant too. Every hit takes its whole amount off the hull.
func TestMeasuredFootprints(t *testing.T) {
	const d = 57
	tests := []struct {
		name     string
		species  int // the shooter: 1 Akira (photons), 5 Sovereign (beams)
		pos, fwd [3]float32
		torpedo  bool
		want     []string
	}{
		{"photons from ahead", 1, [3]float32{0, d, 0}, [3]float32{0, -1, 0}, true,
			[]string{"Forward Torpedo 1", "Forward Torpedo 2", "Forward Torpedo 3", "Forward Torpedo 4", "Hull", "Sensor Array"}},
		{"beams from starboard", 5, [3]float32{d, 0, 0}, [3]float32{-1, 0, 0}, false, []string{"Hull", "Star Warp"}},
		{"beams from below", 5, [3]float32{0, -1.4, -d}, [3]float32{0, 0, 1}, false, []string{"Hull", "Warp Core"}},
		{"beams from astern", 5, [3]float32{0, -d, 0}, [3]float32{0, 1, 0}, false, []string{"Hull"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBattle(t, 2, stockOptions())
			a := b.spawn(0, tt.species, tt.pos, tt.fwd)
			g := galaxyTarget(b)
			before := conditions(g)
			hits := b.hitsOn(g)
			c := g.Model.Class()
			core := c.Subsystems[c.Reactor].Data.Position
			if tt.torpedo {
				tube := systemID(t, a, "Forward Torp 1")
				for range 4 {
					b.fire(0, codec.TorpedoFire{TubeID: tube, FiringPlayer: 2, Flags: codec.TorpedoArg,
						Dir: codec.NewDir3(tt.fwd[0], tt.fwd[1], tt.fwd[2]), Target: g.ID,
						Point: codec.NewScaledPoint(core, g.Radius())}.AppendTo(nil))
					b.tick(4 * time.Second) // 57 units at 19 units/s, and the tube ready again
				}
				if len(*hits) != 4 {
					t.Fatalf("%d photons hit", len(*hits))
				}
			} else {
				b.fire(0, startFiring(systemID(t, a, "Phasers"), g.ID))
				b.tick(4 * time.Second)
				if len(*hits) == 0 {
					t.Fatal("no beam hit")
				}
			}
			var total float64
			for _, h := range *hits {
				total += h.Damage
			}
			if lost := float64(before[c.Hull] - g.Model.Hull()); math.Abs(lost-total) > 0.5 {
				t.Errorf("hull lost %.1f, the hits dealt %.1f", lost, total)
			}
			if got := damaged(g, before); !slices.Equal(got, tt.want) {
				t.Errorf("damaged %q, want %q", got, tt.want)
			}
		})
	}
}

// A ram's hull loss is the §5.2 value of the impulse exchanged, J = 2 μ v,
// divided by each ship's own mass: 900 J / m + 500 [measured §7.4, C2:
// Galaxy→Galaxy at 6.21 GU/s 6,089; Kessok Heavy→Galaxy at 3.70 5,870 on
// the Galaxy and 1,789 on the Kessok; Bird of Prey→Galaxy at 6.17 3,527 on
// the Galaxy, and the Bird of Prey destroyed] (Corrections 40-41). One
// contact at the rammed ship's bow, wherever the hull's own sphere is; no
// shield takes anything.
func TestMeasuredRams(t *testing.T) {
	tests := []struct {
		name            string
		rammer          int     // species: 3 Galaxy, 13 Kessok Heavy, 6 Bird of Prey
		mass, v         float32 // the rammer's mass and closing speed
		galaxy, against float32 // measured hull losses of the Galaxy and the rammer
	}{
		{"Galaxy", 3, 120, 6.21, 6089, 6089},
		{"Kessok Heavy", 13, 500, 3.70, 5870, 1789},
		{"Bird of Prey", 6, 45, 6.17, 3527, 4000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBattle(t, 2, stockOptions())
			r := b.spawn(0, tt.rammer, [3]float32{0, 9, 0}, [3]float32{0, -1, 0})
			g := b.spawn(1, 3, [3]float32{}, [3]float32{0, 1, 0})
			g.Model.SetCondition(g.Model.Class().Repair, 0)
			gb, rb := conditions(g), conditions(r)
			shields := g.Shields()
			mu := tt.mass * 120 / (tt.mass + 120)
			ce := codec.CollisionEffect{Code: codec.EventObjectCollision, Src: r.ID, Target: g.ID, Force: 2 * mu * tt.v}
			ce.Contacts = codec.AppendContact(nil, codec.CollisionContact{Dir: codec.Dir3{0, 127, 0}, Dist: 217})
			if err := b.w.Collision(b.now, b.owners[1], &ce); err != nil {
				t.Fatal(err)
			}
			lost := gb[g.Model.Class().Hull] - g.Model.Hull()
			if !near(float64(lost), float64(tt.galaxy), 0.002) {
				t.Errorf("Galaxy hull lost %.0f, measured %.0f", lost, tt.galaxy)
			}
			rc := r.Model.Class()
			want := min(rb[rc.Hull], 900*ce.Force/tt.mass+500)
			if lost := rb[rc.Hull] - r.Model.Hull(); !near(float64(lost), float64(tt.against), 0.002) || lost != want {
				t.Errorf("%s hull lost %.0f, measured %.0f (formula %.0f)", tt.name, lost, tt.against, want)
			}
			if g.Shields() != shields {
				t.Errorf("Galaxy shields %v -> %v", shields, g.Shields())
			}
			if tt.against >= rb[rc.Hull] && r.Alive() {
				t.Errorf("%s survived a ram worth its whole hull", tt.name)
			}
			// The bow's footprint: what the hit test finds there, never
			// the warp core (a Galaxy survived 5,870 + 4,487 of rams with
			// a 7,000 core, Correction 41).
			if g.Model.Condition(g.Model.Class().Reactor) < gb[g.Model.Class().Reactor] {
				t.Error("a ram at the bow damaged the warp core")
			}
		})
	}
}
