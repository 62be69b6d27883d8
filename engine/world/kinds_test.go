package world

import (
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// The kinds keep the names missions and plugins read (docs/lua-api.md),
// and a weapon's kind is its ships.Weapon, both ways.
func TestWeaponKindNames(t *testing.T) {
	for k, want := range map[WeaponKind]string{
		KindNone: "", KindPhaser: "phaser", KindPulse: "pulse", KindTorpedo: "torpedo",
		KindCollision: "collision", KindSelfDestruct: "self_destruct", KindMission: "mission",
	} {
		if k.String() != want {
			t.Errorf("kind %d is %q, want %q", k, k.String(), want)
		}
	}
	for _, w := range ships.Weapons() {
		if k := KindOf(w); k.Weapon() != w || k.String() != w.String() {
			t.Errorf("%v: kind %v gives back %v", w, k, k.Weapon())
		}
	}
	for _, k := range []WeaponKind{KindNone, KindCollision, KindSelfDestruct, KindMission} {
		if k.Weapon() != ships.NoWeapon {
			t.Errorf("%v is a weapon of the ship data", k)
		}
	}
}

// Every kind of weapon the ship data knows has its systems modelled: a
// new kind in engine/ships that the world does not take up fails here.
func TestEveryWeaponModelled(t *testing.T) {
	for _, w := range ships.Weapons() {
		if groupOf(w) == "" {
			t.Errorf("%v: no weapon group, so its systems are not modelled", w)
		}
	}
}

// FiredKind reads a shot's kind from the ship data, and from the opcode
// when the data does not say.
func TestFiredKind(t *testing.T) {
	reg, err := ships.Vanilla()
	if err != nil {
		t.Fatal(err)
	}
	c, _ := reg.ClassByName("Akira")
	const id = 0x3FFFFFFF
	o := &Object{ID: id, ClassID: codec.ClassShip, Model: ships.NewShip(c, id)}
	sub := func(name string) int32 {
		i, ok := c.SubsystemIndex(name)
		if !ok {
			t.Fatalf("Akira has no %q", name)
		}
		return o.Model.SubsystemID(i)
	}
	for _, tt := range []struct {
		o    *Object
		op   byte
		id   int32
		want WeaponKind
	}{
		{o, codec.OpStartFiring, sub("Phasers"), KindPhaser},
		{o, codec.OpTorpedoFire, sub("Forward Torp 1"), KindTorpedo},
		{o, codec.OpStartFiring, sub("Tractors"), KindOf(ships.WeaponTractor)},
		{o, codec.OpTorpedoFire, sub("Hull"), KindTorpedo}, // no weapon: the opcode says
		{o, codec.OpPulseFire, 0x12345, KindPulse},
		{nil, codec.OpTorpedoFire, 0, KindTorpedo},
		{&Object{ID: id}, codec.OpStartFiring, sub("Phasers"), KindNone}, // no model, no opcode's kind
	} {
		if got := FiredKind(tt.o, tt.op, tt.id); got != tt.want {
			t.Errorf("op %#x weapon %#x: %v, want %v", tt.op, tt.id, got, tt.want)
		}
	}
}
