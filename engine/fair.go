package engine

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/fairplay"
	bcnet "github.com/bcserver/bcserver/net"
)

// The fair-play rules in the engine (README, "Fair play"; the rules and
// their tolerances are engine/fairplay's, the judgements of movement and
// fire the world's): each message a player sends passes its type's rate,
// then its row's judgement (routing.go's fair column), before it is used
// or relayed. A violation is booked in the player's Ledger, raises the
// violation event (a mission or plugin may change what happens) and is
// logged; the rule's thresholds decide whether the message is dropped,
// the host told, the player kicked or banned for a while.

// EvViolation is raised for every violation of a fair-play rule.
const EvViolation = "violation"

// Violation: a player's message broke a fair-play rule. Action is what
// the rule's thresholds chose for the player's score; a handler may
// change it (a league's mission deciding itself), and the engine then does
// what it says.
type Violation struct {
	Player *Player
	// Rule is the rule broken; Value what was measured against Limit, what
	// the rule allows, both in Rule.Unit() (fairplay.Verdict).
	Rule         fairplay.Rule
	Value, Limit float64
	// Opcode is the message's; Object the ship or weapon it named.
	Opcode byte
	Object int32
	// Score is the player's score for the rule after this violation, and
	// Count the player's violations of it so far.
	Score  float64
	Count  uint64
	Action fairplay.Action
}

// Name implements Event.
func (*Violation) Name() string { return EvViolation }

// Detail describes the violation in words, for logs and messages.
func (v *Violation) Detail() string {
	switch v.Rule {
	case fairplay.Charge:
		return fmt.Sprintf("bolt on a charge of %.2f, %.2f needed", v.Value, v.Limit)
	case fairplay.Reload:
		return fmt.Sprintf("torpedo %.1f s before its tube reloaded (%.1f s allowed)", v.Value, v.Limit)
	case fairplay.Ammo:
		return "torpedo of a type with none left"
	case fairplay.Rate:
		return fmt.Sprintf("%s messages beyond %.0f a second (burst %.0f)", fairplay.ClassOf(v.Opcode), v.Value, v.Limit)
	}
	return fmt.Sprintf("%.2f %s, %.2f allowed", v.Value, v.Rule.Unit(), v.Limit)
}

// fairLogEvery is the least time between two log lines of one player's
// violations of one rule: a cheat sends many a second.
const fairLogEvery = time.Second

// breach handles a violation of a player's message: books it, raises the
// event, logs, and acts. It reports whether the message is to be dropped.
func (g *Game) breach(p *Player, op byte, object int32, v fairplay.Verdict) bool {
	fp := &g.cfg.FairPlay
	now := g.now
	score := p.fair.Add(&fp.Policy, v.Rule, now)
	g.Stats.Violations[v.Rule].Add(1)
	th := fp.Policy.For(v.Rule)
	ev := Violation{Player: p, Rule: v.Rule, Value: v.Value, Limit: v.Limit, Opcode: op, Object: object,
		Score: score, Count: p.fair.Count(v.Rule), Action: th.Action(score)}
	if g.bus.has(EvViolation) {
		e := ev // only the copy handed to handlers goes to the heap
		g.bus.emit(&e)
		ev.Action = e.Action
	}
	if ok, more := p.fair.Log(v.Rule, now, fairLogEvery); ok {
		args := []any{"player", p.ID, "name", p.Name, "rule", v.Rule.String(), "detail", ev.Detail(),
			"opcode", codec.OpcodeName(op), "score", fmt.Sprintf("%.1f", score), "count", ev.Count, "action", ev.Action.String()}
		if more > 0 {
			args = append(args, "more", more)
		}
		if ev.Action >= fairplay.ActNotify {
			g.log.Warn("fair play: violation", args...)
		} else {
			g.log.Info("fair play: violation", args...)
		}
	}
	switch ev.Action {
	case fairplay.ActKick:
		g.log.Warn("fair play: kicking player", "player", p.ID, "name", p.Name, "rule", v.Rule.String(), "score", score)
		g.Kick(p, bcnet.BootKicked)
	case fairplay.ActBan:
		g.fairBan(p, th.BanFor, v.Rule)
	}
	return ev.Action >= fairplay.ActDrop
}

