package world

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/fairplay"
	"github.com/bcserver/bcserver/engine/ships"
)

// Object is a network object the host knows of: a player's ship, a
// torpedo, or a server-created object. The host keeps the latest
// ObjCreate/ObjCreateTeam of each live object so late joiners receive it
// as the stock host sends it (opcodes.md 2, handshake.md 2.6).
type Object struct {
	ID      int32
	ClassID uint32 // codec.ClassShip (0x8008) or codec.ClassTorpedo (0x8009)
	// OwnerSlot is the player slot of the envelope; Owner the player in it,
	// nil for objects the host owns (server or AI objects).
	OwnerSlot int
	Owner     *Owner
	// NetPlayerID is byte 2 of an ObjCreateTeam: the owner's wire player
	// id, which receivers store as the ship's net player id (kill credit,
	// opcodes.md 3.1); 0 for ObjCreate 0x02 (host objects). Teams exist
	// only in the mission (Owner.Team).
	NetPlayerID int
	// Species is the SpeciesToShip index of a ship (0 when not a ship).
	Species int
	// Name and Set are the player name and star-system set of a ship body.
	Name, Set string
	// Create is the object's creation message, exactly as received.
	Create []byte
	// Model is the host's model of a ship (nil for unknown species and
	// non-ships).
	Model *ships.Ship

	mods  *Modifiers // nil: stock play
	state moveState
	views []viewEntry
	sim   simState
	host  *hostShip // nil for every object a player created
	// track is the fair-play rules' record of the ship's positions, and
	// warpUntil the end of the warp its owner last started (fairplay.go).
	track     fairplay.Track
	warpUntil time.Time
}

// IsShip reports whether the object is a ship or station.
func (o *Object) IsShip() bool { return o.ClassID == codec.ClassShip }

// IsPlayerShip reports whether the object is the current ship of a player.
func (o *Object) IsPlayerShip() bool {
	return o.IsShip() && o.Owner != nil && o.Owner.ShipID == o.ID
}

// OwnerID returns the owner's player id, 0 for none (AI, server).
func (o *Object) OwnerID() int {
	if o.Owner == nil {
		return 0
	}
	return int(o.Owner.ID)
}

// Alive reports whether a ship exists and has not been destroyed.
func (o *Object) Alive() bool { return o != nil && !o.sim.dead }

// HullFraction returns the hull condition from 0 to 1, and false when the
// host has no model of the ship (unknown species, not a ship).
func (o *Object) HullFraction() (float32, bool) {
	if o.Model == nil {
		return 0, false
	}
	return o.Model.ConditionFraction(o.Model.Class().Hull), true
}

// Shields returns the ship's shield facing hit points (front, rear, top,
// bottom, left, right).
func (o *Object) Shields() [6]float32 { return o.sim.shields }

// Position returns the ship's latest position — from its owner's updates
// (or its creation message) for a player's ship, exact for a host ship —
// and whether one is known.
func (o *Object) Position() ([3]float32, bool) { return o.pos(), o.state.hasPos }

// Cloaked reports whether the ship's owner last reported its cloak on
// (StateUpdate flag 0x40).
func (o *Object) Cloaked() bool { return o.state.hasCloakFlag && o.state.cloak }

// Velocity returns a ship's velocity in world units per second: exact for
// a host ship, from the owner's last speed and heading for a player's.
func (o *Object) Velocity() [3]float32 {
	fwd, _, ok := o.axes()
	if !ok {
		return [3]float32{}
	}
	s := o.Speed()
	return [3]float32{fwd[0] * s, fwd[1] * s, fwd[2] * s}
}

// Speed returns a ship's speed along its nose, world units per second.
func (o *Object) Speed() float32 {
	if o.host != nil {
		return o.host.move.speed
	}
	if !o.state.hasSpd {
		return 0
	}
	return codec.DecodeCF16(o.state.speed)
}

// Forward returns a ship's nose and up directions, and whether they are
// known.
func (o *Object) Forward() (fwd, up [3]float32, ok bool) { return o.axes() }

// Team returns the mission's team of a ship: its owner's for a player's
// ship, the one it was created with for a host ship; -1 for none.
func (o *Object) Team() int {
	switch {
	case o.host != nil:
		return o.host.team
	case o.Owner != nil:
		return o.Owner.Team
	}
	return -1
}

// SetTeam changes a host ship's team (player ships take their owner's).
func (o *Object) SetTeam(team int) {
	if o.host != nil {
		o.host.team = team
	}
}

// Create keeps the creation message of an owner's object (ship select,
// respawn) and builds the host's model of it (opcodes.md 2,
// simulation.md 3.1, 11). A new ship replaces the owner's previous one.
// The engine has checked that the object is the owner's to create.
func (w *World) Create(now time.Time, owner *Owner, payload []byte) (*Object, error) {
	m, err := codec.DecodeObjCreate(payload)
	if err != nil {
		return nil, fmt.Errorf("object creation: %w", err)
	}
	return w.CreateFrom(now, owner, payload, &m), nil
}

