package ships

import (
	"bytes"
	"errors"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/vectors"
)

// Every class's generated tail passes, with the length TailLen says; the
// captured Akira spawn's tail passes; any truncation, extension or broken
// packed-bit byte fails.
func TestCheckTail(t *testing.T) {
	r := mustVanilla(t)
	for _, c := range r.Classes() {
		var w codec.Writer
		AppendTail(&w, NewShip(c, 0x3FFFFFFF), DefaultTail())
		tail := w.Bytes()
		if err := CheckTail(c, tail); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
		if TailLen(c) != len(tail) {
			t.Errorf("%s: TailLen %d, tail %d bytes", c.Name, TailLen(c), len(tail))
		}
		for n := 0; n < len(tail); n++ {
			if err := CheckTail(c, tail[:n]); !errors.Is(err, ErrTail) {
				t.Fatalf("%s cut to %d bytes: %v", c.Name, n, err)
			}
		}
		if err := CheckTail(c, append(bytes.Clone(tail), 0)); !errors.Is(err, ErrTail) {
			t.Errorf("%s with a byte more: %v", c.Name, err)
		}
	}
	akira, _ := r.Class(1)
	spawn, err := codec.DecodeObjCreate(vectors.MustNamed(t, "simulation.json", "objcreateteam_akira_spawn"))
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckTail(akira, spawn.Ship.Tail); err != nil {
		t.Fatalf("captured spawn: %v", err)
	}
	// The Akira's three weapon bits share one group byte (60 = 3 bits):
	// declaring 4 or 0 bits breaks the grammar.
	i := bytes.IndexByte(spawn.Ship.Tail, 0x60)
	for _, b := range []byte{0x80, 0x00, 0x40} {
		bad := bytes.Clone(spawn.Ship.Tail)
		bad[i] = b
		if err := CheckTail(akira, bad); !errors.Is(err, ErrTail) {
			t.Errorf("group byte %02X: %v", b, err)
		}
	}
}

func FuzzCheckTail(f *testing.F) {
	r := mustVanilla(f)
	for _, c := range r.Classes() {
		var w codec.Writer
		AppendTail(&w, NewShip(c, 0x3FFFFFFF), DefaultTail())
		f.Add(uint8(c.SpeciesID), w.Bytes())
	}
	f.Fuzz(func(t *testing.T, species uint8, tail []byte) {
		c, ok := r.Class(int(species))
		if !ok {
			return
		}
		if err := CheckTail(c, tail); err == nil && len(tail) != TailLen(c) {
			t.Fatalf("%s: accepted a tail of %d bytes, want %d", c.Name, len(tail), TailLen(c))
		}
	})
}
