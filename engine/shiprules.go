package engine

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// Ship rules: which classes players may fly, per game and per team,
// enforced by the host when a client's ship arrives (its ObjCreate or
// ObjCreateTeam from ship select or a respawn), and a veto missions and
// plugins may cast on each new ship (ShipRequested).
//
// A stock client builds its ship itself and then announces it; there is no
// message that refuses one (opcodes.md 2, simulation.md 11). What a stock
// client does do is go back to ship select by itself when its ship dies
// (missions.md 3.7). So a refused ship is never relayed, kept for late
// joiners or modelled by the host — nobody but its owner ever sees it — and
// the owner gets a chat line from the host saying why, then the stock death
// of that ship (the ObjectExploding event every death sends, simulation.md
// 9.2, with no killer), after which his client offers ship select again.

// ShipRules restrict the classes players may fly. The zero value allows
// any class.
type ShipRules struct {
	// Classes are the species indexes every player may fly; empty: any.
	Classes []int
	// Teams override Classes for the players on a team (Player.Team, as
	// the mission set it).
	Teams map[int][]int
}

// EvShipRequested names ShipRequested on the event bus.
const EvShipRequested = "ship_requested"

// ShipRequested is raised for a player's new ship that the ship rules
// allow, before the host accepts it: a handler may Refuse it, and then
// nothing else hears of it (no ship_created, no relay).
type ShipRequested struct {
	Player   *Player
	ObjectID int32
	Species  int
	// Class is the ship data of Species; nil for a species without data.
	Class *ships.Class
	// ShipName is the ship's name (the player's, as stock clients set it).
	ShipName string

	refused bool
	reason  string
}

// Name implements Event.
func (*ShipRequested) Name() string { return EvShipRequested }

// Refuse turns the ship down; reason is what the player reads ("" for a
// plain refusal). The first refusal counts.
func (e *ShipRequested) Refuse(reason string) {
	if !e.refused {
		e.refused, e.reason = true, reason
	}
}

// Refused reports whether a handler refused the ship, and why.
func (e *ShipRequested) Refused() (string, bool) { return e.reason, e.refused }

// shipGate is the game's ship rules and the pace of its log lines.
type shipGate struct {
	rules    *ShipRules // nil: any class
	loggedAt time.Time
}

// refusedShipLifetime is the explosion lifetime of a refused ship: how long
// its owner watches it go before ship select. Stock deaths use 9.5 s and
// 12.9 s (simulation.md 9.2); a refusal is not a fight, so it is short.
// That a client takes the lifetime from the event is inferred from the
// host sending it (the receiver's use is not traced).
const refusedShipLifetime float32 = 3

// SetShipRules sets the classes players may fly (nil: any). It applies to
// ships announced from now on; ships already flying stay.
func (g *Game) SetShipRules(r *ShipRules) {
	if r == nil || len(r.Classes) == 0 && len(r.Teams) == 0 {
		g.shipGate.rules = nil
		return
	}
	c := &ShipRules{Classes: slices.Clone(r.Classes), Teams: make(map[int][]int, len(r.Teams))}
	for t, list := range r.Teams {
		c.Teams[t] = slices.Clone(list)
	}
	g.shipGate.rules = c
}

// ShipRules returns a copy of the rules in force, nil when any class is
// allowed.
func (g *Game) ShipRules() *ShipRules {
	if g.shipGate.rules == nil {
		return nil
	}
	r := *g.shipGate.rules
	r.Classes = slices.Clone(r.Classes)
	r.Teams = make(map[int][]int, len(g.shipGate.rules.Teams))
	for t, list := range g.shipGate.rules.Teams {
		r.Teams[t] = slices.Clone(list)
	}
	return &r
}

// ShipAllowed reports whether the rules let p fly species; when not, why
// is the line the player reads.
func (g *Game) ShipAllowed(p *Player, species int) (ok bool, why string) {
	return g.shipGate.rules.Check(g.Ships(), p.Team, species)
}

// Check reports whether a player on team (-1 for none) may fly species
// under r (nil allows any class); when not, why names the class and the
// ones he may fly, for the player to read.
func (r *ShipRules) Check(reg *ships.Registry, team, species int) (ok bool, why string) {
	if r == nil {
		return true, ""
	}
	list, where := r.Classes, "in this game"
	if t, has := r.Teams[team]; has && team >= 0 {
		list, where = t, "on your team"
	}
	if len(list) == 0 || slices.Contains(list, species) {
		return true, ""
	}
	names := make([]string, len(list))
	for i, s := range list {
		names[i] = className(reg, s)
	}
	return false, fmt.Sprintf("The %s is not allowed %s. You may fly: %s.", className(reg, species), where, strings.Join(names, ", "))
}

// className names a species for players: its ship data class name.
func className(reg *ships.Registry, species int) string {
	if reg != nil {
		if c, ok := reg.Class(species); ok {
			return c.Name
		}
	}
	return "ship of species " + strconv.Itoa(species)
}

// acceptShip is the routing-table action of a client's ObjCreate and
// ObjCreateTeam once checkObjCreate passed: a new ship the rules or a
// veto refuse is turned down; anything else (an allowed ship, a torpedo) is
// taken into the world and relayed as before.
func acceptShip(g *Game, p *Player, in *inbound) {
	if id, why, refused := g.admitShip(p, &in.obj); refused {
		g.refuseShip(p, id, why)
		return
	}
	applyObjCreate(g, p, in)
	g.relay(p, in.payload, in.reliable)
}

// admitShip applies the ship rules and the ShipRequested veto to a new
// ship of p.
func (g *Game) admitShip(p *Player, m *codec.ObjCreate) (id int32, why string, refused bool) {
	if g.shipGate.rules == nil && !g.bus.has(EvShipRequested) {
		return 0, "", false
	}
	if m.ClassID != codec.ClassShip {
		return 0, "", false
	}
	// The ship the player flies, announced again: not a new choice.
	if o := g.world.Object(m.ObjectID); o != nil && o.Owner == &p.Owner {
		return 0, "", false
	}
	species := int(m.Ship.Species)
	if ok, why := g.ShipAllowed(p, species); !ok {
		return m.ObjectID, why, true
	}
	ev := &ShipRequested{Player: p, ObjectID: m.ObjectID, Species: species, ShipName: string(m.Ship.Name)}
	if reg := g.Ships(); reg != nil {
		ev.Class, _ = reg.Class(species)
	}
	g.bus.emit(ev)
	if reason, refused := ev.Refused(); refused {
		if reason == "" {
			reason = "Your ship was refused."
		}
		return m.ObjectID, reason, true
	}
	return 0, "", false
}

// refuseShip tells p why his ship id is refused and sends it the stock
// death (to him alone), which takes his client back to ship select.
func (g *Game) refuseShip(p *Player, id int32, why string) {
	// One line a second at info: a client that keeps announcing forbidden
	// ships (its flow limit bounds how fast) must not flood the log.
	level := slog.LevelDebug
	if g.now.Sub(g.shipGate.loggedAt) >= time.Second {
		g.shipGate.loggedAt, level = g.now, slog.LevelInfo
	}
	g.log.Log(context.Background(), level, "ship refused", "player", p.ID, "name", p.Name, "ship", id, "why", why)
	g.buf = ServerNotice(g.buf[:0], why)
	_ = g.send(p, g.buf, true)
	g.buf = codec.ObjectExploding{Op: codec.OpPythonEvent, Code: codec.EventObjectExploding, Dst: id,
		Lifetime: refusedShipLifetime}.AppendTo(g.buf[:0])
	_ = g.send(p, g.buf, true)
}
