package world

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/internal/vectors"
)

// The world's tests run a whole battle with no sockets and no engine: a
// recording host stands in for the players, and the test owns the clock.

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

const (
	shipA  = int32(0x3FFFFFFF) // slot 0's first object
	akiraB = int32(0x4003FFFF) // slot 1's first object
)

// timer is one Host.After call waiting on the fake clock.
type timer struct {
	at       time.Time
	fn       func(time.Time)
	canceled bool
}

// fakeHost records what the world sends to each viewer and the events it
// raises, and runs its timers on the test's clock.
type fakeHost struct {
	now     time.Time
	viewers []*Owner
	msgs    map[*Owner][][]byte
	events  []Event
	timers  []*timer
	on      map[string][]func(Event)
}

func (h *fakeHost) Emit(ev Event) {
	h.events = append(h.events, ev)
	for _, fn := range h.on[ev.Name()] {
		fn(ev)
	}
}

func (h *fakeHost) Broadcast(payload []byte) {
	for _, v := range h.viewers {
		h.msgs[v] = append(h.msgs[v], bytes.Clone(payload))
	}
}

func (h *fakeHost) Viewers(dst []*Owner) []*Owner { return append(dst, h.viewers...) }

func (h *fakeHost) Send(to *Owner, payload []byte, _ bool) {
	h.msgs[to] = append(h.msgs[to], bytes.Clone(payload))
}

func (h *fakeHost) Now() time.Time { return h.now }

func (h *fakeHost) After(d time.Duration, fn func(time.Time)) func() {
	tm := &timer{at: h.now.Add(d), fn: fn}
	h.timers = append(h.timers, tm)
	return func() { tm.canceled = true }
}

// runTimers fires the timers due at now, earliest first.
func (h *fakeHost) runTimers(now time.Time) {
	for range 1000 {
		i := slices.IndexFunc(h.timers, func(tm *timer) bool { return !tm.at.After(now) })
		if i < 0 {
			return
		}
		for j, tm := range h.timers {
			if !tm.at.After(now) && tm.at.Before(h.timers[i].at) {
				i = j
			}
		}
		tm := h.timers[i]
		h.timers = slices.Delete(h.timers, i, i+1)
		if !tm.canceled {
			tm.fn(now)
		}
	}
}

// battle is a world with players in slots 0..n-1 (wire ids 2, 3, …), all
// in the game.
type battle struct {
	t      testing.TB
	w      *World
	h      *fakeHost
	now    time.Time
	owners []*Owner
}

func newBattle(t testing.TB, players int, opts Options) *battle {
	t.Helper()
	reg, err := ships.Vanilla()
	if err != nil {
		t.Fatal(err)
	}
	h := &fakeHost{now: t0, msgs: make(map[*Owner][][]byte), on: make(map[string][]func(Event))}
	opts.Env = h
	opts.Ships = reg
	opts.Epoch = t0
	b := &battle{t: t, w: New(opts), h: h, now: t0}
	for i := range players {
		o := &Owner{ID: byte(i + 2), Slot: i, Team: -1}
		b.owners = append(b.owners, o)
		h.viewers = append(h.viewers, o)
	}
	return b
}

// stockOptions are the engine's defaults.
func stockOptions() Options {
	return Options{ExplosionRadius: 10.1, ExplosionDamage: 50,
		CheckIntegrity: true, IntegrityHashes: StockIntegrityHashes()}
}

// newSimBattle is a battle whose first player flies the captured Sovereign
// (slot 0, 0x3FFFFFFF) and the others Akiras.
func newSimBattle(t testing.TB, players int) *battle {
	b := newBattle(t, players, stockOptions())
	b.create(0, vec(t, "simulation.json", "objcreateteam_sovereign_collision_test"))
	for i := 1; i < players; i++ {
		b.create(i, retarget(vec(t, "simulation.json", "objcreateteam_akira_spawn"), i, 1, 7))
	}
	return b
}

func (b *battle) create(i int, payload []byte) *Object {
	b.t.Helper()
	o, err := b.w.Create(b.now, b.owners[i], payload)
	if err != nil {
		b.t.Fatal(err)
	}
	return o
}

// on subscribes fn to the events called name.
func (b *battle) on(name string, fn func(Event)) { b.h.on[name] = append(b.h.on[name], fn) }

// mark returns how many messages each viewer has received so far.
func (b *battle) mark() []int {
	m := make([]int, len(b.owners))
	for i, o := range b.owners {
		m[i] = len(b.h.msgs[o])
	}
	return m
}

// since returns what viewer i received after mark m.
func (b *battle) since(m []int, i int) [][]byte { return b.h.msgs[b.owners[i]][m[i]:] }

// advance moves the clock by d and runs what the engine runs then: due
// timers, one world tick and the StateUpdates.
func (b *battle) advance(d time.Duration) {
	b.now = b.now.Add(d)
	b.h.now = b.now
	b.h.runTimers(b.now)
	b.w.Tick(b.now)
	b.w.SendStateUpdates(b.now)
}

