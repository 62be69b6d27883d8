package ratings

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/bcserver/bcserver/engine"
)

// PluginOptions configure one game's ratings.
type PluginOptions struct {
	Book    *Book
	Section Section
}

// Plugin rates one game's matches and balances its teams.
type Plugin struct {
	opts PluginOptions
	g    *engine.Game
	offs []func()
}

// New makes the plugin; add it with engine.Game.AddPlugin.
func New(o PluginOptions) *Plugin { return &Plugin{opts: o} }

// Name implements engine.Plugin.
func (r *Plugin) Name() string { return "ratings" }

// Start implements engine.Plugin.
func (r *Plugin) Start(g *engine.Game) error {
	r.g = g
	r.offs = append(r.offs,
		g.On(engine.EvGameEnded, func(ev engine.Event) { r.rate(ev.(*engine.GameEnded)) }),
		g.On(engine.EvGameRestarted, func(engine.Event) {
			if r.opts.Section.Balance {
				r.BalanceNow()
			}
		}),
	)
	return nil
}

// Stop implements engine.Plugin.
func (r *Plugin) Stop(*engine.Game) {
	for _, off := range r.offs {
		off()
	}
	r.offs = nil
}

func (r *Plugin) family() string {
	if r.g.TeamMode() {
		return FamilyTeam
	}
	return FamilyFFA
}

func (r *Plugin) season() string { return SeasonOf(r.opts.Section.Season, r.g.Now()) }

// Lookup is bc.rating: the player's rating in the running family and
// season; false for a guest.
func (r *Plugin) Lookup(p *engine.Player) (map[string]any, bool) {
	if p == nil || p.Account == "" {
		return nil, false
	}
	e := r.opts.Book.Get(p.Account, r.family(), r.season())
	return map[string]any{"rating": e.R, "deviation": e.RD, "volatility": e.Vol, "matches": int64(e.Matches),
		"family": e.Family, "season": e.Season}, true
}

// rate updates every rated player's rating from the match that ended:
// each pair of players is a game of the rating period — in a team mode
// every player against each player of the other team, won by the winning
// team (a draw without one); in a free-for-all each pair by their scores.
// Guests and players whose points do not count are not rated.
func (r *Plugin) rate(e *engine.GameEnded) {
	var ps []*engine.Player
	for _, p := range r.g.Players() {
		if p.InGame() && p.Account != "" && p.Scored() {
			ps = append(ps, p)
		}
	}
	if len(ps) < 2 {
		return
	}
	fam, season := r.family(), r.season()
	winner := -1
	if fam == FamilyTeam {
		winner = winningTeam(e.Outcome)
	}
	before := make([]Entry, len(ps))
	for i, p := range ps {
		before[i] = r.opts.Book.Get(p.Account, fam, season)
	}
	after := make([]Entry, 0, len(ps))
	for i, p := range ps {
		var games []Result
		for j, q := range ps {
			if i == j {
				continue
			}
			var score float64
			switch {
			case fam == FamilyTeam:
				if p.Team == q.Team || p.Team < 0 || q.Team < 0 {
					continue
				}
				score = 0.5
				if winner == p.Team {
					score = 1
				} else if winner == q.Team {
					score = 0
				}
			case p.Score > q.Score:
				score = 1
			case p.Score < q.Score:
				score = 0
			default:
				score = 0.5
			}
			games = append(games, Result{Opp: before[j].Rating, Score: score})
		}
		if len(games) == 0 {
			continue
		}
		n := before[i]
		n.Account = p.Account
		n.Rating = Update(before[i].Rating, games, r.opts.Section.Tau)
		n.Matches++
		n.Updated = r.g.Now()
		after = append(after, n)
	}
	r.opts.Book.Set(after)
	for _, a := range after {
		r.g.Logger().Info("rating", "component", "plugin/ratings", "account", a.Account, "family", fam, "season", season,
			"rating", fmt.Sprintf("%.1f", a.R), "deviation", fmt.Sprintf("%.1f", a.RD))
	}
}

// winningTeam is the outcome's winner, else the team with the higher
// score; -1 for a draw or none.
func winningTeam(o *engine.Outcome) int {
	if o == nil {
		return -1
	}
	if o.Team != nil {
		return *o.Team
	}
	best, bestScore, tie := -1, 0, false
	for _, t := range o.Teams {
		switch {
		case best < 0 || t.Score > bestScore:
			best, bestScore, tie = t.Team, t.Score, false
		case t.Score == bestScore:
			tie = true
		}
	}
	if tie {
		return -1
	}
	return best
}

// BalanceNow assigns the teams of a team mode from the players' team
// ratings (guests count as 1500): the split with the smallest rating-sum
// gap. The mission is told (teams_balanced) and the players too. Game
// goroutine.
func (r *Plugin) BalanceNow() {
	if !r.g.TeamMode() {
		return
	}
	var ps []*engine.Player
	for _, p := range r.g.Players() {
		if p.InGame() {
			ps = append(ps, p)
		}
	}
	if len(ps) < 2 {
		return
	}
	slices.SortFunc(ps, func(a, b *engine.Player) int { return int(a.ID) - int(b.ID) })
	season := r.season()
	rs := make([]float64, len(ps))
	for i, p := range ps {
		rs[i] = Initial.R
		if p.Account != "" {
			rs[i] = r.opts.Book.Get(p.Account, FamilyTeam, season).R
		}
	}
	teams := Balance(rs)
	ev := &engine.TeamsBalanced{Teams: map[byte]int{}}
	var names [2][]string
	var sums [2]float64
	for i, p := range ps {
		r.g.SetTeam(p, teams[i])
		ev.Teams[p.ID] = teams[i]
		names[teams[i]] = append(names[teams[i]], p.Name)
		sums[teams[i]] += rs[i]
	}
	r.g.Logger().Info("teams balanced", "component", "plugin/ratings", "team0", strings.Join(names[0], ", "), "team1", strings.Join(names[1], ", "),
		"sum0", int(sums[0]), "sum1", int(sums[1]))
	r.g.Emit(ev)
	for t := range 2 {
		r.g.SendInGame(engine.ServerNotice(nil, fmt.Sprintf("team %d (%d): %s", t, int(sums[t]), strings.Join(names[t], ", "))), nil)
	}
}

// API serves GET /api/v1/ratings?family=team|ffa&season=2026-12&limit=50:
// the leaderboard by rating (less twice the deviation).
func API(b *Book, s Section, now func() string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		q := req.URL.Query()
		fam := q.Get("family")
		if fam == "" {
			fam = FamilyTeam
		}
		if fam != FamilyTeam && fam != FamilyFFA {
			http.Error(w, `{"error": "family: team or ffa"}`, http.StatusBadRequest)
			return
		}
		season := q.Get("season")
		if season == "" {
			season = now()
		}
		if len(season) > 16 {
			http.Error(w, `{"error": "season too long"}`, http.StatusBadRequest)
			return
		}
		limit, _ := strconv.Atoi(q.Get("limit"))
		if limit <= 0 || limit > 500 {
			limit = 50
		}
		top := b.Top(fam, season, limit)
		if top == nil {
			top = []Entry{}
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_ = json.NewEncoder(w).Encode(map[string]any{"family": fam, "season": season, "ratings": top})
	})
}
