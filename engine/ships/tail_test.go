package ships

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/vectors"
)

// Every class's full-health tail built by AppendTail equals the tail the
// stock writers give (the derived vectors objcreate_tail_full_health_*,
// simulation.md 3.4) and the copy in the class's ship.json.
func TestTailVectors(t *testing.T) {
	var vs []struct {
		Name       string `json:"name"`
		PayloadHex string `json:"payload_hex"`
		Decoded    struct {
			Class   string `json:"class"`
			TailLen int    `json:"tail_len"`
		} `json:"decoded"`
	}
	vectors.MustLoad(t, "simulation.json", &vs)
	r := mustVanilla(t)
	seen := map[string]bool{}
	for _, v := range vs {
		if !strings.HasPrefix(v.Name, "objcreate_tail_full_health_") {
			continue
		}
		t.Run(v.Decoded.Class, func(t *testing.T) {
			want := vectors.MustHex(t, v.PayloadHex)
			var c *Class
			for _, k := range r.Classes() {
				if strings.HasSuffix(k.Dir, "/"+v.Decoded.Class) {
					c = k
				}
			}
			if c == nil {
				t.Fatalf("no class folder %q", v.Decoded.Class)
			}
			seen[v.Decoded.Class] = true
			var w codec.Writer
			AppendTail(&w, NewShip(c, 0x3FFFFFFF), DefaultTail())
			if !bytes.Equal(w.Bytes(), want) || len(want) != v.Decoded.TailLen {
				t.Errorf("\n got % X\nwant % X", w.Bytes(), want)
			}
			if c.ObjCreateTailHex != strings.ToUpper(hex.EncodeToString(want)) {
				t.Errorf("ship.json tail %s differs from the vector", c.ObjCreateTailHex)
			}
		})
	}
	if len(seen) != 23 || len(seen) != len(r.Classes()) {
		t.Errorf("%d tail vectors for %d classes, want 23", len(seen), len(r.Classes()))
	}
}

// A changed state shows in the tail: condition, power off, batteries,
// shield facings, phaser level, ammo type, tractor mode and the packed
// weapon bits (which share one byte across the three weapon systems).
func TestTailState(t *testing.T) {
	r := mustVanilla(t)
	s, _ := r.NewShip(1, 0x3FFFFFFF) // Akira
	c := s.Class()
	s.SetHull(4500)                               // 7F
	s.SetPower(2, 0.5, false)                     // sensors off at 50 %: CE
	s.SetBatteries(c.Power.MainBatteryLimit/2, 0) // 7F 00
	shields := [6]float32{}
	for i := range shields {
		shields[i] = c.ShieldHP[i]
	}
	shields[0] /= 2 // front 7F
	st := TailState{Shields: &shields, PhaserLevel: 2, AmmoType: 1, TractorMode: 0, WeaponBits: true}
	var w codec.Writer
	AppendTail(&w, s, st)
	want := "7F FF 64 7F FFFFFFFFFF FF CE FF 7F00 FF FFFF 64 FFFFFFFFFFFFFFFFFF 64 67 02 FF FFFF 64 FFFFFFFFFFFFFF 64 01 FF 64 FFFFFF 64 00 FF"
	if got := w.Bytes(); !bytes.Equal(got, vectors.MustHex(t, want)) {
		t.Errorf("\n got % X\nwant %s", got, want)
	}
}

