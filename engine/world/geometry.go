package world

import (
	"math"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// Ship geometry for the weapon model. Stock hit detection runs on the NIF
// models, whose meshes and shield ellipsoids are in no published file
// (simulation.md 15); the host approximates them from the hardpoint data it
// has, as the spec suggests: the subsystem spheres of subsystems.json. A
// ship is an ellipsoid fitted around them (its shield and what shots
// collide with), and inside it a shot lands on the first subsystem sphere
// on its path, or at its closest approach to the centre.
//
// The model frame is the stock one: +X starboard, +Y forward, +Z up
// (data/README.md); the world frame is the owners' StateUpdates'.
//
// Top to bottom: a class's shape, the paths that meet ships (a beam's ray,
// a projectile's flight), where a shot enters and lands, the ship frames,
// and the vector helpers every file of the package uses.

// shape is a class's approximate geometry in its model frame.
type shape struct {
	centre [3]float32
	axes   [3]float32 // semi-axes of the ellipsoid
	radius float32    // bounding sphere around the model origin
}

// minAxisShare keeps a flat class (one row of subsystems) from getting an
// ellipsoid with a near-zero axis: every semi-axis is at least this share
// of the longest.
const minAxisShare = 0.25

// shapeOf fits the geometry of a class from its subsystem spheres at their
// run-time positions (phaser banks on their strips).
func shapeOf(c *ships.Class) shape {
	lo := [3]float32{-0.5, -0.5, -0.5}
	hi := [3]float32{0.5, 0.5, 0.5}
	for i := range c.Subsystems {
		s := &c.Subsystems[i]
		if s.Data == nil {
			continue
		}
		for k := range 3 {
			lo[k] = min(lo[k], s.Position[k]-s.Data.Radius)
			hi[k] = max(hi[k], s.Position[k]+s.Data.Radius)
		}
	}
	var s shape
	var longest float32
	for k := range 3 {
		s.centre[k] = (lo[k] + hi[k]) / 2
		s.axes[k] = (hi[k] - lo[k]) / 2
		longest = max(longest, s.axes[k])
	}
	for k := range 3 {
		s.axes[k] = max(s.axes[k], minAxisShare*longest)
	}
	s.radius = boundingRadius(c)
	return s
}

// BoundingRadius is a class's bounding radius in world units: the stock
// value where one was measured (measuredRadius), else an estimate from its
// subsystems, which all lie inside the hull. The data set has no bounding
// radius (data/README.md caveats), and the estimate is low for the big
// hulls (simulation.md 15: a Galaxy's subsystems reach 3.67 of its 4.366).
func BoundingRadius(c *ships.Class) float32 { return boundingRadius(c) }

func boundingRadius(c *ships.Class) float32 {
	var r float32 = 1
	for i := range c.Subsystems {
		if s := &c.Subsystems[i]; s.Data != nil {
			r = max(r, norm(s.Position)+s.Data.Radius)
		}
	}
	return max(r, measuredRadius[c.Name])
}

// nearestOnPath returns the first live modelled ship other than self that
// the path meets, and where.
func (w *World) nearestOnPath(self *Object, from, dir [3]float32, length, inflate float32) (*Object, trace) {
	var best *Object
	var bestTr trace
	for _, x := range w.fleet {
		if x == self || x.sim.dead || x.host == nil && !x.state.hasPos {
			continue
		}
		if tr, ok := traceShip(x, from, dir, length, inflate); ok && (best == nil || tr.t < bestTr.t) {
			best, bestTr = x, tr
		}
	}
	return best, bestTr
}

// trace is where a straight path meets a ship.
type trace struct {
	t      float32    // distance along the path to where it enters the ship
	entry  [3]float32 // the entry point on the ellipsoid, model frame
	point  [3]float32 // where the shot lands: the hit set's centre, model frame
	facing int        // the shield facing the entry point selects
}

// traceShip intersects the path from world position from along the unit
// direction dir with ship o's ellipsoid grown by inflate (a bolt's half
// length). ok says whether the path enters the ship within length; where
// the shot lands is searched along the whole straight path through the
// ship, not only within length (simulation.md 5.3 "Where the hit point
// is", Correction 42): a projectile's length is one tick's flight, which
// decides only whether it hits this tick.
func traceShip(o *Object, from, dir [3]float32, length, inflate float32) (tr trace, ok bool) {
	sh := &o.sim.shape
	// A cheap bounding-sphere test first: most paths miss most ships.
	rel := sub3(o.pos(), from)
	along := dot3(rel, dir)
	reach := sh.radius + inflate
	if along < -reach || along > length+reach {
		return tr, false
	}
	if d2 := dot3(rel, rel) - along*along; d2 > reach*reach {
		return tr, false
	}
	p := sub3(modelPoint(o, from), sh.centre)
	d := toLocal(o, dir)
	t0, t1, ok := ellipsoidHit(p, d, sh.axes, inflate)
	if !ok || t1 < 0 || t0 > length {
		return tr, false
	}
	t0 = max(t0, 0)
	tr.t = t0
	tr.entry = add3(add3(p, scale3(d, t0)), sh.centre)
	tr.facing = facingAt(sh, tr.entry)
	tr.point = landing(o, add3(p, sh.centre), d, t0, t1)
	return tr, true
}

// ellipsoidHit solves where the line p + t d (relative to the centre)
// crosses the ellipsoid with the given semi-axes grown by inflate; t0 ≤ t1.
func ellipsoidHit(p, d, axes [3]float32, inflate float32) (t0, t1 float32, ok bool) {
	var a, b, c float64
	for k := range 3 {
		ax := float64(axes[k] + inflate)
		pk, dk := float64(p[k])/ax, float64(d[k])/ax
		a += dk * dk
		b += 2 * pk * dk
		c += pk * pk
	}
	c--
	if a == 0 {
		return 0, 0, false
	}
	disc := b*b - 4*a*c
	if disc < 0 {
		return 0, 0, false
	}
	s := math.Sqrt(disc)
	return float32((-b - s) / (2 * a)), float32((-b + s) / (2 * a)), true
}

// landing is where a shot that entered the ship between t0 and t1 along
// p + t d (model frame) lands: on the first subsystem sphere it meets, at
// the subsystems' run-time positions, else at its closest approach to the
// ellipsoid's centre (simulation.md 5.3 "Where the hit point is"). The
// spheres stand in for the model's surface, so every subsystem with a
// sphere counts — a destroyed or untargetable one is still part of the
// hull the shot strikes — except the hull subsystem itself: its sphere is
// no surface, and it would hide the warp core and what else lies inside it
// [measured §6.1 H2: a shot from below a Galaxy reaches its warp core]
// (Correction 42).
func landing(o *Object, p, d [3]float32, t0, t1 float32) [3]float32 {
	c := o.Model.Class()
	best := float32(math.Inf(1))
	for i := range c.Subsystems {
		s := &c.Subsystems[i]
		if s.Data == nil || i == c.Hull {
			continue
		}
		rel := sub3(s.Position, p)
		along := dot3(rel, d)
		miss := dot3(rel, rel) - along*along
		r2 := s.Data.Radius * s.Data.Radius
		if miss > r2 {
			continue
		}
		t := along - float32(math.Sqrt(float64(r2-miss)))
		if t < t0 {
			t = t0 // the path starts inside this sphere
		}
		if t <= t1 && t < best && along+s.Data.Radius >= t0 {
			best = t
		}
	}
	if math.IsInf(float64(best), 1) {
		best = min(max(dot3(sub3(o.sim.shape.centre, p), d), t0), t1)
	}
	return add3(p, scale3(d, best))
}

// facingAt returns the shield facing an entry point selects (simulation.md
// 5.5, Correction 37): with u the point in the ellipsoid's unit-sphere
// coordinates and P the point relative to the centre, the largest signed
// component of 2u + P/|P| (+Y front, −Y rear, +Z top, −Z bottom, −X port,
// +X starboard) [code: FUN_0056a690, FUN_0056a8d0].
func facingAt(sh *shape, entry [3]float32) int {
	p := sub3(entry, sh.centre)
	n := norm(p)
	if n == 0 {
		return facingFront
	}
	var v [3]float32
	for k := range 3 {
		v[k] = 2*p[k]/sh.axes[k] + p[k]/n
	}
	best, f := v[1], facingFront
	for _, c := range [...]struct {
		v float32
		f int
	}{{-v[1], facingRear}, {v[2], facingTop}, {-v[2], facingBottom}, {-v[0], facingLeft}, {v[0], facingRight}} {
		if c.v > best {
			best, f = c.v, c.f
		}
	}
	return f
}

// pointToward returns where a shot from world position src toward the
// ship's centre lands, in the model frame, with the facing it meets; for
// a shot with no path of its own (the other ship of a collision).
func pointToward(o *Object, src [3]float32) [3]float32 {
	dir := sub3(o.pos(), src)
	n := norm(dir)
	if n == 0 {
		return o.sim.shape.centre
	}
	if tr, ok := traceShip(o, src, scale3(dir, 1/n), n+o.sim.shape.radius, 0); ok {
		return tr.entry
	}
	return o.sim.shape.centre
}

// frame returns a ship's axes in the world: starboard, forward and up. A
// player's ship whose owner has not reported its orientation yet has the
// world's axes.
func (o *Object) frame() (right, fwd, up [3]float32) {
	f, u, ok := o.axes()
	if !ok {
		return [3]float32{1, 0, 0}, [3]float32{0, 1, 0}, [3]float32{0, 0, 1}
	}
	return cross3(f, u), f, u
}

// axes is the ship's orientation: exact for a host ship, the owner's last
// Dir3 vectors for a player's.
func (o *Object) axes() (fwd, up [3]float32, ok bool) {
	if o.host != nil {
		return o.host.move.fwd, o.host.move.up, true
	}
	st := &o.state
	if !st.hasFwd || !st.hasUp {
		return fwd, up, false
	}
	fx, fy, fz := codec.DecodeDir3(st.fwd)
	ux, uy, uz := codec.DecodeDir3(st.up)
	return [3]float32{fx, fy, fz}, [3]float32{ux, uy, uz}, true
}

// pos is where the world places a ship: exact for a host ship; for a
// player's, the owner's last absolute position plus the last delta sent
// from it (StateUpdate flag 0x02, opcodes.md 3.3), as a client places it.
func (o *Object) pos() [3]float32 {
	if o.host != nil {
		return o.host.move.pos
	}
	return add3(o.state.pos, o.state.offset)
}

// toLocal turns a world direction into the ship frame (+X right, +Y
// forward, +Z up) from its orientation; without one it returns the
// direction unchanged.
func toLocal(o *Object, v [3]float32) [3]float32 {
	r, f, u := o.frame()
	return [3]float32{dot3(v, r), dot3(v, f), dot3(v, u)}
}

// toWorld turns a ship-frame direction into the world.
func toWorld(o *Object, v [3]float32) [3]float32 {
	r, f, u := o.frame()
	return [3]float32{
		v[0]*r[0] + v[1]*f[0] + v[2]*u[0],
		v[0]*r[1] + v[1]*f[1] + v[2]*u[1],
		v[0]*r[2] + v[1]*f[2] + v[2]*u[2],
	}
}

// localDir turns a world direction into the frame of a ship facing fwd
// with up vector up.
func localDir(fwd, up codec.Dir3, v [3]float32) [3]float32 {
	fx, fy, fz := fwd.Vector()
	ux, uy, uz := up.Vector()
	f, u := [3]float32{fx, fy, fz}, [3]float32{ux, uy, uz}
	r := cross3(f, u)
	return [3]float32{dot3(v, r), dot3(v, f), dot3(v, u)}
}

// modelPoint turns a world position into a point of the ship's model.
func modelPoint(o *Object, p [3]float32) [3]float32 { return toLocal(o, sub3(p, o.pos())) }

// worldPoint turns a point of the ship's model into a world position.
func worldPoint(o *Object, p [3]float32) [3]float32 { return add3(o.pos(), toWorld(o, p)) }

func add3(a, b [3]float32) [3]float32 { return [3]float32{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

func sub3(a, b [3]float32) [3]float32 { return [3]float32{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

func scale3(v [3]float32, k float32) [3]float32 { return [3]float32{v[0] * k, v[1] * k, v[2] * k} }

func dot3(a, b [3]float32) float32 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

func cross3(a, b [3]float32) [3]float32 {
	return [3]float32{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func norm(v [3]float32) float32 {
	return float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
}

func unit3(v, fallback [3]float32) [3]float32 {
	n := norm(v)
	if !(n > 1e-6) || !finite(n) {
		return fallback
	}
	return [3]float32{v[0] / n, v[1] / n, v[2] / n}
}

func finite(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }

func abs32(f float32) float32 { return float32(math.Abs(float64(f))) }

// rotate turns v about the unit axis k by a radians (Rodrigues).
func rotate(v, k [3]float32, a float32) [3]float32 {
	s, c := float32(math.Sin(float64(a))), float32(math.Cos(float64(a)))
	kxv := cross3(k, v)
	kv := dot3(k, v) * (1 - c)
	return [3]float32{v[0]*c + kxv[0]*s + k[0]*kv, v[1]*c + kxv[1]*s + k[1]*kv, v[2]*c + kxv[2]*s + k[2]*kv}
}

// orthonormalUp makes up perpendicular to the unit fwd (Gram-Schmidt).
func orthonormalUp(fwd, up [3]float32) [3]float32 {
	d := dot3(up, fwd)
	u := unit3([3]float32{up[0] - d*fwd[0], up[1] - d*fwd[1], up[2] - d*fwd[2]}, [3]float32{})
	if u != ([3]float32{}) {
		return u
	}
	// up was along fwd: any perpendicular will do.
	alt := [3]float32{0, 0, 1}
	if abs32(fwd[2]) > 0.9 {
		alt = [3]float32{1, 0, 0}
	}
	d = dot3(alt, fwd)
	return unit3([3]float32{alt[0] - d*fwd[0], alt[1] - d*fwd[1], alt[2] - d*fwd[2]}, [3]float32{0, 0, 1})
}

// normQuat returns q normalised; a zero or invalid quaternion is the
// identity.
func normQuat(q [4]float32) [4]float32 {
	n := math.Sqrt(float64(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]))
	if !(n > 1e-6) || math.IsInf(n, 0) {
		return [4]float32{1, 0, 0, 0}
	}
	k := float32(1 / n)
	return [4]float32{q[0] * k, q[1] * k, q[2] * k, q[3] * k}
}

// quatAxes returns the forward (+Y) and up (+Z) axes of the ship frame
// rotated by the unit quaternion q (w, x, y, z).
func quatAxes(q [4]float32) (fwd, up [3]float32) {
	w, x, y, z := q[0], q[1], q[2], q[3]
	// Columns 2 and 3 of the rotation matrix of q.
	fwd = [3]float32{2 * (x*y - w*z), 1 - 2*(x*x+z*z), 2 * (y*z + w*x)}
	up = [3]float32{2 * (x*z + w*y), 2 * (y*z - w*x), 1 - 2*(x*x+y*y)}
	return unit3(fwd, [3]float32{0, 1, 0}), unit3(up, [3]float32{0, 0, 1})
}
