package engine

import (
	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/scriptmsg"
)

// A modded game's rules beyond the join: ship classes without data (relay
// only, mods.md 4) and the mod's declared script messages (mods.md 6).

// modState is what those rules remember for the game.
type modState struct {
	pushes    pushLog       // recent file pushes by client address
	pushWarns pushWarnLog   // when each client address was last warned about, by warning
	relayOnly map[int]bool  // species already logged as relay-only
	msgLogged map[byte]bool // script message types already logged as dropped
}

// noteRelayOnly logs, once per species and game, a ship the host has no
// class data for: it is relayed and replayed unchanged, without a model,
// damage or 0x20 (mods.md 4.3 rule 6). The species byte is unsigned to the
// server; a stock receiver widens it as signed (4.1), which the log shows
// for 128..255.
func (g *Game) noteRelayOnly(p *Player, m *codec.ObjCreate) {
	if m.ClassID != codec.ClassShip {
		return
	}
	species := int(m.Ship.Species)
	if _, ok := g.Ships().Class(species); ok || g.mod.relayOnly[species] {
		return
	}
	if g.mod.relayOnly == nil {
		g.mod.relayOnly = map[int]bool{}
	}
	g.mod.relayOnly[species] = true
	args := []any{"species", species, "player", p.ID, "name", p.Name}
	if species > 127 {
		args = append(args, "stock_reads", species-256)
	}
	if script, ok := g.Ships().ShipScript(species); ok {
		args = append(args, "ship_script", script)
	}
	g.log.Info("ship class without data: relayed only (no damage, no subsystem updates)", args...)
}

// scriptMessage handles a script message (opcode >= 0x2B, not chat) from
// an in-game player: an undeclared type goes to the mission as bytes; a
// declared one is checked, decoded for the mission and, unless a handler
// took it, applied by its policy (mods.md 6.5).
func (g *Game) scriptMessage(p *Player, payload []byte) {
	decl := g.cfg.ScriptMessages.Lookup(payload[0])
	if decl == nil {
		g.bus.emit(&ScriptMessage{From: p, Payload: payload})
		return
	}
	if decl.From == scriptmsg.FromHost {
		g.Stats.RelayDropped.Add(1)
		g.logDroppedOnce(p, decl, "only the host sends it")
		return
	}
	fields, err := decl.Decode(payload)
	if err != nil {
		g.malformed(p, payload[0], err)
		return
	}
	if !g.scriptOwner(p, decl, fields) {
		return
	}
	ev := &ScriptMessage{From: p, Payload: payload, Decl: decl, Fields: fields}
	g.bus.emit(ev)
	if ev.Handled {
		return
	}
	switch decl.Policy {
	case scriptmsg.PolicyForward:
		g.forwardScript(payload)
	case scriptmsg.PolicyApply:
		if g.applyEffect(p, decl, fields) {
			g.forwardScript(payload)
		}
	case scriptmsg.PolicyHost:
		g.logDroppedOnce(p, decl, "a host-only type no mission took (never forwarded)")
	}
}

// forwardScript sends a script message unchanged to every in-game client,
// the sender included: the stock "NoMe" group a mod's host script re-sends
// to (mods.md 6.2). Never to a joining peer (6.5 rule 4).
func (g *Game) forwardScript(payload []byte) {
	g.Stats.Relayed.Add(1)
	g.SendInGame(payload, nil)
}

// scriptOwner applies a declared type's ownership check: the owner field
// must name an object of the sender's id block, or the self field the
// sender's own player id.
func (g *Game) scriptOwner(p *Player, decl *scriptmsg.Type, fields []scriptmsg.Value) bool {
	if decl.Owner == "" {
		return true
	}
	id, _ := scriptmsg.Int(fields, decl.Owner)
	if owns(p, int32(id)) {
		return true
	}
	if decl.Self != "" {
		if self, _ := scriptmsg.Int(fields, decl.Self); self == int64(p.ID) {
			return true
		}
	}
	g.violation(p, decl.Type, decl.Name+": object of another player", int32(id))
	return false
}

// applyEffect runs a declared type's built-in effect and reports whether
// it took effect (and so is forwarded).
func (g *Game) applyEffect(p *Player, decl *scriptmsg.Type, fields []scriptmsg.Value) bool {
	id, _ := scriptmsg.Int(fields, "object")
	o := g.world.Object(int32(id))
	switch decl.Effect {
	case scriptmsg.EffectNetPlayerID:
		// KM 205: the ship's net player id (kill credit, opcodes.md 3.1).
		npid, _ := scriptmsg.Int(fields, "net_player_id")
		if o == nil {
			g.logDroppedOnce(p, decl, "for an object the server does not know")
			return false
		}
		o.NetPlayerID = int(npid)
		// Late joiners get the ObjCreateTeam as kept; its byte 2 is the
		// net player id the stock host would now write (opcodes.md 3.1).
		if len(o.Create) > 2 && o.Create[0] == codec.OpObjCreateTeam && npid > 0 && npid <= 0xFF {
			o.Create[2] = byte(npid)
		}
		return true
	case scriptmsg.EffectDeleteObject:
		// KM 211: gone from the server's books without a 0x14, forwarded
		// once; a repeat for an id already gone is dropped (mods.md 6.3).
		return g.world.Forget(int32(id))
	}
	return false
}

func (g *Game) logDroppedOnce(p *Player, decl *scriptmsg.Type, why string) {
	if g.mod.msgLogged[decl.Type] {
		g.log.Debug("script message dropped", "type", decl.Type, "name", decl.Name, "player", p.ID, "why", why)
		return
	}
	if g.mod.msgLogged == nil {
		g.mod.msgLogged = map[byte]bool{}
	}
	g.mod.msgLogged[decl.Type] = true
	g.log.Info("script message dropped (logged once per type)", "type", decl.Type, "name", decl.Name, "player", p.ID, "why", why)
}

// logModSetup says at start how the game is modded: the ship data layers,
// the round-0xFF rule and client scripts (with what was left out of them),
// the declared script messages.
func (g *Game) logModSetup() {
	if layers := g.Ships().Layers(); len(layers) > 1 {
		g.log.Info("ship data", "layers", layers)
	}
	if t := g.cfg.PushTree; t != nil {
		g.log.Info("client scripts (Scripts/Multiplayer)", "push", g.cfg.Push, "files", t.Files(), "bytes", t.Bytes())
		for _, s := range t.Skipped {
			g.log.Warn("client scripts: file left out", "file", s)
		}
	}
	if m := g.cfg.ScriptMessages; m != nil {
		g.log.Info("mod script messages declared", "table", m.Name, "types", len(m.Messages))
	}
}
