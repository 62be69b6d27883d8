package missiontest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/engine/history"
	"github.com/bcserver/bcserver/engine/names"
	"github.com/bcserver/bcserver/plugins/stats"
	"github.com/bcserver/bcserver/plugins/store"
)

// Careers in tests: bc.stats answers from the careers test.careers seeded
// and, in a game with record = true, from the matches the test itself
// recorded (a real store beside the recordings, written by the same
// career tally as a server's). A server reads careers in the background
// and bc.stats may answer nil until then; a test reads them at once, so
// it never waits and always sees the matches that ended before.

// storeTimeout bounds a test's wait for its store.
const storeTimeout = 30 * time.Second

// openStore opens the store of a recording test game in dir.
func (w *Match) openStore(dir string) (*store.Store, error) {
	st, err := store.Open(filepath.Join(dir, "bcserver.db"), store.Options{})
	if err != nil {
		return nil, fmt.Errorf("the test's match history: %w", err)
	}
	return st, nil
}

// careerLookup is bc.stats in a test game.
func (w *Match) careerLookup(name string) (map[string]any, bool) {
	id := names.Key(name)
	seed, seeded := w.opts.Careers[id]
	var rec *history.Career
	if r := w.rec; r != nil && r.st != nil {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		if err := r.st.Flush(ctx); err == nil {
			c, err := r.st.Career(ctx, id)
			switch {
			case err == nil:
				rec = &c
			case errors.Is(err, history.ErrNotFound):
				rec = &history.Career{Identity: id}
			}
		}
	}
	if !seeded && rec == nil {
		if w.opts.Careers == nil {
			return nil, false // as a server without [store] path
		}
		rec = &history.Career{Identity: id} // careers are kept: none yet
	}
	c := history.Career{Identity: id, Names: []string{}, Classes: map[string]float64{}}
	if seeded {
		c = addCareer(c, seed)
	}
	if rec != nil {
		c = addCareer(c, *rec)
	}
	return stats.CareerTable(c), true
}

// addCareer sums two careers of one player.
func addCareer(a, b history.Career) history.Career {
	a.Matches += b.Matches
	a.Kills += b.Kills
	a.Deaths += b.Deaths
	a.Assists += b.Assists
	a.Score += b.Score
	a.Best = max(a.Best, b.Best)
	a.Wins += b.Wins
	a.Seconds += b.Seconds
	a.Dealt.Add(&b.Dealt)
	a.Taken.Add(&b.Taken)
	for _, n := range b.Names {
		if !slices.Contains(a.Names, n) {
			a.Names = append(a.Names, n)
		}
	}
	a.Classes = maps.Clone(a.Classes)
	for k, v := range b.Classes {
		a.Classes[k] += v
	}
	if b.Favourite != "" {
		a.Favourite = b.Favourite
	}
	if len(a.Classes) > 0 {
		best := -1.0
		keys := slices.Sorted(maps.Keys(a.Classes))
		for _, k := range keys {
			if a.Classes[k] > best {
				a.Favourite, best = k, a.Classes[k]
			}
		}
	}
	if b.LastSeen.After(a.LastSeen) {
		a.LastSeen = b.LastSeen
	}
	return a
}

// careerFields are the fields of a test.careers entry.
var careerFields = []string{"matches", "kills", "deaths", "assists", "score", "best_score", "wins", "seconds_played",
	"damage_dealt", "damage_taken", "favourite_class", "classes"}

// careersArg reads test.careers{Name = {matches = 10, ...}, ...}: the
// careers, by identity, that bc.stats starts from in the case's games.
func careersArg(L *glua.LState, t *glua.LTable) map[string]history.Career {
	out := map[string]history.Career{}
	t.ForEach(func(k, v glua.LValue) {
		name, ok := k.(glua.LString)
		row, isTable := v.(*glua.LTable)
		if !ok || !isTable || len(name) == 0 || len(name) > 128 {
			L.ArgError(1, "want {[player name] = {matches = n, kills = n, ...}}")
		}
		c := history.Career{Identity: names.Key(string(name)), Names: []string{string(name)}, Classes: map[string]float64{}}
		row.ForEach(func(fk, fv glua.LValue) {
			f, _ := fk.(glua.LString)
			num := func() float64 {
				n, ok := fv.(glua.LNumber)
				if !ok || math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) || n < 0 {
					L.ArgError(1, fmt.Sprintf("%s.%s: want a number ≥ 0, got %s", name, f, show(fv)))
				}
				return float64(n)
			}
			integer := func() int {
				n := num()
				if n != math.Trunc(n) || n > math.MaxInt32 {
					L.ArgError(1, fmt.Sprintf("%s.%s: want a whole number, got %v", name, f, n))
				}
				return int(n)
			}
			damage := func() history.Damage {
				dt, ok := fv.(*glua.LTable)
				if !ok {
					L.ArgError(1, fmt.Sprintf("%s.%s: want {%s}", name, f, strings.Join(history.DamageKinds(), ", ")))
				}
				var d history.Damage
				dt.ForEach(func(dk, dv glua.LValue) {
					n, ok := dv.(glua.LNumber)
					if !ok || n < 0 {
						L.ArgError(1, fmt.Sprintf("%s.%s.%s: want a number ≥ 0", name, f, dk))
					}
					if col := d.Column(dk.String()); col != nil {
						*col = float64(n)
					} else {
						L.ArgError(1, fmt.Sprintf("%s.%s: unknown kind %s (want %s)", name, f, dk, strings.Join(history.DamageKinds(), ", ")))
					}
				})
				return d
			}
			switch string(f) {
			case "matches":
				c.Matches = integer()
			case "kills":
				c.Kills = integer()
			case "deaths":
				c.Deaths = integer()
			case "assists":
				c.Assists = integer()
			case "score":
				c.Score = integer()
			case "best_score":
				c.Best = integer()
			case "wins":
				c.Wins = integer()
			case "seconds_played":
				c.Seconds = num()
			case "damage_dealt":
				c.Dealt = damage()
			case "damage_taken":
				c.Taken = damage()
			case "favourite_class":
				s, ok := fv.(glua.LString)
				if !ok {
					L.ArgError(1, fmt.Sprintf("%s.favourite_class: want a class name", name))
				}
				c.Favourite = string(s)
			case "classes":
				ct, ok := fv.(*glua.LTable)
				if !ok {
					L.ArgError(1, fmt.Sprintf("%s.classes: want {[class] = seconds}", name))
				}
				ct.ForEach(func(ck, cv glua.LValue) {
					n, ok := cv.(glua.LNumber)
					if !ok || n < 0 || ck.Type() != glua.LTString {
						L.ArgError(1, fmt.Sprintf("%s.classes: want {[class] = seconds}", name))
					}
					c.Classes[ck.String()] = float64(n)
				})
			default:
				fields := append([]string(nil), careerFields...)
				sort.Strings(fields)
				L.ArgError(1, fmt.Sprintf("%s: unknown field %s (want %v)", name, show(fk), fields))
			}
		})
		out[c.Identity] = c
	})
	return out
}
