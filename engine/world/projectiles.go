package world

import (
	"math"

	"github.com/bcserver/bcserver/engine/ships"
)

// Torpedoes and pulse bolts in flight (simulation.md 5.5, Corrections 35
// and 36). Each is launched from its weapon's position at its script's
// launch speed along the launch direction, plus the firing ship's
// velocity; a torpedo homes on its aim point for its guidance lifetime,
// its turn rate growing by its angular acceleration, then flies straight;
// a bolt flies straight. Either hits the first ship its path meets (the
// firing ship excepted) or, at the end of its lifetime, nothing: shots can
// miss. One impact is one weapon hit of the projectile's damage (a bolt's
// scaled by its cannon's setting), with the projectile's hit radius.

// projectile is a torpedo or bolt in flight.
type projectile struct {
	data     *ships.Projectile
	shooter  *Object
	firing   int // the firing player: kill credit (simulation.md 9.2)
	ref      weaponRef
	pos, dir [3]float32
	speed    float32
	target   int32
	aim      [3]float32 // the aim point in the target's model frame
	hasAim   bool
	age      float32
	lifetime float32
	turn     float32 // current turn rate, rad/s
	damage   float32
	inflate  float32 // a bolt's half length (data/README.md bolt_length)
}

// launch puts a projectile in flight from weapon b of ship o along the
// world direction dir (its velocity adds the ship's), at the target the
// message named (0 for none, aim in the target's model frame when
// hasAim).
func (w *World) launch(o *Object, b *weaponBank, ref weaponRef, firing int, data *ships.Projectile, damage float32,
	dir [3]float32, target int32, aim *[3]float32) {
	if len(w.projectiles) >= maxProjectiles {
		w.stats.WeaponRejected.Add(1)
		return
	}
	vel := add3(scale3(unit3(dir, [3]float32{0, 1, 0}), data.LaunchSpeed), o.Velocity())
	speed := norm(vel)
	p := projectile{
		data: data, shooter: o, firing: firing, ref: ref,
		pos: weaponPos(o, b), dir: unit3(vel, dir), speed: speed, target: target,
		lifetime: data.Lifetime, damage: damage,
	}
	if aim != nil {
		p.aim, p.hasAim = *aim, true
	}
	if data.BoltLength != nil {
		p.inflate = *data.BoltLength / 2
	}
	if p.lifetime <= 0 {
		p.lifetime = torpedoLifetime
		if ref.kind == KindPulse {
			p.lifetime = defaultBoltLifetime
		}
	}
	if !(speed > 0) {
		w.stats.WeaponRejected.Add(1)
		return
	}
	w.projectiles = append(w.projectiles, p)
}

// projectileTick flies every projectile for dt seconds.
func (w *World) projectileTick(dt float32) {
	for i := 0; i < len(w.projectiles); {
		if w.fly(i, dt) {
			i++
			continue
		}
		last := len(w.projectiles) - 1
		w.projectiles[i] = w.projectiles[last]
		w.projectiles[last] = projectile{}
		w.projectiles = w.projectiles[:last]
	}
}

// fly moves projectile i for dt seconds; it reports whether the projectile
// is still in flight. A hit raises events whose handlers may launch more,
// so nothing of the slice is touched after one.
func (w *World) fly(i int, dt float32) bool {
	p := &w.projectiles[i]
	p.age += dt
	if p.age <= p.data.GuidanceLifetime {
		if x := w.objects[p.target]; x != nil && x.Alive() && x.Model != nil {
			w.steer(p, x, dt)
		}
	}
	step := p.speed * dt
	x, tr := w.nearestOnPath(p.shooter, p.pos, p.dir, step, p.inflate)
	if x != nil {
		h := hit{damage: p.damage, point: tr.point, radius: max(p.data.DamageRadiusFactor, minHitRadius),
			facing: tr.facing, hull: hullFull}
		shooter, firing, ref := p.shooter, p.firing, p.ref
		w.weaponHit(shooter, firing, x, &h, ref)
		return false
	}
	p.pos = add3(p.pos, scale3(p.dir, step))
	return p.age < p.lifetime
}

// steer turns a homing projectile toward its aim point on x: its turn rate
// grows by its angular acceleration each second, and it never turns past
// the aim.
func (w *World) steer(p *projectile, x *Object, dt float32) {
	aim := x.sim.shape.centre
	if p.hasAim {
		aim = p.aim
	}
	want := unit3(sub3(worldPoint(x, aim), p.pos), p.dir)
	cos := max(-1, min(1, dot3(p.dir, want)))
	angle := float32(math.Acos(float64(cos)))
	if angle < 1e-4 {
		p.turn = 0
		return
	}
	p.turn = min(p.turn+p.data.MaxAngularAccel*dt, angle/dt)
	turn := p.turn * dt
	if turn >= angle {
		p.dir = want
		return
	}
	// Rotate dir toward want by turn, in the plane they span.
	perp := unit3(sub3(want, scale3(p.dir, cos)), want)
	s, c := math.Sincos(float64(turn))
	p.dir = unit3(add3(scale3(p.dir, float32(c)), scale3(perp, float32(s))), want)
}
