package engine

import (
	"slices"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// Object is a network object the host knows of: a player's ship, a
// torpedo, or a server-created object. The host keeps the latest
// ObjCreate/ObjCreateTeam of each live object so late joiners receive it
// as the stock host sends it (opcodes.md 2, handshake.md 2.6).
type Object struct {
	ID      int32
	ClassID uint32 // codec.ClassShip (0x8008) or codec.ClassTorpedo (0x8009)
	// OwnerSlot is the player slot of the envelope; Owner the player in it,
	// nil for server or AI objects.
	OwnerSlot int
	Owner     *Player
	// NetPlayerID is byte 2 of an ObjCreateTeam: the owner's wire player
	// id, which receivers store as the ship's net player id (kill credit,
	// opcodes.md 3.1); 0 for ObjCreate 0x02 (host objects). Teams exist
	// only in the mission (Player.Team).
	NetPlayerID int
	// Species is the SpeciesToShip index of a ship (0 when not a ship).
	Species int
	// Name and Set are the player name and star-system set of a ship body.
	Name, Set string
	// Create is the object's creation message, exactly as received.
	Create []byte
	// Model is the host's model of a ship (nil for unknown species and
	// non-ships).
	Model *ships.Ship

	state moveState
	views map[byte]*view
	sim   simState
}

// IsShip reports whether the object is a ship or station.
func (o *Object) IsShip() bool { return o.ClassID == codec.ClassShip }

// IsPlayerShip reports whether the object is the current ship of a player.
func (o *Object) IsPlayerShip() bool {
	return o.IsShip() && o.Owner != nil && o.Owner.ShipID == o.ID
}

// OwnerID returns the owner's player id, 0 for none (AI, server).
func (o *Object) OwnerID() int {
	if o.Owner == nil {
		return 0
	}
	return int(o.Owner.ID)
}

// Event names raised from the game's objects and by the mission actions.
const (
	EvShipCreated     = "ship_created"
	EvShipDestroyed   = "ship_destroyed"
	EvObjectDestroyed = "object_destroyed"
	EvWeaponFired     = "weapon_fired"
	EvWeaponHit       = "weapon_hit"
	EvGameEnded       = "game_ended"
	EvGameRestarted   = "game_restarted"
)

// ShipCreated: a ship (usually a player's, from its ObjCreateTeam) now
// exists; it replaces the player's previous ship.
type ShipCreated struct{ Ship *Object }

// DeathCause says what destroyed a ship.
type DeathCause string

// Death causes.
const (
	CauseWeapon       DeathCause = "weapon"
	CauseCollision    DeathCause = "collision"
	CauseSelfDestruct DeathCause = "self_destruct"
	CauseEnvironment  DeathCause = "environment"
)

// ShipDestroyed is the stock "object exploding" (simulation.md 9,
// missions.md 3.5): the host model decided the ship died. KillerID is the
// firing player's id, 0 for none (self-destruct, environment, AI).
type ShipDestroyed struct {
	Victim   *Object
	KillerID int
	Cause    DeathCause
	Lifetime float32
}

// ObjectDestroyed: the object is gone (deleted after its explosion, its
// owner left, or the game ended).
type ObjectDestroyed struct{ Object *Object }

// WeaponFired: an in-game player fired (StartFiring, TorpedoFire,
// BeamFire); Target is the target object id when the message names one.
type WeaponFired struct {
	Shooter *Player
	Opcode  byte
	Weapon  int32 // the firing subsystem's object id
	Target  int32 // 0 when none
}

// WeaponHit is one weapon hit the host damage model applied
// (missions.md 3.4): ShooterID is the firing player's id (0 for AI),
// Damage the amount, HullHit whether it reached the hull.
type WeaponHit struct {
	ShooterID int
	Target    *Object
	Damage    float64
	HullHit   bool
}

// GameEnded: the mission ended the game with a stock END_GAME reason.
type GameEnded struct{ Reason int32 }

// GameRestarted: the game restarted; missions reset their tables.
type GameRestarted struct{}

// Name implements Event.
func (*ShipCreated) Name() string { return EvShipCreated }

// Name implements Event.
func (*ShipDestroyed) Name() string { return EvShipDestroyed }

// Name implements Event.
func (*ObjectDestroyed) Name() string { return EvObjectDestroyed }

// Name implements Event.
func (*WeaponFired) Name() string { return EvWeaponFired }

// Name implements Event.
func (*WeaponHit) Name() string { return EvWeaponHit }

// Name implements Event.
func (*GameEnded) Name() string { return EvGameEnded }

// Name implements Event.
func (*GameRestarted) Name() string { return EvGameRestarted }

// Object returns the live object with id, or nil.
func (g *Game) Object(id int32) *Object { return g.objects[id] }

// Objects returns the live objects ordered by id.
func (g *Game) Objects() []*Object {
	out := make([]*Object, 0, len(g.objects))
	for _, o := range g.objects {
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b *Object) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	return out
}

// ShipOf returns the player's current ship, or nil.
func (g *Game) ShipOf(p *Player) *Object {
	if p == nil || p.ShipID == 0 {
		return nil
	}
	return g.objects[p.ShipID]
}

// SetTeam records a player's team (the mission's TEAM message); the core
// uses it for team-chat routing.
func (g *Game) SetTeam(p *Player, team int) { p.Team = team }

// SetScore records a player's kills, deaths and score for reporting.
func (g *Game) SetScore(p *Player, kills, deaths, score int) {
	p.Kills, p.Deaths, p.Score = kills, deaths, score
}

// GameOver reports whether the game has ended (until a restart).
func (g *Game) GameOver() bool { return g.gameOver }

// EndGame ends the game (missions.md 2.6, 3.6): END_GAME to every player,
// no new players until a restart, and the ships are forgotten — every
// client deletes them itself when it reads END_GAME.
func (g *Game) EndGame(reason int32) {
	if g.gameOver {
		return
	}
	g.gameOver = true
	g.buf = codec.EndGame{Reason: reason}.AppendTo(g.buf[:0])
	g.SendInGame(g.buf, nil)
	g.accepting = false
	g.forgetShips()
	g.log.Info("game ended", "reason", reason)
	g.bus.emit(&GameEnded{Reason: reason})
}

// RestartGame restarts after an end (missions.md 2.7, 3.8): RESTART_GAME
// to every player, the game opens to new players again, and the mission
// resets its tables on GameRestarted.
func (g *Game) RestartGame() {
	g.buf = codec.RestartGame{}.AppendTo(g.buf[:0])
	g.SendInGame(g.buf, nil)
	g.gameOver = false
	g.accepting = true
	g.forgetShips()
	g.log.Info("game restarted")
	g.bus.emit(&GameRestarted{})
}

// forgetShips drops every player ship and torpedo from the host's books
// without messages: clients delete their own on END_GAME/RESTART.
func (g *Game) forgetShips() {
	for _, o := range g.Objects() {
		if o.Owner != nil || o.ClassID == codec.ClassTorpedo {
			g.removeObject(o)
		}
	}
}

// removeObject forgets an object and raises ObjectDestroyed.
func (g *Game) removeObject(o *Object) {
	if g.objects[o.ID] != o {
		return
	}
	delete(g.objects, o.ID)
	if o.Owner != nil && o.Owner.ShipID == o.ID {
		o.Owner.ShipID = 0
	}
	g.bus.emit(&ObjectDestroyed{Object: o})
}