// move reports an owner's position and orientation.
func (b *battle) move(i int, id int32, pos [3]float32, fwd, up codec.Dir3) {
	m := codec.StateUpdate{ObjectID: id, Flags: codec.StatePosition | codec.StateForward | codec.StateUp, Position: pos, Forward: fwd, Up: up}
	b.w.StateUpdate(b.now, b.owners[i], &m)
}

// collide has owner i report a collision.
func (b *battle) collide(i int, payload []byte) error {
	b.t.Helper()
	ce, err := codec.DecodeCollisionEffect(payload)
	if err != nil {
		b.t.Fatal(err)
	}
	return b.w.Collision(b.now, b.owners[i], &ce)
}

// fire has owner i send a weapon message as a stock client does, after
// the engine's relay checks: TorpedoFire, PulseFire, StartFiring,
// StopFiring, StopFiringAtTarget or SetPhaserLevel.
func (b *battle) fire(i int, payload []byte) {
	b.t.Helper()
	var err error
	switch payload[0] {
	case codec.OpTorpedoFire:
		var m codec.TorpedoFire
		if m, err = codec.DecodeTorpedoFire(payload); err == nil {
			b.w.TorpedoFired(b.now, b.owners[i], &m)
		}
	case codec.OpPulseFire:
		var m codec.PulseFire
		if m, err = codec.DecodePulseFire(payload); err == nil {
			b.w.PulseFired(b.now, b.owners[i], &m)
		}
	case codec.OpStartFiring:
		var m codec.StartFiring
		if m, err = codec.DecodeStartFiring(payload); err == nil {
			b.w.OwnerStartFiring(b.now, b.owners[i], &m)
		}
	case codec.OpStopFiring:
		var ev codec.Event
		if ev, err = codec.DecodeEvent(payload); err == nil {
			b.w.OwnerStopFiring(b.now, b.owners[i], ev.Dst)
		}
	case codec.OpStopFiringAtTarget:
		var ev codec.ObjPtrEvent
		if ev, err = codec.DecodeObjPtrEvent(payload); err == nil {
			b.w.OwnerStopFiringAt(b.now, b.owners[i], ev.Dst, ev.Obj)
		}
	case codec.OpSetPhaserLevel:
		var ev codec.Event
		if ev, err = codec.DecodeEvent(payload); err == nil {
			b.w.SetPhaserLevel(b.owners[i], &ev)
		}
	default:
		b.t.Fatalf("not a weapon message: %X", payload)
	}
	if err != nil {
		b.t.Fatal(err)
	}
}

// startFiring is a stock client's StartFiring 0x07: source 0, the weapon
// system as destination, the target and no aim offset (opcodes.md 3.2).
func startFiring(system, target int32) []byte {
	return codec.StartFiring{Op: codec.OpStartFiring, Code: codec.EventStartFiringNet, Dst: system, Target: target}.AppendTo(nil)
}

// phaserLevel is a stock client's SetPhaserLevel 0x12 naming the system.
func phaserLevel(system int32, level byte) []byte {
	return codec.CharEvent{Op: codec.OpSetPhaserLevel, Code: codec.EventSetPhaserLevel, Dst: system, Value: level}.AppendTo(nil)
}

// systemID returns the object id of ship o's weapon system called name.
func systemID(t testing.TB, o *Object, name string) int32 {
	t.Helper()
	i, ok := o.Model.Class().SubsystemIndex(name)
	if !ok {
		t.Fatalf("%s has no %q", o.Model.Class().Name, name)
	}
	return o.Model.SubsystemID(i)
}

func vec(t testing.TB, file, name string) []byte {
	t.Helper()
	return vectors.MustNamed(t, file, name)
}

// retarget rewrites a captured slot-0 payload's object ids into slot s's
// block (ids at the given offsets) and its owner byte when owner >= 0.
func retarget(b []byte, slot int, owner int, idOffsets ...int) []byte {
	out := bytes.Clone(b)
	if owner >= 0 {
		out[owner] = byte(slot)
		if out[0] == codec.OpObjCreateTeam {
			out[2] = byte(slot + 2) // the owner's wire player id
		}
	}
	for _, off := range idOffsets {
		id := int32(uint32(out[off]) | uint32(out[off+1])<<8 | uint32(out[off+2])<<16 | uint32(out[off+3])<<24)
		id += int32(slot) * 0x40000
		out[off], out[off+1], out[off+2], out[off+3] = byte(id), byte(id>>8), byte(id>>16), byte(id>>24)
	}
	return out
}

func collisionMsg(src, target int32, force float32, contacts ...codec.CollisionContact) []byte {
	var cs []byte
	for _, c := range contacts {
		cs = codec.AppendContact(cs, c)
	}
	return codec.CollisionEffect{Code: codec.EventObjectCollision, Src: src, Target: target, Contacts: cs, Force: force}.AppendTo(nil)
}

