package fairplay

import (
	"math"
	"time"
)

// A ship's owner reports its position (simulation.md 4.1): an absolute one
// (flag 0x01) about once a second and deltas from it (0x02) in between, or
// absolute ones every time. The host judges each against what the ship's
// class could have flown since an earlier one, measuring time by when the
// updates arrived (the owner's clock is its own to forge) and adding
// Jitter to every interval, since a late earlier update shortens it.

const (
	// trackLen bounds the positions a Track keeps, trackSpacing is the
	// least time between two kept ones: 16 positions 0.4 s apart reach
	// back 6.4 s at 10 updates a second and 16 s at one. The long
	// baselines catch a ship that is only somewhat too fast, which the
	// Jitter hides over one update interval.
	trackLen     = 16
	trackSpacing = 400 * time.Millisecond
)

type sample struct {
	at  int64 // arrival, Unix nanoseconds
	pos [3]float32
}

// Track follows one ship's reported positions. Its zero value is empty;
// it is fixed-size.
type Track struct {
	ring       [trackLen]sample
	n, next    int
	last       sample // the newest absolute position taken
	hasLast    bool
	rejectedAt time.Time // the first refusal of the current run of refusals
	reanchor   bool      // the next position taken starts the track again
}

// Motion is what the host knows of a ship when one of its updates
// arrives.
type Motion struct {
	// At is when the update arrived.
	At time.Time
	// HasPos: the update carries a position, Pos: absolute (flag 0x01) when
	// Absolute, else the last absolute Base (arrived at BaseAt) plus the
	// update's delta.
	HasPos, Absolute bool
	Pos, Base        [3]float32
	BaseAt           time.Time
	// HasSpeed: the update carries the owner's speed (flag 0x10), Speed.
	HasSpeed bool
	Speed    float64
	// MaxSpeed is the class's max_speed (world units a second).
	MaxSpeed float64
	// Warp: the ship is warping (Tolerances.WarpSpeed applies).
	Warp bool
	// Exempt: something the rules cannot judge moved the ship (a
	// collision, a tractor, its death); the track starts again.
	Exempt bool
}

// Reset forgets every position (a new ship).
func (t *Track) Reset() { *t = Track{} }

// limit is the speed a motion may reach.
func limit(tol *Tolerances, m *Motion) float64 {
	v := tol.SpeedLimit(m.MaxSpeed)
	if m.Warp {
		v = max(v, tol.WarpSpeed*(1+tol.SpeedSlack))
	}
	return v
}

// Judge returns the verdict on one update: Speed when the owner claims a
// speed beyond the limit or a position further than the limit allows from
// any kept one, Teleport when the jump from the newest is further by more
// than TeleportSlack. A track whose updates have been refused for
// Reanchor judges the next one plausible and starts again from it.
func (t *Track) Judge(tol *Tolerances, m *Motion) Verdict {
	if m.Exempt {
		return Verdict{}
	}
	v := limit(tol, m)
	var out Verdict
	if m.HasSpeed && math.Abs(m.Speed) > v {
		out = Verdict{Rule: Speed, Value: math.Abs(m.Speed), Limit: v}
	}
	if m.HasPos {
		if !t.rejectedAt.IsZero() && m.At.Sub(t.rejectedAt) >= tol.Reanchor {
			t.reanchor = true
			return Verdict{}
		}
		if p := t.judgePos(tol, m, v); !p.OK() {
			out = p
		}
	}
	if !out.OK() && t.rejectedAt.IsZero() {
		t.rejectedAt = m.At
	}
	return out
}

func (t *Track) judgePos(tol *Tolerances, m *Motion, v float64) Verdict {
	jitter := tol.Jitter.Seconds()
	if !m.Absolute {
		// A delta is from the owner's last absolute position, which may be
		// newer than the host's Base (it may have been lost): the ship
		// can have flown at most this far since Base was sent.
		if m.BaseAt.IsZero() {
			return Verdict{}
		}
		return judgeDist(tol, dist(m.Pos, m.Base), m.At.Sub(m.BaseAt).Seconds()+jitter, v, true)
	}
	if !t.hasLast {
		return Verdict{}
	}
	at := m.At.UnixNano()
	worst := judgeDist(tol, dist(m.Pos, t.last.pos), secs(at-t.last.at)+jitter, v, true)
	if worst.Rule == Teleport {
		return worst
	}
	// The kept positions 1, 2, 4, 8 and 16 back: baselines from 0.4 s to
	// the whole track, each twice the last, at a third of the cost of all
	// sixteen.
	for back := 1; back <= t.n; back *= 2 {
		// Squared distances first: a square root only for a position
		// too far, which an honest ship never is.
		s := &t.ring[(t.next-back+trackLen)%trackLen]
		dt := secs(at-s.at) + jitter
		allowed := v*dt + tol.PositionSlack
		if d2 := dist2(m.Pos, s.pos); d2 <= allowed*allowed {
			continue
		}
		if vd := judgeDist(tol, dist(m.Pos, s.pos), dt, v, false); vd.Rule == Speed && vd.Value > worst.Value {
			worst = vd
		}
	}
	return worst
}

// judgeDist judges a distance d flown in (at most) dt seconds at speed
// limit v; a jump (a comparison with the newest position) beyond the
// TeleportSlack is a teleport.
func judgeDist(tol *Tolerances, d, dt, v float64, jump bool) Verdict {
	if math.IsNaN(d) {
		d = math.Inf(1) // a position that is no number is as far as can be
	}
	allowed := v*dt + tol.PositionSlack
	switch {
	case d <= allowed:
		return Verdict{}
	case jump && d > allowed+tol.TeleportSlack:
		return Verdict{Rule: Teleport, Value: d, Limit: allowed + tol.TeleportSlack}
	}
	return Verdict{Rule: Speed, Value: (d - tol.PositionSlack) / dt, Limit: v}
}

// Accept takes an update the host used: its absolute position becomes the
// newest, and is kept as a baseline when the last kept one is old enough.
// An exempt update, or the first after a re-anchoring, starts the track
// again from it.
func (t *Track) Accept(m *Motion) {
	t.rejectedAt = time.Time{}
	if m.Exempt || t.reanchor {
		t.n, t.next, t.reanchor = 0, 0, false
		if !m.HasPos || !m.Absolute {
			t.hasLast = false
			return
		}
	}
	if !m.HasPos || !m.Absolute {
		return
	}
	s := sample{at: m.At.UnixNano(), pos: m.Pos}
	t.last, t.hasLast = s, true
	if t.n > 0 && s.at-t.ring[(t.next+trackLen-1)%trackLen].at < int64(trackSpacing) {
		return
	}
	t.ring[t.next] = s
	t.next = (t.next + 1) % trackLen
	t.n = min(t.n+1, trackLen)
}

func dist(a, b [3]float32) float64 { return math.Sqrt(dist2(a, b)) }

func secs(ns int64) float64 { return float64(ns) / 1e9 }

func dist2(a, b [3]float32) float64 {
	x, y, z := float64(a[0]-b[0]), float64(a[1]-b[1]), float64(a[2]-b[2])
	return x*x + y*y + z*z
}
