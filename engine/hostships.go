package engine

import "github.com/bcserver/bcserver/engine/world"

// Host ships: ships the host creates and flies itself (simulation.md 3.5,
// engine/world hostships.go). Missions create them through these; the
// world's controls (World().MoveTo, FireAt, ...) fly and fight them.

// HostShipSpec describes a ship the host creates (world.HostShipSpec).
type HostShipSpec = world.HostShipSpec

// PrepareHostShip builds a host ship without announcing it (a mission that
// loads transactionally announces it once it has loaded). It fails when
// every player slot is held: host ships need one no player has
// (opcodes.md 6).
func (g *Game) PrepareHostShip(spec HostShipSpec) (*Object, error) {
	return g.world.PrepareHostShip(spec, func(slot int) bool { return g.PlayerBySlot(slot) != nil })
}

// AddHostShip announces a prepared host ship to every player (ObjCreate
// 0x02) and raises ship_created; late joiners get it with the other
// objects.
func (g *Game) AddHostShip(o *Object) error { return g.world.AddHostShip(g.now, o) }

// RemoveHostShip deletes a host ship (DestroyObject 0x14 while it lives).
func (g *Game) RemoveHostShip(o *Object) { g.world.RemoveHostShip(g.now, o) }

// DestroyHostShip blows a host ship up with the stock death sequence and
// no killer.
func (g *Game) DestroyHostShip(o *Object) { g.world.DestroyHostShip(g.now, o) }
