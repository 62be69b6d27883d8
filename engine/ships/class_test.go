package ships

import (
	"slices"
	"testing"
)

// The per-class table of simulation.md 4.2, verified against stock
// subsystem-creation tracing.
func TestClassTable(t *testing.T) {
	tests := []struct {
		species                      int
		name                         string
		topLevel, children, all, cyc int
	}{
		{1, "Akira", 11, 20, 31, 47},
		{2, "Ambassador", 11, 18, 29, 45},
		{3, "Galaxy", 11, 23, 34, 50},
		{4, "Nebula", 11, 20, 31, 47},
		{5, "Sovereign", 11, 22, 33, 49},
		{6, "BirdOfPrey", 10, 6, 16, 32},
		{7, "Vorcha", 12, 12, 24, 44},
		{8, "Warbird", 13, 13, 26, 46},
		{9, "Marauder", 10, 9, 19, 35},
		{10, "Galor", 9, 8, 17, 31},
		{11, "Keldon", 10, 13, 23, 39},
		{12, "CardHybrid", 11, 18, 29, 47},
		{13, "KessokHeavy", 10, 14, 24, 40},
		{14, "KessokLight", 10, 13, 23, 39},
		{15, "Shuttle", 9, 6, 15, 29},
	}
	r := mustVanilla(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := r.Class(tt.species)
			if !ok {
				t.Fatalf("species %d missing", tt.species)
			}
			if c.Name != tt.name {
				t.Errorf("name %q", c.Name)
			}
			if len(c.Entries) != tt.topLevel {
				t.Errorf("top-level %d, want %d", len(c.Entries), tt.topLevel)
			}
			if c.ChildCount() != tt.children {
				t.Errorf("children %d, want %d", c.ChildCount(), tt.children)
			}
			if len(c.Subsystems) != tt.all {
				t.Errorf("all subsystems %d, want %d", len(c.Subsystems), tt.all)
			}
			if got := c.CycleBytes(false); got != tt.cyc {
				t.Errorf("remote cycle bytes %d, want %d", got, tt.cyc)
			}
			// The owner gets no power byte: one byte less per powered entry.
			powered := 0
			for _, e := range c.Entries {
				if e.Format == FormatPowered {
					powered++
				}
			}
			if got := c.CycleBytes(true); got != tt.cyc-powered {
				t.Errorf("owner cycle bytes %d, want %d", got, tt.cyc-powered)
			}
			checkLayout(t, c)
		})
	}
}

// checkLayout checks the invariants the writer relies on: each entry's own
// subsystem is followed directly by its children, and the special indices
// point where they should.
func checkLayout(t *testing.T, c *Class) {
	t.Helper()
	next := 0
	for ei, e := range c.Entries {
		if e.Subsystem != next {
			t.Errorf("entry %d (%s) starts at subsystem %d, want %d", ei, e.Name, e.Subsystem, next)
		}
		for k := 0; k <= e.Children; k++ {
			s := c.Subsystems[e.Subsystem+k]
			if s.Entry != ei || s.Child != k-1 {
				t.Errorf("subsystem %q: entry %d child %d, want %d, %d", s.Name, s.Entry, s.Child, ei, k-1)
			}
		}
		next += 1 + e.Children
	}
	if next != len(c.Subsystems) {
		t.Errorf("entries cover %d subsystems of %d", next, len(c.Subsystems))
	}
	if c.Subsystems[c.Hull].Name != "Hull" {
		t.Errorf("Hull index names %q", c.Subsystems[c.Hull].Name)
	}
	if c.PowerEntry < 0 || c.Entries[c.PowerEntry].Subsystem != c.Reactor || c.Subsystems[c.Reactor].Type().String() != "power" {
		t.Errorf("reactor: entry %d, subsystem %d", c.PowerEntry, c.Reactor)
	}
	if c.Repair < 0 || c.Subsystems[c.Repair].Type().String() != "repair" || c.Subsystems[c.Repair].Child != -1 {
		t.Errorf("repair subsystem %d", c.Repair)
	}
	if c.ShieldGenerator < 0 || c.Subsystems[c.ShieldGenerator].Type().String() != "shield" {
		t.Errorf("shield generator %d", c.ShieldGenerator)
	}
	for i, s := range c.Subsystems {
		if j, ok := c.SubsystemIndex(s.Name); !ok || j != i {
			t.Errorf("SubsystemIndex(%q) = %d, %v; want %d", s.Name, j, ok, i)
		}
	}
}

