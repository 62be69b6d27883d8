package world

import (
	"math"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

func galorSpec(pos [3]float32) HostShipSpec {
	return HostShipSpec{Species: 10, Name: "Galor", Set: "Multi1", Position: pos, Team: 1}
}

// viewerPos follows what a client makes of the host's updates for one
// ship: the last absolute position plus the last delta.
type viewerPos struct {
	base, delta [3]float32
	seen        int
}

func (v *viewerPos) read(t *testing.T, msgs [][]byte, id int32) [3]float32 {
	t.Helper()
	for _, m := range msgs[v.seen:] {
		if m[0] != codec.OpStateUpdate {
			continue
		}
		u, err := codec.DecodeStateUpdate(m, codec.SubsystemsToEnd)
		if err != nil {
			t.Fatal(err)
		}
		if u.ObjectID != id {
			continue
		}
		if u.Flags&codec.StatePosition != 0 {
			v.base, v.delta = u.Position, [3]float32{}
		}
		if u.Flags&codec.StateDelta != 0 {
			x, y, z := u.Delta.Vector()
			v.delta = [3]float32{x, y, z}
		}
	}
	v.seen = len(msgs)
	return [3]float32{v.base[0] + v.delta[0], v.base[1] + v.delta[1], v.base[2] + v.delta[2]}
}

// A host ship flies to a point within its class's limits (turn rate, top
// speed, acceleration), stops there, and the players' picture of it built
// from the host's updates follows it closely.
func TestHostShipMoveTo(t *testing.T) {
	b := newBattle(t, 1, stockOptions())
	g := b.hostShip(galorSpec([3]float32{}))
	c := g.Model.Class()
	goal := [3]float32{100, 0, 0}
	if err := b.w.MoveTo(g, goal, nil, 0, 0); err != nil {
		t.Fatal(err)
	}
	var view viewerPos
	prevFwd, _, _ := g.Forward()
	prevSpeed := float32(0)
	arrived := false
	for i := 0; i < 1200 && !arrived; i++ {
		b.advance(100 * time.Millisecond)
		fwd, up, _ := g.Forward()
		if turn := math.Acos(math.Min(1, float64(dot3(fwd, prevFwd)))); turn > float64(c.MaxAngularVelocity)*0.1+1e-4 {
			t.Fatalf("tick %d: turned %.4f rad", i, turn)
		}
		if d := dot3(fwd, up); math.Abs(float64(d)) > 1e-3 {
			t.Fatalf("forward and up not perpendicular: %v", d)
		}
		if s := g.Speed(); s > c.MaxSpeed+1e-4 || math.Abs(float64(s-prevSpeed)) > float64(c.MaxAccel)*0.1+1e-4 {
			t.Fatalf("tick %d: speed %v after %v", i, s, prevSpeed)
		}
		prevFwd, prevSpeed = fwd, g.Speed()
		p, _ := g.Position()
		seen := view.read(t, b.h.msgs[b.owners[0]], g.ID)
		if gap := norm(sub3(p, seen)); gap > 2 {
			t.Fatalf("tick %d: clients see %v, the ship is at %v", i, seen, p)
		}
		arrived = norm(sub3(p, goal)) <= DefaultArrival && g.Speed() == 0
	}
	if !arrived {
		p, _ := g.Position()
		t.Fatalf("never arrived: at %v speed %v", p, g.Speed())
	}
	if v := g.Velocity(); v != ([3]float32{}) {
		t.Fatalf("velocity at rest %v", v)
	}
}

// Face holds a heading (toward a point, a direction or another ship) and
// SetSpeed flies along it; Stop halts.
func TestHostShipFaceAndSpeed(t *testing.T) {
	b := newBattle(t, 1, stockOptions())
	g := b.hostShip(galorSpec([3]float32{}))
	other := b.hostShip(galorSpec([3]float32{0, 0, 200}))
	if err := b.w.Face(g, [3]float32{}, false, other); err != nil {
		t.Fatal(err)
	}
	if err := b.w.SetSpeed(g, 3); err != nil {
		t.Fatal(err)
	}
	for range 200 {
		b.advance(100 * time.Millisecond)
	}
	fwd, _, _ := g.Forward()
	if fwd[2] < 0.99 {
		t.Fatalf("not facing the other ship: %v", fwd)
	}
	v := g.Velocity()
	if p, _ := g.Position(); p[2] <= 0 || math.Abs(float64(v[2]-3)) > 0.05 {
		t.Fatalf("at %v velocity %v", p, v)
	}
	if err := b.w.Stop(g); err != nil {
		t.Fatal(err)
	}
	for range 40 {
		b.advance(100 * time.Millisecond)
	}
	if g.Speed() != 0 {
		t.Fatalf("speed %v after stop", g.Speed())
	}
	// Orders to player ships are refused.
	bs := newSimBattle(t, 1)
	if err := bs.w.SetSpeed(bs.w.Object(shipA), 1); err == nil {
		t.Fatal("a player ship took orders")
	}
}
