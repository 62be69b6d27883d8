package ships

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/bcserver/bcserver/internal/vectors"
)

func TestConditionByte(t *testing.T) {
	nan := float32(math.NaN())
	tests := []struct {
		cur, max float32
		want     byte
	}{
		{9000, 9000, 0xFF},
		{4500, 9000, 127}, // 127.5 truncates
		{0, 9000, 0},
		{1, 9000, 0},
		{36, 9000, 1}, // 1.02
		{8999, 9000, 254},
		{-5, 9000, 0},
		{nan, 9000, 0},
		{1, 0, 0},
		{0.5, 1, 127},
	}
	for _, tt := range tests {
		if got := conditionByte(tt.cur, tt.max); got != tt.want {
			t.Errorf("conditionByte(%v, %v) = %d, want %d", tt.cur, tt.max, got, tt.want)
		}
	}
}

func TestPowerByte(t *testing.T) {
	tests := []struct {
		wanted float32
		on     bool
		want   byte
	}{
		{1, true, 0x64},
		{1, false, 0x9C}, // -100: sign bit = OFF (simulation.md 4.2)
		{0.5, true, 0x32},
		{0.5, false, 0xCE},
		{1.25, true, 0x7D}, // overdrive
		{1.25, false, 0x83},
		{0, true, 0},
		{0, false, 0}, // indistinguishable on the wire
		{0.999, true, 99},
	}
	for _, tt := range tests {
		if got := powerByte(tt.wanted, tt.on); got != tt.want {
			t.Errorf("powerByte(%v, %v) = %#02x, want %#02x", tt.wanted, tt.on, got, tt.want)
		}
	}
}

func TestNewShipState(t *testing.T) {
	r := mustVanilla(t)
	for _, c := range r.Classes() {
		s := NewShip(c, 0x3FFFFFFF)
		for i, sub := range c.Subsystems {
			if s.Condition(i) != sub.MaxCondition || s.ConditionByte(i) != 0xFF || s.ConditionFraction(i) != 1 {
				t.Errorf("%s %s: condition %v byte %#x", c.Name, sub.Name, s.Condition(i), s.ConditionByte(i))
			}
		}
		for e := range c.Entries {
			if w, on := s.Power(e); w != 1 || !on || s.PowerByte(e) != 0x64 {
				t.Errorf("%s entry %d: power %v %v byte %#x", c.Name, e, w, on, s.PowerByte(e))
			}
		}
		m, b := s.Batteries()
		mb, bb := s.BatteryBytes()
		if m != c.Power.MainBatteryLimit || b != c.Power.BackupBatteryLimit || mb != 0xFF || bb != 0xFF {
			t.Errorf("%s: batteries %v %v bytes %#x %#x", c.Name, m, b, mb, bb)
		}
		if s.Destroyed() || s.Hull() != c.Subsystems[c.Hull].MaxCondition {
			t.Errorf("%s: hull %v", c.Name, s.Hull())
		}
	}
}

func TestShipSetters(t *testing.T) {
	r := mustVanilla(t)
	s, _ := r.NewShip(1, 0x3FFFFFFF) // Akira
	c := s.Class()

	s.SetHull(4500)
	if s.Hull() != 4500 || s.ConditionByte(c.Hull) != 127 {
		t.Errorf("hull %v byte %d", s.Hull(), s.ConditionByte(c.Hull))
	}
	s.SetHull(1e9)
	if s.Hull() != 9000 {
		t.Errorf("hull not clamped to max: %v", s.Hull())
	}
	s.SetHull(-1)
	if !s.Destroyed() || s.ConditionByte(c.Hull) != 0 {
		t.Error("hull below 0 must clamp to destroyed")
	}

	id := s.SubsystemID(3) // Warp Core, created fourth: ship id + 4
	if id != 0x40000003 {
		t.Errorf("SubsystemID(3) = %#x", id)
	}
	if !s.SetConditionByID(id, 2500) {
		t.Fatal("SetConditionByID failed")
	}
	if v, ok := s.ConditionByID(id); !ok || v != 2500 || s.ConditionByte(3) != 127 {
		t.Errorf("warp core %v %v byte %d", v, ok, s.ConditionByte(3))
	}
	for _, bad := range []int32{0x3FFFFFFF, 0x40000000 + 31, 0, math.MinInt32, math.MaxInt32} {
		if _, ok := s.ConditionByID(bad); ok {
			t.Errorf("id %#x accepted", bad)
		}
		if s.SetConditionByID(bad, 1) {
			t.Errorf("SetConditionByID(%#x) accepted", bad)
		}
	}

	s.SetPower(2, 0.5, false)
	if s.PowerByte(2) != 0xCE {
		t.Errorf("power byte %#x", s.PowerByte(2))
	}
	s.SetPower(2, 5, true)
	if w, _ := s.Power(2); w != 1.27 || s.PowerByte(2) != 127 {
		t.Errorf("power not clamped: %v %#x", w, s.PowerByte(2))
	}
	s.SetBatteries(75000, 1e9)
	if mb, bb := s.BatteryBytes(); mb != 127 || bb != 0xFF {
		t.Errorf("battery bytes %d %d", mb, bb)
	}

	s.Reset()
	for i := range c.Subsystems {
		if s.ConditionByte(i) != 0xFF {
			t.Errorf("after Reset subsystem %d byte %#x", i, s.ConditionByte(i))
		}
	}
}

