package world

import (
	"math"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/fairplay"
	"github.com/bcserver/bcserver/engine/ships"
)

// The world's part of the fair-play rules (engine/fairplay, README "Fair
// play"): it holds what a judgement needs — each ship's class, positions,
// orientation, the charge of its cannons, the load of its tubes and its
// magazine — and judges a player's StateUpdate, bolt or torpedo before
// the engine relays it. The judgements change nothing; the engine decides
// what to do with a verdict. With tolerances set, the damage gates of
// PulseFired and TorpedoFired follow the same rules, so a shot judged
// plausible always counts.

// SetFairPlay sets the tolerances the world judges players with; nil
// judges nothing, and the damage gates stay strict (a bolt only on the
// charge the host holds).
func (w *World) SetFairPlay(t *fairplay.Tolerances) {
	if t == nil {
		w.fair = nil
		return
	}
	c := *t
	w.fair = &c
}

// JudgeMove judges an owner's StateUpdate for one of its ships (arrived
// at now): its speed and position against the class's max_speed, unless
// something the rules cannot judge moved the ship (a collision, a tractor,
// its death). The world takes the update's position into the ship's track
// only when StateUpdate applies it.
func (w *World) JudgeMove(now time.Time, owner *Owner, m *codec.StateUpdate) fairplay.Verdict {
	o := w.objects[m.ObjectID]
	if w.fair == nil || o == nil {
		return fairplay.Verdict{}
	}
	mo, ok := w.motion(o, now, m)
	if !ok {
		return fairplay.Verdict{}
	}
	return o.track.Judge(w.fair, &mo)
}

// motion is what the rules know of ship o when update m arrives at now.
func (w *World) motion(o *Object, now time.Time, m *codec.StateUpdate) (mo fairplay.Motion, ok bool) {
	if w.fair == nil || o.Model == nil || !o.IsShip() || o.host != nil {
		return mo, false
	}
	st := &o.state
	mo.At, mo.MaxSpeed = now, float64(o.Model.Class().MaxSpeed)
	switch {
	case m.Flags&codec.StatePosition != 0:
		mo.HasPos, mo.Absolute, mo.Pos = true, true, m.Position
	case m.Flags&codec.StateDelta != 0 && st.hasPos:
		if x, y, z := m.Delta.Vector(); finite(x) && finite(y) && finite(z) {
			mo.HasPos, mo.Pos = true, add3(st.pos, [3]float32{x, y, z})
			mo.Base, mo.BaseAt = st.pos, st.posAt
		}
	}
	if m.Flags&codec.StateSpeed != 0 {
		mo.HasSpeed, mo.Speed = true, float64(codec.DecodeCF16(m.Speed))
	}
	mo.Warp = now.Before(o.warpUntil) && warpWorks(o.Model)
	mo.Exempt = o.sim.dead ||
		!o.sim.tractoredAt.IsZero() && now.Sub(o.sim.tractoredAt) <= tractorHold+w.fair.TractorGrace ||
		!o.sim.collidedAt.IsZero() && now.Sub(o.sim.collidedAt) <= w.fair.CollisionGrace
	return mo, true
}

// warpWorks reports whether a ship's warp engines can take it to warp.
func warpWorks(m *ships.Ship) bool {
	c := m.Class()
	for i := range c.Subsystems {
		if c.Subsystems[i].Type() == ships.TypeWarpEngine {
			return !SubsystemDisabled(m, i)
		}
	}
	return false
}

// NoteWarp records an owner's StartWarp 0x10: its ship may move at warp
// speed for the WarpGrace that follows.
func (w *World) NoteWarp(now time.Time, owner *Owner) {
	if o := w.ShipOf(owner); o != nil && w.fair != nil {
		o.warpUntil = now.Add(w.fair.WarpGrace)
	}
}

