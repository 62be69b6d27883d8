package ratings

import (
	"math"
	"math/rand/v2"
	"testing"
)

// minDiff is the smallest margin over every split into teams of sizes
// n/2 and n-n/2, by brute force over all subsets (team 0 any size that
// fits, either side).
func minDiff(ratings []float64) float64 {
	n := len(ratings)
	best := math.Inf(1)
	for mask := 0; mask < 1<<n; mask++ {
		c := 0
		var s [2]float64
		for i, r := range ratings {
			if mask&(1<<i) != 0 {
				c++
				s[0] += r
			} else {
				s[1] += r
			}
		}
		if c == n/2 || c == n-n/2 {
			best = math.Min(best, math.Abs(s[0]-s[1]))
		}
	}
	return best
}

// Balance finds the smallest margin there is, with teams of equal size
// (one more on a side for an odd count), for known and random ratings.
func TestBalance(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := [][]float64{
		{2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300},
		{1500, 1500, 1500, 1500},
		{2400, 1500, 1500, 1500, 1500, 1500, 1500, 600},
		{1700, 1600, 1500},
	}
	for range 30 {
		n := 2 + rng.IntN(9)
		r := make([]float64, n)
		for i := range r {
			r[i] = 1000 + rng.Float64()*1000
		}
		cases = append(cases, r)
	}
	for _, rs := range cases {
		teams := Balance(rs)
		count := 0
		for _, tm := range teams {
			count += tm
		}
		if count != len(rs)/2 && count != len(rs)-len(rs)/2 {
			t.Fatalf("%v: team sizes %v", rs, teams)
		}
		if d, want := SumDiff(rs, teams), minDiff(rs); math.Abs(d-want) > 1e-6 {
			t.Fatalf("%v: margin %.3f, smallest %.3f (%v)", rs, d, want, teams)
		}
	}
	if d := SumDiff(cases[0], Balance(cases[0])); d != 0 {
		t.Fatalf("even ladder: margin %v", d)
	}
}
