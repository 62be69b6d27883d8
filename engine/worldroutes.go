package engine

import (
	"errors"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/world"
)

// The routing table's hand-off to the world: each apply function below runs
// after the row's check has validated the sender (opcodes.md 4), decodes
// what the check did not, and calls the world with the sender as owner and
// the time of the datagram.

// applyObjCreate: a client's ship select or respawn (opcodes.md 2,
// simulation.md 3.1).
func applyObjCreate(g *Game, p *Player, payload []byte, _ bool) {
	_, _ = g.world.Create(g.now, &p.Owner, payload) // the header was checked
}

// applyStateUpdate takes an owner's StateUpdate (opcodes.md 2, 0x1C): only
// for an object the sender owns; an update carrying only the subsystem flag
// is dropped, subsystem health being the host's.
func applyStateUpdate(g *Game, p *Player, payload []byte, _ bool) {
	m, err := codec.DecodeStateUpdate(payload, codec.SubsystemsToEnd)
	if err != nil {
		g.malformed(p, payload[0], err)
		return
	}
	if !owns(p, m.ObjectID) {
		g.violation(p, payload[0], "state update for an object the sender does not own", m.ObjectID)
		return
	}
	if m.Flags == codec.StateSubsystems {
		g.Stats.RelayDropped.Add(1)
		return
	}
	if mm, bad := g.world.StateUpdate(g.now, &p.Owner, &m); bad {
		g.integrityMismatch(p, mm)
	}
}

// applyCollision consumes a CollisionEffect report (simulation.md 6); a
// report about ships none of which is the sender's counts as spoofing.
func applyCollision(g *Game, p *Player, payload []byte, _ bool) {
	ce, err := codec.DecodeCollisionEffect(payload)
	if err != nil {
		g.malformed(p, payload[0], err)
		return
	}
	if err := g.world.Collision(g.now, &p.Owner, &ce); errors.Is(err, world.ErrForeignCollision) {
		g.violation(p, payload[0], err.Error(), ce.Target)
	}
}

// applySelfDestruct executes HostMsg 0x13 (simulation.md 7).
func applySelfDestruct(g *Game, p *Player, _ []byte, _ bool) { g.world.SelfDestruct(g.now, &p.Owner) }

// applySubsystemStatus: an owner's on/off toggle (0x0A, simulation.md 10).
func applySubsystemStatus(g *Game, p *Player, payload []byte, _ bool) {
	if ev, err := codec.DecodeEvent(payload); err == nil {
		g.world.SubsystemStatus(&p.Owner, &ev)
	}
}

// applyRepairPriority: a repair queue toggle (0x11, simulation.md 8).
func applyRepairPriority(g *Game, p *Player, payload []byte, _ bool) {
	if ev, err := codec.DecodeEvent(payload); err == nil {
		g.world.RepairPriority(&p.Owner, &ev)
	}
}

// applyTorpedoType: the torpedo type a player selected (0x1B).
func applyTorpedoType(g *Game, p *Player, payload []byte, _ bool) {
	if ev, err := codec.DecodeEvent(payload); err == nil {
		g.world.TorpedoType(&p.Owner, &ev)
	}
}

// applyWeaponEvent raises weapon_fired for missions and plugins and hands
// shots that name a target to the world's weapon model.
func applyWeaponEvent(g *Game, p *Player, payload []byte, _ bool) {
	op := payload[0]
	subscribed := g.bus.has(EvWeaponFired)
	if op == codec.OpStartFiring && !subscribed {
		return // nothing to raise, and StartFiring carries no hit for the model
	}
	// A value, so that a shot nobody listens for allocates nothing: only
	// the event handed to subscribers goes to the heap.
	ev := WeaponFired{Shooter: p, Opcode: op}
	var aim *codec.ScaledPoint
	switch payload[0] {
	case codec.OpTorpedoFire:
		if m, err := codec.DecodeTorpedoFire(payload); err == nil {
			ev.Weapon = m.TubeID
			if m.HasTarget() {
				ev.Target = m.Target
				aim = &m.Point
			}
		}
	case codec.OpBeamFire:
		if m, err := codec.DecodeBeamFire(payload); err == nil {
			ev.Weapon = m.BeamID
			if m.HasTarget() {
				ev.Target = m.Target
			}
		}
	default:
		if m, err := codec.DecodeEvent(payload); err == nil {
			ev.Weapon, ev.Target = m.Src, m.Dst
		}
	}
	if subscribed {
		e := ev
		g.bus.emit(&e)
	}
	if ev.Opcode == codec.OpTorpedoFire || ev.Opcode == codec.OpBeamFire {
		g.world.Fire(g.now, &p.Owner, ev.Opcode, ev.Weapon, ev.Target, aim)
	}
}

// applyRequestObject answers 0x1E with the object's creation message, to
// the requester only, when the object exists and is not dying; an unknown
// or dying id gets no answer at all (opcodes.md 3.10).
func applyRequestObject(g *Game, p *Player, payload []byte, _ bool) {
	m, err := codec.DecodeRequestObject(payload)
	if err != nil {
		g.malformed(p, payload[0], err)
		return
	}
	if o := g.world.Object(m.ObjectID); o != nil && o.Alive() && len(o.Create) > 0 {
		_ = g.Send(p, o.Create)
	}
}