// Subsystem ids follow the stock creation order (simulation.md 3.2): the
// stock traces' ids name these subsystems.
func TestCreationOrderIDs(t *testing.T) {
	r := mustVanilla(t)
	tests := []struct {
		class, sub string
		offset     int
	}{
		{"Akira", "Forward Torp 1", 14}, // captured TorpedoFire tube 0x4000000D
		{"Akira", "Warp Core", 4},
		{"BirdOfPrey", "Port Cannon", 5},
		{"BirdOfPrey", "Star Cannon", 6},
		{"BirdOfPrey", "Fwd Torpedo", 8},
		{"Sovereign", "Sensor Array", 3}, // stock ADD_TO_REPAIR_LIST 0x40000002
		{"Sovereign", "Repair", 25},      // and its repair subsystem 0x40000018
		{"FedStarbase", "Phasers", 5},
		{"FedStarbase", "Dorsal Phaser 1", 6},
		{"FedStarbase", "Ventral Phaser 4", 13},
		{"FedStarbase", "Engineering", 14},
	}
	for _, tt := range tests {
		c, ok := r.ClassByName(tt.class)
		if !ok {
			t.Fatalf("no class %s", tt.class)
		}
		i, ok := c.SubsystemIndex(tt.sub)
		if !ok {
			t.Errorf("%s: no subsystem %q", tt.class, tt.sub)
			continue
		}
		s := NewShip(c, 0x3FFFFFFF)
		if got := s.SubsystemID(i); got != 0x3FFFFFFF+int32(tt.offset) {
			t.Errorf("%s %s: id %#x, want ship + %d", tt.class, tt.sub, got, tt.offset)
		}
		if j, ok := s.SubsystemIndex(0x3FFFFFFF + int32(tt.offset)); !ok || j != i {
			t.Errorf("%s: SubsystemIndex(ship + %d) = %d, %v", tt.class, tt.offset, j, ok)
		}
	}
	// Galaxy tubes are +6..+11.
	g, _ := r.ClassByName("Galaxy")
	tubes := 0
	for _, sub := range g.Subsystems {
		if sub.Type().String() == "torpedo_tube" {
			tubes++
			if sub.IDOffset < 6 || sub.IDOffset > 11 {
				t.Errorf("Galaxy %s at +%d", sub.Name, sub.IDOffset)
			}
		}
	}
	if tubes != 6 {
		t.Errorf("Galaxy has %d tubes", tubes)
	}
}

// The worked FedStarbase example (simulation.md 3.5): ObjCreate 0x02 built
// from the data equals the derived bytes.
func TestFedStarbaseObjCreate(t *testing.T) {
	want := vectors.MustNamed(t, "simulation.json", "objcreate_fedstarbase_host_0x02_example")
	c, ok := mustVanilla(t).ClassByName("FedStarbase")
	if !ok {
		t.Fatal("no FedStarbase")
	}
	s := NewShip(c, 0x00001000)
	var w codec.Writer
	head := codec.ObjCreate{Op: codec.OpObjCreate, OwnerSlot: 1, ClassID: codec.ClassShip, ObjectID: 0x1000,
		Ship: codec.ShipBody{Species: uint8(c.SpeciesID), Position: [3]float32{10, 20, 30}, Rotation: [4]float32{1, 0, 0, 0},
			Name: []byte("Starbase"), Set: []byte("Multi1")}}.AppendTo(nil)
	w.Reset(head)
	AppendTail(&w, s, DefaultTail())
	if !bytes.Equal(w.Bytes(), want) {
		t.Errorf("\n got % X\nwant % X", w.Bytes(), want)
	}
	if id := s.SubsystemID(len(c.Subsystems) - 1); id != 0x1000+14 {
		t.Errorf("last subsystem id %#x", id)
	}
}

func TestTailKindString(t *testing.T) {
	if TailTorpedoSystem.String() != "torpedo system" || TailKind(99).String() != "TailKind(99)" {
		t.Error(TailTorpedoSystem.String(), TailKind(99).String())
	}
}

// TailPhaserLevel reads the phaser level byte AppendTail writes, for every
// class with a phaser system, and refuses a class without one or a cut
// tail.
func TestTailPhaserLevel(t *testing.T) {
	r, err := Vanilla()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Classes() {
		hasPhasers := false
		for _, e := range c.Entries {
			hasPhasers = hasPhasers || e.Tail == TailPhaserSystem
		}
		for _, level := range []uint8{0, 2} {
			st := DefaultTail()
			st.PhaserLevel = level
			var w codec.Writer
			AppendTail(&w, NewShip(c, 0x3FFFFFFF), st)
			got, ok := TailPhaserLevel(c, w.Bytes())
			if ok != hasPhasers || ok && got != level {
				t.Errorf("%s: level %d read as %d, %v (phasers %v)", c.Name, level, got, ok, hasPhasers)
			}
			if hasPhasers {
				if _, ok := TailPhaserLevel(c, w.Bytes()[:2]); ok {
					t.Errorf("%s: a cut tail gave a level", c.Name)
				}
			}
		}
	}
}
