package ships

import (
	"os"
	"strings"
	"testing"
)

// Every subsystem type reads back from its spelling, and the weapon table
// and the types agree: each kind of weapon's system and weapons are types
// of that weapon, its system is the only one IsWeaponSystem takes, and its
// tail form names it.
func TestVocabulary(t *testing.T) {
	for typ := TypeHull; typ < numSubsystemTypes; typ++ {
		if got, ok := ParseSubsystemType(typ.String()); !ok || got != typ || typ.String() == "" {
			t.Errorf("type %d %q reads back as %d, %v", typ, typ.String(), got, ok)
		}
	}
	for _, s := range []string{"", "Hull", "weapon_system", "phasers"} {
		if typ, ok := ParseSubsystemType(s); ok || typ != NoType {
			t.Errorf("%q parsed as %v", s, typ)
		}
	}
	systems := 0
	for typ := NoType; typ < numSubsystemTypes; typ++ {
		if typ.IsWeaponSystem() {
			systems++
		}
	}
	if len(Weapons()) != int(numWeapons)-1 || systems != len(Weapons()) {
		t.Errorf("%d weapons, %d weapon system types", len(Weapons()), systems)
	}
	names := map[string]bool{}
	for _, w := range Weapons() {
		sys, wt := w.SystemType(), w.WeaponType()
		if w.String() == "" || names[w.String()] || sys.Weapon() != w || wt.Weapon() != w || !sys.IsWeaponSystem() || wt.IsWeaponSystem() || weapons[w].tail == 0 {
			t.Errorf("weapon %d %q: system %v, weapon %v, tail %v", w, w, sys, wt, weapons[w].tail)
		}
		names[w.String()] = true
	}
	if NoWeapon.String() != "" || NoType.Weapon() != NoWeapon || TypeHull.Weapon() != NoWeapon || Weapon(200).String() != "" {
		t.Error("the zero values name a weapon")
	}
}

// A class parses its types once: every subsystem with data has its type,
// every weapon and weapon system container its kind of weapon, the same
// as its entry's, the weapon_systems entry that lists it and its tail form.
func TestClassWeapons(t *testing.T) {
	r := mustVanilla(t)
	n := 0
	for _, c := range r.Classes() {
		for i := range c.Subsystems {
			s := &c.Subsystems[i]
			want := NoType
			if s.Data != nil {
				want, _ = ParseSubsystemType(s.Data.Type)
			}
			if s.Type() != want {
				t.Errorf("%s %s: type %v, data %v", c.Name, s.Name, s.Type(), want)
			}
			if e := &c.Entries[s.Entry]; s.Child < 0 && s.Data == nil && (s.Weapon() != e.Weapon || e.Weapon != NoWeapon && e.Tail != weapons[e.Weapon].tail) {
				t.Errorf("%s %s: weapon %v, entry %v, tail %v", c.Name, s.Name, s.Weapon(), e.Weapon, e.Tail)
			}
		}
		for _, ws := range c.WeaponSystems {
			n++
			if ws.Weapon == NoWeapon || ws.Weapon.SystemType().String() != ws.Type || c.Subsystems[ws.Subsystem].Weapon() != ws.Weapon || c.Entries[c.Subsystems[ws.Subsystem].Entry].Weapon != ws.Weapon {
				t.Errorf("%s %s (%s): weapon %v, container %v", c.Name, ws.Name, ws.Type, ws.Weapon, c.Subsystems[ws.Subsystem].Weapon())
			}
			for _, m := range ws.Members {
				if c.Subsystems[m].Weapon() != ws.Weapon || c.Subsystems[m].Type() != ws.Weapon.WeaponType() {
					t.Errorf("%s %s: member %s is %v", c.Name, ws.Name, c.Subsystems[m].Name, c.Subsystems[m].Type())
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no weapon systems in the vanilla data")
	}
}

// The data format's README names every type spelling the loader takes,
// where a mod author looks: a new type fails here until it is documented.
func TestVocabularyDocumented(t *testing.T) {
	readme, err := os.ReadFile("data/README.md")
	if err != nil {
		t.Fatal(err)
	}
	for typ := TypeHull; typ < numSubsystemTypes; typ++ {
		if !strings.Contains(string(readme), "`"+typ.String()+"`") {
			t.Errorf("data/README.md does not name the type %q", typ.String())
		}
	}
}
