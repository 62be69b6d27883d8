package server

import (
	"context"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// liveKey is a key a SIGHUP applies to a running game.
type liveKey struct {
	key string // as diffSections names it: "section.key", or the section of a free-form table
	// take copies the key's value from the re-read configuration into
	// the running one.
	take func(running, next *Config)
}

// liveKeys are the keys a SIGHUP changes while the games run: the name,
// the limit and the password (engine.LiveSettings), the ban list, and the
// mission (a new mode or [mission] table takes over when the match ends).
// A changed key not listed here is named in the log as waiting for a
// restart. This is the one list: reconfigure applies exactly these.
var liveKeys = []liveKey{
	{"server.name", func(r, n *Config) { r.Server.Name = n.Server.Name }},
	{"server.max_players", func(r, n *Config) { r.Server.MaxPlayers = n.Server.MaxPlayers }},
	{"server.password", func(r, n *Config) { r.Server.Password = n.Server.Password }},
	{"game.mode", func(r, n *Config) { r.Game.Mode = n.Game.Mode }},
	{"mission", func(r, n *Config) { r.Mission = n.Mission }},
	{"bans.file", func(r, n *Config) { r.Bans.File = n.Bans.File }},
	{"bans.addresses", func(r, n *Config) { r.Bans.Addresses = n.Bans.Addresses }},
	{"bans.names", func(r, n *Config) { r.Bans.Names = n.Bans.Names }},
}

// reconfigure applies a re-read configuration to one game: the live keys
// (the ban list's file is read again, and the same mission is reloaded
// from its files when its mode and table stayed). It returns the
// configuration that runs now: the live keys of the new one, the rest as
// before, so the next SIGHUP still names the keys that wait for a
// restart. A configuration that does not load or validate changes
// nothing.
func reconfigure(ctx context.Context, cur Config, u *Game, log *slog.Logger) Config {
	log = log.With("component", "config")
	ms := u.missions
	if cur.reload == nil {
		log.Info("SIGHUP: no configuration file to re-read; reloading the mission")
		_ = ms.Reload(ctx)
		return cur
	}
	next, err := cur.reload()
	var rc engine.Config
	if err == nil {
		rc, err = next.Runtime()
	}
	if err != nil {
		log.Error("SIGHUP: the configuration has errors, nothing changed", "err", err)
		return cur
	}
	running := cur
	var restart []string
	for _, d := range diffSections(cur, next) {
		i := slices.IndexFunc(liveKeys, func(k liveKey) bool { return k.key == d })
		if i < 0 {
			restart = append(restart, d)
			continue
		}
		liveKeys[i].take(&running, &next)
	}
	live := engine.LiveSettings{ServerName: running.Server.Name, MaxPlayers: running.Server.MaxPlayers, Password: running.Server.Password}
	modeChanged := running.Game.Mode != cur.Game.Mode || !reflect.DeepEqual(running.Mission, cur.Mission)
	var applyErr error
	var pending bool
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	err = u.Do(dctx, func(g *engine.Game) {
		if applyErr = g.SetLive(live); applyErr != nil {
			return
		}
		// The ban list is read again too: the file may have been edited.
		if applyErr = g.ReloadBans(rc.Bans, rc.BanFile); applyErr != nil {
			return
		}
		if modeChanged {
			pending, applyErr = ms.setMode(running.Game.Mode, running.Mission, false)
		}
	})
	if err == nil {
		err = applyErr
	}
	if err != nil {
		log.Error("SIGHUP: applying the configuration failed", "err", err)
		return cur
	}
	if !modeChanged {
		_ = ms.Reload(ctx)
	}
	attrs := []any{"name", live.ServerName, "max_players", live.MaxPlayers, "mode", running.Game.Mode, "mode_pending", pending}
	if len(restart) > 0 {
		attrs = append(attrs, "needs_restart", strings.Join(restart, ", "))
		log.Warn("SIGHUP: configuration applied; some changes need a restart", attrs...)
	} else {
		log.Info("SIGHUP: configuration applied", attrs...)
	}
	return running
}

// diffSections names the keys ("section.key", or the section for maps)
// whose values differ.
func diffSections(a, b Config) []string {
	var out []string
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	t := va.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := strings.Split(sf.Tag.Get("toml"), ",")[0]
		if tag == "" || !sf.IsExported() {
			continue
		}
		fa, fb := va.Field(i), vb.Field(i)
		if fa.Kind() != reflect.Struct {
			if !reflect.DeepEqual(fa.Interface(), fb.Interface()) {
				out = append(out, tag)
			}
			continue
		}
		ft := fa.Type()
		for j := 0; j < ft.NumField(); j++ {
			if !ft.Field(j).IsExported() {
				continue
			}
			key := strings.Split(ft.Field(j).Tag.Get("toml"), ",")[0]
			if !reflect.DeepEqual(fa.Field(j).Interface(), fb.Field(j).Interface()) {
				out = append(out, tag+"."+key)
			}
		}
	}
	return out
}
