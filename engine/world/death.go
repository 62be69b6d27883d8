package world

import (
	"time"

	"github.com/bcserver/bcserver/codec"
)

const (
	// lifetimeCollision and lifetimeDefault are the ObjectExploding
	// lifetimes: 12.9 s in the captured environment-collision kill, 9.5 s
	// for self-destruct and, per the notes, weapon kills (simulation.md 9.2).
	lifetimeCollision float32 = 12.9
	lifetimeDefault   float32 = 9.5
)

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