// JudgePulse judges an owner's PulseFire 0x1A (arrived at now; at is when
// it could have arrived had nothing been lost, net.Conn.DeliveredAt): the
// cannon's charge must cover the bolt, and the bolt must leave inside the
// cannon's firing arc.
func (w *World) JudgePulse(now, at time.Time, owner *Owner, m *codec.PulseFire) fairplay.Verdict {
	if w.fair == nil {
		return fairplay.Verdict{}
	}
	o, _, b := w.playerWeapon(owner, m.CannonID, ships.WeaponPulse)
	if b == nil {
		return fairplay.Verdict{} // no such cannon or not able to fire: the damage gate refuses it
	}
	d := bankData(o, b)
	if charge, allow, credit := w.pulseCover(o, b, d, now, at); charge+credit+allow < pulseCost(d) {
		return fairplay.Verdict{Rule: fairplay.Charge, Value: float64(charge + credit), Limit: float64(pulseCost(d) - allow)}
	}
	x, y, z := m.Dir.Vector()
	return w.judgeArc(o, d, [3]float32{x, y, z}, now, at)
}

// pulseCover returns what a cannon has to pay a bolt with: its charge at
// now, the allowance it may fall below the cost by (the recharge of
// FireLag), and the credit a bolt that arrived late earns (the recharge a
// full cannon could not take since the bolt was sent). A bolt is
// plausible when charge + credit + allow covers its cost. Without
// tolerances it is the strict gate.
func (w *World) pulseCover(o *Object, b *weaponBank, d *ships.SubsystemData, now, at time.Time) (charge, allow, credit float32) {
	if w.fair == nil {
		return b.charge, pulseChargeSlack, 0
	}
	rate := d.RechargeRate * o.Model.ConditionFraction(b.sub)
	avail := b.charge
	if dt := now.Sub(o.sim.lastTick); dt > 0 {
		avail += rate * float32(dt.Seconds()) // the recharge since the last tick
	}
	avail = min(d.MaxCharge, avail)
	if b.charge >= d.MaxCharge-pulseChargeSlack && at.Before(now) {
		credit = rate * float32(now.Sub(at).Seconds())
	}
	return avail, rate*float32(w.fair.FireLag.Seconds()) + pulseChargeSlack, credit
}

// orientLen bounds the orientations a ship keeps for judging arcs, and
// orientSpacing is the least time between two kept ones (the newest is
// always the latest): 24 orientations a second apart reach back past the
// default FireHold, the earliest a bolt can be taken to have left.
const (
	orientLen     = 24
	orientSpacing = int64(time.Second)
)

// orientTrack is a ship's recent orientations, as its owner sent them, with
// when each arrived (Unix nanoseconds).
type orientTrack struct {
	at      [orientLen]int64
	fwd, up [orientLen]codec.Dir3
	n, next int
}

// add keeps the orientation of st, arrived at now: in place of the newest
// when that one is recent, so the newest is always the latest.
func (r *orientTrack) add(now time.Time, st *moveState) {
	if !st.hasFwd || !st.hasUp {
		return
	}
	t := now.UnixNano()
	i := (r.next + orientLen - 1) % orientLen
	if r.n == 0 || t-r.at[i] >= orientSpacing {
		i = r.next
		r.next = (r.next + 1) % orientLen
		r.n = min(r.n+1, orientLen)
	}
	r.at[i], r.fwd[i], r.up[i] = t, st.fwd, st.up
}

