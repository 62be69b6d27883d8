package lua

import (
	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/fairplay"
)

// Payload tables are built by hand (no reflection): events such as tick
// and weapon_hit are on the hot path. Player fields are snapshots taken
// when the event is dispatched (bc.player reads the current values);
// objects are ship handles (ships.go), which read the current state.

func (m *mission) playerTable(p *engine.Player) glua.LValue {
	if p == nil {
		return glua.LNil
	}
	t := m.L.CreateTable(0, 10)
	t.RawSetString("id", glua.LNumber(p.ID))
	t.RawSetString("uid", glua.LNumber(m.h.opts.Identities.Of(p, m.h.eng.Now())))
	t.RawSetString("slot", glua.LNumber(p.Slot))
	t.RawSetString("name", glua.LString(p.Name))
	t.RawSetString("state", glua.LString(p.State.String()))
	t.RawSetString("in_game", glua.LBool(p.InGame()))
	if p.Team >= 0 {
		t.RawSetString("team", glua.LNumber(p.Team))
	}
	t.RawSetString("ship_id", glua.LNumber(p.ShipID))
	t.RawSetString("kills", glua.LNumber(p.Kills))
	t.RawSetString("deaths", glua.LNumber(p.Deaths))
	t.RawSetString("score", glua.LNumber(p.Score))
	if p.Account != "" {
		t.RawSetString("account", glua.LString(p.Account))
	}
	if p.Role != "" {
		t.RawSetString("role", glua.LString(p.Role))
	}
	if !p.Scored() {
		// A protected name not logged in: his points do not count yet.
		t.RawSetString("scored", glua.LFalse)
	}
	return t
}

// payload converts an engine event into its Lua table.
func (m *mission) payload(ev engine.Event) *glua.LTable {
	L := m.L
	switch e := ev.(type) {
	case *engine.PlayerConnected:
		return m.tbl("player", m.playerTable(e.Player))
	case *engine.PlayerJoined:
		return m.tbl("player", m.playerTable(e.Player))
	case *engine.PlayerInGame:
		return m.tbl("player", m.playerTable(e.Player))
	case *engine.ChecksumFailed:
		t := m.tbl("player", m.playerTable(e.Player))
		t.RawSetString("round", glua.LNumber(e.Round))
		t.RawSetString("file", glua.LString(e.File))
		t.RawSetString("reason", glua.LString(e.Reason))
		return t
	case *engine.TeamsBalanced:
		teams := L.CreateTable(0, len(e.Teams))
		for id, team := range e.Teams {
			teams.RawSetInt(int(id), glua.LNumber(team))
		}
		return m.tbl("teams", teams)
	case *engine.PlayerLeft:
		t := m.tbl("player", m.playerTable(e.Player))
		t.RawSetString("reason", glua.LString(e.Reason))
		t.RawSetString("was_in_game", glua.LBool(e.WasInGame))
		return t
	case *engine.ScriptMessage:
		t := m.tbl("player", m.playerTable(e.From))
		if e.From != nil {
			t.RawSetString("from", glua.LNumber(e.From.ID))
		}
		if len(e.Payload) > 0 {
			t.RawSetString("opcode", glua.LNumber(e.Payload[0]))
		}
		t.RawSetString("payload", glua.LString(e.Payload))
		if e.Decl != nil {
			// A type the pack declares: its name and decoded fields.
			t.RawSetString("name", glua.LString(e.Decl.Name))
			t.RawSetString("fields", m.fieldsTable(e.Fields))
		}
		return t
	case *engine.Chat:
		t := m.tbl("player", m.playerTable(e.From))
		if e.From != nil {
			t.RawSetString("from", glua.LNumber(e.From.ID))
		}
		t.RawSetString("team", glua.LBool(e.Team))
		t.RawSetString("text", glua.LString(e.Text))
		t.RawSetString("payload", glua.LString(e.Payload))
		return t
	case *engine.Tick:
		t := L.CreateTable(0, 2)
		t.RawSetString("dt", glua.LNumber(e.Dt.Seconds()))
		t.RawSetString("game_time", glua.LNumber(m.h.eng.GameTime()))
		return t
	case *engine.ShipCreated:
		return m.tbl("ship", m.handle(e.Ship))
	case *engine.ShipRequested:
		t := m.tbl("player", m.playerTable(e.Player))
		t.RawSetString("ship_id", glua.LNumber(e.ObjectID))
		t.RawSetString("species", glua.LNumber(e.Species))
		if e.Class != nil {
			t.RawSetString("class_name", glua.LString(e.Class.Name))
		}
		t.RawSetString("name", glua.LString(e.ShipName))
		if e.Player != nil && e.Player.Team >= 0 {
			t.RawSetString("team", glua.LNumber(e.Player.Team))
		}
		return t
	case *engine.ShipDestroyed:
		t := m.tbl("victim", m.handle(e.Victim))
		t.RawSetString("killer", m.handle(e.Killer))
		t.RawSetString("killer_id", glua.LNumber(e.KillerID))
		t.RawSetString("cause", glua.LString(e.Cause))
		t.RawSetString("lifetime", glua.LNumber(e.Lifetime))
		t.RawSetString("weapon", glua.LNumber(e.Weapon))
		t.RawSetString("weapon_name", glua.LString(e.WeaponName))
		t.RawSetString("kind", glua.LString(e.Kind))
		return t
	case *engine.ObjectDestroyed:
		return m.tbl("object", m.handle(e.Object))
	case *engine.WeaponFired:
		t := m.tbl("shooter", m.playerTable(e.Shooter))
		if e.Shooter != nil {
			t.RawSetString("shooter_id", glua.LNumber(e.Shooter.ID))
		}
		t.RawSetString("opcode", glua.LNumber(e.Opcode))
		t.RawSetString("weapon", glua.LNumber(e.Weapon))
		t.RawSetString("target", glua.LNumber(e.Target))
		return t
	case *engine.WeaponHit:
		t := m.tbl("target", m.handle(e.Target))
		t.RawSetString("shooter", m.handle(e.Shooter))
		t.RawSetString("shooter_id", glua.LNumber(e.ShooterID))
		t.RawSetString("damage", glua.LNumber(e.Damage))
		t.RawSetString("absorbed", glua.LNumber(e.Absorbed))
		t.RawSetString("hull_hit", glua.LBool(e.HullHit))
		t.RawSetString("weapon", glua.LNumber(e.Weapon))
		t.RawSetString("weapon_name", glua.LString(e.WeaponName))
		t.RawSetString("kind", glua.LString(e.Kind))
		return t
	case *engine.ShipDamaged:
		t := m.tbl("ship", m.handle(e.Ship))
		t.RawSetString("attacker", m.handle(e.Attacker))
		t.RawSetString("attacker_id", glua.LNumber(e.AttackerID))
		t.RawSetString("cause", glua.LString(e.Cause))
		t.RawSetString("damage", glua.LNumber(e.Damage))
		t.RawSetString("hull_hit", glua.LBool(e.HullHit))
		t.RawSetString("kind", glua.LString(e.Kind))
		return t
	case *engine.GameEnded:
		t := m.tbl("reason", glua.LNumber(e.Reason))
		m.outcomeTable(t, e.Outcome)
		return t
	case *engine.GameRestarted:
		return L.CreateTable(0, 0)
	case *engine.Violation:
		t := m.tbl("player", m.playerTable(e.Player))
		t.RawSetString("rule", glua.LString(e.Rule.String()))
		t.RawSetString("detail", glua.LString(e.Detail()))
		t.RawSetString("value", glua.LNumber(e.Value))
		t.RawSetString("limit", glua.LNumber(e.Limit))
		t.RawSetString("unit", glua.LString(e.Rule.Unit()))
		t.RawSetString("opcode", glua.LNumber(e.Opcode))
		t.RawSetString("object", glua.LNumber(e.Object))
		t.RawSetString("score", glua.LNumber(e.Score))
		t.RawSetString("count", glua.LNumber(e.Count))
		t.RawSetString("action", glua.LString(e.Action.String()))
		return t
	}
	return L.CreateTable(0, 0)
}

