package world

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// starbaseSpec is the worked example of simulation.json: a FedStarbase at
// (10, 20, 30), identity orientation, named "Starbase" in Multi1.
func starbaseSpec() HostShipSpec {
	return HostShipSpec{Species: 30, Name: "Starbase", Set: "Multi1", Position: [3]float32{10, 20, 30},
		Orientation: [4]float32{1, 0, 0, 0}, Team: -1, NoCollisionDamage: true}
}

func (b *battle) hostShip(spec HostShipSpec) *Object {
	b.t.Helper()
	o, err := b.w.CreateHostShip(b.now, spec, nil)
	if err != nil {
		b.t.Fatal(err)
	}
	return o
}

// A host ship is announced to everyone with ObjCreate 0x02: the worked
// FedStarbase example byte for byte except the owner byte, which is the
// host slot (opcodes.md 6); its ids are outside every player block, the
// subsystems right after it; the next host object follows them.
func TestHostShipCreate(t *testing.T) {
	b := newBattle(t, 2, stockOptions())
	var created []*Object
	b.on(EvShipCreated, func(e Event) { created = append(created, e.(*ShipCreated).Ship) })
	m := b.mark()
	sb := b.hostShip(starbaseSpec())
	want := vec(t, "simulation.json", "objcreate_fedstarbase_host_0x02_example")
	want[1] = DefaultHostSlot
	for i := range b.owners {
		got := b.since(m, i)
		if len(got) != 1 || !bytes.Equal(got[0], want) {
			t.Fatalf("viewer %d got %X\nwant %X", i, got, want)
		}
	}
	if !bytes.Equal(sb.Create, want) || sb.ID != FirstHostObjectID || sb.Model.SubsystemID(len(sb.Model.Class().Subsystems)-1) != sb.ID+14 {
		t.Fatalf("starbase %#x create %X", sb.ID, sb.Create)
	}
	if !sb.HostOwned() || sb.OwnerID() != 0 || sb.IsPlayerShip() || sb.Team() != -1 || len(created) != 1 || created[0] != sb {
		t.Fatalf("host ship bookkeeping: owner %d player %v created %v", sb.OwnerID(), sb.IsPlayerShip(), created)
	}
	if slot, used := b.w.HostSlot(); slot != DefaultHostSlot || !used || b.w.HostShips() != 1 {
		t.Fatalf("host slot %d %v, %d host ships", slot, used, b.w.HostShips())
	}
	galor := starbaseSpec()
	galor.Species, galor.Name, galor.Team = 10, "Galor", 1
	g := b.hostShip(galor)
	if g.ID != FirstHostObjectID+15 || g.Team() != 1 || g.Create[0] != codec.OpObjCreate {
		t.Fatalf("second host ship %#x", g.ID)
	}
	// Bad specs and a held host slot are refused before anything is sent.
	m = b.mark()
	for _, spec := range []HostShipSpec{{Species: 99}, {Species: 30, Position: [3]float32{2e6, 0, 0}}} {
		if _, err := b.w.CreateHostShip(b.now, spec, nil); err == nil {
			t.Errorf("spec %+v accepted", spec)
		}
	}
	b.w.RemoveHostShips(b.now)
	if _, err := b.w.CreateHostShip(b.now, starbaseSpec(), func(s int) bool { return s == DefaultHostSlot }); !errors.Is(err, ErrHostSlotTaken) {
		t.Fatalf("held slot: %v", err)
	}
	if got := filterOp(b.since(m, 0), codec.OpObjCreate); len(got) != 0 {
		t.Fatalf("refused ships announced: %X", got)
	}
}

