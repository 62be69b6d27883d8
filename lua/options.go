package lua

import (
	"io/fs"
	"log/slog"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// Defaults for Limits: what a real host wants for a game of 16 players
// ticking every 100 ms. The stock modes use well under a tenth of each.
const (
	DefaultBudget       = 5 * time.Millisecond  // one call into Lua
	DefaultTickBudget   = 10 * time.Millisecond // all calls in one tick: at most 10% of the game goroutine
	DefaultLoadBudget   = 250 * time.Millisecond
	DefaultTickInterval = 100 * time.Millisecond
	DefaultMemoryLimit  = 64 << 20
	DefaultMaxString    = 1 << 20
	DefaultMaxTimers    = 256
	DefaultMinPeriod    = 100 * time.Millisecond
	DefaultMaxErrors    = 10
	DefaultMaxOverruns  = 5
	DefaultErrorWindow  = time.Minute
	DefaultMaxMessage   = 4096
	DefaultSendMessages = 64
	DefaultSendBytes    = 16 << 10
	DefaultLogRate      = 20
	DefaultLogBurst     = 100
	DefaultLogLine      = 1024
	DefaultStorageDepth = 32
	DefaultStorageSize  = 100_000
)

// Limits bound what a mission may do. Zero values take the defaults.
type Limits struct {
	// Budget bounds one call into Lua (a handler, a timer); TickBudget
	// bounds all of a mission's calls in one tick of TickInterval;
	// LoadBudget bounds each call while a version loads (main.lua,
	// mission_load, mission_reload, mission_start). The time of Go
	// functions a script calls is part of it.
	Budget, TickBudget, LoadBudget time.Duration
	TickInterval                   time.Duration
	// StepTime, when > 0, replaces the wall clock with virtual time: every
	// VM instruction (and every unit of bulk work) costs StepTime. Tests
	// and the mission test runner use it to be deterministic.
	StepTime time.Duration
	// MemoryLimit is the most a mission's state may hold, in bytes.
	MemoryLimit int64
	// MaxString caps every string a mission builds, in bytes.
	MaxString int
	// MaxTimers caps the timers a mission has at once; MinPeriod is the
	// shortest repeat period.
	MaxTimers int
	MinPeriod time.Duration
	// A mission that fails MaxErrors times, or overruns its budget in
	// MaxOverruns ticks, within ErrorWindow is suspended until a reload.
	MaxErrors, MaxOverruns int
	ErrorWindow            time.Duration
	// MaxMessage caps the messages a mission builds and the received
	// payloads handed to it (stock script messages are at most 256 bytes).
	MaxMessage int
	// SendMessages and SendBytes are what a mission may send one player
	// per tick (broadcasts count for each recipient).
	SendMessages, SendBytes int
	// LogRate lines a second (bursts of LogBurst) per mission; longer
	// lines are cut to LogLine bytes.
	LogRate, LogBurst, LogLine int
	// StorageDepth and StorageSize bound what of bc.storage is carried
	// over a reload or saved: deeper tables and entries past the count are
	// dropped, with a warning, never failing the reload.
	StorageDepth, StorageSize int
	// MaxShips caps the host ships a mission may have at once
	// (bc.create_ship; wrecks count until their explosion is over).
	MaxShips int
}

func (l *Limits) fill() {
	setd := func(p *time.Duration, d time.Duration) {
		if *p <= 0 {
			*p = d
		}
	}
	seti := func(p *int, d int) {
		if *p <= 0 {
			*p = d
		}
	}
	setd(&l.Budget, DefaultBudget)
	setd(&l.TickBudget, DefaultTickBudget)
	setd(&l.LoadBudget, DefaultLoadBudget)
	setd(&l.TickInterval, DefaultTickInterval)
	setd(&l.MinPeriod, DefaultMinPeriod)
	setd(&l.ErrorWindow, DefaultErrorWindow)
	if l.MemoryLimit <= 0 {
		l.MemoryLimit = DefaultMemoryLimit
	}
	seti(&l.MaxString, DefaultMaxString)
	seti(&l.MaxTimers, DefaultMaxTimers)
	seti(&l.MaxErrors, DefaultMaxErrors)
	seti(&l.MaxOverruns, DefaultMaxOverruns)
	seti(&l.MaxMessage, DefaultMaxMessage)
	seti(&l.SendMessages, DefaultSendMessages)
	seti(&l.SendBytes, DefaultSendBytes)
	seti(&l.LogRate, DefaultLogRate)
	seti(&l.LogBurst, DefaultLogBurst)
	seti(&l.LogLine, DefaultLogLine)
	seti(&l.StorageDepth, DefaultStorageDepth)
	seti(&l.StorageSize, DefaultStorageSize)
	seti(&l.MaxShips, DefaultMaxShips)
}

// Options configures a Runtime.
type Options struct {
	// Mode is the mission folder to run, e.g. "deathmatch".
	Mode string
	// FS is the missions root: one folder per mode and lib/.
	FS fs.FS
	// LibFS, if set, is searched for lib/ modules FS does not have (the
	// built-in lib/ under a host's own missions folder).
	LibFS fs.FS
	// Config is the [mission] table handed to the mission as bc.config.
	Config map[string]any
	// Addons are folders under addons/ loaded into the mode's state after
	// its main.lua, in this order.
	Addons []string
	// Protos, if set, is the compile cache shared with the process's other
	// games (server.New gives every game one and warms it while the games
	// are assembled); nil gives the Runtime a cache of its own, which
	// still spares a reload the files it did not change.
	Protos *Protos
	// StorageDir, when set, keeps bc.storage in StorageDir/<mode>.json
	// across restarts, written every StorageSave (default a minute), after
	// each reload and at shutdown.
	StorageDir  string
	StorageSave time.Duration
	// Restore, when set, is bc.storage as read back from a previous run
	// (plain data: *Table or a map), used instead of the storage file:
	// the mission test runner seeds and restarts games with it.
	Restore any
	// Identities gives players uids that are stable for the process; nil:
	// the host makes its own.
	Identities *Identities
	// Seed seeds bc.random; 0 seeds it from the clock. Tests set it to
	// replay a game exactly.
	Seed uint64
	// Stats, if set, gives bc.stats a player's career statistics as plain
	// data (plugins/stats), false while they are not at hand. It is called
	// on the game goroutine and must not block.
	Stats func(name string) (map[string]any, bool)
	// Switch, if set, lets the mission change the game mode and advance
	// the rotation (bc.set_mode, bc.next_match, bc.modes, bc.rotation).
	Switch Switcher
	// Rating, if set, gives bc.rating a player's skill rating in the
	// running mode's family as plain data; false when it has none. Game
	// goroutine, must not block.
	Rating func(p *engine.Player) (map[string]any, bool)
	// Balance, if set, assigns the teams from the ratings now
	// (bc.balance_teams); game goroutine.
	Balance func()
	Limits
	Logger *slog.Logger
	// OnError, if set, is told of every failure of the mission the runtime
	// reports (the log has them too, rate limited): tests and tools check
	// a mission's errors here rather than in the log's wording. It is
	// called on the game goroutine, except for a reload's compile error,
	// which comes on the goroutine that called Reload.
	OnError func(MissionError)
}

func (o *Options) fill() {
	o.Limits.fill()
	if o.StorageSave <= 0 {
		o.StorageSave = time.Minute
	}
	if o.Identities == nil {
		o.Identities = NewIdentities()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}
