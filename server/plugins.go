package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bcserver/bcserver/internal/httpserve"
	"github.com/bcserver/bcserver/plugins/accounts"
	"github.com/bcserver/bcserver/plugins/admin"
	"github.com/bcserver/bcserver/plugins/agones"
	"github.com/bcserver/bcserver/plugins/gamespy"
	"github.com/bcserver/bcserver/plugins/moderation"
	"github.com/bcserver/bcserver/plugins/ratings"
	"github.com/bcserver/bcserver/plugins/record"
	"github.com/bcserver/bcserver/plugins/spectate"
	"github.com/bcserver/bcserver/plugins/store"
	"github.com/bcserver/bcserver/plugins/webhook"
)

// pluginSpec is one plugin as the server runs it. The registry below is
// the one place a plugin is registered: its name, its section, its
// set-up, and its place in the order.
type pluginSpec struct {
	// name is the plugin's folder (plugins/<name>), the "plugin/<name>"
	// of its logs, and the name of its section: [<name>], a top-level
	// table of the file (the one namespace rule; TestPluginSections).
	name string
	// defaults is its section of the default file, commented; nil for a
	// plugin without a section.
	defaults func() []byte
	// check reports the section's bad values, naming their keys, in the
	// whole configuration (a section may depend on another's).
	check func(c *Config) error
	// open sets up what the process's games share, before any game is
	// made (the database is the process's own: it is open by then).
	open func(p *process) error
	// add sets the plugin up in one game.
	add func(p *process, u *Game) error
	// serve starts what it serves over every game (an HTTP listener),
	// once the games are made.
	serve func(s *Server) error
	// close releases what open and serve set up; it runs whether they ran
	// or not (a failed New closes what it opened).
	close func(s *Server)
}

// plugins is the registry, in the one order the plugins are opened and
// added to each game (and closed in reverse): the mission slot first, so
// every other plugin sees the mode it runs (the mission itself opens once
// the game runs, and its handlers run before the plugins' all the same:
// engine.Game.OnEarly); moderation (timed bans, in-game admin commands)
// before accounts, whose chat filter hands it those commands; ratings,
// which rate a match before the history and the recording close it;
// GameSpy; metrics; the match history; the recording (files, spectators,
// career statistics); Agones, which follows the first game; the webhook;
// the admin API over everything the others set up; the spectator page.
var plugins = []pluginSpec{
	{name: "missions", add: (*process).addMissions},
	{name: "moderation", open: (*process).openModeration, add: (*process).addModeration, close: func(s *Server) {
		if s.p.mod != nil {
			s.p.mod.Wait()
		}
	}},
	{name: "accounts", defaults: accounts.DefaultTOML, check: func(c *Config) error { return c.Accounts.Validate(c.Store.Path != "") },
		open: (*process).openAccounts, add: (*process).addAccounts, close: func(s *Server) {
			if s.p.accounts != nil {
				s.p.accounts.Close()
			}
		}},
	{name: "ratings", defaults: ratings.DefaultTOML, check: func(c *Config) error { return c.Ratings.Validate(c.Accounts.Enabled) },
		open: (*process).openRatings, add: (*process).addRatings, close: func(s *Server) {
			if s.p.ratings != nil {
				s.p.ratings.Wait()
			}
		}},
	{name: "gamespy", defaults: gamespy.DefaultTOML, check: checkGamespy, add: (*process).addGamespy},
	{name: "metrics", add: (*process).addMetrics},
	{name: "store", defaults: store.DefaultTOML, check: func(c *Config) error { return c.Store.Validate() }, add: (*process).addRecorder},
	{name: "record", defaults: record.DefaultTOML, check: func(c *Config) error { return c.Record.Validate() },
		open: (*process).openRecord, add: (*process).addCapture, close: closeRecord},
	{name: "agones", defaults: agones.DefaultTOML, check: func(c *Config) error { return c.Agones.Validate() }, add: (*process).addAgones},
	{name: "webhook", defaults: webhook.DefaultTOML, check: func(c *Config) error { return c.Webhook.Validate() },
		open: (*process).openWebhook, add: (*process).addWebhook, close: closeWebhook},
	{name: "admin", defaults: admin.DefaultTOML, check: func(c *Config) error { return c.Admin.Validate(c.dir) },
		open: (*process).openAdmin, add: (*process).addAdmin, serve: (*Server).serveAdmin, close: (*Server).stopAdmin},
	{name: "spectate", defaults: spectate.DefaultTOML, check: func(c *Config) error { return c.Spectate.Validate(c.Admin.Listen) },
		serve: (*Server).serveSpectate, close: closeSpectate},
}

// checkGamespy names the bad keys of [gamespy] as the file's key paths
// (the plugin names each without its section: "masters: ...").
func checkGamespy(c *Config) error {
	err := c.Gamespy.Validate()
	if err == nil {
		return nil
	}
	var errs []error
	if j, ok := errors.Unwrap(err).(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			errs = append(errs, fmt.Errorf("gamespy.%w", e))
		}
		return errors.Join(errs...)
	}
	return fmt.Errorf("gamespy: %w", err)
}

