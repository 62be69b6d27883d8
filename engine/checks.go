package engine

import (
	"errors"
	"fmt"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
	bcnet "github.com/bcserver/bcserver/net"
)

// The routing table's checks: a message a client may not send, or one that
// acts on another player's objects, is dropped and counted here before
// anything uses it.

// spoofWindow is the window over which Config.SpoofLimit counts.
const spoofWindow = 10 * time.Second

const (
	// actDrop: server-only or unused opcodes; a client has no business
	// sending them. Dropped and counted.
	actDrop relayAction = iota + 1
	// actRelay: validated, then forwarded unchanged to every other in-game
	// player with the reliability it arrived with ((N-1):1 in captures).
	actRelay
	// actConsume: handled by the host, never forwarded.
	actConsume
)

// owns reports whether object id lies in the player's id block
// (0x3FFFFFFF + slot*0x40000, opcodes.md 1).
func owns(p *Player, id int32) bool {
	slot, ok := codec.OwnerSlot(id)
	return ok && slot == p.Slot
}

// violation counts a message that acts on someone else's objects or
// claims another sender; repeated violations boot the sender.
func (g *Game) violation(p *Player, op byte, why string, id int32) {
	g.Stats.Spoofed.Add(1)
	g.log.Debug("spoofed message dropped", "player", p.ID, "opcode", codec.OpcodeName(op), "why", why, "object", id)
	if g.cfg.SpoofLimit <= 0 {
		return
	}
	now := g.now
	if now.Sub(p.spoofWindow) > spoofWindow {
		p.spoofWindow = now
		p.spoofs = 0
	}
	p.spoofs++
	if p.spoofs >= g.cfg.SpoofLimit {
		g.log.Warn("booting player for repeated spoofed messages", "player", p.ID, "name", p.Name, "count", p.spoofs)
		g.Kick(p, bcnet.BootKicked)
	}
}

func (g *Game) malformed(p *Player, op byte, err error) {
	g.Stats.Malformed.Add(1)
	g.log.Debug("malformed game message", "player", p.ID, "opcode", codec.OpcodeName(op), "err", err)
}

// Bounds on the parts of an ObjCreate a client names freely: the object
// name is the player's name (at most net.MaxNameUnits characters), the set
// a star-system name (Multi1..Poseidon).
const (
	maxObjectName = bcnet.MaxNameUnits
	maxSetName    = 32
	// objCreateFixed is the envelope (11 bytes with byte 2) and the fixed
	// part of a ship body: species, position, rotation, velocity.
	objCreateFixed = 11 + 1 + 12 + 16 + 7
)

// maxObjCreate is the largest ObjCreate a client can really send: a ship
// of the class with the longest tail, with the longest names.
func (g *Game) maxObjCreate() int {
	tail := 0
	for _, c := range g.Ships().Classes() {
		tail = max(tail, ships.TailLen(c))
	}
	return objCreateFixed + 1 + maxObjectName + 1 + maxSetName + tail
}

// checkObjBody validates an ObjCreate/ObjCreateTeam body before it is
// relayed to everyone and kept for every late joiner: no larger than the
// largest real one, a ship body that parses, names within their bounds,
// and a subsystem tail that follows the grammar of the class its species
// names (simulation.md 3.4). A species the host has no data for is relayed
// as stock does, with its tail only bounded.
func checkObjBody(g *Game, payload []byte, m *codec.ObjCreate) error {
	if limit := g.maxObjCreate(); len(payload) > limit {
		return fmt.Errorf("%d bytes, larger than any real one (%d)", len(payload), limit)
	}
	var err error
	if *m, err = codec.DecodeObjCreate(payload); err != nil {
		return err
	}
	switch m.ClassID {
	case codec.ClassShip:
	case codec.ClassTorpedo:
		return nil // an opaque body, bounded above
	default:
		return fmt.Errorf("class id 0x%08X", m.ClassID)
	}
	if len(m.Ship.Name) > maxObjectName || len(m.Ship.Set) > maxSetName {
		return fmt.Errorf("object name of %d bytes, set name of %d", len(m.Ship.Name), len(m.Ship.Set))
	}
	if c, ok := g.Ships().Class(int(m.Ship.Species)); ok {
		return ships.CheckTail(c, m.Ship.Tail)
	}
	return nil
}

