package world

// Phaser systems and their beams (simulation.md 3.6 "Weapon system, per
// frame" and 5.5 "Beams"; Corrections 28, 34): a bank that can hit a
// target of its system's list starts a beam, which winds up, extends its
// ray, then hits the nearest damageable object on it. Damage gathers while
// the ray stays on one object and lands in quanta, each one weapon hit:
// MaxDamage × bank and system condition × min(1, MDD / d) × level factor ×
// the time gathered. The bank drains while its ray is out and stops empty.

// arcSlack widens a player ship's firing arcs (radians): the host checks
// them against the owners' latest positions and orientations, not those
// of the moment the owner's bank chose its target. Host ships' arcs are
// exact.
const arcSlack = 0.1

var (
	windupSecs = float32(beamWindup.Seconds())
	extendSecs = float32(beamExtend.Seconds())
)

// phaserTick runs a phaser system for dt seconds: the beams in progress,
// then the stock per-frame pass, which drops targets that are gone, dead
// or cloaked and starts beams.
func (w *World) phaserTick(o *Object, s *weaponSystem, dt float32) {
	for k := range s.banks {
		if s.banks[k].state != bankIdle {
			w.beamTick(o, s, &s.banks[k], dt)
		}
	}
	if !s.firing {
		return
	}
	w.purgeTargets(o, s)
	if systemDown(o, s) {
		w.stopBanks(o, s)
		return
	}
	if len(s.targets) > 0 {
		w.phaserPass(o, s)
	}
}

// phaserPass walks the banks in creation order from the one that fired
// last: a beaming bank goes on, an idle one starts at its current target
// or else the first listed target it can hit. In a single-fire system the
// pass ends at the first bank that fires and every other bank stops, so at
// most one beams at a time (simulation.md 3.6). The stock fire-delay
// threshold a bank waits before retrying (0x00893830) is not published;
// a bank here retries every tick.
func (w *World) phaserPass(o *Object, s *weaponSystem) {
	n := len(s.banks)
	for j := range n {
		k := (s.last + j) % n
		b := &s.banks[k]
		fired := b.state != bankIdle
		if !fired && !bankDown(o, b) && b.charge >= bankData(o, b).MinFiringCharge && powered(o, s) {
			fired = w.startBeam(o, s, k)
		}
		if fired && s.singleFire {
			for i := range s.banks {
				if i != k {
					w.stopBank(o, s, &s.banks[i])
				}
			}
			return
		}
	}
}

// powered is the bank's power test: the drain of its level must not exceed
// the power plant's output at its condition [code: FUN_00571a00,
// FUN_005634b0]; it fails only when the power plant is (nearly) destroyed.
func powered(o *Object, s *weaponSystem) bool {
	c := o.Model.Class()
	if c.Reactor < 0 || c.Power.PowerOutput <= 0 {
		return true
	}
	return beamDrain[s.level] <= c.Power.PowerOutput*o.Model.ConditionFraction(c.Reactor)
}

// startBeam starts bank k at its current target, or else at the first
// listed target it can hit; it reports whether it started.
func (w *World) startBeam(o *Object, s *weaponSystem, k int) bool {
	b := &s.banks[k]
	pick := -1
	if i := s.find(b.target); i >= 0 && w.beamCanHit(o, b, &s.targets[i]) {
		pick = i
	}
	for i := 0; pick < 0 && i < len(s.targets); i++ {
		if w.beamCanHit(o, b, &s.targets[i]) {
			pick = i
		}
	}
	if pick < 0 {
		return false
	}
	b.target = s.targets[pick].id
	b.state, b.since, b.hitID, b.accum = bankWindup, 0, 0, 0
	s.last = k
	return true
}

// beamCanHit is the bank's start test (simulation.md 3.6 "Can a bank hit
// the target"): the target is a live, visible ship within R of the bank
// and in its arc. Line of sight is not tested: the host models no planets.
func (w *World) beamCanHit(o *Object, b *weaponBank, t *aimTarget) bool {
	x := w.objects[t.id]
	if x == nil || !x.Alive() || !x.state.hasPos && x.host == nil || x.Cloaked() || x.Model == nil {
		return false
	}
	aim := aimPoint(x, t)
	if v := sub3(aim, weaponPos(o, b)); dot3(v, v) > beamRange*beamRange {
		return false
	}
	tol := 0.0
	if o.host == nil {
		tol = arcSlack
	}
	return inArc(o, bankData(o, b), sub3(aim, mountPos(o, b)), tol)
}

// aimPoint is where a system aims at a target: the target's power plant
// unless the StartFiring gave an offset (simulation.md 3.6).
func aimPoint(x *Object, t *aimTarget) [3]float32 {
	off := t.offset
	if !t.hasOffset {
		off = x.sim.shape.centre
		if c := x.Model.Class(); c.Reactor >= 0 && c.Subsystems[c.Reactor].Data != nil {
			off = c.Subsystems[c.Reactor].Data.Position
		}
	}
	return worldPoint(x, off)
}

