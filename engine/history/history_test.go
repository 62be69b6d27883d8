package history

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/bcserver/bcserver/engine/ships"
)

// The damage table covers every field of Damage once, under its JSON name;
// a weapon's column is named as the weapon, and a kind of weapon without a
// column is summed in other.
func TestDamageTable(t *testing.T) {
	typ := reflect.TypeOf(Damage{})
	var tags []string
	for i := range typ.NumField() {
		tags = append(tags, typ.Field(i).Tag.Get("json"))
	}
	if !slices.Equal(tags, DamageKinds()) {
		t.Fatalf("columns %v, fields %v", DamageKinds(), tags)
	}
	var d Damage
	for i, k := range damageKinds {
		*k.field(&d) = float64(i + 1)
		if k.weapon != ships.NoWeapon && k.weapon.String() != k.name {
			t.Errorf("column %q sums %v", k.name, k.weapon)
		}
	}
	if d != (Damage{1, 2, 3, 4, 5}) || d.Total() != 15 {
		t.Fatalf("fields set %+v", d)
	}
	for _, w := range ships.Weapons() {
		col := d.Weapon(w)
		if c := d.Column(w.String()); c != nil && c != col || c == nil && col != &d.Other {
			t.Errorf("%v is summed in the wrong column", w)
		}
	}
	if d.Weapon(ships.NoWeapon) != &d.Other || d.Column("laser") != nil {
		t.Error("no weapon, or no such column, found a column")
	}
	d.Add(&Damage{Phaser: 1, Other: 1})
	b, _ := json.Marshal(d)
	if string(b) != `{"phaser":2,"pulse":2,"torpedo":3,"collision":4,"other":6,"total":17}` {
		t.Errorf("JSON %s", b)
	}
	if tab := d.Table(); len(tab) != 6 || tab["pulse"] != 2.0 || tab["total"] != 17.0 {
		t.Errorf("table %v", tab)
	}
}
