package world

import (
	"math"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// lastUpdate returns the last StateUpdate viewer i received.
func lastUpdate(t *testing.T, b *battle, i int) codec.StateUpdate {
	t.Helper()
	ms := b.h.msgs[b.owners[i]]
	for k := len(ms) - 1; k >= 0; k-- {
		if m := ms[k]; m[0] == codec.OpStateUpdate {
			s, err := codec.DecodeStateUpdate(m, codec.SubsystemsToEnd)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}
	t.Fatal("no state update")
	return codec.StateUpdate{}
}

// The host builds its own StateUpdates from the owner's: the owner's
// movement fields go to the others, the subsystem block goes to everyone;
// unchanged fields are repeated only once a second.
func TestHostBuiltStateUpdates(t *testing.T) {
	b := newBattle(t, 2, stockOptions())
	b.create(0, vec(t, "simulation.json", "objcreateteam_akira_spawn"))
	up := vec(t, "session.json", "stateupdate_client_0x9d")
	owner, err := codec.DecodeStateUpdate(up, codec.SubsystemsToEnd)
	if err != nil {
		t.Fatal(err)
	}
	b.w.StateUpdate(b.now, b.owners[0], &owner)
	b.advance(150 * time.Millisecond)
	got := lastUpdate(t, b, 1)
	want := codec.StatePosition | codec.StateForward | codec.StateUp | codec.StateSpeed | codec.StateSubsystems
	if got.ObjectID != shipA || got.Flags != uint8(want) || got.Position != owner.Position || got.Forward != owner.Forward ||
		got.Up != owner.Up || got.Speed != owner.Speed || got.HasHash || len(got.Weapons) != 0 || got.GameTime != 0.15 {
		t.Fatalf("B's update %+v, owner's %+v", got, owner)
	}
	a := lastUpdate(t, b, 0)
	if a.ObjectID != shipA || a.Flags != codec.StateSubsystems {
		t.Fatalf("owner's update %+v", a)
	}
	// Within a second unchanged fields are not repeated; after it they are.
	b.advance(100 * time.Millisecond)
	if f := lastUpdate(t, b, 1).Flags; f != codec.StateSubsystems {
		t.Fatalf("unchanged fields re-sent early: %#x", f)
	}
	b.advance(time.Second)
	if f := lastUpdate(t, b, 1).Flags; f != uint8(want) {
		t.Fatalf("forced resend flags %#x", f)
	}
	// A new delta goes out once, against the last absolute position.
	delta := codec.StateUpdate{ObjectID: shipA, Flags: codec.StateDelta, Delta: codec.DirMag{Dir: codec.Dir3{0, 127, 0}, Mag: 3}}
	b.w.StateUpdate(b.now, b.owners[0], &delta)
	b.advance(100 * time.Millisecond)
	if u := lastUpdate(t, b, 1); u.Flags != codec.StateDelta|codec.StateSubsystems || u.Delta != delta.Delta {
		t.Fatalf("delta update %+v", u)
	}
	b.advance(100 * time.Millisecond)
	if f := lastUpdate(t, b, 1).Flags; f != codec.StateSubsystems {
		t.Fatalf("delta repeated: %#x", f)
	}
}

// A ship of a species without data is relayed only: the others get its
// movement, its owner nothing, and nobody a subsystem block.
func TestUnknownSpeciesMovementOnly(t *testing.T) {
	b := newBattle(t, 2, stockOptions())
	create := vec(t, "simulation.json", "objcreateteam_akira_spawn")
	m, err := codec.DecodeObjCreate(create)
	if err != nil {
		t.Fatal(err)
	}
	m.Ship.Species = 200
	o := b.create(0, m.AppendTo(nil))
	if o.Model != nil || o.Species != 200 {
		t.Fatalf("model for species 200: %+v", o)
	}
	b.move(0, shipA, [3]float32{1, 2, 3}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	mark := b.mark()
	b.advance(100 * time.Millisecond)
	if n := len(b.since(mark, 0)); n != 0 {
		t.Fatalf("owner got %d updates", n)
	}
	if u := lastUpdate(t, b, 1); u.Flags != codec.StatePosition|codec.StateForward|codec.StateUp || u.Position != [3]float32{1, 2, 3} {
		t.Fatalf("update %+v", u)
	}
}

// BenchmarkTick16 measures one game tick of the world alone with 16
// ships: the simulation step plus building the host's StateUpdates for
// 16 ships × 16 viewers (handed to a host that drops them).
func BenchmarkTick16(b *testing.B) {
	bt := newBattle(b, 16, stockOptions())
	for i := range bt.owners {
		bt.create(i, retarget(vec(b, "simulation.json", "objcreateteam_sovereign_collision_test"), i, 1, 7))
		bt.move(i, codec.FirstObjectID(i), [3]float32{float32(i * 20), 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	}
	bt.w.env = discardHost{bt.h}
	now := bt.now
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		now = now.Add(100 * time.Millisecond)
		bt.w.Tick(now)
		bt.w.SendStateUpdates(now)
	}
}

// discardHost is the fake host with sends dropped.
type discardHost struct{ *fakeHost }

func (discardHost) Send(*Owner, []byte, bool) {}
func (discardHost) Broadcast([]byte)          {}

// A player's ship is where its owner last put it: the last absolute
// position plus the delta sent from it (flag 0x02); a new absolute
// position starts the chain again. Beams and projectiles test hits there.
func TestPositionFollowsDeltas(t *testing.T) {
	b := newSimBattle(t, 1)
	o := b.w.Object(shipA)
	b.move(0, shipA, [3]float32{10, 20, 30}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	m := codec.StateUpdate{ObjectID: shipA, Flags: codec.StateDelta, Delta: codec.NewDirMag(0, 4, 0)}
	b.w.StateUpdate(b.now, b.owners[0], &m)
	if p, _ := o.Position(); math.Abs(float64(p[1]-24)) > 0.01 || p[0] != 10 || p[2] != 30 {
		t.Fatalf("after a delta: %v", p)
	}
	b.move(0, shipA, [3]float32{50, 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	if p, _ := o.Position(); p != [3]float32{50, 0, 0} {
		t.Fatalf("after a new absolute position: %v", p)
	}
}
