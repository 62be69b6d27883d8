package server

import (
	"errors"
	"fmt"
	"time"

	"github.com/bcserver/bcserver/lua"
)

// LuaSection is [lua]: the mission runtime and the limits every mission
// runs under (docs/lua-api.md, "Limits").
type LuaSection struct {
	Budget         Duration `toml:"budget"`          // one call into Lua
	TickBudget     Duration `toml:"tick_budget"`     // all of a mission's calls in one 100 ms tick
	LoadBudget     Duration `toml:"load_budget"`     // each call while a version loads
	MemoryLimit    ByteSize `toml:"memory_limit"`    // the most a mission's state may hold
	MaxString      ByteSize `toml:"max_string"`      // the longest string a mission may build
	MaxTimers      int      `toml:"max_timers"`      // timers a mission may have at once
	MinPeriod      Duration `toml:"min_period"`      // shortest bc.every period
	MaxErrors      int      `toml:"max_errors"`      // errors within error_window before the mission is suspended
	MaxOverruns    int      `toml:"max_overruns"`    // ticks over budget within error_window before it is suspended
	ErrorWindow    Duration `toml:"error_window"`    //
	SendMessages   int      `toml:"send_messages"`   // messages a mission may send one player per tick
	SendBytes      ByteSize `toml:"send_bytes"`      // bytes a mission may send one player per tick
	LogRate        int      `toml:"log_rate"`        // mission log lines per second
	LogBurst       int      `toml:"log_burst"`       // bursts above log_rate
	StorageDepth   int      `toml:"storage_depth"`   // bc.storage nesting carried over a reload
	StorageEntries int      `toml:"storage_entries"` // bc.storage entries carried over a reload
	MaxShips       int      `toml:"max_ships"`       // host ships a mission may have at once (bc.create_ship)
	StorageDir     string   `toml:"storage_dir"`     // keep bc.storage across restarts in this folder ("" = don't)
	StorageSave    Duration `toml:"storage_save"`    // how often bc.storage is written there
	Watch          string   `toml:"watch"`           // auto | fsnotify | poll | off
	PollInterval   Duration `toml:"poll_interval"`   // for watch = poll

	// stepTime switches the runtime to virtual time (tests: budgets that
	// cannot trip on a loaded machine); not a host setting.
	stepTime time.Duration
}

// options converts [lua] into the runtime's options; zero values keep the
// runtime's defaults.
func (l LuaSection) options() (lua.Options, error) {
	o := lua.Options{StorageDir: l.StorageDir, StorageSave: time.Duration(l.StorageSave), Limits: lua.Limits{
		Budget: time.Duration(l.Budget), TickBudget: time.Duration(l.TickBudget), LoadBudget: time.Duration(l.LoadBudget),
		MemoryLimit: int64(l.MemoryLimit), MaxString: int(l.MaxString), MaxTimers: l.MaxTimers, MinPeriod: time.Duration(l.MinPeriod),
		MaxErrors: l.MaxErrors, MaxOverruns: l.MaxOverruns, ErrorWindow: time.Duration(l.ErrorWindow),
		SendMessages: l.SendMessages, SendBytes: int(l.SendBytes), LogRate: l.LogRate, LogBurst: l.LogBurst,
		StorageDepth: l.StorageDepth, StorageSize: l.StorageEntries, MaxShips: l.MaxShips, StepTime: l.stepTime,
	}}
	switch l.Watch {
	case "auto", "fsnotify", "poll", "off":
	default:
		return o, fmt.Errorf("lua.watch %q: want auto, fsnotify, poll or off", l.Watch)
	}
	var errs []error
	for _, d := range []struct {
		key string
		v   Duration
	}{{"budget", l.Budget}, {"tick_budget", l.TickBudget}, {"load_budget", l.LoadBudget}, {"min_period", l.MinPeriod}, {"error_window", l.ErrorWindow}, {"poll_interval", l.PollInterval}, {"storage_save", l.StorageSave}} {
		if d.v < 0 {
			errs = append(errs, fmt.Errorf("lua.%s %v: must not be negative", d.key, time.Duration(d.v)))
		}
	}
	for _, n := range []struct {
		key string
		v   int64
	}{{"memory_limit", int64(l.MemoryLimit)}, {"max_string", int64(l.MaxString)}, {"max_timers", int64(l.MaxTimers)}, {"max_errors", int64(l.MaxErrors)},
		{"max_overruns", int64(l.MaxOverruns)}, {"send_messages", int64(l.SendMessages)}, {"send_bytes", int64(l.SendBytes)}, {"log_rate", int64(l.LogRate)},
		{"log_burst", int64(l.LogBurst)}, {"storage_depth", int64(l.StorageDepth)}, {"storage_entries", int64(l.StorageEntries)},
		{"max_ships", int64(l.MaxShips)}} {
		if n.v < 0 {
			errs = append(errs, fmt.Errorf("lua.%s %d: must not be negative", n.key, n.v))
		}
	}
	if l.Budget > 0 && l.TickBudget > 0 && l.Budget > l.TickBudget {
		errs = append(errs, fmt.Errorf("lua.budget %v is larger than lua.tick_budget %v", time.Duration(l.Budget), time.Duration(l.TickBudget)))
	}
	if l.MemoryLimit > 0 && l.MemoryLimit < 1<<20 {
		errs = append(errs, fmt.Errorf("lua.memory_limit %s: want at least 1MiB", l.MemoryLimit))
	}
	return o, errors.Join(errs...)
}
