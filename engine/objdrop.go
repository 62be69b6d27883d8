package engine

import (
	"errors"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// objCreateDropped logs, once per player at info, why the host dropped a
// ship creation of theirs. The drop itself is counted and logged at debug
// like any bad message; without this line a client whose ship data
// differs from the host's (another release of a mod, a renumbered species
// table, a bot given the wrong data) flies a ship nobody else sees while
// the host says nothing an operator reads.
func (g *Game) objCreateDropped(p *Player, m *codec.ObjCreate, err error) {
	if p.objDropLogged {
		return
	}
	p.objDropLogged = true
	args := []any{"player", p.ID, "name", p.Name, "why", err.Error()}
	if m.ClassID == codec.ClassShip {
		args = append(args, "species", int(m.Ship.Species))
	}
	if errors.Is(err, ships.ErrTail) {
		args = append(args, "hint", "the client's subsystem list for this species differs from the server's ship data (another mod release or species table?)")
	}
	g.log.Info("ship creation dropped (logged once per player)", args...)
}
