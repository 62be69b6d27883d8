package engine

import (
	"bytes"
	"testing"

	"github.com/bcserver/bcserver/codec"
)

// An ObjCreateTeam is relayed and kept for late joiners only when it is
// one a real client could send: a 60 KB one, one whose tail does not fit
// its class, or one with an unknown class id goes nowhere and is not
// stored; the real one passes.
func TestObjCreateValidated(t *testing.T) {
	l := newLAN(t, DefaultConfig(), "A", "B")
	a := l.cs[0]
	spawn := vec(t, "simulation.json", "objcreateteam_akira_spawn")
	huge := append(bytes.Clone(spawn), make([]byte, 60<<10)...)
	m, err := codec.DecodeObjCreate(spawn)
	if err != nil {
		t.Fatal(err)
	}
	badTail := bytes.Clone(spawn[:len(spawn)-1]) // one tail byte short
	longName := m
	longName.Ship.Name = bytes.Repeat([]byte{'x'}, 200)
	otherClass := bytes.Clone(spawn)
	otherClass[3] = 0x77 // class id 0x00008077
	for _, tc := range []struct {
		name    string
		payload []byte
	}{
		{"60 KB", huge},
		{"tail one byte short", badTail},
		{"200-byte name", longName.AppendTo(nil)},
		{"unknown class id", otherClass},
	} {
		before := l.g.Stats.Malformed.Load()
		got := l.send(a, tc.payload, true)
		if len(got[1]) != 0 {
			t.Fatalf("%s: relayed to B", tc.name)
		}
		if l.g.Stats.Malformed.Load() != before+1 {
			t.Fatalf("%s: not counted as malformed", tc.name)
		}
		if o := l.g.world.Object(m.ObjectID); o != nil {
			t.Fatalf("%s: stored", tc.name)
		}
	}
	got := l.send(a, spawn, true)
	if len(got[1]) != 1 || !bytes.Equal(got[1][0], spawn) {
		t.Fatalf("the real spawn was not relayed: %X", got[1])
	}
}

func BenchmarkCheckObjCreate(b *testing.B) {
	g := newTestGame(b, DefaultConfig(), nil)
	spawn := vec(b, "simulation.json", "objcreateteam_akira_spawn")
	b.ReportAllocs()
	for b.Loop() {
		var m codec.ObjCreate
		if err := checkObjBody(g, spawn, &m); err != nil {
			b.Fatal(err)
		}
	}
}
