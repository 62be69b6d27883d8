package engine

import (
	"errors"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/world"
)

// The routing table's hand-off to the world: each apply function below runs
// after the row's check has validated the sender (opcodes.md 4) and uses
// the message as the check decoded it; a row without a check decodes its
// message here. The world is called with the sender as owner and the time
// of the datagram.

// applyObjCreate: a client's ship select or respawn (opcodes.md 2,
// simulation.md 3.1).
func applyObjCreate(g *Game, p *Player, in *inbound) {
	g.world.CreateFrom(g.now, &p.Owner, in.payload, &in.obj)
}

// checkStateUpdate decodes an owner's StateUpdate (opcodes.md 2, 0x1C):
// only for an object the sender owns; an update carrying only the
// subsystem flag is dropped, subsystem health being the host's.
func checkStateUpdate(g *Game, p *Player, in *inbound) bool {
	payload := in.payload
	if !decodeInto(g, p, in, &in.state, decodeStateUpdate) {
		return false
	}
	m := &in.state
	if !owns(p, m.ObjectID) {
		g.violation(p, payload[0], "state update for an object the sender does not own", m.ObjectID)
		return false
	}
	if m.Flags == codec.StateSubsystems {
		g.Stats.RelayDropped.Add(1)
		return false
	}
	return true
}

func decodeStateUpdate(b []byte) (codec.StateUpdate, error) {
	return codec.DecodeStateUpdate(b, codec.SubsystemsToEnd)
}

// applyStateUpdate takes the owner's movement fields into the world.
func applyStateUpdate(g *Game, p *Player, in *inbound) {
	if mm, bad := g.world.StateUpdate(g.now, &p.Owner, &in.state); bad {
		g.integrityMismatch(p, mm)
	}
}

// applyCollision consumes a CollisionEffect report (simulation.md 6); a
// report about ships none of which is the sender's counts as spoofing.
func applyCollision(g *Game, p *Player, in *inbound) {
	payload := in.payload
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
func applySelfDestruct(g *Game, p *Player, _ *inbound) { g.world.SelfDestruct(g.now, &p.Owner) }

// applySubsystemStatus: an owner's on/off toggle (0x0A, simulation.md 10).
func applySubsystemStatus(g *Game, p *Player, in *inbound) { g.world.SubsystemStatus(&p.Owner, &in.ev) }

// applyRepairPriority: a repair queue toggle (0x11, simulation.md 8).
func applyRepairPriority(g *Game, p *Player, in *inbound) { g.world.RepairPriority(&p.Owner, &in.ev) }

// applyTorpedoType: the torpedo type a player selected (0x1B).
func applyTorpedoType(g *Game, p *Player, in *inbound) { g.world.TorpedoType(&p.Owner, &in.ev) }

// applyStartFiring: an owner's phaser (or tractor) system starts firing at
// a target (0x07, opcodes.md 3.2): weapon_fired names the system and the
// target, and the world's copy of the system takes the target.
func applyStartFiring(g *Game, p *Player, in *inbound) {
	m, err := in.ev.AsStartFiring()
	if err != nil {
		return // another event class under 0x07: relayed, nothing to model
	}
	g.weaponFired(p, m.Op, m.Dst, m.Target)
	g.world.OwnerStartFiring(g.now, &p.Owner, &m)
}

// applyStopFiring: the named system stops (0x08).
func applyStopFiring(g *Game, p *Player, in *inbound) {
	g.world.OwnerStopFiring(g.now, &p.Owner, in.ev.Dst)
}

// applyStopFiringAt: the named system stops firing at one target (0x09,
// an ObjPtrEvent carrying the target).
func applyStopFiringAt(g *Game, p *Player, in *inbound) {
	if ev, err := in.ev.AsObjPtr(); err == nil {
		g.world.OwnerStopFiringAt(g.now, &p.Owner, ev.Dst, ev.Obj)
	}
}

// applyPhaserLevel: an owner sets its phaser system's level (0x12).
func applyPhaserLevel(g *Game, p *Player, in *inbound) { g.world.SetPhaserLevel(&p.Owner, &in.ev) }

// applyTorpedoFire: an owner's torpedo (0x19) flies in the host's world.
func applyTorpedoFire(g *Game, p *Player, in *inbound) {
	m := &in.torp
	var target int32
	if m.HasTarget() {
		target = m.Target
	}
	g.weaponFired(p, codec.OpTorpedoFire, m.TubeID, target)
	g.world.TorpedoFiredAt(g.now, in.at, &p.Owner, m)
}

// applyPulseFire: an owner's pulse bolt (0x1A) flies in the host's world.
func applyPulseFire(g *Game, p *Player, in *inbound) {
	m := &in.pulse
	var target int32
	if m.HasTarget() {
		target = m.Target
	}
	g.weaponFired(p, codec.OpPulseFire, m.CannonID, target)
	g.world.PulseFiredAt(g.now, in.at, &p.Owner, m)
}

// weaponFired raises weapon_fired when anyone listens: only the event
// handed to subscribers goes to the heap, so a shot nobody listens for
// allocates nothing.
func (g *Game) weaponFired(p *Player, op byte, weapon, target int32) {
	if g.bus.has(EvWeaponFired) {
		g.bus.emit(&WeaponFired{Shooter: p, Opcode: op, Weapon: weapon, Target: target,
			Kind: world.FiredKind(g.world.ShipOf(&p.Owner), op, weapon)})
	}
}

// applyRequestObject answers 0x1E with the object's creation message, to
// the requester only, when the object exists and is not dying; an unknown
// or dying id gets no answer at all (opcodes.md 3.10).
func applyRequestObject(g *Game, p *Player, in *inbound) {
	payload := in.payload
	m, err := codec.DecodeRequestObject(payload)
	if err != nil {
		g.malformed(p, payload[0], err)
		return
	}
	if o := g.world.Object(m.ObjectID); o != nil && o.Alive() && len(o.Create) > 0 {
		_ = g.Send(p, o.Create)
	}
}
