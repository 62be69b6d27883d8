package fairplay

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// flight simulates an owner's updates arriving at the host: a ship flying
// a circle of radius 300 at speed (world units a second), sending an
// update every interval, each lost with probability loss and delayed by
// 0..jitter; every kth update is absolute, the others deltas from it. It
// returns the first verdict that is not plausible, and when (seconds into
// the flight), or a zero verdict.
type flight struct {
	speed, maxSpeed float64
	interval        time.Duration
	loss            float64
	jitter          time.Duration
	absEvery        int // 1: every update absolute
	secs            float64
	seed            uint64
	// teleportAt jumps the ship by 500 units at this second (0: never).
	teleportAt float64
}

func (f flight) run(t *testing.T) (Verdict, float64) {
	t.Helper()
	tol := DefaultTolerances()
	rng := rand.New(rand.NewPCG(f.seed, 1))
	type arrival struct {
		at  time.Time
		m   Motion
		abs [3]float32
	}
	var arrivals []arrival
	var absPos [3]float32
	jumped := false
	steps := int(f.secs / f.interval.Seconds())
	for k := range steps {
		sent := t0.Add(time.Duration(k) * f.interval)
		secs := sent.Sub(t0).Seconds()
		ang := f.speed * secs / 300
		pos := [3]float32{float32(300 * math.Cos(ang)), float32(300 * math.Sin(ang)), 0}
		if f.teleportAt > 0 && secs >= f.teleportAt {
			pos[2] += 500
			jumped = true
		}
		_ = jumped
		abs := k%f.absEvery == 0
		if abs {
			absPos = pos
		}
		m := Motion{HasPos: true, Absolute: abs, Pos: pos, HasSpeed: true, Speed: f.speed, MaxSpeed: f.maxSpeed}
		if rng.Float64() < f.loss {
			continue
		}
		at := sent.Add(time.Duration(rng.Int64N(int64(f.jitter) + 1)))
		arrivals = append(arrivals, arrival{at: at, m: m, abs: absPos})
	}
	// Deliver in arrival order (jitter reorders them).
	for i := 1; i < len(arrivals); i++ {
		for j := i; j > 0 && arrivals[j].at.Before(arrivals[j-1].at); j-- {
			arrivals[j], arrivals[j-1] = arrivals[j-1], arrivals[j]
		}
	}
	var tr Track
	var base [3]float32
	var baseAt time.Time
	for _, a := range arrivals {
		m := a.m
		m.At = a.at
		if !m.Absolute {
			// The host adds the delta to the last absolute it has, which
			// may be older than the one the delta is from.
			if baseAt.IsZero() {
				continue
			}
			m.Pos = [3]float32{base[0] + m.Pos[0] - a.abs[0], base[1] + m.Pos[1] - a.abs[1], base[2] + m.Pos[2] - a.abs[2]}
			m.Base, m.BaseAt = base, baseAt
		}
		if v := tr.Judge(&tol, &m); !v.OK() {
			return v, a.at.Sub(t0).Seconds()
		}
		tr.Accept(&m)
		if m.Absolute {
			base, baseAt = m.Pos, m.At
		}
	}
	return Verdict{}, 0
}

// Honest ships at full overdrive over every link the defaults are for,
// many seeds each: never a verdict.
func TestTrackHonest(t *testing.T) {
	for _, f := range []flight{
		{speed: 7.5 * 1.25, maxSpeed: 7.5, interval: 100 * time.Millisecond, absEvery: 1, secs: 120},
		{speed: 7.5 * 1.25, maxSpeed: 7.5, interval: 100 * time.Millisecond, loss: 0.3, jitter: 200 * time.Millisecond, absEvery: 1, secs: 120},
		{speed: 7.5 * 1.25, maxSpeed: 7.5, interval: 100 * time.Millisecond, loss: 0.3, jitter: 200 * time.Millisecond, absEvery: 10, secs: 120},
		{speed: 7.5 * 1.25, maxSpeed: 7.5, interval: time.Second, loss: 0.3, jitter: 200 * time.Millisecond, absEvery: 1, secs: 300},
		{speed: 0, maxSpeed: 0, interval: 100 * time.Millisecond, loss: 0.3, jitter: 200 * time.Millisecond, absEvery: 1, secs: 60},
	} {
		for seed := range uint64(20) {
			f.seed = seed
			if v, at := f.run(t); !v.OK() {
				t.Errorf("%+v: %s %.2f > %.2f at %.1f s", f, v.Rule, v.Value, v.Limit, at)
			}
		}
	}
}

