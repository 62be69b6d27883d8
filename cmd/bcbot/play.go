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
// ship (on a team), fire at a player's ship or any object, blow itself up.
type playOptions struct {
	Spawn        string        // ship class name or species index; "" = none
	Pos          [3]float32    // where the ship appears (world units)
	Team         int           // announced (TEAM 0x41) before each spawn; -1 = none
	FireAt       target        // what to fire at; the zero value = nothing
	FireEvery    time.Duration // between volleys
	Weapons      bot.Kinds     // what a volley fires
	Respawn      bool          // fly a new ship after a death and after a restart
	SelfDestruct time.Duration // after joining; 0 = never
	Chat         chatter       // lines to say (playtest.go)
	Patrol       *patrol       // flying back and forth; nil = stay at Pos
	Cheat        bot.Cheat     // fly as a modified client (cheat.go); CheatNone = honestly

	// Ships are the classes Spawn names (-pack, mod.go); nil means the
	// stock ones.
	Ships *ships.Registry
}

// target is what -fire-at names: a player (by id: his current ship), an
// object by its id (a host ship's, say), or a name — a player's, or a
// ship's as clients show it (a host ship's own name).
type target struct {
	player byte
	object int32
	name   string
}

func (t target) set() bool { return t.player != 0 || t.object != 0 || t.name != "" }

func (t target) String() string {
	switch {
	case t.player != 0:
		return fmt.Sprintf("player %d", t.player)
	case t.object != 0:
		return fmt.Sprintf("object %#x", uint32(t.object))
	}
	return strconv.Quote(t.name)
}

// parseTarget reads -fire-at: a number below 256 is a player id (players
// are 2, 3, ...), a larger one (decimal or 0x hex) an object id, anything
// else a name.
func parseTarget(s string) (target, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" {
		return target{}, nil
	}
	if n, err := strconv.ParseInt(s, 0, 64); err == nil {
		switch {
		case n > 0 && n < 256:
			return target{player: byte(n)}, nil
		case n >= 256 && n <= 0x7FFFFFFF:
			return target{object: int32(n)}, nil
		}
		return target{}, fmt.Errorf("-fire-at %s: want a player id (2, 3, ...), an object id or a name", s)
	}
	if len(s) > 64 {
		return target{}, fmt.Errorf("-fire-at: a name of at most 64 bytes")
	}
	return target{name: s}, nil
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
	arms    *bot.Arms
	ship    int32
	species int
	spawns  int
	// Ships of other players, by owner id; every ship the server created
	// (players' and host ships), by id; the last position seen of each.
	ships map[byte]int32
	objs  map[int32]seenObject
	pos   map[int32][3]float32
	fired int
	// warned holds the warnings said once (a class without a weapon, a
	// target not found), so a bot firing every second does not repeat them.
	warned map[string]bool
	// spawnedAt is when the current ship was sent; due when the next one
	// is (after an explosion, or a restart, as a stock client returns to
	// ship select). refused: the host refused our class.
	spawnedAt, due time.Time
	refused        bool
	pilot          *bot.Pilot // the cheating pilot of -cheat, nil without
}

type seenObject struct {
	owner byte // 0: a host ship
	name  string
}

// maxObjects bounds the ships a bot remembers: a long game creates many.
const maxObjects = 4096

func newPlayer(b *bot.Bot, o playOptions, log *slog.Logger) (*player, error) {
	reg := o.Ships
	var err error
	if reg == nil {
		if reg, err = ships.Vanilla(); err != nil {
			return nil, err
		}
	}
	p := &player{b: b, o: o, log: log, reg: reg, ships: make(map[byte]int32), objs: make(map[int32]seenObject),
		pos: make(map[int32][3]float32), warned: make(map[string]bool)}
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
		if p.arms, err = bot.ArmsOf(reg, p.species); err != nil {
			return nil, err
		}
		if o.FireAt.set() {
			// Said once, at the start: a Bird of Prey has no phasers, and
			// firing them every second would say so every second.
			if miss := p.arms.Missing(o.Weapons); miss != "" {
				log.Warn("the class lacks some of -weapons; firing the rest", "class", p.arms.Class, "missing", miss, "firing", (o.Weapons & p.arms.Has).String())
			}
			if o.Weapons&p.arms.Has == 0 {
				return nil, fmt.Errorf("-weapons %s: a %s carries none of them (it has: %s)", o.Weapons, p.arms.Class, p.arms.Has)
			}
		}
	}
	return p, nil
}

