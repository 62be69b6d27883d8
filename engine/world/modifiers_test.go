package world

import (
	"math"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// Custom-rule modifiers scale the stock model's numbers at the step each
// names, per ship, per class and per team, multiplied together.
func TestModifiers(t *testing.T) {
	photon := func(b *battle, a, g *Object) {
		b.fire(0, codec.TorpedoFire{TubeID: systemID(t, a, "Forward Torp 1"), FiringPlayer: 2, Flags: codec.TorpedoArg,
			Dir: codec.Dir3{0, 127, 0}, Target: g.ID}.AppendTo(nil))
		b.tick(3 * time.Second)
	}
	setup := func(t *testing.T) (*battle, *Object, *Object) {
		b := newBattle(t, 2, stockOptions())
		a := b.spawn(0, 1, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
		g := b.spawn(1, 3, [3]float32{0, 30, 0}, [3]float32{0, 1, 0})
		g.Model.SetCondition(g.Model.Class().Repair, 0) // nothing comes back between the checks
		return b, a, g
	}
	for _, tt := range []struct {
		name   string
		mods   func(b *battle, a, g *Object)
		shield bool // shields up (else down)
		hit    float64
		hull   float32 // hull lost
	}{
		{"stock", func(*battle, *Object, *Object) {}, false, 500, 500},
		{"damage dealt x2", func(_ *battle, a, _ *Object) { a.SetModifiers(Modifiers{DamageDealt: 2}) }, false, 1000, 1000},
		{"hull damage x0.5", func(_ *battle, _, g *Object) { g.SetModifiers(Modifiers{HullDamage: 0.5}) }, false, 500, 250},
		{"class x2 and team x0.5", func(b *battle, _, g *Object) {
			b.owners[1].Team = 1
			b.w.SetModifierRules(ModifierRules{Classes: map[int]Modifiers{3: {HullDamage: 2}}, Teams: map[int]Modifiers{1: {HullDamage: 0.5}}})
		}, false, 500, 500},
		{"class x3, the ship's own x2", func(b *battle, _, g *Object) {
			b.w.SetModifierRules(ModifierRules{Classes: map[int]Modifiers{3: {HullDamage: 3}}})
			g.SetModifiers(Modifiers{HullDamage: 2})
		}, false, 500, 3000},
		{"no hull damage", func(_ *battle, _, g *Object) { g.SetModifiers(Modifiers{HullDamage: None}) }, false, 500, 0},
		{"shields absorb at twice the cost", func(_ *battle, _, g *Object) { g.SetModifiers(Modifiers{ShieldDamage: 2}) }, true, 500, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, a, g := setup(t)
			if !tt.shield {
				g.sim.shields = [6]float32{}
			}
			tt.mods(b, a, g)
			hits := b.hitsOn(g)
			hull0, rear0 := g.Model.Hull(), g.Shields()[facingRear]
			photon(b, a, g)
			if len(*hits) != 1 || (*hits)[0].Damage != tt.hit {
				t.Fatalf("hits %+v, want one of %v", *hits, tt.hit)
			}
			if lost := hull0 - g.Model.Hull(); math.Abs(float64(lost-tt.hull)) > 0.01 {
				t.Errorf("hull lost %v, want %v", lost, tt.hull)
			}
			if tt.shield {
				// The rear facing (4,000, full) stops the whole 500 and
				// pays twice for it; regeneration adds its steps.
				if lost := rear0 - g.Shields()[facingRear]; lost < 970 || lost > 1000 {
					t.Errorf("rear facing lost %v, want 1000 less its regeneration", lost)
				}
			}
		})
	}
	// Collisions, shield recharge and repair.
	b, _, g := setup(t)
	g.SetModifiers(Modifiers{CollisionDamage: 0.5, ShieldRecharge: 2})
	if e := b.w.Effective(g); e.CollisionDamage != 0.5 || e.ShieldRecharge != 2 || e.DamageDealt != 1 {
		t.Fatalf("effective %+v", e)
	}
	g.sim.shields[facingFront] = 1000
	b.tick(700 * time.Millisecond)
	if got := g.Shields()[facingFront]; math.Abs(float64(got)-(1000+2*6.15)) > 0.01 {
		t.Errorf("regeneration step with ShieldRecharge 2: %v", got)
	}
	bow := g.Model.Class().Subsystems[g.Model.Class().Hull].Data.Position
	before := g.Model.Hull()
	b.w.collide(g, [][3]float32{bow}, 2000, hitInfo{cause: CauseEnvironment})
	if lost := before - g.Model.Hull(); lost != 1000 {
		t.Errorf("a 2,000-point ram at CollisionDamage 0.5 took %v off the hull", lost)
	}
}
