package lua

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"time"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
)

// Defaults for Options.
const (
	DefaultBudget      = 50 * time.Millisecond
	DefaultMaxErrors   = 10
	DefaultErrorWindow = time.Minute
	DefaultMaxMessage  = 4096
)

// Options configures a Host.
type Options struct {
	// Mode is the mission folder to run, e.g. "deathmatch".
	Mode string
	// FS is the missions root: one folder per mode and lib/.
	FS fs.FS
	// Config is the [mission] table handed to the mission as bc.config.
	Config map[string]any
	// Budget bounds every call into Lua (handler, timer, main chunk).
	Budget time.Duration
	// A mission that fails MaxErrors times within ErrorWindow is unloaded.
	MaxErrors   int
	ErrorWindow time.Duration
	// MaxMessage caps the messages a mission builds and the received
	// payloads handed to it (stock script messages are at most 256 bytes).
	MaxMessage int
	Logger     *slog.Logger
}

func (o *Options) fill() {
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	if o.MaxErrors <= 0 {
		o.MaxErrors = DefaultMaxErrors
	}
	if o.ErrorWindow <= 0 {
		o.ErrorWindow = DefaultErrorWindow
	}
	if o.MaxMessage <= 0 {
		o.MaxMessage = DefaultMaxMessage
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// Host runs one mission on one game. Every method except Reload must be
// called on the game goroutine.
type Host struct {
	eng  Engine
	opts Options
	log  *slog.Logger

	cur     *mission
	version int
	// kept is the storage of a mission unloaded after errors, handed to
	// the next version that loads.
	kept    any
	offs    []func()
	second  func()
	started bool
	closed  bool // after Close: a reload posted before shutdown does nothing
}

// engineEvents are the engine events forwarded to missions.
var engineEvents = []string{
	engine.EvPlayerConnected, engine.EvChecksumFailed, engine.EvPlayerJoined, engine.EvPlayerInGame,
	engine.EvPlayerLeft, engine.EvScriptMessage, engine.EvChat, engine.EvTick,
	engine.EvShipCreated, engine.EvShipDestroyed, engine.EvObjectDestroyed, engine.EvWeaponFired,
	engine.EvWeaponHit, engine.EvGameEnded, engine.EvGameRestarted,
}

// Events derived by the runtime (missions.md 5.1).
const (
	EvMissionLoad   = "mission_load"
	EvMissionStart  = "mission_start"
	EvMissionReload = "mission_reload"
	EvMissionUnload = "mission_unload"
	EvSecond        = "second"
	EvTimer         = "timer"
)

// Events lists every event a mission can subscribe to.
func Events() []string {
	return append([]string{EvMissionLoad, EvMissionStart, EvMissionReload, EvMissionUnload, EvSecond, EvTimer}, engineEvents...)
}

// New prepares a Host; Open loads the mission.
func New(eng Engine, opts Options) *Host {
	opts.fill()
	return &Host{eng: eng, opts: opts, log: opts.Logger.With("component", "lua", "mission", opts.Mode)}
}

// Mode returns the mission folder name.
func (h *Host) Mode() string { return h.opts.Mode }

// Version returns the version of the running mission: 1 after Open, +1
// per successful reload; 0 before Open.
func (h *Host) Version() int { return h.version }

// Loaded reports whether a mission is running (false after it was unloaded
// for errors, until a reload succeeds).
func (h *Host) Loaded() bool { return h.cur != nil }

// Open compiles and starts the mission and subscribes to the engine's
// events: mission_load then mission_start run.
func (h *Host) Open() error {
	if h.started {
		return errors.New("mission host already open")
	}
	src, err := compileSource(h.opts.FS, h.opts.Mode)
	if err != nil {
		return fmt.Errorf("mission %q: %w", h.opts.Mode, err)
	}
	m, err := h.build(src, 1, nil, false)
	if err != nil {
		return fmt.Errorf("mission %q: %w", h.opts.Mode, err)
	}
	h.started = true
	h.cur, h.version = m, 1
	for _, name := range engineEvents {
		h.offs = append(h.offs, h.eng.On(name, h.dispatchEngine))
	}
	h.second = h.eng.Every(time.Second, func() { h.fire(EvSecond, nil) })
	m.emit(EvMissionStart, nil)
	h.settle(m)
	h.log.Info("mission loaded", "version", 1, "files", len(src.protos))
	return nil
}

// Close unloads the mission (mission_unload runs) and unsubscribes.
func (h *Host) Close() {
	h.closed = true
	if m := h.cur; m != nil {
		m.emit(EvMissionUnload, func(L *glua.LState) *glua.LTable {
			t := L.CreateTable(0, 1)
			t.RawSetString("reason", glua.LString("shutdown"))
			return t
		})
		m.close()
		h.cur = nil
	}
	for _, off := range h.offs {
		off()
	}
	h.offs = nil
	if h.second != nil {
		h.second()
		h.second = nil
	}
}

// ReloadNow compiles the mission from the FS and swaps it in, on the game
// goroutine. On failure the running mission stays and the error (with
// file:line) is returned and logged.
func (h *Host) ReloadNow() error {
	src, err := compileSource(h.opts.FS, h.opts.Mode)
	if err != nil {
		h.log.Error("mission reload failed, keeping the running version", "version", h.version, "err", err)
		return fmt.Errorf("mission %q: %w", h.opts.Mode, err)
	}
	return h.swap(src)
}

// Reload may be called from any goroutine: it compiles the mission on the
// caller's goroutine and hands the swap to the game goroutine with Post, so
// it happens between two loop iterations, never inside an event. done, if
// not nil, receives the outcome.
func (h *Host) Reload(done func(error)) {
	if done == nil {
		done = func(error) {}
	}
	src, err := compileSource(h.opts.FS, h.opts.Mode)
	if err != nil {
		h.log.Error("mission reload failed, keeping the running version", "err", err)
		done(fmt.Errorf("mission %q: %w", h.opts.Mode, err))
		return
	}
	// The game's queue is bounded; a full one is retried briefly rather
	// than blocking the watcher forever.
	for i := 0; i < 100; i++ {
		if h.eng.Post(func() { done(h.swap(src)) }) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.log.Error("mission reload dropped: the game loop is not taking work")
	done(errors.New("game loop busy"))
}

// swap builds the new version beside the running one and replaces it on
// success.
func (h *Host) swap(src *source) error {
	if !h.started || h.closed {
		return errors.New("mission host not open")
	}
	old := h.cur
	data := h.kept
	if old != nil {
		var dropped int
		var err error
		data, dropped, err = toPlain(old.storage)
		if err != nil {
			h.log.Error("mission reload failed, keeping the running version", "version", h.version, "err", fmt.Errorf("copying bc.storage: %w", err))
			return fmt.Errorf("copying bc.storage: %w", err)
		}
		if dropped > 0 {
			h.log.Warn("bc.storage held values that are not plain data; they were not carried over", "dropped", dropped)
		}
	}
	start := time.Now()
	m, err := h.build(src, h.version+1, data, old != nil)
	if err != nil {
		h.log.Error("mission reload failed, keeping the running version", "version", h.version, "err", err)
		return fmt.Errorf("mission %q: %w", h.opts.Mode, err)
	}
	if old != nil {
		old.emit(EvMissionUnload, func(L *glua.LState) *glua.LTable {
			t := L.CreateTable(0, 1)
			t.RawSetString("reason", glua.LString("reload"))
			return t
		})
		old.close()
	}
	h.cur = m
	h.version++
	h.kept = nil
	if old == nil {
		// Back after an unload for errors: the game never stopped, but
		// the new state has not seen mission_start.
		m.emit(EvMissionStart, nil)
	}
	h.settle(m)
	if h.cur == m {
		h.log.Info(fmt.Sprintf("mission %q reloaded (v%d)", h.opts.Mode, h.version), "took", time.Since(start).Round(time.Microsecond))
	}
	return nil
}

// build creates a state for src, runs its main chunk and mission_load (and
// mission_reload when reloading). Any error discards the state.
func (h *Host) build(src *source, version int, storage any, reload bool) (*mission, error) {
	m, err := newMission(h, src, version, storage)
	if err != nil {
		return nil, err
	}
	if err := m.runMain(); err != nil {
		m.close()
		return nil, err
	}
	load := func(L *glua.LState) *glua.LTable {
		t := L.CreateTable(0, 4)
		t.RawSetString("mode", glua.LString(h.opts.Mode))
		t.RawSetString("version", glua.LNumber(version))
		t.RawSetString("reload", glua.LBool(reload))
		t.RawSetString("config", m.bc.RawGetString("config"))
		return t
	}
	if err := m.emitStrict(EvMissionLoad, load); err != nil {
		m.close()
		return nil, err
	}
	if reload {
		if err := m.emitStrict(EvMissionReload, func(L *glua.LState) *glua.LTable {
			t := L.CreateTable(0, 2)
			t.RawSetString("version", glua.LNumber(version))
			t.RawSetString("previous_version", glua.LNumber(h.version))
			return t
		}); err != nil {
			m.close()
			return nil, err
		}
	}
	return m, nil
}

// settle unloads m if its handlers failed too often while it was being
// set up or used outside an event.
func (h *Host) settle(m *mission) {
	if m.failed && m.depth == 0 {
		h.unloadFailed(m)
	}
}

// unloadFailed drops a mission that keeps failing. The game goes on
// without scoring; its storage waits for the next version.
func (h *Host) unloadFailed(m *mission) {
	if h.cur != m {
		return
	}
	data, _, err := toPlain(m.storage)
	if err == nil {
		h.kept = data
	}
	m.close()
	h.cur = nil
	msg := fmt.Sprintf("mission %q unloaded after %d errors within %v; fix it and save to reload", h.opts.Mode, h.opts.MaxErrors, h.opts.ErrorWindow)
	h.log.Error(msg, "version", h.version)
	// Tell the players too, as a chat line from the host's id.
	text := engine.Name8("[server] " + msg)
	if len(text) > codec.MaxChatText {
		text = text[:codec.MaxChatText]
	}
	h.eng.SendInGame(codec.Chat{Sender: HostID, Text: text}.AppendTo(nil), nil)
}

// HostID is the network player id of the host (missions.md conventions).
const HostID = 1

// dispatchEngine forwards one engine event to the running mission.
func (h *Host) dispatchEngine(ev engine.Event) {
	m := h.cur
	if m == nil || len(m.handlers[ev.Name()]) == 0 {
		return
	}
	m.dispatch(ev)
	h.settle(m)
}

// fire raises a runtime event (second, timer) on the running mission.
func (h *Host) fire(name string, payload func(L *glua.LState) *glua.LTable) {
	m := h.cur
	if m == nil || len(m.handlers[name]) == 0 {
		return
	}
	m.emit(name, payload)
	h.settle(m)
}

// Storage returns a plain-data copy of the running mission's bc.storage
// (nil when no mission runs), for admin tools and tests.
func (h *Host) Storage() *Table {
	if h.cur == nil {
		if t, ok := h.kept.(*Table); ok {
			return t
		}
		return nil
	}
	v, _, err := toPlain(h.cur.storage)
	if err != nil {
		return nil
	}
	t, _ := v.(*Table)
	return t
}

// Plugin adapts a Host on a real game to engine.Plugin: Start opens the
// mission, Stop unloads it at shutdown before the players are told.
func (h *Host) Plugin() engine.Plugin { return hostPlugin{h} }

type hostPlugin struct{ h *Host }

func (p hostPlugin) Name() string             { return "missions" }
func (p hostPlugin) Start(*engine.Game) error { return p.h.Open() }
func (p hostPlugin) Stop(*engine.Game)        { p.h.Close() }