// spawn creates the bot's ship (again, after a death: the next id of its
// block, as a stock client respawns), announcing its team first as a
// stock client does in the team modes.
func (p *player) spawn() error {
	if p.species == 0 {
		return nil
	}
	s := p.b.Settings()
	if p.o.Team >= 0 {
		if err := p.b.Send(codec.Team{Player: int32(p.b.ID()), Team: uint8(p.o.Team)}.AppendTo(nil), true); err != nil {
			return err
		}
	}
	id := codec.FirstObjectID(int(s.Slot)) + int32(p.spawns)*0x100
	msg, err := bot.SpawnAt(p.reg, int(s.Slot), p.b.ID(), p.b.Name(), uint8(p.species), id, p.o.Pos)
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
	p.arms.Reloaded()
	p.log.Info("ship spawned", "id", id, "species", p.species, "team", p.o.Team)
	if p.o.Cheat != bot.CheatNone {
		if err := p.newPilot(id); err != nil {
			return err
		}
		p.log.Warn("flying as a modified client", "cheat", p.o.Cheat.String())
	}
	return p.b.Send(bot.Move(id, p.o.Pos, [3]float32{0, 1, 0}), false)
}

// seen tracks other players' ships and deaths, and the end and restart of
// the game, from what the server sends.
func (p *player) seen(m []byte, now time.Time) {
	if p.pilot != nil {
		p.pilot.Observe(m)
	}
	switch m[0] {
	case codec.OpObjCreate, codec.OpObjCreateTeam:
		o, err := codec.DecodeObjCreate(m)
		if err != nil || o.ClassID != codec.ClassShip || o.ObjectID == p.ship {
			return
		}
		owner := o.OwnerPlayer
		if o.Op == codec.OpObjCreate {
			owner = 0 // a host object (ObjCreate 0x02 carries no owner)
		}
		if owner != 0 {
			if old, ok := p.ships[owner]; ok && old != o.ObjectID {
				p.forget(old) // the player respawned: its old ship is gone
			}
			p.ships[owner] = o.ObjectID
		}
		if len(p.objs) < maxObjects {
			p.objs[o.ObjectID] = seenObject{owner: owner, name: string(o.Ship.Name)}
			p.pos[o.ObjectID] = o.Ship.Position
		}
	case codec.OpDestroyObject:
		if d, err := codec.DecodeDestroyObject(m); err == nil && d.ObjectID != p.ship {
			p.forget(d.ObjectID)
		}
	case codec.OpStateUpdate:
		// Positions are kept only for the ships fire aims from and at, so
		// the map does not grow with every object a long game creates.
		if u, err := codec.DecodeStateUpdate(m, codec.SubsystemsToEnd); err == nil && u.Flags&codec.StatePosition != 0 && p.tracked(u.ObjectID) {
			p.pos[u.ObjectID] = u.Position
		}
	case codec.OpEndGame:
		// Every client deletes the ships itself at END_GAME (missions.md
		// 3.6); the next one is flown after the restart.
		if p.ship != 0 {
			p.forget(p.ship)
			p.ship = 0
		}
		p.due = time.Time{}
		for id := range p.objs {
			if p.objs[id].owner != 0 {
				p.forget(id)
			}
		}
	case codec.OpRestartGame:
		if p.o.Respawn && p.species != 0 {
			// Back at ship select, as a stock client: pick again (and,
			// with -team, announce the team again) in a moment.
			p.refused = false
			p.due = now.Add(restartPick)
			p.log.Info("the game restarted; flying a new ship", "in", restartPick)
		}
	case codec.OpPythonEvent:
		ev, err := codec.DecodeObjectExploding(m)
		if err != nil {
			return
		}
		if ev.Dst != p.ship || p.ship == 0 {
			p.forget(ev.Dst)
			return
		}
		p.forget(p.ship)
		p.ship = 0
		if now.Sub(p.spawnedAt) < refusedWithin {
			// The host refuses a ship at once (ship rules): picking
			// the same class again would be refused again.
			p.refused = true
			p.log.Warn("our ship died as it appeared: refused by the host (see its chat line); not respawning")
			return
		}
		if !p.o.Respawn {
			p.log.Info("our ship was destroyed; not respawning (-respawn=false)", "killer", ev.FiringPlayer)
			return
		}
		wait := time.Duration(float64(ev.Lifetime) * float64(time.Second))
		p.log.Info("our ship was destroyed; respawning after the explosion", "killer", ev.FiringPlayer, "after", wait)
		p.due = now.Add(wait)
	}
}

