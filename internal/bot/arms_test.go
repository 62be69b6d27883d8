package bot

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

func TestParseWeapons(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Kinds
		err  bool
	}{
		{"phaser", Phasers, false},
		{"Torpedoes, pulse", Torpedoes | Pulse, false},
		{"all", AllWeapons, false},
		{"phaser,phaser", Phasers, false},
		{"", 0, true},
		{"laser", 0, true},
	} {
		got, err := ParseWeapons(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseWeapons(%q) = %v, %v", tc.in, got, err)
		}
	}
	if s := (Torpedoes | Phasers).String(); s != "phaser,torpedo" {
		t.Errorf("String: %q", s)
	}
	if _, err := ParseWeapons("laser"); err == nil || err.Error() != `weapons "laser": "laser" is not phaser, torpedo or pulse` {
		t.Errorf("error %v", err)
	}
	// The table holds each kind once, and all of them make AllWeapons.
	var all Kinds
	for _, f := range firedWeapons {
		if all&f.kind != 0 || f.weapon.String() == "" {
			t.Errorf("%v (%v) twice or unnamed", f.weapon, f.kind)
		}
		all |= f.kind
	}
	if all != AllWeapons {
		t.Errorf("the table fires %v, AllWeapons is %v", all, AllWeapons)
	}
}

// A volley fires each kind through its stock message; a tube fires again
// only once reloaded, as a stock client's does.
func TestArmsVolley(t *testing.T) {
	reg, err := ships.Vanilla()
	if err != nil {
		t.Fatal(err)
	}
	bop, _ := reg.ClassByName("BirdOfPrey")
	a, err := ArmsOf(reg, bop.Species())
	if err != nil {
		t.Fatal(err)
	}
	if a.Has&Phasers != 0 || a.Missing(Phasers|Torpedoes) != "phaser" {
		t.Fatalf("a Bird of Prey: has %v, missing %q", a.Has, a.Missing(Phasers|Torpedoes))
	}
	sov, _ := reg.ClassByName("Sovereign")
	a, _ = ArmsOf(reg, sov.Species())
	now := time.Unix(1000, 0)
	count := func(shots []Shot) map[byte]int {
		out := map[byte]int{}
		for _, s := range shots {
			out[s.Payload[0]]++
		}
		return out
	}
	first := count(a.Volley(AllWeapons, 0x3FFFFFFF, 0x403BFFFF, [3]float32{}, [3]float32{0, 40, 0}, 2, now))
	if first[codec.OpStartFiring] != 1 || first[codec.OpTorpedoFire] == 0 || first[codec.OpPulseFire] != 0 {
		t.Fatalf("first volley: %v", first)
	}
	again := count(a.Volley(Torpedoes, 0x3FFFFFFF, 0x403BFFFF, [3]float32{}, [3]float32{0, 40, 0}, 2, now.Add(time.Second)))
	if again[codec.OpTorpedoFire] != 0 {
		t.Fatalf("tubes fired again a second later: %v", again)
	}
	later := count(a.Volley(Torpedoes, 0x3FFFFFFF, 0x403BFFFF, [3]float32{}, [3]float32{0, 40, 0}, 2, now.Add(41*time.Second)))
	if later[codec.OpTorpedoFire] != first[codec.OpTorpedoFire] {
		t.Fatalf("after the reload: %v, first %v", later, first)
	}
	war, _ := reg.ClassByName("Warbird")
	a, _ = ArmsOf(reg, war.Species())
	bolts := a.Volley(Pulse, 0x3FFFFFFF, 0x403BFFFF, [3]float32{}, [3]float32{0, 30, 0}, 2, now)
	if p := count(bolts); a.Has&Pulse == 0 || p[codec.OpPulseFire] == 0 {
		t.Fatalf("a Warbird's pulse volley: %v (has %v)", p, a.Has)
	}
	// Each cannon aims from where it sits: the port ones (4.7 units to
	// port) a little to starboard, the starboard ones to port.
	sides := map[bool]int{}
	for _, b := range bolts {
		m, err := codec.DecodePulseFire(b.Payload)
		if err != nil {
			t.Fatal(err)
		}
		x, y, _ := m.Dir.Vector()
		if y < 0.9 || x == 0 {
			t.Fatalf("bolt direction %v %v", x, y)
		}
		sides[x > 0]++
	}
	if sides[true] == 0 || sides[false] == 0 {
		t.Fatalf("every cannon aims the same way: %v", sides)
	}
}
