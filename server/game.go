package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/plugins/accounts"
	"github.com/bcserver/bcserver/plugins/admin"
	"github.com/bcserver/bcserver/plugins/agones"
	"github.com/bcserver/bcserver/plugins/gamespy"
	"github.com/bcserver/bcserver/plugins/metrics"
	"github.com/bcserver/bcserver/plugins/moderation"
	"github.com/bcserver/bcserver/plugins/ratings"
	"github.com/bcserver/bcserver/plugins/record"
	"github.com/bcserver/bcserver/plugins/spectate"
	"github.com/bcserver/bcserver/plugins/stats"
	"github.com/bcserver/bcserver/plugins/store"
	"github.com/bcserver/bcserver/plugins/webhook"
)

// Game is one game of a Server: the engine's game (on its own socket, or
// driven by hand with Options.Manual), its mission slot and its plugins.
type Game struct {
	label    string // names it in logs, metrics and admin paths: its port, or "game<i>"
	uc       Config // its configuration: its [[games]] table over the top level
	srv      *engine.Server
	g        *engine.Game
	log      *slog.Logger // the process's, with game=<label> when there are several
	missions *missionSlot
	gamespy  *gamespy.Plugin
	metrics  *metrics.Metrics
	recorder *store.Recorder    // with match history on
	capture  *record.Capture    // with recording, spectating or career statistics on
	tracker  *stats.Tracker     // with match history on: bc.stats
	admin    *admin.Admin       // with the admin API on
	agones   *agones.Plugin     // the first game's, under Agones
	mod      *moderation.Plugin // timed bans and in-game admin commands, with match history on
	ratings  *ratings.Plugin    // skill ratings and balanced teams, with [ratings] on
}

// Label names the game in logs, metrics and the admin API's paths
// (/games/<label>/): its port, or game<i> for a port the system chose.
func (u *Game) Label() string { return u.label }

// Engine returns the engine's game. Its methods belong to the game's
// goroutine: use Do from anywhere else.
func (u *Game) Engine() *engine.Game { return u.g }

// Server returns the engine server running the game on its socket; nil
// for a game driven by hand (Options.Manual).
func (u *Game) Server() *engine.Server { return u.srv }

// Addr is the game's UDP address (the zero value for a game driven by
// hand).
func (u *Game) Addr() netip.AddrPort {
	if u.srv == nil {
		return netip.AddrPort{}
	}
	return u.srv.Addr()
}

// Mode returns the running game mode (any goroutine).
func (u *Game) Mode() string { return u.missions.Mode() }

// Failure says why the game's mission could not start, "" while one runs
// (any goroutine). A game without a mission takes no players.
func (u *Game) Failure() string { return u.missions.Failure() }

// Mission returns the running mission's runtime, nil when none runs. Its
// methods belong to the game goroutine, except Reload.
func (u *Game) Mission() *lua.Runtime { return u.missions.current() }

// Do runs fn on the game goroutine and waits for it (engine.Server.Do); a
// game driven by hand runs it at once, on the caller's goroutine, which
// is the one driving it.
func (u *Game) Do(ctx context.Context, fn func(*engine.Game)) error {
	if u.srv == nil {
		fn(u.g)
		return nil
	}
	return u.srv.Do(ctx, fn)
}

// plugins are the steps that assemble a game, in the one order its
// plugins start in (and stop in reverse): the mission slot first, so every
// other plugin sees the mode it runs (the mission itself opens once the
// game runs, and its handlers run before the plugins' all the same:
// engine.Game.OnEarly); moderation (timed bans, in-game admin commands)
// before accounts, whose chat filter hands it those commands; ratings,
// which rate a match before the history and the recording close it;
// GameSpy; metrics; the match history; the recording (files, spectators,
// career statistics); Agones, which follows the first game; the webhook;
// the admin API last, over everything the others set up.
var plugins = []struct {
	name string
	add  func(p *process, u *Game) error
}{
	{"missions", (*process).addMissions},
	{"moderation", (*process).addModeration},
	{"accounts", (*process).addAccounts},
	{"ratings", (*process).addRatings},
	{"gamespy", (*process).addGamespy},
	{"metrics", (*process).addMetrics},
	{"store", (*process).addRecorder},
	{"record", (*process).addCapture},
	{"agones", (*process).addAgones},
	{"webhook", (*process).addWebhook},
	{"admin", (*process).addAdmin},
}

