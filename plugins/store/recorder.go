package store

import (
	"log/slog"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// RecorderOptions configures a Recorder.
type RecorderOptions struct {
	// Mode returns the running game mode (the mission folder); called on
	// the game goroutine.
	Mode func() string
	// Server is the server name written with a match when the game has
	// none; the game's name at the end of the match wins.
	Server string
	Logger *slog.Logger
}

// Recorder is the engine plugin that writes every match to a Store. A
// match runs from the mission start or a restart to END_GAME, the next
// restart or shutdown; matches nobody played in are not recorded. Each
// player's line holds the numbers the mission reported (kills, deaths,
// score, team), last seen when the match ended or the player left.
type Recorder struct {
	st   *Store
	opts RecorderOptions
	log  *slog.Logger
	g    *engine.Game
	cur  *openMatch
	offs []func()

	// Recorded counts matches handed to the store.
	Recorded int
}

type openMatch struct {
	started time.Time
	mode    string
	mapName string
	players map[string]*matchLine
	order   []string
	full    bool            // maxMatchPlayers reached (logged once)
	loading bool            // begun while the mission loaded: mode and map are read again
	outcome *engine.Outcome // who won, as the mission said at END_GAME
}

// matchLine is one player's line of the running match: its sessions (a
// rejoin is a new player to the game, its numbers from zero) summed, so
// the line says what the player did in the match, as its career does.
type matchLine struct {
	MatchPlayer
	banked               [3]int // kills, deaths, score of the sessions that ended
	cur                  *engine.Player
	curK, curD, curScore int // the current session's, as last seen
}

// NewRecorder returns a Recorder writing to st.
func NewRecorder(st *Store, opts RecorderOptions) *Recorder {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Mode == nil {
		opts.Mode = func() string { return "" }
	}
	return &Recorder{st: st, opts: opts, log: log.With("component", "plugin/store")}
}

// Name implements engine.Plugin.
func (r *Recorder) Name() string { return "store" }

// Start implements engine.Plugin.
func (r *Recorder) Start(g *engine.Game) error {
	r.g = g
	r.begin()
	r.offs = append(r.offs,
		g.On(engine.EvPlayerInGame, func(ev engine.Event) { r.note(ev.(*engine.PlayerInGame).Player) }),
		g.On(engine.EvPlayerLeft, func(ev engine.Event) {
			if e := ev.(*engine.PlayerLeft); e.WasInGame {
				r.note(e.Player)
				r.bank(e.Player)
			}
		}),
		g.On(engine.EvGameEnded, func(ev engine.Event) {
			e := ev.(*engine.GameEnded)
			if r.cur != nil && !e.Outcome.Empty() {
				r.cur.outcome = e.Outcome
			}
			r.Cut(e.ReasonName())
		}),
		g.On(engine.EvGameRestarted, func(engine.Event) {
			if r.cur != nil {
				// A restart with no END_GAME before it that nobody cut:
				// the mission has already zeroed the numbers (it handles
				// the event first), so the match keeps those last seen.
				r.finish("restarted")
			}
			r.begin()
		}),
		g.Every(time.Second, r.snapshot),
	)
	return nil
}

// Stop implements engine.Plugin: the running match is recorded as ended
// by the shutdown.
func (r *Recorder) Stop(*engine.Game) {
	r.Cut("shutdown")
	for _, off := range r.offs {
		off()
	}
	r.offs = nil
}

// Cut ends the running match now with reason, recording the players'
// current numbers; the next match begins at the next restart. Call it on
// the game goroutine (the admin's restart and mode switch do, before they
// act, so the numbers are those of the match that ends).
func (r *Recorder) Cut(reason string) {
	if r.cur == nil {
		return
	}
	r.snapshot()
	r.finish(reason)
}

func (r *Recorder) begin() {
	m := r.g.Mission()
	r.cur = &openMatch{started: r.g.Now(), mode: r.opts.Mode(), mapName: m.System, players: map[string]*matchLine{}, loading: r.g.Loading()}
	for _, p := range r.g.Players() {
		if p.InGame() {
			r.note(p)
		}
	}
}

func (r *Recorder) finish(reason string) {
	m := r.cur
	r.cur = nil
	if m.loading {
		// The first match began before the mission announced itself.
		m.mode, m.mapName = r.opts.Mode(), r.g.Mission().System
	}
	if len(m.order) == 0 {
		return
	}
	// The server's name as the match ends: a SIGHUP may have renamed it.
	server := r.opts.Server
	if n := r.g.Config().ServerName; n != "" {
		server = n
	}
	rec := Match{Mode: m.mode, Map: m.mapName, Server: server, Started: m.started, Ended: r.g.Now(), Reason: reason, Outcome: m.outcome}
	for _, id := range m.order {
		rec.Players = append(rec.Players, m.players[id].MatchPlayer)
	}
	r.Recorded++
	if r.st.RecordMatch(rec) {
		r.log.Info("match recorded", "mode", rec.Mode, "reason", reason, "players", len(rec.Players))
	}
}

// maxMatchPlayers bounds the players one match record keeps: a game holds
// 16 at a time, so only someone rejoining under ever new names gets near
// it, and the record stays a bounded write.
const maxMatchPlayers = 256

// note records p's current numbers in the running match.
func (r *Recorder) note(p *engine.Player) {
	if r.cur == nil || p.Name == "" || !p.Scored() {
		// A player on a registered name who has not logged in yet plays
		// for nobody's history ([accounts]) until he does or is renamed.
		return
	}
	id := Identity(p.Name)
	if id == "" {
		return // admission refuses such a name; nothing to key it by
	}
	mp := r.cur.players[id]
	if mp == nil {
		if len(r.cur.order) >= maxMatchPlayers {
			if !r.cur.full {
				r.cur.full = true
				r.log.Warn("match record full: later players of this match are not recorded", "players", maxMatchPlayers)
			}
			return
		}
		mp = &matchLine{MatchPlayer: MatchPlayer{Identity: id}}
		r.cur.players[id] = mp
		r.cur.order = append(r.cur.order, id)
	}
	if mp.cur != p {
		r.bankLine(mp) // a session not seen leaving (a rename onto this name)
		mp.cur = p
	}
	mp.curK, mp.curD, mp.curScore = p.Kills, p.Deaths, p.Score
	mp.Name, mp.Team = p.Name, p.Team
	mp.Kills, mp.Deaths, mp.Score = mp.banked[0]+p.Kills, mp.banked[1]+p.Deaths, mp.banked[2]+p.Score
	mp.Address = p.Addr.Addr().Unmap().String()
}

// bank ends p's session in its line: a rejoin starts from zero and adds.
func (r *Recorder) bank(p *engine.Player) {
	if r.cur == nil {
		return
	}
	if mp := r.cur.players[Identity(p.Name)]; mp != nil && mp.cur == p {
		r.bankLine(mp)
	}
}

func (r *Recorder) bankLine(mp *matchLine) {
	if mp.cur == nil {
		return
	}
	mp.banked[0] += mp.curK
	mp.banked[1] += mp.curD
	mp.banked[2] += mp.curScore
	mp.cur, mp.curK, mp.curD, mp.curScore = nil, 0, 0, 0
}

func (r *Recorder) snapshot() {
	if r.cur == nil {
		return
	}
	for _, p := range r.g.Players() {
		if p.InGame() {
			r.note(p)
		}
	}
}
