package engine

import (
	"testing"
	"time"
)

// The game tick sits on a fixed grid: a loop that wakes every 10 ms, a
// little late each time, runs exactly 100 ticks in 10.0 s of game clock,
// each with Dt = 100 ms.
func TestTickGrid(t *testing.T) {
	tests := []struct {
		name string
		wake func(i int) time.Duration // the loop's i-th wake-up
	}{
		{"every 10 ms", func(i int) time.Duration { return time.Duration(i) * 10 * time.Millisecond }},
		{"late by 0-3 ms", func(i int) time.Duration {
			return time.Duration(i)*10*time.Millisecond + time.Duration(i*7919%3000)*time.Microsecond
		}},
		{"every 33 ms", func(i int) time.Duration { return time.Duration(i) * 33 * time.Millisecond }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			g, err := NewGame(Options{Config: DefaultConfig(), Now: t0})
			if err != nil {
				t.Fatal(err)
			}
			var dts []time.Duration
			g.On(EvTick, func(e Event) { dts = append(dts, e.(*Tick).Dt) })
			end := t0.Add(10 * time.Second)
			for i := 1; i < 10000; i++ {
				now := t0.Add(tt.wake(i))
				if now.After(end) {
					break
				}
				g.Advance(now)
			}
			g.Advance(end)
			if len(dts) != 100 || g.Ticks() != 100 || g.Stats.TicksDropped.Load() != 0 {
				t.Fatalf("%d ticks in 10 s (%d counted, %d dropped), want 100", len(dts), g.Ticks(), g.Stats.TicksDropped.Load())
			}
			for _, dt := range dts {
				if dt != 100*time.Millisecond {
					t.Fatalf("tick Dt %v", dt)
				}
			}
		})
	}
}

// A game far behind its grid runs at most maxCatchUp ticks at once and
// keeps the grid: the next tick is still on it.
func TestTickCatchUpBounded(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	g, err := NewGame(Options{Config: DefaultConfig(), Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	g.Advance(t0.Add(1050 * time.Millisecond)) // 10 ticks due
	if g.Ticks() != maxCatchUp || g.Stats.TicksDropped.Load() != 10-maxCatchUp {
		t.Fatalf("ran %d, dropped %d", g.Ticks(), g.Stats.TicksDropped.Load())
	}
	g.Advance(t0.Add(1099 * time.Millisecond))
	if g.Ticks() != maxCatchUp {
		t.Fatal("ticked off the grid")
	}
	g.Advance(t0.Add(1100 * time.Millisecond))
	if g.Ticks() != maxCatchUp+1 {
		t.Fatal("missed the grid point at 1.1 s")
	}
}
