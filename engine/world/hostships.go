package world

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// Host-created objects (simulation.md 3.5): ships the host makes and drives
// itself, such as the Mission5 starbase or the AI ships of a mission. They
// are ordinary ships with no owner (Object.Owner is nil, so OwnerID is 0
// and kill credit names no player): the same model, damage, repair, power
// and death code runs for them as for player ships. What differs is where
// their movement and fire come from — the host (hostmove.go,
// hostweapons.go) instead of an owner's StateUpdates — and how they are
// announced: ObjCreate 0x02 built by the host, with ids outside every
// player block.
//
// An explicit host Owner was considered and left out: an owner carries a
// wire player id, and every rule that looks at owners (kill credit, the
// scripts' "player ship" test, the owner's own has_power bit) must see no
// player for these objects, which a nil owner already says.

// Host object ids (opcodes.md 6, simulation.md 3.5): ids outside every
// player block, from 0x00001000 up, each object followed by its subsystems'
// ids. Player blocks start at 0x3FFFFFFF.
const (
	FirstHostObjectID int32 = 0x00001000
	lastHostObjectID  int32 = 0x3FFFF000
)

// ErrHostSlotTaken is CreateHostShip's answer when every player slot,
// the host objects' owner slot included, is held by a player.
var ErrHostSlotTaken = errors.New("the host objects' owner slot is held by a player")

// HostShipSpec describes a ship the host creates.
type HostShipSpec struct {
	// Species is the SpeciesToShip index (simulation.md 3.3) of a class
	// in the ship data.
	Species int
	// Name is the object name clients show ("Starbase" for Mission5's).
	Name string
	// Set is the star-system set name, e.g. "Multi1".
	Set string
	// Position in world units; Orientation a quaternion w, x, y, z (the
	// zero quaternion means identity: +Y forward, +Z up).
	Position    [3]float32
	Orientation [4]float32
	// Team is the mission's team for the ship, -1 for none.
	Team int
	// NoCollisionDamage makes the ship immune to collision damage (the
	// Mission5 starbase, missions.md 4.4); the other party still takes it.
	NoCollisionDamage bool
}

// hostShip is the state of a host-created ship beyond what every ship has.
type hostShip struct {
	team        int
	noCollision bool
	move        hostMove
}

// HostOwned reports whether the host created the object (a host ship).
func (o *Object) HostOwned() bool { return o.host != nil }

// HostShips counts the host-created objects the world holds, wrecks whose
// explosion is not over included.
func (w *World) HostShips() int { return w.hostCount }

// HostSlot returns the player slot host objects carry in their ObjCreate
// owner byte, and whether any host object exists (only then must no player
// be given that slot).
func (w *World) HostSlot() (slot int, inUse bool) { return w.hostSlot, w.hostCount > 0 }

// PrepareHostShip builds a host ship without adding it: its id, model and
// creation message are ready, nobody has been told. AddHostShip makes it
// live. A mission that loads transactionally prepares while it loads and
// adds once it has loaded. slotTaken reports whether a player holds a
// slot; the host objects' slot must not be one.
func (w *World) PrepareHostShip(spec HostShipSpec, slotTaken func(int) bool) (*Object, error) {
	w.sync()
	if w.ships == nil {
		return nil, errors.New("host ship: the world has no ship data")
	}
	c, ok := w.ships.Class(spec.Species)
	if !ok {
		return nil, fmt.Errorf("host ship: no ship class of species %d", spec.Species)
	}
	if len(spec.Name) > 255 || len(spec.Set) > 255 {
		return nil, errors.New("host ship: name or set longer than 255 bytes")
	}
	if w.hostCount == 0 && slotTaken != nil && slotTaken(w.hostSlot) {
		return nil, fmt.Errorf("host ship: %w (slot %d)", ErrHostSlotTaken, w.hostSlot)
	}
	for _, v := range spec.Position {
		if !finite(v) || math.Abs(float64(v)) > maxCoordinate {
			return nil, fmt.Errorf("host ship: position %v out of range", spec.Position)
		}
	}
	id := w.nextHostID(c.IDSpan())
	model := ships.NewShip(c, id)
	q := normQuat(spec.Orientation)
	o := &Object{
		ID: id, ClassID: codec.ClassShip, OwnerSlot: w.hostSlot, Species: spec.Species,
		Name: spec.Name, Set: spec.Set, Model: model,
		host: &hostShip{team: spec.Team, noCollision: spec.NoCollisionDamage},
	}
	head := codec.ObjCreate{Op: codec.OpObjCreate, OwnerSlot: uint8(w.hostSlot), ClassID: codec.ClassShip, ObjectID: id,
		Ship: codec.ShipBody{Species: uint8(spec.Species), Position: spec.Position, Rotation: q,
			Name: []byte(spec.Name), Set: []byte(spec.Set)}}.AppendTo(nil)
	var cw codec.Writer
	cw.Reset(head)
	ships.AppendTail(&cw, model, ships.DefaultTail())
	o.Create = cw.Bytes()
	fwd, up := quatAxes(q)
	o.host.move.init(c, spec.Position, fwd, up)
	return o, nil
}

