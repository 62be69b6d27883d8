package ships

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/vectors"
)

func loadVector(t *testing.T, name string) []byte {
	t.Helper()
	return vectors.MustNamed(t, "simulation.json", name)
}

// The stock host's 0x20 block for an Akira sent to its owner
// (simulation.md 4.3 worked example), rebuilt from the model: a fresh
// cursor starts at 0, 5, 6 and then 8, whose block is the captured one.
func TestCapturedSubsystemsToOwner(t *testing.T) {
	payload := loadVector(t, "stateupdate_host_0x20_subsystems_to_owner")
	r := mustVanilla(t)
	s, _ := r.NewShip(1, 0x3FFFFFFF)

	var cur Cursor
	var w codec.Writer
	var starts []int
	for cur.Next(s) != 8 {
		starts = append(starts, cur.Next(s))
		w.Reset(w.Bytes()[:0])
		AppendSubsystems(&w, s, &cur, true)
		if len(starts) > 11 {
			t.Fatal("cursor never reached 8")
		}
	}
	if want := []int{0, 5, 6}; !slices.Equal(starts, want) {
		t.Errorf("starts %v, want %v", starts, want)
	}

	// Header exactly as the stock message: opcode, object id, game time,
	// dirty = 0x20, then the block.
	rd := codec.NewReader(payload)
	rd.U8()
	rd.I32()
	gameTime := rd.F32()
	w.Reset(nil)
	w.U8(0x1C)
	w.I32(s.ObjectID())
	w.F32(gameTime)
	w.U8(0x20)
	AppendSubsystems(&w, s, &cur, true)
	if !bytes.Equal(w.Bytes(), payload) {
		t.Errorf("message\n got % X\nwant % X", w.Bytes(), payload)
	}
	if block := w.Bytes()[10:]; !bytes.Equal(block, vectors.MustHex(t, "08 FF 60 FF FF FF FF FF FF FF")) {
		t.Errorf("block % X", block)
	}
	if cur.Next(s) != 3 {
		t.Errorf("next start %d, want 3", cur.Next(s))
	}

	// The client-side reader agrees with the capture.
	rd = codec.NewReader(payload)
	rd.Raw(10)
	var got []int
	next, err := ReadSubsystems(&rd, s.Class(), func(e EntryState) {
		got = append(got, e.Index)
		if e.HasPower {
			t.Errorf("entry %d: has_power set in a block to the owner", e.Index)
		}
		for _, b := range e.Cond {
			if b != 0xFF {
				t.Errorf("entry %d: condition %#x", e.Index, b)
			}
		}
	})
	if err != nil || next != 3 || !slices.Equal(got, []int{8, 9, 10, 0, 1, 2}) {
		t.Errorf("ReadSubsystems: entries %v next %d err %v", got, next, err)
	}
}

