package world

import (
	"bytes"
	"math"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

func TestCollisionDamageFormula(t *testing.T) {
	tests := []struct {
		name     string
		force    float32
		mass     float32
		contacts int
		want     float32
		ok       bool
	}{
		{"spec example: Sovereign, one contact", 1281.02, 100, 1, 12029.18, true},
		{"two contacts share the force", 1281.02, 100, 2, 6264.59, true},
		{"dead zone", 1.0, 100, 1, 0, false},
		{"just above the dead zone", 1.1, 100, 1, 509.9, true},
		{"no contacts", 1000, 100, 0, 0, false},
		{"negative force", -5, 100, 1, 0, false},
		{"NaN force", float32(math.NaN()), 100, 1, 0, false},
		{"no cap", 100000, 1, 1, 90000500, true},
	}
	for _, tt := range tests {
		got, ok := CollisionDamage(tt.force, tt.mass, tt.contacts)
		if ok != tt.ok || math.Abs(float64(got-tt.want)) > float64(tt.want)*1e-4+0.01 {
			t.Errorf("%s: got %v %v, want %v %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestFacing(t *testing.T) {
	tests := []struct {
		v    [3]float32
		want int
	}{
		{[3]float32{0.1, 0.99, 0}, facingFront},
		{[3]float32{0, -1, 0.2}, facingRear},
		{[3]float32{0.1, 0.2, 0.9}, facingTop},
		{[3]float32{0, 0, -1}, facingBottom},
		{[3]float32{-1, 0, 0}, facingLeft},
		{[3]float32{0.9, 0.1, 0}, facingRight},
	}
	for _, tt := range tests {
		if got := facing(tt.v); got != tt.want {
			t.Errorf("facing(%v) = %d, want %d", tt.v, got, tt.want)
		}
	}
}

// The captured single-contact collision on the captured Sovereign: the
// front shield absorbs 11,000 of the 12,029 points and the rest reaches the
// hull; the hull's repair is announced to everyone; a second report inside
// the cooldown does nothing.
func TestCollisionOnCapturedSovereign(t *testing.T) {
	b := newSimBattle(t, 2)
	ship := b.w.Object(shipA)
	if ship == nil || ship.Model == nil || ship.Model.Class().Name != "Sovereign" {
		t.Fatalf("ship %+v", ship)
	}
	m := b.mark()
	if err := b.collide(0, vec(t, "simulation.json", "collision_effect_P1_single_contact")); err != nil {
		t.Fatal(err)
	}
	if b.w.Stats().Collisions.Load() != 1 {
		t.Fatalf("collision not applied: dropped %d", b.w.Stats().CollisionsDropped.Load())
	}
	sh := ship.Shields()
	if sh[facingFront] != 0 || sh[facingRear] != 5500 {
		t.Fatalf("shields %v", sh)
	}
	hull := hp(ship.Model, ship.Model.Class().Hull)
	want := float32(12000 - (12029.18 - 11000))
	if math.Abs(float64(hull-want)) > 1 {
		t.Fatalf("hull %v, want %v", hull, want)
	}
	// The hull was hit: its repair is announced to everyone with the
	// subsystem ids of the owner's block.
	for i := range b.owners {
		rep := filterOp(b.since(m, i), codec.OpPythonEvent)
		if len(rep) != 1 {
			t.Fatalf("viewer %d repair events %X", i, rep)
		}
		ev, _ := codec.DecodeSubsystemEvent(rep[0])
		if ev.Code != codec.EventAddToRepairList || ev.Src != ship.Model.SubsystemID(ship.Model.Class().Hull) || ev.Dst != ship.Model.SubsystemID(ship.Model.Class().Repair) {
			t.Fatalf("repair event %+v", ev)
		}
	}
	// A second report inside the cooldown does nothing.
	_ = b.collide(0, vec(t, "simulation.json", "collision_effect_P1_single_contact"))
	if b.w.Stats().Collisions.Load() != 1 || b.w.Stats().CollisionsDropped.Load() != 1 {
		t.Fatal("cooldown not enforced")
	}
}

// Ramming the environment until death produces the captured stock
// ObjectExploding bytes (source 0, firing player 0, lifetime 12.9), no
// Explosion, and ship_destroyed with cause environment.
func TestEnvironmentCollisionDeath(t *testing.T) {
	b := newSimBattle(t, 2)
	var deaths []*ShipDestroyed
	b.on(EvShipDestroyed, func(e Event) { deaths = append(deaths, e.(*ShipDestroyed)) })
	report := vec(t, "simulation.json", "collision_effect_P1_single_contact")
	m := b.mark()
	for i := 0; i < 20 && len(deaths) == 0; i++ {
		b.now = b.now.Add(1100 * time.Millisecond)
		_ = b.collide(0, report)
	}
	if len(deaths) != 1 || deaths[0].Cause != CauseEnvironment || deaths[0].KillerID != 0 || deaths[0].Victim.ID != shipA {
		t.Fatalf("deaths %+v", deaths)
	}
	all := b.since(m, 1)
	exploding := filterOp(all, codec.OpPythonEvent)
	last := exploding[len(exploding)-1]
	if !bytes.Equal(last, vec(t, "simulation.json", "object_exploding_collision_kill")) {
		t.Fatalf("ObjectExploding %X", last)
	}
	if len(filterOp(all, codec.OpExplosion)) != 0 {
		t.Fatal("Explosion sent for a collision kill")
	}
	// Further reports about the wreck are dropped; after the explosion's
	// lifetime the wreck is gone; a new ship replaces it.
	before := b.w.Stats().Collisions.Load()
	b.now = b.now.Add(2 * time.Second)
	_ = b.collide(0, report)
	if b.w.Stats().Collisions.Load() != before {
		t.Fatal("wreck took damage")
	}
	b.advance(13 * time.Second)
	if b.w.Object(shipA) != nil {
		t.Fatal("wreck not removed after its lifetime")
	}
	respawn := bytes.Clone(vec(t, "simulation.json", "objcreateteam_sovereign_collision_test"))
	copy(respawn[7:], []byte{0x21, 0x00, 0x00, 0x40}) // id 0x40000021, as in the stock respawn
	b.create(0, respawn)
	if o := b.w.Object(0x40000021); o == nil || !o.Alive() || b.owners[0].ShipID != 0x40000021 || o.Model.Hull() != o.Model.Class().Subsystems[o.Model.Class().Hull].MaxCondition {
		t.Fatalf("respawn %+v", o)
	}
}

// Ship against ship: the reporter's ship and the other ship both take
// damage from one report; the other side's report of the same collision
// hits the cooldown; a death credits the other ship's owner.
func TestShipCollisionKillCredit(t *testing.T) {
	b := newSimBattle(t, 2)
	b.move(0, shipA, [3]float32{0, 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	b.move(1, akiraB, [3]float32{0, 6, 0}, codec.Dir3{0, -127, 0}, codec.Dir3{0, 0, 127})
	var deaths []*ShipDestroyed
	b.on(EvShipDestroyed, func(e Event) { deaths = append(deaths, e.(*ShipDestroyed)) })
	a, sb := b.w.Object(shipA), b.w.Object(akiraB)
	hullA0, hullB0 := a.Model.Hull(), sb.Model.Hull()
	// B reports A ramming it (target = B's ship, source = A's).
	_ = b.collide(1, collisionMsg(shipA, akiraB, 200, codec.CollisionContact{Dir: codec.Dir3{0, -127, 0}, Dist: 216}))
	// A reports the same collision: cooldown.
	_ = b.collide(0, collisionMsg(akiraB, shipA, 200, codec.CollisionContact{Dir: codec.Dir3{0, 127, 0}, Dist: 216}))
	if b.w.Stats().Collisions.Load() != 1 {
		t.Fatalf("collisions %d", b.w.Stats().Collisions.Load())
	}
	if a.Model.Hull() >= hullA0 && a.Shields()[facingFront] >= a.Model.Class().ShieldHP[facingFront] {
		t.Fatal("A took no damage")
	}
	if sb.Shields()[facingRear] >= sb.Model.Class().ShieldHP[facingRear] && sb.Model.Hull() >= hullB0 {
		t.Fatal("B took no damage")
	}
	// A report from A claiming to be the source against B's ship is the
	// duplicate the other party sends: dropped.
	drops := b.w.Stats().CollisionsDropped.Load()
	_ = b.collide(0, collisionMsg(shipA, akiraB, 200, codec.CollisionContact{Dir: codec.Dir3{0, 127, 0}, Dist: 216}))
	if b.w.Stats().CollisionsDropped.Load() != drops+1 {
		t.Fatal("source-side duplicate not dropped")
	}
	// B reports a collision between two ships that are not its own.
	if err := b.collide(1, collisionMsg(shipA, shipA+1, 200, codec.CollisionContact{Dir: codec.Dir3{0, 127, 0}, Dist: 216})); err != ErrForeignCollision {
		t.Fatalf("foreign collision report: %v", err)
	}
	for i := 0; i < 40 && len(deaths) == 0; i++ {
		b.now = b.now.Add(1100 * time.Millisecond)
		_ = b.collide(1, collisionMsg(shipA, akiraB, 20000, codec.CollisionContact{Dir: codec.Dir3{0, -127, 0}, Dist: 216}))
	}
	if len(deaths) == 0 {
		t.Fatal("nobody died")
	}
	d := deaths[0]
	killer := 2
	if d.Victim.ID == shipA {
		killer = 3
	}
	if d.Cause != CauseCollision || d.KillerID != killer {
		t.Fatalf("death %+v", d)
	}
	// Far apart ships cannot collide.
	b2 := newSimBattle(t, 2)
	b2.move(0, shipA, [3]float32{0, 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	b2.move(1, akiraB, [3]float32{500, 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	_ = b2.collide(1, collisionMsg(shipA, akiraB, 5000, codec.CollisionContact{Dir: codec.Dir3{0, -127, 0}, Dist: 216}))
	if b2.w.Stats().Collisions.Load() != 0 {
		t.Fatal("collision across 500 units accepted")
	}
}