type fmtEntry struct {
	name     string
	format   Format
	children int
}

func entriesOf(c *Class) []fmtEntry {
	var out []fmtEntry
	for _, e := range c.Entries {
		out = append(out, fmtEntry{e.Name, e.Format, e.Children})
	}
	return out
}

// Putting an entry at the wrong index desynchronises the client's reader
// (simulation.md 4.2: a Sovereign with Bridge at index 7 was a real bug).
func TestEntryOrder(t *testing.T) {
	r := mustVanilla(t)
	sov, _ := r.ClassByName("Sovereign")
	want := []fmtEntry{
		{"Hull", FormatBase, 0},
		{"Shield Generator", FormatBase, 0},
		{"Sensor Array", FormatPowered, 0},
		{"Warp Core", FormatPower, 0},
		{"Impulse Engines", FormatPowered, 2},
		{"Torpedoes", FormatPowered, 6},
		{"Repair", FormatPowered, 0},
		{"Phasers", FormatPowered, 8},
		{"Tractors", FormatPowered, 4},
		{"Warp Engines", FormatPowered, 2},
		{"Bridge", FormatBase, 0},
	}
	if got := entriesOf(sov); !slices.Equal(got, want) {
		t.Errorf("Sovereign entries\n got %v\nwant %v", got, want)
	}

	tests := []struct {
		class  string
		entry  string
		index  int
		before string // entry that must come later, if any
	}{
		{"Galaxy", "Warp Core", 1, ""},
		{"Ambassador", "Bridge", 9, "Tractors"},
		{"Akira", "Engineering", 8, ""},
		{"Akira", "Tractors", 9, ""},
		{"Akira", "Bridge", 10, ""},
	}
	for _, tt := range tests {
		c, _ := r.ClassByName(tt.class)
		i := slices.IndexFunc(c.Entries, func(e Entry) bool { return e.Name == tt.entry })
		if i != tt.index {
			t.Errorf("%s: %s at index %d, want %d", tt.class, tt.entry, i, tt.index)
		}
		if tt.before != "" {
			j := slices.IndexFunc(c.Entries, func(e Entry) bool { return e.Name == tt.before })
			if j <= i {
				t.Errorf("%s: %s (%d) must come after %s (%d)", tt.class, tt.before, j, tt.entry, i)
			}
		}
	}
}

// The regenerated data carries the hardpoint's max condition in both files
// (simulation.md 14.21): Akira Warp Core 5000, Phasers 2400, Torpedoes
// 1000, not the older 6000 / 8000 / 5000.
func TestMaxConditionSource(t *testing.T) {
	r := mustVanilla(t)
	akira, _ := r.ClassByName("Akira")
	tests := []struct {
		name       string
		wire, data float32 // data 0 = not in subsystems.json
	}{
		{"Warp Core", 5000, 5000},
		{"Impulse Engines", 4000, 4000},
		{"Port Impulse", 2000, 2000},
		{"Star Impulse", 2000, 2000},
		{"Phasers", 2400, 0},
		{"Torpedoes", 1000, 0},
		{"Ventral Phaser 1", 800, 800},
		{"Hull", 9000, 9000},
	}
	for _, tt := range tests {
		i, ok := akira.SubsystemIndex(tt.name)
		if !ok {
			t.Errorf("%s missing", tt.name)
			continue
		}
		s := akira.Subsystems[i]
		if s.MaxCondition != tt.wire {
			t.Errorf("%s: MaxCondition %v, want %v", tt.name, s.MaxCondition, tt.wire)
		}
		var data float32
		if s.Data != nil {
			data = s.Data.MaxCondition
		}
		if data != tt.data {
			t.Errorf("%s: subsystems.json max %v, want %v", tt.name, data, tt.data)
		}
	}
	// The Shuttle's "Repair System" is defined by its hardpoint but never
	// added to the ship; the regenerated data no longer lists it.
	shuttle, _ := r.ClassByName("Shuttle")
	if len(shuttle.Unlisted) != 0 {
		t.Errorf("Shuttle unlisted = %q", shuttle.Unlisted)
	}
	if i := shuttle.Repair; shuttle.Subsystems[i].Name != "Repair" {
		t.Errorf("Shuttle repair subsystem %q", shuttle.Subsystems[i].Name)
	}
}

