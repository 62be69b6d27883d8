package world

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// A player's tractor holds a ship only inside its projector's
// MaxDamageDistance — a Galaxy's (118) held at 115, never at 125 [measured
// R1] — and drags a host ship's speed down by MaxDamage / its mass per
// second [measured R3] (simulation.md 5.7, Correction 47).
func TestTractorReachAndPull(t *testing.T) {
	for _, tt := range []struct {
		dist float32
		held bool
	}{{115, true}, {125, false}} {
		b := newBattle(t, 1, stockOptions())
		g := b.spawn(0, 3, [3]float32{}, [3]float32{0, 1, 0})
		// A Galor at the distance along +Y, coasting to a stop from 3
		// units/s: its engines take MaxAccel × dt off each tick, and a
		// tractor that holds it MaxDamage / mass × dt more.
		x := b.hostShip(HostShipSpec{Species: 10, Name: "Galor", Set: "Multi1", Position: [3]float32{0, tt.dist, 0}, Team: 1})
		if err := b.w.SetSpeed(x, 0); err != nil {
			t.Fatal(err)
		}
		x.host.move.speed = 3
		b.fire(0, startFiring(systemID(t, g, "Tractors"), x.ID))
		b.advance(100 * time.Millisecond)
		c := x.Model.Class()
		want := 3 - c.MaxAccel*0.1
		var wantBy int32
		if tt.held {
			want -= 80 / c.Mass * 0.1 // the Galaxy's projectors: MaxDamage 80
			wantBy = g.ID
		}
		if by, speed := x.TractoredBy(b.now), x.host.move.speed; by != wantBy || !near(float64(speed), float64(want), 1e-4) {
			t.Errorf("at %v: tractored by %d, speed %v, want %d and %v", tt.dist, by, speed, wantBy, want)
		}
		// Stopping the tractor lets go within tractorHold.
		b.fire(0, codec.SubsystemEvent{Op: codec.OpStopFiring, Code: codec.EventStopFiringNet, Dst: systemID(t, g, "Tractors")}.AppendTo(nil))
		b.tick(time.Second)
		if by := x.TractoredBy(b.now); by != 0 {
			t.Errorf("still tractored by %d after StopFiring", by)
		}
	}
}

// A ship inside the Multi6 nebula loses 1/16 a tick, 16 ticks a second,
// off every shield facing above 100 while its shields are up, and off the
// hull once they are down; never off another subsystem; outside the
// nebula, or in another system, nothing (simulation.md 5.8, Correction 47).
func TestNebulaDamage(t *testing.T) {
	for _, tt := range []struct {
		name    string
		set     string
		pos     [3]float32
		shields bool
		inside  bool
	}{
		{"shields up", "Multi6", [3]float32{50, 150, 150}, true, true},
		{"shields down", "Multi6", [3]float32{50, -150, 150}, false, true},
		{"outside", "Multi6", [3]float32{50, 0, 600}, false, false},
		{"other system", "Multi1", [3]float32{50, 150, 150}, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := newBattle(t, 1, stockOptions())
			x := b.hostShip(HostShipSpec{Species: 10, Name: "Galor", Set: tt.set, Position: tt.pos, Team: 1})
			x.Model.SetCondition(x.Model.Class().Repair, 0)
			// A twin outside the nebula regenerates the same: the
			// difference is what the nebula took.
			twin := b.hostShip(HostShipSpec{Species: 10, Name: "Twin", Set: tt.set, Position: [3]float32{0, 0, 900}, Team: 1})
			for _, o := range []*Object{x, twin} {
				for i, hp := range o.Model.Class().ShieldHP {
					o.sim.shields[i] = hp / 2
				}
			}
			if !tt.shields {
				x.Model.SetCondition(x.Model.Class().ShieldGenerator, 0)
			}
			before := conditions(x)
			shields := x.sim.shields
			b.tick(2 * time.Second)
			c := x.Model.Class()
			hull := before[c.Hull] - x.Model.Condition(c.Hull)
			switch {
			case !tt.inside:
				if hull != 0 {
					t.Errorf("outside the nebula: hull lost %v", hull)
				}
			case tt.shields:
				for i, s := range x.sim.shields {
					if took := twin.sim.shields[i] - s; shields[i] > nebulaShieldFloor+2 && !near(float64(took), float64(2*nebulaShieldRate), 1e-3) {
						t.Errorf("facing %d: the nebula took %v in 2 s, want %v", i, took, 2*nebulaShieldRate)
					}
				}
				if hull != 0 {
					t.Errorf("hull lost %v behind its shields", hull)
				}
			default:
				if !near(float64(hull), float64(2*nebulaHullRate*hpScale(x.Model, c.Hull)), 1e-3) {
					t.Errorf("hull lost %v in 2 s, want %v", hull, 2*nebulaHullRate)
				}
			}
			for i := range before {
				if i != c.Hull && i != c.ShieldGenerator && x.Model.Condition(i) != before[i] {
					t.Errorf("%s lost condition", c.Subsystems[i].Name)
				}
			}
		})
	}
}