// beamTick advances one bank's beam by dt seconds: the windup, then the
// extend and hitting states, which drain the bank at its level's rate;
// an empty bank stops.
func (w *World) beamTick(o *Object, s *weaponSystem, b *weaponBank, dt float32) {
	for rem := dt; rem > 0 && b.state != bankIdle; {
		if b.state == bankWindup {
			step := min(rem, windupSecs-b.since)
			b.since += step
			rem -= step
			if b.since >= windupSecs {
				b.state, b.since = bankExtend, 0
			}
			continue
		}
		if bankDown(o, b) || systemDown(o, s) {
			w.stopBank(o, s, b)
			return
		}
		step := rem
		if b.state == bankExtend {
			step = min(rem, extendSecs-b.since)
		}
		rate := beamDrain[s.level]
		live := min(step, b.charge/rate)
		b.charge -= rate * live
		if b.state == bankHitting && live > 0 {
			w.beamHits(o, s, b, live)
		}
		b.since += step
		rem -= step
		if b.charge <= 0 || live < step {
			b.charge = 0
			w.stopBank(o, s, b)
			return
		}
		if b.state == bankExtend && b.since >= extendSecs {
			b.state, b.since = bankHitting, 0
		}
	}
}

// beamHits traces the ray of a hitting bank (from the bank toward its aim
// point, R long) and gathers dt seconds of hitting on the nearest
// damageable object it meets, not necessarily the target [code:
// FUN_00572440]. A quantum lands when the gathered time passes the
// threshold or the ray moves to another object or to nothing.
func (w *World) beamHits(o *Object, s *weaponSystem, b *weaponBank, dt float32) {
	i := s.find(b.target)
	x := w.objects[b.target]
	if i < 0 || x == nil || x.Model == nil {
		w.stopBank(o, s, b)
		return
	}
	from := weaponPos(o, b)
	dir := unit3(sub3(aimPoint(x, &s.targets[i]), from), [3]float32{0, 1, 0})
	hitObj, tr := w.nearestOnPath(o, from, dir, beamRange, 0)
	if hitObj == nil || hitObj.ID != b.hitID {
		w.flushBeam(o, s, b)
		b.hitID = 0
		if hitObj == nil {
			return
		}
		b.hitID = hitObj.ID
	}
	b.hitAt = tr
	// The falloff distance is to where the ray meets the ship's surface
	// (its shield ellipsoid), not to the footprint's centre, which lies
	// inside the hull: deep inside a starbase it would be 100 units
	// further.
	b.hitD = norm(sub3(worldPoint(hitObj, tr.entry), from))
	// A quantum lands each time beamQuantum of hitting time has gathered,
	// however the host's ticks cut the time (Correction 45): a 10 Hz host
	// that flushed only at tick boundaries would deal 0.6-s lumps.
	for dt > 0 {
		step := min(dt, beamQuantum-b.accum)
		b.accum += step
		dt -= step
		if b.accum >= beamQuantum {
			w.flushBeam(o, s, b)
			if !hitObj.Alive() || !o.Alive() {
				return // the quantum was lethal
			}
		}
	}
}

// flushBeam lands the hitting time a bank has gathered as one quantum.
func (w *World) flushBeam(o *Object, s *weaponSystem, b *weaponBank) {
	t := b.accum
	b.accum = 0
	x := w.objects[b.hitID]
	if t <= 0 || x == nil || !x.Alive() || x.Model == nil {
		return
	}
	m := o.Model
	d := bankData(o, b)
	falloff := float32(1)
	if b.hitD > d.MaxDamageDistance && b.hitD > 0 {
		falloff = d.MaxDamageDistance / b.hitD
	}
	dmg := d.MaxDamage * m.ConditionFraction(b.sub) * m.ConditionFraction(s.sub) * falloff * beamLevelFactor[s.level] * t
	h := hit{damage: dmg, point: b.hitAt.point, radius: max(d.DamageRadiusFactor, minHitRadius), facing: b.hitAt.facing,
		hull: hullFull}
	if s.level == LevelLow {
		h.hull = hullSpared
	}
	w.weaponHit(o, o.OwnerID(), x, &h, weaponRef{id: m.SubsystemID(b.sub), sub: b.sub, kind: KindPhaser})
}

// stopBank ends a bank's beam, landing what it gathered.
func (w *World) stopBank(o *Object, s *weaponSystem, b *weaponBank) {
	if b.state == bankIdle {
		return
	}
	w.flushBeam(o, s, b)
	b.state, b.since, b.hitID, b.target = bankIdle, 0, 0, 0
}

// stopBanks ends every beam of a system.
func (w *World) stopBanks(o *Object, s *weaponSystem) {
	for k := range s.banks {
		w.stopBank(o, s, &s.banks[k])
	}
}

// purgeTargets drops targets that are gone, dead or cloaked (simulation.md
// 3.6: FUN_00584cc0 purges cloaked ones every frame) and stops the beams
// that were started at them.
func (w *World) purgeTargets(o *Object, s *weaponSystem) {
	keep := s.targets[:0]
	for _, t := range s.targets {
		if x := w.objects[t.id]; x != nil && x.Alive() && !x.Cloaked() {
			keep = append(keep, t)
		}
	}
	s.targets = keep
	for k := range s.banks {
		if b := &s.banks[k]; b.target != 0 && s.find(b.target) < 0 {
			w.stopBank(o, s, b)
		}
	}
}

// stopSystem is the stock StopFiring: no targets, no beams.
func (w *World) stopSystem(o *Object, s *weaponSystem) {
	s.targets = s.targets[:0]
	s.firing = false
	w.stopBanks(o, s)
}