func filterOp(ms [][]byte, op byte) [][]byte {
	var out [][]byte
	for _, m := range ms {
		if m[0] == op {
			out = append(out, m)
		}
	}
	return out
}

// The world's creation bookkeeping: ships get models and ship_created, a
// new ship replaces the owner's previous one, a departing owner's ship is
// destroyed for the others, and ForgetShips drops player objects silently.
func TestCreateReplaceRemove(t *testing.T) {
	b := newBattle(t, 2, stockOptions())
	var created []*Object
	var destroyed []int32
	b.on(EvShipCreated, func(e Event) { created = append(created, e.(*ShipCreated).Ship) })
	b.on(EvObjectDestroyed, func(e Event) { destroyed = append(destroyed, e.(*ObjectDestroyed).Object.ID) })
	akiraA := vec(t, "simulation.json", "objcreateteam_akira_spawn")
	sovB := retarget(vec(t, "simulation.json", "objcreateteam_sovereign_collision_test"), 1, 1, 7)
	a := b.create(0, akiraA)
	sb := b.create(1, sovB)
	if len(created) != 2 || created[0].Species != 1 || created[1].Species != 5 || created[0].NetPlayerID != 2 ||
		created[1].Owner != b.owners[1] || created[0].Name != "Cady2" || a.Model == nil || sb.Model == nil {
		t.Fatalf("ship_created %+v", created)
	}
	if !bytes.Equal(a.Create, akiraA) || !a.IsPlayerShip() || b.owners[0].ShipID != shipA || b.w.ShipOf(b.owners[0]) != a {
		t.Fatal("A's ship not recorded")
	}
	if pos, ok := a.Position(); !ok || pos == ([3]float32{}) {
		t.Fatalf("position from the ObjCreate %v %v", pos, ok)
	}
	// A respawns under a new id: the old ship goes.
	respawn := bytes.Clone(akiraA)
	copy(respawn[7:], []byte{0x21, 0x00, 0x00, 0x40})
	b.create(0, respawn)
	if b.w.Object(shipA) != nil || b.owners[0].ShipID != 0x40000021 || len(destroyed) != 1 || destroyed[0] != shipA {
		t.Fatalf("old ship kept (%v)", destroyed)
	}
	// B leaves: the others get DestroyObject for its ship.
	b.h.viewers = b.h.viewers[:1]
	m := b.mark()
	b.w.RemoveOwner(b.owners[1])
	got := b.since(m, 0)
	if len(got) != 1 || got[0][0] != codec.OpDestroyObject || b.w.Object(akiraB) != nil || b.owners[1].ShipID != 0 {
		t.Fatalf("leave: %X", got)
	}
	if d, _ := codec.DecodeDestroyObject(got[0]); d.ObjectID != akiraB {
		t.Fatalf("destroyed %#x", d.ObjectID)
	}
	b.w.ForgetShips()
	if len(b.w.Objects()) != 0 || len(b.since(m, 0)) != 1 {
		t.Fatal("ForgetShips kept objects or sent something")
	}
}

// The host keeps at most maxTorpedoObjects torpedo objects per owner, the
// newest: a client creating torpedoes for a whole game (or a hostile one
// creating nothing else) cannot grow the world or what late joiners get.
func TestTorpedoObjectsBounded(t *testing.T) {
	b := newSimBattle(t, 2)
	const n = maxTorpedoObjects + 50
	for i := range n {
		m := codec.ObjCreate{Op: codec.OpObjCreate, OwnerSlot: 1, ClassID: codec.ClassTorpedo, ObjectID: akiraB + 1000 + int32(i), Body: []byte{2, 0}}
		b.create(1, m.AppendTo(nil))
	}
	// The same id again does not take a second place in the ring.
	last := codec.ObjCreate{Op: codec.OpObjCreate, OwnerSlot: 1, ClassID: codec.ClassTorpedo, ObjectID: akiraB + 1000 + n - 1, Body: []byte{2, 1}}
	b.create(1, last.AppendTo(nil))
	torps := 0
	for _, o := range b.w.Objects() {
		if o.ClassID == codec.ClassTorpedo {
			torps++
			if o.ID < akiraB+1000+n-maxTorpedoObjects {
				t.Errorf("kept an old torpedo %#x", o.ID)
			}
		}
	}
	if torps != maxTorpedoObjects {
		t.Fatalf("%d torpedo objects kept, want %d", torps, maxTorpedoObjects)
	}
	if b.w.Object(shipA) == nil || b.w.Object(akiraB) == nil {
		t.Fatal("a ship went with the torpedoes")
	}
	if o := b.w.Object(akiraB + 1000 + n - 1); o == nil || o.Create[len(o.Create)-1] != 1 {
		t.Fatal("the repeated creation's bytes were not kept")
	}
}
