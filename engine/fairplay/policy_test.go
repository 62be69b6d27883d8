package fairplay

import (
	"math"
	"testing"
	"time"
)

func TestThresholds(t *testing.T) {
	th := Thresholds{Weight: 1, Drop: 1, Notify: 5, Kick: 10, Ban: 20, BanFor: time.Hour}
	for _, tt := range []struct {
		score float64
		want  Action
	}{{0.5, ActLog}, {1, ActDrop}, {4.9, ActDrop}, {5, ActNotify}, {10, ActKick}, {25, ActBan}} {
		if got := th.Action(tt.score); got != tt.want {
			t.Errorf("score %v: %s, want %s", tt.score, got, tt.want)
		}
	}
	if got := (&Thresholds{Kick: 3}).Action(3); got != ActKick {
		t.Errorf("kick without drop: %s", got)
	}
	def := DefaultPolicy()
	for _, r := range Rules() {
		if a := def.For(r).Action(1e6); a != ActDrop {
			t.Errorf("default %s at any score: %s, want drop (never kick)", r, a)
		}
	}
}

func TestLedgerDecays(t *testing.T) {
	p := DefaultPolicy()
	p.HalfLife = 10 * time.Second
	var l Ledger
	for range 4 {
		l.Add(&p, Speed, t0)
	}
	if s := l.Score(Speed, t0.Add(10*time.Second), p.HalfLife); math.Abs(s-2) > 1e-9 {
		t.Errorf("4 halved once: %v", s)
	}
	if s := l.Add(&p, Speed, t0.Add(20*time.Second)); math.Abs(s-2) > 1e-9 {
		t.Errorf("4 halved twice plus 1: %v", s)
	}
	if l.Count(Speed) != 5 || l.Count(Arc) != 0 || l.Total() != 5 {
		t.Errorf("counts %d %d %d", l.Count(Speed), l.Count(Arc), l.Total())
	}
}

func TestLedgerLogThrottle(t *testing.T) {
	var l Ledger
	if ok, _ := l.Log(Arc, t0, time.Second); !ok {
		t.Fatal("first not logged")
	}
	for i := range 5 {
		if ok, _ := l.Log(Arc, t0.Add(time.Duration(i+1)*100*time.Millisecond), time.Second); ok {
			t.Fatal("logged within the interval")
		}
	}
	ok, n := l.Log(Arc, t0.Add(time.Second), time.Second)
	if !ok || n != 5 {
		t.Fatalf("after the interval: %v, %d suppressed, want 5", ok, n)
	}
	if ok, _ := l.Log(Speed, t0.Add(time.Second), time.Second); !ok {
		t.Fatal("rules are throttled apart")
	}
}

func TestRates(t *testing.T) {
	limits := DefaultRates()
	var r Rates
	// A burst of the class's depth passes, the next is refused.
	for i := range 50 {
		if v := r.Allow(&limits, 1, 0x19, t0); !v.OK() {
			t.Fatalf("torpedo %d of the burst refused", i)
		}
	}
	if v := r.Allow(&limits, 1, 0x19, t0); v.Rule != Rate {
		t.Fatalf("51st torpedo in an instant: %+v", v)
	}
	// Other classes have their own buckets; the bucket refills at its rate.
	if v := r.Allow(&limits, 1, 0x1C, t0); !v.OK() {
		t.Fatal("a StateUpdate refused for torpedoes")
	}
	if v := r.Allow(&limits, 1, 0x19, t0.Add(100*time.Millisecond)); !v.OK() {
		t.Fatal("one torpedo back after 0.1 s at 10/s")
	}
	// A steady 10 Hz of StateUpdates never runs out; 100 Hz does.
	var s Rates
	for i := range 6000 {
		if v := s.Allow(&limits, 1, 0x1C, t0.Add(time.Duration(i)*100*time.Millisecond)); !v.OK() {
			t.Fatalf("10 Hz refused at %d", i)
		}
	}
	var f Rates
	refused := 0
	for i := range 1000 {
		if v := f.Allow(&limits, 1, 0x1C, t0.Add(time.Duration(i)*10*time.Millisecond)); !v.OK() {
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("100 Hz of StateUpdates never refused")
	}
	if v := f.Allow(&limits, 1000, 0x1C, t0.Add(10*time.Second)); !v.OK() {
		t.Fatal("a scaled rate still refuses")
	}
	for op := range 256 {
		if c := ClassOf(byte(op)); c >= numClasses {
			t.Fatalf("opcode %#x: class %d", op, c)
		}
	}
}

func TestParse(t *testing.T) {
	for _, r := range Rules() {
		if got, ok := ParseRule(r.String()); !ok || got != r {
			t.Errorf("rule %s", r)
		}
	}
	for a := ActLog; a < numActions; a++ {
		if got, ok := ParseAction(a.String()); !ok || got != a {
			t.Errorf("action %s", a)
		}
	}
	c := DefaultConfig()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.Policy.Rules[Speed].Ban = 3
	c.Policy.Rules[Speed].BanFor = 0
	if err := c.Validate(); err == nil {
		t.Fatal("a ban without ban_for passed")
	}
}

// BenchmarkRatesAllow is the rate check every player message passes.
func BenchmarkRatesAllow(b *testing.B) {
	limits := DefaultRates()
	var r Rates
	now := t0
	b.ReportAllocs()
	for range b.N {
		now = now.Add(100 * time.Millisecond)
		if v := r.Allow(&limits, 1, 0x1C, now); !v.OK() {
			b.Fatal(v)
		}
	}
}
