package ships

import (
	"testing"

	"github.com/bcserver/bcserver/codec"
)

// One 0x20 block for a Sovereign to a remote receiver.
func BenchmarkAppendSubsystemsSovereign(b *testing.B) {
	c, _ := mustVanilla(b).Class(5)
	s := NewShip(c, 0x3FFFFFFF)
	var cur Cursor
	w := codec.NewWriter(make([]byte, 0, 64))
	b.ReportAllocs()
	for b.Loop() {
		w.Reset(w.Bytes()[:0])
		AppendSubsystems(w, s, &cur, false)
	}
}

// One host tick at full load: 16 ships (every flyable class plus repeats),
// each sent to 15 receivers, one of which is its owner; a fresh message per
// (ship, receiver) with the 0x1C header in front of the block.
func BenchmarkTick16Ships15Receivers(b *testing.B) {
	const ships, receivers = 16, 15
	r := mustVanilla(b)
	var fleet [ships]*Ship
	for i := range fleet {
		c, _ := r.Class(1 + i%15)
		fleet[i] = NewShip(c, 0x3FFFFFFF+int32(i)*0x40000)
	}
	var cursors [ships][receivers]Cursor
	w := codec.NewWriter(make([]byte, 0, 64))
	b.ReportAllocs()
	for b.Loop() {
		for si, s := range fleet {
			for ri := range receivers {
				w.Reset(w.Bytes()[:0])
				w.U8(0x1C)
				w.I32(s.ObjectID())
				w.F32(12.5)
				w.U8(0x20)
				AppendSubsystems(w, s, &cursors[si][ri], ri == si%receivers)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(ships*receivers), "ns/block")
}

// Loading the embedded stock data set from its JSON files: what the first
// Vanilla call costs at start-up.
func BenchmarkLoadVanillaJSON(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(vanillaFS, vanillaDir); err != nil {
			b.Fatal(err)
		}
	}
}

// Loading the same set from its predecoded values (vanilla_decoded.go):
// what Vanilla costs.
func BenchmarkLoadVanilla(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(predecoded{vanillaFS, vanillaDecoded}, vanillaDir); err != nil {
			b.Fatal(err)
		}
	}
}
