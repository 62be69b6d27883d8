package ships

import (
	"fmt"

	"github.com/bcserver/bcserver/codec"
)

// TailKind is how the ObjCreate subsystem tail writes one top-level entry: its
// "full state" writer (simulation.md 3.4). It refines Format, which only
// says how the 0x20 block writes it.
type TailKind uint8

const (
	// TailBase is [condition] and each child's [condition]: hull, bridge.
	TailBase TailKind = iota
	// TailPowered adds [power]: sensors, engines, repair.
	TailPowered
	// TailReactor adds [main battery][backup battery].
	TailReactor
	// TailShield is base, [power], then one byte per shield facing.
	TailShield
	// TailCloak is powered, then a packed bit: cloak wanted.
	TailCloak
	// TailPhaserSystem is a weapon system (powered + packed bit), then
	// [phaser level].
	TailPhaserSystem
	// TailTorpedoSystem is a weapon system, then [selected ammo type].
	TailTorpedoSystem
	// TailTractorSystem is a weapon system, then [tractor mode].
	TailTractorSystem
	// TailPulseSystem is a weapon system and nothing more.
	TailPulseSystem
)

var tailNames = [...]string{"base", "powered", "reactor", "shield", "cloak", "phaser system", "torpedo system", "tractor system", "pulse system"}

// String names the kind.
func (k TailKind) String() string {
	if int(k) < len(tailNames) {
		return tailNames[k]
	}
	return fmt.Sprintf("TailKind(%d)", uint8(k))
}

// entryTail derives the tail form of an entry from its 0x20 format and the
// subsystem types of the entry (subs[0]) and its children, and the kind of
// weapon system it is (NoWeapon for none): weapon system containers are
// not in subsystems.json, so their children's type tells which system
// they are (data/README.md).
func entryTail(f Format, subs []Subsystem) (TailKind, Weapon, error) {
	own := subs[0].Type()
	switch f {
	case FormatPower:
		return TailReactor, NoWeapon, nil
	case FormatBase:
		if own == TypeShield {
			return TailShield, NoWeapon, nil
		}
		return TailBase, NoWeapon, nil
	}
	if own == TypeCloak {
		return TailCloak, NoWeapon, nil
	}
	if own != NoType {
		return TailPowered, NoWeapon, nil
	}
	var child SubsystemType
	for _, s := range subs[1:] {
		if s.Entry != subs[0].Entry {
			break
		}
		t := s.Type()
		if child == NoType {
			child = t
		} else if t != child {
			return 0, NoWeapon, fmt.Errorf("weapon system mixes child types %q and %q", child, t)
		}
	}
	if w := child.Weapon(); w != NoWeapon && child == w.WeaponType() {
		return weapons[w].tail, w, nil
	}
	return TailPowered, NoWeapon, nil
}

// TailState is the part of a ship's full state the ObjCreate tail carries
// beyond what a Ship models (conditions, power, batteries). DefaultTail is
// the spawn state.
type TailState struct {
	// Shields holds each facing's current hit points (front, rear, top,
	// bottom, left, right); nil means full.
	Shields *[6]float32
	// PhaserLevel is the phaser system's level byte (constructor default 1).
	PhaserLevel uint8
	// AmmoType is the torpedo system's selected ammo index.
	AmmoType uint8
	// TractorMode is the tractor system's mode (constructor default 1 = tow).
	TractorMode uint8
	// CloakWanted is the cloaking device's "cloak wanted" bit.
	CloakWanted bool
	// WeaponBits is the per-weapon-system packed bit (+0xA8; 0 at spawn).
	WeaponBits bool
}

// DefaultTail is the state of a newly created ship (simulation.md 3.4):
// shields full, phaser level 1, ammo type 0, tractor mode 1, cloak off.
func DefaultTail() TailState { return TailState{PhaserLevel: 1, TractorMode: 1} }

// AppendTail writes ship s's ObjCreate subsystem tail (simulation.md 3.4):
// the top-level entries in order, each in its full-state form. Packed bits
// go through w.Bit, so a group stays open across the bytes of later
// entries as in the stock stream; w must be the writer of the whole
// message. A ship fresh from NewShip with DefaultTail gives the class's
// full-health tail.
func AppendTail(w *codec.Writer, s *Ship, st TailState) {
	c := s.class
	for i := range c.Entries {
		e := &c.Entries[i]
		w.Raw(s.condByte[e.Subsystem : e.Subsystem+1+e.Children])
		switch e.Tail {
		case TailBase:
			continue
		case TailReactor:
			w.U8(s.mainByte)
			w.U8(s.backupByte)
			continue
		}
		// Every other kind carries the power byte, with the sign bit as
		// off; the 0x20 has_power bit has no place in this form.
		w.U8(s.powerByte[i])
		switch e.Tail {
		case TailShield:
			for f := range 6 {
				w.U8(facingByte(c, st.Shields, f))
			}
		case TailCloak:
			w.Bit(st.CloakWanted)
		case TailPhaserSystem:
			w.Bit(st.WeaponBits)
			w.U8(st.PhaserLevel)
		case TailTorpedoSystem:
			w.Bit(st.WeaponBits)
			w.U8(st.AmmoType)
		case TailTractorSystem:
			w.Bit(st.WeaponBits)
			w.U8(st.TractorMode)
		case TailPulseSystem:
			w.Bit(st.WeaponBits)
		}
	}
}

// facingByte is trunc(current / max × 255) of facing f. A facing with no
// maximum (every FedStarbase facing) has no stock value, since the client
// divides by zero; FF is sent (simulation.md 3.5).
func facingByte(c *Class, shields *[6]float32, f int) byte {
	mx := float32(0)
	if f < len(c.ShieldHP) {
		mx = c.ShieldHP[f]
	}
	if !(mx > 0) || shields == nil {
		return 0xFF
	}
	return ratioByte(shields[f], mx)
}
