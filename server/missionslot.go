package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"sync/atomic"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/plugins/admin"
)

// missionSlot owns the running mission of a game and switches it between
// matches: the admin API's mission/set and a changed game.mode on SIGHUP.
// It opens the first mission when the game starts (deferOpen: once its loop
// runs, load) and closes the current one at shutdown. Everything but
// current, load and Reload runs on the game goroutine.
type missionSlot struct {
	g     *engine.Game
	fsys  fs.FS
	where string
	opts  lua.Options // the template; Mode and Config change per switch
	log   *slog.Logger
	cur   atomic.Pointer[lua.Runtime]
	// failed is why the mission could not start ("" while one runs).
	failed atomic.Value

	// rotation is the game's [[rotation]], rotIndex the running step;
	// base is the game's own [mission] table, under each step's keys.
	rotation []RotationStep
	rotIndex int
	base     map[string]any

	pending     string         // mode to switch to when the match ends
	pendingConf map[string]any // its [mission] table
	restart     func()         // cancels the pending restart (restartAfter)
	// wrap, if set, wraps the game the mission runs on (metrics timing).
	wrap func(g *engine.Game, mode string) lua.Engine
	// cuts end the match in the history and the recording before a
	// switch (cut).
	cuts []func(reason string)
	// reloaded, if set, counts a reload and its outcome.
	reloaded func(mode string, err error)
	offs     []func()

	// deferOpen: Start leaves the game loading (engine.Game.SetLoading)
	// and load opens the mission once the game runs, so that the socket
	// answers the server browser without waiting for the compile.
	deferOpen bool
	// warmed, if set, is closed when the warm compile of the mission's
	// files is done (process.warmMissions): load opens it after that.
	warmed <-chan struct{}
	// watch, if set, starts watching the missions folder for changes
	// (deferOpen): startWatch calls it before the files are read.
	watch func() error
}

func newMissionSlot(g *engine.Game, fsys fs.FS, where string, opts lua.Options, log *slog.Logger) *missionSlot {
	return &missionSlot{g: g, fsys: fsys, where: where, opts: opts, log: log}
}

// current returns the running host (any goroutine; its methods other
// than Reload and Affects belong to the game goroutine).
func (m *missionSlot) current() *lua.Runtime { return m.cur.Load() }

func (m *missionSlot) build(mode string, conf map[string]any) *lua.Runtime {
	o := m.opts
	o.Mode, o.Config = mode, conf
	var eng lua.Engine = m.g
	if m.wrap != nil {
		eng = m.wrap(m.g, mode)
	}
	return lua.New(eng, o)
}

// Name implements engine.Plugin.
func (m *missionSlot) Name() string { return "missions" }

// Start implements engine.Plugin: the configured mission opens, or with
// deferOpen the game is left loading until load opens it. A mission
// that cannot load or start does not stop the game (nor, with [[games]],
// the process): the game runs on without one and takes no players, says
// why with file:line in the log and the console, and the mission opens as
// soon as its files are fixed (the folder watch, a reload, a SIGHUP) or
// another mode is set.
func (m *missionSlot) Start(g *engine.Game) error {
	if m.deferOpen {
		g.SetLoading(true)
	} else {
		m.open()
	}
	m.offs = append(m.offs, g.On(engine.EvGameEnded, func(engine.Event) {
		if m.pending == "" && len(m.rotation) > 0 {
			// Every match end moves the rotation on.
			m.advance(false)
		}
		if m.pending == "" {
			m.scheduleRestart()
			return
		}
		// END_GAME may come from inside the mission (a Lua call is running),
		// so the switch waits for the next loop pass: the old mission goes,
		// the new one opens, and its first match starts after the usual
		// pause.
		g.After(0, func() {
			if m.pending != "" {
				if err := m.switchTo(m.pending, m.pendingConf); err != nil {
					m.log.Error("mode switch failed, the running mission stays", "component", "lua", "mode", m.pending, "err", err)
					m.pending, m.pendingConf = "", nil
				}
			}
			m.scheduleRestart()
		})
	}), g.On(engine.EvGameRestarted, func(engine.Event) { m.cancelRestart() }))
	return nil
}

