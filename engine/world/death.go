package world

import (
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

const (
	// lifetimeCollision and lifetimeDefault are the ObjectExploding
	// lifetimes: 12.9 s in the captured environment-collision kill, 9.5 s
	// for self-destruct and, per the notes, weapon kills (simulation.md 9.2).
	lifetimeCollision float32 = 12.9
	lifetimeDefault   float32 = 9.5
	// repairEventsAfterSelfDestruct is when the second batch of repair
	// events follows a self-destruct (simulation.md 7: ≈ +9.5 s).
	repairEventsAfterSelfDestruct = 9500 * time.Millisecond
)

// hitInfo says who and what caused damage, for kill credit.
type hitInfo struct {
	cause      DeathCause
	attacker   *Object // the other ship (collision) or the shooter's ship
	attackerID int     // the firing player's id, 0 for none
	weapon     weaponRef
	weaponName string
}

// killShip runs the stock death sequence once (simulation.md 9): the
// ObjectExploding event to everyone, Explosion 0x29 for weapon kills only,
// then ship_destroyed for the mission's scoring. The wreck stays (and keeps
// its StateUpdates) for the explosion's lifetime; no DestroyObject, no
// respawn: the client sends a new ship itself.
func (w *World) killShip(o *Object, hit hitInfo) {
	st := &o.sim
	if st.dead {
		return
	}
	st.dead = true
	st.diedAt = w.now
	lifetime := lifetimeDefault
	if hit.cause == CauseCollision || hit.cause == CauseEnvironment {
		lifetime = lifetimeCollision
	}
	st.lifetime = time.Duration(float64(lifetime) * float64(time.Second))
	st.repair = st.repair[:0]
	o.Create = nil // late joiners get no wreck
	// The stock death routine builds the event with no source, the dying
	// ship as destination and the killer's network player id (simulation.md
	// 9.2, Correction 39) [code: FUN_005afea0].
	w.buf = codec.ObjectExploding{Op: codec.OpPythonEvent, Code: codec.EventObjectExploding, Dst: o.ID,
		FiringPlayer: int32(hit.attackerID), Lifetime: lifetime}.AppendTo(w.buf[:0])
	w.broadcast()
	if hit.cause == CauseWeapon {
		p := o.pos()
		w.buf = codec.NewExplosion(o.ID, p[0], p[1], p[2], w.explRadius, w.explDamage).AppendTo(w.buf[:0])
		w.broadcast()
	}
	w.log.Info("ship destroyed", "ship", o.ID, "owner", o.OwnerID(), "cause", hit.cause, "killer", hit.attackerID)
	var killer *Object
	if hit.attacker != o {
		killer = hit.attacker
	}
	w.env.Emit(&ShipDestroyed{Victim: o, Killer: killer, KillerID: hit.attackerID, Cause: hit.cause, Lifetime: lifetime,
		Weapon: hit.weapon.id, WeaponName: hit.weaponName, Kind: hit.weapon.kind})
}

// SelfDestruct executes the owner's HostMsg 0x13 (simulation.md 7): no
// countdown and no abort. The reactor takes damage equal to its max
// condition, a burst of StateUpdates shows the zeroed ship, then the death
// sequence runs with no killer and no Explosion; at most six repair events
// go out, four now and two after the explosion.
func (w *World) SelfDestruct(now time.Time, owner *Owner) {
	w.now = now
	o := w.ShipOf(owner)
	if o == nil || o.Model == nil || !o.Alive() {
		return
	}
	m := o.Model
	c := m.Class()
	if c.Reactor >= 0 {
		m.SetCondition(c.Reactor, 0)
	} else {
		m.SetHull(0)
	}
	gameTime := w.GameTime(now)
	w.viewers = w.env.Viewers(w.viewers[:0])
	for range 3 {
		for _, r := range w.viewers {
			if b := w.appendStateUpdate(w.buf[:0], o, r, gameTime); len(b) > 0 {
				w.buf = b
				w.env.Send(r, w.buf, false)
			}
		}
	}
	first, later := selfDestructRepairs(c)
	for _, i := range first {
		w.repairEvent(o, codec.EventAddToRepairList, i)
	}
	w.killShip(o, hitInfo{cause: CauseSelfDestruct, weapon: weaponRef{sub: -1, kind: KindSelfDestruct}})
	if len(later) > 0 {
		w.env.After(repairEventsAfterSelfDestruct, func(now time.Time) {
			w.now = now
			for _, i := range later {
				if w.objects[o.ID] == o {
					w.repairEvent(o, codec.EventAddToRepairList, i)
				}
			}
		})
	}
}

// selfDestructRepairs picks the stock repair events of a self-destruct: the
// reactor, shield generator, phaser and pulse systems at once, then the
// repair system later (EPS, the sixth, is not in the data set).
func selfDestructRepairs(c *ships.Class) (first, later []int) {
	if c.Reactor >= 0 {
		first = append(first, c.Reactor)
	}
	if c.ShieldGenerator >= 0 {
		first = append(first, c.ShieldGenerator)
	}
	for _, kind := range []string{"phaser", "pulse_weapon"} {
		for _, e := range c.Entries {
			if e.Children > 0 && c.Subsystems[e.Subsystem+1].Type() == kind {
				first = append(first, e.Subsystem)
				break
			}
		}
	}
	if c.Repair >= 0 {
		later = append(later, c.Repair)
	}
	return first, later
}