// AddHostShip makes a prepared host ship live at now: every player in the
// game gets its ObjCreate 0x02 (late joiners get it with the other
// objects, handshake.md 2.6), and ship_created is raised.
func (w *World) AddHostShip(now time.Time, o *Object) error {
	w.now = now
	if o == nil || o.host == nil || o.Create == nil {
		return errors.New("host ship: not prepared")
	}
	if w.objects[o.ID] != nil {
		return fmt.Errorf("host ship: id %#x is in use", o.ID)
	}
	w.initSim(o)
	o.host.move.publish(o, now, true)
	w.add(o)
	w.hostCount++
	w.buf = append(w.buf[:0], o.Create...)
	w.broadcast()
	w.log.Debug("host ship created", "ship", o.ID, "species", o.Species, "name", o.Name)
	w.env.Emit(&ShipCreated{Ship: o})
	return nil
}

// CreateHostShip prepares and adds a host ship at once.
func (w *World) CreateHostShip(now time.Time, spec HostShipSpec, slotTaken func(int) bool) (*Object, error) {
	o, err := w.PrepareHostShip(spec, slotTaken)
	if err != nil {
		return nil, err
	}
	return o, w.AddHostShip(now, o)
}

// nextHostID hands out span contiguous ids (the ship and its subsystems)
// from the host range, skipping ids of live objects; after the top of the
// range it starts again from the bottom.
func (w *World) nextHostID(span int) int32 {
	for range 1 << 16 {
		id := w.hostNext
		if id < FirstHostObjectID || id > lastHostObjectID-int32(span) {
			id = FirstHostObjectID
		}
		w.hostNext = id + int32(span)
		if w.hostRangeFree(id, span) {
			return id
		}
	}
	return w.hostNext // unreachable with a bounded number of objects
}

func (w *World) hostRangeFree(id int32, span int) bool {
	for _, o := range w.objects {
		n := int32(1)
		if o.Model != nil {
			n = int32(o.Model.Class().IDSpan())
		}
		if o.ID < id+int32(span) && id < o.ID+n {
			return false
		}
	}
	return true
}

// RemoveHostShip deletes a host ship now: a live one is deleted on every
// client with DestroyObject 0x14 (a wreck is left to end its explosion,
// which clients delete themselves, simulation.md 9.4).
func (w *World) RemoveHostShip(now time.Time, o *Object) {
	w.now = now
	if o == nil || o.host == nil || w.objects[o.ID] != o {
		return
	}
	if o.Alive() {
		w.buf = codec.DestroyObject{ObjectID: o.ID}.AppendTo(w.buf[:0])
		w.broadcast()
	}
	w.remove(o)
}

// RemoveHostShips deletes every host ship (the end of a game, a restart).
func (w *World) RemoveHostShips(now time.Time) {
	for _, o := range w.Objects() {
		if o.host != nil {
			w.RemoveHostShip(now, o)
		}
	}
}

// DestroyHostShip blows a host ship up as if its hull had failed: the stock
// death sequence with no killer (ObjectExploding with firing player 0, no
// Explosion 0x29, ship_destroyed with cause "environment").
func (w *World) DestroyHostShip(now time.Time, o *Object) {
	w.now = now
	if o == nil || o.host == nil || w.objects[o.ID] != o || !o.Alive() || o.Model == nil {
		return
	}
	o.Model.SetHull(0)
	w.killShip(o, hitInfo{cause: CauseEnvironment})
}

// Radius returns the ship's bounding radius estimate (BoundingRadius), 0
// for an object without a model.
func (o *Object) Radius() float32 { return o.sim.shape.radius }

// LocationFree reports whether a sphere of radius r at pos touches no live
// ship's bounding sphere: the stock IsLocationEmpty the Mission5 placement
// uses (missions.md 4.4).
func (w *World) LocationFree(pos [3]float32, r float32) bool {
	for _, o := range w.objects {
		if !o.IsShip() || !o.Alive() || !o.state.hasPos {
			continue
		}
		if norm(sub3(o.pos(), pos)) < r+o.sim.shape.radius {
			return false
		}
	}
	return true
}

// maxCoordinate bounds host-chosen positions: far beyond any stock map,
// well inside float32 precision for the wire's deltas.
const maxCoordinate = 1e6
