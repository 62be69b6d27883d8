package lua

import (
	"slices"

	"github.com/bcserver/bcserver/engine"
)

// Subscriptions on demand. The engine skips work nobody listens for: no
// tick event is built when no one handles ticks, no weapon_fired per shot,
// no ship_requested veto round, no broadcast copies. So the runtime
// subscribes to an engine event only once the running mission (or a
// version being loaded) registers a handler for it, and lets go of it
// when a new version, a suspension or bc.off leaves nobody handling it.
// Chat stays subscribed while a mission runs: its commands (bc.command)
// are chat lines. The runtime subscribes early (Engine.OnEarly): a
// mission's handlers run before the plugins' however late they were
// registered (a reload, a handler added mid-match), so the plugins record
// and report what the mission made of each event; within the mission the
// order of registration holds as always.

// listen subscribes the runtime to engine event name (not yet subscribed)
// on a mission's first handler for it.
func (h *Runtime) listen(name string) {
	if h.closed || h.subs[name] != nil || !slices.Contains(engineEvents, name) {
		return
	}
	if h.subs == nil {
		h.subs = make(map[string]func())
	}
	h.subs[name] = h.eng.OnEarly(name, h.dispatchEngine)
}

// unlisten drops the subscriptions the running mission has no handler for
// (every one but chat's while a mission runs or is suspended; all of them
// after Close).
func (h *Runtime) unlisten() {
	for name, off := range h.subs {
		if !h.closed && h.cur != nil && (name == engine.EvChat || len(h.cur.handlers[name]) > 0) {
			continue
		}
		if !h.closed && h.cur == nil && h.suspended != "" && name == engine.EvChat {
			continue // a suspended mode's commands are answered (paused.go)
		}
		off()
		delete(h.subs, name)
	}
}
