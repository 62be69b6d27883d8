package lua

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
)

// MissionError is one failure of a mission as the runtime reports it: to
// the log, and to Options.OnError.
type MissionError struct {
	Mode    string
	Version int // the version that failed (the running one for a failed reload)
	Kind    ErrorKind
	// Callback names what was running: the event ("tick", "second"),
	// "timer", "command !name"; empty for a reload, a suspension or data
	// not carried over.
	Callback string
	// Err says what went wrong, with the file:line it happened at.
	Err string
	// Traceback is the Lua stack at the error, when there is one.
	Traceback string
}

// ErrorKind is the kind of a MissionError.
type ErrorKind string

// The kinds of MissionError.
const (
	// ErrFailed: a callback raised an error.
	ErrFailed ErrorKind = "failed"
	// ErrAborted: a callback was stopped by its time or memory budget.
	ErrAborted ErrorKind = "aborted"
	// ErrDeferred: handlers or timers did not run, the tick budget being
	// spent; they run in the next tick.
	ErrDeferred ErrorKind = "deferred"
	// ErrReload: a new version did not load; the running one stays.
	ErrReload ErrorKind = "reload_failed"
	// ErrSuspended: the mission failed too often and was stopped.
	ErrSuspended ErrorKind = "suspended"
	// ErrCommandOff: a chat command failed too often and was switched off;
	// the mission runs on.
	ErrCommandOff ErrorKind = "command_off"
	// ErrNotCarried: bc.storage or bc.memory held what a reload cannot
	// carry over (not plain data, over the limits); it was dropped.
	ErrNotCarried ErrorKind = "not_carried"
)

func (e MissionError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mission %q v%d: %s", e.Mode, e.Version, e.Kind)
	if e.Callback != "" {
		fmt.Fprintf(&b, " (%s)", e.Callback)
	}
	if e.Err != "" {
		b.WriteString(": ")
		b.WriteString(e.Err)
	}
	return b.String()
}

// reportError hands e to Options.OnError and writes the log line msg
// (rate limited with the other error reports when limited) with attrs.
func (h *Runtime) reportError(e MissionError, level slog.Level, limited bool, msg string, attrs ...any) {
	e.Mode = h.opts.Mode
	if h.opts.OnError != nil {
		h.opts.OnError(e)
	}
	if limited {
		h.errLogs.log(h.log, level, msg, attrs...)
		return
	}
	h.log.Log(context.Background(), level, msg, attrs...)
}
