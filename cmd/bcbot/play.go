package main

import (
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/internal/bot"
)

// playOptions are the bot's actions for live play-testing a mission: fly a
// ship, fire at another player's ship, blow itself up.
type playOptions struct {
	Spawn        string        // ship class name or species index; "" = none
	Pos          [3]float32    // where the ship appears (world units)
	FireAt       int           // player id whose ship to fire at; 0 = none
	FireEvery    time.Duration // between shots
	SelfDestruct time.Duration // after joining; 0 = never
	Chat         chatter       // lines to say (playtest.go)
	Patrol       *patrol       // flying back and forth; nil = stay at Pos

	// Ships are the classes Spawn names (-pack, mod.go); nil means the
	// stock ones.
	Ships *ships.Registry
}

func parsePos(s string) ([3]float32, error) {
	var p [3]float32
	if s == "" {
		return p, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return p, fmt.Errorf("-pos %q: want x,y,z", s)
	}
	for i, f := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 32)
		if err != nil {
			return p, fmt.Errorf("-pos %q: %w", s, err)
		}
		p[i] = float32(v)
	}
	return p, nil
}

// player is a bot playing: its ship and what it knows of the others'.
type player struct {
	b       *bot.Bot
	o       playOptions
	log     *slog.Logger
	reg     *ships.Registry
	ship    int32
	species int
	spawns  int
	// Ships of other players, by owner id, and the last position seen.
	ships map[byte]int32
	pos   map[int32][3]float32
	fired int
	// spawnedAt is when the current ship was sent; due when the next one
	// is (after an explosion, as a stock client returns to ship select).
	spawnedAt, due time.Time
}

func newPlayer(b *bot.Bot, o playOptions, log *slog.Logger) (*player, error) {
	reg := o.Ships
	if reg == nil {
		var err error
		if reg, err = ships.Vanilla(); err != nil {
			return nil, err
		}
	}
	p := &player{b: b, o: o, log: log, reg: reg, ships: make(map[byte]int32), pos: make(map[int32][3]float32)}
	if o.Spawn != "" {
		if n, err := strconv.Atoi(o.Spawn); err == nil {
			p.species = n
		} else if c, ok := reg.ClassByName(o.Spawn); ok {
			p.species = c.Species()
		} else {
			for _, c := range reg.Classes() {
				if strings.EqualFold(c.Name, o.Spawn) {
					p.species = c.Species()
				}
			}
		}
		if _, ok := reg.Class(p.species); !ok || p.species <= 0 {
			return nil, fmt.Errorf("-spawn %q: no such ship class", o.Spawn)
		}
	}
	return p, nil
}

// spawn creates the bot's ship (again, after a death: the next id of its
// block, as a stock client respawns).
func (p *player) spawn() error {
	if p.species == 0 {
		return nil
	}
	s := p.b.Settings()
	id := codec.FirstObjectID(int(s.Slot)) + int32(p.spawns)*0x100
	msg, err := bot.SpawnFrom(p.reg, int(s.Slot), p.b.ID(), "bcbot", uint8(p.species), id)
	if err != nil {
		return err
	}
	if err := p.b.Send(msg, true); err != nil {
		return err
	}
	p.spawns++
	p.ship = id
	p.spawnedAt = time.Now()
	p.pos[id] = p.o.Pos
	p.log.Info("ship spawned", "id", id, "species", p.species)
	return p.b.Send(bot.Move(id, p.o.Pos, [3]float32{0, 1, 0}), false)
}

// seen tracks other players' ships and deaths from what the server sends.
func (p *player) seen(m []byte) {
	switch m[0] {
	case codec.OpObjCreate, codec.OpObjCreateTeam:
		if o, err := codec.DecodeObjCreate(m); err == nil && o.OwnerPlayer != p.b.ID() {
			if old, ok := p.ships[o.OwnerPlayer]; ok && old != o.ObjectID {
				delete(p.pos, old) // the player respawned: its old ship is gone
			}
			p.ships[o.OwnerPlayer] = o.ObjectID
		}
	case codec.OpStateUpdate:
		// Positions are kept only for the ships fire aims from and at, so
		// the map does not grow with every object a long game creates.
		if u, err := codec.DecodeStateUpdate(m, codec.SubsystemsToEnd); err == nil && u.Flags&codec.StatePosition != 0 && p.tracked(u.ObjectID) {
			p.pos[u.ObjectID] = u.Position
		}
	case codec.OpPythonEvent:
		if ev, err := codec.DecodeObjectExploding(m); err == nil && ev.Dst == p.ship && p.ship != 0 {
			delete(p.pos, p.ship)
			p.ship = 0
			if time.Since(p.spawnedAt) < refusedWithin {
				// The host refuses a ship at once (ship rules): picking
				// the same class again would be refused again.
				p.log.Warn("our ship died as it appeared: refused by the host (see its chat line); not respawning")
				return
			}
			wait := time.Duration(float64(ev.Lifetime) * float64(time.Second))
			p.log.Info("our ship was destroyed; respawning after the explosion", "killer", ev.FiringPlayer, "after", wait)
			p.due = time.Now().Add(wait)
		}
	}
}

// refusedWithin: a ship that dies this soon after it was sent was refused.
const refusedWithin = time.Second

// respawn flies a new ship once the last one's explosion is over.
func (p *player) respawn(now time.Time) {
	if p.due.IsZero() || now.Before(p.due) {
		return
	}
	p.due = time.Time{}
	if err := p.spawn(); err != nil {
		p.log.Warn("respawn failed", "err", err)
	}
}

// tracked reports whether id is our ship or another player's current one.
func (p *player) tracked(id int32) bool {
	if id == p.ship {
		return true
	}
	for _, s := range p.ships {
		if s == id {
			return true
		}
	}
	return false
}

// fire turns toward the target player's ship and starts the phaser
// system at it (StartFiring 0x07, as a stock client), if both exist; the
// banks then beam on every peer by themselves.
func (p *player) fire() {
	target, ok := p.ships[byte(p.o.FireAt)]
	if !ok || p.ship == 0 {
		return
	}
	off, err := bot.WeaponSystem(p.reg, p.species, "phaser_system")
	if err != nil {
		p.log.Warn("cannot fire", "err", err)
		return
	}
	from, to := p.pos[p.ship], p.pos[target]
	dir := [3]float32{to[0] - from[0], to[1] - from[1], to[2] - from[2]}
	_ = p.b.Send(bot.Move(p.ship, from, dir), false)
	if err := p.b.Send(bot.StartFiring(p.ship+int32(off), target), true); err == nil {
		p.fired++
		p.log.Debug("fired", "at", target)
	}
}
