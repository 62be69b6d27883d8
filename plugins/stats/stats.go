// Package stats keeps career statistics: for every player (the store's
// identity, with the names used) the matches played, kills, deaths,
// assists, score, damage dealt and taken by weapon kind, time played and
// the classes flown. A Tracker is a capture.Sink of one game's capture: it
// tallies a match as it is played and writes one line per player to the
// store when it ends. It also keeps the careers of the players in the
// game at hand, so a mission can read them (bc.stats) without the game
// goroutine ever waiting for the database.
package stats

import (
	"context"
	"log/slog"
	"maps"
	"time"

	"github.com/bcserver/bcserver/engine/capture"
	"github.com/bcserver/bcserver/engine/history"
	"github.com/bcserver/bcserver/engine/names"
)

// Store is what a Tracker needs of *store.Store.
type Store interface {
	RecordCareer(m history.CareerMatch) bool
	LoadCareer(identity string, done func(history.Career, error)) bool
	Career(ctx context.Context, identity string) (history.Career, error)
	Leaderboard(ctx context.Context, order string, limit, minMatches int) ([]history.Career, error)
}

// assistWindow is how long damage to a ship counts towards an assist when
// someone else destroys it.
const assistWindow = 60 * time.Second

// Options configures a Tracker.
type Options struct {
	Store Store
	// Post runs a function on the game goroutine (engine.Game.Post): the
	// careers read from the store come back through it.
	Post   func(func()) bool
	Logger *slog.Logger
}

// Tracker tallies matches for the career statistics.
type Tracker struct {
	opts Options
	log  *slog.Logger

	// game goroutine
	in      bool
	header  capture.Header
	lines   []*line
	byID    map[byte]*line
	ships   map[int32]*ship
	cache   map[string]*history.Career
	loading map[string]uint64 // identity -> the read under way
	gen     uint64
	last    uint32
}

type line struct {
	history.CareerLine
	id     byte
	team   int32  // the last team the mission gave him (-1 none)
	joined uint32 // when the current stretch in the game began
	inGame bool
	left   bool
}

type ship struct {
	owner    byte
	class    string
	since    uint32
	alive    bool
	damagers map[byte]uint32 // player -> time of the last damage
}

// New returns a Tracker.
func New(opts Options) *Tracker {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Tracker{opts: opts, log: log.With("component", "plugin/stats"), byID: map[byte]*line{}, ships: map[int32]*ship{},
		cache: map[string]*history.Career{}, loading: map[string]uint64{}}
}

// BeginMatch implements capture.Sink.
func (t *Tracker) BeginMatch(h *capture.Header) {
	t.in, t.header, t.lines, t.last = true, *h, nil, 0
	clear(t.byID)
	clear(t.ships)
}

// Record implements capture.Sink.
func (t *Tracker) Record(r *capture.Record) {
	if !t.in {
		return
	}
	t.last = r.T
	switch r.Kind {
	case capture.KindPlayer:
		l := t.byID[r.Player]
		if l == nil || l.left && l.Name != r.Name {
			l = &line{id: r.Player}
			t.lines = append(t.lines, l)
			t.byID[r.Player] = l
			t.want(r.Name)
		}
		if !l.inGame {
			l.inGame, l.left, l.joined = true, false, r.T
		}
		l.Name, l.Identity = r.Name, names.Key(r.Name)
		l.Kills, l.Deaths, l.Score, l.team = int(r.Kills), int(r.Deaths), int(r.Score), r.Team
	case capture.KindPlayerLeft:
		if l := t.byID[r.Player]; l != nil && l.inGame {
			l.Seconds += float64(r.T-l.joined) / 1000
			l.inGame, l.left = false, true
		}
	case capture.KindObject:
		if s := t.ships[r.Object]; s == nil {
			t.ships[r.Object] = &ship{owner: r.Owner, class: r.Class, since: r.T, alive: true, damagers: map[byte]uint32{}}
		}
	case capture.KindDamage:
		if l := t.byID[r.Player]; l != nil && r.Player != 0 {
			*damageColumn(&l.Dealt, r) += float64(r.Damage)
		}
		if s := t.ships[r.Object]; s != nil {
			if l := t.byID[s.owner]; l != nil && s.owner != 0 {
				*damageColumn(&l.Taken, r) += float64(r.Damage)
			}
			if r.Player != 0 && r.Player != s.owner {
				s.damagers[r.Player] = r.T
			}
		}
	case capture.KindDeath:
		if s := t.ships[r.Object]; s != nil {
			for p, at := range s.damagers {
				if p != r.Player && time.Duration(r.T-at)*time.Millisecond <= assistWindow {
					if l := t.byID[p]; l != nil {
						l.Assists++
					}
				}
			}
			t.flown(s, r.T)
		}
	case capture.KindObjectGone:
		if s := t.ships[r.Object]; s != nil {
			t.flown(s, r.T)
			delete(t.ships, r.Object)
		}
	}
}

// flown books a player ship's time in its class once it is gone.
func (t *Tracker) flown(s *ship, now uint32) {
	if !s.alive {
		return
	}
	s.alive = false
	if l := t.byID[s.owner]; l != nil && s.owner != 0 && s.class != "" {
		if l.Classes == nil {
			l.Classes = map[string]float64{}
		}
		l.Classes[s.class] += float64(now-s.since) / 1000
	}
}

