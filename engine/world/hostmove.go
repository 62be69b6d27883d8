package world

import (
	"errors"
	"math"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// The host flies its own ships: a goal (a point or a ship to close on), a
// heading to hold (a direction, a point or a ship to face) and a speed; each
// tick the ship turns toward its heading at the class's angular velocity,
// changes speed at its acceleration and moves along its nose. What it did
// reaches the players in the host's StateUpdates exactly as an owner's
// movement would (simulation.md 4.1): the absolute position when it was
// rebased (every second, as the stock writer's force resend), the delta from
// it in between, forward and up when they change, and the speed.

// maxDelta is the longest position delta sent before the chain is rebased
// with an absolute position: CF16 holds far more, but Dir3's 1/127
// direction steps make long deltas coarse.
const maxDelta float32 = 200

// DefaultArrival is how close a ship flying to a point must come before
// it counts as there, in world units.
const DefaultArrival float32 = 5

// hostMove is a host ship's exact movement state and its orders.
type hostMove struct {
	pos, fwd, up [3]float32
	speed        float32 // world units per second along fwd (negative: astern)

	wantSpeed float32
	goal      [3]float32
	goalID    int32 // a ship to close on (0: goal is a point)
	hasGoal   bool
	arrival   float32
	face      [3]float32 // a direction, or a point when faceAt
	faceID    int32      // a ship to face
	faceAt    bool
	hasFace   bool

	maxSpeed, maxAccel, maxTurn float32

	base   [3]float32 // the absolute position the wire's deltas start from
	baseAt time.Time
}

func (m *hostMove) init(c *ships.Class, pos, fwd, up [3]float32) {
	m.pos, m.fwd, m.up = pos, fwd, orthonormalUp(fwd, up)
	if !c.Stationary {
		m.maxSpeed, m.maxAccel, m.maxTurn = c.MaxSpeed, c.MaxAccel, c.MaxAngularVelocity
	}
}

// ErrNotHostShip is the answer of the host-ship controls for any other
// object, and for a host ship that is gone or destroyed.
var ErrNotHostShip = errors.New("not a live host ship")

func (w *World) liveHost(o *Object) (*hostShip, error) {
	if o == nil || o.host == nil || w.objects[o.ID] != o || !o.Alive() {
		return nil, ErrNotHostShip
	}
	return o.host, nil
}

// MoveTo orders a host ship to fly to a point (or, with target set, to
// close on that object) at speed (world units per second; 0 or less: the
// class's top speed) and to stop within arrival units (0: DefaultArrival).
func (w *World) MoveTo(o *Object, point [3]float32, target *Object, speed, arrival float32) error {
	w.sync()
	h, err := w.liveHost(o)
	if err != nil {
		return err
	}
	m := &h.move
	m.hasGoal, m.goal, m.goalID = true, point, 0
	if target != nil {
		m.goalID = target.ID
	}
	if !(speed > 0) || speed > m.maxSpeed {
		speed = m.maxSpeed
	}
	if !(arrival > 0) {
		arrival = DefaultArrival
	}
	m.wantSpeed, m.arrival = speed, arrival
	m.hasFace = false
	return nil
}

// Face orders a host ship to turn its nose along a direction (or toward a
// point with at set, or toward an object with target set) and hold it; any
// goal is dropped, the speed kept.
func (w *World) Face(o *Object, v [3]float32, at bool, target *Object) error {
	w.sync()
	h, err := w.liveHost(o)
	if err != nil {
		return err
	}
	m := &h.move
	m.hasGoal = false
	m.hasFace, m.face, m.faceAt, m.faceID = true, v, at, 0
	if target != nil {
		m.faceID = target.ID
	}
	return nil
}

// SetSpeed sets a host ship's speed along its nose (world units per
// second, clamped to the class's top speed; negative flies astern) and
// drops any goal.
func (w *World) SetSpeed(o *Object, speed float32) error {
	w.sync()
	h, err := w.liveHost(o)
	if err != nil {
		return err
	}
	m := &h.move
	m.hasGoal = false
	m.wantSpeed = max(-m.maxSpeed, min(m.maxSpeed, speed))
	return nil
}

// Stop drops every movement order: the ship slows to a halt and holds its
// heading.
func (w *World) Stop(o *Object) error {
	w.sync()
	h, err := w.liveHost(o)
	if err != nil {
		return err
	}
	h.move.hasGoal, h.move.hasFace, h.move.wantSpeed = false, false, 0
	return nil
}

// moveTick flies a host ship for dt seconds.
func (w *World) moveTick(o *Object, dt float32) {
	m := &o.host.move
	if m.hasGoal && m.goalID != 0 {
		if t := w.objects[m.goalID]; t != nil && t.Alive() && t.state.hasPos {
			m.goal = t.pos()
		} else {
			m.hasGoal, m.wantSpeed = false, 0
		}
	}
	if m.hasFace && m.faceID != 0 {
		if t := w.objects[m.faceID]; t != nil && t.Alive() && t.state.hasPos {
			m.face, m.faceAt = t.pos(), true
		} else {
			m.hasFace = false
		}
	}
	var want [3]float32
	heading := false
	speed := m.wantSpeed
	if m.hasGoal {
		d := sub3(m.goal, m.pos)
		dist := norm(d)
		if dist <= m.arrival {
			if m.goalID == 0 {
				m.hasGoal = false
				m.wantSpeed = 0
			}
			speed = 0
		} else {
			want, heading = scale3(d, 1/dist), true
			// Brake in time to stop at the goal, and hold back while the
			// nose points away from it.
			speed = min(speed, float32(math.Sqrt(float64(2*m.maxAccel*(dist-m.arrival)))))
			speed *= max(0, dot3(m.fwd, want))
		}
	} else if m.hasFace {
		want = m.face
		if m.faceAt {
			want = sub3(m.face, m.pos)
		}
		if n := norm(want); n > 1e-6 {
			want, heading = scale3(want, 1/n), true
		}
	}
	if heading && m.maxTurn > 0 {
		m.fwd, m.up = turnToward(m.fwd, m.up, want, m.maxTurn*dt)
	}
	step := m.maxAccel * dt
	switch {
	case m.speed < speed:
		m.speed = min(speed, m.speed+step)
	case m.speed > speed:
		m.speed = max(speed, m.speed-step)
	}
	if m.speed != 0 {
		for i := range m.pos {
			m.pos[i] += m.fwd[i] * m.speed * dt
		}
	}
	m.publish(o, w.now, false)
}

// publish writes the exact state into the wire state the StateUpdate
// writer sends, as an owner's updates would fill it.
func (m *hostMove) publish(o *Object, now time.Time, rebase bool) {
	st := &o.state
	if rebase || !st.hasPos || (m.pos != m.base && (now.Sub(m.baseAt) >= forceResend || norm(sub3(m.pos, m.base)) > maxDelta)) {
		if !st.hasPos || st.pos != m.pos {
			st.posSeq++
		}
		st.pos, st.hasPos, st.hasDelta = m.pos, true, false
		m.base, m.baseAt = m.pos, now
	} else if m.pos != m.base {
		d := sub3(m.pos, m.base)
		v := codec.NewDirMag(d[0], d[1], d[2])
		if !st.hasDelta || v != st.delta {
			st.delta, st.hasDelta = v, true
			st.deltaSeq++
		}
	}
	if f := codec.NewDir3(m.fwd[0], m.fwd[1], m.fwd[2]); !st.hasFwd || f != st.fwd {
		st.fwd, st.hasFwd = f, true
		st.fwdSeq++
	}
	if u := codec.NewDir3(m.up[0], m.up[1], m.up[2]); !st.hasUp || u != st.up {
		st.up, st.hasUp = u, true
		st.upSeq++
	}
	if s := codec.EncodeCF16(m.speed); !st.hasSpd || s != st.speed {
		st.speed, st.hasSpd = s, true
		st.speedSeq++
	}
	st.lastUpdate = now
}

// turnToward rotates fwd (and up with it) toward want by at most step
// radians.
func turnToward(fwd, up, want [3]float32, step float32) ([3]float32, [3]float32) {
	c := max(-1, min(1, dot3(fwd, want)))
	angle := float32(math.Acos(float64(c)))
	if angle < 1e-5 {
		return fwd, up
	}
	axis := cross3(fwd, want)
	if n := norm(axis); n > 1e-6 {
		axis = scale3(axis, 1/n)
	} else {
		axis = up // straight behind: turn about the up axis
	}
	a := min(angle, step)
	fwd = unit3(rotate(fwd, axis, a), fwd)
	up = orthonormalUp(fwd, rotate(up, axis, a))
	return fwd, up
}