// Hand-derived blocks (simulation.md 4.2, codec.md 2): remote receivers get
// has_power = 1 and the power byte; bits share a packed byte across the
// plain bytes; a bit group opened before the block (has_hash of flag 0x01)
// takes the block's bits too.
func TestAppendSubsystemsBytes(t *testing.T) {
	r := mustVanilla(t)
	tests := []struct {
		name    string
		species int
		start   int
		owner   bool
		hash    bool // write the host's has_hash = 0 bit first (flag 0x01)
		edit    func(*Ship)
		want    string
		next    int
	}{
		{name: "akira remote from 0", species: 1, start: 0,
			// Hull, ShieldGen, Sensors (bit opens 0x21, power 64), Warp Core
			// + batteries, Impulse + 2 children (bit joins: 0x43) -> 13 bytes.
			want: "00 FF FF FF 43 64 FF FF FF FF FF FF 64", next: 5},
		{name: "akira remote damaged", species: 1, start: 0,
			edit: func(s *Ship) {
				s.SetHull(4500)          // 0x7F
				s.SetPower(2, 1, false)  // sensors OFF: 0x9C
				s.SetBatteries(75000, 0) // 0x7F, 0x00
				s.SetCondition(5, 1000)  // Port Impulse (max 2000): 0x7F
				s.SetCondition(3, 0)     // Warp Core destroyed
			},
			want: "00 7F FF FF 43 9C 00 7F 00 FF 7F FF 64", next: 5},
		{name: "akira owner from 0", species: 1, start: 0, owner: true,
			want: "00 FF FF FF 40 FF FF FF FF FF FF", next: 5}, // two bits: 0x40
		{name: "akira owner start 8", species: 1, start: 8, owner: true,
			want: "08 FF 60 FF FF FF FF FF FF FF", next: 3},
		{name: "akira owner start 8 after has_hash", species: 1, start: 8, owner: true, hash: true,
			// The three has_power bits join the has_hash byte (0x20 -> 0x80),
			// so the block is one byte shorter and takes the Warp Core too.
			want: "80 08 FF FF FF FF FF FF FF FF FF FF FF", next: 4},
		{name: "sovereign remote phasers overshoot", species: 5, start: 7,
			// One Phasers entry alone is 11 bytes with the start byte.
			want: "07 FF FF FF FF FF FF FF FF FF 21 64", next: 8},
		{name: "shuttle remote wraps", species: 15, start: 8,
			// Tractors + child, wrap, Hull, Impulse(2): 0x21 then 0x43.
			want: "08 FF FF 43 64 FF FF FF FF 64", next: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := r.NewShip(tt.species, 0x3FFFFFFF)
			if tt.edit != nil {
				tt.edit(s)
			}
			cur := Cursor{ship: s.ObjectID(), next: uint8(tt.start), used: true}
			var w codec.Writer
			if tt.hash {
				w.Bit(false)
			}
			AppendSubsystems(&w, s, &cur, tt.owner)
			want := vectors.MustHex(t, tt.want)
			if !bytes.Equal(w.Bytes(), want) {
				t.Errorf("\n got % X\nwant % X", w.Bytes(), want)
			}
			if cur.Next(s) != tt.next {
				t.Errorf("next %d, want %d", cur.Next(s), tt.next)
			}
			// Reading it back reproduces the sender's bytes.
			rd := codec.NewReader(w.Bytes())
			if tt.hash && rd.Bit() {
				t.Fatal("has_hash read as set")
			}
			dst := NewShip(s.Class(), s.ObjectID())
			next, err := ReadSubsystemsInto(&rd, dst)
			if err != nil || next != tt.next {
				t.Fatalf("ReadSubsystemsInto: next %d err %v", next, err)
			}
			for i := range s.Class().Subsystems {
				if dst.ConditionByte(i) != s.ConditionByte(i) {
					t.Errorf("subsystem %d: read %#x, sent %#x", i, dst.ConditionByte(i), s.ConditionByte(i))
				}
			}
		})
	}
}

func TestCursor(t *testing.T) {
	r := mustVanilla(t)
	sov, _ := r.NewShip(5, 0x3FFFFFFF)
	var cur Cursor
	if cur.Next(sov) != 0 {
		t.Error("zero Cursor must start at 0")
	}
	var w codec.Writer
	AppendSubsystems(&w, sov, &cur, false)
	if cur.Next(sov) == 0 {
		t.Fatal("cursor did not advance")
	}
	// A respawned ship has a new id: the old position is not inherited
	// (simulation.md 11).
	respawn, _ := r.NewShip(5, 0x40000021)
	if cur.Next(respawn) != 0 {
		t.Error("cursor carried over to a new ship object")
	}
	// A position past the end of a smaller class restarts at 0.
	shuttle, _ := r.NewShip(15, 0x3FFFFFFF)
	cur = Cursor{ship: shuttle.ObjectID(), next: 10, used: true}
	if cur.Next(shuttle) != 0 {
		t.Error("out-of-range cursor not reset")
	}
	cur.Reset()
	if cur != (Cursor{}) {
		t.Error("Reset")
	}
}

