package server

import (
	"strings"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/background"
	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/plugins/metrics"
)

// startMission gives a game its mission slot and opens the configured
// mission (before the game runs), then reloads it when its files change,
// until the process's context ends.
func (p *process) startMission(u *Game) (*missionSlot, error) {
	uc, g, log := u.uc, u.g, u.log
	fsys, where, err := uc.MissionsFS()
	if err != nil {
		return nil, err
	}
	opts, err := uc.Lua.options()
	if err != nil {
		return nil, err
	}
	opts.Mode, opts.FS, opts.Config, opts.Logger, opts.Addons = uc.Game.Mode, fsys, uc.Mission, log, uc.Game.Addons
	opts.Identities = p.ids
	opts.Stats = u.careerLookup
	opts.Rating = func(pl *engine.Player) (map[string]any, bool) {
		if u.ratings == nil {
			return nil, false
		}
		return u.ratings.Lookup(pl)
	}
	if p.cfg.Ratings.Enabled {
		opts.Balance = func() {
			if u.ratings != nil {
				u.ratings.BalanceNow()
			}
		}
	}
	opts.LibFS = uc.missionLib()
	opts.Protos = p.protos
	if p.opts.Lua != nil {
		p.opts.Lua(&opts)
	}
	ms := newMissionSlot(g, fsys, where, opts, log)
	ms.rotation, ms.base = uc.Rotation, uc.baseMission
	if ms.base == nil {
		ms.base = uc.Mission
	}
	ms.opts.Switch = slotSwitch{ms}
	// A game with a socket opens its mission once it runs (Server.Run,
	// missionSlot.load): it answers the server browser meanwhile. One
	// driven by hand has it open before its first step.
	ms.deferOpen = p.opts.Manual == nil
	if ch := p.warmed[warmKey(uc, where)]; ch != nil {
		ms.warmed = ch
	}
	budget := opts.Budget
	if budget <= 0 {
		budget = lua.DefaultBudget
	}
	ms.wrap = func(g *engine.Game, mode string) lua.Engine { return u.metrics.Timed(g, mode, budget) }
	ms.reloaded = u.metrics.Reloaded
	if err := g.AddPlugin(ms); err != nil {
		return nil, err
	}
	if !ms.deferOpen && ms.Failure() == "" {
		ms.logRunning()
	}
	reload := func(why string) {
		h := ms.current()
		if h == nil {
			// The game has no mission (it failed to start): any change
			// in the folder is another try.
			log.Info("starting the mission again", "component", "lua", "why", why)
			g.Post(func() { _ = ms.retry() })
			return
		}
		log.Info("reloading the mission", "component", "lua", "mission", h.Mode(), "why", why)
		h.Reload(func(err error) { u.metrics.Reloaded(h.Mode(), err) })
	}
	if dir := uc.missionsDir(); dir != "" && uc.Lua.Watch != "off" {
		wo := lua.WatchOptions{Dir: dir, Logger: log}
		if uc.Lua.Watch == "poll" {
			wo.Poll = time.Duration(uc.Lua.PollInterval)
			if wo.Poll <= 0 {
				wo.Poll = lua.DefaultPollInterval
			}
		}
		watch := func() error {
			return p.watches.subscribe(wo, func(paths []string) {
				for _, path := range paths {
					if h := ms.current(); h == nil || h.Affects(path) {
						reload("changed " + path)
						return
					}
				}
			})
		}
		if ms.deferOpen {
			// Starting a watcher (inotify, a walk of the folder) took
			// half a millisecond on the way to the first answered
			// server-browser query: a game that loads its mission after
			// it runs starts watching then, before the files are read.
			ms.watch = watch
		} else if err := watch(); err != nil {
			return nil, err
		}
	}
	return ms, nil
}

// The game as its mission sees it, with each handler's time measured.
var _ lua.Engine = metrics.TimedGame{}

// warmMissions prepares the compile of each distinct configured mission on
// a goroutine of its own (lua.Protos.Warm), which startWarm starts: the
// games then find their files compiled, or wait for the compile under way,
// instead of each compiling them in turn (lib/stock.lua alone is 2.4 ms).
// A mission that fails to read or compile here is left to its game to
// report. p.warmed holds, per mission, a channel closed when its compile
// is done: a game opens its mission after that (missionSlot.load).
func (p *process) warmMissions(specs []Config) {
	p.warmed = make(map[string]chan struct{})
	for _, g := range specs {
		fsys, where, err := g.MissionsFS()
		if err != nil {
			continue
		}
		key := warmKey(g, where)
		if p.warmed[key] != nil {
			continue
		}
		done := make(chan struct{})
		p.warmed[key] = done
		p.warms = append(p.warms, func() {
			defer close(done)
			p.protos.Warm(fsys, g.missionLib(), g.Game.Mode, g.Game.Addons)
		})
	}
}

// startWarm starts the compiles warmMissions prepared (once). Games with
// sockets start them when they run (Server.Run), not while they are
// assembled: on a small machine a compile would take the core that binds
// the sockets and answers the first server-browser query. Once the games
// run, a compile also runs in the background (background.Lower): it no
// longer competes with them for a core while they answer their first
// queries.
func (p *process) startWarm(lower bool) {
	for _, w := range p.warms {
		go func() {
			if lower {
				_ = background.Lower() // refused (a sandbox): it runs at the usual priority
			}
			w()
		}()
	}
	p.warms = nil
}

// warmKey names what warmMissions compiles for a game whose missions are
// in where.
func warmKey(g Config, where string) string {
	return where + "\x00" + g.Game.Mode + "\x00" + strings.Join(g.Game.Addons, "\x00")
}