// newGame makes the i-th game of the process from its configuration and
// assembles it (before it runs).
func (p *process) newGame(i int, uc Config, rc engine.Config) (*Game, error) {
	label := strconv.Itoa(uc.Server.Port)
	if uc.Server.Port == 0 {
		label = "game" + strconv.Itoa(i)
	}
	u := &Game{label: label, uc: uc, log: p.log}
	if p.multi {
		// Every line of this game says which game it is.
		u.log = p.log.With("game", label)
	}
	rc.Answers = p.answers
	if m := p.opts.Manual; m != nil {
		g, err := engine.NewGame(engine.Options{Config: rc, Logger: u.log, Out: m.Out, Now: m.Now})
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", label, err)
		}
		u.g = g
	} else {
		srv, err := engine.Listen(engine.ServerOptions{
			Addr:   net.JoinHostPort(uc.Server.Address, strconv.Itoa(uc.Server.Port)),
			Config: rc,
			Logger: u.log,
		})
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", label, err)
		}
		u.srv, u.g = srv, srv.Game()
	}
	mo := metrics.Options{Server: u.srv, Logger: u.log, Registry: p.registry}
	if p.multi {
		mo.Game = label
	}
	u.metrics = metrics.New(mo)
	if p.metricsHandler == nil {
		// One /metrics for the process: the first game's registry, which
		// with several games is the one they share.
		p.metricsHandler = promhttp.HandlerFor(u.metrics.Registry(), promhttp.HandlerOpts{})
	}
	for _, step := range plugins {
		if err := step.add(p, u); err != nil {
			u.close()
			return nil, fmt.Errorf("game %s: %w", label, err)
		}
	}
	return u, nil
}

// close releases a game that will not run.
func (u *Game) close() {
	if u.srv != nil {
		u.srv.Close()
	}
}

func (p *process) addMissions(u *Game) error {
	ms, err := p.startMission(u)
	u.missions = ms
	return err
}

func (p *process) addGamespy(u *Game) error {
	// The heartbeats announce the port actually bound (server.port may be
	// 0), so masters list this game where players can reach it.
	gs, err := gamespy.Setup(u.g, u.uc.Plugins.Gamespy, gamespy.PluginOptions{GamePort: int(u.Addr().Port()), Logger: u.log})
	if err != nil {
		return err
	}
	u.gamespy = gs
	u.metrics.SetGamespy(func() (uint64, uint64) { s := gs.Stats(); return s.Queries, s.RateLimited })
	return nil
}

func (p *process) addMetrics(u *Game) error { return metrics.Setup(u.g, u.metrics) }

// addRecorder writes the game's matches to the match history.
func (p *process) addRecorder(u *Game) error {
	st := p.store
	if st == nil {
		return nil
	}
	u.metrics.SetStore(func() (uint64, uint64) { return st.Dropped.Load(), st.Failed.Load() })
	u.recorder = store.NewRecorder(st, store.RecorderOptions{Mode: u.missions.Mode, Server: u.uc.Server.Name, Logger: p.log})
	u.missions.cuts = append(u.missions.cuts, u.recorder.Cut)
	return u.g.AddPlugin(u.recorder)
}

// addCapture adds a capture of the game's matches with its sinks: the
// recording files, the spectator view, the career statistics.
func (p *process) addCapture(u *Game) error {
	co := record.CaptureOptions{Mode: u.missions.Mode, Writer: p.opts.Version, Keyframe: time.Duration(p.cfg.Record.Keyframe), Logger: p.log}
	if p.multi {
		co.Game = u.label // the file names say which game
	}
	capture := record.NewCapture(co)
	n := 0
	if p.archive != nil {
		fs := record.NewFileSink(p.archive, record.FileSinkOptions{Logger: p.log})
		p.sinks = append(p.sinks, fs)
		u.metrics.SetRecord(func() (uint64, uint64) { return fs.Stats.DroppedBlocks.Load(), fs.Stats.DroppedRecords.Load() })
		capture.AddSink(fs)
		n++
	}
	if p.cfg.Spectate.Listen != "" {
		sc := p.cfg.Spectate
		sp := spectate.NewSpectator(u.label, time.Duration(sc.Delay))
		// Evaluated at every tick: a SIGHUP may set or clear the password.
		g, port := u.g, u.uc.Server.Port
		sp.SetHide(func() bool { return sc.Hidden(port, g.Config().Password) })
		p.spectators = append(p.spectators, sp)
		capture.AddSink(sp)
		n++
	}
	if p.store != nil {
		u.tracker = stats.New(stats.Options{Store: p.store, Post: u.g.Post, Logger: p.log})
		capture.AddSink(u.tracker)
		n++
	}
	if n == 0 {
		return nil
	}
	if err := u.g.AddPlugin(capture); err != nil {
		return err
	}
	u.metrics.SetRecordChat(capture.ChatDropped.Load)
	u.missions.cuts = append(u.missions.cuts, capture.Cut)
	u.capture = capture
	return nil
}

