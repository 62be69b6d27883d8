package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/enginetest"
)

// The observer sits on the packet and tick paths: it must not allocate.
func TestObserverAllocs(t *testing.T) {
	m := New(Options{})
	o := observer{m}
	if n := testing.AllocsPerRun(1000, func() {
		o.BatchDone(30 * time.Microsecond)
		o.TickDone(time.Millisecond)
		o.ReceiveDelay(5 * time.Microsecond)
	}); n != 0 {
		t.Fatalf("%v allocations per observation", n)
	}
	if n := testing.AllocsPerRun(1000, func() { m.ObserveLua("deathmatch", time.Microsecond, 50*time.Millisecond) }); n != 0 {
		t.Fatalf("%v allocations per Lua observation", n)
	}
}

// BenchmarkObserve is the cost the metrics add to one loop pass that
// handled datagrams (one histogram observation).
func BenchmarkObserve(b *testing.B) {
	m := New(Options{})
	o := observer{m}
	b.ReportAllocs()
	for b.Loop() {
		o.BatchDone(25 * time.Microsecond)
	}
}

// The games' series are registered on the first scrape: what they counted
// before it is there, each game's series carry its label in a shared
// registry, and a series registered twice (a bug) fails every scrape.
func TestRegistryRegistersOnFirstScrape(t *testing.T) {
	reg := NewRegistry()
	a := New(Options{Registry: reg, Game: "22101", Server: enginetest.Run(t, engine.DefaultConfig())})
	b := New(Options{Registry: reg, Game: "22102", Server: enginetest.Run(t, engine.DefaultConfig())})
	a.AdminAction("kick") // before any scrape
	b.AdminAction("ban")
	b.AdminAction("ban")
	if fs, _ := reg.prom.Gather(); len(fs) != 0 {
		t.Fatalf("%d families registered before the first scrape", len(fs))
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	runtime := false
	for _, f := range families {
		switch f.GetName() {
		case "bcserver_admin_actions_total":
			for _, m := range f.GetMetric() {
				labels := ""
				for _, l := range m.GetLabel() {
					labels += l.GetName() + "=" + l.GetValue() + " "
				}
				got[labels] = m.GetCounter().GetValue()
			}
		case "go_goroutines":
			runtime = true
		}
	}
	want := map[string]float64{"action=kick game=22101 ": 1, "action=ban game=22102 ": 2}
	if len(got) != len(want) || got["action=kick game=22101 "] != 1 || got["action=ban game=22102 "] != 2 {
		t.Fatalf("admin actions %v, want %v", got, want)
	}
	if !runtime {
		t.Fatal("no Go runtime series")
	}

	New(Options{Registry: reg, Game: "22101", Server: a.opts.Server}) // the same series again
	for i := range 2 {
		if _, err := reg.Gather(); err == nil || !strings.Contains(err.Error(), "game:22101") {
			t.Fatalf("scrape %d after a duplicate registration: %v", i, err)
		}
	}
}
