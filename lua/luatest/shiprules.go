package luatest

import "github.com/bcserver/bcserver/engine"

// SetShipRules implements lua.Engine: the fake keeps the rules as the
// engine does and answers ShipAllowed by the engine's rule.
func (e *Engine) SetShipRules(r *engine.ShipRules) {
	if r == nil || len(r.Classes) == 0 && len(r.Teams) == 0 {
		e.shipRules = nil
		return
	}
	c := *r
	e.shipRules = &c
}

// ShipRules implements lua.Engine.
func (e *Engine) ShipRules() *engine.ShipRules { return e.shipRules }

// ShipAllowed implements lua.Engine.
func (e *Engine) ShipAllowed(p *engine.Player, species int) (bool, string) {
	return e.shipRules.Check(e.World().Ships(), p.Team, species)
}

// RequestShip raises ship_requested for a new ship of p as the engine does
// for one the rules allow, and returns the refusal, if any.
func (e *Engine) RequestShip(p *engine.Player, species int, id int32) (why string, refused bool) {
	if ok, why := e.ShipAllowed(p, species); !ok {
		return why, true
	}
	ev := &engine.ShipRequested{Player: p, ObjectID: id, Species: species, ShipName: p.Name}
	ev.Class, _ = e.World().Ships().Class(species)
	e.Emit(ev)
	return ev.Refused()
}
