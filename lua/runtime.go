package lua

import (
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/engine"
)

// Runtime runs one mission on one game. Every method except Reload must be
// called on the game goroutine.
type Runtime struct {
	eng  Engine
	opts Options
	log  *slog.Logger
	// logs limits the mission's own lines (print, bc.log), errLogs the
	// errors the runtime reports for it: a mission printing in a loop
	// must not hide its own errors.
	logs, errLogs *logLimiter
	clock         func() time.Duration

	cur     *mission
	version int
	// kept is what a suspended mission carries to the next version that
	// loads (and, after Close, the last bc.storage).
	kept    *carried
	offs    []func()
	subs    map[string]func() // engine events the mission handles (listen.go)
	status  Status            // what the mission last told the host's status (bc.status)
	timers  []func()          // the second event and the timer driver
	persist *persister
	// While suspended (paused.go): why, the suspended version's command
	// names, and when each player was last told the mode is paused.
	suspended      string
	pausedCommands map[string]bool
	pausedReplies  map[byte]time.Time
	started        bool
	closed         bool // after Close: a reload posted before shutdown does nothing

	// Budget accounting for the current tick (accounting.go; the meter is lua/sandbox's).
	tick        int64
	tickSpent   time.Duration
	overrunTick int64
	quota       quota

	rng *rand.Rand // bc.random, shared by every version
}