// judgeArc judges a bolt's direction against the cannon's arc. The bolt
// left some time in the window from at − Jitter (the earliest it can have
// been sent) to now, when the ship had an orientation near one the host
// kept: each moment of the window is nearest in time to one kept
// orientation, and the ship can have turned from it by at most its class's
// max_angular_velocity × Overdrive over that distance in time plus Jitter
// (the orientation's own delay). The bolt is plausible if it is inside the
// arc, so widened (and by ArcSlack), for one of them. Without a kept
// orientation nothing is judged.
func (w *World) judgeArc(o *Object, d *ships.SubsystemData, dir [3]float32, now, at time.Time) fairplay.Verdict {
	r := &o.state.orient
	if r.n == 0 || d.ArcWidth == [2]float32{} {
		return fairplay.Verdict{}
	}
	t := w.fair
	turn := float64(o.Model.Class().MaxAngularVelocity) * t.Overdrive
	from, end := at.UnixNano()-int64(t.Jitter), now.UnixNano()
	idx := func(k int) int { return (r.next - 1 - k + 2*orientLen) % orientLen } // newest first
	tol := 0.0
	for k := range r.n {
		i := idx(k)
		ti := r.at[i]
		// The moments of the window nearest to this orientation.
		hi, lo := end, from
		if k > 0 {
			hi = min(hi, (ti+r.at[idx(k-1)])/2)
		}
		if k+1 < r.n {
			lo = max(lo, (ti+r.at[idx(k+1)])/2)
		}
		if hi < from {
			break // this and every older orientation stood before the bolt can have left
		}
		if lo > hi {
			continue
		}
		far := max(hi-ti, ti-lo, 0)
		tol = t.ArcSlack + turn*(float64(far)/1e9+t.Jitter.Seconds())
		if tol >= math.Pi || inArcLocal(d, localDir(r.fwd[i], r.up[i], dir), tol) {
			return fairplay.Verdict{}
		}
	}
	// How far off the cannon's own forward it went, for the log.
	fwd := toWorld(o, unit3(d.Forward, [3]float32{0, 1, 0}))
	off := math.Acos(float64(max(-1, min(1, dot3(unit3(dir, fwd), fwd)))))
	half := math.Max(math.Abs(float64(d.ArcWidth[0])), math.Abs(float64(d.ArcWidth[1])))
	return fairplay.Verdict{Rule: fairplay.Arc, Value: off, Limit: half + tol}
}

// JudgeTorpedo judges an owner's TorpedoFire 0x19 (arrived at now, could
// have arrived at at): the tube must be loaded, or be within FireLag of
// the end of its reload, and the selected type must have torpedoes left.
func (w *World) JudgeTorpedo(now, at time.Time, owner *Owner, m *codec.TorpedoFire) fairplay.Verdict {
	if w.fair == nil {
		return fairplay.Verdict{}
	}
	o, s, b := w.playerWeapon(owner, m.TubeID, ships.WeaponTorpedo)
	if b == nil {
		return fairplay.Verdict{}
	}
	if len(s.ammo) > 0 && s.ammoLeft() <= 0 {
		return fairplay.Verdict{Rule: fairplay.Ammo, Value: 0, Limit: 1}
	}
	if wait := w.tubeWait(o, b, now); wait > w.fair.FireLag.Seconds() {
		return fairplay.Verdict{Rule: fairplay.Reload, Value: wait, Limit: w.fair.FireLag.Seconds()}
	}
	return fairplay.Verdict{}
}

// tubeWait is how long a player's tube still needs at now before it can
// fire: 0 when loaded, else the rest of its reload and one more reload for
// each torpedo it fired on a reload not yet done.
func (w *World) tubeWait(o *Object, b *weaponBank, now time.Time) float64 {
	if b.loaded > 0 {
		return 0
	}
	d := bankData(o, b)
	cond := float64(o.Model.ConditionFraction(b.sub))
	if cond <= 0 {
		return math.Inf(1)
	}
	wait := (float64(b.reload)+float64(b.debt)*float64(d.ReloadDelay))/cond - math.Max(0, now.Sub(o.sim.lastTick).Seconds())
	return math.Max(0, wait)
}

// playerWeapon finds the weapon with object id id on the owner's live
// ship in a system of the given kind, able to fire, without counting a
// refusal.
func (w *World) playerWeapon(owner *Owner, id int32, kind ships.Weapon) (*Object, *weaponSystem, *weaponBank) {
	o := w.ShipOf(owner)
	if o == nil || o.Model == nil || !o.Alive() || o.host != nil {
		return nil, nil, nil
	}
	i, ok := o.Model.SubsystemIndex(id)
	if !ok {
		return nil, nil, nil
	}
	s, b := o.bankOf(i)
	if b == nil || s.weapon != kind || bankDown(o, b) || systemDown(o, s) {
		return nil, nil, nil
	}
	return o, s, b
}