// The host's StateUpdates for its own ship carry everything an owner's
// would (position, forward, up, speed) and the subsystem block with
// has_power, to every player.
func TestHostShipStateUpdates(t *testing.T) {
	b := newBattle(t, 2, stockOptions())
	sb := b.hostShip(starbaseSpec())
	b.advance(100 * time.Millisecond)
	for i := range b.owners {
		u := lastUpdate(t, b, i)
		want := codec.StatePosition | codec.StateForward | codec.StateUp | codec.StateSpeed | codec.StateSubsystems
		if u.ObjectID != sb.ID || u.Flags != uint8(want) || u.Position != [3]float32{10, 20, 30} ||
			u.Forward != (codec.Dir3{0, 127, 0}) || u.Up != (codec.Dir3{0, 0, 127}) || u.SpeedValue() != 0 {
			t.Fatalf("viewer %d: %+v", i, u)
		}
	}
	// A stationary ship never moves: unchanged fields only once a second.
	b.advance(100 * time.Millisecond)
	if f := lastUpdate(t, b, 0).Flags; f != codec.StateSubsystems {
		t.Fatalf("flags %#x", f)
	}
	_ = b.w.MoveTo(sb, [3]float32{500, 0, 0}, nil, 10, 0)
	for range 20 {
		b.advance(100 * time.Millisecond)
	}
	if p, _ := sb.Position(); p != [3]float32{10, 20, 30} || sb.Speed() != 0 {
		t.Fatalf("the starbase moved to %v at %v", p, sb.Speed())
	}
}