// forget drops what the bot knew of a ship.
func (p *player) forget(id int32) {
	delete(p.objs, id)
	delete(p.pos, id)
	for owner, s := range p.ships {
		if s == id {
			delete(p.ships, owner)
		}
	}
}

// refusedWithin: a ship that dies this soon after it was sent was refused.
const refusedWithin = time.Second

// restartPick is how long after RESTART_GAME the bot flies its next ship:
// a player needs a moment at ship select too.
const restartPick = time.Second

// respawn flies a new ship once the last one's explosion (or the
// restart's pause) is over.
func (p *player) respawn(now time.Time) {
	if p.due.IsZero() || now.Before(p.due) || p.refused {
		return
	}
	p.due = time.Time{}
	if err := p.spawn(); err != nil {
		p.log.Warn("respawn failed", "err", err)
	}
}

// tracked reports whether id is a ship the bot knows of.
func (p *player) tracked(id int32) bool {
	if id == p.ship {
		return true
	}
	_, ok := p.objs[id]
	return ok
}

// targetShip finds the object -fire-at names now: the named player's
// current ship, the object with that id, or the ship of the player (or
// the ship) with that name.
func (p *player) targetShip() (int32, bool) {
	t := p.o.FireAt
	switch {
	case t.player != 0:
		id, ok := p.ships[t.player]
		return id, ok
	case t.object != 0:
		_, ok := p.objs[t.object]
		return t.object, ok
	}
	for id, name := range p.b.Peers() {
		if id != p.b.ID() && strings.EqualFold(name, t.name) {
			s, ok := p.ships[id]
			return s, ok
		}
	}
	for id, o := range p.objs {
		if strings.EqualFold(o.name, t.name) && id != p.ship {
			return id, true
		}
	}
	return 0, false
}

// warnOnce logs a warning the first time its text comes up.
func (p *player) warnOnce(msg string, args ...any) {
	if p.warned[msg] {
		return
	}
	p.warned[msg] = true
	p.log.Warn(msg, args...)
}

// fire turns toward the target and fires the chosen weapons at it, each
// through the stock message a client sends (StartFiring 0x07 for the
// phaser system, whose banks then beam on every peer by themselves;
// TorpedoFire 0x19 from each reloaded tube; PulseFire 0x1A from each
// cannon), if both ships exist.
func (p *player) fire(now time.Time) {
	if p.ship == 0 || p.arms == nil || now.Sub(p.spawnedAt) < refusedWithin {
		// A ship is fired from once the host has taken it: a refused one
		// dies within refusedWithin, and a volley wasted on it would hold
		// the tubes for a whole reload.
		return
	}
	target, ok := p.targetShip()
	if !ok {
		p.warnOnce("nothing to fire at yet: -fire-at names no ship the bot has seen (waiting for one)", "fire_at", p.o.FireAt.String())
		return
	}
	from, to := p.pos[p.ship], p.pos[target]
	dir := [3]float32{to[0] - from[0], to[1] - from[1], to[2] - from[2]}
	_ = p.b.Send(bot.Move(p.ship, from, dir), false)
	for _, s := range p.arms.Volley(p.o.Weapons, p.ship, target, from, to, p.b.ID(), now) {
		if err := p.b.Send(s.Payload, s.Reliable); err == nil {
			p.fired++
		}
	}
	p.log.Debug("fired", "at", target)
}