// Over consecutive messages every entry is sent, each block keeps to the
// budget rule of simulation.md 4.3, and the reader recovers every byte the
// writer sent; for every class, both receiver kinds and random states.
func TestRoundRobinProperty(t *testing.T) {
	r := mustVanilla(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range r.Classes() {
		for _, owner := range []bool{false, true} {
			name := c.Name + "/remote"
			if owner {
				name = c.Name + "/owner"
			}
			t.Run(name, func(t *testing.T) {
				for trial := 0; trial < 20; trial++ {
					checkRoundRobin(t, c, owner, rng)
				}
			})
		}
	}
}

func randomize(s *Ship, rng *rand.Rand) {
	c := s.Class()
	for i, sub := range c.Subsystems {
		switch rng.IntN(4) {
		case 0:
			s.SetCondition(i, 0)
		case 1:
			s.SetCondition(i, sub.MaxCondition)
		default:
			s.SetCondition(i, rng.Float32()*sub.MaxCondition)
		}
	}
	for e := range c.Entries {
		s.SetPower(e, rng.Float32()*1.25, rng.IntN(3) != 0)
	}
	s.SetBatteries(rng.Float32()*c.Power.MainBatteryLimit, rng.Float32()*c.Power.BackupBatteryLimit)
}

func checkRoundRobin(t *testing.T, c *Class, owner bool, rng *rand.Rand) {
	t.Helper()
	src := NewShip(c, 0x3FFFFFFF)
	randomize(src, rng)
	dst := NewShip(c, 0x3FFFFFFF)
	randomize(dst, rng)

	n := len(c.Entries)
	cur := Cursor{ship: src.ObjectID(), next: uint8(rng.IntN(n)), used: true}
	seen := make([]bool, n)
	var w codec.Writer
	prefix := rng.IntN(2) == 0 // sometimes a has_hash bit is already open
	for msg := 0; msg < n; msg++ {
		start := cur.Next(src)
		w.Reset(w.Bytes()[:0])
		if prefix {
			w.Bit(false)
		}
		before := w.Len()
		AppendSubsystems(&w, src, &cur, owner)
		block := w.Len() - before
		if block > c.MaxBlockLen() {
			t.Fatalf("block of %d bytes > MaxBlockLen %d", block, c.MaxBlockLen())
		}

		rd := codec.NewReader(w.Bytes())
		if prefix {
			rd.Bit()
		}
		var idx []int
		var ends []int // reader offset after each entry
		next, err := ReadSubsystems(&rd, c, func(e EntryState) {
			idx = append(idx, e.Index)
			ends = append(ends, rd.Offset())
			if e.HasPower == owner && c.Entries[e.Index].Format == FormatPowered {
				t.Errorf("entry %d: has_power %v for owner=%v", e.Index, e.HasPower, owner)
			}
			dst.ApplyEntry(e)
		})
		if err != nil {
			t.Fatalf("message %d: %v (block % X)", msg, err, w.Bytes())
		}
		if next != cur.Next(src) || idx[0] != start {
			t.Fatalf("reader start %d next %d, writer start %d next %d", idx[0], next, start, cur.Next(src))
		}
		// Budget: the block stops at the first entry that reaches 10 bytes
		// (counting the start byte), or after a full cycle.
		full := len(idx) == n
		for k, end := range ends {
			used := end - before
			last := k == len(ends)-1
			if !last && used >= blockBudget {
				t.Fatalf("entry %d ended at %d bytes but the block went on", idx[k], used)
			}
			if last && used < blockBudget && !full {
				t.Fatalf("block stopped at %d bytes without a full cycle", used)
			}
		}
		for _, i := range idx {
			seen[i] = true
		}
		if !slices.Contains(seen, false) {
			break
		}
	}
	if i := slices.Index(seen, false); i >= 0 {
		t.Fatalf("entry %d (%s) never sent in %d messages", i, c.Entries[i].Name, n)
	}
	for i := range c.Subsystems {
		if dst.ConditionByte(i) != src.ConditionByte(i) {
			t.Errorf("subsystem %d: %#x received, %#x sent", i, dst.ConditionByte(i), src.ConditionByte(i))
		}
	}
	gotMain, gotBackup := dst.BatteryBytes()
	sentMain, sentBackup := src.BatteryBytes()
	if gotMain != sentMain || gotBackup != sentBackup {
		t.Errorf("batteries %#x %#x received, %#x %#x sent", gotMain, gotBackup, sentMain, sentBackup)
	}
	for e, ent := range c.Entries {
		if ent.Format != FormatPowered {
			continue
		}
		// The owner never receives power; everyone else gets the sender's.
		if got, sent := dst.PowerByte(e), src.PowerByte(e); !owner && got != sent {
			t.Errorf("entry %d power %#x received, %#x sent", e, got, sent)
		}
	}
}

// A Sovereign cycles in about 4 messages for a remote receiver (4.3).
func TestSovereignCycleLength(t *testing.T) {
	c, _ := mustVanilla(t).Class(5)
	s := NewShip(c, 0x3FFFFFFF)
	var cur Cursor
	var w codec.Writer
	var starts []int
	for range 5 {
		starts = append(starts, cur.Next(s))
		w.Reset(w.Bytes()[:0])
		AppendSubsystems(&w, s, &cur, false)
	}
	// Starts walk 0, 5, 6, 8, 10; the fifth block wraps and ends after the
	// Warp Core, so the sixth starts at 4.
	if want := []int{0, 5, 6, 8, 10}; !slices.Equal(starts, want) || cur.Next(s) != 4 {
		t.Errorf("starts %v then %d, want %v then 4", starts, cur.Next(s), want)
	}
}

func TestReadSubsystemsErrors(t *testing.T) {
	c, _ := mustVanilla(t).Class(1)
	tests := []struct {
		name  string
		hex   string
		short bool
	}{
		{"empty", "", true},
		{"start past the list", "0B FF", false},
		{"truncated children", "04 FF FF", true},
		{"missing power byte", "02 FF 21", true},
		{"missing battery", "03 FF FF", true},
		{"bad bit byte", "02 FF 00", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rd := codec.NewReader(vectors.MustHex(t, tt.hex))
			_, err := ReadSubsystems(&rd, c, nil)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.short != errors.Is(err, codec.ErrShort) {
				t.Errorf("err %v: ErrShort = %v, want %v", err, errors.Is(err, codec.ErrShort), tt.short)
			}
			if tt.name == "start past the list" && !errors.Is(err, ErrBadBlock) {
				t.Errorf("err %v does not wrap ErrBadBlock", err)
			}
		})
	}
	// A start byte alone is a legal, empty block.
	rd := codec.NewReader([]byte{4})
	if next, err := ReadSubsystems(&rd, c, nil); err != nil || next != 4 {
		t.Errorf("start-only block: %d, %v", next, err)
	}
}