// fairBan keeps p's address out for d and boots it with the stock "banned"
// notice. The ban is the game's own, kept in memory: it does not go to the
// ban list file and ends by itself.
func (g *Game) fairBan(p *Player, d time.Duration, r fairplay.Rule) {
	if g.fairBans == nil {
		g.fairBans = make(map[netip.Addr]time.Time)
	}
	for a, until := range g.fairBans {
		if !g.now.Before(until) {
			delete(g.fairBans, a)
		}
	}
	until := g.now.Add(d)
	g.fairBans[p.Addr.Addr()] = until
	g.log.Warn("fair play: banning player", "player", p.ID, "name", p.Name, "addr", p.Addr.Addr(), "rule", r.String(), "for", d)
	g.host.Boot(g.now, p.peer, bcnet.BootBanned)
}

// fairBanned reports whether addr is under a fair-play ban.
func (g *Game) fairBanned(addr netip.Addr) bool {
	until, ok := g.fairBans[addr]
	return ok && g.now.Before(until)
}

// fairRate applies the rate of the message type; it reports whether the
// message goes on.
func (g *Game) fairRate(p *Player, op byte) bool {
	fp := &g.cfg.FairPlay
	if fp.Off {
		return true
	}
	if v := p.rates.Allow(&fp.Rates, fp.RateScale, op, g.now); !v.OK() {
		return !g.breach(p, op, 0, v)
	}
	return true
}

// arrivedAt is the earliest the message being routed could have arrived
// had nothing been lost (net.Conn.DeliveredAt: a reliable message held
// back or resent counts from the arrival of the one before it), but no
// more than FireHold before now.
func (g *Game) arrivedAt(p *Player, in *inbound) time.Time {
	if !in.reliable || p.peer == nil {
		return g.now
	}
	at := p.peer.DeliveredAt()
	if hold := g.now.Add(-g.cfg.FairPlay.Tolerances.FireHold); at.Before(hold) {
		at = hold
	}
	if at.After(g.now) {
		return g.now
	}
	return at
}

// fairMove judges a StateUpdate (routing.go's fair column).
func fairMove(g *Game, p *Player, in *inbound) bool {
	if g.cfg.FairPlay.Off {
		return true
	}
	if v := g.world.JudgeMove(g.now, &p.Owner, &in.state); !v.OK() {
		return !g.breach(p, in.payload[0], in.state.ObjectID, v)
	}
	return true
}

// fairPulse judges a PulseFire.
func fairPulse(g *Game, p *Player, in *inbound) bool {
	if g.cfg.FairPlay.Off {
		return true
	}
	in.at = g.arrivedAt(p, in)
	if v := g.world.JudgePulse(g.now, in.at, &p.Owner, &in.pulse); !v.OK() {
		return !g.breach(p, in.payload[0], in.pulse.CannonID, v)
	}
	return true
}

// fairTorpedo judges a TorpedoFire.
func fairTorpedo(g *Game, p *Player, in *inbound) bool {
	if g.cfg.FairPlay.Off {
		return true
	}
	in.at = g.arrivedAt(p, in)
	if v := g.world.JudgeTorpedo(g.now, in.at, &p.Owner, &in.torp); !v.OK() {
		return !g.breach(p, in.payload[0], in.torp.TubeID, v)
	}
	return true
}

// applyStartWarp: the owner's ship starts a warp (0x10), which may move it
// at warp speed for a while (Tolerances.WarpGrace).
func applyStartWarp(g *Game, p *Player, _ *inbound) { g.world.NoteWarp(g.now, &p.Owner) }

// Violations returns the player's fair-play violations of every rule so
// far.
func (p *Player) Violations() uint64 { return p.fair.Total() }

// FairScore returns the player's fair-play score for rule r now.
func (g *Game) FairScore(p *Player, r fairplay.Rule) float64 {
	return p.fair.Score(r, g.now, g.cfg.FairPlay.Policy.HalfLife)
}