// checkPlugins runs every plugin's check.
func (c Config) checkPlugins() []error {
	var errs []error
	for _, pl := range plugins {
		if pl.check == nil {
			continue
		}
		if err := pl.check(&c); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

func (p *process) openModeration() (err error) {
	if p.store != nil {
		p.mod, err = moderation.Open(p.store.DB(), time.Now())
	}
	return err
}

func (p *process) openAccounts() (err error) {
	if !p.cfg.Accounts.Enabled {
		return nil
	}
	ro := accounts.RegistryOptions{DB: p.store.DB(), Section: p.cfg.Accounts, Logger: p.log}
	if p.opts.Accounts != nil {
		p.opts.Accounts(&ro)
	}
	p.accounts, err = accounts.OpenRegistry(ro)
	return err
}

func (p *process) openRatings() (err error) {
	if p.cfg.Ratings.Enabled {
		p.ratings, err = ratings.OpenBook(p.store.DB())
	}
	return err
}

func (p *process) openRecord() (err error) {
	p.archive, err = record.Setup(p.cfg.Record, p.cfg.dir, p.cfg.Store.Path, p.log)
	return err
}

// closeRecord writes the recordings' queued blocks.
func closeRecord(s *Server) {
	for _, fs := range s.p.sinks {
		fs.Close()
	}
	if s.p.archive != nil {
		_ = s.p.archive.Close()
	}
}

func (p *process) openWebhook() error {
	if p.cfg.Webhook.Off() {
		return nil
	}
	wo, err := p.cfg.Webhook.Options(p.cfg.dir)
	if err != nil {
		return fmt.Errorf("plugin/webhook: %w", err)
	}
	wo.Logger = p.log
	p.webhook, err = webhook.NewSender(wo)
	return err
}

// closeWebhook gives the server-down message (queued by Run) and whatever
// else waits a few seconds; a dead endpoint does not hold the exit up.
func closeWebhook(s *Server) {
	p := s.p
	if p.webhook == nil {
		return
	}
	webhook.Announce(p.webhook, p.cfg.Webhook.Events, webhook.EventServerDown, p.cfg.Server.Name, time.Now())
	ctx, cancel := context.WithTimeout(context.Background(), webhookDrain)
	p.webhook.Close(ctx)
	cancel()
}

func (p *process) openAdmin() (err error) {
	if p.cfg.Admin.Listen == "" {
		return nil
	}
	if p.token, err = p.cfg.Admin.LoadToken(p.cfg.dir, p.log); err != nil {
		return fmt.Errorf("plugin/admin: %w", err)
	}
	if p.tokens, err = p.cfg.Admin.LoadTokens(p.cfg.dir); err != nil {
		return fmt.Errorf("plugin/admin: %w", err)
	}
	return nil
}

// serveAdmin opens the admin API and console of every game.
func (s *Server) serveAdmin() error {
	p := s.p
	if p.token == "" {
		return nil
	}
	entries := make([]admin.Game, len(s.games))
	for i, u := range s.games {
		entries[i] = admin.Game{Label: u.label, API: u.admin, Server: u.srv, Mode: u.Mode, Failure: u.Failure}
	}
	var err error
	s.adminLn, err = httpserve.Listen(httpserve.Options{Addr: p.cfg.Admin.Listen, Handler: admin.Mux(entries, p.token),
		Pool: p.httpPool, PerAddress: adminPerAddress, Proxies: p.cfg.Admin.Proxies(), Stats: p.adminStats, Logger: p.log,
		Timeouts: httpserve.Timeouts{Write: adminWrite, Idle: 60 * time.Second}})
	if err != nil {
		return fmt.Errorf("plugin/admin: %w", err)
	}
	p.log.Info("admin console and API listening", "component", "plugin/admin", "url", "http://"+s.adminLn.Addr().String()+"/",
		"connections", p.httpPool.Max())
	return nil
}

// serveSpectate opens the spectator page.
func (s *Server) serveSpectate() error {
	p := s.p
	sc := p.cfg.Spectate
	if sc.Listen == "" {
		return nil
	}
	so := sc.Options(p.spectators)
	if p.ratings != nil && p.cfg.Ratings.Public {
		rs := p.cfg.Ratings
		so.Ratings = ratings.API(p.ratings, rs, func() string { return ratings.SeasonOf(rs.Season, time.Now()) })
	}
	so.Logger, so.Stats = p.log, p.specStats
	s.spec = spectate.New(so)
	reserve := 0
	if p.token != "" {
		reserve = httpserve.AdminReserve
	}
	var err error
	s.specLn, err = httpserve.Listen(httpserve.Options{Addr: sc.Listen, Handler: s.spec,
		Pool: p.httpPool, Reserve: reserve, PerAddress: sc.Connections(), Proxies: sc.Proxies(), Stats: p.specStats, Logger: p.log})
	if err != nil {
		return fmt.Errorf("plugin/spectate: %w", err)
	}
	p.log.Info("spectator page listening", "component", "plugin/spectate", "url", "http://"+s.specLn.Addr().String()+"/", "delay", time.Duration(sc.Delay),
		"connections", p.httpPool.Max()-reserve, "per_address", sc.Connections())
	return nil
}

func closeSpectate(s *Server) {
	if s.specLn != nil {
		s.spec.Close()
		s.specLn.Close()
		s.specLn = nil
	}
}
