package lossy

import (
	"bytes"
	"math"
	"testing"
)

func TestFilterRates(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
	}{
		{"clean", Config{}},
		{"loss 10%", Config{Loss: 0.1}},
		{"loss 30%", Config{Loss: 0.3}},
		{"duplicate 20%", Config{Duplicate: 0.2}},
		{"reorder 25%", Config{Reorder: 0.25}},
		{"loss 30% in bursts of 4", Config{Loss: 0.3, Burst: 4}},
	}
	const n = 20000
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFilter(tc.cfg, 7)
			var out [][]byte
			got := 0
			for i := range n {
				out = f.Pass([]byte{byte(i)}, out[:0])
				got += len(out)
			}
			got += len(f.Release(out[:0]))
			want := float64(n) * (1 - tc.cfg.Loss) * (1 + tc.cfg.Duplicate)
			if math.Abs(float64(got)-want) > 0.02*n {
				t.Fatalf("delivered %d, want about %.0f", got, want)
			}
			if f.Stats.In != n || f.Stats.Out != uint64(got) {
				t.Fatalf("stats %+v, delivered %d", f.Stats, got)
			}
		})
	}
}

// The same seed gives the same fate to the same stream.
func TestFilterDeterministic(t *testing.T) {
	run := func() []byte {
		f := NewFilter(Config{Loss: 0.2, Duplicate: 0.1, Reorder: 0.2}, 42)
		var seq []byte
		var out [][]byte
		for i := range 500 {
			for _, d := range f.Pass([]byte{byte(i)}, out[:0]) {
				seq = append(seq, d[0])
			}
		}
		return seq
	}
	if a, b := run(), run(); !bytes.Equal(a, b) {
		t.Fatal("two runs with one seed differ")
	}
}

// A held-back datagram leaves right after the next one; a blackout drops
// everything, the held one included.
func TestFilterReorderAndBlackout(t *testing.T) {
	f := NewFilter(Config{Reorder: 1}, 1)
	if out := f.Pass([]byte{1}, nil); len(out) != 0 || !f.Holding() {
		t.Fatalf("first datagram not held: %v", out)
	}
	out := f.Pass([]byte{2}, nil)
	if len(out) != 2 || out[0][0] != 2 || out[1][0] != 1 {
		t.Fatalf("reordered: %v", out)
	}
	f.Pass([]byte{3}, nil) // held
	f.SetBlackout(true)
	if out := f.Pass([]byte{4}, nil); len(out) != 0 {
		t.Fatalf("blackout let %v through", out)
	}
	if out := f.Release(nil); len(out) != 0 {
		t.Fatalf("blackout kept the held datagram: %v", out)
	}
	f.SetBlackout(false)
	f.Set(Config{})
	if out := f.Pass([]byte{5}, nil); len(out) != 1 || out[0][0] != 5 {
		t.Fatalf("after the blackout: %v", out)
	}
	if f.Stats.Blackouts != 2 {
		t.Fatalf("blackout drops %d, want 2", f.Stats.Blackouts)
	}
}

// Bursty loss: the same share lost, in runs whose mean length is Burst;
// jitter spreads each datagram's delay over [Delay, Delay+Jitter].
func TestFilterBurstsAndJitter(t *testing.T) {
	f := NewFilter(Config{Loss: 0.3, Burst: 4, Delay: 10e6, Jitter: 200e6}, 3)
	var out [][]byte
	runs, inRun, lost := 0, false, 0
	const n = 40000
	for i := range n {
		out = f.Pass([]byte{byte(i)}, out[:0])
		if len(out) == 0 {
			lost++
			if !inRun {
				runs++
			}
			inRun = true
		} else {
			inRun = false
		}
	}
	if mean := float64(lost) / float64(runs); math.Abs(float64(lost)/n-0.3) > 0.02 || math.Abs(mean-4) > 0.4 {
		t.Fatalf("lost %.3f in runs of %.2f on average, want 0.3 in runs of 4", float64(lost)/n, mean)
	}
	lo, hi := f.Delay(), f.Delay()
	for range 10000 {
		d := f.Delay()
		lo, hi = min(lo, d), max(hi, d)
	}
	if lo < 10e6 || hi > 210e6 || hi-lo < 190e6 {
		t.Fatalf("delays from %v to %v, want 10 ms to 210 ms", lo, hi)
	}
}
