package world

import (
	"bytes"
	"math"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

func TestCollisionDamageFormula(t *testing.T) {
	tests := []struct {
		name     string
		force    float32
		mass     float32
		contacts int
		want     float32
	}{
		{"spec example: Sovereign, one contact", 1281.02, 100, 1, 12029.18},
		{"two contacts share the force", 1281.02, 100, 2, 6264.59},
		{"dead zone: applied as it is", 1.0, 100, 1, 0.01},
		{"just above the dead zone", 1.1, 100, 1, 509.9},
		{"no contacts", 1000, 100, 0, 0},
		{"negative force", -5, 100, 1, 0},
		{"NaN force", float32(math.NaN()), 100, 1, 0},
		{"no cap", 100000, 1, 1, 90000500},
	}
	for _, tt := range tests {
		got := CollisionDamage(tt.force, tt.mass, tt.contacts)
		if math.Abs(float64(got-tt.want)) > float64(tt.want)*1e-4+1e-6 {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

// The shield facing is where the shot enters the ellipsoid, judged in the
// ellipsoid's own proportions: the largest signed component of 2u + P/|P|
// (simulation.md 5.5, Correction 37). On a long hull a point on the flank
// near the bow is the side facing, where the dominant axis of the
// direction would say front.
func TestFacingFromEntryPoint(t *testing.T) {
	round := shape{axes: [3]float32{1, 1, 1}}
	long := shape{axes: [3]float32{1, 4, 1}}
	tests := []struct {
		sh    *shape
		entry [3]float32
		want  int
	}{
		{&round, [3]float32{0.1, 0.99, 0}, facingFront},
		{&round, [3]float32{0, -0.98, 0.2}, facingRear},
		{&round, [3]float32{0.1, 0.2, 0.97}, facingTop},
		{&round, [3]float32{0, 0, -1}, facingBottom},
		{&round, [3]float32{-1, 0, 0}, facingLeft},
		{&round, [3]float32{0.99, 0.1, 0}, facingRight},
		{&long, [3]float32{0.9, 1.5, 0}, facingRight},
		{&long, [3]float32{-0.9, -1.5, 0}, facingLeft},
		{&long, [3]float32{0.2, 3.9, 0}, facingFront},
	}
	for _, tt := range tests {
		if got := facingAt(tt.sh, tt.entry); got != tt.want {
			t.Errorf("facingAt(%v, %v) = %d, want %d", tt.sh.axes, tt.entry, got, tt.want)
		}
	}
}

// The captured single-contact collision on the captured Sovereign: no
// shield step (Correction 31), every subsystem in the contact's footprint
// takes the 12,029 points and its repair is announced to everyone with the
// subsystem ids of the owner's block; a second report inside the cooldown
// does nothing.
func TestCollisionOnCapturedSovereign(t *testing.T) {
	b := newSimBattle(t, 2)
	ship := b.w.Object(shipA)
	if ship == nil || ship.Model == nil || ship.Model.Class().Name != "Sovereign" {
		t.Fatalf("ship %+v", ship)
	}
	shields := ship.Shields()
	m := b.mark()
	if err := b.collide(0, vec(t, "simulation.json", "collision_effect_P1_single_contact")); err != nil {
		t.Fatal(err)
	}
	if b.w.Stats().Collisions.Load() != 1 {
		t.Fatalf("collision not applied: dropped %d", b.w.Stats().CollisionsDropped.Load())
	}
	if ship.Shields() != shields {
		t.Fatalf("shields %v -> %v", shields, ship.Shields())
	}
	c := ship.Model.Class()
	var damaged []int32
	hit := 0
	for i := range c.Subsystems {
		if cur, max := ship.Model.Condition(i), c.Subsystems[i].MaxCondition; cur < max {
			hit++
			if lost := max - cur; math.Abs(float64(lost-min(max, 12029.18))) > 1 {
				t.Errorf("%s lost %v", c.Subsystems[i].Name, lost)
			}
			if cur > 0 {
				damaged = append(damaged, ship.Model.SubsystemID(i))
			}
		}
	}
	if hit == 0 {
		t.Fatal("nothing damaged")
	}
	for i := range b.owners {
		var rep [][]byte
		for _, r := range filterOp(b.since(m, i), codec.OpPythonEvent) {
			if ev, err := codec.DecodeSubsystemEvent(r); err == nil && ev.Code == codec.EventAddToRepairList {
				rep = append(rep, r)
			}
		}
		if len(rep) != len(damaged) {
			t.Fatalf("viewer %d: %d repair events for %d damaged subsystems", i, len(rep), len(damaged))
		}
		for k, r := range rep {
			ev, _ := codec.DecodeSubsystemEvent(r)
			if ev.Code != codec.EventAddToRepairList || ev.Src != damaged[k] && !containsID(damaged, ev.Src) || ev.Dst != ship.Model.SubsystemID(c.Repair) {
				t.Fatalf("repair event %+v", ev)
			}
		}
	}
	// A second report inside the cooldown does nothing.
	_ = b.collide(0, vec(t, "simulation.json", "collision_effect_P1_single_contact"))
	if b.w.Stats().Collisions.Load() != 1 || b.w.Stats().CollisionsDropped.Load() != 1 {
		t.Fatal("cooldown not enforced")
	}
}

// A contact passes on only what its footprint could not absorb: the
// second contact of a report takes the first's overflow, not the whole
// amount (simulation.md 5.2, Correction 31) [code: FUN_005afd70]; and the
// power plant joins every contact's set only behind the switch.
func TestCollisionOverflowChains(t *testing.T) {
	for _, pp := range []bool{false, true} {
		opts := stockOptions()
		opts.CollisionPowerPlant = pp
		b := newBattle(t, 1, opts)
		o := b.spawn(0, 5, [3]float32{}, [3]float32{0, 1, 0})
		c := o.Model.Class()
		// Contact 1 on the bow, contact 2 on the stern: the footprints
		// (1.5 units plus each radius) share nothing and the bow's is far
		// from the warp core.
		bow := c.Subsystems[mustIndex(t, c, "Forward Tractor 1")].Position
		stern := c.Subsystems[mustIndex(t, c, "Aft Tractor 2")].Position
		set1, set2 := hitSet(o, bow), hitSet(o, stern)
		var overflow float32
		const damage = 5000
		for _, i := range set1 {
			overflow += max(0, damage-o.Model.Condition(i))
		}
		if overflow == 0 {
			t.Fatal("the bow's footprint absorbs the whole ram")
		}
		before := make([]float32, len(c.Subsystems))
		for i := range before {
			before[i] = o.Model.Condition(i)
		}
		b.w.collide(o, [][3]float32{bow, stern}, damage, hitInfo{cause: CauseEnvironment})
		// The hull takes each contact's whole amount, whether or not a
		// contact lies near its sphere (Correction 40).
		if lost := before[c.Hull] - o.Model.Condition(c.Hull); lost != min(before[c.Hull], damage+overflow) {
			t.Errorf("hull lost %v, want %v + %v", lost, damage, overflow)
		}
		for _, i := range set2 {
			if i == c.Reactor && pp {
				continue
			}
			if lost := before[i] - o.Model.Condition(i); lost != min(before[i], overflow) {
				t.Errorf("%s (contact 2) lost %v, want the overflow %v", c.Subsystems[i].Name, lost, overflow)
			}
		}
		if pp != (o.Model.Condition(c.Reactor) < before[c.Reactor]) && !containsIdx(set1, c.Reactor) && !containsIdx(set2, c.Reactor) {
			t.Errorf("CollisionPowerPlant %v: power plant %v -> %v", pp, before[c.Reactor], o.Model.Condition(c.Reactor))
		}
	}
}

// hitSet restates the collision hit-set rule (simulation.md 5.3): the
// targetable subsystems with condition above 0 within their radius plus
// 1.5 of the point.
func hitSet(o *Object, p [3]float32) []int {
	var out []int
	for i, sub := range o.Model.Class().Subsystems {
		d := sub.Data
		if d == nil || !d.IsTargetable || o.Model.Condition(i) <= 0 {
			continue
		}
		if norm(sub3(sub.Position, p)) < d.Radius+collisionHitRadius {
			out = append(out, i)
		}
	}
	return out
}

func mustIndex(t *testing.T, c *ships.Class, name string) int {
	t.Helper()
	i, ok := c.SubsystemIndex(name)
	if !ok {
		t.Fatalf("%s has no %q", c.Name, name)
	}
	return i
}

func containsIdx(s []int, i int) bool {
	for _, x := range s {
		if x == i {
			return true
		}
	}
	return false
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
	// B reports A ramming it (target = B's ship, source = A's).
	_ = b.collide(1, collisionMsg(shipA, akiraB, 200, codec.CollisionContact{Dir: codec.Dir3{0, -127, 0}, Dist: 216}))
	// A reports the same collision: cooldown.
	_ = b.collide(0, collisionMsg(akiraB, shipA, 200, codec.CollisionContact{Dir: codec.Dir3{0, 127, 0}, Dist: 216}))
	if b.w.Stats().Collisions.Load() != 1 {
		t.Fatalf("collisions %d", b.w.Stats().Collisions.Load())
	}
	if !damagedAny(a) || !damagedAny(sb) {
		t.Fatal("a ship took no damage")
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

// damagedAny reports whether any subsystem of o is below its maximum.
func damagedAny(o *Object) bool {
	for i, sub := range o.Model.Class().Subsystems {
		if o.Model.Condition(i) < sub.MaxCondition {
			return true
		}
	}
	return false
}