func checkObjCreate(g *Game, p *Player, in *inbound) bool {
	payload, m := in.payload, &in.obj
	if err := checkObjBody(g, payload, m); err != nil {
		g.malformed(p, payload[0], err)
		g.objCreateDropped(p, m, err)
		return false
	}
	why := ""
	switch {
	case int(m.OwnerSlot) != p.Slot:
		why = "owner slot is not the sender's"
	case m.Op == codec.OpObjCreateTeam && m.OwnerPlayer != p.ID:
		// Byte 2 becomes the ship's net player id on every receiver,
		// which the scripts credit kills to (simulation.md 3.1).
		why = "owner player id is not the sender's"
	case !owns(p, m.ObjectID):
		why = "object id outside the sender's block"
	}
	if why != "" {
		g.violation(p, payload[0], why, m.ObjectID)
		g.objCreateDropped(p, m, errors.New(why))
		return false
	}
	g.noteRelayOnly(p, m)
	return true
}

// checkEventSource validates an event-forward message: it must parse and
// its source object must be the sender's (opcodes.md 4.5).
func checkEventSource(g *Game, p *Player, in *inbound) bool {
	ev, ok := g.decodeEvent(p, in)
	if !ok {
		return false
	}
	if !owns(p, ev.Src) {
		g.violation(p, ev.Op, "event source is not the sender's", ev.Src)
		return false
	}
	return true
}

// decodeEvent decodes an event forward into in.ev.
func (g *Game) decodeEvent(p *Player, in *inbound) (*codec.Event, bool) {
	return &in.ev, decodeInto(g, p, in, &in.ev, codec.DecodeEvent)
}

// decodeInto decodes the message being routed into dst, its row's part of
// in; a message that does not parse is counted as malformed.
func decodeInto[T any](g *Game, p *Player, in *inbound, dst *T, decode func([]byte) (T, error)) bool {
	var err error
	if *dst, err = decode(in.payload); err != nil {
		g.malformed(p, in.payload[0], err)
		return false
	}
	return true
}

func checkTorpedo(g *Game, p *Player, in *inbound) bool {
	return decodeInto(g, p, in, &in.torp, codec.DecodeTorpedoFire) && g.checkLauncher(p, in, in.torp.TubeID, "torpedo tube is not the sender's")
}

func checkPulse(g *Game, p *Player, in *inbound) bool {
	return decodeInto(g, p, in, &in.pulse, codec.DecodePulseFire) && g.checkLauncher(p, in, in.pulse.CannonID, "pulse cannon is not the sender's")
}

// checkLauncher checks that the weapon firing a shot is the sender's.
func (g *Game) checkLauncher(p *Player, in *inbound, id int32, why string) bool {
	if !owns(p, id) {
		g.violation(p, in.payload[0], why, id)
		return false
	}
	return true
}

// checkWeaponEvent validates the weapon-system events StartFiring 0x07,
// StopFiring 0x08, StopFiringAtTarget 0x09 and SetPhaserLevel 0x12: their
// destination is the firing ship's weapon system and their source is 0
// when the stock builder leaves it unset (opcodes.md 3.2, Corrections
// 22-23), so ownership is checked on the destination; a message with no
// destination must name one of the sender's objects as its source (the
// ship-addressed SetPhaserLevel of some notes), and a source, when given,
// must be the sender's.
func checkWeaponEvent(g *Game, p *Player, in *inbound) bool {
	ev, ok := g.decodeEvent(p, in)
	if !ok {
		return false
	}
	payload := in.payload
	switch {
	case ev.Src != 0 && !owns(p, ev.Src):
		g.violation(p, payload[0], "event source is not the sender's", ev.Src)
		return false
	case ev.Dst != 0 && !owns(p, ev.Dst):
		g.violation(p, payload[0], "weapon system is not the sender's", ev.Dst)
		return false
	case ev.Dst == 0 && ev.Src == 0:
		g.violation(p, payload[0], "weapon event names no object", 0)
		return false
	}
	return true
}