// DefaultRestartAfter is the pause between END_GAME and the next match
// when [mission] restart_after is not set.
const DefaultRestartAfter = 30 * time.Second

// restartAfter is the one restart rule, for every mode and after a mode
// switch alike: [mission] restart_after seconds (of the mission that runs)
// after END_GAME the game restarts; 0 or -1 never.
func (m *missionSlot) restartAfter() time.Duration {
	v, ok := m.opts.Config["restart_after"]
	if !ok {
		return DefaultRestartAfter
	}
	var s float64
	switch v := v.(type) {
	case int64:
		s = float64(v)
	case int:
		s = float64(v)
	case float64:
		s = v
	default:
		return 0
	}
	if s <= 0 || math.IsNaN(s) {
		return 0
	}
	return time.Duration(s * float64(time.Second))
}

// scheduleRestart arms the restart of a game that just ended (game
// goroutine).
func (m *missionSlot) scheduleRestart() {
	m.cancelRestart()
	d := m.restartAfter()
	if d <= 0 {
		return
	}
	m.restart = m.g.After(d, func() {
		m.restart = nil
		if m.g.GameOver() {
			m.log.Info("restarting the game", "component", "lua", "mission", m.Mode(), "after", d)
			m.g.RestartGame()
		}
	})
}

func (m *missionSlot) cancelRestart() {
	if m.restart != nil {
		m.restart()
		m.restart = nil
	}
}

// open opens the configured mission (game goroutine, or before the game
// runs). On failure the game is left without a mission and closed to
// players; it reports the error. Either way the game is done loading.
func (m *missionSlot) open() error {
	defer m.g.SetLoading(false)
	h := m.build(m.opts.Mode, m.opts.Config)
	if err := h.Open(); err != nil {
		m.failed.Store(err.Error())
		m.g.SetUnavailable(err.Error())
		m.log.Error("the mission could not start: this game runs without one and takes no players until it is fixed", "component", "lua", "mission", m.opts.Mode, "from", m.where, "err", err)
		return err
	}
	m.cur.Store(h)
	m.failed.Store("")
	m.g.SetUnavailable("")
	return nil
}

// startWatch starts the watch of the missions folder that startMission
// left for when the game runs (deferOpen); Server.loadMissions calls it
// before the warm compile reads the files, so a change made after that
// reloads. The folder was there a moment ago; if it is gone or cannot be
// watched now, the game plays on without hot reload and says so.
func (m *missionSlot) startWatch() {
	w := m.watch
	if w == nil {
		return
	}
	m.watch = nil
	if err := w(); err != nil {
		m.log.Error("not watching the missions folder: reload by hand (SIGHUP or POST mission/reload)", "component", "lua", "err", err)
	}
}

// load opens the mission of a game that started loading (deferOpen) once
// the warm compile of its files is done, on the game's goroutine, unless
// something opened one meanwhile (a reload, a mode set). It returns when
// the mission runs or failed (the game says why), or when ctx ends or the
// game stopped first. Any goroutine; not for a game driven by hand.
func (m *missionSlot) load(ctx context.Context, srv *engine.Server) {
	if !m.deferOpen {
		return
	}
	if m.warmed != nil {
		select {
		case <-m.warmed:
		case <-ctx.Done():
			return
		}
	}
	_ = srv.Do(ctx, func(g *engine.Game) {
		if g.Loading() && m.current() == nil && m.open() == nil {
			m.logRunning()
		}
	})
}

// logRunning says the configured mission runs.
func (m *missionSlot) logRunning() {
	m.log.Info("mission running", "component", "lua", "mission", m.opts.Mode, "from", m.where)
}

// retry opens the mission of a game that has none (game goroutine). It
// reports nil when a mission runs.
func (m *missionSlot) retry() error {
	if m.current() != nil {
		return nil
	}
	if err := m.open(); err != nil {
		return err
	}
	m.log.Info(fmt.Sprintf("mission %q started: the game takes players", m.opts.Mode), "component", "lua", "from", m.where)
	return nil
}

