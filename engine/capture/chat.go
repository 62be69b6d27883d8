package capture

import (
	"encoding/binary"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/names"
	"github.com/bcserver/bcserver/engine/world"
)

// What players say and what the host sends everyone: chat as each player
// received it, the host's own fire, explosions and script messages.

// A player's chat is recorded up to ChatBurst lines at once and
// ChatRate lines a second on average; the lines beyond are counted
// (Footer.ChatDropped), not recorded. A chat flood, even a muted one,
// used to fill [record] max_file in 45 minutes and lose the rest of the
// match; at this rate a player's chat is at most about 1 MB of a
// one-hour recording.
const (
	ChatRate  = 1.0
	ChatBurst = 20
)

// chatAllowance is a token bucket of a player's chat lines, in game time.
type chatAllowance struct {
	tokens float64
	at     time.Time
	warned bool
}

// chat records a player's line once its relay was decided, marked with
// who received it (the public view leaves out all but what everyone got).
func (c *Capture) chat(ev engine.Event) {
	e := ev.(*engine.ChatDelivered)
	if !c.open || e.From == nil {
		return
	}
	if !c.allowChat(e.From) {
		return
	}
	r := c.rec(KindChat)
	r.Player, r.Text = e.From.ID, e.Line
	if e.Team {
		r.Team, r.Flags = 1, ChatTeam
	}
	switch {
	case e.Muted:
		r.Flags |= ChatMuted
	case e.Cancelled:
		r.Flags |= ChatCancelled
	}
	c.emit()
}

// allowChat takes one line from p's chat allowance, or counts the line
// as dropped (logging the first of the player's in the match).
func (c *Capture) allowChat(p *engine.Player) bool {
	now := c.g.Now()
	a := c.chatAllow[p.ID]
	if a == nil {
		a = &chatAllowance{tokens: ChatBurst, at: now}
		c.chatAllow[p.ID] = a
	}
	a.tokens = min(ChatBurst, a.tokens+max(0, now.Sub(a.at).Seconds())*ChatRate)
	a.at = now
	if a.tokens >= 1 {
		a.tokens--
		return true
	}
	c.chatDropped++
	c.ChatDropped.Add(1)
	if !a.warned {
		a.warned = true
		c.log.Info("a player's chat is over the recording's allowance: further lines are counted, not recorded, until it slows down",
			"player", int(p.ID), "name", p.Name, "rate", ChatRate, "burst", ChatBurst)
	}
	return false
}

// hostID is the host's player id in chat lines (missions.md).
const hostID = 1

// broadcast records what the host itself sends everyone: its ships' fire,
// explosions, and the mission's script messages (player relays reach it
// as their own events).
func (c *Capture) broadcast(ev engine.Event) {
	b := ev.(*engine.Broadcast).Payload
	if !c.open || len(b) == 0 {
		return
	}
	switch op := b[0]; {
	case op == codec.OpTorpedoFire || op == codec.OpPulseFire:
		if len(b) < 5 {
			return
		}
		weapon := int32(binary.LittleEndian.Uint32(b[1:]))
		ship := c.shipOfWeapon(weapon)
		if ship == nil || !ship.HostOwned() {
			return
		}
		c.fire(ship, 0, weapon, fireTarget(b), op, world.FiredKind(ship, op, weapon))
	case op == codec.OpStartFiring:
		m, err := codec.DecodeEvent(b)
		if err != nil {
			return
		}
		if ship := c.shipOfWeapon(m.Src); ship != nil && ship.HostOwned() {
			c.fire(ship, 0, m.Src, m.Dst, op, world.FiredKind(ship, op, m.Src))
		}
	case op == codec.OpExplosion:
		m, err := codec.DecodeExplosion(b)
		if err != nil {
			return
		}
		r := c.rec(KindExplosion)
		r.Object = m.ObjectID
		r.Pos[0], r.Pos[1], r.Pos[2] = m.Position.Vector()
		r.Radius, r.Damage = m.RadiusValue(), m.DamageValue()
		c.emit()
	case op == codec.OpChat || op == codec.OpTeamChat:
		m, err := codec.DecodeChat(b)
		if err != nil || m.Sender != hostID {
			return // a player's line: recorded from its chat event
		}
		r := c.rec(KindChat)
		r.Player, r.Text = hostID, names.CleanText(names.Decode(m.Text))
		if m.Team {
			r.Team, r.Flags = 1, ChatTeam
		}
		c.emit()
	case op == codec.OpEndGame || op == codec.OpRestartGame:
		// Their own records.
	case codec.IsScriptOpcode(op):
		r := c.rec(KindMessage)
		r.Payload = append(r.Payload, b...)
		c.emit()
	}
}

// fireTarget reads the target id of a TorpedoFire 0x19 (at byte 10 when
// flag bit 2 is clear) or a 0x1A (at byte 10 when flag bit 1 is set),
// opcodes.md 3.5-3.6; 0 for none.
func fireTarget(b []byte) int32 {
	switch b[0] {
	case codec.OpTorpedoFire:
		if len(b) >= 14 && b[6]&0x04 == 0 {
			return int32(binary.LittleEndian.Uint32(b[10:]))
		}
	case codec.OpPulseFire:
		if len(b) >= 14 && b[9]&0x02 != 0 {
			return int32(binary.LittleEndian.Uint32(b[10:]))
		}
	}
	return 0
}