// A ship twice as fast as its class is speeding within a few seconds, and
// a jump of 500 units is a teleport at once, on the worst link.
func TestTrackCheats(t *testing.T) {
	for _, tt := range []struct {
		name   string
		f      flight
		rule   Rule
		within float64
	}{
		{"speed x2 10Hz", flight{speed: 15, maxSpeed: 7.5, interval: 100 * time.Millisecond, loss: 0.3, jitter: 200 * time.Millisecond, absEvery: 10, secs: 30}, Speed, 4},
		{"speed x2 1Hz", flight{speed: 15, maxSpeed: 7.5, interval: time.Second, loss: 0.3, jitter: 200 * time.Millisecond, absEvery: 1, secs: 30}, Speed, 8},
		{"teleport", flight{speed: 5, maxSpeed: 7.5, interval: 100 * time.Millisecond, loss: 0.3, jitter: 200 * time.Millisecond, absEvery: 1, secs: 30, teleportAt: 10}, Teleport, 11},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for seed := range uint64(10) {
				tt.f.seed = seed
				v, at := tt.f.run(t)
				if v.Rule != tt.rule || at > tt.within {
					t.Errorf("seed %d: %s at %.1f s, want %s within %.0f s", seed, v.Rule, at, tt.rule, tt.within)
				}
			}
		})
	}
}

// A claimed speed beyond the limit is speeding; warp and exemptions
// allow more, and a track refused for Reanchor starts again.
func TestTrackRules(t *testing.T) {
	tol := DefaultTolerances()
	var tr Track
	m := Motion{At: t0, HasSpeed: true, Speed: 12, MaxSpeed: 7.5}
	if v := tr.Judge(&tol, &m); v.Rule != Speed {
		t.Fatalf("claimed 12 for a max of 7.5: %+v", v)
	}
	m.Warp = true
	if v := tr.Judge(&tol, &m); !v.OK() {
		t.Fatalf("warping: %+v", v)
	}
	tr.Reset()
	at := func(s float64, x float32) *Motion {
		return &Motion{At: t0.Add(time.Duration(s * float64(time.Second))), HasPos: true, Absolute: true, Pos: [3]float32{x, 0, 0}, MaxSpeed: 5}
	}
	tr.Accept(at(0, 0))
	if v := tr.Judge(&tol, at(0.1, 400)); v.Rule != Teleport {
		t.Fatalf("400 units in 0.1 s: %+v", v)
	}
	ex := at(0.2, 400)
	ex.Exempt = true
	if v := tr.Judge(&tol, ex); !v.OK() {
		t.Fatalf("exempt: %+v", v)
	}
	tr.Accept(ex)
	if v := tr.Judge(&tol, at(0.3, 400.5)); !v.OK() {
		t.Fatalf("after an exemption the track starts at the exempt position: %+v", v)
	}
	tr.Accept(at(0.3, 400.5))
	// Refused updates: the run of refusals starts at 1 s; at 3 s the track
	// is anchored again where the ship says it is.
	for _, s := range []float64{1, 2, 2.9} {
		if v := tr.Judge(&tol, at(s, 2000)); v.Rule != Teleport {
			t.Fatalf("%v s: %+v", s, v)
		}
	}
	if v := tr.Judge(&tol, at(3, 2000)); !v.OK() {
		t.Fatalf("after Reanchor: %+v", v)
	}
	tr.Accept(at(3, 2000))
	if v := tr.Judge(&tol, at(3.1, 2000.4)); !v.OK() {
		t.Fatalf("re-anchored: %+v", v)
	}
}