// Failure returns why the mission could not start, or "" while one runs
// (any goroutine).
func (m *missionSlot) Failure() string {
	s, _ := m.failed.Load().(string)
	return s
}

// Stop implements engine.Plugin.
func (m *missionSlot) Stop(*engine.Game) {
	for _, off := range m.offs {
		off()
	}
	m.cancelRestart()
	if h := m.current(); h != nil {
		h.Close()
	}
}

// switchTo opens mode beside the running mission and replaces it; on
// failure the running one stays.
func (m *missionSlot) switchTo(mode string, conf map[string]any) error {
	if err := lua.CheckMode(m.fsys, mode); err != nil {
		return err
	}
	h := m.build(mode, conf)
	if err := h.Open(); err != nil {
		return err
	}
	old := m.cur.Swap(h)
	if old != nil {
		old.Close()
	}
	m.failed.Store("")
	m.g.SetUnavailable("")
	m.g.SetLoading(false)
	m.pending, m.pendingConf = "", nil
	m.opts.Mode, m.opts.Config = mode, conf
	m.log.Info(fmt.Sprintf("mission switched to %q", mode), "component", "lua", "from", m.where)
	return nil
}

// Mode implements admin.Missions.
func (m *missionSlot) Mode() string {
	if h := m.current(); h != nil {
		return h.Mode()
	}
	return m.opts.Mode
}

// Modes implements admin.Missions.
func (m *missionSlot) Modes() []string {
	ms, _ := lua.Modes(m.fsys)
	return ms
}

// Info implements admin.Missions: the version, and the time left and team
// scores the mission gives the status (bc.status; the stock library does
// for every stock mode).
func (m *missionSlot) Info() admin.MissionInfo {
	info := admin.MissionInfo{PendingMode: m.pending, Error: m.Failure()}
	h := m.current()
	if h == nil {
		return info
	}
	info.Version, info.Loaded, info.Suspended = h.Version(), h.Loaded(), h.Suspended()
	st := h.Status()
	if st.TimeLeft != nil && m.g.Mission().TimeLimit > 0 {
		info.TimeLeft = st.TimeLeft
	}
	for _, t := range st.Teams {
		info.Teams = append(info.Teams, admin.Team{Team: t.Team, Kills: t.Kills, Score: t.Score})
	}
	return info
}

// Reload implements admin.Missions (any goroutine).
func (m *missionSlot) Reload(ctx context.Context) error {
	h := m.current()
	if h == nil {
		// No mission runs: this reload is another try at starting it.
		type result struct {
			mode string
			err  error
		}
		done := make(chan result, 1)
		if !m.g.Post(func() { done <- result{m.opts.Mode, m.retry()} }) {
			return errors.New("game loop busy")
		}
		select {
		case r := <-done:
			if m.reloaded != nil {
				m.reloaded(r.mode, r.err)
			}
			return r.err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	done := make(chan error, 1)
	h.Reload(func(err error) { done <- err })
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if m.reloaded != nil {
		m.reloaded(h.Mode(), err)
	}
	return err
}

// SetMode implements admin.Missions.
func (m *missionSlot) SetMode(mode string, now bool) (bool, error) {
	return m.setMode(mode, m.opts.Config, now)
}

func (m *missionSlot) setMode(mode string, conf map[string]any, now bool) (bool, error) {
	if err := lua.CheckMode(m.fsys, mode); err != nil {
		return false, err
	}
	if !now && !m.g.GameOver() {
		m.pending, m.pendingConf = mode, conf
		m.log.Info(fmt.Sprintf("mission %q will start when this match ends", mode), "component", "lua")
		return true, nil
	}
	if !m.g.GameOver() {
		m.cut("mode_changed")
	}
	if err := m.switchTo(mode, conf); err != nil {
		return false, err
	}
	m.g.RestartGame()
	return false, nil
}

// cut ends the running match in the match history and the recording
// (game goroutine): before a mode switch, and for the admin API before it
// ends or restarts a match.
func (m *missionSlot) cut(reason string) {
	for _, c := range m.cuts {
		c(reason)
	}
}