// damageColumn is the column of d that a damage record is summed in: a
// weapon's by the ship data's kind of the weapon (history's table), a
// collision's, or other.
func damageColumn(d *history.Damage, r *capture.Record) *float64 {
	switch r.Cause {
	case capture.CauseWeapon:
		return d.Weapon(r.Weapons.Weapon())
	case capture.CauseCollision:
		return &d.Collision
	}
	return &d.Other
}

// EndMatch implements capture.Sink: the match's lines go to the store, and
// the careers of its players are read again behind that write.
func (t *Tracker) EndMatch(f *capture.Footer) {
	if !t.in {
		return
	}
	t.in = false
	end := f.DurationMS
	for _, s := range t.ships {
		t.flown(s, end)
	}
	m := history.CareerMatch{Server: t.header.Server, Mode: t.header.Mode, Started: t.header.Started, Ended: f.Ended}
	// One line per player: a rejoin is another session (a new player id,
	// its numbers from zero) of the same match, summed into the first.
	byIdentity := map[string]int{}
	for _, l := range t.lines {
		if l.inGame {
			l.Seconds += float64(end-l.joined) / 1000
			l.inGame = false
		}
		if l.Identity == "" {
			continue
		}
		l.Won = won(f, l)
		i, ok := byIdentity[l.Identity]
		if !ok {
			byIdentity[l.Identity] = len(m.Players)
			cl := l.CareerLine
			cl.Sessions = 1
			cl.Classes = maps.Clone(l.Classes)
			m.Players = append(m.Players, cl)
			continue
		}
		addSession(&m.Players[i], &l.CareerLine)
	}
	if len(m.Players) == 0 || t.opts.Store == nil {
		return
	}
	if !t.opts.Store.RecordCareer(m) {
		t.log.Warn("career statistics of a match dropped (the store's queue is full)")
	}
	for _, p := range m.Players {
		// A read under way may predate the write: a new one replaces it.
		delete(t.cache, p.Identity)
		delete(t.loading, p.Identity)
		t.want(p.Name)
	}
}

// addSession adds a later session of the same player to its match line;
// the line takes the session's name (the latest).
func addSession(to, s *history.CareerLine) {
	to.Name = s.Name
	to.Sessions++
	to.Kills += s.Kills
	to.Deaths += s.Deaths
	to.Assists += s.Assists
	to.Score += s.Score
	to.Seconds += s.Seconds
	to.Dealt.Add(&s.Dealt)
	to.Taken.Add(&s.Taken)
	to.Won = to.Won || s.Won
	for class, secs := range s.Classes {
		if to.Classes == nil {
			to.Classes = map[string]float64{}
		}
		to.Classes[class] += secs
	}
}

// won reports whether l was on the winning side of the outcome the
// mission gave: the winning team, or the winner himself (a player who
// left and another who took his id are told apart by name).
func won(f *capture.Footer, l *line) bool {
	o := f.Outcome
	switch {
	case o == nil:
		return false
	case o.Player != 0 && o.Player == l.id && (o.PlayerName == "" || o.PlayerName == l.Name):
		return true
	case o.Team != nil && l.team >= 0 && int(l.team) == *o.Team:
		return true
	}
	return false
}

// want loads name's career into the cache unless it is there or coming.
func (t *Tracker) want(name string) {
	id := names.Key(name)
	if _, busy := t.loading[id]; id == "" || t.opts.Store == nil || t.opts.Post == nil || busy {
		return
	}
	if _, ok := t.cache[id]; ok {
		return
	}
	if len(t.cache) > 4096 {
		clear(t.cache) // players come and go; a long-running server drops the lot now and then
	}
	t.gen++
	gen := t.gen
	t.loading[id] = gen
	ok := t.opts.Store.LoadCareer(id, func(c history.Career, err error) {
		posted := t.opts.Post(func() {
			if t.loading[id] != gen {
				return // replaced by a later read
			}
			delete(t.loading, id)
			if err == nil {
				cc := c
				t.cache[id] = &cc
			} else {
				t.cache[id] = &history.Career{Identity: id} // none yet
			}
		})
		if !posted {
			t.log.Debug("career read not handed back (the game's queue is full)", "identity", id)
		}
	})
	if !ok {
		delete(t.loading, id)
	}
}

// Lookup returns the career of a player name as plain data for Lua
// (bc.stats), from what is at hand: false until it has been read. Call it
// on the game goroutine.
func (t *Tracker) Lookup(name string) (map[string]any, bool) {
	id := names.Key(name)
	c, ok := t.cache[id]
	if !ok {
		t.want(name)
		return nil, false
	}
	return CareerTable(*c), true
}

// CareerTable is a career as plain data for Lua (bc.stats): the fields of
// history.Career by their JSON names, damage with its total.
func CareerTable(c history.Career) map[string]any {
	names := make([]any, len(c.Names))
	for i, n := range c.Names {
		names[i] = n
	}
	classes := map[string]any{}
	for k, v := range c.Classes {
		classes[k] = v
	}
	return map[string]any{
		"identity": c.Identity, "names": names, "matches": int64(c.Matches), "kills": int64(c.Kills), "deaths": int64(c.Deaths),
		"assists": int64(c.Assists), "score": int64(c.Score), "best_score": int64(c.Best), "seconds_played": c.Seconds,
		"damage_dealt": c.Dealt.Table(), "damage_taken": c.Taken.Table(), "favourite_class": c.Favourite, "classes": classes,
		"wins": int64(c.Wins),
	}
}