func (m *mission) tbl(k string, v glua.LValue) *glua.LTable {
	t := m.L.CreateTable(0, 6)
	t.RawSetString(k, v)
	return t
}

// dispatch calls the handlers of an engine event. Return values: a chat
// handler returning false cancels the relay (engine.Chat.Cancel); a
// script_message handler returning true marks the message handled; a
// violation handler returning a step's name decides what happens.
func (m *mission) dispatch(ev engine.Event) {
	name := ev.Name()
	hs := m.handlers[name]
	switch e := ev.(type) {
	case *engine.ScriptMessage:
		if len(e.Payload) > m.h.opts.MaxMessage {
			m.h.log.Debug("script message too long for the mission", "bytes", len(e.Payload))
			return
		}
	case *engine.Chat:
		if len(m.commands.byName) > 0 || len(e.Text) > 0 && e.Text[0] == commandPrefix {
			if m.chatCommand(e) {
				e.Cancel = true
				return
			}
		}
		if len(hs) == 0 {
			return
		}
	}
	arg := m.payload(ev)
	if e, ok := ev.(*engine.ShipRequested); ok {
		m.vetoShip(e, hs, arg)
		return
	}
	for _, hd := range hs {
		if m.closed {
			return
		}
		ret, ok := m.call(name, hd.fn, arg)
		if !ok {
			continue
		}
		switch e := ev.(type) {
		case *engine.Chat:
			if ret == glua.LFalse {
				e.Cancel = true
			}
		case *engine.ScriptMessage:
			if ret == glua.LTrue {
				e.Handled = true
			}
		case *engine.Violation:
			// A league decides itself: a handler returning a step's name
			// ("log", "drop", "notify", "kick", "ban") replaces what the
			// thresholds chose.
			if s, ok := ret.(glua.LString); ok {
				if a, ok := fairplay.ParseAction(string(s)); ok {
					e.Action = a
				} else {
					m.h.log.Warn("violation handler returned an unknown action", "action", string(s))
				}
			}
		}
	}
}

// vetoShip runs the ship_requested handlers until one refuses the ship by
// returning false (and, optionally, the reason the player reads).
func (m *mission) vetoShip(e *engine.ShipRequested, hs []handler, arg glua.LValue) {
	for _, hd := range hs {
		if m.closed {
			return
		}
		ret, why, err := m.pcallN(hd.fn, arg, 2)
		if err != nil {
			m.report(e.Name(), err)
			continue
		}
		if ret == glua.LFalse {
			reason, _ := why.(glua.LString)
			e.Refuse(string(reason))
			return
		}
	}
}
