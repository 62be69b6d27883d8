package capture

import (
	"testing"

	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/engine/world"
)

// The file format's weapon numbers are frozen (docs/replay-format.md), and
// every kind of weapon the ship data knows has one: a new kind fails here
// until it takes the next free number.
func TestRecordedWeapons(t *testing.T) {
	for k, name := range map[WeaponKind]string{WeaponUnknown: "unknown", 1: "phaser", 2: "pulse", 3: "torpedo", 4: "tractor", 99: "unknown"} {
		if k.String() != name {
			t.Errorf("weapon kind %d is %q, want %q", k, k.String(), name)
		}
	}
	for _, w := range ships.Weapons() {
		k := recordedKind(w)
		if k == WeaponUnknown || k.Weapon() != w || kindOf(world.KindOf(w)) != k {
			t.Errorf("%v is recorded as %d", w, k)
		}
	}
	if recordedKind(ships.NoWeapon) != WeaponUnknown || kindOf(world.KindCollision) != WeaponUnknown {
		t.Error("no weapon recorded as a weapon")
	}
}