func FuzzReadSubsystems(f *testing.F) {
	r, err := Vanilla()
	if err != nil {
		f.Fatal(err)
	}
	classes := r.Classes()
	for i, c := range classes {
		s := NewShip(c, 1)
		var cur Cursor
		for _, owner := range []bool{false, true} {
			var w codec.Writer
			AppendSubsystems(&w, s, &cur, owner)
			f.Add(uint8(i), w.Bytes())
		}
	}
	f.Fuzz(func(t *testing.T, ci uint8, b []byte) {
		c := classes[int(ci)%len(classes)]
		s := NewShip(c, 1)
		rd := codec.NewReader(b)
		next, err := ReadSubsystemsInto(&rd, s)
		if err == nil && (next < 0 || next >= len(c.Entries) || rd.Len() != 0) {
			t.Fatalf("next %d, %d bytes left", next, rd.Len())
		}
	})
}

// The writer must not allocate: it runs 16 × 15 times per tick at 10 Hz.
func TestAppendSubsystemsNoAlloc(t *testing.T) {
	c, _ := mustVanilla(t).Class(3)
	s := NewShip(c, 0x3FFFFFFF)
	var cur Cursor
	w := codec.NewWriter(make([]byte, 0, c.MaxBlockLen()+1))
	allocs := testing.AllocsPerRun(100, func() {
		w.Reset(w.Bytes()[:0])
		w.Bit(false) // an open has_hash group must not matter
		AppendSubsystems(w, s, &cur, cur.Next(s)%2 == 0)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per call", allocs)
	}
}