// Ids near the top of the int32 range must not wrap into a false match.
func TestSubsystemIndexNoWrap(t *testing.T) {
	c, _ := mustVanilla(t).Class(5)
	s := NewShip(c, math.MaxInt32-2)
	if _, ok := s.SubsystemIndex(math.MinInt32); ok {
		t.Error("wrapped id matched")
	}
	if i, ok := s.SubsystemIndex(math.MaxInt32); !ok || i != 1 {
		t.Errorf("SubsystemIndex(MaxInt32) = %d, %v", i, ok)
	}
}

// The captured ObjCreateTeam bodies map to the right class and subsystem
// ids (simulation.md 3, 3.2). Parsing the body is codec's job; the host only
// needs the species (payload offset 11) and the object id (offset 7).
func TestObjCreateTeamVectors(t *testing.T) {
	var vs []struct {
		Name       string `json:"name"`
		PayloadHex string `json:"payload_hex"`
		Decoded    struct {
			Species int `json:"species"`
		} `json:"decoded"`
	}
	vectors.MustLoad(t, "simulation.json", &vs)
	tests := []struct {
		vector     string
		class      string
		subsystems int
		firstID    int32
		lastID     int32
		nextShipID int32
	}{
		{"objcreateteam_akira_spawn", "Akira", 31, 0x40000000, 0x4000001E, 0x4000001F},
		// The collision-test trace respawned this player's ship as 0x40000021.
		{"objcreateteam_sovereign_collision_test", "Sovereign", 33, 0x40000000, 0x40000020, 0x40000021},
	}
	r := mustVanilla(t)
	for _, tt := range tests {
		t.Run(tt.vector, func(t *testing.T) {
			var payload []byte
			species := -1
			for _, v := range vs {
				if v.Name == tt.vector {
					payload = vectors.MustHex(t, v.PayloadHex)
					species = v.Decoded.Species
				}
			}
			if payload == nil {
				t.Fatalf("vector %s missing", tt.vector)
			}
			if payload[0] != 0x03 || binary.LittleEndian.Uint32(payload[3:]) != 0x8008 {
				t.Fatalf("not a ship ObjCreateTeam: % x", payload[:7])
			}
			objectID := int32(binary.LittleEndian.Uint32(payload[7:]))
			if int(payload[11]) != species {
				t.Fatalf("species byte %d, decoded says %d", payload[11], species)
			}
			s, ok := r.NewShip(int(payload[11]), objectID)
			if !ok {
				t.Fatalf("species %d unknown", payload[11])
			}
			c := s.Class()
			if c.Name != tt.class || len(c.Subsystems) != tt.subsystems {
				t.Fatalf("class %s with %d subsystems, want %s with %d", c.Name, len(c.Subsystems), tt.class, tt.subsystems)
			}
			if objectID != 0x3FFFFFFF {
				t.Fatalf("object id %#x", objectID)
			}
			// Every id of firstID..lastID names exactly one subsystem, the
			// one whose id_offset it is, and maps back to it.
			seen := map[int32]int{}
			for i := range c.Subsystems {
				id := s.SubsystemID(i)
				if id != objectID+int32(c.Subsystems[i].IDOffset) || id < tt.firstID || id > tt.lastID {
					t.Errorf("subsystem %d (%s) id %#x", i, c.Subsystems[i].Name, id)
				}
				if j, dup := seen[id]; dup {
					t.Errorf("id %#x used by %d and %d", id, j, i)
				}
				seen[id] = i
				if j, ok := s.SubsystemIndex(id); !ok || j != i {
					t.Errorf("SubsystemIndex(%#x) = %d, %v", id, j, ok)
				}
			}
			if len(seen) != int(tt.lastID-tt.firstID+1) {
				t.Errorf("%d distinct ids, want %d", len(seen), tt.lastID-tt.firstID+1)
			}
			if got := objectID + int32(c.IDSpan()); got != tt.nextShipID {
				t.Errorf("next id in the block %#x, want %#x", got, tt.nextShipID)
			}
		})
	}
}

// The stock collision-death burst names subsystems 0x40000002 (damaged)
// and 0x40000018 (the repair subsystem) of the Sovereign 0x3FFFFFFF. Both
// must be ids of the ship; whether they name the same subsystems as here
// depends on the real creation order, which the data set lacks
// (simulation.md 3.2, 15). Under the serialization-order approximation
// 0x40000018 is Tractors and Repair is 0x4000000E, so the check is
// reported as skipped until the order is known.
func TestStockRepairEventIDs(t *testing.T) {
	payload := loadVector(t, "add_to_repair_list_stock_collision_death")
	damaged := int32(binary.LittleEndian.Uint32(payload[9:]))
	repair := int32(binary.LittleEndian.Uint32(payload[13:]))
	s, _ := mustVanilla(t).NewShip(5, 0x3FFFFFFF)
	di, ok1 := s.SubsystemIndex(damaged)
	ri, ok2 := s.SubsystemIndex(repair)
	if !ok1 || !ok2 {
		t.Fatalf("ids %#x, %#x are not Sovereign subsystem ids", damaged, repair)
	}
	c := s.Class()
	if ri != c.Repair {
		t.Skipf("creation order unknown (simulation.md 15): %#x is %q here, the stock repair subsystem; Repair is %#x; %#x is %q",
			repair, c.Subsystems[ri].Name, s.SubsystemID(c.Repair), damaged, c.Subsystems[di].Name)
	}
}
