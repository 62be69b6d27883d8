package engine

import (
	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/names"
)

// EvChat is raised for every valid chat line before it is relayed.
const EvChat = "chat"

// Chat is a chat line (0x2C) or team chat line (0x2D) from an in-game
// player. A handler may set Cancel to stop the relay (a mute, a filter);
// the relayed bytes are always the sender's, unchanged (missions.md 2.1).
type Chat struct {
	From *Player
	Team bool
	Text []byte // valid only during dispatch
	// Line is Text decoded from the client's code page (Windows-1252)
	// and cleaned to one line (names.CleanText): what the server shows
	// and records. Decoded here, once, where it enters.
	Line    string
	Payload []byte // the whole message as received
	Cancel  bool
	// Muted is set with Cancel by a plugin holding back a muted player's
	// line (the admin console's mute), so a recording can tell a mute
	// from a mission's veto.
	Muted bool
}

// Name implements Event.
func (*Chat) Name() string { return EvChat }

// EvChatDelivered is raised after every chat line's relay was decided.
const EvChatDelivered = "chat_delivered"

// ChatDelivered says who received a chat line: everyone (Team and
// Cancelled false), the sender's side (Team), or no one but perhaps the
// sender (Cancelled: a mission's veto, or Muted). Recordings keep it so
// that a public view shows only what every player received.
type ChatDelivered struct {
	From      *Player
	Team      bool
	Line      string
	Cancelled bool
	Muted     bool
}

// Name implements Event.
func (*ChatDelivered) Name() string { return EvChatDelivered }

// ChatStats counts chat lines dropped by the core's hardening.
type chatDrop string

const (
	dropSpoofedSender chatDrop = "sender id is not the sending player"
	dropTooLong       chatDrop = "text longer than 249 bytes"
)

// chat validates and relays 0x2C/0x2D (missions.md 1.4, 2.1, 2.2). The
// stock host forwards chat to "NoMe" before looking at it, so every client,
// the sender included, gets the exact bytes; team chat only goes to players
// whose ship is on the sender's side. Hardening beyond stock: the sender id
// must be the sender's own and the text must fit the stock 256-byte buffer.
func (g *Game) chat(p *Player, payload []byte) {
	c, err := codec.DecodeChat(payload)
	if err != nil {
		g.Stats.Malformed.Add(1)
		g.log.Debug("malformed chat", "player", p.ID, "err", err)
		return
	}
	var drop chatDrop
	switch {
	case c.Sender != int32(p.ID):
		drop = dropSpoofedSender
	case len(c.Text) > codec.MaxChatText:
		drop = dropTooLong
	}
	if drop != "" {
		g.Stats.ChatDropped.Add(1)
		g.log.Debug("chat dropped", "player", p.ID, "why", string(drop))
		return
	}
	if g.chatFilter != nil && g.chatFilter(p, c.Team, c.Text) {
		return
	}
	ev := &Chat{From: p, Team: c.Team, Text: c.Text, Line: names.CleanText(names.Decode(c.Text)), Payload: payload}
	g.bus.emit(ev)
	if p.muted && !ev.Cancel {
		// Muted in game (SetMuted): only the sender gets his line back.
		ev.Cancel, ev.Muted = true, true
		_ = g.Send(p, payload)
	}
	switch {
	case ev.Cancel:
	case !c.Team:
		g.SendInGame(payload, nil)
	default:
		for _, to := range g.TeamChatTargets(p) {
			_ = g.Send(to, payload)
		}
	}
	if g.bus.has(EvChatDelivered) {
		g.bus.emit(&ChatDelivered{From: p, Team: c.Team, Line: ev.Line, Cancelled: ev.Cancel, Muted: ev.Muted})
	}
}

// TeamChatTargets returns who receives a team chat line from p under the
// stock rule (missions.md 2.2): every in-game player with a ship whose ship
// is in the sender's group — the friendly group if the sender's ship is
// friendly, else the enemy group, seen from the host's team 0 — or, when
// the sender has no ship, every in-game player with a ship.
//
// On a dedicated host team 0 ships are friendly, team 1 ships enemy; a ship
// whose owner has no team is in neither group. In modes without teams every
// player ship counts as enemy, so team chat reaches every player with a
// ship.
func (g *Game) TeamChatTargets(from *Player) []*Player {
	group := func(p *Player) int { // 0 friendly, 1 enemy, -1 none
		if !g.teamMode {
			return 1
		}
		switch p.Team {
		case 0:
			return 0
		case 1:
			return 1
		}
		return -1
	}
	var out []*Player
	senderHasShip := from.ShipID != 0
	want := 1
	if senderHasShip {
		want = group(from)
		if want != 0 {
			// "friendly if S's name is in the friendly group, otherwise the
			// enemy group": a sender in neither group talks to the enemy group.
			want = 1
		}
	}
	for _, p := range g.sortedInGame(nil) {
		if p.ShipID == 0 {
			continue
		}
		if !senderHasShip || group(p) == want {
			out = append(out, p)
		}
	}
	return out
}
