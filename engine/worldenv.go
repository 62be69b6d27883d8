package engine

import (
	"time"

	"github.com/bcserver/bcserver/engine/world"
)

// The world's types and events, under the names missions and plugins have
// always used: the engine's event API carries them, engine/world owns them.
type (
	// Object is a network object the host knows of (world.Object).
	Object = world.Object
	// DeathCause says what destroyed a ship (world.DeathCause).
	DeathCause = world.DeathCause
	// ShipCreated is raised by the world (world.ShipCreated).
	ShipCreated = world.ShipCreated
	// ShipDestroyed is raised by the world (world.ShipDestroyed).
	ShipDestroyed = world.ShipDestroyed
	// ObjectDestroyed is raised by the world (world.ObjectDestroyed).
	ObjectDestroyed = world.ObjectDestroyed
	// WeaponHit is raised by the world (world.WeaponHit).
	WeaponHit = world.WeaponHit
	// ShipDamaged is raised by the world (world.ShipDamaged).
	ShipDamaged = world.ShipDamaged
	// WeaponKind says what kind of weapon dealt a hit or a death
	// (world.WeaponKind).
	WeaponKind = world.WeaponKind
)

// Event names raised by the world.
const (
	EvShipCreated     = world.EvShipCreated
	EvShipDestroyed   = world.EvShipDestroyed
	EvObjectDestroyed = world.EvObjectDestroyed
	EvWeaponHit       = world.EvWeaponHit
	EvShipDamaged     = world.EvShipDamaged
)

// Death causes.
const (
	CauseWeapon       = world.CauseWeapon
	CauseCollision    = world.CauseCollision
	CauseSelfDestruct = world.CauseSelfDestruct
	CauseEnvironment  = world.CauseEnvironment
)

// World returns the game's world model.
func (g *Game) World() *world.World { return g.world }

// Object returns the live object with id, or nil.
func (g *Game) Object(id int32) *Object { return g.world.Object(id) }

// Objects returns the live objects ordered by id.
func (g *Game) Objects() []*Object { return g.world.Objects() }

// ShipOf returns the player's current ship, or nil.
func (g *Game) ShipOf(p *Player) *Object {
	if p == nil {
		return nil
	}
	return g.world.ShipOf(&p.Owner)
}

// PlayerOf returns the connected player who owns o; nil for an object the
// host owns or whose owner is gone.
func (g *Game) PlayerOf(o *Object) *Player {
	if o == nil || o.Owner == nil {
		return nil
	}
	if p := g.byID[o.Owner.ID]; p != nil && &p.Owner == o.Owner {
		return p
	}
	return nil
}

// SetWeaponDamage turns host-side weapon damage on or off (weapon kills
// go unnoticed by the host while it is off).
func (g *Game) SetWeaponDamage(on bool) { g.world.SetWeaponDamage(on) }

// worldEnv is the Game as the world's Env: the world's events go on the
// game's event bus and its messages to the players in the game.
type worldEnv Game

var _ world.Env = (*worldEnv)(nil)

func (h *worldEnv) Emit(ev world.Event) { h.bus.emit(ev) }

func (h *worldEnv) Broadcast(payload []byte) { (*Game)(h).SendInGame(payload, nil) }

func (h *worldEnv) Viewers(dst []*world.Owner) []*world.Owner {
	for _, p := range h.bySlot {
		if p != nil && p.InGame() {
			dst = append(dst, &p.Owner)
		}
	}
	return dst
}

func (h *worldEnv) Send(to *world.Owner, payload []byte, reliable bool) {
	if p := h.byID[to.ID]; p != nil && &p.Owner == to {
		_ = p.peer.Send(payload, reliable)
	}
}

func (h *worldEnv) Now() time.Time { return h.now }

func (h *worldEnv) After(d time.Duration, fn func(now time.Time)) (cancel func()) {
	g := (*Game)(h)
	return g.After(d, func() { fn(g.now) })
}

// replicateTo sends a late joiner every live object the way the stock host
// does: the creation message of each, as it was received
// (handshake.md 2.6).
func (g *Game) replicateTo(p *Player) {
	for _, o := range g.world.Objects() {
		if len(o.Create) > 0 && o.Owner != &p.Owner {
			_ = g.Send(p, o.Create)
		}
	}
}
