package world

import (
	"bytes"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// Self-destruct (simulation.md 7): zero-health StateUpdates first, then the
// captured ObjectExploding bytes (lifetime 9.5), no Explosion, at most four
// repair events now and the rest later; no killer.
func TestSelfDestruct(t *testing.T) {
	b := newSimBattle(t, 2)
	var deaths []*ShipDestroyed
	b.on(EvShipDestroyed, func(e Event) { deaths = append(deaths, e.(*ShipDestroyed)) })
	m := b.mark()
	b.w.SelfDestruct(b.now, b.owners[0])
	ms := b.since(m, 1)
	var firstState, exploding int = -1, -1
	repairs := 0
	for i, msg := range ms {
		switch {
		case msg[0] == codec.OpStateUpdate && firstState < 0:
			if u, err := codec.DecodeStateUpdate(msg, codec.SubsystemsToEnd); err == nil && u.ObjectID == shipA {
				firstState = i
			}
		case msg[0] == codec.OpPythonEvent && bytes.Equal(msg, vec(t, "simulation.json", "object_exploding_self_destruct")):
			exploding = i
		case msg[0] == codec.OpPythonEvent:
			repairs++
		}
	}
	if firstState < 0 || exploding < 0 || firstState > exploding {
		t.Fatalf("order: state %d exploding %d in %X", firstState, exploding, ms)
	}
	if repairs == 0 || repairs > 4 || len(filterOp(ms, codec.OpExplosion)) != 0 {
		t.Fatalf("%d repair events, explosions %d", repairs, len(filterOp(ms, codec.OpExplosion)))
	}
	if len(deaths) != 1 || deaths[0].Cause != CauseSelfDestruct || deaths[0].KillerID != 0 || deaths[0].Lifetime != 9.5 {
		t.Fatalf("deaths %+v", deaths)
	}
	m = b.mark()
	b.advance(9600 * time.Millisecond)
	later := len(filterOp(b.since(m, 1), codec.OpPythonEvent))
	if later < 1 || repairs+later > 6 {
		t.Fatalf("later repair events %d", later)
	}
	// A second 0x13 for the wreck does nothing.
	m = b.mark()
	b.w.SelfDestruct(b.now, b.owners[0])
	if len(filterOp(b.since(m, 1), codec.OpPythonEvent)) != 0 || len(deaths) != 1 {
		t.Fatal("wreck self-destructed twice")
	}
}

// Damaged subsystems are repaired over time and the completion announced.
func TestRepairCompletes(t *testing.T) {
	b := newSimBattle(t, 2)
	o := b.w.Object(shipA)
	m := o.Model
	sensors, _ := m.Class().SubsystemIndex("Sensor Array")
	setHP(m, sensors, hp(m, sensors)-100)
	b.w.subsystemHit(o, sensors)
	mark := b.mark()
	for range 600 {
		b.advance(100 * time.Millisecond)
	}
	done := false
	for _, msg := range filterOp(b.since(mark, 1), codec.OpPythonEvent) {
		if ev, err := codec.DecodeSubsystemEvent(msg); err == nil && ev.Code == codec.EventRepairCompleted && ev.Src == m.SubsystemID(sensors) {
			done = true
		}
	}
	if !done || m.Condition(sensors) != m.Class().Subsystems[sensors].MaxCondition {
		t.Fatalf("repair not completed: %v / %v", m.Condition(sensors), m.Class().Subsystems[sensors].MaxCondition)
	}
}

// The power system: a healthy reactor meets the demand; a destroyed one
// drains the batteries and the supplied share falls.
func TestPowerTick(t *testing.T) {
	b := newSimBattle(t, 1)
	m := b.w.Object(shipA).Model
	if eff := powerTick(m); eff != 1 {
		t.Fatalf("healthy efficiency %v", eff)
	}
	m.SetCondition(m.Class().Reactor, 0)
	var eff float32
	main0, backup0 := m.Batteries()
	for range 3 {
		eff = powerTick(m)
	}
	main1, backup1 := m.Batteries()
	if eff >= 1 || backup1 >= backup0 || main1 > main0 {
		t.Fatalf("dead reactor: efficiency %v, batteries %v/%v -> %v/%v", eff, main0, backup0, main1, backup1)
	}
}

// The integrity hash: the captured stock Akira hash passes, a different
// one for the same species is reported and counted once per ship; with
// the check off nothing is reported.
func TestIntegrityHash(t *testing.T) {
	for _, check := range []bool{true, false} {
		opts := stockOptions()
		opts.CheckIntegrity = check
		b := newBattle(t, 2, opts)
		b.create(0, vec(t, "simulation.json", "objcreateteam_akira_spawn"))
		up, err := codec.DecodeStateUpdate(vec(t, "session.json", "stateupdate_client_0x9d"), codec.SubsystemsToEnd)
		if err != nil {
			t.Fatal(err)
		}
		if _, bad := b.w.StateUpdate(b.now, b.owners[0], &up); bad || b.w.Stats().IntegrityMismatches.Load() != 0 {
			t.Fatal("stock hash refused")
		}
		b.create(1, retarget(vec(t, "simulation.json", "objcreateteam_akira_spawn"), 1, 1, 7))
		bad := up
		bad.ObjectID = akiraB
		bad.Hash ^= 0x5555
		mm, reported := b.w.StateUpdate(b.now, b.owners[1], &bad)
		if reported != check || (check && (mm.Species != 1 || mm.Want != up.Hash || mm.Hash != bad.Hash || mm.Ship.ID != akiraB)) {
			t.Fatalf("check %v: reported %v %+v", check, reported, mm)
		}
		if _, again := b.w.StateUpdate(b.now, b.owners[1], &bad); again {
			t.Fatal("the same ship reported twice")
		}
		if n := b.w.Stats().IntegrityMismatches.Load(); n != map[bool]uint64{true: 1, false: 0}[check] {
			t.Fatalf("check %v: %d mismatches counted", check, n)
		}
	}
}

// A shield generator below its disabled percentage takes every facing down
// at once and none recharges (simulation.md 5.5); repaired, they recharge
// again.
func TestShieldGeneratorGate(t *testing.T) {
	b := newSimBattle(t, 1)
	o := b.w.Object(shipA)
	m := o.Model
	c := m.Class()
	gen := c.ShieldGenerator
	if gen < 0 || c.Subsystems[gen].Data == nil {
		t.Fatal("no shield generator data")
	}
	o.sim.shields[facingFront] = c.ShieldHP[facingFront] / 2
	b.advance(time.Second)
	if s := o.Shields()[facingFront]; s <= c.ShieldHP[facingFront]/2 {
		t.Fatalf("a healthy generator did not recharge: %v", s)
	}
	pct := c.Subsystems[gen].Data.DisabledPct
	m.SetCondition(gen, (pct+0.05)*c.Subsystems[gen].MaxCondition)
	b.advance(200 * time.Millisecond)
	if o.Shields()[facingRear] == 0 {
		t.Fatal("a generator above its disabled percentage dropped the shields")
	}
	m.SetCondition(gen, (pct-0.05)*c.Subsystems[gen].MaxCondition)
	for range 30 {
		b.advance(100 * time.Millisecond)
		if o.Shields() != [6]float32{} {
			t.Fatalf("generator at %.0f %% (disabled below %.0f %%): shields %v", 100*(pct-0.05), 100*pct, o.Shields())
		}
	}
	m.SetCondition(gen, c.Subsystems[gen].MaxCondition)
	b.advance(time.Second)
	if o.Shields()[facingFront] <= 0 {
		t.Fatal("the repaired generator did not recharge the shields")
	}
}