// CreateFrom is Create for a message its caller decoded already (the
// engine's routing check did): m is payload decoded whole. payload is
// kept for late joiners.
func (w *World) CreateFrom(now time.Time, owner *Owner, payload []byte, m *codec.ObjCreate) *Object {
	w.now = now
	o := &Object{
		ID: m.ObjectID, ClassID: m.ClassID, OwnerSlot: int(m.OwnerSlot), Owner: owner,
		Create: append([]byte(nil), payload...),
	}
	if m.Op == codec.OpObjCreateTeam {
		o.NetPlayerID = int(m.OwnerPlayer)
	}
	old := w.objects[o.ID]
	if old != nil {
		// A repeated creation of a live id: receivers ignore ids they know,
		// so keep the new bytes for late joiners and go on.
		w.remove(old)
	}
	if o.ClassID == codec.ClassTorpedo && owner != nil && old == nil {
		w.keepTorpedo(owner, o.ID)
	}
	if o.IsShip() {
		o.Species = int(m.Ship.Species)
		o.Name = string(m.Ship.Name)
		o.Set = string(m.Ship.Set)
		o.state.pos = m.Ship.Position
		o.state.hasPos = true
		tail := m.Ship.Tail
		if w.ships != nil {
			if model, ok := w.ships.NewShip(o.Species, o.ID); ok {
				o.Model = model
			} else {
				// Unknown species: keep relaying, build no model, apply no
				// damage (simulation.md 3.3).
				w.log.Debug("ship of unknown species", "player", owner.ID, "species", o.Species)
			}
		}
		w.initSim(o)
		if o.Model != nil {
			// The tail carries each phaser system's level (simulation.md
			// 3.4); 0x12 changes it later.
			// The torpedo type is the owner's last TorpedoTypeChange.
			lv, ok := ships.TailPhaserLevel(o.Model.Class(), tail)
			for k := range o.sim.arms {
				switch s := &o.sim.arms[k]; s.weapon {
				case ships.WeaponPhaser:
					if ok && lv <= LevelHigh {
						s.level = int(lv)
					}
				case ships.WeaponTorpedo:
					s.ammoType = owner.torpedoType
				}
			}
		}
		if prev := w.ShipOf(owner); prev != nil && prev.ID != o.ID {
			w.remove(prev)
		}
		owner.ShipID = o.ID
	}
	w.add(o)
	if o.IsShip() {
		w.env.Emit(&ShipCreated{Ship: o})
	}
	return o
}

// initSim prepares a new ship's simulation state.
func (w *World) initSim(o *Object) {
	if o.Model == nil {
		return
	}
	c := o.Model.Class()
	for i := range o.sim.shields {
		if i < len(c.ShieldHP) {
			o.sim.shields[i] = c.ShieldHP[i]
		}
	}
	o.sim.shape = shapeOf(c)
	o.sim.arms = newArms(c)
	o.sim.lastPower = w.now
	o.sim.lastTick = w.now
}

// add makes an object live; a modelled ship joins the fleet in id order.
func (w *World) add(o *Object) {
	w.objects[o.ID] = o
	if o.Model == nil {
		return
	}
	i, _ := slices.BinarySearchFunc(w.fleet, o.ID, func(x *Object, id int32) int { return cmp.Compare(x.ID, id) })
	w.fleet = slices.Insert(w.fleet, i, o)
}

// keepTorpedo books a new torpedo object of owner, forgetting the owner's
// oldest one when it already has maxTorpedoObjects.
func (w *World) keepTorpedo(owner *Owner, id int32) {
	oldest := owner.torpedoes[owner.torpedoesPos]
	if o := w.objects[oldest]; o != nil && o.Owner == owner && o.ClassID == codec.ClassTorpedo {
		w.remove(o)
	}
	owner.torpedoes[owner.torpedoesPos] = id
	owner.torpedoesPos = (owner.torpedoesPos + 1) % len(owner.torpedoes)
}

// Adopt keeps an object its caller built, as it is: no model is built and
// no message is sent; a ship becomes its owner's ship and raises
// ship_created. A fake game (lua/luatest) puts its test ships in the world
// this way, so the code under test finds them where it finds any object.
func (w *World) Adopt(o *Object) {
	if old := w.objects[o.ID]; old != nil {
		w.remove(old)
	}
	w.add(o)
	if o.IsShip() {
		if o.Owner != nil {
			o.Owner.ShipID = o.ID
		}
		w.env.Emit(&ShipCreated{Ship: o})
	}
}

// RemoveOwner removes the objects of an owner who left the game: the
// players still in it get DestroyObject for its ship (handshake.md 5);
// its other objects vanish on their side with the player.
func (w *World) RemoveOwner(owner *Owner) {
	if ship := w.ShipOf(owner); ship != nil {
		w.buf = codec.DestroyObject{ObjectID: ship.ID}.AppendTo(w.buf[:0])
		w.broadcast()
	}
	for _, o := range w.Objects() {
		if o.Owner == owner {
			w.remove(o)
		}
	}
}

// Forget drops one object from the host's books without any message (a
// mod's delete message, which every client applies itself: mods.md 6.3
// type 211). It reports whether the object existed.
func (w *World) Forget(id int32) bool {
	o := w.objects[id]
	if o == nil {
		return false
	}
	w.remove(o)
	return true
}

// ForgetShips drops every player object and torpedo from the host's books
// without messages: clients delete their own on END_GAME/RESTART.
func (w *World) ForgetShips() {
	for _, o := range w.Objects() {
		if o.Owner != nil || o.ClassID == codec.ClassTorpedo {
			w.remove(o)
		}
	}
}

// remove forgets an object and raises ObjectDestroyed.
func (w *World) remove(o *Object) {
	if w.objects[o.ID] != o {
		return
	}
	delete(w.objects, o.ID)
	if i := slices.Index(w.fleet, o); i >= 0 {
		w.fleet = slices.Delete(w.fleet, i, i+1)
	}
	if o.host != nil {
		w.hostCount--
	}
	if o.Owner != nil && o.Owner.ShipID == o.ID {
		o.Owner.ShipID = 0
	}
	w.env.Emit(&ObjectDestroyed{Object: o})
}