// engineEvents are the engine events forwarded to missions.
var engineEvents = []string{
	engine.EvPlayerConnected, engine.EvChecksumFailed, engine.EvPlayerJoined, engine.EvPlayerInGame,
	engine.EvPlayerLeft, engine.EvScriptMessage, engine.EvChat, engine.EvTick,
	engine.EvShipCreated, engine.EvShipDestroyed, engine.EvObjectDestroyed, engine.EvWeaponFired,
	engine.EvWeaponHit, engine.EvShipDamaged, engine.EvGameEnded, engine.EvGameRestarted,
	engine.EvShipRequested, engine.EvTeamsBalanced, engine.EvViolation,
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

// New prepares a Runtime; Open loads the mission.
func New(eng Engine, opts Options) *Runtime {
	opts.fill()
	if opts.Protos == nil {
		opts.Protos = NewProtos()
	}
	h := &Runtime{eng: eng, opts: opts, log: opts.Logger.With("component", "lua", "mission", opts.Mode), tick: -1}
	base := time.Now()
	h.clock = func() time.Duration { return time.Since(base) }
	seed := opts.Seed
	if seed == 0 {
		seed = uint64(base.UnixNano())
	}
	h.rng = rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
	h.logs = newLogLimiter(&h.opts.Limits, eng.Now, "mission log lines")
	h.errLogs = newLogLimiter(&h.opts.Limits, eng.Now, "mission error reports")
	return h
}

// Mode returns the mission folder name.
func (h *Runtime) Mode() string { return h.opts.Mode }

// Version returns the version of the running mission: 1 after Open, +1
// per successful reload; 0 before Open.
func (h *Runtime) Version() int { return h.version }

// Loaded reports whether a mission is running (false after it was
// suspended, until a reload succeeds).
func (h *Runtime) Loaded() bool { return h.cur != nil }

// Open compiles and starts the mission and subscribes to the engine events
// it handles (listen.go): main.lua, mission_load and mission_start run, and what they do
// to the game is applied only if all of them succeed.
func (h *Runtime) Open() error {
	if h.started {
		return errors.New("mission host already open")
	}
	src, err := compileSource(h.opts.Protos, h.opts.FS, h.opts.LibFS, h.opts.Mode, h.opts.Addons)
	if err != nil {
		return fmt.Errorf("mission %q: %w", h.opts.Mode, err)
	}
	stored := h.opts.Restore
	if h.opts.StorageDir != "" {
		h.persist = newPersister(h.opts.StorageDir, h.opts.Mode, h.opts.StorageSize, h.opts.MemoryLimit)
		if stored == nil {
			if stored, err = h.persist.load(); err != nil {
				return fmt.Errorf("mission %q: reading its storage: %w", h.opts.Mode, err)
			}
		}
	}
	m, err := h.build(src, 1, &carried{storage: stored}, false)
	if err != nil {
		h.unlisten()
		return fmt.Errorf("mission %q: %w", h.opts.Mode, err)
	}
	h.started = true
	h.cur, h.version = m, 1
	h.listen(engine.EvChat)
	h.unlisten() // what only a version that failed to load wanted
	h.offs = append(h.offs, h.eng.OnEarly(engine.EvPlayerLeft, func(ev engine.Event) { h.opts.Identities.Left(ev.(*engine.PlayerLeft).Player, h.eng.Now()) }))
	h.timers = append(h.timers,
		h.eng.Every(time.Second, func() { h.fire(EvSecond, nil) }),
		h.eng.Every(h.opts.TickInterval, h.runTimers))
	if h.persist != nil {
		h.timers = append(h.timers, h.eng.Every(h.opts.StorageSave, func() { h.saveStorage(true) }))
	}
	m.apply()
	h.syncDamageRule()
	h.settle(m)
	mi := h.eng.Mission()
	h.log.Info("mission loaded", "version", 1, "script", mi.Script, "map", mi.System, "files", len(src.protos), "addons", len(src.addons), "stored", stored != nil)
	return nil
}

// saveStorage writes bc.storage to the storage file (if there is one).
func (h *Runtime) saveStorage(async bool) {
	if h.persist == nil {
		return
	}
	var data any
	switch {
	case h.cur != nil:
		data = h.carryStorage(h.cur)
	case h.kept != nil:
		data = h.kept.storage
	}
	if data == nil {
		return
	}
	if err := h.persist.save(data, h.version, h.eng.Now(), async); err != nil {
		h.log.Error("saving bc.storage failed", "err", err)
	}
}

// Close unloads the mission (mission_unload runs) and unsubscribes.
func (h *Runtime) Close() {
	h.closed = true
	if m := h.cur; m != nil {
		m.emit(EvMissionUnload, unloadPayload("shutdown"))
		// The last word, as mission_unload left it: for the file, and for
		// Storage after the close (a test's restart).
		h.kept = &carried{storage: h.carryStorage(m)}
		m.close()
		h.cur = nil
	}
	h.syncDamageRule()
	if h.persist != nil && h.started {
		// A synchronous write after any in flight, of the running
		// version's storage or the suspended one's.
		h.persist.wait()
		h.saveStorage(false)
	}
	h.unlisten()
	for _, off := range h.offs {
		off()
	}
	h.offs = nil
	for _, cancel := range h.timers {
		cancel()
	}
	h.timers = nil
}

func unloadPayload(reason string) func(L *glua.LState) *glua.LTable {
	return func(L *glua.LState) *glua.LTable {
		t := L.CreateTable(0, 1)
		t.RawSetString("reason", glua.LString(reason))
		return t
	}
}

// ReloadNow compiles the mission from the FS and swaps it in, on the game
// goroutine. On failure the running mission stays and the error (with
// file:line) is returned and logged.
func (h *Runtime) ReloadNow() error {
	src, err := compileSource(h.opts.Protos, h.opts.FS, h.opts.LibFS, h.opts.Mode, h.opts.Addons)
	if err != nil {
		h.reloadFailed(err, "version", h.version)
		return fmt.Errorf("mission %q: %w", h.opts.Mode, err)
	}
	return h.swap(src)
}

// Reload may be called from any goroutine: it reads and compiles the
// mission on the caller's goroutine and hands the swap to the game
// goroutine with Post, so it happens between two loop iterations, never
// inside an event. done, if not nil, receives the outcome.
func (h *Runtime) Reload(done func(error)) {
	if done == nil {
		done = func(error) {}
	}
	src, err := compileSource(h.opts.Protos, h.opts.FS, h.opts.LibFS, h.opts.Mode, h.opts.Addons)
	if err != nil {
		h.reloadFailed(err)
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
	err = errors.New("game loop busy")
	h.reportError(MissionError{Version: h.version, Kind: ErrReload, Err: err.Error()}, slogError, false, "mission reload dropped: the game loop is not taking work")
	done(err)
}

// swap builds the new version beside the running one and replaces it on
// success. Nothing the candidate did reaches the game before that.
func (h *Runtime) swap(src *source) error {
	if !h.started || h.closed {
		return errors.New("mission host not open")
	}
	old := h.cur
	data := h.kept
	if old != nil {
		data = h.carry(old)
	}
	if data == nil {
		data = &carried{}
	}
	// After a suspension (old == nil) the game went on: the players, their
	// ships and the host ships the suspended version made are all still
	// there, so the fixed version takes over as on any reload
	// (mission_reload), never starting the game again (mission_start).
	resumed := old == nil
	start := time.Now()
	m, err := h.build(src, h.version+1, data, resumed)
	h.listen(engine.EvChat)
	if err != nil {
		h.unlisten()
		h.reloadFailed(err, "version", h.version)
		return fmt.Errorf("mission %q: %w", h.opts.Mode, err)
	}
	if old != nil {
		old.emit(EvMissionUnload, unloadPayload("reload"))
		old.close()
	}
	h.cur = m
	h.version++
	h.kept = nil
	h.resume()
	h.unlisten()
	m.apply()
	h.syncDamageRule() // the new version's rule, or none
	h.settle(m)
	h.log.Info(fmt.Sprintf("mission %q reloaded (v%d)", h.opts.Mode, h.version), "took", time.Since(start).Round(time.Microsecond))
	if resumed {
		h.tell(resumedText)
	}
	h.saveStorage(true)
	return nil
}

// carried is what one version hands the next: plain copies of its
// bc.storage (which also outlives the process, with StorageDir) and of
// its bc.memory (which does not).
type carried struct{ storage, memory any }

// carry copies the plain data of a mission's bc.storage and bc.memory for
// the next version, each within the storage limits: what does not fit is
// dropped with a warning, never failing the reload.
func (h *Runtime) carry(m *mission) *carried {
	return &carried{storage: h.carryStorage(m), memory: h.carryTable(m.memory, "bc.memory")}
}

func (h *Runtime) carryStorage(m *mission) any { return h.carryTable(m.storage, "bc.storage") }

func (h *Runtime) carryTable(t *glua.LTable, name string) any {
	data, rep := toPlainNamed(t, name, h.opts.StorageDepth, h.opts.StorageSize)
	if rep.dropped > 0 {
		msg := name + " held values that are not plain data; they were not carried over"
		h.reportError(MissionError{Version: h.version, Kind: ErrNotCarried, Err: fmt.Sprintf("%s (%d)", msg, rep.dropped)}, slogWarn, false, msg, "dropped", rep.dropped)
	}
	if rep.truncated != "" {
		msg := name + " is over its limits; the excess was not carried over"
		h.reportError(MissionError{Version: h.version, Kind: ErrNotCarried, Err: msg + ": " + rep.truncated}, slogError, false, msg, "why", rep.truncated)
	}
	return data
}

// reloadFailed reports a version that did not load.
func (h *Runtime) reloadFailed(err error, attrs ...any) {
	h.reportError(MissionError{Version: h.version, Kind: ErrReload, Err: err.Error()}, slogError, false,
		"mission reload failed, keeping the running version", append(attrs, "err", err)...)
}

// build creates a state for src and runs main.lua, mission_load, then
// mission_reload (a reload) or mission_start (the first load, version 1),
// each under the load budget. resumed marks a reload that ends a
// suspension. What they do to the game is staged; any error discards the
// state and with it everything staged.
func (h *Runtime) build(src *source, version int, data *carried, resumed bool) (*mission, error) {
	reload := version > 1
	// Only the first load can find bc.storage read back from the last run.
	restored := !reload && data.storage != nil
	m, err := newMission(h, src, version, data)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*mission, error) {
		m.close()
		return nil, err
	}
	if err := m.runMain(); err != nil {
		return fail(err)
	}
	for _, a := range src.addons {
		if err := m.runAddon(a); err != nil {
			return fail(err)
		}
	}
	if err := m.emitStrict(EvMissionLoad, func(L *glua.LState) *glua.LTable {
		t := L.CreateTable(0, 5)
		t.RawSetString("mode", glua.LString(h.opts.Mode))
		t.RawSetString("version", glua.LNumber(version))
		t.RawSetString("reload", glua.LBool(reload))
		t.RawSetString("restored", glua.LBool(restored))
		t.RawSetString("config", m.bc.RawGetString("config"))
		return t
	}); err != nil {
		return fail(err)
	}
	if reload {
		if err := m.emitStrict(EvMissionReload, func(L *glua.LState) *glua.LTable {
			t := L.CreateTable(0, 3)
			t.RawSetString("version", glua.LNumber(version))
			t.RawSetString("previous_version", glua.LNumber(h.version))
			t.RawSetString("suspended", glua.LBool(resumed))
			return t
		}); err != nil {
			return fail(err)
		}
	} else {
		if err := m.emitStrict(EvMissionStart, nil); err != nil {
			return fail(err)
		}
	}
	if m.failed != "" {
		return fail(errors.New(m.failed))
	}
	return m, nil
}

// HostID is the network player id of the host (missions.md conventions).
const HostID = engine.HostPlayerID

// dispatchEngine forwards one engine event to the running mission.
func (h *Runtime) dispatchEngine(ev engine.Event) {
	m := h.cur
	if m == nil {
		if e, ok := ev.(*engine.Chat); ok && h.suspended != "" {
			h.pausedChat(e)
		}
		return
	}
	if len(m.handlers[ev.Name()]) == 0 && ev.Name() != engine.EvChat {
		return
	}
	m.dispatch(ev)
	h.settle(m)
}

// fire raises a runtime event (second) on the running mission.
func (h *Runtime) fire(name string, payload func(L *glua.LState) *glua.LTable) {
	m := h.cur
	if m == nil || len(m.handlers[name]) == 0 {
		return
	}
	m.emit(name, payload)
	h.settle(m)
}

// Storage returns a plain-data copy of the running mission's bc.storage
// (nil when no mission runs), for admin tools and tests.
func (h *Runtime) Storage() *Table {
	if h.cur == nil {
		if h.kept != nil {
			t, _ := h.kept.storage.(*Table)
			return t
		}
		return nil
	}
	v, _ := toPlain(h.cur.storage, h.opts.StorageDepth, h.opts.StorageSize)
	t, _ := v.(*Table)
	return t
}

// Memory returns a plain-data copy of the running mission's bc.memory (a
// suspended one's while it waits; nil when there is none), for tests.
func (h *Runtime) Memory() *Table {
	if h.cur == nil {
		if h.kept != nil {
			t, _ := h.kept.memory.(*Table)
			return t
		}
		return nil
	}
	v, _ := toPlainNamed(h.cur.memory, "bc.memory", h.opts.StorageDepth, h.opts.StorageSize)
	t, _ := v.(*Table)
	return t
}

// StorageGet returns one key of bc.storage as a plain Go value (as Storage
// converts it), or nil. It copies only that key's value, so a caller
// polling a few keys does not copy the whole storage. Call it on the game
// goroutine.
func (h *Runtime) StorageGet(key string) any {
	if h.cur == nil {
		if h.kept == nil {
			return nil
		}
		t, _ := h.kept.storage.(*Table)
		return t.Get(key)
	}
	v := h.cur.storage.RawGetString(key)
	if v == glua.LNil {
		return nil
	}
	out, _ := toPlain(v, h.opts.StorageDepth, h.opts.StorageSize)
	return out
}

// Plugin adapts a Runtime on a real game to engine.Plugin: Start opens the
// mission, Stop unloads it at shutdown before the players are told.
func (h *Runtime) Plugin() engine.Plugin { return runtimePlugin{h} }

type runtimePlugin struct{ h *Runtime }

func (p runtimePlugin) Name() string             { return "missions" }
func (p runtimePlugin) Start(*engine.Game) error { return p.h.Open() }
func (p runtimePlugin) Stop(*engine.Game)        { p.h.Close() }

// tell sends a line of chat from the host to every player.
func (h *Runtime) tell(msg string) {
	h.eng.SendInGame(engine.ServerNotice(nil, msg), nil)
}
