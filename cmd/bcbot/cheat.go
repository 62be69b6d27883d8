package main

import (
	"time"

	"github.com/bcserver/bcserver/internal/bot"
)

// -cheat flies the -spawn ship as a modified client would (bot.Pilot with
// a Cheat): ten updates a second of a ship that flies too fast or jumps,
// and fire every tick that ignores charge, reload, magazine or arc, at
// -fire-at's ship when there is one. The host's fair-play rules (README,
// "Fair play") should catch it within seconds: its log says so, and with
// the rules' kick or ban set the bot is booted.

// flyPilot runs one 100-ms step of the cheating pilot: fly toward the
// target (or straight on), report the ship, fire.
func (p *player) flyPilot(now time.Time) {
	pl := p.pilot
	if pl == nil || p.ship == 0 || pl.ID() != p.ship {
		return
	}
	pl.Recharge(0.1)
	target, ok := p.targetShip()
	at := [3]float32{pl.Pos[0] + 100*pl.Fwd[0], pl.Pos[1] + 100*pl.Fwd[1], pl.Pos[2] + 100*pl.Fwd[2]}
	if ok {
		at = p.pos[target]
	}
	pl.Step(0.1, at, 1, now)
	p.pos[p.ship] = pl.Pos
	_ = p.b.Send(pl.State(float32(now.Sub(p.spawnedAt).Seconds())), false)
	for _, s := range pl.Fire(p.o.Weapons, target, at, p.b.ID(), now) {
		if err := p.b.Send(s.Payload, s.Reliable); err == nil {
			p.fired++
		}
	}
}

// newPilot gives a new ship of the player's its cheating pilot.
func (p *player) newPilot(id int32) error {
	pl, err := bot.NewPilot(p.reg, p.species, id, p.o.Pos)
	if err != nil {
		return err
	}
	pl.Cheat = p.o.Cheat
	p.pilot = pl
	return nil
}