func TestFormatString(t *testing.T) {
	for f, want := range map[Format]string{FormatBase: "base", FormatPowered: "powered", FormatPower: "power", 9: "Format(9)"} {
		if f.String() != want {
			t.Errorf("%d: %q", f, f.String())
		}
	}
}

// Engines are subsystems of their own (data/README.md, simulation.md
// Correction 43): every class with an impulse or warp system lists its
// engine children in subsystems.json, under the matching system, so hits
// and rams can reach them.
func TestEnginesAreSubsystems(t *testing.T) {
	r := mustVanilla(t)
	galaxy, _ := r.ClassByName("Galaxy")
	i, ok := galaxy.SubsystemIndex("Star Warp")
	if !ok {
		t.Fatal("Galaxy has no Star Warp")
	}
	s := galaxy.Subsystems[i]
	if s.Data == nil || s.Data.Type != "engine" || s.Data.EngineType != "warp" || !s.Data.IsTargetable || s.Data.MaxCondition != 5000 {
		t.Fatalf("Star Warp data = %+v", s.Data)
	}
	if p := galaxy.Subsystems[galaxy.Entries[s.Entry].Subsystem]; p.Name != "Warp Engines" || s.Child < 0 {
		t.Errorf("Star Warp is child %d of %q", s.Child, p.Name)
	}
	for _, c := range r.Classes() {
		for _, e := range c.Entries {
			typ := c.Subsystems[e.Subsystem].Type().String()
			if typ != "impulse_engine" && typ != "warp_engine" {
				continue
			}
			for k := 1; k <= e.Children; k++ {
				ch := c.Subsystems[e.Subsystem+k]
				if ch.Data == nil || ch.Data.Type != "engine" {
					t.Errorf("%s %s: child %s has no engine data", c.Name, e.Name, ch.Name)
				}
			}
		}
	}
}

// A phaser bank sits on its strip at run time; the Galaxy's eight banks
// share two hardpoint positions and land where the stock game puts them
// (stbc-oracle capture meta, simulation.md Correction 46).
func TestPhaserBankRuntimePositions(t *testing.T) {
	r := mustVanilla(t)
	g, _ := r.ClassByName("Galaxy")
	want := map[string][3]float32{
		"Ventral Phaser 1": {-1.330, 1.300, 0.160},
		"Ventral Phaser 2": {-0.665, 2.175, 0.160},
		"Ventral Phaser 3": {0.665, 2.175, 0.160},
		"Ventral Phaser 4": {1.330, 1.300, 0.160},
		"Dorsal Phaser 1":  {-1.690, 1.270, 0.500},
		"Dorsal Phaser 2":  {-0.845, 2.439, 0.500},
		"Dorsal Phaser 3":  {0.845, 2.439, 0.500},
		"Dorsal Phaser 4":  {1.690, 1.270, 0.500},
		"Sensor Array":     {0, -0.45, -0.5}, // not a bank: the hardpoint's
	}
	for name, w := range want {
		i, ok := g.SubsystemIndex(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		p := g.Subsystems[i].Position
		for k := range 3 {
			if d := p[k] - w[k]; d > 0.001 || d < -0.001 {
				t.Errorf("%s at %v, want %v", name, p, w)
				break
			}
		}
	}
}
