package ratings

import (
	"math"
	"math/bits"
)

// maxBalance bounds the players Balance searches exhaustively (a game
// holds 16; C(16, 8) = 12870 splits).
const maxBalance = 16

// Balance splits players with the given ratings into two teams whose
// sizes differ by at most one and whose rating sums differ as little as
// possible (an exhaustive search: the smallest margin there is). It
// returns each player's team, 0 or 1; the first player is on team 0.
// Ties go to the first split in order, so the result is deterministic.
func Balance(ratings []float64) []int {
	n := len(ratings)
	teams := make([]int, n)
	if n < 2 || n > maxBalance {
		for i := range teams {
			teams[i] = i % 2
		}
		return teams
	}
	total := 0.0
	for _, r := range ratings {
		total += r
	}
	size := n / 2
	best, bestDiff := uint32(0), math.Inf(1)
	// Masks with player 0 on team 0: the team-0 players are the bits.
	for mask := uint32(1); mask < 1<<n; mask += 2 {
		c := bits.OnesCount32(mask)
		if c != size && c != n-size {
			continue
		}
		sum := 0.0
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				sum += ratings[i]
			}
		}
		if d := math.Abs(2*sum - total); d < bestDiff-1e-9 {
			best, bestDiff = mask, d
		}
	}
	for i := range teams {
		if best&(1<<i) == 0 {
			teams[i] = 1
		}
	}
	return teams
}

// SumDiff is the difference of the two teams' rating sums.
func SumDiff(ratings []float64, teams []int) float64 {
	var s [2]float64
	for i, r := range ratings {
		s[teams[i]&1] += r
	}
	return math.Abs(s[0] - s[1])
}
