package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"reflect"
	"strings"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// loadLayers builds the configuration from its layers, lowest first: the
// built-in defaults, the file, BCSERVER_* variables, then the flags. The
// result remembers how to do it again for SIGHUP.
func loadLayers(path string, environ []string, flags func(*UserConfig)) (UserConfig, error) {
	uc, err := LoadConfig(path)
	if err != nil {
		return uc, err
	}
	if err := applyEnv(&uc, environ); err != nil {
		return uc, fmt.Errorf("environment: %w", err)
	}
	if flags != nil {
		flags(&uc)
	}
	uc.reload = func() (UserConfig, error) { return loadLayers(path, os.Environ(), flags) }
	return uc, nil
}

// reconfigure applies a re-read configuration: names, limits, password, the
// ban list (its file read again) and the mission (a changed mode or
// [mission] table takes over when the match ends; the same mission is
// reloaded from its files). What cannot change
// while running is named in the log. A configuration that does not load
// or validate changes nothing.
func reconfigure(ctx context.Context, cur UserConfig, srv *engine.Server, ms *missionSlot, log *slog.Logger) UserConfig {
	log = log.With("component", "config")
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
	var restart []string
	for _, d := range diffSections(cur, next) {
		switch d {
		case "server.name", "server.max_players", "server.password", "game.mode", "mission", "bans.file", "bans.addresses", "bans.names":
		default:
			restart = append(restart, d)
		}
	}
	live := engine.LiveSettings{ServerName: next.Server.Name, MaxPlayers: next.Server.MaxPlayers, Password: next.Server.Password}
	modeChanged := next.Game.Mode != cur.Game.Mode || !reflect.DeepEqual(next.Mission, cur.Mission)
	var applyErr error
	var pending bool
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	err = srv.Do(dctx, func(g *engine.Game) {
		if applyErr = g.SetLive(live); applyErr != nil {
			return
		}
		// The ban list is read again too: the file may have been edited.
		if applyErr = g.ReloadBans(rc.Bans, rc.BanFile); applyErr != nil {
			return
		}
		if modeChanged {
			pending, applyErr = ms.setMode(next.Game.Mode, next.Mission, false)
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
	attrs := []any{"name", live.ServerName, "max_players", live.MaxPlayers, "mode", next.Game.Mode, "mode_pending", pending}
	if len(restart) > 0 {
		attrs = append(attrs, "needs_restart", strings.Join(restart, ", "))
		log.Warn("SIGHUP: configuration applied; some changes need a restart", attrs...)
	} else {
		log.Info("SIGHUP: configuration applied", attrs...)
	}
	// What runs now: the live keys of next, the rest as before, so the
	// next SIGHUP still names keys that wait for a restart.
	running := cur
	running.Server.Name, running.Server.MaxPlayers, running.Server.Password = next.Server.Name, next.Server.MaxPlayers, next.Server.Password
	running.Game.Mode, running.Mission = next.Game.Mode, next.Mission
	running.Bans = next.Bans
	return running
}

// diffSections names the keys ("section.key", or the section for maps)
// whose values differ.
func diffSections(a, b UserConfig) []string {
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

// probe is -healthcheck: a container health check without curl in the
// image.
func probe(url string, stderr io.Writer) int {
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		fmt.Fprintf(stderr, "bcserver: health check: %v\n", err)
		return 1
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "bcserver: health check: %s\n", resp.Status)
		return 1
	}
	return 0
}
