// Package history is the vocabulary of the match history and the career
// statistics: the rows the store plugin keeps, which the stats plugin
// writes and the admin API reads. The plugins meet in this package, not in
// each other's.
//
// A player's identity (the Identity fields) is names.Key of the name he
// typed: the form admission compares names in (NFKC, invisible characters
// dropped, A..Z folded as the stock host folds them), so two names
// admission would let play side by side ("Ärger" and "ärger") are two
// players, and two it would not ("Alice" and "Al\u200bice") are one.
package history

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/ships"
)

// Match is one recorded match.
type Match struct {
	ID      int64         `json:"id"`
	Mode    string        `json:"mode"`
	Map     string        `json:"map"`
	Server  string        `json:"server,omitempty"`
	Started time.Time     `json:"started"`
	Ended   time.Time     `json:"ended"`
	Reason  string        `json:"reason"`
	Players []MatchPlayer `json:"players"`
	// The mission's outcome (bc.end_game): winner_team, winner_name, why,
	// teams; nil when it gave none (and for matches recorded before
	// schema version 5). Winner, the wire id, is not kept.
	*engine.Outcome
}

// MatchPlayer is one player's line in a match.
type MatchPlayer struct {
	Identity string `json:"identity"`
	Name     string `json:"name"`
	Team     int    `json:"team"`
	Kills    int    `json:"kills"`
	Deaths   int    `json:"deaths"`
	Score    int    `json:"score"`
	// Address is the IP address the player played from ("" in matches
	// recorded before schema version 2).
	Address string `json:"address,omitempty"`
}

// PlayerStats sums a player's recorded matches.
type PlayerStats struct {
	Identity string    `json:"identity"`
	Name     string    `json:"name"` // the latest name used
	Matches  int       `json:"matches"`
	Kills    int       `json:"kills"`
	Deaths   int       `json:"deaths"`
	Score    int       `json:"score"`
	Best     int       `json:"best_score"`
	LastSeen time.Time `json:"last_seen"`
}

// ErrNotFound is returned for an unknown match or player.
var ErrNotFound = errors.New("not found")

// Damage is damage by kind: the ship data's weapons that have a column
// (damageKinds), collisions, and the rest (self-destruct, environment,
// weapons of unknown kind or of no column).
type Damage struct {
	Phaser    float64 `json:"phaser"`
	Pulse     float64 `json:"pulse"`
	Torpedo   float64 `json:"torpedo"`
	Collision float64 `json:"collision"`
	Other     float64 `json:"other"`
}

// damageKinds is the careers' one table of what damage is summed by: each
// column's name (its JSON key, bc.stats's and the store's), the ship
// data's weapon it sums (ships.NoWeapon for collisions and the rest) and
// its field. A kind of weapon without a row here is summed in other; one
// with a column of its own is a row, a field of Damage and the store's
// columns.
var damageKinds = [...]struct {
	name   string
	weapon ships.Weapon
	field  func(*Damage) *float64
}{
	{"phaser", ships.WeaponPhaser, func(d *Damage) *float64 { return &d.Phaser }},
	{"pulse", ships.WeaponPulse, func(d *Damage) *float64 { return &d.Pulse }},
	{"torpedo", ships.WeaponTorpedo, func(d *Damage) *float64 { return &d.Torpedo }},
	{"collision", ships.NoWeapon, func(d *Damage) *float64 { return &d.Collision }},
	{"other", ships.NoWeapon, func(d *Damage) *float64 { return &d.Other }},
}

// DamageKinds returns the names of Damage's columns, in order.
func DamageKinds() []string {
	out := make([]string, len(damageKinds))
	for i, k := range damageKinds {
		out[i] = k.name
	}
	return out
}

// Weapon returns the column that sums damage by a weapon of kind w: its
// own, or Other.
func (d *Damage) Weapon(w ships.Weapon) *float64 {
	for _, k := range damageKinds {
		if k.weapon == w && w != ships.NoWeapon {
			return k.field(d)
		}
	}
	return &d.Other
}

// Column returns the column called name, nil for none.
func (d *Damage) Column(name string) *float64 {
	for _, k := range damageKinds {
		if k.name == name {
			return k.field(d)
		}
	}
	return nil
}

// Add adds every column of o to d's.
func (d *Damage) Add(o *Damage) {
	for _, k := range damageKinds {
		*k.field(d) += *k.field(o)
	}
}

// Total sums every kind.
func (d Damage) Total() float64 {
	var sum float64
	for _, k := range damageKinds {
		sum += *k.field(&d)
	}
	return sum
}

// Table returns the columns by name and their total ("total"), as bc.stats
// has them.
func (d Damage) Table() map[string]any {
	out := make(map[string]any, len(damageKinds)+1)
	for _, k := range damageKinds {
		out[k.name] = *k.field(&d)
	}
	out["total"] = d.Total()
	return out
}

// MarshalJSON writes the kinds and their total ("total"), as bc.stats
// has them.
func (d Damage) MarshalJSON() ([]byte, error) {
	type kinds Damage // without this method
	return json.Marshal(struct {
		kinds
		Total float64 `json:"total"`
	}{kinds(d), d.Total()})
}

// CareerMatch is one match's career lines (plugins/stats writes them).
type CareerMatch struct {
	Server, Mode   string
	Started, Ended time.Time
	Players        []CareerLine
}

// CareerLine is what one player did in one match: all its sessions (a
// rejoin is a new session of the same match) summed.
type CareerLine struct {
	Identity, Name                string
	Sessions                      int // 0 counts as 1
	Kills, Deaths, Assists, Score int
	Seconds                       float64 // time in the game
	Dealt, Taken                  Damage
	Classes                       map[string]float64 // seconds flown per ship class
	// Won: the player was on the winning side (the winning team, or the
	// winner) of the outcome the mission gave.
	Won bool
}

// Career is a player's sums over every recorded match.
type Career struct {
	Identity string   `json:"identity"`
	Names    []string `json:"names"` // the spellings used, the latest first (at most 20)
	Matches  int      `json:"matches"`
	Sessions int      `json:"sessions"` // joins: a rejoin is another session of the same match
	Kills    int      `json:"kills"`
	Deaths   int      `json:"deaths"`
	Assists  int      `json:"assists"`
	Score    int      `json:"score"`
	Best     int      `json:"best_score"`
	Seconds  float64  `json:"seconds_played"`
	Dealt    Damage   `json:"damage_dealt"`
	Taken    Damage   `json:"damage_taken"`
	// Wins counts the matches won (schema version 5 on: older matches
	// count none).
	Wins int `json:"wins"`
	// Favourite is the class flown longest; Classes the seconds per class.
	Favourite string             `json:"favourite_class"`
	Classes   map[string]float64 `json:"classes"`
	LastSeen  time.Time          `json:"last_seen"`
}
