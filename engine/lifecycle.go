package engine

import (
	"github.com/bcserver/bcserver/codec"
)

// applyObjCreate keeps the creation message of a client's object (ship
// select, respawn) and builds the host's model of it (opcodes.md 2,
// simulation.md 3.1, 11). A new ship replaces the player's previous one.
func applyObjCreate(g *Game, p *Player, payload []byte, _ bool) {
	m, err := codec.DecodeObjCreateHeader(payload)
	if err != nil {
		return // checked before
	}
	o := &Object{
		ID: m.ObjectID, ClassID: m.ClassID, OwnerSlot: int(m.OwnerSlot), Owner: p,
		Create: append([]byte(nil), payload...),
	}
	if m.Op == codec.OpObjCreateTeam {
		o.NetPlayerID = int(m.OwnerPlayer)
	}
	if old := g.objects[o.ID]; old != nil {
		// A repeated creation of a live id: receivers ignore ids they know,
		// so keep the new bytes for late joiners and go on.
		g.removeObject(old)
	}
	if o.IsShip() {
		if full, err := codec.DecodeObjCreate(payload); err == nil {
			o.Species = int(full.Ship.Species)
			o.Name = string(full.Ship.Name)
			o.Set = string(full.Ship.Set)
			o.state.pos = full.Ship.Position
			o.state.hasPos = true
		}
		if g.ships != nil {
			if model, ok := g.ships.NewShip(o.Species, o.ID); ok {
				o.Model = model
			} else {
				// Unknown species: keep relaying, build no model, apply no
				// damage (simulation.md 3.3).
				g.log.Debug("ship of unknown species", "player", p.ID, "species", o.Species)
			}
		}
		g.initSim(o)
		if prev := g.ShipOf(p); prev != nil && prev.ID != o.ID {
			g.removeObject(prev)
		}
		p.ShipID = o.ID
	}
	g.objects[o.ID] = o
	if o.IsShip() {
		g.bus.emit(&ShipCreated{Ship: o})
	}
}

// replicateTo sends a late joiner every live object the way the stock host
// does: the creation message of each, as it was received
// (handshake.md 2.6).
func (g *Game) replicateTo(p *Player) {
	for _, o := range g.Objects() {
		if len(o.Create) > 0 && o.Owner != p {
			_ = g.Send(p, o.Create)
		}
	}
}

// dropPlayerObjects removes a leaving player's objects. The others get
// DestroyObject for the ship (handshake.md 5); other objects of the player
// vanish on their side with the player.
func (g *Game) dropPlayerObjects(p *Player) {
	if ship := g.ShipOf(p); ship != nil {
		g.buf = codec.DestroyObject{ObjectID: ship.ID}.AppendTo(g.buf[:0])
		g.SendInGame(g.buf, p)
	}
	for _, o := range g.Objects() {
		if o.Owner == p {
			g.removeObject(o)
		}
	}
}