// Weapon hits and collisions damage host ships with the players' damage
// model; a host ship made without collision damage takes none, the other
// ship still does. A kill follows the stock death sequence and the wreck
// is deleted after the explosion, with no message.
func TestHostShipDamageAndDeath(t *testing.T) {
	b := newSimBattle(t, 2)
	spec := starbaseSpec()
	spec.Species, spec.Name, spec.Position, spec.NoCollisionDamage = 10, "Galor", [3]float32{0, 20, 0}, false
	g := b.hostShip(spec)
	b.move(0, shipA, [3]float32{}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	var hits []*WeaponHit
	var damaged []*ShipDamaged
	var deaths []*ShipDestroyed
	b.on(EvWeaponHit, func(e Event) { hits = append(hits, e.(*WeaponHit)) })
	b.on(EvShipDamaged, func(e Event) { damaged = append(damaged, e.(*ShipDamaged)) })
	b.on(EvShipDestroyed, func(e Event) { deaths = append(deaths, e.(*ShipDestroyed)) })
	phasers := systemID(t, b.w.Object(shipA), "Phasers")
	b.fire(0, startFiring(phasers, g.ID))
	b.tick(1500 * time.Millisecond) // the first quantum lands 1.156 s after the start
	if len(hits) == 0 || hits[0].Target != g || hits[0].ShooterID != 2 || hits[0].Shooter.ID != shipA || len(damaged) != len(hits) || damaged[0].AttackerID != 2 {
		t.Fatalf("hits %+v damaged %+v", hits, damaged)
	}
	if g.Shields() == fullShields(g) {
		t.Fatal("no shield damage")
	}
	// The player's collision report damages both ships.
	b.fire(0, codec.SubsystemEvent{Op: codec.OpStopFiring, Code: codec.EventStopFiringNet, Dst: phasers}.AppendTo(nil))
	n := len(damaged)
	gBefore := make([]float32, len(g.Model.Class().Subsystems))
	for i := range gBefore {
		gBefore[i] = g.Model.Condition(i)
	}
	// Struck astern, so the Sovereign's phasers (on the bow, 1,000 points
	// each) are out of the footprint.
	if err := b.collide(0, collisionMsg(g.ID, shipA, 60, codec.CollisionContact{Dir: codec.Dir3{0, -127, 0}, Dist: 200})); err != nil {
		t.Fatal(err)
	}
	if len(damaged) != n+2 || damaged[n].Ship.ID != shipA || damaged[n+1].Ship != g || damaged[n+1].Cause != CauseCollision {
		t.Fatalf("collision damage %+v", damaged[n:])
	}
	changed := false
	for i := range gBefore {
		changed = changed || g.Model.Condition(i) < gBefore[i]
	}
	if !changed {
		t.Fatal("the Galor took no collision damage")
	}
	b.fire(0, startFiring(phasers, g.ID))
	for i := 0; g.Alive() && i < 3000; i++ {
		b.advance(100 * time.Millisecond)
	}
	if g.Alive() || len(deaths) != 1 || deaths[0].Victim != g || deaths[0].Cause != CauseWeapon || deaths[0].KillerID != 2 {
		t.Fatalf("galor alive %v, deaths %+v", g.Alive(), *deaths[0])
	}
	if g.Create != nil {
		t.Fatal("a wreck is still replicated")
	}
	m := b.mark()
	for range 14 {
		b.advance(time.Second)
	}
	if b.w.Object(g.ID) != nil || b.w.HostShips() != 0 {
		t.Fatal("wreck kept")
	}
	if got := filterOp(b.since(m, 1), codec.OpDestroyObject); len(got) != 0 {
		t.Fatalf("wreck deletion sent %X", got)
	}

	// Without collision damage the host ship is untouched.
	sb := b.hostShip(starbaseSpec())
	b.move(0, shipA, [3]float32{10, 20, 250}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	for range 3 {
		b.advance(1100 * time.Millisecond)
		_ = b.collide(0, collisionMsg(sb.ID, shipA, 40000, codec.CollisionContact{Dir: codec.Dir3{0, 0, -127}, Dist: 200}))
	}
	if sb.Model.Hull() != sb.Model.Class().Subsystems[sb.Model.Class().Hull].MaxCondition {
		t.Fatal("starbase took collision damage")
	}
	if p := b.w.Object(shipA); !damagedAny(p) {
		t.Fatal("the player's ship took nothing")
	}
}

// A live host ship removed (game end, restart) is deleted on every client
// with DestroyObject; DestroyHostShip runs the death sequence instead.
func TestHostShipRemoveAndDestroy(t *testing.T) {
	b := newBattle(t, 2, stockOptions())
	var gone []int32
	var deaths []*ShipDestroyed
	b.on(EvObjectDestroyed, func(e Event) { gone = append(gone, e.(*ObjectDestroyed).Object.ID) })
	b.on(EvShipDestroyed, func(e Event) { deaths = append(deaths, e.(*ShipDestroyed)) })
	sb := b.hostShip(starbaseSpec())
	m := b.mark()
	b.w.RemoveHostShips(b.now)
	got := b.since(m, 1)
	if len(got) != 1 || !bytes.Equal(got[0], codec.DestroyObject{ObjectID: sb.ID}.AppendTo(nil)) || len(gone) != 1 || b.w.HostShips() != 0 {
		t.Fatalf("removal sent %X, destroyed %v", got, gone)
	}
	if _, used := b.w.HostSlot(); used {
		t.Fatal("host slot still reserved")
	}
	sb2 := b.hostShip(starbaseSpec())
	if sb2.ID == sb.ID {
		t.Fatal("id reused at once")
	}
	m = b.mark()
	b.w.DestroyHostShip(b.now, sb2)
	got = b.since(m, 0)
	if len(deaths) != 1 || deaths[0].KillerID != 0 || deaths[0].Cause != CauseEnvironment || len(filterOp(got, codec.OpExplosion)) != 0 {
		t.Fatalf("destroy: %+v %X", deaths, got)
	}
	ex, err := codec.DecodeObjectExploding(got[0])
	if err != nil || ex.Dst != sb2.ID || ex.FiringPlayer != 0 || ex.Src != 0 {
		t.Fatalf("exploding %+v %v", ex, err)
	}
	if err := b.w.MoveTo(sb2, [3]float32{}, nil, 1, 0); !errors.Is(err, ErrNotHostShip) {
		t.Fatalf("orders to a wreck: %v", err)
	}
}

func fullShields(o *Object) [6]float32 {
	var s [6]float32
	copy(s[:], o.Model.Class().ShieldHP)
	return s
}