// addAgones: one sidecar per process, following the first game.
func (p *process) addAgones(u *Game) error {
	if p.agonesDone {
		return nil
	}
	p.agonesDone = true
	a, err := agones.Setup(u.g, p.cfg.Agones, p.log)
	u.agones = a
	return err
}

// addAccounts gives the game !register and !login (or, with accounts
// off, swallows those lines so no password is ever relayed).
func (p *process) addAccounts(u *Game) error {
	o := accounts.PluginOptions{Registry: p.accounts, Section: p.cfg.Accounts}
	if u.mod != nil {
		o.Commands = u.mod.Command
	}
	return u.g.AddPlugin(accounts.New(o))
}

// addRatings rates the game's matches and balances its teams.
func (p *process) addRatings(u *Game) error {
	if p.ratings == nil {
		return nil
	}
	u.ratings = ratings.New(ratings.PluginOptions{Book: p.ratings, Section: p.cfg.Ratings})
	return u.g.AddPlugin(u.ratings)
}

// addModeration enforces the process's timed bans in the game and runs
// its in-game admin commands.
func (p *process) addModeration(u *Game) error {
	if p.mod == nil {
		return nil
	}
	u.mod = moderation.New(moderation.PluginOptions{Store: p.mod, Restart: func() {
		u.missions.cut("restarted")
		u.g.RestartGame()
	}})
	return u.g.AddPlugin(u.mod)
}

// addWebhook announces the game's match ends, joins and leaves through
// the process's webhook sender.
func (p *process) addWebhook(u *Game) error {
	if p.webhook == nil {
		return nil
	}
	if !p.webhookMetrics {
		p.webhookMetrics = true
		st := &p.webhook.Stats
		u.metrics.SetWebhook(func() (uint64, uint64, uint64, uint64) {
			return st.Sent.Load(), st.Failed.Load(), st.Dropped.Load(), st.Retried.Load()
		})
	}
	o := webhook.PluginOptions{Sender: p.webhook, Events: p.cfg.Webhook.Events, Mode: u.missions.Mode, ReplayLink: p.cfg.Webhook.ReplayLink}
	if p.multi {
		o.Game = u.label
	}
	return u.g.AddPlugin(webhook.New(o))
}

// addAdmin gives the game its API and console (served by the process's
// HTTP server, Mux).
func (p *process) addAdmin(u *Game) error {
	if p.token == "" {
		return nil
	}
	g := u.g
	aopts := admin.Options{
		Server: u.srv, Token: p.token, Version: p.opts.Version, Missions: u.missions,
		Bans:    &processBans{Bans: admin.EngineBans(g, func() []string { return g.Config().Bans }), p: p, from: u},
		Metrics: p.metricsHandler, Tail: p.tail, Audit: u.metrics.AdminAction, Logger: p.log,
	}
	if p.multi {
		aopts.Game = u.label
		aopts.Logger = u.log
	}
	if p.store != nil {
		aopts.History = p.store
		aopts.Career = stats.API(p.store)
	}
	if p.archive != nil {
		aopts.Replays = p.archive.API()
	}
	aopts.Tokens = p.tokens
	if p.ratings != nil {
		sec := p.cfg.Ratings
		aopts.Ratings = ratings.API(p.ratings, sec, func() string { return ratings.SeasonOf(sec.Season, time.Now()) })
	}
	if p.mod != nil {
		aopts.Moderation = modAPI{st: p.mod, now: time.Now}
	}
	if p.accounts != nil {
		aopts.Accounts = accountsAPI{p.accounts}
	}
	aopts.Cut = u.missions.cut
	a, err := admin.New(aopts)
	if err != nil {
		return err
	}
	// Chat in the console's log, and the mute.
	if err := g.AddPlugin(a); err != nil {
		return err
	}
	u.admin = a
	return nil
}

// careerLookup is bc.stats of a game's missions: its tracker's careers.
func (u *Game) careerLookup(name string) (map[string]any, bool) {
	if u.tracker == nil {
		return nil, false
	}
	return u.tracker.Lookup(name)
}

// errManual is the error of what a game driven by hand cannot have.
var errManual = errors.New("a game driven by hand (Options.Manual) has no HTTP servers: leave admin.listen and spectate.listen empty")
