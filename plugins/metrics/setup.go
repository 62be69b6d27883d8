package metrics

import (
	"time"

	"github.com/bcserver/bcserver/engine"
)

// TimedGame is a game as a mission sees it, with the time the mission
// spends in each of its event handlers and timers observed
// (bcserver_lua_handler_seconds, and the overruns of its budget). Hand it
// to the mission runtime (lua.New) in place of the game.
type TimedGame struct {
	*engine.Game
	m      *Metrics
	mode   string
	budget time.Duration
}

// Timed returns g timed for the mission mode, whose calls have budget.
func (m *Metrics) Timed(g *engine.Game, mode string, budget time.Duration) TimedGame {
	return TimedGame{Game: g, m: m, mode: mode, budget: budget}
}

func (t TimedGame) timed(fn func()) {
	start := time.Now()
	fn()
	t.m.ObserveLua(t.mode, time.Since(start), t.budget)
}

// On subscribes fn, timed, to the events called name.
func (t TimedGame) On(name string, fn engine.Handler) func() {
	return t.Game.On(name, func(ev engine.Event) { t.timed(func() { fn(ev) }) })
}

// OnEarly subscribes fn, timed, ahead of the On handlers
// (engine.Game.OnEarly).
func (t TimedGame) OnEarly(name string, fn engine.Handler) func() {
	return t.Game.OnEarly(name, func(ev engine.Event) { t.timed(func() { fn(ev) }) })
}

// After runs fn, timed, once d has passed.
func (t TimedGame) After(d time.Duration, fn func()) func() {
	return t.Game.After(d, func() { t.timed(fn) })
}

// Every runs fn, timed, every d.
func (t TimedGame) Every(d time.Duration, fn func()) func() {
	return t.Game.Every(d, func() { t.timed(fn) })
}
