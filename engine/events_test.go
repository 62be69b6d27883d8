package engine

import (
	"slices"
	"testing"
)

// TestOnEarlyOrder: handlers subscribed with OnEarly run before those
// subscribed with On whenever they subscribed, each group in subscription
// order; a handler subscribed during an emit is not called by it, and
// cancelling works in either group.
func TestOnEarlyOrder(t *testing.T) {
	g := newTestGame(t, DefaultConfig(), nil)
	var got []string
	rec := func(s string) Handler { return func(Event) { got = append(got, s) } }
	offPlugin := g.On(EvGameEnded, rec("plugin1"))
	once := false
	g.On(EvGameEnded, func(Event) {
		got = append(got, "plugin2")
		if !once {
			once = true
			// Subscribing mid-emit: not called by this emit.
			g.OnEarly(EvGameEnded, rec("late-early"))
			g.On(EvGameEnded, rec("late"))
		}
	})
	g.OnEarly(EvGameEnded, rec("mission1"))
	offEarly := g.OnEarly(EvGameEnded, rec("mission2"))

	g.Emit(&GameEnded{})
	if want := []string{"mission1", "mission2", "plugin1", "plugin2"}; !slices.Equal(got, want) {
		t.Fatalf("first emit ran %v, want %v", got, want)
	}
	got = nil
	g.Emit(&GameEnded{})
	if want := []string{"mission1", "mission2", "late-early", "plugin1", "plugin2", "late"}; !slices.Equal(got, want) {
		t.Fatalf("second emit ran %v, want %v", got, want)
	}
	offEarly()
	offPlugin()
	got = nil
	g.Emit(&GameEnded{})
	if want := []string{"mission1", "late-early", "plugin2", "late"}; !slices.Equal(got, want) {
		t.Fatalf("after cancelling ran %v, want %v", got, want)
	}
}
